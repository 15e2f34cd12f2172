#include "cards/srtcg/solo.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <numeric>

namespace duels::cards::srtcg {

BudgetCheck solo_budget(const std::vector<int>& costs, int budget) {
  BudgetCheck b;
  b.budget = budget;
  b.total = std::accumulate(costs.begin(), costs.end(), 0);
  b.left = budget - b.total;
  b.ok = b.left >= 0;
  return b;
}

int solo_pumps(int d6) {
  if (d6 <= 2) return 2;
  if (d6 <= 4) return 1;
  return 0;
}

int activations(int credstick, int cost) {
  if (cost <= 0) return 0;
  return std::max(0, credstick) / cost;
}

int maglock_guesses(int technical_runners) {
  return std::max(0, technical_runners) + 1;
}

double maglock_chance(int technical_runners) {
  return std::min(1.0, maglock_guesses(technical_runners) / 6.0);
}

ReequipCheck solo_reequip(int in_play, int card_cost, int budget) {
  ReequipCheck r;
  r.in_play = in_play;
  r.card = card_cost;
  r.budget = budget;
  r.fits = in_play + card_cost <= budget;
  r.must_trash = std::max(0, in_play + card_cost - budget);
  return r;
}

Expected<EvenSplit, std::string> even_split(const std::vector<EvenTarget>& targets, int damage,
                                            const std::vector<int>& rolls) {
  EvenSplit s;
  const std::size_t n = targets.size();
  s.raw.assign(n, 0);
  s.taken.assign(n, 0);
  s.dead.assign(n, false);
  const auto share = [&](std::size_t i) {
    return std::min(std::max(0, s.raw[i] - std::max(0, targets[i].armor)),
                    std::max(0, targets[i].body_left));
  };
  const auto live = [&] {
    std::vector<std::size_t> out;
    for (std::size_t i = 0; i < n; ++i) {
      if (targets[i].body_left > 0 && share(i) < targets[i].body_left) out.push_back(i);
    }
    return out;
  };
  int points = std::max(0, damage);
  for (std::vector<std::size_t> alive = live();
       !alive.empty() && points >= static_cast<int>(alive.size()); alive = live()) {
    for (std::size_t i : alive)
      ++s.raw[i];
    points -= static_cast<int>(alive.size());
    ++s.passes;
  }
  std::vector<std::size_t> numbering = live();
  s.remainder = numbering.empty() ? 0 : points;
  s.lost = numbering.empty() ? points : 0;
  std::size_t next_roll = 0;
  for (int k = 0; k < s.remainder; ++k) {
    const int m = static_cast<int>(numbering.size());
    const int sides = std::max(6, m);
    int pick = 0;
    while (pick == 0) {
      if (next_roll >= rolls.size()) {
        return fmt::format(
            "the remainder needs more rolls: {} read, pick {} of {} among {} "
            "targets still to roll (d{}, reroll above {})",
            rolls.size(), k + 1, s.remainder, m, sides, m);
      }
      const int r = rolls[next_roll++];
      if (r < 1 || r > sides) {
        return fmt::format("roll {} is {}: a d{} shows 1 to {}", next_roll, r, sides, sides);
      }
      s.rolls_used.push_back(r);
      if (r <= m) pick = r;
    }
    const std::size_t target = numbering[static_cast<std::size_t>(pick - 1)];
    ++s.raw[target];
    s.picks.push_back(static_cast<int>(target));
    numbering.erase(numbering.begin() + (pick - 1));
  }
  for (std::size_t i = 0; i < n; ++i) {
    s.taken[i] = share(i);
    s.dead[i] = targets[i].body_left <= 0 || s.taken[i] >= targets[i].body_left;
  }
  return s;
}

std::optional<std::string> solo_loss(const SoloTurn& t) {
  if (!t.ran) return std::string("no run this turn (rule 1: a run every turn)");
  if (t.maglock_missed) return std::string("every Maglocks guess missed (rule 2)");
  if (t.challenge_blocks) {
    return std::string("a Challenge makes the Objective impossible (rule 2)");
  }
  if (t.runners_alive <= 0) return std::string("every runner is dead (rule 3)");
  if (t.requirements_unmeetable) {
    return std::string("the Objective's requirements cannot be met (rule 3)");
  }
  if (t.barrier_impassable) return std::string("a Barrier blocks the way (rule 3)");
  return std::nullopt;
}

}  // namespace duels::cards::srtcg
