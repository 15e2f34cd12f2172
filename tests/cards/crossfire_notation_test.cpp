// Crossfire notation: tracks, card bundles and obstacles parse as documented, bad tokens are
// pointed at, and every canonical text round-trips (seeded random values).
#include <gtest/gtest.h>

#include <random>

#include "cards/crossfire/notation.hpp"

namespace duels::cards::crossfire {
namespace {

TEST(CrossfireNotation, TrackFromTheIssue) {
  auto t = parse_track("3,blue,blue,1");
  ASSERT_TRUE(t) << t.error().message();
  ASSERT_EQ(t->size(), 4U);
  EXPECT_EQ((*t)[0], Level::any(3));
  EXPECT_EQ((*t)[1], Level::of(Colour::Blue));
  EXPECT_EQ((*t)[2], Level::of(Colour::Blue));
  EXPECT_EQ((*t)[3], Level::any(1));
  EXPECT_EQ(to_notation(*t), "3,blue,blue,1");
}

TEST(CrossfireNotation, DragonAspectLevels) {
  auto t = parse_track("2green|8, 3red");
  ASSERT_TRUE(t) << t.error().message();
  EXPECT_EQ((*t)[0], (Level{Colour::Green, 2, 8}));
  EXPECT_EQ((*t)[1], Level::of(Colour::Red, 3));
  EXPECT_EQ(describe((*t)[0]), "2 green or any 8");
  EXPECT_EQ(to_notation(*t), "2green|8,3red");
}

TEST(CrossfireNotation, BadTrackTokenIsPointedAt) {
  auto t = parse_track("3,purple,1");
  ASSERT_FALSE(t);
  EXPECT_EQ(t.error().position, 2U);
  EXPECT_EQ(t.error().length, 6U);
  EXPECT_NE(t.error().message().find("  ^^^^^^"), std::string::npos) << t.error().message();
  auto zero = parse_track("0,blue");
  ASSERT_FALSE(zero);
  EXPECT_EQ(zero.error().position, 0U);
  auto empty = parse_track("3,,1");
  ASSERT_FALSE(empty);
  EXPECT_EQ(empty.error().position, 2U);
}

TEST(CrossfireNotation, BundlesFromTheIssue) {
  auto gs = parse_bundle("Guiding Spirit=blue+1");
  ASSERT_TRUE(gs) << gs.error().message();
  EXPECT_EQ(gs->name, "Guiding Spirit");
  EXPECT_EQ(gs->points.of(Colour::Blue), 1);
  EXPECT_EQ(gs->points.colourless, 1);
  EXPECT_EQ(gs->levels, 0);

  auto bolt = parse_bundle("Lightning Bolt=levels:2:consecutive");
  ASSERT_TRUE(bolt) << bolt.error().message();
  EXPECT_EQ(bolt->levels, 2);
  EXPECT_EQ(bolt->mode, LevelMode::Consecutive);
  EXPECT_TRUE(bolt->points.empty());

  auto fb = parse_bundle("Fireball=blue+2+levels:3");
  ASSERT_TRUE(fb);
  EXPECT_EQ(fb->mode, LevelMode::Spread);
  EXPECT_EQ(fb->points.total(), 3);

  auto box = parse_bundle("=2green+2");  // the rules' example box: 4 points
  ASSERT_TRUE(box);
  EXPECT_EQ(box->points.total(), 4);
  EXPECT_EQ(box->points.of(Colour::Green), 2);

  auto nameless = parse_bundle("red");
  ASSERT_TRUE(nameless);
  EXPECT_EQ(nameless->name, "");
  EXPECT_EQ(nameless->points.of(Colour::Red), 1);
}

TEST(CrossfireNotation, BadBundleTokenIsPointedAt) {
  auto b = parse_bundle("Zap=blue+levels:9");
  ASSERT_FALSE(b);
  EXPECT_EQ(b.error().position, 16U);  // the 9
  auto c = parse_bundle("Zap=blue+mauve");
  ASSERT_FALSE(c);
  EXPECT_EQ(c.error().position, 9U);
  EXPECT_EQ(c.error().length, 5U);
  auto d = parse_bundle("Zap=");
  ASSERT_FALSE(d);
  auto e = parse_bundle("Zap=levels:2:sideways");
  ASSERT_FALSE(e);
  EXPECT_EQ(e.error().position, 13U);
}

TEST(CrossfireNotation, Obstacle) {
  auto o = parse_obstacle(
      "Lone Star Trooper=5,black,green@1 colour:black attack:2 nuyen:3 hard type:Human "
      "faces:Jim on:attacks,defeated");
  ASSERT_TRUE(o) << o.error().message();
  EXPECT_EQ(o->name, "Lone Star Trooper");
  EXPECT_EQ(o->track.size(), 3U);
  EXPECT_EQ(o->cleared, 1);
  EXPECT_EQ(o->colour, Colour::Black);
  EXPECT_EQ(o->attack, 2);
  EXPECT_EQ(o->nuyen, 3);
  EXPECT_TRUE(o->hard);
  EXPECT_EQ(o->type, "Human");
  EXPECT_EQ(o->faces, "Jim");
  EXPECT_TRUE(o->has(Timing::Attacks));
  EXPECT_TRUE(o->has(Timing::Defeated));
  EXPECT_FALSE(o->has(Timing::Flipped));
  auto again = parse_obstacle(to_notation(*o));
  ASSERT_TRUE(again);
  EXPECT_EQ(*again, *o);
}

TEST(CrossfireNotation, BadObstacleTokens) {
  auto a = parse_obstacle("Mage=3,blue@7");
  ASSERT_FALSE(a);
  EXPECT_EQ(a.error().position, 12U);
  auto b = parse_obstacle("Mage=3 attack:x");
  ASSERT_FALSE(b);
  EXPECT_EQ(b.error().position, 14U);
  auto c = parse_obstacle("Mage=3 sneaky");
  ASSERT_FALSE(c);
  EXPECT_EQ(c.error().position, 7U);
  auto d = parse_obstacle("no track here");
  ASSERT_FALSE(d);
}

TEST(CrossfireNotation, ColourWordsRolesAndTypes) {
  EXPECT_EQ(colour_from("Mage"), Colour::Blue);
  EXPECT_EQ(colour_from("hacking"), Colour::Green);
  EXPECT_EQ(colour_from("street-samurai"), Colour::Black);
  EXPECT_EQ(colour_from("face"), Colour::Red);
  EXPECT_FALSE(colour_from("mauve"));
}

Level random_level(std::mt19937& rng) {
  std::uniform_int_distribution<int> kind(0, 3), n(1, 9), c(0, 3);
  const auto colour = static_cast<Colour>(c(rng));
  switch (kind(rng)) {
    case 0:
      return Level::any(n(rng));
    case 1:
      return Level::of(colour);
    case 2:
      return Level::of(colour, n(rng));
    default:
      return Level{colour, n(rng), n(rng)};
  }
}

TEST(CrossfireNotation, RoundTripsOfRandomValues) {
  std::mt19937 rng(20240509);
  std::uniform_int_distribution<int> small(0, 4), len(1, 6), flag(0, 1);
  for (int trial = 0; trial < 300; ++trial) {
    Track t;
    const int n = len(rng);
    for (int i = 0; i < n; ++i)
      t.push_back(random_level(rng));
    auto tt = parse_track(to_notation(t));
    ASSERT_TRUE(tt) << to_notation(t);
    EXPECT_EQ(*tt, t);

    Bundle b;
    b.name = flag(rng) != 0 ? "Card " + std::to_string(trial) : "";
    for (Colour c : kAllColours)
      b.points.of(c) = small(rng);
    b.points.colourless = small(rng);
    b.levels = small(rng);
    b.mode = static_cast<LevelMode>(small(rng) % 3);
    if (b.levels == 0) b.mode = LevelMode::Spread;
    b.obstacle_only = flag(rng) != 0;
    auto bb = parse_bundle(to_notation(b));
    ASSERT_TRUE(bb) << to_notation(b);
    EXPECT_EQ(*bb, b) << to_notation(b);

    ObstacleCard o;
    o.name = "Obstacle " + std::to_string(trial);
    o.track = t;
    o.cleared = std::min(small(rng), n);
    o.attack = small(rng);
    o.nuyen = small(rng);
    o.hard = flag(rng) != 0;
    o.boss = flag(rng) != 0;
    o.no_heal = flag(rng) != 0;
    if (flag(rng) != 0) o.colour = static_cast<Colour>(small(rng) % 4);
    if (flag(rng) != 0) o.weight = small(rng) * 100;
    o.timings = static_cast<std::uint8_t>(small(rng) * 13 % 64);
    auto oo = parse_obstacle(to_notation(o));
    ASSERT_TRUE(oo) << to_notation(o);
    EXPECT_EQ(*oo, o) << to_notation(o);
  }
}

}  // namespace
}  // namespace duels::cards::crossfire
