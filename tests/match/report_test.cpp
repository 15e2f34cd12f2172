#include "match/report.hpp"

#include <gtest/gtest.h>

#include "duels/assets.hpp"
#include "duels/autoplay.hpp"
#include "test_paths.hpp"

namespace duels::match {
namespace {

TEST(Report, ChiSquareUpperTailKnownValues) {
  EXPECT_NEAR(chi_square_p_value(3.841459, 1), 0.05, 1e-5);
  EXPECT_NEAR(chi_square_p_value(11.0705, 5), 0.05, 1e-5);
  EXPECT_NEAR(chi_square_p_value(23.2093, 10), 0.01, 1e-5);
  EXPECT_NEAR(chi_square_p_value(0.0, 3), 1.0, 1e-12);
  EXPECT_NEAR(chi_square_p_value(2.0, 2), std::exp(-1.0), 1e-12);  // k = 2: p = e^(−x/2)
}

Replay autoplayed(std::uint64_t seed) {
  const auto lib = load_asset_library(duels_test::source_dir() + "/assets");
  Replay r;
  r.setup.teams.push_back({"A", {{*lib.find_figure("Razor"), {}, std::nullopt}}});
  r.setup.teams.push_back(
      {"B", {{*lib.find_figure("Gridlock"), {*lib.find_gear("cyberdeck")}, std::nullopt}}});
  r.state = *new_game(r.setup);
  AutoPlayer ai(seed);
  std::uint64_t seq = 0;
  while (auto c = ai.next(r.state)) {
    auto events = duels::apply(r.state, *c);
    r.steps.push_back({++seq, *c, *events});
  }
  r.last_seq = seq;
  return r;
}

TEST(Report, NumbersAddUp) {
  const Replay r = autoplayed(12);
  const MatchReport rep = build_report(r);
  EXPECT_EQ(rep.rounds, r.state.round);
  EXPECT_NE(rep.result.find("won"), std::string::npos);
  // Every die rolled is counted once in the luck table.
  int rolled = 0;
  for (const auto& l : rep.luck) {
    int sum = 0;
    for (int o : l.observed)
      sum += o;
    EXPECT_EQ(sum, l.rolls);
    EXPECT_GE(l.p_value, 0.0);
    EXPECT_LE(l.p_value, 1.0);
    rolled += l.rolls;
  }
  EXPECT_EQ(rolled, static_cast<int>(rep.rolls.size()));
  // Damage per round adds up to the clicks the dials moved.
  for (const auto& f : r.state.figures) {
    int taken = 0;
    for (int v : rep.damage_by_round.at(f.def.name))
      taken += v;
    EXPECT_EQ(taken, f.dial[0] + f.dial[1] + f.dial[2]) << f.def.name;
    EXPECT_EQ(rep.dials.at(f.def.name).back().position, f.dial);
  }
}

}  // namespace
}  // namespace duels::match
