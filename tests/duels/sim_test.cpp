#include "duels/sim.hpp"

#include <gtest/gtest.h>

#include "duels/assets.hpp"
#include "duels/autoplay.hpp"

namespace duels {
namespace {

const AssetLibrary& lib() {
  static const AssetLibrary l = load_asset_library(std::string(DUELS_SOURCE_DIR) + "/assets");
  return l;
}

SimSide side(const char* figure, std::initializer_list<const char*> gear) {
  SimSide s{*lib().find_figure(figure), {}};
  for (const char* g : gear)
    s.gear.push_back(*lib().find_gear(g));
  return s;
}

TEST(Sim, WilsonIntervalKnownValues) {
  const auto p = wilson(50, 100);
  EXPECT_NEAR(p.low, 0.4038, 1e-4);
  EXPECT_NEAR(p.high, 0.5962, 1e-4);
  const auto z = wilson(0, 20);
  EXPECT_EQ(z.low, 0.0);
  EXPECT_NEAR(z.high, 0.1611, 1e-4);
}

TEST(Sim, SameSeedSameResult) {
  const auto a = simulate(side("Razor", {}), side("Hex", {}), 500, 9);
  const auto b = simulate(side("Razor", {}), side("Hex", {}), 500, 9);
  EXPECT_EQ(a.wins_a, b.wins_a);
  EXPECT_EQ(a.mean_rounds, b.mean_rounds);
  const auto c = simulate(side("Razor", {}), side("Hex", {}), 500, 10);
  EXPECT_NE(a.mean_rounds, c.mean_rounds);
}

TEST(Sim, MirrorMatchIsEven) {
  const auto r =
      simulate(side("Gridlock", {"cyberdeck"}), side("Gridlock", {"cyberdeck"}), 4000, 3);
  EXPECT_EQ(r.wins_a + r.wins_b + r.draws, 4000);
  EXPECT_LE(r.win_a.low, 0.5 - r.draws / 8000.0 + 0.001);
  EXPECT_GE(r.win_a.high, 0.5 - r.draws / 8000.0 - 0.001);
}

TEST(Sim, GearThatMattersShowsUp) {
  // Razor's only bonus is yellow and its yellow die is short-ranged; an armour piece against the
  // colours Hex attacks with should not hurt it, and extra dice should help.
  const auto bare = simulate(side("Razor", {}), side("Hex", {}), 3000, 5);
  const auto geared =
      simulate(side("Razor", {"smartgun-link", "sniper-rifle"}), side("Hex", {}), 3000, 5);
  EXPECT_GT(geared.win_a.low, bare.win_a.high) << bare.win_a.p << " vs " << geared.win_a.p;
}

// The simulator and the full engine with the built-in opponent agree on who is favoured.
TEST(Sim, AgreesWithTheEngineOnTheFavourite) {
  const SimSide a = side("Razor", {});
  const SimSide b = side("Hex", {"power-focus", "spirit-ward", "stim-patch"});
  const auto sim = simulate(a, b, 4000, 11);
  MatchSetup setup;
  setup.teams.push_back({"A", {{a.figure, a.gear, std::nullopt}}});
  setup.teams.push_back({"B", {{b.figure, b.gear, std::nullopt}}});
  int engine_wins_b = 0;
  const int games = 300;
  auto cache = std::make_shared<OddsCache>();
  for (int g = 0; g < games; ++g) {
    GameState s = *new_game(setup);
    AutoPlayer ai(static_cast<std::uint64_t>(g) + 100, cache);
    while (auto c = ai.next(s))
      ASSERT_TRUE(duels::apply(s, *c));
    engine_wins_b += s.winner == 1 ? 1 : 0;
  }
  const auto engine = wilson(engine_wins_b, games);
  EXPECT_GT(sim.win_b.p, 0.5);
  EXPECT_GT(engine.p, 0.5);
  // Same policy family, slightly different movement: within 15 points of each other.
  EXPECT_NEAR(sim.win_b.p, engine.p, 0.15) << "sim " << sim.win_b.p << " engine " << engine.p;
}

}  // namespace
}  // namespace duels
