#pragma once
/// Where the tests find the clone's files and the program under test.
///
/// The paths are compiled into one generated file (`build/tests/duels_test_paths.cpp`), not into
/// every test file: a clone in another folder then recompiles that one file, and every test file
/// is found in the compiler cache.
#include <string>

namespace duels_test {

/// The root of the source tree (the clone).
const std::string& source_dir();
/// `tests/data` in the source tree.
const std::string& test_data_dir();
/// The `duels` program built beside the tests; empty when it is not built.
const std::string& binary();

}  // namespace duels_test
