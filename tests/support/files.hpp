#pragma once
/// Whole-file reads and writes for tests that build or damage journals and other files by hand.
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

namespace duels_test {

/// The file's bytes ("" when it cannot be read).
inline std::string slurp(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream bytes;
  bytes << in.rdbuf();
  return bytes.str();
}

/// Replaces the file's bytes with `text` (a plain write: tests use it to plant damage).
inline void spit(const std::filesystem::path& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << text;
}

}  // namespace duels_test
