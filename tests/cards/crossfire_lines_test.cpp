// Issue 19 in the Crossfire console: REQUIRES SPELL in the Scene-end buy round, `next` never
// throws away unplaced damage, and one typed line is one undo step.
#include <gtest/gtest.h>

#include "cards/crossfire/console.hpp"
#include "cards/crossfire/json.hpp"
#include "cards/crossfire/rules.hpp"
#include "crossfire_fixtures.hpp"

namespace duels::cards::crossfire {
namespace {

using testing::book_console;
using testing::contains;

Console started() {
  return testing::started("crossfire");
}

TEST(CrossfireLines, RequiresSpellInTheSceneEndBuyRound) {
  Console c = book_console();
  for (const char* line :
       {"mission crossfire", "runner Cal dwarf black,blue",
        "runner Rob Human green,red hp=4 nuyen=3", "start Cal", "flip Only=1 faces:Cal", "begin",
        "play Quick Shot=black; on Only", "next"}) {
    const auto reply = c.handle(line);
    ASSERT_TRUE(reply.ok) << line << ": " << reply.text;
  }
  ASSERT_EQ(c.session().state().phase, Phase::SceneEnd) << render(c.session().state());
  const auto spell = c.handle("buy Guiding Spirit=3 spell");
  EXPECT_FALSE(spell.ok);
  EXPECT_TRUE(contains(spell.text, "REQUIRES SPELL")) << spell.text;
  EXPECT_TRUE(contains(spell.text, "Scene-end buy round")) << spell.text;
  EXPECT_TRUE(c.handle("buy Mana=1").ok);
}

TEST(CrossfireLines, NextDoesNotThrowAwayUnplacedDamage) {
  Console c = started();
  ASSERT_TRUE(c.handle("play Punch=red+2").ok);
  const std::size_t before = c.session().log().size();
  const auto next = c.handle("next");
  EXPECT_FALSE(next.ok);
  EXPECT_TRUE(contains(next.text, "Punch")) << next.text;
  EXPECT_TRUE(contains(next.text, "best")) << next.text;
  EXPECT_TRUE(contains(next.text, "place N; on OBSTACLE")) << next.text;
  EXPECT_EQ(c.session().log().size(), before);
  EXPECT_EQ(c.session().state().step, TurnStep::Play);
  // Placed by `best`, `next` goes on and the damage lands.
  ASSERT_TRUE(c.handle("best").ok);
  const auto go = c.handle("next");
  ASSERT_TRUE(go.ok) << go.text;
  EXPECT_FALSE(contains(go.text, "beside no obstacle")) << go.text;
}

TEST(CrossfireLines, OneTypedLineIsOneUndoStep) {
  Console c = started();
  ASSERT_TRUE(c.handle("play Quick Shot=black; type weapon").ok);
  ASSERT_TRUE(c.handle("play Mana=blue").ok);
  const std::uint64_t before_best = state_hash(c.session().state());
  ASSERT_TRUE(c.handle("best").ok);  // two placements
  const std::uint64_t after_best = state_hash(c.session().state());
  const auto next = c.handle("next");  // apply, take, end
  ASSERT_TRUE(next.ok) << next.text;
  const std::uint64_t after_next = state_hash(c.session().state());
  ASSERT_TRUE(c.handle("undo").ok);
  EXPECT_EQ(state_hash(c.session().state()), after_best);
  ASSERT_TRUE(c.handle("undo").ok);
  EXPECT_EQ(state_hash(c.session().state()), before_best);
  ASSERT_TRUE(c.handle("redo").ok);
  EXPECT_EQ(state_hash(c.session().state()), after_best);
  ASSERT_TRUE(c.handle("redo").ok);
  EXPECT_EQ(state_hash(c.session().state()), after_next);
  EXPECT_FALSE(c.handle("redo").ok);
}

}  // namespace
}  // namespace duels::cards::crossfire
