// The built-in opponent plays whole matches through the engine: every command it makes must be
// legal, every match must end, and a seed must always give the same match.
#include "duels/autoplay.hpp"

#include <gtest/gtest.h>

#include "duels/assets.hpp"
#include "duels/engine.hpp"
#include "duels/loadout.hpp"
#include "test_paths.hpp"

namespace duels {
namespace {

MatchSetup setup_of(const AssetLibrary& lib, const std::vector<std::string>& teams) {
  return setup_from_teams(lib, teams);
}

struct Played {
  GameState state;
  int commands = 0;
};

Played play(const MatchSetup& setup, std::uint64_t seed) {
  Played p{*new_game(setup), 0};
  AutoPlayer player(seed);
  while (p.state.phase != Phase::GameOver && p.state.round <= 200) {
    auto cmd = player.next(p.state);
    if (!cmd) break;
    auto r = duels::apply(p.state, *cmd);
    EXPECT_TRUE(r) << "seed " << seed << ": " << command_name(*cmd) << ": "
                   << (r ? "" : r.error().reason);
    if (!r) break;
    ++p.commands;
  }
  return p;
}

TEST(AutoPlay, EveryPairingPlaysToAWinner) {
  const auto lib = load_asset_library(duels_test::source_dir() + "/assets");
  std::vector<std::string> names;
  for (const auto& [n, t] : lib.teams)
    names.push_back(n);
  for (std::size_t a = 0; a < names.size(); ++a) {
    for (std::size_t b = 0; b < names.size(); ++b) {
      if (a == b) continue;
      for (std::uint64_t seed = 1; seed <= 12; ++seed) {
        const Played p = play(setup_of(lib, {names[a], names[b]}), seed);
        EXPECT_EQ(p.state.phase, Phase::GameOver)
            << names[a] << " vs " << names[b] << " seed " << seed;
        EXPECT_TRUE(p.state.winner.has_value());
      }
    }
  }
}

TEST(AutoPlay, ThreeTeamsRotateAlphaAndFinish) {
  const auto lib = load_asset_library(duels_test::source_dir() + "/assets");
  for (std::uint64_t seed = 1; seed <= 10; ++seed) {
    const Played p = play(setup_of(lib, {"Street Team", "Arcane Team", "Tech Team"}), seed);
    EXPECT_EQ(p.state.phase, Phase::GameOver) << "seed " << seed;
  }
}

TEST(AutoPlay, SameSeedSameMatch) {
  const auto lib = load_asset_library(duels_test::source_dir() + "/assets");
  const auto setup = setup_of(lib, {"Heavy Team", "Tech Team"});
  const Played a = play(setup, 99);
  const Played b = play(setup, 99);
  EXPECT_EQ(a.commands, b.commands);
  EXPECT_EQ(state_hash(a.state), state_hash(b.state));
  const Played c = play(setup, 100);
  EXPECT_NE(state_hash(a.state), state_hash(c.state));
}

}  // namespace
}  // namespace duels
