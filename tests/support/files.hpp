#pragma once
/// Whole-file reads and writes for tests that build or damage journals and other files by hand.
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include <unistd.h>

namespace duels_test {

/// A fresh folder under the test temporary directory (`NAME_PID`), removed again with whatever a
/// test left in it.
struct ScratchFolder {
  std::filesystem::path path;
  explicit ScratchFolder(const std::string& name, const std::string& base)
      : path(base + "/" + name + "_" + std::to_string(::getpid())) {
    std::filesystem::remove_all(path);
    std::filesystem::create_directories(path);
  }
  ~ScratchFolder() {
    std::error_code ec;
    std::filesystem::remove_all(path, ec);
  }
  ScratchFolder(const ScratchFolder&) = delete;
  ScratchFolder& operator=(const ScratchFolder&) = delete;
  [[nodiscard]] std::string file(const std::string& name) const { return (path / name).string(); }
};

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

/// Flips one bit of a byte inside line `line` (1-based) of a file: a checksum no longer matches.
inline void damage_line(const std::filesystem::path& path, int line) {
  std::string text = slurp(path);
  std::size_t pos = 0;
  for (int l = 1; l < line; ++l)
    pos = text.find('\n', pos) + 1;
  text[pos + 10] = static_cast<char>(text[pos + 10] ^ 0x20);
  spit(path, text);
}

}  // namespace duels_test
