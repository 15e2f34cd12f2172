#pragma once
/// @file Runs the built `duels` executable as a player would, for the end-to-end tests in
/// tests/app (`duels_test::binary()` is the path of the program under test).

#include <sys/wait.h>

#include <array>
#include <cstdio>
#include <string>
#include "test_paths.hpp"

namespace duels::testing {

/// What a shell command printed on stdout and its wait status.
struct Captured {
  int status = -1;
  std::string out;
};

/// Runs `command` through the shell and collects its stdout (append " 2>&1" for stderr too).
inline Captured capture(const std::string& command) {
  Captured c;
  FILE* pipe = popen(command.c_str(), "r");
  if (pipe == nullptr) return c;
  std::array<char, 4096> buf{};
  std::size_t n = 0;
  while ((n = std::fread(buf.data(), 1, buf.size(), pipe)) > 0)
    c.out.append(buf.data(), n);
  c.status = pclose(pipe);
  return c;
}

/// One run of `duels`: its exit code (-1 when it did not exit) and stdout and stderr together.
struct CmdResult {
  int code = -1;
  std::string out;
};

/// Runs `duels ARGS` with `env` (like "XDG_DATA_HOME=/tmp/x ") set for it.
inline CmdResult run_env(const std::string& env, const std::string& args) {
  const Captured c = capture(env + duels_test::binary() + " " + args + " 2>&1");
  return {WIFEXITED(c.status) ? WEXITSTATUS(c.status) : -1, c.out};
}

/// Runs `duels ARGS`.
inline CmdResult run(const std::string& args) {
  return run_env("", args);
}

}  // namespace duels::testing
