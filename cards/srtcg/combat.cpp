#include "cards/srtcg/combat.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cstdint>
#include <limits>
#include <numeric>
#include <tuple>

namespace duels::cards::srtcg {

Combatant combatant_from(const RunnerCard& card) {
  Combatant c;
  c.name = card.name;
  c.role = card.role;
  c.attack = card.threat.attack + card.mod.attack + card.pumped * card.pump.attack + card.burst;
  c.body = card.threat.body + card.mod.body + card.pumped * card.pump.body;
  c.pump_body = card.pumped * card.pump.body;
  c.armor = card.armor.value();
  c.damage = card.damage;
  c.stamina = card.traits.count("Stamina") != 0;
  c.guard = card.traits.count("Guard") != 0;
  c.armor_piercing = card.armor_piercing;
  c.protect = card.protect;
  c.value = card.cost;
  return c;
}

std::optional<Opponent> opponent_from(const ChallengeCard& card) {
  if (!card.threat) return std::nullopt;
  return Opponent{card.name, card.threat->attack + card.mod.attack + card.pumped * card.pump.attack,
                  card.threat->body + card.mod.body + card.pumped * card.pump.body,
                  card.armor.value(), card.armor_piercing};
}

std::optional<Opponent> opponent_from(const ObjectiveCard& card) {
  if (!card.threat) return std::nullopt;
  return Opponent{card.name, card.threat->attack + card.mod.attack,
                  card.threat->body + card.mod.body, card.armor.value(), card.armor_piercing};
}

int fatigue(const Combatant& c) {
  return c.stamina ? 0 : std::max(0, c.damage);
}

int effective_attack(const Combatant& c) {
  if (c.role == Role::Controller) return 0;
  return std::max(0, c.attack - fatigue(c));
}

int remaining_body(const Combatant& c) {
  return c.body - c.damage;
}

bool can_be_hit(const Combatant& c) {
  return c.role != Role::Indirect && remaining_body(c) > 0;
}

int damage_capacity(const Combatant& c, bool armor_piercing) {
  if (!can_be_hit(c)) return 0;
  return (armor_piercing ? 0 : std::max(0, c.armor)) + remaining_body(c);
}

TeamDamage team_damage(const std::vector<Combatant>& team, const Opponent& opponent,
                       bool armor_piercing) {
  TeamDamage out;
  for (const Combatant& c : team) {
    const int armor = armor_piercing || c.armor_piercing ? 0 : std::max(0, opponent.armor);
    const int dealt = std::max(0, effective_attack(c) - armor);
    out.dealt.push_back(dealt);
    out.total += dealt;
  }
  out.defeated = out.total >= opponent.body;
  out.shortfall = out.defeated ? 0 : opponent.body - out.total;
  return out;
}

Split make_split(const std::vector<Combatant>& team, std::vector<int> raw, bool armor_piercing,
                 int incoming) {
  Split s;
  raw.resize(team.size(), 0);
  s.raw = std::move(raw);
  for (std::size_t i = 0; i < team.size(); ++i) {
    const Combatant& c = team[i];
    const int armor = armor_piercing ? 0 : std::max(0, c.armor);
    const int rem = std::max(0, remaining_body(c));
    const int taken = std::min(std::max(0, s.raw[i] - armor), rem);
    s.taken.push_back(taken);
    const bool dies = remaining_body(c) <= 0 || (rem > 0 && taken >= rem);
    s.dies.push_back(dies);
    s.dies_end_of_turn.push_back(!dies && c.pump_body > 0 &&
                                 c.damage + taken >= c.body - c.pump_body);
    s.assigned += s.raw[i];
  }
  s.lost = std::max(0, incoming - s.assigned);
  return s;
}

Expected<Split, std::string> check_split(const std::vector<Combatant>& team, int incoming,
                                         bool armor_piercing, const std::vector<int>& raw) {
  if (raw.size() != team.size()) {
    return fmt::format("the split names {} targets; the team has {}", raw.size(), team.size());
  }
  int total = 0;
  int capacity = 0;
  for (std::size_t i = 0; i < team.size(); ++i) {
    const Combatant& c = team[i];
    const int cap = damage_capacity(c, armor_piercing);
    capacity += cap;
    if (raw[i] < 0) return fmt::format("{} cannot be given negative damage", c.name);
    if (raw[i] > 0 && !can_be_hit(c)) {
      return fmt::format(
          "{} cannot be hit ({})", c.name,
          c.role == Role::Indirect ? "it fires from the safehouse" : "it is already down");
    }
    if (raw[i] > cap) {
      return fmt::format("{} may be given at most {} (that kills it; no more than kills it)",
                         c.name, cap);
    }
    total += raw[i];
  }
  const int must = std::min(std::max(0, incoming), capacity);
  if (total > std::max(0, incoming)) {
    return fmt::format("the split gives {} points; the attack is only {}", total, incoming);
  }
  if (total < must) {
    return fmt::format(
        "the split gives {} of {} points: every point must be given while a "
        "target can still take it",
        total, must);
  }
  return make_split(team, raw, armor_piercing, incoming);
}

namespace {

/// One hittable combatant as the split search sees it.
struct Slot {
  std::size_t index = 0;
  int armor = 0;
  int rem = 0;
  int survive_max = 0;  ///< most it may take (after armor) and still be alive at end of turn
  bool doomed = false;  ///< dies at end of turn whatever it takes
  int category = 0;     ///< 0 protected, 1 runner, 2 drone/spirit
};

using Key = std::tuple<int, int, int, int>;

std::int64_t survivor_cost(const Combatant& c, int armor, int raw) {
  const int taken = std::max(0, raw - armor);
  int loss = 0;
  if (!c.stamina && c.role != Role::Controller && c.role != Role::Indirect) {
    const int before = std::max(0, c.attack - c.damage);
    loss = before - std::max(0, before - taken);
  }
  return static_cast<std::int64_t>(loss) * 100000 + taken;
}

/// Range of raw points for one slot in a plan, and its cost function.
struct Item {
  std::size_t slot = 0;
  int lo = 0;
  int hi = 0;
  bool survivor = false;
};

constexpr std::int64_t kInf = std::numeric_limits<std::int64_t>::max() / 4;

/// Min-cost raw points per item summing exactly to `total`; nullopt if impossible.
std::optional<std::pair<std::int64_t, std::vector<int>>> cheapest(
    const std::vector<Item>& items, const std::vector<Slot>& slots,
    const std::vector<Combatant>& team, int total) {
  const std::size_t width = static_cast<std::size_t>(total) + 1;
  std::vector<std::int64_t> dp(width, kInf);
  dp[0] = 0;
  std::vector<std::vector<int>> choice(items.size(), std::vector<int>(width, -1));
  for (std::size_t k = 0; k < items.size(); ++k) {
    const Item& it = items[k];
    std::vector<std::int64_t> next(width, kInf);
    for (int t = 0; t <= total; ++t) {
      if (dp[static_cast<std::size_t>(t)] >= kInf) continue;
      for (int x = it.lo; x <= it.hi && t + x <= total; ++x) {
        const Slot& s = slots[it.slot];
        const std::int64_t c =
            dp[static_cast<std::size_t>(t)] +
            (it.survivor ? survivor_cost(team[s.index], s.armor, x) : std::int64_t{0});
        const auto to = static_cast<std::size_t>(t + x);
        if (c < next[to]) {
          next[to] = c;
          choice[k][to] = x;
        }
      }
    }
    dp = std::move(next);
  }
  if (dp[static_cast<std::size_t>(total)] >= kInf) return std::nullopt;
  std::vector<int> raw(items.size(), 0);
  int t = total;
  for (std::size_t k = items.size(); k-- > 0;) {
    const int x = choice[k][static_cast<std::size_t>(t)];
    raw[k] = x;
    t -= x;
  }
  return std::make_pair(dp[static_cast<std::size_t>(total)], raw);
}

}  // namespace

Split suggest_split(const std::vector<Combatant>& team, int incoming, bool armor_piercing) {
  std::vector<Slot> slots;
  int capacity = 0;
  for (std::size_t i = 0; i < team.size(); ++i) {
    const Combatant& c = team[i];
    if (!can_be_hit(c)) continue;
    Slot s;
    s.index = i;
    s.armor = armor_piercing ? 0 : std::max(0, c.armor);
    s.rem = remaining_body(c);
    s.survive_max = s.rem - 1;
    if (c.pump_body > 0) s.survive_max = std::min(s.survive_max, s.rem - c.pump_body - 1);
    s.doomed = s.survive_max < 0;
    s.category = c.protect ? 0 : (c.role == Role::Drone || c.role == Role::Spirit) ? 2 : 1;
    capacity += s.armor + s.rem;
    slots.push_back(s);
  }
  const int total = std::min(std::max(0, incoming), capacity);
  std::vector<std::size_t> candidates;
  for (std::size_t k = 0; k < slots.size(); ++k) {
    if (!slots[k].doomed) candidates.push_back(k);
  }
  // Plans: which candidates die now.
  const auto feasible = [&](const std::vector<bool>& dead) {
    int lo = 0;
    int hi = 0;
    for (std::size_t k = 0; k < slots.size(); ++k) {
      const Slot& s = slots[k];
      if (s.doomed) {
        hi += s.armor + s.rem;
      } else if (dead[k]) {
        lo += s.armor + s.survive_max + 1;
        hi += s.armor + s.rem;
      } else {
        hi += s.armor + s.survive_max;
      }
    }
    return lo <= total && total <= hi;
  };
  const auto key_of = [&](const std::vector<bool>& dead) {
    Key k{0, 0, 0, 0};
    for (std::size_t j = 0; j < slots.size(); ++j) {
      if (!dead[j]) continue;
      const Slot& s = slots[j];
      if (s.category == 0) ++std::get<0>(k);
      if (s.category != 2) ++std::get<1>(k);
      if (s.category == 2) ++std::get<2>(k);
      std::get<3>(k) += team[s.index].value;
    }
    return k;
  };
  std::vector<std::vector<bool>> best_plans;
  Key best_key{std::numeric_limits<int>::max(), 0, 0, 0};
  constexpr std::size_t kMaxEnumerated = 14;
  if (candidates.size() <= kMaxEnumerated) {
    const std::uint32_t masks = 1U << candidates.size();
    for (std::uint32_t m = 0; m < masks; ++m) {
      std::vector<bool> dead(slots.size(), false);
      for (std::size_t b = 0; b < candidates.size(); ++b) {
        if ((m >> b) & 1U) dead[candidates[b]] = true;
      }
      if (!feasible(dead)) continue;
      const Key k = key_of(dead);
      if (k < best_key) {
        best_key = k;
        best_plans.clear();
      }
      if (k == best_key && best_plans.size() < 64) best_plans.push_back(dead);
    }
  } else {
    // Large teams: kill the least important first until the points fit.
    std::vector<std::size_t> order = candidates;
    std::stable_sort(order.begin(), order.end(), [&](std::size_t x, std::size_t y) {
      const Slot& a = slots[x];
      const Slot& b = slots[y];
      if (a.category != b.category) return a.category > b.category;
      return team[a.index].value < team[b.index].value;
    });
    std::vector<bool> dead(slots.size(), false);
    for (std::size_t k = 0; k <= order.size(); ++k) {
      if (feasible(dead)) {
        best_plans.push_back(dead);
        break;
      }
      if (k < order.size()) dead[order[k]] = true;
    }
  }
  std::vector<int> raw(team.size(), 0);
  std::int64_t best_cost = kInf;
  for (const auto& dead : best_plans) {
    std::vector<Item> items;
    for (std::size_t k = 0; k < slots.size(); ++k) {
      const Slot& s = slots[k];
      Item it;
      it.slot = k;
      if (s.doomed) {
        it.hi = s.armor + s.rem;
      } else if (dead[k]) {
        it.lo = s.armor + s.survive_max + 1;
        it.hi = s.armor + s.rem;
      } else {
        it.hi = s.armor + s.survive_max;
        it.survivor = true;
      }
      items.push_back(it);
    }
    auto plan = cheapest(items, slots, team, total);
    if (!plan || plan->first >= best_cost) continue;
    best_cost = plan->first;
    std::fill(raw.begin(), raw.end(), 0);
    for (std::size_t k = 0; k < items.size(); ++k)
      raw[slots[items[k].slot].index] = plan->second[k];
  }
  return make_split(team, raw, armor_piercing, incoming);
}

Expected<Split, std::string> targeted_split(const std::vector<Combatant>& team, int target,
                                            int amount, bool armor_piercing, int guard,
                                            int guard_takes) {
  const int n = static_cast<int>(team.size());
  if (target < 0 || target >= n) return std::string("no such target");
  if (!can_be_hit(team[static_cast<std::size_t>(target)])) {
    return fmt::format("{} cannot be hit", team[static_cast<std::size_t>(target)].name);
  }
  std::vector<int> raw(team.size(), 0);
  int left = std::max(0, amount);
  if (guard >= 0) {
    if (guard >= n || guard == target) return std::string("the Guard must be another card");
    const Combatant& g = team[static_cast<std::size_t>(guard)];
    if (!g.guard) return fmt::format("{} has no Guard trait", g.name);
    if (!can_be_hit(g)) return fmt::format("{} cannot take damage now", g.name);
    const int cap = damage_capacity(g, armor_piercing);
    if (guard_takes < 0 || guard_takes > cap) {
      return fmt::format("{} may take from 0 to {} (up to its Body)", g.name, cap);
    }
    const int takes = std::min(guard_takes, left);
    raw[static_cast<std::size_t>(guard)] = takes;
    left -= takes;
  }
  raw[static_cast<std::size_t>(target)] =
      std::min(left, damage_capacity(team[static_cast<std::size_t>(target)], armor_piercing));
  return make_split(team, raw, armor_piercing, amount);
}

double p_d6_at_least(int k) {
  if (k <= 1) return 1.0;
  if (k > 6) return 0.0;
  return (7 - k) / 6.0;
}

CombatResult resolve_combat(const std::vector<Combatant>& team, const Opponent& opponent,
                            bool armor_piercing) {
  CombatResult r;
  r.attack = team_damage(team, opponent, armor_piercing);
  r.incoming = std::max(0, opponent.attack);
  r.incoming_armor_piercing = opponent.armor_piercing;
  r.suggested = suggest_split(team, r.incoming, opponent.armor_piercing);
  {
    int best_armor = 0;
    for (const Combatant& c : team) {
      if (can_be_hit(c)) best_armor = std::max(best_armor, c.armor);
    }
    r.taken_if_armor_once =
        opponent.armor_piercing ? r.incoming : std::max(0, r.incoming - best_armor);
  }
  r.burst_chance.assign(team.size(), r.attack.defeated ? 1.0 : 0.0);
  if (!r.attack.defeated) {
    for (std::size_t i = 0; i < team.size(); ++i) {
      if (team[i].role == Role::Controller) continue;
      int wins = 0;
      for (int d = 1; d <= 6; ++d) {
        std::vector<Combatant> t = team;
        t[i].attack += d;
        wins += team_damage(t, opponent, armor_piercing).defeated ? 1 : 0;
      }
      r.burst_chance[i] = wins / 6.0;
    }
    r.warnings.push_back(fmt::format(
        "not beaten: {} short of Body {}; the {} still deals its damage, then the run ends "
        "and it goes back face down at full strength",
        r.attack.shortfall, opponent.body, opponent.name.empty() ? "Challenge" : opponent.name));
  }
  for (std::size_t i = 0; i < team.size(); ++i) {
    const Combatant& c = team[i];
    if (remaining_body(c) <= 0 && c.role != Role::Indirect) {
      r.warnings.push_back(
          fmt::format("{}: Body is {} (pumped to 0 or below): it dies after dealing its damage",
                      c.name.empty() ? fmt::format("#{}", i + 1) : c.name, remaining_body(c)));
    }
    if (r.suggested.dies_end_of_turn[i]) {
      r.warnings.push_back(fmt::format(
          "{} survives only thanks to its pump: it dies at end of turn when the pump reverts",
          c.name.empty() ? fmt::format("#{}", i + 1) : c.name));
    }
  }
  return r;
}

PumpPlan min_pump_plan(const std::vector<Combatant>& team, const std::vector<Pump>& pumps,
                       const Opponent& opponent, bool armor_piercing, int budget) {
  PumpPlan plan;
  plan.times.assign(team.size(), 0);
  const TeamDamage base = team_damage(team, opponent, armor_piercing);
  if (base.defeated) {
    plan.possible = true;
    return plan;
  }
  const int need = base.shortfall;
  // dp[d] = cheapest ¥ for at least d extra damage (d capped at need).
  const std::size_t width = static_cast<std::size_t>(need) + 1;
  std::vector<int> dp(width, std::numeric_limits<int>::max());
  dp[0] = 0;
  std::vector<std::vector<int>> pick(team.size(), std::vector<int>(width, 0));
  std::vector<std::vector<int>> from(team.size(), std::vector<int>(width, 0));
  for (std::size_t i = 0; i < team.size(); ++i) {
    const Pump p = i < pumps.size() ? pumps[i] : Pump{};
    std::vector<int> next = dp;
    for (std::size_t d = 0; d < width; ++d) {
      from[i][d] = static_cast<int>(d);
    }
    if (p.cost > 0 && p.attack > 0 && team[i].role != Role::Controller) {
      const int armor = armor_piercing || team[i].armor_piercing ? 0 : opponent.armor;
      const int max_k = std::min(budget / p.cost, (need + armor) / p.attack + 1);
      for (std::size_t d = 0; d < width; ++d) {
        if (dp[d] == std::numeric_limits<int>::max()) continue;
        for (int k = 1; k <= max_k; ++k) {
          Combatant c = team[i];
          c.attack += k * p.attack;
          const int gain = std::max(0, effective_attack(c) - armor) - base.dealt[i];
          const auto to = std::min(width - 1, d + static_cast<std::size_t>(std::max(0, gain)));
          const int cost = dp[d] + k * p.cost;
          if (cost < next[to]) {
            next[to] = cost;
            pick[i][to] = k;
            from[i][to] = static_cast<int>(d);
          }
        }
      }
    }
    dp = std::move(next);
  }
  const int best = dp[width - 1];
  if (best == std::numeric_limits<int>::max() || best > budget) return plan;
  plan.possible = true;
  plan.cost = best;
  std::size_t d = width - 1;
  for (std::size_t i = team.size(); i-- > 0;) {
    plan.times[i] = pick[i][d];
    d = static_cast<std::size_t>(from[i][d]);
  }
  for (std::size_t i = 0; i < team.size(); ++i) {
    const Pump p = i < pumps.size() ? pumps[i] : Pump{};
    if (plan.times[i] > 0 && p.body < 0 && remaining_body(team[i]) + plan.times[i] * p.body <= 0) {
      plan.warnings.push_back(
          fmt::format("{} pumped {} times: Body {} — it dies after dealing "
                      "its damage",
                      team[i].name, plan.times[i], team[i].body + plan.times[i] * p.body));
    }
  }
  return plan;
}

// ---- Runner against runner ----------------------------------------------------------------

std::optional<std::string> check_pairing(int attackers, int defenders,
                                         const std::vector<Bout>& fights) {
  if (attackers < 1 || defenders < 1) return std::string("both sides need a runner");
  std::vector<int> seen_a(static_cast<std::size_t>(attackers), 0);
  std::vector<int> seen_d(static_cast<std::size_t>(defenders), 0);
  if (static_cast<int>(fights.size()) != std::min(attackers, defenders)) {
    return fmt::format("{} runners against {} make {} fights", attackers, defenders,
                       std::min(attackers, defenders));
  }
  for (std::size_t k = 0; k < fights.size(); ++k) {
    const Bout& f = fights[k];
    if (f.attackers.empty() || f.defenders.empty()) {
      return fmt::format("fight {} needs a runner on each side", k + 1);
    }
    if (f.attackers.size() > 1 && f.defenders.size() > 1) {
      return fmt::format("fight {} is many against many: each fight has one runner on a side",
                         k + 1);
    }
    if (attackers <= defenders && f.attackers.size() != 1) {
      return fmt::format("fight {}: the side with fewer runners has one runner in each fight",
                         k + 1);
    }
    if (attackers >= defenders && f.defenders.size() != 1) {
      return fmt::format("fight {}: the side with fewer runners has one runner in each fight",
                         k + 1);
    }
    for (int a : f.attackers) {
      if (a < 0 || a >= attackers) return fmt::format("no attacking runner #{}", a + 1);
      if (++seen_a[static_cast<std::size_t>(a)] > 1) {
        return fmt::format("attacking runner #{} is in two fights", a + 1);
      }
    }
    for (int d : f.defenders) {
      if (d < 0 || d >= defenders) return fmt::format("no defending runner #{}", d + 1);
      if (++seen_d[static_cast<std::size_t>(d)] > 1) {
        return fmt::format("defending runner #{} is in two fights", d + 1);
      }
    }
  }
  for (int a = 0; a < attackers; ++a) {
    if (seen_a[static_cast<std::size_t>(a)] == 0) {
      return fmt::format("attacking runner #{} is in no fight", a + 1);
    }
  }
  for (int d = 0; d < defenders; ++d) {
    if (seen_d[static_cast<std::size_t>(d)] == 0) {
      return fmt::format("defending runner #{} is in no fight", d + 1);
    }
  }
  return std::nullopt;
}

Expected<std::vector<Bout>, std::string> pair_up(int attackers, int defenders,
                                                 const std::vector<int>& opponent_of,
                                                 const std::vector<int>& extra_fight) {
  if (attackers < 1 || defenders < 1) return std::string("both sides need a runner");
  if (static_cast<int>(opponent_of.size()) != attackers) {
    return fmt::format("the attacker picks an opponent for each of their {} runners", attackers);
  }
  std::vector<Bout> fights;
  if (attackers >= defenders) {
    fights.resize(static_cast<std::size_t>(defenders));
    for (int d = 0; d < defenders; ++d)
      fights[static_cast<std::size_t>(d)].defenders = {d};
    for (int a = 0; a < attackers; ++a) {
      const int d = opponent_of[static_cast<std::size_t>(a)];
      if (d < 0 || d >= defenders) return fmt::format("no defending runner #{}", d + 1);
      fights[static_cast<std::size_t>(d)].attackers.push_back(a);
    }
    if (!extra_fight.empty()) {
      return std::string("the attacker has as many runners or more: the attacker places them all");
    }
  } else {
    std::vector<bool> picked(static_cast<std::size_t>(defenders), false);
    for (int a = 0; a < attackers; ++a) {
      const int d = opponent_of[static_cast<std::size_t>(a)];
      if (d < 0 || d >= defenders) return fmt::format("no defending runner #{}", d + 1);
      if (picked[static_cast<std::size_t>(d)]) {
        return fmt::format(
            "defending runner #{} is picked twice: with fewer runners, each attacker faces a "
            "different opponent and the defender places the extras",
            d + 1);
      }
      picked[static_cast<std::size_t>(d)] = true;
      fights.push_back(Bout{{a}, {d}});
    }
    std::size_t e = 0;
    for (int d = 0; d < defenders; ++d) {
      if (picked[static_cast<std::size_t>(d)]) continue;
      if (e >= extra_fight.size()) {
        return fmt::format("the defender places each of their {} extra runners in a fight",
                           defenders - attackers);
      }
      const int f = extra_fight[e++];
      if (f < 0 || f >= attackers) return fmt::format("there is no fight {}", f + 1);
      fights[static_cast<std::size_t>(f)].defenders.push_back(d);
    }
    if (e != extra_fight.size()) {
      return fmt::format("the defender has {} extra runners, not {}", defenders - attackers,
                         extra_fight.size());
    }
  }
  if (auto why = check_pairing(attackers, defenders, fights)) return *why;
  return fights;
}

namespace {

/// The lone card's raw points against several: the split that defeats the most.
std::vector<int> lone_default(const Combatant& lone, const std::vector<const Combatant*>& foes) {
  int budget = effective_attack(lone);
  std::vector<std::size_t> order(foes.size());
  std::iota(order.begin(), order.end(), 0);
  const auto need = [&](std::size_t k) {
    const Combatant& f = *foes[k];
    return (lone.armor_piercing ? 0 : std::max(0, f.armor)) + std::max(0, remaining_body(f));
  };
  std::stable_sort(order.begin(), order.end(),
                   [&](std::size_t x, std::size_t y) { return need(x) < need(y); });
  std::vector<int> raw(foes.size(), 0);
  for (std::size_t k : order) {
    const int give = std::min(budget, need(k));
    raw[k] = give;
    budget -= give;
  }
  if (budget > 0 && !raw.empty()) raw[order.front()] += budget;
  return raw;
}

int after_armor(int raw, const Combatant& target, bool piercing) {
  return std::max(0, raw - (piercing ? 0 : std::max(0, target.armor)));
}

}  // namespace

Expected<FightResult, std::string> resolve_fights(const std::vector<Combatant>& side_a,
                                                  const std::vector<Combatant>& side_b,
                                                  const std::vector<Bout>& fights,
                                                  const std::vector<std::vector<int>>& lone_split) {
  if (auto why =
          check_pairing(static_cast<int>(side_a.size()), static_cast<int>(side_b.size()), fights)) {
    return *why;
  }
  FightResult r;
  r.taken_a.assign(side_a.size(), 0);
  r.taken_b.assign(side_b.size(), 0);
  for (std::size_t k = 0; k < fights.size(); ++k) {
    const Bout& f = fights[k];
    const bool a_lone = f.attackers.size() == 1;
    // Each side's damage to the other; a lone card facing several splits its attack.
    const auto resolve = [&](const std::vector<Combatant>& many_side, const std::vector<int>& many,
                             const Combatant& lone, std::vector<int>& taken_many,
                             int& taken_lone) -> std::optional<std::string> {
      for (int m : many) {
        const Combatant& c = many_side[static_cast<std::size_t>(m)];
        taken_lone += after_armor(effective_attack(c), lone, c.armor_piercing);
      }
      std::vector<const Combatant*> foes;
      for (int m : many)
        foes.push_back(&many_side[static_cast<std::size_t>(m)]);
      std::vector<int> raw;
      if (k < lone_split.size() && !lone_split[k].empty()) {
        raw = lone_split[k];
        if (raw.size() != many.size()) {
          return fmt::format("fight {}: the lone runner's split names {} targets, not {}", k + 1,
                             raw.size(), many.size());
        }
        int sum = 0;
        for (int x : raw) {
          if (x < 0) return fmt::format("fight {}: negative damage", k + 1);
          sum += x;
        }
        if (sum > effective_attack(lone)) {
          return fmt::format("fight {}: {} has only {} Attack to split", k + 1, lone.name,
                             effective_attack(lone));
        }
      } else {
        raw = lone_default(lone, foes);
      }
      for (std::size_t j = 0; j < many.size(); ++j) {
        taken_many[static_cast<std::size_t>(many[j])] +=
            after_armor(raw[j], *foes[j], lone.armor_piercing);
      }
      return std::nullopt;
    };
    std::optional<std::string> err;
    if (a_lone) {
      const int a = f.attackers.front();
      err = resolve(side_b, f.defenders, side_a[static_cast<std::size_t>(a)], r.taken_b,
                    r.taken_a[static_cast<std::size_t>(a)]);
    } else {
      const int d = f.defenders.front();
      err = resolve(side_a, f.attackers, side_b[static_cast<std::size_t>(d)], r.taken_a,
                    r.taken_b[static_cast<std::size_t>(d)]);
    }
    if (err) return *err;
  }
  for (std::size_t i = 0; i < side_a.size(); ++i) {
    r.taken_a[i] = std::min(r.taken_a[i], std::max(0, remaining_body(side_a[i])));
    r.dead_a.push_back(remaining_body(side_a[i]) <= 0 || r.taken_a[i] >= remaining_body(side_a[i]));
  }
  for (std::size_t i = 0; i < side_b.size(); ++i) {
    r.taken_b[i] = std::min(r.taken_b[i], std::max(0, remaining_body(side_b[i])));
    r.dead_b.push_back(remaining_body(side_b[i]) <= 0 || r.taken_b[i] >= remaining_body(side_b[i]));
  }
  return r;
}

}  // namespace duels::cards::srtcg
