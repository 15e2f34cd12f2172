// The SRTCG combat calculator: T-S4, T-S11, the damage split against a brute force, Guard,
// runner-against-runner fights, the minimum pump spend, and notation errors.
#include <gtest/gtest.h>

#include <fmt/format.h>

#include <algorithm>
#include <functional>
#include <numeric>
#include <optional>
#include <set>
#include <tuple>

#include "cards/srtcg/combat.hpp"
#include "cards/srtcg/notation.hpp"
#include "dice/roller.hpp"

namespace duels::cards::srtcg {
namespace {

Combatant runner(int attack, int body, int armor = 0) {
  Combatant c;
  c.name = fmt::format("{}/{}", attack, body);
  c.attack = attack;
  c.body = body;
  c.armor = armor;
  return c;
}

std::vector<Combatant> team_of(const std::string& spec) {
  auto cards = parse_runner_list(spec);
  EXPECT_TRUE(cards) << (cards ? "" : cards.error().message());
  std::vector<Combatant> out;
  if (cards) {
    for (const auto& c : *cards)
      out.push_back(combatant_from(c));
  }
  return out;
}

Opponent challenge(const std::string& spec) {
  auto c = parse_challenge(spec);
  EXPECT_TRUE(c) << (c ? "" : c.error().message());
  return *opponent_from(*c);
}

// T-S4: armor per attacker; armor-piercing ignores it.
TEST(SrtcgCombat, TS4ArmorPerAttacker) {
  EXPECT_EQ(team_damage(team_of("6/4"), challenge("5/8 A3")).total, 3);
  EXPECT_EQ(team_damage(team_of("6/4,2/2"), challenge("5/8 A3")).total, 3);
  EXPECT_EQ(team_damage(team_of("6/4"), challenge("5/8 A3"), true).total, 6);
  EXPECT_EQ(team_damage(team_of("6/4 ap,2/2"), challenge("5/8 A3")).total, 6);
  EXPECT_EQ(team_damage(team_of("6/4,2/2"), challenge("5/8 A3"), true).total, 8);
}

// The issue's example: 6/4 and 3/3 A1 against 5/8 A2.
TEST(SrtcgCombat, IssueExample) {
  const CombatResult r = resolve_combat(team_of("6/4,3/3 A1"), challenge("5/8 A2"));
  EXPECT_EQ(r.attack.total, 5);  // 4 + 1
  EXPECT_FALSE(r.attack.defeated);
  EXPECT_EQ(r.attack.shortfall, 3);
  EXPECT_EQ(r.incoming, 5);
  // Both can live: 3 to the 6/4 and 2 raw (1 after armor) to the 3/3 A1, or similar.
  EXPECT_FALSE(r.suggested.dies[0]);
  EXPECT_FALSE(r.suggested.dies[1]);
  EXPECT_EQ(r.suggested.assigned, 5);
  // One Burst Fire die on the 6/4 beats Body 8 on a 3+; on the 3/3 A1 too.
  EXPECT_DOUBLE_EQ(r.burst_chance[0], 4.0 / 6);
  EXPECT_DOUBLE_EQ(r.burst_chance[1], 4.0 / 6);
}

// Fatigue lowers Attack unless Stamina; Body is lowered once (ambiguity 2).
TEST(SrtcgCombat, FatigueAndStamina) {
  const auto tired = team_of("6/4 dmg 2");
  EXPECT_EQ(effective_attack(tired[0]), 4);
  EXPECT_EQ(remaining_body(tired[0]), 2);
  const auto tough = team_of("6/4 dmg 2 Stamina");
  EXPECT_EQ(effective_attack(tough[0]), 6);
  EXPECT_EQ(remaining_body(tough[0]), 2);
}

// Drones and spirits fight; their controller adds nothing; Indirect Fire cannot be hit.
TEST(SrtcgCombat, DronesControllersIndirect) {
  const auto team = team_of("Rigger: 4/3 controller,Crawler: 3/3 drone,Mortar: 5/1 indirect");
  const TeamDamage td = team_damage(team, challenge("2/6"));
  EXPECT_EQ(td.dealt, (std::vector<int>{0, 3, 5}));
  EXPECT_TRUE(td.defeated);
  EXPECT_FALSE(can_be_hit(team[2]));
  const Split s = suggest_split(team, 4, false);
  EXPECT_EQ(s.raw[2], 0);
}

// A pump that takes Body to 0 kills the card after it deals its damage.
TEST(SrtcgCombat, PumpToZeroBody) {
  const auto team = team_of("Berserker: 3/2; pump 1 +2/-2; pumped 1");
  EXPECT_EQ(team[0].attack, 5);
  EXPECT_EQ(remaining_body(team[0]), 0);
  const CombatResult r = resolve_combat(team, challenge("1/5"));
  EXPECT_TRUE(r.attack.defeated);
  EXPECT_TRUE(r.suggested.dies[0]);
}

// A pumped card that would survive only thanks to its pump is counted as dying at end of turn,
// and the suggestion avoids that when it can.
TEST(SrtcgCombat, SuggestionAvoidsEndOfTurnDeaths) {
  const auto team = team_of("Tin Man: 5/5; pump 1 +1/+1; pumped 5,Kid: 2/9");
  // 8 damage: all on Tin Man (10/10) leaves him alive now but dead at end of turn.
  const Split s = suggest_split(team, 8, false);
  EXPECT_FALSE(s.dies[0] || s.dies_end_of_turn[0]);
  EXPECT_FALSE(s.dies[1]);
  const auto manual = check_split(team, 8, false, {8, 0});
  ASSERT_TRUE(manual);
  EXPECT_TRUE(manual->dies_end_of_turn[0]);
}

// Guard takes damage aimed at another runner, up to its own Body; the rest goes back.
TEST(SrtcgCombat, Guard) {
  auto team = team_of("Target: 2/2,Bodyguard: 3/4; Guard,Plain: 3/3");
  auto s = targeted_split(team, 0, 5, false, 1, 3);
  ASSERT_TRUE(s);
  EXPECT_EQ(s->raw, (std::vector<int>{2, 3, 0}));
  EXPECT_TRUE(s->dies[0]);
  EXPECT_FALSE(s->dies[1]);
  EXPECT_FALSE(targeted_split(team, 0, 5, false, 1, 5));  // more than kills the Guard
  EXPECT_FALSE(targeted_split(team, 0, 5, false, 2, 1));  // no Guard trait
}

// T-S11: Mike (3) picks opponents; Jim (5) places his 2 extras, together or split.
TEST(SrtcgCombat, TS11ThreeAgainstFive) {
  auto together = pair_up(3, 5, {0, 1, 2}, {0, 0});
  ASSERT_TRUE(together) << together.error();
  EXPECT_EQ((*together)[0].defenders, (std::vector<int>{0, 3, 4}));
  EXPECT_EQ((*together)[0].attackers, (std::vector<int>{0}));
  auto split = pair_up(3, 5, {0, 1, 2}, {0, 1});
  ASSERT_TRUE(split);
  EXPECT_EQ((*split)[0].defenders, (std::vector<int>{0, 3}));
  EXPECT_EQ((*split)[1].defenders, (std::vector<int>{1, 4}));
  // Mike may not put two runners on one of Jim's when Jim has more.
  EXPECT_FALSE(pair_up(3, 5, {0, 0, 2}, {0, 1}));
  // Jim must place both extras.
  EXPECT_FALSE(pair_up(3, 5, {0, 1, 2}, {0}));
  // With more attackers, the attacker places them all and covers every defender.
  auto more = pair_up(3, 2, {0, 1, 1}, {});
  ASSERT_TRUE(more);
  EXPECT_EQ((*more)[1].attackers, (std::vector<int>{1, 2}));
  EXPECT_FALSE(pair_up(3, 2, {0, 0, 0}, {}));
  EXPECT_TRUE(check_pairing(3, 5, {Bout{{0}, {0, 1, 2}}, Bout{{1}, {3}}, Bout{{2}, {4}}}) ==
              std::nullopt);
  EXPECT_TRUE(check_pairing(2, 2, {Bout{{0, 1}, {0, 1}}}).has_value());
}

// Runner against runner: simultaneous, several against one add up, a lone one splits.
TEST(SrtcgCombat, RunnerFights) {
  const auto a = team_of("A: 4/3,B: 3/3");
  const auto b = team_of("X: 5/6 A1");
  auto r = resolve_fights(a, b, {Bout{{0, 1}, {0}}});
  ASSERT_TRUE(r) << r.error();
  EXPECT_EQ(r->taken_b[0], 5);  // 3 + 2 after armor, one attacker at a time
  EXPECT_FALSE(r->dead_b[0]);
  // X splits 5: kills A (3) and puts 2 on B.
  EXPECT_TRUE(r->dead_a[0]);
  EXPECT_FALSE(r->dead_a[1]);
  auto mutual = resolve_fights(team_of("P: 3/3"), team_of("Q: 3/3"), {Bout{{0}, {0}}});
  ASSERT_TRUE(mutual);
  EXPECT_TRUE(mutual->dead_a[0] && mutual->dead_b[0]);
  auto chosen = resolve_fights(a, b, {Bout{{0, 1}, {0}}}, {{0, 5}});
  ASSERT_TRUE(chosen);
  EXPECT_FALSE(chosen->dead_a[0]);
  EXPECT_TRUE(chosen->dead_a[1]);
  EXPECT_FALSE(resolve_fights(a, b, {Bout{{0, 1}, {0}}}, {{3, 3}}));  // 6 > 5 Attack
}

// Bad notation points at the token.
TEST(SrtcgCombat, NotationErrorsPointAtToken) {
  auto bad = parse_runner_list("6/4,3/x A1");
  ASSERT_FALSE(bad);
  EXPECT_EQ(bad.error().position, 4U);
  EXPECT_NE(bad.error().message().find("    ^"), std::string::npos);
  auto armor = parse_challenge("5/8 Ax");
  ASSERT_FALSE(armor);
  EXPECT_EQ(armor.error().position, 4U);
  auto missing = parse_threat("A2");
  EXPECT_FALSE(missing);
  auto skill = parse_skills("Pilotting:3");
  ASSERT_FALSE(skill);
  EXPECT_EQ(skill.error().position, 0U);
}

// Every parser's mistakes point at the bad token: where it starts, how long it is, and a caret
// line under it in the message.
TEST(SrtcgCombat, NotationErrorTable) {
  struct Case {
    const char* text;
    int parser;  // 0 runner list, 1 challenge, 2 skills, 3 requirement, 4 objective, 5 gear
    std::size_t position;
    std::size_t length;
  };
  const std::vector<Case> cases = {
      {"6/4, 3/3 A1 Ax", 0, 12, 2},
      {"6/4,,3/3", 0, 4, 1},
      {"Sam: 6/4; Firearms x", 0, 19, 1},
      {"6/4; pump 2 +2", 0, 12, 2},
      {"6/4 A-1", 0, 4, 3},
      {"99999999999/4", 0, 0, 13},
      {"6/4 dmg -1", 0, 8, 2},
      {"5/8 A2 Pilotting 3", 1, 7, 9},
      {"Pilotng:1", 2, 0, 9},
      {"Piloting:x", 3, 9, 1},
      {"Job: rep x", 4, 9, 1},
      {"Gun: blaster; +3/+0", 5, 5, 7},
  };
  for (const Case& c : cases) {
    std::optional<SpecError> e;
    switch (c.parser) {
      case 0:
        if (auto r = parse_runner_list(c.text); !r) e = r.error();
        break;
      case 1:
        if (auto r = parse_challenge(c.text); !r) e = r.error();
        break;
      case 2:
        if (auto r = parse_skills(c.text); !r) e = r.error();
        break;
      case 3:
        if (auto r = parse_requirement(c.text); !r) e = r.error();
        break;
      case 4:
        if (auto r = parse_objective(c.text); !r) e = r.error();
        break;
      default:
        if (auto r = parse_gear(c.text); !r) e = r.error();
        break;
    }
    ASSERT_TRUE(e.has_value()) << c.text;
    EXPECT_EQ(e->position, c.position) << c.text;
    EXPECT_EQ(e->length, c.length) << c.text;
    // The message quotes the text and puts carets under exactly the token.
    const std::string caret =
        std::string(2 + c.position, ' ') + std::string(std::max<std::size_t>(1, c.length), '^');
    EXPECT_NE(e->message().find("\n  " + std::string(c.text) + "\n" + caret), std::string::npos)
        << e->message();
    // And as a DataError for files: the field and what was expected.
    const DataError d = e->as_data_error("deck.yaml", 7, "cards[2]");
    EXPECT_EQ(d.line, 7);
    EXPECT_FALSE(d.expected.empty());
  }
}

// ---- Property tests against brute force --------------------------------------------------

/// The suggestion's own order: deaths by category, value lost, then Attack lost and tokens.
std::tuple<int, int, int, int, long long> score(const std::vector<Combatant>& team,
                                                const Split& s) {
  int prot = 0, runners = 0, drones = 0, value = 0;
  long long cost = 0;
  for (std::size_t i = 0; i < team.size(); ++i) {
    const Combatant& c = team[i];
    if (!can_be_hit(c)) continue;
    const bool dead = s.dies[i] || s.dies_end_of_turn[i];
    if (dead) {
      const bool doomed_anyway = remaining_body(c) - c.pump_body <= 0 && c.pump_body > 0;
      if (doomed_anyway) continue;
      if (c.protect) ++prot;
      if (c.role == Role::Drone || c.role == Role::Spirit)
        ++drones;
      else
        ++runners;
      value += c.value;
      continue;
    }
    int loss = 0;
    if (!c.stamina && c.role != Role::Controller) {
      const int before = std::max(0, c.attack - c.damage);
      loss = before - std::max(0, before - s.taken[i]);
    }
    cost += static_cast<long long>(loss) * 100000 + s.taken[i];
  }
  return {prot, runners, drones, value, cost};
}

std::vector<Combatant> random_team(dice::Rng& rng) {
  const int n = rng.uniform(4);
  std::vector<Combatant> team;
  for (int i = 0; i < n; ++i) {
    Combatant c;
    c.name = fmt::format("#{}", i);
    c.attack = rng.uniform(7) - 1;
    c.body = rng.uniform(6);
    c.armor = rng.uniform(3) - 1;
    c.damage = rng.uniform(c.body) - 1;
    if (rng.uniform(4) == 1) {
      c.pump_body = rng.uniform(2);
      c.body += c.pump_body;
    }
    c.stamina = rng.uniform(3) == 1;
    c.protect = rng.uniform(5) == 1;
    const int role = rng.uniform(6);
    c.role = role == 1   ? Role::Drone
             : role == 2 ? Role::Controller
             : role == 3 ? Role::Indirect
                         : Role::Runner;
    c.value = rng.uniform(6) - 1;
    team.push_back(c);
  }
  return team;
}

/// Every legal raw split (each 0..cap, summing to what must be given).
void every_split(const std::vector<Combatant>& team, int incoming, bool ap,
                 const std::function<void(const std::vector<int>&)>& visit) {
  int capacity = 0;
  for (const auto& c : team)
    capacity += damage_capacity(c, ap);
  const int total = std::min(incoming, capacity);
  std::vector<int> raw(team.size(), 0);
  std::function<void(std::size_t, int)> rec = [&](std::size_t i, int left) {
    if (i == team.size()) {
      if (left == 0) visit(raw);
      return;
    }
    for (int x = 0; x <= std::min(left, damage_capacity(team[i], ap)); ++x) {
      raw[i] = x;
      rec(i + 1, left - x);
    }
    raw[i] = 0;
  };
  rec(0, total);
}

// Property: the suggested split is legal, never overkills, never gives negative damage, and
// is the best of every legal split by its own order.
TEST(SrtcgCombat, SuggestedSplitIsLegalAndOptimal) {
  dice::Rng rng(1010);
  for (int trial = 0; trial < 400; ++trial) {
    const auto team = random_team(rng);
    const int incoming = rng.uniform(16) - 1;
    const bool ap = rng.uniform(4) == 1;
    const Split s = suggest_split(team, incoming, ap);
    auto legal = check_split(team, incoming, ap, s.raw);
    ASSERT_TRUE(legal) << "trial " << trial << ": " << legal.error();
    for (std::size_t i = 0; i < team.size(); ++i) {
      EXPECT_GE(s.raw[i], 0);
      EXPECT_GE(s.taken[i], 0);
      EXPECT_LE(s.taken[i], std::max(0, remaining_body(team[i])));  // never overkills
    }
    auto best = score(team, s);
    every_split(team, incoming, ap, [&](const std::vector<int>& raw) {
      const Split other = make_split(team, raw, ap, incoming);
      EXPECT_LE(best, score(team, other)) << "trial " << trial;
    });
  }
}

// Property: check_split accepts exactly the splits the brute force enumerates.
TEST(SrtcgCombat, CheckSplitMatchesBruteForce) {
  dice::Rng rng(2020);
  for (int trial = 0; trial < 200; ++trial) {
    const auto team = random_team(rng);
    if (team.size() > 3) continue;
    const int incoming = rng.uniform(10) - 1;
    std::set<std::vector<int>> legal;
    every_split(team, incoming, false, [&](const std::vector<int>& raw) { legal.insert(raw); });
    std::vector<int> raw(team.size(), 0);
    std::function<void(std::size_t)> rec = [&](std::size_t i) {
      if (i == team.size()) {
        EXPECT_EQ(check_split(team, incoming, false, raw).has_value(), legal.count(raw) == 1)
            << "trial " << trial;
        return;
      }
      for (int x = 0; x <= 9; ++x) {
        raw[i] = x;
        rec(i + 1);
      }
    };
    rec(0);
  }
}

// Property: team damage is never negative and never grows when the opponent's armor grows.
TEST(SrtcgCombat, TeamDamageNeverNegative) {
  dice::Rng rng(3030);
  for (int trial = 0; trial < 500; ++trial) {
    const auto team = random_team(rng);
    Opponent o{"o", rng.uniform(6), rng.uniform(10), rng.uniform(5) - 1, false};
    const TeamDamage td = team_damage(team, o);
    int sum = 0;
    for (int d : td.dealt) {
      EXPECT_GE(d, 0);
      sum += d;
    }
    EXPECT_EQ(sum, td.total);
    Opponent harder = o;
    ++harder.armor;
    EXPECT_LE(team_damage(team, harder).total, td.total);
  }
}

// Property: runner-against-runner fights never give negative damage, a card dies exactly when
// the damage it takes reaches its remaining Body, and nobody takes more than kills it.
TEST(SrtcgCombat, FightsNeverNegative) {
  dice::Rng rng(5050);
  int resolved = 0;
  for (int trial = 0; trial < 600; ++trial) {
    const int na = rng.uniform(4);
    const int nb = rng.uniform(4);
    std::vector<Combatant> a, b;
    for (int i = 0; i < na; ++i)
      a.push_back(runner(rng.uniform(7) - 1, rng.uniform(6), rng.uniform(3) - 1));
    for (int i = 0; i < nb; ++i)
      b.push_back(runner(rng.uniform(7) - 1, rng.uniform(6), rng.uniform(3) - 1));
    // The attacker's picks: distinct when the defender has more (who then places the extras
    // in random fights), any when the attacker has as many or more (each defender is faced).
    std::vector<int> pick;
    std::vector<int> extras;
    if (na < nb) {
      std::vector<int> free(static_cast<std::size_t>(nb));
      std::iota(free.begin(), free.end(), 0);
      for (int i = 0; i < na; ++i) {
        const auto k = static_cast<std::size_t>(rng.uniform(static_cast<int>(free.size())) - 1);
        pick.push_back(free[k]);
        free.erase(free.begin() + static_cast<std::ptrdiff_t>(k));
      }
      for (int i = na; i < nb; ++i)
        extras.push_back(rng.uniform(na) - 1);
    } else {
      for (int i = 0; i < na; ++i)
        pick.push_back(i < nb ? i : rng.uniform(nb) - 1);
      for (std::size_t k = pick.size(); k > 1; --k)  // Fisher–Yates with the seeded roller
        std::swap(pick[k - 1],
                  pick[static_cast<std::size_t>(rng.uniform(static_cast<int>(k)) - 1)]);
    }
    auto fights = pair_up(na, nb, pick, extras);
    if (!fights) continue;
    EXPECT_FALSE(check_pairing(na, nb, *fights).has_value()) << "trial " << trial;
    auto r = resolve_fights(a, b, *fights);
    ASSERT_TRUE(r) << "trial " << trial << ": " << r.error();
    ++resolved;
    const auto check = [&](const std::vector<Combatant>& side, const std::vector<int>& taken,
                           const std::vector<bool>& dead) {
      for (std::size_t i = 0; i < side.size(); ++i) {
        EXPECT_GE(taken[i], 0) << "trial " << trial;
        EXPECT_LE(taken[i], remaining_body(side[i])) << "trial " << trial;
        EXPECT_EQ(dead[i], taken[i] >= remaining_body(side[i])) << "trial " << trial;
      }
    };
    check(a, r->taken_a, r->dead_a);
    check(b, r->taken_b, r->dead_b);
  }
  EXPECT_GE(resolved, 100);
}

// Property: the minimum pump spend matches trying every pump count.
TEST(SrtcgCombat, MinPumpPlanMatchesBruteForce) {
  dice::Rng rng(4040);
  for (int trial = 0; trial < 200; ++trial) {
    std::vector<Combatant> team;
    std::vector<Pump> pumps;
    const int n = rng.uniform(3);
    for (int i = 0; i < n; ++i) {
      team.push_back(runner(rng.uniform(5) - 1, 3, 0));
      pumps.push_back(rng.uniform(3) == 1 ? Pump{} : Pump{rng.uniform(3), rng.uniform(3), 0});
    }
    const Opponent o{"o", 1, rng.uniform(15), rng.uniform(3) - 1, false};
    const PumpPlan plan = min_pump_plan(team, pumps, o, false, 12);
    int best = 1 << 30;
    std::vector<int> k(team.size(), 0);
    std::function<void(std::size_t, int)> rec = [&](std::size_t i, int spent) {
      if (spent > 12) return;
      if (i == team.size()) {
        auto t = team;
        for (std::size_t j = 0; j < t.size(); ++j)
          t[j].attack += k[j] * pumps[j].attack;
        if (team_damage(t, o).defeated) best = std::min(best, spent);
        return;
      }
      for (int x = 0; x <= (pumps[i].cost > 0 ? 12 : 0); ++x) {
        k[i] = x;
        rec(i + 1, spent + x * pumps[i].cost);
      }
      k[i] = 0;
    };
    rec(0, 0);
    EXPECT_EQ(plan.possible, best < (1 << 30)) << "trial " << trial;
    if (plan.possible) {
      EXPECT_EQ(plan.cost, best) << "trial " << trial;
      auto t = team;
      int spent = 0;
      for (std::size_t j = 0; j < t.size(); ++j) {
        t[j].attack += plan.times[j] * pumps[j].attack;
        spent += plan.times[j] * pumps[j].cost;
      }
      EXPECT_TRUE(team_damage(t, o).defeated) << "trial " << trial;
      EXPECT_EQ(spent, plan.cost);
    }
  }
}

}  // namespace
}  // namespace duels::cards::srtcg
