// libFuzzer target: the journal's round-trip property (tests/support/replay_property.hpp) on
// choices the fuzzer makes. Each input plays one match: its first bytes pick the table and the
// seed, every further byte one choice (which command is pushed to an extreme, and how); past
// the input's end the choices come from a generator seeded by it. Any command the engine
// accepts that the journal cannot write, read back or replay to the same state aborts.
// At exit it prints how many commands it tried, so a run's count goes into docs/reliability.md.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>

#include "dice/roller.hpp"
#include "replay_property.hpp"

namespace {

duels_test::RoundTrip g_total;

void report() {
  std::fprintf(stderr,
               "fuzz_replay_roundtrip: %llu commands tried, %llu accepted (%llu with a field at "
               "an extreme), %llu undo/redo, %llu matches, 0 differences\n",
               static_cast<unsigned long long>(g_total.commands),
               static_cast<unsigned long long>(g_total.accepted),
               static_cast<unsigned long long>(g_total.extremes),
               static_cast<unsigned long long>(g_total.undos),
               static_cast<unsigned long long>(g_total.matches));
}

const duels::MatchSetup& setup(int kind) {
  static const duels::MatchSetup kSetups[] = {duels_test::property_setup(true, true),
                                              duels_test::property_setup(true, false),
                                              duels_test::property_setup(false, false)};
  return kSetups[kind];
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const bool registered = [] { return std::atexit(report) == 0; }();
  (void)registered;
  if (size < 2 || size > 4096) return 0;
  const int kind = data[0] % 3;
  std::uint64_t seed = data[1];
  for (std::size_t i = 2; i < size && i < 8; ++i)
    seed = seed * 257 + data[i];
  std::size_t at = size < 8 ? size : 8;
  duels::dice::Rng rng(seed ^ 0x9e3779b97f4a7c15ULL);
  duels_test::Extremes x([&](std::uint32_t n) -> std::uint32_t {
    if (at < size) return data[at++] % n;
    return static_cast<std::uint32_t>(rng.uniform(static_cast<int>(n)) - 1);
  });
  duels_test::RoundTrip one;
  duels_test::round_trip_match(setup(kind), seed, 400, x, one);
  g_total.commands += one.commands;
  g_total.accepted += one.accepted;
  g_total.extremes += one.extremes;
  g_total.undos += one.undos;
  g_total.matches += one.matches;
  if (!one.failures.empty()) {
    std::fprintf(stderr, "%s\n", one.failures.front().c_str());
    std::abort();
  }
  return 0;
}
