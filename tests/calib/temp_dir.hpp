#pragma once
// A fresh temporary folder per test, removed afterwards.

#include <gtest/gtest.h>

#include <filesystem>
#include <string>

namespace duels::calib::testing {

/// Creates build-tree-independent scratch space under the system temp folder.
class TempDir {
 public:
  TempDir() {
    const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
    path_ = std::filesystem::temp_directory_path() /
            (std::string("duels_calib_") + info->test_suite_name() + "_" + info->name());
    std::filesystem::remove_all(path_);
    std::filesystem::create_directories(path_);
  }
  ~TempDir() {
    std::error_code ec;
    std::filesystem::remove_all(path_, ec);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;

  [[nodiscard]] std::string path() const { return path_.string(); }
  [[nodiscard]] std::string file(const std::string& name) const { return (path_ / name).string(); }
  /// Number of entries in the folder (to check that nothing was written).
  [[nodiscard]] int count() const {
    int n = 0;
    for ([[maybe_unused]] const auto& e : std::filesystem::directory_iterator(path_))
      ++n;
    return n;
  }

 private:
  std::filesystem::path path_;
};

}  // namespace duels::calib::testing
