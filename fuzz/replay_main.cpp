// Runs a libFuzzer target without libFuzzer (for gcc builds and CI): every file of the corpus
// folders given on the command line, then seeded random mutations of them. A crash fails the
// test and leaves the input that caused it in ./fuzz-crash-input (run the target on that file's
// folder to reproduce it); the last line says how many inputs ran.
#include <csignal>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "dice/roller.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size);

namespace {

const std::string* g_current = nullptr;  // the input being run, for the crash dump

[[noreturn]] void dump_and_abort() {
  if (g_current != nullptr) {
    if (std::FILE* f = std::fopen("fuzz-crash-input", "wb")) {
      std::fwrite(g_current->data(), 1, g_current->size(), f);
      std::fclose(f);
      std::fprintf(stderr, "the failing input (%zu bytes) is in ./fuzz-crash-input\n",
                   g_current->size());
    }
  }
  std::signal(SIGABRT, SIG_DFL);
  std::abort();
}

void run(const std::string& input) {
  g_current = &input;
  LLVMFuzzerTestOneInput(reinterpret_cast<const std::uint8_t*>(input.data()), input.size());
  g_current = nullptr;
}

}  // namespace

int main(int argc, char** argv) {
  std::set_terminate([] {
    std::fprintf(stderr, "an exception escaped the fuzz target\n");
    dump_and_abort();
  });
  for (int sig : {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT})
    std::signal(sig, [](int) { dump_and_abort(); });
  std::vector<std::string> corpus;
  int iterations = 20000;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg.rfind("--iterations=", 0) == 0) {
      iterations = std::stoi(arg.substr(13));
      continue;
    }
    std::error_code ec;
    for (const auto& entry : std::filesystem::directory_iterator(arg, ec)) {
      std::ifstream in(entry.path(), std::ios::binary);
      corpus.emplace_back(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
    }
  }
  if (corpus.empty()) corpus.emplace_back("");
  long runs = 0;
  for (const auto& input : corpus) {
    run(input);
    ++runs;
  }
  duels::dice::Rng rng(20261121);
  for (int i = 0; i < iterations; ++i) {
    std::string s =
        corpus[static_cast<std::size_t>(rng.uniform(static_cast<int>(corpus.size())) - 1)];
    const int edits = rng.uniform(8);
    for (int e = 0; e < edits; ++e) {
      const int kind = rng.uniform(4);
      const std::size_t pos =
          s.empty() ? 0 : static_cast<std::size_t>(rng.uniform(static_cast<int>(s.size())) - 1);
      const char byte = static_cast<char>(rng.uniform(256) - 1);
      if (kind == 1 && !s.empty()) {
        s[pos] = byte;
      } else if (kind == 2) {
        s.insert(pos, 1, byte);
      } else if (kind == 3 && !s.empty()) {
        s.erase(pos, 1);
      } else {
        const auto& other =
            corpus[static_cast<std::size_t>(rng.uniform(static_cast<int>(corpus.size())) - 1)];
        s.insert(pos, other.substr(0, static_cast<std::size_t>(rng.uniform(64))));
      }
    }
    run(s);
    ++runs;
  }
  std::printf("%ld passed, 0 failed\n", runs);
  return 0;
}
