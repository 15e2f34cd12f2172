// Exact odds of beating an Encounter: T-E16 fractions, the Appendix A-1 table, brute force.
#include <gtest/gtest.h>

#include <cmath>

#include "cards/encounters/odds.hpp"

namespace duels::cards::encounters {
namespace {

struct FractionCase {
  int dice;
  int value;
  const char* fraction;
};

// T-E16 (spec A4): the exact oracle for A3.4.
TEST(EncountersOdds, TE16ExactFractions) {
  const FractionCase cases[] = {
      {1, 3, "1/6"},         {2, 1, "11/36"},       {2, 7, "1/6"},      {2, 12, "1/36"},
      {3, 6, "3/4"},         {3, 7, "35/72"},       {3, 18, "1/216"},   {4, 6, "1193/1296"},
      {6, 1, "31031/46656"}, {6, 6, "46253/46656"}, {6, 36, "1/46656"},
  };
  for (const auto& c : cases) {
    EXPECT_EQ(plain_odds(c.dice, c.value).fraction(), c.fraction)
        << "k=" << c.dice << " V=" << c.value;
  }
}

// Appendix A-1, rounded to 4 d.p. Rows k = 1..6, columns V = 1..24 (blank cells are 0).
constexpr double kTable[6][24] = {
    {.1667, .1667, .1667, .1667, .1667, .1667, 0, 0, 0, 0, 0, 0,
     0,     0,     0,     0,     0,     0,     0, 0, 0, 0, 0, 0},
    {.3056, .3333, .3611, .3889, .4167, .4444, .1667, .1389, .1111, .0833, .0556, .0278,
     0,     0,     0,     0,     0,     0,     0,     0,     0,     0,     0,     0},
    {.4213, .4815, .5370, .6065, .6713, .7500, .4861, .4491, .3935, .3380, .2639, .1898,
     .0972, .0694, .0463, .0278, .0139, .0046, 0,     0,     0,     0,     0,     0},
    {.5177, .6049, .6775, .7677, .8356, .9205, .7654, .7824, .7323, .7184, .6235, .5610,
     .4090, .3302, .2523, .1860, .1250, .0779, .0432, .0270, .0154, .0077, .0031, .0008},
    {.5981, .7037, .7815, .8704, .9217, .9739, .8899, .9178, .9068, .9255, .8822, .8993,
     .7915, .7337, .6407, .5576, .4469, .3519, .2527, .1842, .1273, .0842, .0514, .0297},
    {.6651, .7805, .8549, .9301, .9630, .9914, .9468, .9675, .9633, .9790, .9618, .9831,
     .9422, .9360, .9065, .8699, .8035, .7472, .6385, .5469, .4444, .3540, .2626, .1900},
};

TEST(EncountersOdds, AppendixTableMatchesExactCounts) {
  for (int k = 1; k <= 6; ++k) {
    for (int v = 1; v <= 24; ++v) {
      const double p = plain_odds(k, v).p();
      EXPECT_NEAR(p, kTable[k - 1][v - 1], 0.00005 + 1e-12) << "k=" << k << " V=" << v;
    }
  }
}

// The multiset method against walking every ordered roll and every subset.
TEST(EncountersOdds, MultisetCountsEqualBruteForce) {
  for (int k = 1; k <= 6; ++k) {
    for (int v = 1; v <= 6 * k + 1; ++v) {
      const ExactOdds fast = plain_odds(k, v);
      const ExactOdds slow = brute_force_plain_odds(k, v);
      EXPECT_EQ(fast.count, slow.count) << "k=" << k << " V=" << v;
      EXPECT_EQ(fast.total, slow.total);
    }
  }
  // Bonus dice: 7 and 8 dice, a few values.
  for (int v : {1, 6, 7, 20, 40}) {
    EXPECT_EQ(plain_odds(7, v).count, brute_force_plain_odds(7, v).count) << "V=" << v;
  }
  EXPECT_EQ(plain_odds(8, 13).count, brute_force_plain_odds(8, 13).count);
}

TEST(EncountersOdds, MultisetsCoverEveryRoll) {
  for (int k = 0; k <= kMaxDice; ++k) {
    std::uint64_t total = 0;
    for (const auto& m : face_multisets(k))
      total += m.orderings;
    EXPECT_EQ(total, static_cast<std::uint64_t>(std::pow(6, k)));
  }
  EXPECT_EQ(face_multisets(6).size(), 462U);
  EXPECT_EQ(face_multisets(8).size(), 1287U);
}

TEST(EncountersOdds, OutOfRangeIsZeroNotACrash) {
  EXPECT_EQ(plain_odds(0, 3).count, 0U);
  EXPECT_EQ(plain_odds(3, 0).count, 0U);
  EXPECT_EQ(plain_odds(3, 99).count, 0U);
  EXPECT_EQ(plain_odds(9, 3).count, 0U);
}

// With cards the odds can only go up, and a "+1" makes every V ≤ 6 certain-ish for one die:
// one die with +1 beats V=2 on a 1 or a 2 → 2/6.
TEST(EncountersOdds, CardsRaiseTheOdds) {
  MatchQuery q;
  q.value = 2;
  q.cards.push_back(HandCard{*parse_runner("Helper: +1"), 0, false});
  auto with = odds_with_cards(1, q);
  ASSERT_TRUE(with);
  EXPECT_EQ(with->fraction(), "1/3");
  for (int k = 1; k <= 4; ++k) {
    for (int v = 1; v <= 20; v += 3) {
      q.value = v;
      auto o = odds_with_cards(k, q);
      ASSERT_TRUE(o);
      EXPECT_GE(o->count, plain_odds(k, v).count) << "k=" << k << " V=" << v;
    }
  }
  // No cards: equals the plain odds.
  MatchQuery none;
  none.value = 7;
  EXPECT_EQ(odds_with_cards(3, none)->count, plain_odds(3, 7).count);
}

// A wild face from 1..6 on one die of one: every V from 1 to 6 is beaten on that face or the
// face itself; a "wild 1,2,3,4,5,6" makes any V ≤ 6 certain with one die.
TEST(EncountersOdds, FullWildMakesOneDieCertain) {
  MatchQuery q;
  q.cards.push_back(HandCard{*parse_runner("Joker: wild 1,2,3,4,5,6"), 0, false});
  for (int v = 1; v <= 6; ++v) {
    q.value = v;
    EXPECT_EQ(odds_with_cards(1, q)->fraction(), "1/1") << v;
  }
}

}  // namespace
}  // namespace duels::cards::encounters
