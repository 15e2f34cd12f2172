// Issue 19 in the Encounters console and rules: solve after a lock shows the right sums, the
// "All rolled 4s & 6s are wild" reading, and impossible settings and offers refused.
#include <gtest/gtest.h>

#include "cards/encounters/console.hpp"
#include "cards/encounters/match.hpp"
#include "cards/encounters/rules.hpp"

namespace duels::cards::encounters {
namespace {

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

void play(Console& c, std::initializer_list<const char*> lines) {
  for (const char* line : lines) {
    const auto r = c.handle(line);
    ASSERT_TRUE(r.ok) << line << "\n" << r.text;
  }
}

// The issue's run: two dice locked, then solve over the four left. The sums are read from the
// dice the way locks (slots 3 to 6), not past the end of the unlocked list.
TEST(EncountersConsoleIssue19, SolveAfterALockShowsTheRightSums) {
  Console c(7);
  play(c, {"player A", "player B", "starter A Fixer: +-1", "starter B X: +1", "start A",
           "flip First: 6", "roll 3,3,1,2,4,5", "lock 1,2", "flip B: 9", "roll 2,2,6,6"});
  const auto solved = c.handle("solve");
  ASSERT_TRUE(solved.ok) << solved.text;
  EXPECT_FALSE(contains(solved.text, "+0")) << solved.text;
  // 2→3 on slot 3 with +-1, plus the 6 on slot 5: 3+6; or 2+2 and 6→5: 2+2+5.
  EXPECT_TRUE(contains(solved.text, "lock #3 #5 = 3+6")) << solved.text;
  EXPECT_TRUE(contains(solved.text, "lock #3 #4 #5 = 2+2+5")) << solved.text;
  // And `defeat 1` locks what solve showed.
  ASSERT_TRUE(c.handle("defeat 1").ok);
  const State& s = c.session().state();
  int locked_sum = 0;
  for (std::size_t i = 2; i < s.run.dice.size(); ++i) {
    if (s.run.dice[i].locked) locked_sum += s.run.dice[i].face;
  }
  EXPECT_EQ(locked_sum, 9);
}

// "All rolled 4s & 6s are wild": one use of the ability covers every die that shows 4 or 6.
TEST(EncountersConsoleIssue19, AllRolledFoursAndSixesAreWild) {
  MatchQuery q;
  q.value = 12;
  q.dice = {4, 4};
  q.cards.push_back(HandCard{*parse_runner("CM: wild 4,6"), 0, false});
  auto r = find_matches(q);
  ASSERT_TRUE(r) << r.error();
  ASSERT_FALSE(r->solutions.empty());
  EXPECT_EQ(r->solutions.front().values, (std::vector<int>{6, 6}));
  EXPECT_TRUE(contains(describe(r->solutions.front(), q), "= 6+6"))
      << describe(r->solutions.front(), q);
  // The brute force reads the card the same way.
  EXPECT_NE(brute_force_matches(q).lock_size_mask & (1U << 2), 0U);
  // A die that does not show a listed face is not wild: 4,3 cannot make 12.
  q.dice = {4, 3};
  r = find_matches(q);
  ASSERT_TRUE(r);
  EXPECT_TRUE(r->solutions.empty());
  // A +1 ability is still used once: 5,5 with "+1" cannot make 12.
  q.dice = {5, 5};
  q.cards = {HandCard{*parse_runner("P: +1"), 0, false}};
  r = find_matches(q);
  ASSERT_TRUE(r);
  EXPECT_TRUE(r->solutions.empty());
}

TEST(EncountersConsoleIssue19, TheRulesTakeAWildOnEveryDieEachOnce) {
  Console c(3);
  play(c, {"player A", "player B", "starter A CM: wild 4,6", "starter B X: +1", "start A",
           "flip Big: 12", "roll 4,4,5,5,5,5"});
  const State before = c.session().state();
  const DefeatStep first{"CM", false, 0, 0, 6};
  const DefeatStep second{"CM", false, 0, 1, 6};
  const DefeatStep again{"CM", false, 0, 0, 5};
  EXPECT_TRUE(contains(why_illegal(before, Defeat{{{0, 1}}, {first, again}})->reason, "once"));
  auto ok = apply(before, Defeat{{{0, 1}}, {first, second}});
  ASSERT_TRUE(ok) << ok.error().reason;
  EXPECT_EQ(ok->state.phase, Phase::Between);
  // The console's `defeat 1` finds it.
  ASSERT_TRUE(c.handle("defeat 1").ok);
}

TEST(EncountersConsoleIssue19, ImpossibleSettingsAndOffersAreRefused) {
  Console c(1);
  const auto solo = c.handle("solo 11");
  EXPECT_FALSE(solo.ok);
  EXPECT_TRUE(contains(solo.text, "11")) << solo.text;
  EXPECT_TRUE(c.handle("solo 10").ok);
  EXPECT_TRUE(c.handle("solo").ok);

  // A player without a Shadowrunner is not offered the Burn the Run.
  Console burn(1);
  play(burn, {"player A", "player B", "starter A Red: +1; red", "starter B X: +1", "start A",
              "flip E: 6", "roll 5,5,5,5,5,5", "defeat 1", "flip Hopeless: 40", "roll 1,1,1,1,1"});
  ASSERT_TRUE(burn.session().state().players[0].runners.empty());
  const auto failed = burn.handle("fail");
  ASSERT_TRUE(failed.ok) << failed.text;
  EXPECT_NE(burn.session().state().phase, Phase::BurnChoice);
  EXPECT_EQ(burn.session().state().phase, Phase::DatastealChoice);
  EXPECT_TRUE(contains(failed.text, "no Shadowrunner to Burn the Run")) << failed.text;
  EXPECT_FALSE(burn.handle("noburn").ok);

  // At 0¥ a used Shadowrunner is not offered for Retain: it is discarded at once.
  Console retain(1);
  play(retain, {"player A", "player B", "starter A Fixer: +1", "starter B X: +1", "start A",
                "flip E: 6", "roll 5,5,5,5,5,5"});
  const auto won = retain.handle("defeat 1");
  ASSERT_TRUE(won.ok) << won.text;
  const State& s = retain.session().state();
  EXPECT_TRUE(s.run.pending_retain.empty());
  EXPECT_TRUE(s.players[0].runners.empty());
  EXPECT_FALSE(contains(won.text, "Retain Fixer for 3¥?")) << won.text;
  EXPECT_TRUE(contains(won.text, "Retaining costs 3¥ and A has 0¥")) << won.text;
}

TEST(EncountersConsoleIssue19, EmptyDiceItemsAreRefusedAtTheToken) {
  auto d = parse_dice("1,,2");
  ASSERT_FALSE(d);
  EXPECT_EQ(d.error().position, 2U);
  EXPECT_TRUE(contains(d.error().message(), "a die face before this ','")) << d.error().message();
  auto trailing = parse_dice("1,2,");
  ASSERT_FALSE(trailing);
  EXPECT_EQ(trailing.error().position, 4U);
  auto leading = parse_dice(",1");
  ASSERT_FALSE(leading);
  EXPECT_EQ(leading.error().position, 0U);
  EXPECT_TRUE(parse_dice("1, 2 ,3"));
  EXPECT_TRUE(parse_dice("1 2 3"));
}

}  // namespace
}  // namespace duels::cards::encounters
