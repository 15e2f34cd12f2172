// The Crossfire console language: each line becomes the right command, the metatype table
// fills in runners, the solvers answer, and bad lines are refused in words.
#include <gtest/gtest.h>

#include "cards/crossfire/console.hpp"
#include "cards/crossfire/rules.hpp"
#include "crossfire_fixtures.hpp"

namespace duels::cards::crossfire {
namespace {

using testing::book_console;
using testing::contains;

Console started() {
  return testing::started("crossfire bring-it-on");
}

TEST(CrossfireConsole, MetatypeTableFillsRunners) {
  Console c = book_console();
  ASSERT_TRUE(c.handle("runner Cal Dwarf street-samurai").ok);
  const Runner& cal = c.session().state().runners[0];
  EXPECT_EQ(cal.hp, 5);
  EXPECT_EQ(cal.hand, 2);
  EXPECT_EQ(cal.nuyen, 5);
  EXPECT_EQ(cal.metatype, "Dwarf");
  const auto missing = c.handle("runner Rob Human decker");
  EXPECT_FALSE(missing.ok);
  EXPECT_TRUE(contains(missing.text, "no hp, nuyen for Human")) << missing.text;
  EXPECT_TRUE(c.handle("runner Rob Human decker hp=5 nuyen=3").ok);
  EXPECT_EQ(c.session().state().runners[1].hand, 4);
}

TEST(CrossfireConsole, ATurnThroughTheConsole) {
  Console c = started();
  const State& s0 = c.session().state();
  EXPECT_EQ(s0.phase, Phase::Turn);
  EXPECT_EQ(s0.obstacles.size(), 2U);
  ASSERT_TRUE(c.handle("play Quick Shot=black; type weapon").ok);
  const auto alloc = c.handle("allocate; offer Mana=blue");
  EXPECT_TRUE(contains(alloc.text, "Out of Ammo: level 1 (black) ← Quick Shot 1 black"))
      << alloc.text;
  EXPECT_TRUE(contains(alloc.text, "keep Mana in hand")) << alloc.text;
  const auto best = c.handle("best");
  ASSERT_TRUE(best.ok) << best.text;
  EXPECT_TRUE(contains(best.text, "Quick Shot now beside Out of Ammo")) << best.text;
  const auto forecast = c.handle("forecast");
  EXPECT_TRUE(contains(forecast.text, "Cal: packet 1 (Deckhead)")) << forecast.text;
  const auto missing = c.handle("missing Deckhead; have green+2");
  EXPECT_TRUE(contains(missing.text, "needs 1 red + 1 any")) << missing.text;
  ASSERT_TRUE(c.handle("next").ok);
  const State& s = c.session().state();
  EXPECT_EQ(s.current, 1);
  EXPECT_EQ(s.obstacles[1].card.cleared, 1);
  EXPECT_EQ(s.runners[0].hp, 4);
  EXPECT_EQ(c.session().log().size(), 6U + 1 + 1 + 3);  // setup, play, place, next = 3
  ASSERT_TRUE(c.handle("undo").ok);
  EXPECT_EQ(c.session().state().current, 0);
}

TEST(CrossfireConsole, CrossfireDrawAndRunnerCommands) {
  Console c;
  for (const char* line :
       {"mission custom", "runner A Human black hp=5 cards=4 nuyen=5",
        "runner B Human blue hp=5 cards=4 nuyen=5", "runner C Human green hp=5 cards=4 nuyen=5",
        "runner D Human red hp=5 cards=4 nuyen=5", "start",
        "crossfire Top Shelf timebomb 1+ : runners take 2", "flip Wall=9 faces:B attack:2",
        "hurt B, C 2", "heal B 1", "draw A 2", "discard A 1", "nuyen A -3", "move Wall -> A stop",
        "attack Wall +1", "healobstacle Wall all", "damage Wall=4; by C",
        "set /runners/3/nuyen 9"}) {
    const auto reply = c.handle(line);
    EXPECT_TRUE(reply.ok) << line << ": " << reply.text;
  }
  const State& s = c.session().state();
  ASSERT_TRUE(s.active_event);
  EXPECT_EQ(s.active_event->name, "Top Shelf");
  EXPECT_EQ(s.active_event->threshold, 1);
  EXPECT_TRUE(s.active_event->timebomb);
  EXPECT_EQ(s.active_event->text, "runners take 2");
  EXPECT_EQ(s.runners[1].hp, 4);
  EXPECT_EQ(s.runners[2].hp, 3);
  EXPECT_EQ(s.runners[0].hand, 5);
  EXPECT_EQ(s.runners[0].nuyen, 2);
  EXPECT_EQ(s.runners[3].nuyen, 9);
  EXPECT_EQ(s.obstacles[0].facing, 0);
  EXPECT_EQ(s.obstacles[0].attack_bonus, 1);
  EXPECT_EQ(s.obstacles[0].card.cleared, 0);
  EXPECT_EQ(s.obstacles[0].partial.total(), 4);
}

TEST(CrossfireConsole, BadLinesAreRefusedInWords) {
  Console c = started();
  for (const char* line :
       {"fly away", "play Quick Shot", "play X=mauve", "take lots", "buy Mana", "hurt Nobody 2",
        "missing Nobody", "move Wall", "runner X", "set /nope 1"}) {
    const auto reply = c.handle(line);
    EXPECT_FALSE(reply.ok) << line;
    EXPECT_FALSE(reply.text.empty()) << line;
  }
  const auto caret = c.handle("play X=blue+mauve");
  EXPECT_TRUE(contains(caret.text, "^^^^^")) << caret.text;
  EXPECT_TRUE(c.handle("help").ok);
  EXPECT_TRUE(c.handle("quit").quit);
}

}  // namespace
}  // namespace duels::cards::crossfire
