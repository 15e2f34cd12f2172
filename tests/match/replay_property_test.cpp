// One rule, one place: a command the engine accepts is a command the journal replays. Matches
// played by the built-in opponent with one command in three pushed to an extreme are journaled,
// read back and replayed; the states must agree after every event. The fuzz target
// fuzz/fuzz_replay_roundtrip.cpp runs the same property on choices a fuzzer makes.
#include <gtest/gtest.h>

#include "dice/roller.hpp"
#include "duels/limits.hpp"
#include "match/duels_match.hpp"
#include "replay_property.hpp"

namespace duels::match {
namespace {

#ifdef DUELS_SANITIZED
constexpr std::uint64_t kCommands = 6000;
#else
constexpr std::uint64_t kCommands = 60000;
#endif

duels_test::RoundTrip run(bool measured, bool catalogue, std::uint64_t first_seed,
                          std::uint64_t commands) {
  const MatchSetup setup = duels_test::property_setup(measured, catalogue);
  dice::Rng rng(first_seed);
  duels_test::Extremes x([&](std::uint32_t n) {
    return static_cast<std::uint32_t>(rng.uniform(static_cast<int>(n)) - 1);
  });
  duels_test::RoundTrip out;
  for (std::uint64_t seed = first_seed; out.commands < commands && out.failures.empty(); ++seed)
    duels_test::round_trip_match(setup, seed, 600, x, out);
  return out;
}

void expect_round_trip(const duels_test::RoundTrip& r, std::uint64_t commands) {
  for (const auto& f : r.failures)
    ADD_FAILURE() << f;
  EXPECT_GE(r.commands, commands);
  // The property is only worth something when the extremes get through to the journal.
  EXPECT_GT(r.extremes, r.accepted / 100) << r.extremes << " of " << r.accepted;
  EXPECT_GT(r.undos, 0U);
  ::testing::Test::RecordProperty("commands", static_cast<int>(r.commands));
  ::testing::Test::RecordProperty("accepted", static_cast<int>(r.accepted));
  ::testing::Test::RecordProperty("extremes", static_cast<int>(r.extremes));
}

TEST(ReplayProperty, EveryAcceptedCommandReplaysOnAMeasuredTable) {
  expect_round_trip(run(true, true, 1, kCommands), kCommands);
}

TEST(ReplayProperty, EveryAcceptedCommandReplaysOnAnOpenTable) {
  expect_round_trip(run(true, false, 5001, kCommands / 2), kCommands / 2);
}

TEST(ReplayProperty, EveryAcceptedCommandReplaysInAFormat1Match) {
  expect_round_trip(run(false, false, 9001, kCommands / 2), kCommands / 2);
}

// The reproduction from the issue: a round terrain piece of radius 0.0000001" was accepted and
// played on, and every later open of the journal refused it (the reader wanted 1e-6).
TEST(ReplayProperty, ATinyTerrainPieceIsRefusedWhereItIsTyped) {
  GameState s = *new_game(duels_test::property_setup(true, false));
  ASSERT_TRUE(duels::apply(s, RollForAlpha{{{0, {6, 6}}, {1, {1, 1}}}}));
  const auto refused =
      duels::apply(s, PlaceTerrain{s.placing, "Rock", Shape::make_circle({30, 30}, 0.0000001)});
  ASSERT_FALSE(refused);
  EXPECT_NE(refused.error().reason.find("radius must be from 1e-06 to 1000 inches"),
            std::string::npos)
      << refused.error().reason;
  // The smallest radius the engine takes is one the reader takes back.
  GameState t = s;
  ASSERT_TRUE(duels::apply(
      t, PlaceTerrain{s.placing, "Rock", Shape::make_circle({30, 30}, limits::kMinRadiusIn)}));
  const auto line = command_to_json(
      PlaceTerrain{s.placing, "Rock", Shape::make_circle({30, 30}, limits::kMinRadiusIn)});
  EXPECT_NO_THROW((void)command_from_json(nlohmann::json::parse(line.dump())));
}

}  // namespace
}  // namespace duels::match
