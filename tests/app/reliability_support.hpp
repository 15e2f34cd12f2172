#pragma once
/// @file What the reliability tests share: running the real `duels` with an environment, a
/// sandbox folder per test, a journal by the built-in opponent, a damaged line.
#include <sys/stat.h>
#include <sys/wait.h>

#include <chrono>
#include <fstream>
#include <thread>

#include <filesystem>
#include <string>

#include <gtest/gtest.h>

#include "files.hpp"
#include "run_duels.hpp"
#include "test_paths.hpp"

namespace duels_reliability {

using duels_test::damage_line;
using duels_test::slurp;
using duels_test::spit;

namespace fs = std::filesystem;

inline bool has(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

struct Outcome {
  int code = -1;    ///< exit code; -1 when killed by a signal
  int signal = 0;   ///< the signal that killed it
  std::string out;  ///< stdout and stderr together
};

// Runs `duels ARGS` with `env`; stderr joins stdout unless `stderr_too` is false (then it is
// dropped, for JSON on stdout).
inline Outcome run(const std::string& env, const std::string& args, bool stderr_too = true) {
  const duels::testing::Captured c = duels::testing::capture(
      env + " " + duels_test::binary() + " " + args + (stderr_too ? " 2>&1" : " 2>/dev/null"));
  Outcome r;
  r.out = c.out;
  if (WIFEXITED(c.status)) r.code = WEXITSTATUS(c.status);
  // popen runs a shell: a child killed by a signal shows as exit 128+N.
  if (r.code > 128) r.signal = r.code - 128;
  return r;
}

// Runs a shell command line as it is (stderr joined), for what `run` cannot say: a `timeout`
// around the program, a limit set before it starts.
inline Outcome shell(const std::string& script) {
  const duels::testing::Captured c = duels::testing::capture("{ " + script + " ; } 2>&1");
  Outcome r;
  r.out = c.out;
  if (WIFEXITED(c.status)) r.code = WEXITSTATUS(c.status);
  if (r.code > 128) r.signal = r.code - 128;
  return r;
}

// Waits up to 10 s until some process holds a flock on `path` (/proc/locks lists it by the
// file's inode): a writer started in the background has opened the journal.
inline bool wait_for_flock(const std::string& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) return false;
  const std::string inode = ":" + std::to_string(st.st_ino) + " ";
  for (int i = 0; i < 400; ++i) {
    std::ifstream locks("/proc/locks");
    std::string line;
    while (std::getline(locks, line)) {
      if (has(line, "FLOCK") && has(line, inode)) return true;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(25));
  }
  return false;
}

struct Sandbox {
  fs::path dir;
  std::string env;
  explicit Sandbox(const std::string& name)
      : dir(fs::path(::testing::TempDir()) / ("reliability_" + name)) {
    fs::remove_all(dir);
    fs::create_directories(dir);
    env = "XDG_DATA_HOME='" + dir.string() + "/data'";
  }
  [[nodiscard]] std::string file(const std::string& name) const { return (dir / name).string(); }
  [[nodiscard]] int count() const {
    int n = 0;
    for ([[maybe_unused]] const auto& e : fs::directory_iterator(dir))
      ++n;
    return n;
  }
};

// A journal of `commands` commands by the built-in opponent.
inline std::string autoplayed(const Sandbox& box, const std::string& name, int commands) {
  const std::string j = box.file(name);
  const Outcome r = run(box.env,
                        "match autoplay --figures Razor,Bulldozer --seed 4 --quiet "
                        "--max-commands " +
                            std::to_string(commands) + " --journal " + j);
  EXPECT_EQ(r.code, 0) << r.out;
  return j;
}

}  // namespace duels_reliability
