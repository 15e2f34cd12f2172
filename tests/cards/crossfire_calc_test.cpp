// Crossfire calculators: payout (T-C2, T-C21 and a coin-by-coin brute force), packets and
// healing (T-C12, T-C18), Scene flips (T-C16), draw schedules (T-C17), the Extraction track
// (T-C22), Karma after scaling (T-C8, T-C20) and upgrade stickers (T-C7).
#include <gtest/gtest.h>

#include <random>

#include "cards/crossfire/calc.hpp"

namespace duels::cards::crossfire {
namespace {

// T-C2: Security Chief, 5¥, 4 runners, current R0 → 2,1,1,1.
TEST(CrossfireCalc, TC2SecurityChiefPayout) {
  EXPECT_EQ(payout(5, 4, 0), (std::vector<int>{2, 1, 1, 1}));
  // The same from another current runner: the current one gets the extra coin.
  EXPECT_EQ(payout(5, 4, 2), (std::vector<int>{1, 1, 2, 1}));
}

// T-C21: 3 runners + the Client (seat 3); 4¥ on the Client's turn pays from the starting runner.
TEST(CrossfireCalc, TC21ExtractionPayoutSkipsTheClient) {
  const std::vector<bool> eligible{true, true, true, false};
  EXPECT_EQ(payout(4, 4, 0, eligible), (std::vector<int>{2, 1, 1, 0}));
  // Started at the Client itself: the next eligible seat clockwise starts.
  EXPECT_EQ(payout(4, 4, 3, eligible), (std::vector<int>{2, 1, 1, 0}));
}

TEST(CrossfireCalc, PayoutMatchesCoinByCoin) {
  std::mt19937 rng(7);
  for (int trial = 0; trial < 500; ++trial) {
    const int seats = std::uniform_int_distribution<int>(1, 5)(rng);
    const int value = std::uniform_int_distribution<int>(0, 23)(rng);
    const int first = std::uniform_int_distribution<int>(0, seats - 1)(rng);
    std::vector<bool> eligible(static_cast<std::size_t>(seats));
    for (auto&& e : eligible)
      e = std::uniform_int_distribution<int>(0, 3)(rng) != 0;
    std::vector<int> coins(static_cast<std::size_t>(seats), 0);
    int seat = first;
    if (std::find(eligible.begin(), eligible.end(), true) != eligible.end()) {
      for (int handed = 0; handed < value;) {
        if (eligible[static_cast<std::size_t>(seat)]) {
          ++coins[static_cast<std::size_t>(seat)];
          ++handed;
        }
        seat = (seat + 1) % seats;
      }
    }
    EXPECT_EQ(payout(value, seats, first, eligible), coins);
  }
}

// T-C12: two attack-2 obstacles against 3 HP: one packet of 4 → staggered at 0, not critical.
TEST(CrossfireCalc, TC12OnePacketStaggersNeverCriticals) {
  const PacketResult r = apply_packet(Health{3, 5, false, false}, 2 + 2);
  EXPECT_EQ(r.after.hp, 0);
  EXPECT_TRUE(r.became_staggered);
  EXPECT_FALSE(r.became_critical);
  EXPECT_FALSE(r.after.critical);
  // A later packet on the staggered runner makes them critical.
  const PacketResult later = apply_packet(r.after, 1);
  EXPECT_TRUE(later.became_critical);
  EXPECT_EQ(apply_packet(r.after, 0).after, r.after);
}

// T-C18 (health part): 1 HP takes 3 → 0 and staggered; healed 1 → 1 HP, recovered (draw 2).
TEST(CrossfireCalc, TC18StaggerAndRecovery) {
  const PacketResult hit = apply_packet(Health{1, 6, false, false}, 3);
  EXPECT_EQ(hit.after.hp, 0);
  EXPECT_TRUE(hit.after.staggered);
  const HealResult healed = heal(hit.after, 1);
  EXPECT_EQ(healed.after.hp, 1);
  EXPECT_FALSE(healed.after.staggered);
  EXPECT_TRUE(healed.recovered);
  EXPECT_EQ(heal(Health{5, 6, false, false}, 3).after.hp, 6);  // capped at max
}

TEST(CrossfireCalc, ForecastWarnsAndSuggestsBlocks) {
  const std::vector<std::string> names{"Cal", "Rob"};
  const std::vector<Health> health{{3, 5, false, false}, {2, 4, true, false}};
  const std::vector<Attacker> attackers{{"Deckhead", 2, 0, false},
                                        {"Gargoyle", 2, 0, false},
                                        {"Out of Ammo", 1, 1, false},
                                        {"Blocked", 5, 1, true}};
  const auto f = forecast_incoming(names, health, attackers, 0);
  ASSERT_EQ(f.size(), 2U);
  EXPECT_EQ(f[0].packet, 4);
  EXPECT_TRUE(f[0].result.became_staggered);
  EXPECT_NE(f[0].warning.find("STAGGERED"), std::string::npos);
  ASSERT_EQ(f[0].without.size(), 2U);
  EXPECT_TRUE(f[0].without[0].avoids);  // without Deckhead: 2 < 3
  EXPECT_EQ(f[1].packet, 1);            // the stopped attacker does not count
  EXPECT_TRUE(f[1].result.became_critical);
  // Resolution order starts with the current runner.
  EXPECT_EQ(forecast_incoming(names, health, attackers, 1)[0].name, "Rob");
}

// T-C16: the Scene flip split.
TEST(CrossfireCalc, TC16SceneFlipSplit) {
  const FlipForecast a = crossfire_scene_flip(4, 2, 3, false);
  EXPECT_EQ(a.total, 5);
  EXPECT_EQ(a.hard, 3);
  EXPECT_EQ(a.normal, 2);
  const FlipForecast b = crossfire_scene_flip(3, 3, 8, true);
  EXPECT_EQ(b.total, 6);
  EXPECT_EQ(b.hard, 6);
  EXPECT_EQ(b.normal, 0);
  const FlipForecast c = crossfire_scene_flip(2, 1, 2, false);  // Danger Zone ×2 → level 2
  EXPECT_EQ(c.total, 2);
  EXPECT_EQ(c.hard, 2);
  EXPECT_EQ(dragon_round_flip(1, true).hard, 1);
  EXPECT_EQ(dragon_round_flip(1, true).normal, 3);
}

// T-C17: fewer runners skip the first Crossfire draws; Dragon Fight from round 3 by default.
TEST(CrossfireCalc, TC17DrawSchedule) {
  EXPECT_FALSE(crossfire_draw_due(Mission::Crossfire, 3, 1));
  EXPECT_TRUE(crossfire_draw_due(Mission::Crossfire, 3, 2));
  EXPECT_FALSE(crossfire_draw_due(Mission::Crossfire, 2, 2));
  EXPECT_TRUE(crossfire_draw_due(Mission::Crossfire, 2, 3));
  EXPECT_TRUE(crossfire_draw_due(Mission::Crossfire, 4, 1));
  EXPECT_TRUE(crossfire_draw_due(Mission::Extraction, 2, 1));  // B5.11
  EXPECT_FALSE(crossfire_draw_due(Mission::Dragon, 4, 2));
  EXPECT_TRUE(crossfire_draw_due(Mission::Dragon, 4, 2, true));
  EXPECT_TRUE(crossfire_draw_due(Mission::Dragon, 4, 1, false, true));
}

// T-C22: Extraction step 3 for 4 runners, and with Elite Response Team.
TEST(CrossfireCalc, TC22ExtractionStep3) {
  auto s = extraction_step(4, 3, false);
  ASSERT_TRUE(s);
  EXPECT_EQ(s->heal_all, 1);
  EXPECT_EQ(s->hard, 1);
  EXPECT_EQ(s->normal, 2);
  EXPECT_TRUE(s->scene_ends);
  auto elite = extraction_step(4, 3, true);
  EXPECT_EQ(elite->hard, 2);
  EXPECT_EQ(elite->normal, 2);
  EXPECT_EQ(extraction_step(4, 1, true)->hard, 0);  // no Hard instruction, no extra
  EXPECT_EQ(extraction_step(1, 3, false)->gain_nuyen, 2);
  EXPECT_TRUE(extraction_step(3, 7, false)->escape);
  EXPECT_FALSE(extraction_step(5, 1, false));
  EXPECT_FALSE(extraction_step(2, 8, false));
}

// T-C8: the Karma example before scaling.
TEST(CrossfireCalc, TC8KarmaExample) {
  EXPECT_EQ(karma_award(Mission::Crossfire, Result::Win, {}, 0)->total, 3);
  EXPECT_EQ(karma_award(Mission::Crossfire, Result::Win, {"Bring It On"}, 0)->total, 4);
  EXPECT_EQ(karma_award(Mission::Crossfire, Result::Abort, {}, 0)->total, 1);
  EXPECT_EQ(karma_award(Mission::Crossfire, Result::Loss, {}, 0)->total, 0);
  // B5.13: bonus Karma only on a win, unless the house rule says otherwise.
  EXPECT_EQ(karma_award(Mission::Crossfire, Result::Abort, {"bring-it-on"}, 0)->total, 1);
  EXPECT_EQ(karma_award(Mission::Crossfire, Result::Abort, {"bring-it-on"}, 0, 4, true)->total, 2);
}

// T-C20: Karma scaling.
TEST(CrossfireCalc, TC20KarmaScaling) {
  EXPECT_EQ(karma_award(Mission::Crossfire, Result::Win, {}, 35)->total, 1);
  EXPECT_EQ(karma_award(Mission::Crossfire, Result::Win, {"danger-zone", "danger-zone"}, 35)->total,
            5);
  EXPECT_EQ(scaling_penalty(Mission::Crossfire, 80), 4);
  EXPECT_EQ(scaling_penalty(Mission::Crossfire, 130), 6);
  EXPECT_EQ(karma_award(Mission::Dragon, Result::Win, {}, 80)->total, 6);
  EXPECT_EQ(karma_award(Mission::Dragon, Result::Win, {}, 126)->total, 4);
  // Boundaries of the table.
  EXPECT_EQ(scaling_penalty(Mission::Crossfire, 10), 0);
  EXPECT_EQ(scaling_penalty(Mission::Crossfire, 11), 1);
  EXPECT_EQ(scaling_penalty(Mission::Crossfire, 30), 1);
  EXPECT_EQ(scaling_penalty(Mission::Crossfire, 31), 2);
  EXPECT_EQ(scaling_penalty(Mission::Crossfire, 75), 3);
  EXPECT_EQ(scaling_penalty(Mission::Crossfire, 76), 4);
  EXPECT_EQ(scaling_penalty(Mission::Crossfire, 100), 4);
  EXPECT_EQ(scaling_penalty(Mission::Crossfire, 101), 5);
  EXPECT_EQ(scaling_penalty(Mission::Dragon, 75), 0);
  EXPECT_EQ(scaling_penalty(Mission::Dragon, 76), 1);
  EXPECT_EQ(scaling_penalty(Mission::Extraction, 51), 3);
  // B5.5: floored at 0.
  EXPECT_EQ(karma_award(Mission::Crossfire, Result::Abort, {}, 60)->total, 0);
}

TEST(CrossfireCalc, KarmaRefusesWhatTheMissionsForbid) {
  EXPECT_FALSE(karma_award(Mission::Extraction, Result::Abort, {}, 0));
  EXPECT_FALSE(karma_award(Mission::Crossfire, Result::Win, {"bring-it-on", "bring-it-on"}, 0));
  EXPECT_FALSE(karma_award(Mission::Crossfire, Result::Win, {"minions-unending"}, 0));
  EXPECT_FALSE(
      karma_award(Mission::Dragon, Result::Win, {"trouble-brewing", "lets-get-serious"}, 0));
  EXPECT_FALSE(karma_award(Mission::Crossfire, Result::Win,
                           {"danger-zone", "danger-zone", "danger-zone"}, 0, 2));
  EXPECT_FALSE(karma_award(Mission::Crossfire, Result::Win, {"no such bonus"}, 0));
  EXPECT_EQ(
      karma_award(Mission::Extraction, Result::Win, {"Elite Response Team", "EMT Gig"}, 0)->total,
      8);
}

// T-C7: Cigar Money → It's A Jing Thing.
TEST(CrossfireCalc, TC7CoveringStickers) {
  const Sticker cigar{"Cigar Money", 5, 1, 1, 0};
  const UpgradeCheck first = check_upgrades({cigar}, 5);
  EXPECT_TRUE(first.legal);
  EXPECT_EQ(first.total, 5);
  EXPECT_EQ(first.nuyen_bonus, 1);

  const Sticker jing{"It's A Jing Thing", 20, 1, 2, 0};
  const UpgradeCheck covered = check_upgrades({cigar, jing}, 20);
  EXPECT_TRUE(covered.legal);
  EXPECT_EQ(covered.total, 20);
  EXPECT_EQ(covered.nuyen_bonus, 2);  // not 3: the covered sticker does nothing

  Sticker jing2 = jing;
  jing2.slot = 2;
  const UpgradeCheck second_slot = check_upgrades({cigar, jing2}, 20);
  EXPECT_FALSE(second_slot.legal);
  EXPECT_EQ(second_slot.total, 35);
  EXPECT_EQ(second_slot.short_by, 15);
  ASSERT_FALSE(second_slot.problems.empty());
  EXPECT_EQ(second_slot.problems[0], "needs 15 more Karma (35)");

  const auto options = plan_upgrade({cigar}, jing, 20);
  ASSERT_EQ(options.size(), 2U);
  EXPECT_TRUE(options[0].covers);
  EXPECT_TRUE(options[0].check.legal);
  EXPECT_EQ(options[1].slot, 2);
  EXPECT_FALSE(options[1].check.legal);
}

TEST(CrossfireCalc, DuplicateUpgradeNamesAreIllegal) {
  const UpgradeCheck c = check_upgrades({{"Ace", 1, 1, 0, 0}, {"Ace", 1, 2, 0, 0}}, 50);
  EXPECT_FALSE(c.legal);
  EXPECT_EQ(effective_cost(Sticker{"X", 4, 3, 0, 0}), 14);
}

// T-C14: Press the Advantage reveals Weapon, Skill, Weapon: two drawn, the Weapon stays on top.
TEST(CrossfireCalc, TC14PressTheAdvantage) {
  const Reveal r = press_the_advantage({"Weapon", "Skill", "Weapon"});
  EXPECT_EQ(r.drawn, 2);
  EXPECT_TRUE(r.repeat_on_top);
  EXPECT_EQ(press_the_advantage({"Spell", "Hacking"}).drawn, 2);
  EXPECT_FALSE(press_the_advantage({"Spell", "Hacking"}).repeat_on_top);
}

// T-C15: Katana stacking.
TEST(CrossfireCalc, TC15KatanaStacking) {
  EXPECT_EQ(katana_bonus(2, false), 2);     // Quick Shot with two Katanas
  EXPECT_EQ(katana_bonus(2, true), 1);      // each Katana boosted by the other
  EXPECT_EQ(katana_bonus(1, true), 0);      // a Katana never boosts itself
  EXPECT_EQ(katana_bonus(1, false, 3), 3);  // Roomsweeper on 3 obstacles: +1 on each
}

TEST(CrossfireCalc, DrawReshufflesThenStops) {
  const DrawResult a = draw_cards(Pile{1, 4}, 3);
  EXPECT_EQ(a.drawn, 3);
  EXPECT_TRUE(a.reshuffled);
  EXPECT_EQ(a.after, (Pile{2, 0}));
  const DrawResult b = draw_cards(Pile{1, 1}, 4);
  EXPECT_EQ(b.drawn, 2);
  EXPECT_TRUE(b.short_by_cards);
  EXPECT_EQ(b.after, (Pile{0, 0}));
}

}  // namespace
}  // namespace duels::cards::crossfire
