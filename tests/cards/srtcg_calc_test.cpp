// SRTCG calculators: sleaze, the deck validator, solo play (T-S19…T-S24), tournaments
// (T-S25…T-S29, Swiss fields of 8, 9 and 26 players) and the DMZ (T-S30…T-S34).
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <functional>
#include <set>

#include "cards/srtcg/deck.hpp"
#include "cards/srtcg/dmz.hpp"
#include "cards/srtcg/sleaze.hpp"
#include "cards/srtcg/solo.hpp"
#include "cards/srtcg/tournament.hpp"
#include "dice/roller.hpp"

namespace duels::cards::srtcg {
namespace {

RunnerCard skills(const std::string& spec) {
  auto r = parse_skills(spec);
  EXPECT_TRUE(r) << (r ? "" : r.error().message());
  return r ? *r : RunnerCard{};
}

// T-S8 as a calculator: Piloting 3 against 1 + 1 and 1 + 2.
TEST(SrtcgSleaze, TS8Piloting) {
  const Ratings need = *parse_requirement("Piloting:3");
  const SleazeCheck fail = sleaze_team({skills("Piloting:1"), skills("Piloting:1")}, need);
  EXPECT_FALSE(fail.met);
  ASSERT_EQ(fail.lines.size(), 1U);
  EXPECT_EQ(fail.lines[0].have, 2);
  EXPECT_TRUE(sleaze_team({skills("Piloting:1"), skills("Piloting:2")}, need).met);
  EXPECT_FALSE(sleaze_team({}, {}).can_sleaze);
}

TEST(SrtcgSleaze, AntiSocialAndSeveralSkills) {
  const Ratings need = *parse_requirement("Social 2, Stealth 1");
  EXPECT_TRUE(sleaze_team({skills("Social 2"), skills("Stealth")}, need).met);
  const SleazeCheck anti = sleaze_team({skills("Social 2"), skills("Stealth, anti-social")}, need);
  EXPECT_FALSE(anti.met);
  EXPECT_TRUE(anti.lines[0].anti_social);
  EXPECT_TRUE(anti.lines[1].met);
  EXPECT_FALSE(parse_requirement("Piloting:x"));
  EXPECT_FALSE(parse_requirement("Stamina"));
}

// Property: the smallest team sleazes everything, and no smaller team does.
TEST(SrtcgSleaze, SmallestTeamIsSmallest) {
  dice::Rng rng(77);
  const std::vector<std::string> pool = {"Piloting", "Stealth", "Social", "Technical"};
  for (int trial = 0; trial < 100; ++trial) {
    std::vector<RunnerCard> runners;
    const int n = rng.uniform(8);
    for (int i = 0; i < n; ++i) {
      RunnerCard r;
      r.name = fmt::format("R{}", i);
      r.skills[pool[static_cast<std::size_t>(rng.uniform(4) - 1)]] = rng.uniform(2);
      runners.push_back(r);
    }
    std::vector<Ratings> reqs = {
        {{pool[static_cast<std::size_t>(rng.uniform(4) - 1)], rng.uniform(3)}}};
    auto best = smallest_sleaze_team(runners, reqs);
    int smallest = 99;
    for (std::uint32_t m = 1; m < (1U << runners.size()); ++m) {
      std::vector<RunnerCard> t;
      for (std::size_t i = 0; i < runners.size(); ++i) {
        if ((m >> i) & 1U) t.push_back(runners[i]);
      }
      if (static_cast<int>(t.size()) <= 6 && sleaze_team(t, reqs[0]).met) {
        smallest = std::min(smallest, static_cast<int>(t.size()));
      }
    }
    if (smallest == 99) {
      EXPECT_FALSE(best.has_value());
    } else {
      ASSERT_TRUE(best.has_value());
      EXPECT_EQ(static_cast<int>(best->size()), smallest);
    }
  }
}

// ---- Deck validator ------------------------------------------------------------------------

std::string deck_text(int runners, int challenges, int objectives, int rep_each,
                      const std::string& extra = "") {
  std::string t = "schema_version: 1\ngoal: 60\ncards:\n";
  int left = runners;
  for (int k = 0; left > 0; ++k) {
    const int c = std::min(4, left);
    t += fmt::format("  - {{name: Runner {}, type: runner, copies: {}}}\n", k, c);
    left -= c;
  }
  left = challenges;
  for (int k = 0; left > 0; ++k) {
    const int c = std::min(4, left);
    t += fmt::format("  - {{name: Challenge {}, type: challenge, copies: {}}}\n", k, c);
    left -= c;
  }
  t += extra;
  t += "objectives:\n";
  for (int k = 0; k < objectives; ++k)
    t += fmt::format("  - {{name: Job {}, rep: {}}}\n", k, rep_each);
  return t;
}

TEST(SrtcgDeck, LegalDeck) {
  const Deck d = parse_deck(deck_text(30, 30, 6, 10), "deck.yaml");
  const DeckReport r = check_deck(d);
  EXPECT_TRUE(r.legal);
  EXPECT_EQ(r.cards, 60);
  EXPECT_EQ(r.objectives, 6);
  EXPECT_EQ(r.rep_total, 60);
  EXPECT_NEAR(r.p_no_challenge_opening, p_none_in_hand(60, 30, 7), 1e-12);
  EXPECT_FALSE(r.advice.empty());  // 30 Runners is more than suggested
}

TEST(SrtcgDeck, RuleBreaks) {
  const auto problems = [](const std::string& text) {
    std::string all;
    for (const DataError& e : check_deck(parse_deck(text, "d.yaml")).problems)
      all += e.message() + "\n";
    return all;
  };
  EXPECT_NE(problems(deck_text(30, 29, 6, 10)).find("at least 60 cards"), std::string::npos);
  EXPECT_NE(problems(deck_text(30, 30, 5, 12)).find("at least 6 Objectives"), std::string::npos);
  EXPECT_NE(problems(deck_text(30, 30, 6, 9)).find("add up to 54"), std::string::npos);
  const std::string five = deck_text(30, 30, 6, 10, "  - {name: Runner 0, type: runner}\n");
  EXPECT_NE(problems(five).find("at most 4 copies"), std::string::npos);
  const std::string unique =
      deck_text(30, 30, 6, 10, "  - {name: Lofwyr, type: contact, unique: true, copies: 2}\n");
  EXPECT_NE(problems(unique).find("Unique"), std::string::npos);
}

TEST(SrtcgDeck, BadFileNamesLineAndField) {
  try {
    parse_deck("schema_version: 1\ncards:\n  - {name: X, type: wizard}\nobjectives: []\n",
               "d.yaml");
    FAIL() << "expected an error";
  } catch (const DataException& e) {
    EXPECT_EQ(e.error().line, 3);
    EXPECT_NE(e.error().field.find("cards[0].type"), std::string::npos) << e.what();
  }
  EXPECT_THROW(parse_deck("schema_version: 2\ncards: []\nobjectives: []\n", "d.yaml"),
               DataException);
  EXPECT_THROW(load_deck("/nonexistent/deck.yaml"), DataException);
}

// The Bad Shuffle risk is hypergeometric: checked against counting every hand.
TEST(SrtcgDeck, HypergeometricMatchesCounting) {
  for (int n = 1; n <= 10; ++n) {
    for (int k = 0; k <= n; ++k) {
      for (int hand = 1; hand <= n; ++hand) {
        long hands = 0;
        long clean = 0;
        for (std::uint32_t m = 0; m < (1U << n); ++m) {
          if (__builtin_popcount(m) != hand) continue;
          ++hands;
          clean += (m & ((1U << k) - 1U)) == 0 ? 1 : 0;  // cards 0..k-1 are the marked ones
        }
        EXPECT_NEAR(p_none_in_hand(n, k, hand),
                    static_cast<double>(clean) / static_cast<double>(hands), 1e-12);
      }
    }
  }
}

// ---- Solo ----------------------------------------------------------------------------------

// T-S19: Reaper 8, Cannonball 6, Razorback 8, Red Widow 6, Stomper 7, Shade 4 → 39¥, 1¥ left.
TEST(SrtcgSolo, TS19TeamBudget) {
  const BudgetCheck b = solo_budget({8, 6, 8, 6, 7, 4});
  EXPECT_EQ(b.total, 39);
  EXPECT_EQ(b.left, 1);
  EXPECT_TRUE(b.ok);
  EXPECT_FALSE(solo_budget({8, 6, 8, 6, 7, 4, 5}).ok);
}

// T-S20: the Crawler's 2¥ Recon can be paid 3 times from the 6¥ credstick.
TEST(SrtcgSolo, TS20Crawler) {
  EXPECT_EQ(activations(kSoloCredstick, 2), 3);
  EXPECT_EQ(solo_budget({2}).left, 38);
}

// T-S21: 4 runners + 1 drone take 13: 2 each, then 3 points to 3 distinct random targets.
TEST(SrtcgSolo, TS21EvenDamage) {
  std::vector<EvenTarget> targets;
  for (const char* n : {"A", "B", "C", "D", "Drone"})
    targets.push_back(EvenTarget{n, 0, 9});
  auto s = even_split(targets, 13, {6, 2, 5, 4, 1});
  ASSERT_TRUE(s) << s.error();
  EXPECT_EQ(s->passes, 2);
  EXPECT_EQ(s->remainder, 3);
  EXPECT_EQ(s->picks, (std::vector<int>{1, 4, 0}));  // B, then the drone (renumbered), then A
  EXPECT_EQ(s->raw, (std::vector<int>{3, 3, 2, 2, 3}));
  EXPECT_EQ(s->rolls_used, (std::vector<int>{6, 2, 5, 4, 1}));
  EXPECT_FALSE(even_split(targets, 13, {6, 2}));  // not enough dice
}

// Property: whatever the dice, three targets end with 3 and two with 2, picks are distinct.
TEST(SrtcgSolo, EvenDamageSpreadProperty) {
  dice::Rng rng(21);
  std::vector<EvenTarget> targets(5, EvenTarget{"t", 0, 9});
  for (int trial = 0; trial < 300; ++trial) {
    std::vector<int> rolls;
    for (int k = 0; k < 40; ++k)
      rolls.push_back(rng.uniform(6));
    auto s = even_split(targets, 13, rolls);
    ASSERT_TRUE(s);
    std::vector<int> sorted = s->raw;
    std::sort(sorted.begin(), sorted.end());
    EXPECT_EQ(sorted, (std::vector<int>{2, 2, 3, 3, 3}));
    std::set<int> distinct(s->picks.begin(), s->picks.end());
    EXPECT_EQ(distinct.size(), 3U);
  }
}

// Property: on any seeded team and damage the even split never overkills or goes negative,
// every point is given or counted lost, the remainder goes to distinct live targets, and a
// target is dead exactly when its damage reached its Body.
TEST(SrtcgSolo, EvenSplitNeverOverkills) {
  dice::Rng rng(909);
  for (int trial = 0; trial < 500; ++trial) {
    std::vector<EvenTarget> targets;
    const int n = rng.uniform(7);
    for (int i = 0; i < n; ++i)
      targets.push_back(EvenTarget{fmt::format("t{}", i), rng.uniform(3) - 1, rng.uniform(6)});
    const int damage = rng.uniform(30) - 1;
    std::vector<int> rolls;
    for (int k = 0; k < 200; ++k)
      rolls.push_back(rng.uniform(6));
    auto s = even_split(targets, damage, rolls);
    ASSERT_TRUE(s) << "trial " << trial << ": " << s.error();
    int given = 0;
    for (std::size_t i = 0; i < targets.size(); ++i) {
      EXPECT_GE(s->raw[i], 0) << "trial " << trial;
      EXPECT_GE(s->taken[i], 0) << "trial " << trial;
      EXPECT_LE(s->taken[i], targets[i].body_left) << "trial " << trial;
      EXPECT_EQ(s->taken[i],
                std::min(targets[i].body_left, std::max(0, s->raw[i] - targets[i].armor)))
          << "trial " << trial;
      EXPECT_EQ(s->dead[i], s->taken[i] >= targets[i].body_left) << "trial " << trial;
      given += s->raw[i];
    }
    EXPECT_EQ(given + s->lost, damage) << "trial " << trial;
    EXPECT_LT(s->remainder, std::max(1, n)) << "trial " << trial;
    const std::set<int> distinct(s->picks.begin(), s->picks.end());
    EXPECT_EQ(distinct.size(), s->picks.size()) << "trial " << trial;
    for (int r : s->rolls_used) {
      EXPECT_GE(r, 1);
      EXPECT_LE(r, 6);
    }
  }
}

// Armor reduces each share; targets that die leave the rotation (ambiguity 9).
TEST(SrtcgSolo, EvenDamageArmorAndDeaths) {
  auto s = even_split({EvenTarget{"Armored", 2, 5}, EvenTarget{"Frail", 0, 1}}, 7, {1});
  ASSERT_TRUE(s) << s.error();
  // Pass 1: both get 1 (Frail dies). Then Armored takes the other 5 alone.
  EXPECT_EQ(s->raw, (std::vector<int>{6, 1}));
  EXPECT_EQ(s->taken, (std::vector<int>{4, 1}));
  EXPECT_TRUE(s->dead[1]);
  EXPECT_FALSE(s->dead[0]);
  auto all_dead = even_split({EvenTarget{"X", 0, 1}}, 5, {});
  ASSERT_TRUE(all_dead);
  EXPECT_EQ(all_dead->lost, 4);
}

// T-S22: 39¥ in play + Invisibility 3¥ = 42 > 40: trash at least 2¥ or keep it in hand.
TEST(SrtcgSolo, TS22Reequip) {
  const ReequipCheck r = solo_reequip(39, 3);
  EXPECT_FALSE(r.fits);
  EXPECT_EQ(r.must_trash, 2);
  EXPECT_TRUE(solo_reequip(37, 3).fits);
}

// T-S23: Maglocks: 2 Technical runners → 3 guesses (3/6); none → 1 guess (1/6).
TEST(SrtcgSolo, TS23Maglocks) {
  EXPECT_EQ(maglock_guesses(2), 3);
  EXPECT_DOUBLE_EQ(maglock_chance(2), 0.5);
  EXPECT_EQ(maglock_guesses(0), 1);
  EXPECT_DOUBLE_EQ(maglock_chance(0), 1.0 / 6);
  EXPECT_DOUBLE_EQ(maglock_chance(9), 1.0);
}

// T-S24: the pump table.
TEST(SrtcgSolo, TS24PumpTable) {
  EXPECT_EQ(solo_pumps(2), 2);
  EXPECT_EQ(solo_pumps(4), 1);
  EXPECT_EQ(solo_pumps(6), 0);
  EXPECT_EQ(solo_pumps(1), 2);
  EXPECT_EQ(solo_pumps(3), 1);
  EXPECT_EQ(solo_pumps(5), 0);
}

TEST(SrtcgSolo, LossConditions) {
  EXPECT_FALSE(solo_loss(SoloTurn{}).has_value());
  SoloTurn no_run;
  no_run.ran = false;
  EXPECT_NE(solo_loss(no_run)->find("rule 1"), std::string::npos);
  SoloTurn dead;
  dead.runners_alive = 0;
  EXPECT_NE(solo_loss(dead)->find("dead"), std::string::npos);
  SoloTurn mag;
  mag.maglock_missed = true;
  EXPECT_NE(solo_loss(mag)->find("Maglocks"), std::string::npos);
}

// ---- Tournaments ---------------------------------------------------------------------------

// T-S25: 105 entrants.
TEST(SrtcgTournament, TS25Brawl) {
  const auto r1 = blowout_tables(105);
  EXPECT_EQ(r1.size(), 52U);
  EXPECT_EQ(std::count(r1.begin(), r1.end(), 2), 51);
  EXPECT_EQ(std::count(r1.begin(), r1.end(), 3), 1);
  const auto r2 = run_tables(26);
  EXPECT_EQ(std::count(r2.begin(), r2.end(), 3), 6);
  EXPECT_EQ(std::count(r2.begin(), r2.end(), 4), 2);
  EXPECT_EQ(r2.size(), 8U);
  EXPECT_EQ(blowout_tables(8).size(), 4U);
  EXPECT_EQ(run_tables(16), (std::vector<int>{4, 4, 4, 4}));  // the other path: top 16

  const auto plan = brawl_plan(105, 26);
  ASSERT_EQ(plan.size(), 4U);
  EXPECT_EQ(plan[0].kind, "Blow-out");
  EXPECT_EQ(plan[0].advance, 52);
  EXPECT_EQ(plan[1].kind, "cut");
  EXPECT_EQ(plan[1].advance, 26);
  EXPECT_EQ(plan[2].kind, "Run");
  EXPECT_EQ(plan[2].advance, 8);
  EXPECT_EQ(plan[3].kind, "Blow-out");
  EXPECT_EQ(plan[3].advance, 4);
  const auto uncut = brawl_plan(105);
  EXPECT_EQ(uncut.back().advance, 4);
  for (int n = 8; n <= 200; ++n)
    EXPECT_EQ(brawl_plan(n).back().advance, 4) << n;
}

// Every table of a Run round seats 3 or 4 and everyone sits.
TEST(SrtcgTournament, RunTablesSeatEveryone) {
  for (int n = 3; n <= 300; ++n) {
    const auto t = run_tables(n);
    if (n == 5) {
      EXPECT_TRUE(t.empty());
      continue;
    }
    int seated = 0;
    for (int size : t) {
      EXPECT_TRUE(size == 3 || size == 4) << n;
      seated += size;
    }
    EXPECT_EQ(seated, n) << n;
  }
}

// T-S29: the final's seats.
TEST(SrtcgTournament, TS29FinalSeats) {
  const auto seats = final_seats();
  ASSERT_EQ(seats.size(), 4U);
  EXPECT_EQ(seats[0].start_nuyen, 16);
  EXPECT_EQ(seats[1].start_nuyen, 12);
  EXPECT_EQ(seats[2].start_nuyen, 8);
  EXPECT_EQ(seats[3].start_nuyen, 4);
  EXPECT_TRUE(seats[3].first);
  EXPECT_FALSE(seats[0].first);
}

// T-S26: 7¥ + (5 + Fame 2) + (6 + Stamina + Anti-social) = 22.
TEST(SrtcgTournament, TS26NuyenCounting) {
  const std::vector<RunnerCard> survivors = {
      *parse_runner("A: 3/3; Fame 2; cost 5"),
      *parse_runner("B: 4/4; Stamina; Anti-social; cost 6; unique")};
  EXPECT_EQ(nuyen_count(7, survivors), 22);
}

// T-S27: Rep 45, runners worth 23¥, 17¥ unspent.
TEST(SrtcgTournament, TS27DuelScore) {
  const DuelScore s = duel_score(45, 23, 17);
  EXPECT_NEAR(s.exact, 51.3, 1e-9);
  EXPECT_EQ(s.floored, 50);
}

std::vector<Entrant> field_of(const std::vector<double>& scores) {
  std::vector<Entrant> f;
  for (std::size_t i = 0; i < scores.size(); ++i)
    f.push_back(Entrant{fmt::format("P{}", i + 1), scores[i], 0, {}, {}, false});
  return f;
}

std::vector<std::pair<double, double>> score_pairs(const std::vector<Entrant>& f,
                                                   const Pairing& p) {
  std::vector<std::pair<double, double>> out;
  for (const auto& [a, b] : p.pairs)
    out.emplace_back(f[static_cast<std::size_t>(a)].score, f[static_cast<std::size_t>(b)].score);
  return out;
}

// T-S28 and the field of 8: pairs (9,8), (2,1), (8,6), (5,3); the two 8s by nuyen counting.
TEST(SrtcgTournament, TS28SwissEight) {
  auto f = field_of({5, 8, 3, 9, 1, 8, 6, 2});
  f[1].nuyen = 20;  // P2: 8 points, 20¥
  f[5].nuyen = 25;  // P6: 8 points, 25¥ → ranks above P2
  const Pairing p = showdown_pairing(f);
  EXPECT_EQ(p.bye, -1);
  EXPECT_EQ(score_pairs(f, p),
            (std::vector<std::pair<double, double>>{{9, 8}, {2, 1}, {8, 6}, {5, 3}}));
  EXPECT_EQ(p.pairs[0], (std::pair<int, int>{3, 5}));  // P4 (9) meets P6 (the richer 8)
  EXPECT_EQ(p.pairs[2], (std::pair<int, int>{1, 6}));  // P2 (8) meets P7 (6)
  EXPECT_TRUE(p.unresolved.empty());
}

// The field of 9: a bye for the lowest-ranked player who has not had one; ties by nuyen and
// then the D6 roll-off.
TEST(SrtcgTournament, SwissNineWithBye) {
  auto f = field_of({6, 6, 4, 4, 4, 3, 2, 2, 0});
  f[0].nuyen = 10;
  f[1].nuyen = 10;
  f[0].rolloff = {3};
  f[1].rolloff = {5};  // P2 wins the roll-off
  f[2].nuyen = 30;
  f[3].nuyen = 12;
  f[4].nuyen = 12;
  f[3].rolloff = {4, 2};
  f[4].rolloff = {4, 6};  // tied again, P5 wins the reroll
  f[8].had_bye = true;    // P9 had the bye last round
  const Standings st = standings(f);
  EXPECT_EQ(st.order, (std::vector<int>{1, 0, 2, 4, 3, 5, 6, 7, 8}));
  EXPECT_EQ(st.unresolved, (std::vector<std::vector<int>>{{6, 7}}));
  const Pairing p = showdown_pairing(f);
  EXPECT_EQ(p.bye, 7);  // P8: the lowest without a bye (P7 and P8 tie: see unresolved)
  ASSERT_EQ(p.pairs.size(), 4U);
  EXPECT_EQ(p.pairs[0], (std::pair<int, int>{1, 0}));
  EXPECT_EQ(p.pairs[1], (std::pair<int, int>{6, 8}));
  EXPECT_EQ(p.pairs[2], (std::pair<int, int>{2, 4}));
  EXPECT_EQ(p.pairs[3], (std::pair<int, int>{3, 5}));
  // The unsettled tie between P7 and P8 is reported for a roll-off.
  ASSERT_EQ(p.unresolved.size(), 1U);
  EXPECT_EQ(p.unresolved[0], (std::vector<int>{6, 7}));
}

// The field of 26: 13 pairs of neighbours in the standings, listed top, bottom, inward; with
// rematches avoided nobody meets an old opponent.
TEST(SrtcgTournament, SwissTwentySix) {
  dice::Rng rng(26);
  std::vector<Entrant> f;
  for (int i = 0; i < 26; ++i) {
    Entrant e;
    e.name = fmt::format("P{}", i + 1);
    e.score = rng.uniform(4) - 1;
    e.nuyen = rng.uniform(30);
    e.rolloff = {rng.uniform(6), rng.uniform(6), rng.uniform(6)};
    f.push_back(e);
  }
  const Standings st = standings(f);
  for (std::size_t k = 0; k + 1 < st.order.size(); ++k) {
    const Entrant& a = f[static_cast<std::size_t>(st.order[k])];
    const Entrant& b = f[static_cast<std::size_t>(st.order[k + 1])];
    EXPECT_TRUE(a.score > b.score || (a.score == b.score && a.nuyen >= b.nuyen));
  }
  const Pairing p = showdown_pairing(f);
  ASSERT_EQ(p.pairs.size(), 13U);
  std::vector<int> rank(26);
  for (int k = 0; k < 26; ++k)
    rank[static_cast<std::size_t>(st.order[static_cast<std::size_t>(k)])] = k;
  std::set<int> seen;
  for (std::size_t k = 0; k < p.pairs.size(); ++k) {
    const auto [a, b] = p.pairs[k];
    EXPECT_EQ(rank[static_cast<std::size_t>(b)], rank[static_cast<std::size_t>(a)] + 1);
    EXPECT_EQ(rank[static_cast<std::size_t>(a)] % 2, 0);
    seen.insert(a);
    seen.insert(b);
  }
  EXPECT_EQ(seen.size(), 26U);
  // Book order: ranks 1-2, then 25-26, then 3-4, then 23-24, …
  EXPECT_EQ(rank[static_cast<std::size_t>(p.pairs[0].first)], 0);
  EXPECT_EQ(rank[static_cast<std::size_t>(p.pairs[1].first)], 24);
  EXPECT_EQ(rank[static_cast<std::size_t>(p.pairs[2].first)], 2);
  EXPECT_EQ(rank[static_cast<std::size_t>(p.pairs[3].first)], 22);
  // Round two with the first round's opponents recorded: no rematch.
  for (const auto& [a, b] : p.pairs) {
    f[static_cast<std::size_t>(a)].played.push_back(f[static_cast<std::size_t>(b)].name);
    f[static_cast<std::size_t>(b)].played.push_back(f[static_cast<std::size_t>(a)].name);
  }
  const Pairing again = showdown_pairing(f, true);
  ASSERT_EQ(again.pairs.size(), 13U);
  for (const auto& [a, b] : again.pairs) {
    const auto& played = f[static_cast<std::size_t>(a)].played;
    EXPECT_EQ(std::find(played.begin(), played.end(), f[static_cast<std::size_t>(b)].name),
              played.end());
  }
}

/// Names of the entrants at the given indices.
std::vector<std::string> names_of(const std::vector<Entrant>& f, const std::vector<int>& idx) {
  std::vector<std::string> out;
  for (int i : idx)
    out.push_back(f[static_cast<std::size_t>(i)].name);
  return out;
}

std::vector<std::pair<std::string, std::string>> name_pairs(const std::vector<Entrant>& f,
                                                            const Pairing& p) {
  std::vector<std::pair<std::string, std::string>> out;
  for (const auto& [a, b] : p.pairs)
    out.emplace_back(f[static_cast<std::size_t>(a)].name, f[static_cast<std::size_t>(b)].name);
  return out;
}

// A worked field of 26 after three rounds, entered out of order, with every tie-break in play:
// nuyen counting, a one-die roll-off, a roll-off settled on the reroll, and a tie left for a
// roll-off. The standings and pairs below were worked out by hand.
TEST(SrtcgTournament, SwissTwentySixWorked) {
  // name, score, nuyen count, roll-off dice
  std::vector<Entrant> f = {
      {"Z", 0, 8, {3, 3}, {}, false},  {"U", 1, 12, {}, {}, false},
      {"A", 3, 30, {}, {}, false},     {"K", 2, 20, {3}, {}, false},
      {"E", 2, 40, {}, {}, false},     {"R", 1, 25, {1}, {}, false},
      {"C", 3, 22, {5}, {}, false},    {"W", 1, 9, {}, {}, false},
      {"G", 2, 35, {4, 1}, {}, false}, {"N", 2, 5, {}, {}, false},
      {"Q", 1, 29, {}, {}, false},     {"B", 3, 22, {2}, {}, false},
      {"X", 1, 0, {}, {}, false},      {"H", 2, 28, {}, {}, false},
      {"AA", 0, 8, {3, 4}, {}, false}, {"O", 1, 33, {}, {}, false},
      {"F", 2, 35, {4, 6}, {}, false}, {"V", 1, 12, {}, {}, false},
      {"L", 2, 15, {}, {}, false},     {"P", 1, 31, {}, {}, false},
      {"Y", 0, 14, {}, {}, false},     {"I", 2, 27, {}, {}, false},
      {"S", 1, 25, {6}, {}, false},    {"M", 2, 10, {}, {}, false},
      {"T", 1, 18, {}, {}, false},     {"J", 2, 20, {6}, {}, false},
  };
  ASSERT_EQ(f.size(), 26U);
  const Standings st = standings(f);
  EXPECT_EQ(
      names_of(f, st.order),
      (std::vector<std::string>{"A", "C", "B", "E", "F", "G", "H", "I", "J", "K", "L", "M",  "N",
                                "O", "P", "Q", "S", "R", "T", "U", "V", "W", "X", "Y", "AA", "Z"}));
  // U and V: same score, same nuyen count, no dice yet.
  ASSERT_EQ(st.unresolved.size(), 1U);
  EXPECT_EQ(names_of(f, st.unresolved[0]), (std::vector<std::string>{"U", "V"}));

  using Pairs = std::vector<std::pair<std::string, std::string>>;
  const Pairing p = showdown_pairing(f);
  EXPECT_EQ(p.bye, -1);
  EXPECT_EQ(name_pairs(f, p), (Pairs{{"A", "C"},
                                     {"AA", "Z"},
                                     {"B", "E"},
                                     {"X", "Y"},
                                     {"F", "G"},
                                     {"V", "W"},
                                     {"H", "I"},
                                     {"T", "U"},
                                     {"J", "K"},
                                     {"S", "R"},
                                     {"L", "M"},
                                     {"P", "Q"},
                                     {"N", "O"}}));
  ASSERT_EQ(p.unresolved.size(), 1U);

  // The U–V roll-off is settled: V rolls higher, so V takes rank 20 and meets T.
  f[1].rolloff = {2};
  f[17].rolloff = {5};
  const Pairing settled = showdown_pairing(f);
  EXPECT_TRUE(settled.unresolved.empty());
  EXPECT_EQ(name_pairs(f, settled)[5], (std::pair<std::string, std::string>{"U", "W"}));
  EXPECT_EQ(name_pairs(f, settled)[7], (std::pair<std::string, std::string>{"T", "V"}));

  // A met C and F met G: with rematches avoided, the closest pairing shifts those two pairs.
  f[2].played = {"C"};
  f[16].played = {"G"};
  const Pairing fresh = showdown_pairing(f, true);
  EXPECT_EQ(name_pairs(f, fresh), (Pairs{{"A", "B"},
                                         {"AA", "Z"},
                                         {"C", "E"},
                                         {"X", "Y"},
                                         {"F", "H"},
                                         {"U", "W"},
                                         {"G", "I"},
                                         {"T", "V"},
                                         {"J", "K"},
                                         {"S", "R"},
                                         {"L", "M"},
                                         {"P", "Q"},
                                         {"N", "O"}}));
  // Without the option the book's pairing stands, rematches and all.
  EXPECT_EQ(name_pairs(f, showdown_pairing(f))[0], (std::pair<std::string, std::string>{"A", "C"}));
}

// ---- DMZ -----------------------------------------------------------------------------------

// T-S30: Domino: Firearms 2 with an FN HAR (needs 1) → +1: 3+ standing (4/6), 4+ moving (3/6).
TEST(SrtcgDmz, TS30Domino) {
  const int bonus = dmz_skill_bonus(2, 1);
  EXPECT_EQ(bonus, 1);
  EXPECT_EQ(dmz_hit_faces(DmzAttack::Ranged, bonus, false), 4);
  EXPECT_EQ(dmz_hit_faces(DmzAttack::Ranged, bonus, true), 3);
  EXPECT_EQ(dmz_skill_bonus(1, 2), 0);
}

// T-S31: the to-hit table with the natural 1 / natural 6 overrides.
TEST(SrtcgDmz, TS31ToHit) {
  EXPECT_EQ(dmz_hit_faces(DmzAttack::Ranged, 0, false), 3);
  EXPECT_EQ(dmz_hit_faces(DmzAttack::Melee, 0, false), 4);
  EXPECT_EQ(dmz_hit_faces(DmzAttack::Counter, 0, false), 1);
  EXPECT_EQ(dmz_hit_faces(DmzAttack::Indirect, 0, false), 1);
  EXPECT_EQ(dmz_hit_faces(DmzAttack::Ranged, 50, false), 5);
  EXPECT_EQ(dmz_hit_faces(DmzAttack::Ranged, -50, false), 1);
  EXPECT_FALSE(dmz_hits(DmzAttack::Melee, 1, 9, false));
  EXPECT_TRUE(dmz_hits(DmzAttack::Indirect, 6, -9, true));
}

// T-S32: wounds.
TEST(SrtcgDmz, TS32Wounds) {
  EXPECT_DOUBLE_EQ(dmz_removal_chance(1), 0.0);
  EXPECT_DOUBLE_EQ(dmz_removal_chance(2), 1.0 / 6);
  EXPECT_DOUBLE_EQ(dmz_removal_chance(4), 3.0 / 6);
  EXPECT_DOUBLE_EQ(dmz_removal_chance(7), 1.0);
  for (int w = 1; w <= 8; ++w) {
    int out = 0;
    for (int d = 1; d <= 6; ++d)
      out += dmz_wound_removes(d, w) ? 1 : 0;
    EXPECT_DOUBLE_EQ(out / 6.0, dmz_removal_chance(w)) << w;
  }
}

// T-S33: Safety phase caps.
TEST(SrtcgDmz, TS33SafetyCaps) {
  EXPECT_EQ(dmz_events_to_draw(5), 2);
  EXPECT_EQ(dmz_events_to_draw(0), 4);
  EXPECT_EQ(dmz_events_to_draw(8), 0);
  EXPECT_FALSE(dmz_block_takes_event(6, false));
  EXPECT_FALSE(dmz_block_takes_event(2, true));
  EXPECT_TRUE(dmz_block_takes_event(5, false));
  EXPECT_EQ(dmz_safehouse_heal(3), 1);
}

// T-S34: a Barrier of a Technical 3 and a 4 has Body 10; attacks on it always hit.
TEST(SrtcgDmz, TS34Barrier) {
  EXPECT_EQ(dmz_barrier_body({{3, true}, {4, false}}), 10);
  EXPECT_EQ(dmz_hit_faces(DmzAttack::Barrier, -9, true), 6);
}

// Ambiguity 12: only Events count toward "as many cards as runners"; the Zone card is reached
// once they are all cleared.
TEST(SrtcgDmz, ExplorationCountsOnlyEvents) {
  EXPECT_EQ(dmz_exploration(3, 3).reveals, 3);
  EXPECT_TRUE(dmz_exploration(3, 3).reaches_zone);
  EXPECT_EQ(dmz_exploration(2, 5).reveals, 2);
  EXPECT_FALSE(dmz_exploration(2, 5).reaches_zone);
  EXPECT_EQ(dmz_exploration(4, 0).reveals, 0);
  EXPECT_TRUE(dmz_exploration(4, 0).reaches_zone);
  for (int r = 1; r <= 6; ++r) {
    for (int e = 0; e <= 6; ++e) {
      const Exploration x = dmz_exploration(r, e);
      EXPECT_LE(x.reveals, r);
      EXPECT_EQ(x.reaches_zone, x.reveals == e);
    }
  }
}

TEST(SrtcgDmz, GridGrowthLandslideSalvage) {
  const DmzGrid two = dmz_grid(2);
  EXPECT_EQ(two.columns, 4);
  EXPECT_EQ(two.entry_blocks, 0);
  const DmzGrid three = dmz_grid(3);
  EXPECT_EQ(three.columns, 5);
  EXPECT_EQ(three.rows, 5);
  EXPECT_EQ(three.entry_blocks, 3);
  EXPECT_TRUE(dmz_adjacent(1, 1, 1, 2));
  EXPECT_FALSE(dmz_adjacent(1, 1, 2, 2));
  EXPECT_FALSE(dmz_growth(4, 1, 1).grows);
  const Growth g = dmz_growth(5, 2, 4);
  EXPECT_TRUE(g.grows && g.column);
  EXPECT_EQ(g.side, "right");
  EXPECT_FALSE(dmz_growth(6, 4, 1).column);
  const auto block = dmz_landslide_block({6, 5, 2, 6, 3}, 4, 4);
  ASSERT_TRUE(block);
  EXPECT_EQ(block->column, 2);
  EXPECT_EQ(block->row, 3);
  EXPECT_EQ(block->rolls_used, 5);
  EXPECT_FALSE(dmz_landslide_block({6, 5}, 4, 4));
  EXPECT_TRUE(dmz_landslide_runner(2).moves);
  EXPECT_EQ(dmz_landslide_runner(6).damage, 1);
  EXPECT_TRUE(dmz_salvage(4, 3));
  EXPECT_FALSE(dmz_salvage(3, 3));
  EXPECT_EQ(dmz_nabl_budget(40, 3, true), 47);
}

}  // namespace
}  // namespace duels::cards::srtcg
