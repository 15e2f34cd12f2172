// The damage allocation solver: the book's turns (T-C3, T-C4 + T-C5), the objective's parts
// (harm, weights, waste, cards kept), the placement rules (single levels on different
// obstacles, obstacle-only cards and bosses), and the property that exhaustive search over
// every assignment, valued by independent enumeration, never beats it.
#include <gtest/gtest.h>

#include <random>

#include "cards/crossfire/allocate.hpp"

namespace duels::cards::crossfire {
namespace {

AllocObstacle obstacle(const char* text) {
  auto o = parse_obstacle(text);
  EXPECT_TRUE(o) << o.error().message();
  return AllocObstacle{o ? *o : ObstacleCard{}, {}};
}

AllocCard played(const char* text, const char* owner = "") {
  auto b = parse_bundle(text);
  EXPECT_TRUE(b) << b.error().message();
  return AllocCard{b ? *b : Bundle{}, CardUse::Played, owner};
}

AllocCard offered(const char* text, const char* owner = "") {
  AllocCard c = played(text, owner);
  c.use = CardUse::Offered;
  return c;
}

AllocResult solve(const AllocInput& in) {
  auto r = allocate(in);
  EXPECT_TRUE(r) << (r ? "" : r.error());
  return r ? *r : AllocResult{};
}

// T-C3 as an allocation: one obstacle, four played cards (one an assist): all placed, defeated.
TEST(CrossfireAllocate, TC3LightningMage) {
  AllocInput in;
  in.obstacles = {obstacle("Lightning Mage=3,blue,blue,1 colour:blue noheal")};
  in.cards = {played("Coordinated Attack=green+1", "Rob"), played("Guiding Spirit=blue+1", "Jim"),
              played("Clairvoyance=blue", "Gregory"), played("Street Smarts=red", "Rob")};
  const AllocResult r = solve(in);
  ASSERT_EQ(r.obstacles.size(), 1U);
  EXPECT_TRUE(r.obstacles[0].defeated);
  EXPECT_TRUE(r.wasted.empty());
  EXPECT_EQ(r.box_target, (std::vector<int>{0, 0, 0, 0}));
  ASSERT_FALSE(r.lines.empty());
  EXPECT_NE(r.lines[0].find("level 1 (any 3) ← Coordinated Attack 1 green + 1 colourless, "
                            "Guiding Spirit 1 colourless"),
            std::string::npos)
      << r.lines[0];
  EXPECT_NE(r.lines[0].find("level 4 (any 1) ← Street Smarts 1 red"), std::string::npos)
      << r.lines[0];
}

// T-C4 and T-C5 in one turn: the Bolt must go to the Gargoyle, Stunbolt and Mana to the Shiver.
TEST(CrossfireAllocate, TC4TC5TwoObstacles) {
  AllocInput in;
  in.obstacles = {obstacle("Gargoyle=6,6,black,black on:defeated"),
                  obstacle("Astral Shiver=3,blue,blue")};
  in.cards = {played("Lightning Bolt=levels:2:consecutive+obstacle-only"),
              played("Quick Shot=black"), played("Monofilament Whip=black"),
              played("Stunbolt=blue+3"), played("Mana=blue")};
  const AllocResult r = solve(in);
  EXPECT_TRUE(r.obstacles[0].defeated);
  EXPECT_TRUE(r.obstacles[1].defeated);
  EXPECT_EQ(r.box_target, (std::vector<int>{0, 0, 0, 1, 1}));
  EXPECT_EQ(r.score.waste, 0);
}

TEST(CrossfireAllocate, OfferedCardsStayInHandWhenNotNeeded) {
  AllocInput in;
  in.obstacles = {obstacle("Thug=black,1")};
  in.cards = {played("Quick Shot=black"), offered("Mana=blue"), offered("Mark=green"),
              offered("Assist=2", "Jim")};
  const AllocResult r = solve(in);
  EXPECT_TRUE(r.obstacles[0].defeated);
  // One of the offered cards pays the any-1; the other two stay in hand.
  EXPECT_EQ(r.kept.size(), 2U);
  EXPECT_EQ(r.score.cards, -1);
  EXPECT_EQ(r.score.waste, 0);  // the 2-point assist would waste a point
}

TEST(CrossfireAllocate, PlayedCardsThatHelpNowhereAreWasted) {
  AllocInput in;
  in.obstacles = {obstacle("Drone=green")};
  in.cards = {played("Mark=green"), played("Mana=blue")};
  const AllocResult r = solve(in);
  EXPECT_TRUE(r.obstacles[0].defeated);
  ASSERT_EQ(r.wasted.size(), 1U);
  EXPECT_EQ(r.wasted[0].card, 1);
  EXPECT_EQ(r.score.waste, -1);
}

TEST(CrossfireAllocate, DefeatsTheMostBeforeClearingTheMost) {
  // Three blue points: defeat the small one (1 level) rather than clear 2 of 3 on the big one.
  AllocInput in;
  in.obstacles = {obstacle("Big=blue,blue,blue,blue"), obstacle("Small=blue")};
  in.cards = {played("A=blue"), played("B=blue"), played("C=blue")};
  const AllocResult r = solve(in);
  EXPECT_TRUE(r.obstacles[1].defeated);
  EXPECT_EQ(r.obstacles[0].cleared_after, 2);
}

TEST(CrossfireAllocate, WeightsPreferTheDangerousObstacle) {
  AllocInput in;
  in.obstacles = {obstacle("Rent-a-cop=2 nuyen:1"), obstacle("Assassin=2 threat:3 nuyen:1")};
  in.cards = {played("A=2")};
  const AllocResult r = solve(in);
  EXPECT_TRUE(r.obstacles[1].defeated);
  EXPECT_FALSE(r.obstacles[0].defeated);
}

TEST(CrossfireAllocate, HarmComesFirst) {
  // Jim (2 HP, next) faces two attack-1 obstacles; Cal (current, 5 HP) faces a nuyen-rich one.
  // Defeating either of Jim's attackers keeps him standing; that beats the richer obstacle.
  AllocInput in;
  in.runners = {{"Cal", 5, false}, {"Jim", 2, false}};
  in.obstacles = {obstacle("Boss's Purse=2 nuyen:9 attack:1 faces:Cal"),
                  obstacle("Goon=3 attack:1 faces:Jim"), obstacle("Goon 2=3 attack:1 faces:Jim")};
  in.cards = {played("A=3")};
  const AllocResult r = solve(in);
  EXPECT_FALSE(r.obstacles[0].defeated);
  EXPECT_TRUE(r.obstacles[1].defeated || r.obstacles[2].defeated);
  EXPECT_EQ(r.score.harm, 0);
}

TEST(CrossfireAllocate, SingleLevelsGoToDifferentObstacles) {
  AllocInput in;
  in.obstacles = {obstacle("One=5,5"), obstacle("Two=5")};
  in.cards = {played("Fireball=blue+2+levels:3")};
  const AllocResult r = solve(in);
  // Two singles cannot both hit One: One gets one level, Two is defeated by the other.
  EXPECT_TRUE(r.obstacles[1].defeated);
  EXPECT_EQ(r.obstacles[0].cleared_after, 1);
  ASSERT_EQ(r.level_targets[0].size(), 2U);
  EXPECT_NE(r.level_targets[0][0], r.level_targets[0][1]);
  EXPECT_LT(r.score.waste, 0);  // the third single and the box clear nothing
}

TEST(CrossfireAllocate, ObstacleOnlyCardsSkipBosses) {
  AllocInput in;
  in.obstacles = {obstacle("Dragon Hacking=2green|6 boss")};
  in.cards = {played("Lightning Bolt=levels:2:consecutive+obstacle-only"), played("Mark=green")};
  const AllocResult r = solve(in);
  EXPECT_FALSE(r.obstacles[0].defeated);
  EXPECT_EQ(r.box_target[0], -1);
}

TEST(CrossfireAllocate, RefusesBadInput) {
  AllocInput in;
  EXPECT_FALSE(allocate(in));
  in.obstacles = {obstacle("A=1 faces:Nobody")};
  in.runners = {{"Cal", 5, false}};
  EXPECT_FALSE(allocate(in));
  in.runners.clear();
  for (int i = 0; i < 15; ++i)
    in.cards.push_back(played("x=1"));
  EXPECT_FALSE(allocate(in));
}

/// A random small case: 1-3 obstacles, 1-4 cards, a few units each.
AllocInput random_case(std::mt19937& rng) {
  std::uniform_int_distribution<int> coin(0, 1), colour(0, 3), small(1, 2);
  AllocInput in;
  const bool with_runners = coin(rng) != 0;
  if (with_runners) {
    in.runners = {{"R0", small(rng) + 1, coin(rng) != 0 && coin(rng) != 0},
                  {"R1", small(rng), false}};
  }
  const int o_count = std::uniform_int_distribution<int>(1, 3)(rng);
  for (int o = 0; o < o_count; ++o) {
    ObstacleCard c;
    c.name = "O" + std::to_string(o);
    const int n = std::uniform_int_distribution<int>(1, 3)(rng);
    for (int i = 0; i < n; ++i) {
      c.track.push_back(coin(rng) != 0 ? Level::any(small(rng))
                                       : Level::of(static_cast<Colour>(colour(rng))));
    }
    c.cleared = std::uniform_int_distribution<int>(0, n - 1)(rng);
    c.nuyen = std::uniform_int_distribution<int>(0, 3)(rng);
    c.threat = coin(rng);
    c.attack = std::uniform_int_distribution<int>(0, 2)(rng);
    c.boss = coin(rng) != 0 && coin(rng) != 0;
    if (with_runners && coin(rng) != 0) c.faces = coin(rng) != 0 ? "R0" : "R1";
    in.obstacles.push_back(AllocObstacle{c, {}});
  }
  const int c_count = std::uniform_int_distribution<int>(1, 4)(rng);
  for (int i = 0; i < c_count; ++i) {
    AllocCard card;
    card.bundle.name = "C" + std::to_string(i);
    card.use = coin(rng) != 0 ? CardUse::Played : CardUse::Offered;
    const int units = small(rng);
    for (int u = 0; u < units; ++u) {
      if (coin(rng) != 0) {
        ++card.bundle.points.of(static_cast<Colour>(colour(rng)));
      } else {
        ++card.bundle.points.colourless;
      }
    }
    const int kind = std::uniform_int_distribution<int>(0, 7)(rng);
    if (kind == 0) {
      card.bundle.levels = 2;
      card.bundle.mode = LevelMode::Consecutive;
      card.bundle.obstacle_only = coin(rng) != 0;
    } else if (kind == 1) {
      card.bundle.levels = 2;
      card.bundle.mode = LevelMode::Spread;
    }
    in.cards.push_back(card);
  }
  return in;
}

TEST(CrossfireAllocate, NeverBeatenByExhaustiveSearch) {
  std::mt19937 rng(20240601);
  for (int trial = 0; trial < 400; ++trial) {
    AllocInput in = random_case(rng);
    // Equal cards are interchangeable (the solver uses that): check it with twins.
    if (trial % 3 == 0 && in.cards.size() < 5) in.cards.push_back(in.cards[0]);
    auto ours = allocate(in);
    ASSERT_TRUE(ours) << ours.error();
    auto best = allocate_exhaustive(in, Evaluator::Enumerate);
    ASSERT_TRUE(best) << best.error();
    EXPECT_EQ(ours->score, best->score) << "trial " << trial;
    // Our targets, valued independently, give the score we claim.
    auto check = score_targets(in, ours->box_target, ours->level_targets, Evaluator::Enumerate);
    ASSERT_TRUE(check) << check.error();
    EXPECT_EQ(*check, ours->score) << "trial " << trial;
  }
}

}  // namespace
}  // namespace duels::cards::crossfire
