#include "duels/odds.hpp"

#include <gtest/gtest.h>

#include <cmath>

#include "dice/notation.hpp"
#include "dice/roller.hpp"

namespace duels {
namespace {

using dice::Colour;

std::vector<dice::Die> pool(const char* text) {
  auto p = dice::parse_pool(text);
  EXPECT_TRUE(p);
  return p ? *p : std::vector<dice::Die>{};
}

void expect_same(const OddsResult& a, const OddsResult& b) {
  EXPECT_EQ(a.total, b.total);
  EXPECT_EQ(a.hit, b.hit);
  const std::size_t n = std::max(a.clicks.size(), b.clicks.size());
  for (std::size_t k = 0; k < n; ++k) {
    EXPECT_EQ(k < a.clicks.size() ? a.clicks[k] : 0, k < b.clicks.size() ? b.clicks[k] : 0) << k;
  }
  for (int e = 0; e < 4; ++e) {
    const auto effect = static_cast<AceEffect>(e);
    const auto ea = a.effect.count(effect) ? a.effect.at(effect) : 0;
    const auto eb = b.effect.count(effect) ? b.effect.at(effect) : 0;
    EXPECT_EQ(ea, eb) << ace_effect_name(effect);
  }
}

TEST(Odds, SingleDieAgainstNothing) {
  OddsQuery q{.weapon = 3, .body = 6, .attack = pool("yellow:d6")};
  const auto r = attack_odds(q);
  EXPECT_EQ(r.total, 6U);
  EXPECT_EQ(r.hit, 4U);  // 3,4,5,6
  EXPECT_EQ(r.clicks[1], 4U);
  EXPECT_EQ(r.clicks[0], 2U);
}

TEST(Odds, BadKarmaPairOfD4) {
  // Two d4: same number (4 of 16) loses both dice → miss.
  OddsQuery q{.weapon = 10, .body = 0, .attack = pool("2xyellow:d4")};
  const auto r = attack_odds(q);
  EXPECT_EQ(r.hit, 12U);
  EXPECT_EQ(r.clicks[2], 12U);
}

TEST(Odds, MatchesFullEnumerationOnRandomQueries) {
  dice::Rng rng(2024);
  const std::vector<int> sizes = {4, 6, 8, 10, 12};
  for (int trial = 0; trial < 60; ++trial) {
    OddsQuery q;
    q.weapon = rng.uniform(10);
    q.body = rng.uniform(14);
    const int na = rng.uniform(3) + (trial % 2);  // 1..4 attack dice
    const int nd = rng.uniform(3) - 1;            // 0..2 dodge dice
    for (int i = 0; i < na; ++i) {
      q.attack.push_back({sizes[static_cast<std::size_t>(rng.uniform(3) - 1)],
                          dice::kAllColours[static_cast<std::size_t>(rng.uniform(6) - 1)],
                          rng.uniform(2) == 1, ""});
    }
    for (int i = 0; i < nd; ++i) {
      q.dodge.push_back({sizes[static_cast<std::size_t>(rng.uniform(5) - 1)], Colour::White,
                         rng.uniform(3) == 1, ""});
    }
    if (rng.uniform(2) == 1) q.shields.push_back(q.attack[0].colour);
    if (rng.uniform(2) == 1) q.bonus[q.attack.back().colour] = rng.uniform(2);
    SCOPED_TRACE(dice::to_notation(q.attack) + " vs " + dice::to_notation(q.dodge));
    expect_same(attack_odds(q), attack_odds_enumerated(q));
  }
}

TEST(Odds, LargePoolsUseTheSparsePathAndStillAgree) {
  OddsQuery q{.weapon = 4,
              .body = 9,
              .attack = pool("3xyellow:d4 blue:d4:ace green:d6 black:d4 red:d4:ace"),
              .dodge = pool("white:d4"),
              .shields = {Colour::Yellow},
              .bonus = {{Colour::Green, 1}}};
  ASSERT_GT(q.attack.size(), 6U);
  expect_same(attack_odds(q), attack_odds_enumerated(q));
}

// The attack side worked out once and folded with each dodge: the counts attack_odds gives for
// every dodge, on random queries and on a large pool (the sparse path), and the same expected
// clicks to the bit.
TEST(Odds, AttackSideAgainstEachDodgeIsAttackOdds) {
  dice::Rng rng(77);
  const std::vector<int> sizes = {4, 6, 8, 10, 12};
  const std::vector<std::vector<dice::Die>> dodges = {
      {}, pool("white:d6"), pool("white:d4 yellow:d8:ace"), pool("2xwhite:d10 white:d4")};
  auto check = [&](OddsQuery q) {
    SCOPED_TRACE(dice::to_notation(q.attack));
    const AttackSide side(q);
    for (const auto& d : dodges) {
      q.dodge = d;
      const OddsResult folded = side.against(d);
      const OddsResult direct = attack_odds(q);
      expect_same(folded, direct);
      EXPECT_EQ(folded.clicks.size(), direct.clicks.size());
      EXPECT_EQ(folded.expected_clicks(), direct.expected_clicks());
    }
  };
  for (int trial = 0; trial < 40; ++trial) {
    OddsQuery q;
    q.weapon = rng.uniform(10);
    q.body = rng.uniform(14);
    const int na = rng.uniform(6);  // 1..6 attack dice
    for (int i = 0; i < na; ++i) {
      q.attack.push_back({sizes[static_cast<std::size_t>(rng.uniform(5) - 1)],
                          dice::kAllColours[static_cast<std::size_t>(rng.uniform(6) - 1)],
                          rng.uniform(2) == 1, ""});
    }
    if (rng.uniform(2) == 1) q.shields.push_back(q.attack[0].colour);
    if (rng.uniform(2) == 1) q.bonus[q.attack.back().colour] = rng.uniform(2);
    check(q);
  }
  check(OddsQuery{.weapon = 4,
                  .body = 9,
                  .attack = pool("3xyellow:d4 blue:d4:ace green:d6 black:d4 red:d4:ace"),
                  .shields = {Colour::Yellow},
                  .bonus = {{Colour::Green, 1}}});
}

TEST(Odds, ClickDistributionSumsToOne) {
  OddsQuery q{.weapon = 6,
              .body = 8,
              .attack = pool("yellow:d8:ace blue:d10 green:d12 red:d6:ace"),
              .dodge = pool("white:d6 yellow:d8"),
              .shields = {Colour::Blue}};
  const auto r = attack_odds(q);
  std::uint64_t sum = 0;
  for (auto c : r.clicks)
    sum += c;
  EXPECT_EQ(sum, r.total);
}

// Property: the exact answer agrees with 10^6 seeded simulated attacks within 4σ.
TEST(Odds, AgreesWithSimulationWithinFourSigma) {
  OddsQuery q{
      .weapon = 5,
      .body = 9,
      .attack = pool("yellow:d6:ace yellow:d8 blue:d10:ace green:d12 black:d6:ace red:d4:ace"),
      .dodge = pool("white:d6 white:d8 yellow:d6:ace"),
      .shields = {Colour::Yellow, Colour::Blue},
      .bonus = {{Colour::Yellow, 1}, {Colour::Green, 2}}};
  const auto exact = attack_odds(q);
  dice::Roller roller(777);
  AttackInput in{.weapon = q.weapon, .body = q.body, .shields = q.shields, .bonus = q.bonus};
  const int n = 1000000;
  std::vector<int> clicks(exact.clicks.size() + 4, 0);
  int hits = 0;
  std::array<int, 4> effects{};
  for (int i = 0; i < n; ++i) {
    in.attack = roller.roll(q.attack);
    in.dodge = roller.roll(q.dodge);
    const auto r = resolve_attack(in);
    hits += r.hit ? 1 : 0;
    ++clicks[static_cast<std::size_t>(r.clicks)];
    std::array<bool, 4> seen{};
    for (AceEffect e : r.ace_effects)
      seen[static_cast<std::size_t>(e)] = true;
    for (int e = 0; e < 4; ++e)
      effects[static_cast<std::size_t>(e)] += seen[static_cast<std::size_t>(e)];
  }
  auto within = [&](double p, int observed, const char* what) {
    const double sigma = std::sqrt(n * p * (1 - p));
    EXPECT_LE(std::abs(observed - n * p), 4 * sigma + 1e-9) << what << " p=" << p;
  };
  within(exact.p_hit(), hits, "hit");
  for (std::size_t k = 0; k < exact.clicks.size(); ++k)
    within(exact.p_clicks(k), clicks[k], "clicks");
  for (int e = 0; e < 4; ++e) {
    within(exact.p_effect(static_cast<AceEffect>(e)), effects[static_cast<std::size_t>(e)],
           "effect");
  }
}

TEST(Odds, AdvisorRanksByExpectedClicks) {
  OddsQuery base{.weapon = 6, .body = 7};
  const auto offered = pool("yellow:d4 yellow:d12 blue:d8");
  const auto dodge = pool("white:d6");
  const auto advice = advise_attacks(base, offered, dodge);
  ASSERT_EQ(advice.size(), 7U);
  for (std::size_t i = 1; i < advice.size(); ++i) {
    EXPECT_GE(advice[i - 1].attack.odds.expected_clicks(),
              advice[i].attack.odds.expected_clicks() - 1e-12);
  }
  // The defender's answer is the dodge that minimises expected clicks: dodging never hurts.
  for (const auto& a : advice)
    EXPECT_EQ(a.best_dodge.dice.size(), 1U);
}

}  // namespace
}  // namespace duels
