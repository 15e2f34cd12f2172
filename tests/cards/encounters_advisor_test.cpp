// The push-your-luck advisor: hand-computed values, the brute-force recursion, and sanity
// properties of every piece of advice.
#include <gtest/gtest.h>

#include "cards/encounters/advisor.hpp"
#include "cards/encounters/odds.hpp"

namespace duels::cards::encounters {
namespace {

AdvisorSettings small(int cap, int dice) {
  AdvisorSettings s;
  s.column_cap = cap;
  s.standard_dice = dice;
  return s;
}

TEST(EncountersAdvisor, PBeatIsTheMixAverageOfTheExactOdds) {
  Advisor a{AdvisorSettings{}};
  for (int k = 1; k <= 8; ++k) {
    double expected = 0;
    for (int v = 1; v <= 12; ++v)
      expected += plain_odds(k, v).p() / 12;
    EXPECT_NEAR(a.p_beat(k), expected, 1e-12) << k;
  }
}

// One die, no escalation (cap 1): pushing wins column 1 with P = 6/12 · 1/6 = 1/12.
TEST(EncountersAdvisor, OneDieByHand) {
  Advisor a{small(1, 6)};
  EXPECT_NEAR(a.push(1, 1, 5), (5 + 1) / 12.0, 1e-12);
  EXPECT_DOUBLE_EQ(a.value(1, 1, 5), 5.0);  // scoring 5 beats 0.5
  EXPECT_DOUBLE_EQ(a.value(1, 1, 0), 1 / 12.0);
}

TEST(EncountersAdvisor, EqualsTheBruteForceRecursion) {
  for (const auto& [cap, dice] : {std::pair{1, 3}, std::pair{2, 3}, std::pair{3, 4}}) {
    AdvisorSettings s = small(cap, dice);
    Advisor a{s};
    for (const auto& [c, u, b] :
         {std::tuple{1, dice, 0}, std::tuple{1, 2, 3}, std::tuple{cap, 1, 7}}) {
      EXPECT_NEAR(a.push(c, u, b), brute_force_push(s, c, u, b), 1e-9)
          << "cap " << cap << " dice " << dice << " at " << c << "," << u << "," << b;
    }
  }
  AdvisorSettings reach = small(3, 3);
  reach.objective = Objective::ReachTarget;
  reach.nuyen_needed = 4;
  reach.mix = *parse_value_mix("2-9");
  Advisor a{reach};
  EXPECT_NEAR(a.push(1, 3, 1), brute_force_push(reach, 1, 3, 1), 1e-9);
}

TEST(EncountersAdvisor, ValueNeverBelowScoringAndGrowsWithTheBank) {
  Advisor a{AdvisorSettings{}};
  for (int c = 1; c <= 4; ++c) {
    for (int u = 0; u <= 6; ++u) {
      double previous = -1;
      for (int b = 0; b <= 30; b += 3) {
        const double v = a.value(c, u, b);
        EXPECT_GE(v, b);
        EXPECT_GE(v, previous);
        previous = v;
      }
    }
  }
}

TEST(EncountersAdvisor, PushAdviceShowsItsNumbers) {
  Advisor a{AdvisorSettings{}};
  PushAdvice fresh = advise_push(a, 1, 6, 1);
  EXPECT_EQ(fresh.verdict, "push");
  EXPECT_GT(fresh.push_value, fresh.score_value);
  EXPECT_NEAR(fresh.p_beat_next, a.p_beat(6), 1e-12);
  PushAdvice rich = advise_push(a, 3, 1, 40);
  EXPECT_EQ(rich.verdict, "score");
  EXPECT_NE(rich.why.find("long shot"), std::string::npos);
  PushAdvice locked = advise_push(a, 1, 0, 6);
  ASSERT_TRUE(locked.escalate_value.has_value());
  EXPECT_NEAR(*locked.escalate_value, a.push(2, 6, 6), 1e-12);
  PushAdvice capped = advise_push(a, 8, 0, 6);
  EXPECT_FALSE(capped.escalate_value.has_value());
  EXPECT_EQ(capped.verdict, "score");
}

TEST(EncountersAdvisor, LockAdviceRanksSizesByValue) {
  Advisor a{AdvisorSettings{}};
  MatchQuery q;
  q.dice = {1, 1, 2, 2, 6, 6};
  q.value = 4;
  auto found = find_matches(q);
  ASSERT_TRUE(found);
  const LockAdvice advice = advise_lock(a, 1, 0, 0, *found, 6);
  ASSERT_EQ(advice.options.size(), 2U);  // {2,2} or {1,1,2}
  for (const LockOption& o : advice.options) {
    EXPECT_NEAR(o.value, a.value(1, 6 - o.dice_locked, 1), 1e-12);
    ASSERT_GE(o.solution, 0);
    EXPECT_EQ(static_cast<int>(found->solutions[static_cast<std::size_t>(o.solution)].dice.size()),
              o.dice_locked);
  }
  EXPECT_GE(advice.options[0].value, advice.options[1].value);
}

TEST(EncountersAdvisor, StealWhenTheTableauIsRich) {
  Advisor a{AdvisorSettings{}};
  const StealAdvice rich = advise_steal(a, 2, 5, 12);
  EXPECT_TRUE(rich.steal);
  EXPECT_NEAR(rich.fresh_value, a.push(1, 6, 0), 1e-12);
  const StealAdvice poor = advise_steal(a, 1, 1, 1);
  EXPECT_FALSE(poor.steal);
  const BurnAdvice burn = advise_burn(a, 2, 5, 12, 2.0);
  EXPECT_NEAR(burn.denied_value, rich.steal_value - rich.fresh_value, 1e-12);
  EXPECT_TRUE(burn.burn);
  EXPECT_FALSE(advise_burn(a, 1, 1, 1, 2.0).burn);
}

TEST(EncountersAdvisor, RetainAdviceWeighsTheCard) {
  Advisor a{AdvisorSettings{}};
  auto strong = advise_retain(a, *parse_runner("Joker: wild 1,2,3,4,5,6"), 3, 2, 20, 10, {});
  ASSERT_TRUE(strong);
  EXPECT_GT(strong->p_with_card, strong->p_plain);
  EXPECT_TRUE(strong->retain);
  auto weak = advise_retain(a, *parse_runner("Meh: -1"), 1, 6, 1, 10, {2, 3, 4});
  ASSERT_TRUE(weak);
  EXPECT_FALSE(weak->retain);
  EXPECT_DOUBLE_EQ(weak->expected_hire_cost, 3.0);
  auto broke = advise_retain(a, *parse_runner("Joker: wild 1,2,3,4,5,6"), 3, 2, 20, 2, {});
  EXPECT_FALSE(broke->retain);
}

TEST(EncountersAdvisor, SoloPlanIsReproducibleAndBounded) {
  Advisor a{AdvisorSettings{}};
  dice::Rng r1(7);
  dice::Rng r2(7);
  const SoloPlan p1 = plan_solo(a, 5, 20, 6, r1, 300);
  const SoloPlan p2 = plan_solo(a, 5, 20, 6, r2, 300);
  EXPECT_DOUBLE_EQ(p1.p_win, p2.p_win);
  EXPECT_GE(p1.p_win, 0.0);
  EXPECT_LE(p1.p_win, 1.0);
  EXPECT_GT(p1.mean_nuyen, 5.0);
  dice::Rng r3(1);
  EXPECT_DOUBLE_EQ(plan_solo(a, 20, 20, 3, r3, 50).p_win, 1.0);
  EXPECT_DOUBLE_EQ(plan_solo(a, 3, 20, 0, r3, 50).p_win, 0.0);
  // More turns never hurt (same seed, enough trials for the difference to be clear).
  dice::Rng r4(11);
  dice::Rng r5(11);
  EXPECT_GT(plan_solo(a, 0, 20, 12, r4, 400).p_win, plan_solo(a, 0, 20, 3, r5, 400).p_win);
}

TEST(EncountersAdvisor, ValueMixNotation) {
  auto range = parse_value_mix("1-12");
  ASSERT_TRUE(range);
  EXPECT_EQ(range->weights.size(), 12U);
  auto list = parse_value_mix("3,5,7,7");
  ASSERT_TRUE(list);
  EXPECT_EQ(list->weights, (std::vector<std::pair<int, double>>{{3, 1}, {5, 1}, {7, 2}}));
  auto weighted = parse_value_mix("5:2, 7:1");
  ASSERT_TRUE(weighted);
  EXPECT_EQ(weighted->weights, (std::vector<std::pair<int, double>>{{5, 2}, {7, 1}}));
  auto bad = parse_value_mix("3,99,5");
  ASSERT_FALSE(bad);
  EXPECT_EQ(bad.error().position, 2U);
  EXPECT_NE(bad.error().message().find("^^"), std::string::npos);
  EXPECT_FALSE(parse_value_mix(""));
  EXPECT_FALSE(parse_value_mix("9-3"));
  EXPECT_FALSE(parse_value_mix("5:0"));
  EXPECT_EQ(mix_from_values({7, 7, 3}).weights,
            (std::vector<std::pair<int, double>>{{3, 1}, {7, 2}}));
}

}  // namespace
}  // namespace duels::cards::encounters
