#include "duels/sim.hpp"

#include <gtest/gtest.h>

#include "duels/assets.hpp"
#include "duels/autoplay.hpp"
#include "duels/engine.hpp"
#include "duels/scene.hpp"
#include "duels/sim_line.hpp"
#include "duels/table_rules.hpp"
#include "test_paths.hpp"

namespace duels {
namespace {

const AssetLibrary& lib() {
  static const AssetLibrary l = load_asset_library(duels_test::source_dir() + "/assets");
  return l;
}

SimSide side(const char* figure, std::initializer_list<const char*> gear) {
  SimSide s{*lib().find_figure(figure), {}};
  for (const char* g : gear)
    s.gear.push_back(*lib().find_gear(g));
  return s;
}

SimOptions demo_table() {
  SimOptions o;
  o.table =
      table_from_scene(load_scene_file(duels_test::source_dir() + "/assets/scenes/demo_table.yaml",
                                       [](std::string_view n) { return lib().find_figure(n); }));
  return o;
}

TEST(Sim, WilsonIntervalKnownValues) {
  const auto p = wilson(50, 100);
  EXPECT_NEAR(p.low, 0.4038, 1e-4);
  EXPECT_NEAR(p.high, 0.5962, 1e-4);
  const auto z = wilson(0, 20);
  EXPECT_EQ(z.low, 0.0);
  EXPECT_NEAR(z.high, 0.1611, 1e-4);
}

TEST(Sim, SameSeedSameResultOnTheDemoTable) {
  const auto o = demo_table();
  const auto a = simulate(side("Razor", {}), side("Hex", {}), 40, 9, o);
  const auto b = simulate(side("Razor", {}), side("Hex", {}), 40, 9, o);
  EXPECT_EQ(a.wins_a, b.wins_a);
  EXPECT_EQ(a.draws, b.draws);
  EXPECT_EQ(a.commands, b.commands);
  EXPECT_EQ(a.mean_rounds, b.mean_rounds);
  EXPECT_EQ(a.damage_per_round_a, b.damage_per_round_a);
  const auto c = simulate(side("Razor", {}), side("Hex", {}), 40, 10, o);
  EXPECT_NE(a.commands, c.commands);
  EXPECT_EQ(a.wins_a + a.wins_b + a.draws, 40);
}

// A shared odds cache changes nothing but the time taken.
TEST(Sim, SharedOddsCacheGivesTheSameMatches) {
  auto o = demo_table();
  const auto fresh = simulate(side("Gridlock", {"cyberdeck"}), side("Hex", {}), 20, 4, o);
  o.odds = std::make_shared<OddsCache>();
  (void)simulate(side("Gridlock", {"cyberdeck"}), side("Hex", {}), 20, 77, o);
  const auto warm = simulate(side("Gridlock", {"cyberdeck"}), side("Hex", {}), 20, 4, o);
  EXPECT_EQ(fresh.commands, warm.commands);
  EXPECT_EQ(fresh.wins_a, warm.wins_a);
  EXPECT_EQ(fresh.mean_rounds, warm.mean_rounds);
}

// Every match is a whole engine match on the table: terrain from the catalogue, moves and
// attacks (the table property test re-checks them with the oracles through `observe`).
TEST(Sim, PlaysWholeEngineMatchesOnTheTable) {
  auto o = demo_table();
  int terrain = 0, moves = 0, attacks = 0, rounds_seen = 0;
  o.observe = [&](const GameState& s, const Command& c) {
    terrain += std::holds_alternative<PlaceTerrain>(c) ? 1 : 0;
    moves += std::holds_alternative<Move>(c) ? 1 : 0;
    attacks += std::holds_alternative<DeclareAttack>(c) ? 1 : 0;
    rounds_seen = std::max(rounds_seen, s.round);
  };
  const auto r = simulate(side("Razor", {}), side("Hex", {}), 5, 2, o);
  EXPECT_EQ(terrain, 5 * 4);  // the demo table's four pieces, every match
  EXPECT_GT(moves, 5);
  EXPECT_GT(attacks, 5);
  EXPECT_EQ(r.wins_a + r.wins_b + r.draws, 5);
  EXPECT_GT(rounds_seen, 1);
}

TEST(Sim, RoundCapMakesADraw) {
  auto o = demo_table();
  o.round_cap = 1;
  const auto r = simulate(side("Razor", {}), side("Hex", {}), 10, 3, o);
  // Bases start 48" apart and close in by a move a round: nobody is out after one round.
  EXPECT_EQ(r.draws, 10);
  EXPECT_EQ(r.mean_rounds, 1.0);
}

// A lopsided matchup: the engine simulator on the demo table and on a bare table, and the old
// one-dimensional model, all give the same side a large lead.
TEST(Sim, LopsidedMatchupAgreesWithTheLineModel) {
  const SimSide a = side("Razor", {});
  const SimSide b = side("Hex", {"power-focus", "spirit-ward", "stim-patch"});
  const auto line = simulate_line_model(a, b, 4000, 11);
  const auto demo = simulate(a, b, 200, 11, demo_table());
  const auto bare = simulate(a, b, 200, 11, SimOptions{});
  EXPECT_GT(line.win_b.low, 0.8) << line.win_b.p;
  EXPECT_GT(demo.win_b.low, 0.8) << demo.win_b.p;
  EXPECT_GT(bare.win_b.low, 0.8) << bare.win_b.p;
  EXPECT_NEAR(demo.win_b.p, line.win_b.p, 0.1)
      << "demo " << demo.win_b.p << " line " << line.win_b.p;
}

// A mirror match on the bare (symmetric) table: neither seat is favoured.
TEST(Sim, MirrorMatchIsEvenOnABareTable) {
  const auto r =
      simulate(side("Gridlock", {"cyberdeck"}), side("Gridlock", {"cyberdeck"}), 300, 3, {});
  EXPECT_EQ(r.wins_a + r.wins_b + r.draws, 300);
  const double even = 0.5 - r.draws / 600.0;
  EXPECT_LE(r.win_a.low, even + 0.001) << r.win_a.p;
  EXPECT_GE(r.win_a.high, even - 0.001) << r.win_a.p;
}

// Razor's sniper rifle and smartgun link add dice and range: it deals more damage per round and
// wins more often than bare Razor against the same Hex.
TEST(Sim, GearThatMattersShowsUpOnTheDemoTable) {
  const auto o = demo_table();
  const auto bare = simulate(side("Razor", {}), side("Hex", {}), 200, 5, o);
  const auto geared =
      simulate(side("Razor", {"smartgun-link", "sniper-rifle"}), side("Hex", {}), 200, 5, o);
  EXPECT_GT(geared.damage_per_round_a, bare.damage_per_round_a * 1.15)
      << bare.damage_per_round_a << " vs " << geared.damage_per_round_a;
  EXPECT_GT(geared.win_a.p, bare.win_a.p) << bare.win_a.p << " vs " << geared.win_a.p;
}

// The simulator plays through apply_quietly, the engine without its words: at every step of
// seeded matches on the demo table (gear lost, stuns, eliminations), it leaves exactly the state
// apply leaves, and refuses what apply refuses with the same reason.
TEST(Sim, QuietEngineLeavesTheSameStatesAsTheEngine) {
  const SimSide a = side("Razor", {"armored-jacket", "smartgun-link", "stim-patch"});
  const SimSide b = side("Hex", {"power-focus", "spirit-ward", "stim-patch"});
  MatchSetup setup;
  setup.table = demo_table().table;
  setup.teams.push_back({"A", {{a.figure, a.gear, std::nullopt}}});
  setup.teams.push_back({"B", {{b.figure, b.gear, std::nullopt}}});
  int steps = 0, refusals = 0, quiet_events = 0;
  for (std::uint64_t seed = 1; seed <= 12; ++seed) {
    GameState s = *new_game(setup);
    AutoPlayer player(seed);
    while (s.phase != Phase::GameOver && s.round <= 100) {
      const auto c = player.next(s);
      if (!c) break;
      // A command that is refused at this point (the other side ending a turn it doesn't have).
      for (FigureId f = 0; f < 2; ++f) {
        GameState loud = s, quiet = s;
        const auto said = duels::apply(loud, EndTurn{f});
        const auto refused = apply_quietly(quiet, EndTurn{f});
        ASSERT_EQ(said.has_value(), !refused.has_value()) << "seed " << seed;
        if (refused) {
          ++refusals;
          EXPECT_EQ(refused->code, said.error().code);
          EXPECT_EQ(refused->reason, said.error().reason);
        }
        EXPECT_TRUE(loud == quiet) << "seed " << seed;
      }
      GameState quiet = s;
      const auto said = duels::apply(s, *c);
      ASSERT_TRUE(said) << said.error().reason;
      ASSERT_FALSE(apply_quietly(quiet, *c)) << "seed " << seed << ": " << command_name(*c);
      ASSERT_TRUE(s == quiet) << "seed " << seed << " step " << steps << ": " << command_name(*c);
      ASSERT_EQ(state_hash(s), state_hash(quiet));
      quiet_events += said->empty() ? 0 : 1;
      ++steps;
    }
    EXPECT_EQ(s.phase, Phase::GameOver) << "seed " << seed;
  }
  EXPECT_GT(steps, 12 * 30);
  EXPECT_GT(refusals, steps / 2);
  EXPECT_EQ(quiet_events, steps);  // apply itself still tells every step
}

TEST(SimLineModel, SameSeedSameResult) {
  const auto a = simulate_line_model(side("Razor", {}), side("Hex", {}), 500, 9);
  const auto b = simulate_line_model(side("Razor", {}), side("Hex", {}), 500, 9);
  EXPECT_EQ(a.wins_a, b.wins_a);
  EXPECT_EQ(a.mean_rounds, b.mean_rounds);
  const auto c = simulate_line_model(side("Razor", {}), side("Hex", {}), 500, 10);
  EXPECT_NE(a.mean_rounds, c.mean_rounds);
}

}  // namespace
}  // namespace duels
