// Damage on one obstacle: the book's worked examples (T-C1, T-C3…T-C6, T-C9, T-C25), "what is
// still missing", and the per-obstacle programme against brute-force enumeration.
#include <gtest/gtest.h>

#include <random>

#include "cards/crossfire/allocate.hpp"
#include "cards/crossfire/damage.hpp"

namespace duels::cards::crossfire {
namespace {

Track track(const char* text) {
  auto t = parse_track(text);
  EXPECT_TRUE(t) << t.error().message();
  return t ? *t : Track{};
}

Points pts(const char* text) {
  auto b = parse_bundle(text);
  EXPECT_TRUE(b) << b.error().message();
  return b ? b->points : Points{};
}

Resources res(const char* text) {
  auto b = parse_bundle(text);
  EXPECT_TRUE(b) << b.error().message();
  Resources r;
  if (!b) return r;
  r.points = b->points;
  if (b->mode == LevelMode::Spread) {
    r.singles = b->levels;
  } else if (b->levels > 0) {
    r.runs.push_back(LevelRun{b->levels, b->mode == LevelMode::Last});
  }
  return r;
}

Contribution card(int index, const char* text) {
  auto b = parse_bundle(text);
  EXPECT_TRUE(b) << b.error().message();
  Contribution c;
  c.card = index;
  if (!b) return c;
  c.points = b->points;
  if (b->mode == LevelMode::Spread) {
    c.singles = b->levels;
  } else {
    c.run = LevelRun{b->levels, b->mode == LevelMode::Last};
  }
  return c;
}

/// The placements of one card on one level.
std::vector<Placement> on(const ObstacleResult& r, int card, int level) {
  std::vector<Placement> out;
  for (const Placement& p : r.placements) {
    if (p.card == card && p.level == level) out.push_back(p);
  }
  return out;
}

// T-C1: Lone Star Trooper [any 5, C1, C2] with C1 = black, C2 = green (entered from the card).
TEST(CrossfireDamage, TC1LoneStarTrooper) {
  const Track t = track("5,black,green");
  // Rob: four of one colour and one more clear level 1.
  const ObstacleOutcome rob = best_on_obstacle(t, 0, {}, res("4red+blue"));
  EXPECT_EQ(rob.cleared_after, 1);
  EXPECT_EQ(rob.waste(), 0);
  // Jim, next turn (the clear persisted): one C1 point then one C2 point.
  const ObstacleOutcome c1 = best_on_obstacle(t, rob.cleared_after, {}, res("black"));
  EXPECT_EQ(c1.cleared_after, 2);
  const ObstacleOutcome c2 = best_on_obstacle(t, c1.cleared_after, {}, res("green"));
  EXPECT_TRUE(c2.defeated);
  // Negative checks: C2 before C1 and a colourless point on C1 do nothing.
  const ObstacleOutcome early = best_on_obstacle(t, 1, {}, res("green"));
  EXPECT_EQ(early.cleared_after, 1);
  EXPECT_EQ(early.leftover.of(Colour::Green), 1);
  EXPECT_EQ(best_on_obstacle(t, 1, {}, res("1")).cleared_after, 1);
}

// T-C3: Lightning Mage [any 3, blue, blue, any 1], four cards from three runners.
TEST(CrossfireDamage, TC3LightningMage) {
  const Track t = track("3,blue,blue,1");
  // 0 Coordinated Attack (1 coloured, here green, + 1 colourless), 1 Guiding Spirit,
  // 2 Clairvoyance (assist: 1 blue), 3 Street Smarts.
  const ObstacleResult r = resolve_obstacle(
      t, 0, {}, {card(0, "green+1"), card(1, "blue+1"), card(2, "blue"), card(3, "red")});
  EXPECT_TRUE(r.outcome.defeated);
  EXPECT_TRUE(r.wasted.empty());
  // Level 1 ← Coordinated Attack's 2 points + Guiding Spirit's colourless.
  ASSERT_EQ(on(r, 0, 0).size(), 1U);
  EXPECT_EQ(on(r, 0, 0)[0].points, pts("green+1"));
  ASSERT_EQ(on(r, 1, 0).size(), 1U);
  EXPECT_EQ(on(r, 1, 0)[0].points, pts("1"));
  // Level 2 ← Guiding Spirit's blue; level 3 ← Clairvoyance's blue; level 4 ← Street Smarts.
  ASSERT_EQ(on(r, 1, 1).size(), 1U);
  EXPECT_EQ(on(r, 1, 1)[0].points, pts("blue"));
  ASSERT_EQ(on(r, 2, 2).size(), 1U);
  ASSERT_EQ(on(r, 3, 3).size(), 1U);
  EXPECT_EQ(on(r, 3, 3)[0].points, pts("red"));
}

// T-C4: Gargoyle [any 6, any 6, black, black]: Bolt, Quick Shot, Whip.
TEST(CrossfireDamage, TC4Gargoyle) {
  const ObstacleResult r =
      resolve_obstacle(track("6,6,black,black"), 0, {},
                       {card(0, "levels:2:consecutive"), card(1, "black"), card(2, "black")});
  EXPECT_TRUE(r.outcome.defeated);
  ASSERT_EQ(on(r, 0, 0).size(), 1U);
  EXPECT_EQ(on(r, 0, 0)[0].levels, 2);  // levels 1 and 2, amounts ignored
  EXPECT_EQ(on(r, 1, 2).size(), 1U);
  EXPECT_EQ(on(r, 2, 3).size(), 1U);
}

// T-C5: Astral Shiver [any 3, blue, blue]: Stunbolt X=3 + 1 blue, then Mana.
TEST(CrossfireDamage, TC5AstralShiver) {
  const ObstacleResult r =
      resolve_obstacle(track("3,blue,blue"), 0, {}, {card(0, "blue+3"), card(1, "blue")});
  EXPECT_TRUE(r.outcome.defeated);
  EXPECT_EQ(on(r, 0, 0)[0].points, pts("3"));
  EXPECT_EQ(on(r, 0, 1)[0].points, pts("blue"));
  EXPECT_EQ(on(r, 1, 2)[0].points, pts("blue"));
}

// T-C6: Out of Ammo [black, any 3]: Quick Shot clears level 1; Mana beside it would be partial.
TEST(CrossfireDamage, TC6PartialDamageIsWasted) {
  const Track t = track("black,3");
  const ObstacleResult alone = resolve_obstacle(t, 0, {}, {card(0, "black")});
  EXPECT_EQ(alone.outcome.cleared_after, 1);
  EXPECT_TRUE(alone.wasted.empty());
  const ObstacleResult both = resolve_obstacle(t, 0, {}, {card(0, "black"), card(1, "blue")});
  EXPECT_EQ(both.outcome.cleared_after, 1);
  ASSERT_EQ(both.wasted.size(), 1U);
  EXPECT_EQ(both.wasted[0].card, 1);
  EXPECT_NE(both.wasted[0].why.find("partial"), std::string::npos) << both.wasted[0].why;
}

// T-C9: Lightning Bolt on Bonelaced Adept [any 4, colour, any 1].
TEST(CrossfireDamage, TC9BoltTargets) {
  const Track t = track("4,red,1");
  // Alone: levels 1 and 2 (never 1 and 3).
  const ObstacleResult alone = resolve_obstacle(t, 0, {}, {card(0, "levels:2:consecutive")});
  EXPECT_EQ(alone.outcome.cleared_after, 2);
  EXPECT_EQ(on(alone, 0, 0)[0].levels, 2);
  // Other damage clears level 1 first: the Bolt then takes levels 2 and 3.
  const ObstacleResult moved =
      resolve_obstacle(t, 0, {}, {card(0, "levels:2:consecutive"), card(1, "4")});
  EXPECT_TRUE(moved.outcome.defeated);
  EXPECT_EQ(on(moved, 0, 1)[0].levels, 2);
  // One level left: the Bolt clears it and the second level is wasted.
  const ObstacleResult last = resolve_obstacle(t, 2, {}, {card(0, "levels:2:consecutive")});
  EXPECT_TRUE(last.outcome.defeated);
  EXPECT_EQ(last.outcome.wasted_levels, 1);
  ASSERT_EQ(last.wasted.size(), 1U);
  EXPECT_EQ(last.wasted[0].levels, 1);
}

// T-C25: Lightning Mage with level 1 cleared; Fireball's box (1 blue + 2 colourless) alone.
TEST(CrossfireDamage, TC25ColourlessCannotSkipAColourLevel) {
  const ObstacleResult r = resolve_obstacle(track("3,blue,blue,1"), 1, {}, {card(0, "blue+2")});
  EXPECT_EQ(r.outcome.cleared_after, 2);
  EXPECT_EQ(r.outcome.leftover, pts("2"));
  ASSERT_EQ(r.wasted.size(), 1U);
  EXPECT_NE(r.wasted[0].why.find("needs blue"), std::string::npos) << r.wasted[0].why;
}

TEST(CrossfireDamage, LastLevelsOnly) {
  const Track t = track("2,2,2");
  EXPECT_EQ(best_on_obstacle(t, 0, {}, res("levels:2:last")).cleared_after, 0);
  EXPECT_TRUE(best_on_obstacle(t, 0, {}, res("2+levels:2:last")).defeated);  // 2 points first
}

TEST(CrossfireDamage, PartialPointsCountOnTheirLevel) {
  const Track t = track("3,blue");
  EXPECT_EQ(best_on_obstacle(t, 0, pts("2"), res("red")).cleared_after, 1);
  EXPECT_EQ(best_on_obstacle(t, 0, {}, res("red")).cleared_after, 0);
}

TEST(CrossfireDamage, StillMissing) {
  const Track t = track("green,3,blue");
  const Missing a = still_missing(t, 0, res("blue"));
  EXPECT_EQ(a.text, "needs 1 green + 3 any");
  const Missing b = still_missing(t, 0, res("green+blue+3"));
  EXPECT_TRUE(b.enough);
  const Missing c = still_missing(t, 0, res("blue+levels:1"));
  EXPECT_EQ(c.text, "needs 1 green");  // the level goes on the any-3
  EXPECT_EQ(still_missing(t, 3, res("1")).text, "already defeated");
  // Spare colours pay for any-levels.
  EXPECT_EQ(still_missing(t, 1, res("4red")).text, "needs 1 blue");
}

/// Random small tracks and resources: the programme equals brute-force enumeration.
TEST(CrossfireDamage, ProgrammeMatchesEnumeration) {
  std::mt19937 rng(99);
  std::uniform_int_distribution<int> coin(0, 1), colour(0, 3), need(1, 3), levels(1, 4);
  for (int trial = 0; trial < 400; ++trial) {
    Track t;
    const int n = levels(rng);
    for (int i = 0; i < n; ++i) {
      const int kind = std::uniform_int_distribution<int>(0, 4)(rng);
      const auto c = static_cast<Colour>(colour(rng));
      t.push_back(kind <= 1   ? Level::any(need(rng))
                  : kind <= 3 ? Level::of(c, kind == 3 ? 2 : 1)
                              : Level{c, 1, need(rng)});
    }
    const int cleared = std::uniform_int_distribution<int>(0, n - 1)(rng);
    Resources r;
    int units = std::uniform_int_distribution<int>(0, 7)(rng);
    while (units-- > 0) {
      const int k = std::uniform_int_distribution<int>(0, 9)(rng);
      if (k < 5) {
        ++r.points.of(static_cast<Colour>(colour(rng)));
      } else if (k < 8) {
        ++r.points.colourless;
      } else if (k == 8) {
        ++r.singles;
      } else {
        r.runs.push_back(LevelRun{need(rng), coin(rng) != 0});
      }
    }
    Points partial;
    if (coin(rng) != 0 && trial % 3 == 0) partial.colourless = 1;
    const ObstacleOutcome dp = best_on_obstacle(t, cleared, partial, r);
    const auto [bf_levels, bf_waste] = enumerate_obstacle(t, cleared, partial, r);
    ASSERT_EQ(dp.levels_cleared(), bf_levels) << to_notation(t) << " trial " << trial;
    ASSERT_EQ(dp.waste(), bf_waste) << to_notation(t) << " trial " << trial;
  }
}

}  // namespace
}  // namespace duels::cards::crossfire
