// Spec §6 worked checks 1–8 at the level of one attack (the engine tests repeat them in play).
#include "duels/combat.hpp"

#include <gtest/gtest.h>

#include "dice/notation.hpp"

namespace duels {
namespace {

using dice::Colour;

std::vector<dice::Roll> rolls(const char* text) {
  auto r = dice::parse_rolls(text);
  EXPECT_TRUE(r) << (r ? "" : r.error().message());
  return r ? *r : std::vector<dice::Roll>{};
}

TEST(Combat, Check1_BadKarmaRemovesMatchingNumbers) {
  AttackInput in{.weapon = 5, .body = 0, .attack = rolls("yellow:d6=4 yellow:d8=4 blue:d6=3")};
  const auto r = resolve_attack(in);
  EXPECT_EQ(r.bad_karma, (std::vector<int>{0, 1}));
  EXPECT_EQ(r.counted, (std::vector<int>{2}));
  EXPECT_EQ(r.attack_total, 5 + 3);
}

TEST(Combat, Check2_AcesIgnoreBadKarma) {
  AttackInput in{
      .weapon = 5, .body = 0, .attack = rolls("yellow:d6:ace=ace blue:d8:ace=ace green:d6=5")};
  const auto r = resolve_attack(in);
  EXPECT_TRUE(r.bad_karma.empty());
  EXPECT_EQ(r.aces, (std::vector<int>{0, 1}));
  EXPECT_EQ(r.attack_total, 10);
}

TEST(Combat, Check3_AllBadKarmaIsAutomaticMiss) {
  AttackInput in{.weapon = 20, .body = 0, .attack = rolls("yellow:d6=2 blue:d8=2")};
  const auto r = resolve_attack(in);
  EXPECT_TRUE(r.no_dice_left);
  EXPECT_FALSE(r.hit);
  EXPECT_EQ(r.clicks, 0);
}

TEST(Combat, Check4_TiesHit) {
  AttackInput in{
      .weapon = 7, .body = 9, .attack = rolls("yellow:d6=5"), .dodge = rolls("white:d6=3")};
  const auto r = resolve_attack(in);
  EXPECT_EQ(r.attack_total, 12);
  EXPECT_EQ(r.defence_total, 12);
  EXPECT_TRUE(r.hit);
}

TEST(Combat, Check5_ShieldBlocksOneDieAndBonusApplies) {
  AttackInput in{.weapon = 10,
                 .body = 5,
                 .attack = rolls("yellow:d6=5 yellow:d6=3 blue:d6=2"),
                 .shields = {Colour::Yellow}};
  auto r = resolve_attack(in);
  ASSERT_TRUE(r.hit);
  EXPECT_EQ(r.blocked.size(), 1U);
  EXPECT_EQ(r.clicks, 2);
  in.bonus = {{Colour::Yellow, 1}};
  r = resolve_attack(in);
  EXPECT_EQ(r.clicks, 3);
  EXPECT_EQ(r.bonus_colour, Colour::Yellow);
}

TEST(Combat, Check6_RedAceMajorMojo) {
  AttackInput in{.weapon = 10, .body = 5, .attack = rolls("red:d6:ace=ace")};
  const auto r = resolve_attack(in);
  ASSERT_TRUE(r.hit);
  EXPECT_EQ(r.clicks, 2);
  EXPECT_EQ(r.ace_effects, (std::vector<AceEffect>{AceEffect::MajorMojo}));
}

TEST(Combat, Check7And8_BlueAndBlackAceEffects) {
  AttackInput in{
      .weapon = 10, .body = 5, .attack = rolls("blue:d8:ace=ace black:d6:ace=ace yellow:d6=4")};
  const auto r = resolve_attack(in);
  ASSERT_TRUE(r.hit);
  EXPECT_TRUE(r.has_effect(AceEffect::Stun));
  EXPECT_TRUE(r.has_effect(AceEffect::TechSuperiority));
  EXPECT_EQ(r.clicks, 3);
}

TEST(Combat, AcesDoNothingOnAMiss) {
  AttackInput in{.weapon = 1, .body = 20, .attack = rolls("red:d6:ace=ace green:d8:ace=ace")};
  const auto r = resolve_attack(in);
  EXPECT_FALSE(r.hit);
  EXPECT_EQ(r.clicks, 0);
  EXPECT_TRUE(r.ace_effects.empty());
}

TEST(Combat, ShieldsNeverBlockAces) {
  AttackInput in{
      .weapon = 10, .body = 0, .attack = rolls("blue:d6:ace=ace"), .shields = {Colour::Blue}};
  const auto r = resolve_attack(in);
  EXPECT_TRUE(r.blocked.empty());
  EXPECT_EQ(r.clicks, 1);
}

TEST(Combat, BonusNeedsADamagingDieOfThatColour) {
  AttackInput in{.weapon = 10,
                 .body = 0,
                 .attack = rolls("yellow:d6=5 blue:d6=2"),
                 .shields = {Colour::Yellow},
                 .bonus = {{Colour::Yellow, 2}}};
  auto r = resolve_attack(in);
  EXPECT_EQ(r.clicks, 1);  // the only yellow die was blocked: no yellow bonus
  EXPECT_FALSE(r.bonus_colour);
}

TEST(Combat, BonusCountsAceColours) {
  // [R] the bonus may come from an ace's colour: the ace still does damage.
  AttackInput in{
      .weapon = 10, .body = 0, .attack = rolls("green:d6:ace=ace"), .bonus = {{Colour::Green, 1}}};
  EXPECT_EQ(resolve_attack(in).clicks, 1 + 1);
}

TEST(Combat, OnlyOneBonusAndAttackerChooses) {
  AttackInput in{.weapon = 10,
                 .body = 0,
                 .attack = rolls("yellow:d6=5 blue:d6=2"),
                 .bonus = {{Colour::Yellow, 1}, {Colour::Blue, 2}}};
  auto r = resolve_attack(in);
  EXPECT_EQ(r.clicks, 2 + 2);
  EXPECT_EQ(r.bonus_colour, Colour::Blue);
  in.bonus_choice = Colour::Yellow;
  r = resolve_attack(in);
  EXPECT_EQ(r.clicks, 2 + 1);
}

TEST(Combat, DodgeAcesCountZeroAndNoBadKarmaOnDodges) {
  AttackInput in{.weapon = 6,
                 .body = 3,
                 .attack = rolls("yellow:d6=3"),
                 .dodge = rolls("white:d6=3 white:d6=3 yellow:d6:ace=ace")};
  const auto r = resolve_attack(in);
  EXPECT_EQ(r.defence_total, 9);
  EXPECT_TRUE(r.hit);
}

TEST(Combat, DescribeNamesEveryStep) {
  AttackInput in{.weapon = 7, .body = 5, .attack = rolls("yellow:d6=4 yellow:d8=4 blue:d6=3")};
  const auto lines = describe_attack(in, resolve_attack(in));
  ASSERT_GE(lines.size(), 5U);
  EXPECT_NE(lines[0].find("yellow:d6=4"), std::string::npos);
  EXPECT_EQ(lines[3].substr(0, 2), "H.");
}

}  // namespace
}  // namespace duels
