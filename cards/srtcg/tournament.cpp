#include "cards/srtcg/tournament.hpp"

#include <algorithm>
#include <functional>
#include <numeric>

namespace duels::cards::srtcg {

std::vector<int> blowout_tables(int players) {
  std::vector<int> out;
  if (players < 2) return out;
  const int pairs = players % 2 == 0 ? players / 2 : (players - 3) / 2;
  out.assign(static_cast<std::size_t>(pairs), 2);
  if (players % 2 == 1) out.push_back(3);
  return out;
}

std::vector<int> run_tables(int players) {
  const int lo = (players + 3) / 4;
  const int hi = players / 3;
  if (players < 3 || lo > hi) return {};
  int tables = hi;
  for (int t = lo; t <= hi; ++t) {
    if (t % 4 == 0) {
      tables = t;
      break;
    }
  }
  const int fours = players - 3 * tables;
  std::vector<int> out(static_cast<std::size_t>(tables - fours), 3);
  out.insert(out.end(), static_cast<std::size_t>(fours), 4);
  return out;
}

std::vector<BrawlRound> brawl_plan(int entrants, int cut_after_first) {
  std::vector<BrawlRound> plan;
  if (entrants < 4) return plan;
  const auto blowout = [&](int players) {
    BrawlRound r{"Blow-out", players, blowout_tables(players), 0};
    r.advance = static_cast<int>(r.tables.size());
    plan.push_back(r);
    return r.advance;
  };
  const auto cut = [&](int players, int keep) {
    plan.push_back(BrawlRound{"cut", players, {}, keep});
    return keep;
  };
  int players = entrants == 4 ? 4 : blowout(entrants);
  if (cut_after_first > 0 && cut_after_first < players) players = cut(players, cut_after_first);
  for (int guard = 0; guard < 64 && players > 4; ++guard) {
    const std::vector<int> run = run_tables(players);
    const int winners = static_cast<int>(run.size());
    if (winners >= 4 && winners % 4 == 0 && winners < players) {
      plan.push_back(BrawlRound{"Run", players, run, winners});
      players = winners;
    } else if (players >= 8) {
      players = blowout(players);
    } else {
      players = cut(players, 4);
    }
  }
  return plan;
}

std::vector<FinalSeat> final_seats() {
  return {FinalSeat{1, 16, false}, FinalSeat{2, 12, false}, FinalSeat{3, 8, false},
          FinalSeat{4, 4, true}};
}

DuelScore duel_score(int rep, int runner_cost, int nuyen) {
  DuelScore s;
  s.exact = rep + runner_cost / 5.0 + nuyen / 10.0;
  s.floored = rep + runner_cost / 5 + nuyen / 10;
  return s;
}

int nuyen_count(int unspent, const std::vector<RunnerCard>& survivors) {
  int total = unspent;
  for (const RunnerCard& r : survivors) {
    total += r.cost;
    for (const auto& [trait, rating] : r.traits)
      total += rating;
  }
  return total;
}

namespace {

/// True when the roll-offs of a and b do not tell them apart (one ran out of rolls first).
bool rolloff_tied(const std::vector<int>& a, const std::vector<int>& b) {
  const std::size_t n = std::min(a.size(), b.size());
  for (std::size_t i = 0; i < n; ++i) {
    if (a[i] != b[i]) return false;
  }
  return true;
}

}  // namespace

Standings standings(const std::vector<Entrant>& field) {
  Standings s;
  s.order.resize(field.size());
  std::iota(s.order.begin(), s.order.end(), 0);
  const auto padded = [&](int i) {
    std::vector<int> v = field[static_cast<std::size_t>(i)].rolloff;
    v.resize(16, 0);
    return v;
  };
  std::stable_sort(s.order.begin(), s.order.end(), [&](int a, int b) {
    const Entrant& x = field[static_cast<std::size_t>(a)];
    const Entrant& y = field[static_cast<std::size_t>(b)];
    if (x.score != y.score) return x.score > y.score;
    if (x.nuyen != y.nuyen) return x.nuyen > y.nuyen;
    return padded(a) > padded(b);
  });
  std::vector<int> group;
  for (std::size_t k = 0; k < s.order.size(); ++k) {
    const int cur = s.order[k];
    if (!group.empty()) {
      const Entrant& x = field[static_cast<std::size_t>(group.back())];
      const Entrant& y = field[static_cast<std::size_t>(cur)];
      if (x.score == y.score && x.nuyen == y.nuyen && rolloff_tied(x.rolloff, y.rolloff)) {
        group.push_back(cur);
        continue;
      }
      if (group.size() > 1) s.unresolved.push_back(group);
    }
    group = {cur};
  }
  if (group.size() > 1) s.unresolved.push_back(group);
  return s;
}

namespace {

bool have_met(const Entrant& a, const Entrant& b) {
  return std::find(a.played.begin(), a.played.end(), b.name) != a.played.end() ||
         std::find(b.played.begin(), b.played.end(), a.name) != b.played.end();
}

/// Pairs listed top pair, bottom pair, second pair, second-to-bottom pair, …
std::vector<std::pair<int, int>> book_order(std::vector<std::pair<int, int>> pairs) {
  std::vector<std::pair<int, int>> out;
  std::size_t top = 0;
  std::size_t bottom = pairs.size();
  bool from_top = true;
  while (top < bottom) {
    if (from_top) {
      out.push_back(pairs[top++]);
    } else {
      out.push_back(pairs[--bottom]);
    }
    from_top = !from_top;
  }
  return out;
}

}  // namespace

Pairing showdown_pairing(const std::vector<Entrant>& field, bool avoid_rematches) {
  Pairing p;
  const Standings st = standings(field);
  p.unresolved = st.unresolved;
  std::vector<int> ranked = st.order;
  if (ranked.size() % 2 == 1) {
    for (std::size_t k = ranked.size(); k-- > 0;) {
      if (!field[static_cast<std::size_t>(ranked[k])].had_bye) {
        p.bye = ranked[k];
        ranked.erase(ranked.begin() + static_cast<std::ptrdiff_t>(k));
        break;
      }
    }
    if (p.bye < 0) {  // everyone has had one: the last again
      p.bye = ranked.back();
      ranked.pop_back();
    }
  }
  std::vector<std::pair<int, int>> neighbours;
  for (std::size_t k = 0; k + 1 < ranked.size(); k += 2)
    neighbours.emplace_back(ranked[k], ranked[k + 1]);
  if (avoid_rematches) {
    // Closest to rank order: pair the highest unpaired with the next one it has not met,
    // backtracking when the rest cannot be paired.
    std::vector<bool> used(ranked.size(), false);
    std::vector<std::pair<int, int>> found;
    std::function<bool()> rec = [&]() -> bool {
      std::size_t first = 0;
      while (first < ranked.size() && used[first])
        ++first;
      if (first == ranked.size()) return true;
      used[first] = true;
      for (std::size_t k = first + 1; k < ranked.size(); ++k) {
        if (used[k]) continue;
        if (have_met(field[static_cast<std::size_t>(ranked[first])],
                     field[static_cast<std::size_t>(ranked[k])])) {
          continue;
        }
        used[k] = true;
        found.emplace_back(ranked[first], ranked[k]);
        if (rec()) return true;
        found.pop_back();
        used[k] = false;
      }
      used[first] = false;
      return false;
    };
    if (rec()) neighbours = found;
  }
  p.pairs = book_order(neighbours);
  return p;
}

}  // namespace duels::cards::srtcg
