#include "cards/crossfire/damage.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <unordered_map>

namespace duels::cards::crossfire {

namespace {

constexpr int kMaxRuns = 8;

/// Levels cleared (more is better), then waste (less is better).
struct Value {
  int cleared = 0;
  int waste = 0;
};

bool better(const Value& a, const Value& b) {
  return a.cleared > b.cleared || (a.cleared == b.cleared && a.waste < b.waste);
}

/// What is left to spend.
struct Stock {
  Points pts;
  int singles = 0;
  std::uint32_t used_runs = 0;
};

/// One move of the programme at a level.
struct Choice {
  bool stop = true;
  LevelClear::How how = LevelClear::How::Points;
  Points used;
  int run = -1;
  int run_levels = 0;
};

class Programme {
 public:
  Programme(const Track& track, int start, const Points& partial, const std::vector<LevelRun>& runs,
            const ColourRank& rank)
      : track_(track), start_(start), partial_(partial), runs_(runs) {
    const int n = static_cast<int>(track.size());
    later_need_.assign(static_cast<std::size_t>(n + 1), {});
    for (int l = n - 1; l >= 0; --l) {
      later_need_[static_cast<std::size_t>(l)] = later_need_[static_cast<std::size_t>(l + 1)];
      const Level& lv = track[static_cast<std::size_t>(l)];
      if (lv.colour)
        later_need_[static_cast<std::size_t>(l)][static_cast<std::size_t>(*lv.colour)] +=
            lv.colour_n;
    }
    order_ = {Colour::Black, Colour::Blue, Colour::Green, Colour::Red};
    std::stable_sort(order_.begin(), order_.end(), [&](Colour a, Colour b) {
      return rank[static_cast<std::size_t>(a)] < rank[static_cast<std::size_t>(b)];
    });
  }

  Value solve(int level, const Stock& s) {
    const std::uint64_t key = pack(level, s);
    if (auto it = memo_.find(key); it != memo_.end()) return it->second.first;
    Value best = stop_value(s);
    Choice best_choice;
    const int n = static_cast<int>(track_.size());
    if (level < n) {
      const auto consider = [&](const Choice& c, int cleared_here, int extra_waste,
                                const Stock& next) {
        Value v = solve(level + cleared_here, next);
        v.cleared += cleared_here;
        v.waste += extra_waste;
        if (better(v, best)) {
          best = v;
          best_choice = c;
        }
      };
      for (const Points& used : point_options(level, s.pts)) {
        Stock next = s;
        for (Colour c : kAllColours)
          next.pts.of(c) -= used.of(c);
        next.pts.colourless -= used.colourless;
        Choice c;
        c.stop = false;
        c.how = LevelClear::How::Points;
        c.used = used;
        consider(c, 1, 0, next);
      }
      if (s.singles > 0) {
        Stock next = s;
        --next.singles;
        Choice c;
        c.stop = false;
        c.how = LevelClear::How::Single;
        consider(c, 1, 0, next);
      }
      std::vector<LevelRun> tried;
      for (int r = 0; r < static_cast<int>(runs_.size()); ++r) {
        if ((s.used_runs >> r & 1U) != 0) continue;
        const LevelRun& run = runs_[static_cast<std::size_t>(r)];
        if (std::find(tried.begin(), tried.end(), run) != tried.end()) continue;
        tried.push_back(run);
        const int left = n - level;
        if (run.last_only && left > run.count) continue;
        const int k = std::min(run.count, left);
        Stock next = s;
        next.used_runs |= 1U << r;
        Choice c;
        c.stop = false;
        c.how = LevelClear::How::Run;
        c.run = r;
        c.run_levels = k;
        consider(c, k, run.count - k, next);
      }
    }
    memo_[key] = {best, best_choice};
    return best;
  }

  /// The moves of the best solution from (level, s).
  std::vector<LevelClear> path(int level, Stock s, Stock& end) {
    std::vector<LevelClear> out;
    while (true) {
      solve(level, s);
      const Choice& c = memo_.at(pack(level, s)).second;
      if (c.stop) break;
      LevelClear lc;
      lc.level = level;
      lc.how = c.how;
      if (c.how == LevelClear::How::Points) {
        lc.used = c.used;
        for (Colour col : kAllColours)
          s.pts.of(col) -= c.used.of(col);
        s.pts.colourless -= c.used.colourless;
        ++level;
      } else if (c.how == LevelClear::How::Single) {
        --s.singles;
        ++level;
      } else {
        lc.run = c.run;
        lc.run_levels = c.run_levels;
        s.used_runs |= 1U << c.run;
        level += c.run_levels;
      }
      out.push_back(lc);
    }
    end = s;
    return out;
  }

 private:
  [[nodiscard]] Value stop_value(const Stock& s) const {
    Value v;
    v.waste = s.pts.total() + s.singles;
    for (int r = 0; r < static_cast<int>(runs_.size()); ++r) {
      if ((s.used_runs >> r & 1U) == 0) v.waste += runs_[static_cast<std::size_t>(r)].count;
    }
    return v;
  }

  [[nodiscard]] std::uint64_t pack(int level, const Stock& s) const {
    std::uint64_t k = static_cast<std::uint64_t>(level);
    for (Colour c : kAllColours)
      k = k << 9 | static_cast<std::uint64_t>(s.pts.of(c));
    k = k << 9 | static_cast<std::uint64_t>(s.pts.colourless);
    k = k << 5 | static_cast<std::uint64_t>(s.singles);
    k = k << 8 | s.used_runs;
    return k;
  }

  /// The ways worth trying to pay a level with points (see the file comment for the order).
  [[nodiscard]] std::vector<Points> point_options(int level, const Points& have) const {
    std::vector<Points> out;
    const Level& lv = track_[static_cast<std::size_t>(level)];
    const bool first = level == start_;
    if (lv.colour) {
      const int need = std::max(0, lv.colour_n - (first ? partial_.of(*lv.colour) : 0));
      if (have.of(*lv.colour) >= need) {
        Points p;
        p.of(*lv.colour) = need;
        out.push_back(p);
      }
    }
    if (lv.any_n > 0) {
      int need = std::max(0, lv.any_n - (first ? partial_.total() : 0));
      if (have.total() < need) return out;
      Points p;
      p.colourless = std::min(need, have.colourless);
      need -= p.colourless;
      const auto& later = later_need_[static_cast<std::size_t>(level + 1)];
      // Colours no later level asks for, then the surplus of the others: both cost nothing.
      for (Colour c : order_) {
        if (later[static_cast<std::size_t>(c)] > 0) continue;
        const int take = std::min(need, have.of(c));
        p.of(c) += take;
        need -= take;
      }
      for (Colour c : order_) {
        const int surplus = std::max(0, have.of(c) - later[static_cast<std::size_t>(c)]);
        const int take = std::min(need, surplus - p.of(c));
        if (take <= 0) continue;
        p.of(c) += take;
        need -= take;
      }
      if (need == 0) {
        out.push_back(p);
        return out;
      }
      // The rest eats into points later colour levels want: try every split.
      std::vector<Colour> contested;
      for (Colour c : order_) {
        if (have.of(c) > p.of(c)) contested.push_back(c);
      }
      split(contested, 0, need, have, p, out);
    }
    return out;
  }

  static void split(const std::vector<Colour>& cs, std::size_t i, int need, const Points& have,
                    Points& p, std::vector<Points>& out) {
    if (need == 0) {
      out.push_back(p);
      return;
    }
    if (i == cs.size()) return;
    int rest = 0;
    for (std::size_t j = i; j < cs.size(); ++j)
      rest += have.of(cs[j]) - p.of(cs[j]);
    if (rest < need) return;
    const Colour c = cs[i];
    const int room = have.of(c) - p.of(c);
    for (int take = std::min(room, need); take >= 0; --take) {
      p.of(c) += take;
      split(cs, i + 1, need - take, have, p, out);
      p.of(c) -= take;
    }
  }

  const Track& track_;
  int start_;
  Points partial_;
  const std::vector<LevelRun>& runs_;
  std::vector<std::array<int, kColours>> later_need_;
  std::array<Colour, kColours> order_{};
  std::unordered_map<std::uint64_t, std::pair<Value, Choice>> memo_;
};

}  // namespace

ObstacleOutcome best_on_obstacle(const Track& track, int cleared, const Points& partial,
                                 const Resources& res, const ColourRank& rank) {
  ObstacleOutcome out;
  const int n = static_cast<int>(track.size());
  cleared = std::clamp(cleared, 0, n);
  out.cleared_before = cleared;
  out.cleared_after = cleared;
  // Points beyond what the rest of the track could ever take are waste from the start (this
  // also keeps the programme's state small).
  Stock s;
  Points excess;
  std::array<int, kColours> colour_cap{};
  int any_cap = 0;
  for (int l = cleared; l < n; ++l) {
    const Level& lv = track[static_cast<std::size_t>(l)];
    any_cap += lv.any_n;
    for (Colour c : kAllColours) {
      colour_cap[static_cast<std::size_t>(c)] +=
          std::max(lv.colour == c ? lv.colour_n : 0, lv.any_n);
    }
  }
  for (Colour c : kAllColours) {
    const int have = std::max(0, res.points.of(c));
    s.pts.of(c) = std::min(have, colour_cap[static_cast<std::size_t>(c)]);
    excess.of(c) = have - s.pts.of(c);
  }
  s.pts.colourless = std::min(std::max(0, res.points.colourless), any_cap);
  excess.colourless = std::max(0, res.points.colourless) - s.pts.colourless;
  s.singles = std::min(std::max(0, res.singles), n - cleared);
  int extra_levels = std::max(0, res.singles) - s.singles;
  std::vector<LevelRun> runs;
  for (const LevelRun& r : res.runs) {
    if (r.count <= 0) continue;
    if (static_cast<int>(runs.size()) < kMaxRuns) {
      runs.push_back(r);
    } else {
      extra_levels += r.count;
    }
  }
  Programme prog(track, cleared, partial, runs, rank);
  Stock end;
  prog.solve(cleared, s);
  out.clears = prog.path(cleared, s, end);
  for (const LevelClear& lc : out.clears) {
    out.cleared_after += lc.how == LevelClear::How::Run ? lc.run_levels : 1;
    if (lc.how == LevelClear::How::Run) {
      out.wasted_levels += runs[static_cast<std::size_t>(lc.run)].count - lc.run_levels;
    }
  }
  out.leftover = end.pts;
  out.leftover += excess;
  out.wasted_levels += end.singles + extra_levels;
  for (int r = 0; r < static_cast<int>(runs.size()); ++r) {
    if ((end.used_runs >> r & 1U) == 0)
      out.wasted_levels += runs[static_cast<std::size_t>(r)].count;
  }
  out.defeated = n > 0 && out.cleared_after == n;
  return out;
}

ObstacleResult resolve_obstacle(const Track& track, int cleared, const Points& partial,
                                const std::vector<Contribution>& cards) {
  ObstacleResult r;
  Resources res;
  std::vector<int> run_card;  // run index → position in `cards`
  ColourRank rank{};
  for (Colour c : kAllColours)
    rank[static_cast<std::size_t>(c)] = 1000 + static_cast<int>(c);
  for (std::size_t i = 0; i < cards.size(); ++i) {
    const Contribution& k = cards[i];
    res.points += k.points;
    res.singles += k.singles;
    if (k.run.count > 0) {
      res.runs.push_back(k.run);
      run_card.push_back(static_cast<int>(i));
    }
    for (Colour c : kAllColours) {
      auto& rk = rank[static_cast<std::size_t>(c)];
      if (k.points.of(c) > 0) rk = std::min(rk, static_cast<int>(i));
    }
  }
  r.outcome = best_on_obstacle(track, cleared, partial, res, rank);

  // Hand each cleared level's points to the cards, earliest card first.
  std::vector<Points> left(cards.size());
  std::vector<int> singles_left(cards.size());
  std::vector<bool> run_used(cards.size(), false);
  for (std::size_t i = 0; i < cards.size(); ++i) {
    left[i] = cards[i].points;
    singles_left[i] = cards[i].singles;
  }
  const auto add = [&](int card, int level, const Points& p, int levels) {
    for (Placement& pl : r.placements) {
      if (pl.card == card && pl.level == level && levels == 0 && pl.levels == 0) {
        pl.points += p;
        return;
      }
    }
    r.placements.push_back(Placement{card, level, p, levels});
  };
  for (const LevelClear& lc : r.outcome.clears) {
    if (lc.how == LevelClear::How::Points) {
      for (std::size_t i = 0; i < cards.size(); ++i) {
        Points share;
        for (Colour c : kAllColours) {
          const int already = std::accumulate(
              r.placements.begin(), r.placements.end(), 0, [&](int acc, const Placement& pl) {
                return pl.level == lc.level ? acc + pl.points.of(c) : acc;
              });
          const int take = std::min(left[i].of(c), lc.used.of(c) - already);
          if (take > 0) share.of(c) = take;
        }
        const int already_cl = std::accumulate(
            r.placements.begin(), r.placements.end(), 0, [&](int acc, const Placement& pl) {
              return pl.level == lc.level ? acc + pl.points.colourless : acc;
            });
        share.colourless =
            std::max(0, std::min(left[i].colourless, lc.used.colourless - already_cl));
        if (share.empty()) continue;
        for (Colour c : kAllColours)
          left[i].of(c) -= share.of(c);
        left[i].colourless -= share.colourless;
        add(cards[i].card, lc.level, share, 0);
      }
    } else if (lc.how == LevelClear::How::Single) {
      for (std::size_t i = 0; i < cards.size(); ++i) {
        if (singles_left[i] > 0) {
          --singles_left[i];
          add(cards[i].card, lc.level, Points{}, 1);
          break;
        }
      }
    } else {
      const auto i = static_cast<std::size_t>(run_card[static_cast<std::size_t>(lc.run)]);
      run_used[i] = true;
      add(cards[i].card, lc.level, Points{}, lc.run_levels);
      if (lc.run_levels < cards[i].run.count) {
        r.wasted.push_back(
            Wasted{cards[i].card, Points{}, cards[i].run.count - lc.run_levels,
                   fmt::format("only {} level{} left for {} consecutive levels", lc.run_levels,
                               lc.run_levels == 1 ? " was" : "s were", cards[i].run.count)});
      }
    }
  }
  const int n = static_cast<int>(track.size());
  const int next = r.outcome.cleared_after;
  std::string why_points;
  if (r.outcome.defeated) {
    why_points = "the obstacle is already defeated";
  } else {
    const Level& lv = track[static_cast<std::size_t>(next)];
    why_points =
        lv.any_n > 0
            ? fmt::format("left short on level {} ({}): partial damage, erased at end of turn",
                          next + 1, describe(lv))
            : fmt::format("level {} needs {}; other points do nothing there", next + 1,
                          describe(lv));
  }
  for (std::size_t i = 0; i < cards.size(); ++i) {
    if (!left[i].empty()) r.wasted.push_back(Wasted{cards[i].card, left[i], 0, why_points});
    int levels = singles_left[i];
    if (cards[i].run.count > 0 && !run_used[i]) levels += cards[i].run.count;
    if (levels > 0) {
      std::string why =
          r.outcome.defeated ? why_points
          : cards[i].run.last_only && n - next > cards[i].run.count
              ? fmt::format("the obstacle is not down to its last {} levels", cards[i].run.count)
              : std::string("not needed");
      r.wasted.push_back(Wasted{cards[i].card, Points{}, levels, why});
    }
  }
  return r;
}

namespace {

struct MissingSearch {
  const Track& track;
  const Points& have;
  const std::vector<LevelRun>& runs;
  Missing best;
  bool found = false;

  void finish(const std::array<int, kColours>& need_c, int need_any) {
    Missing m;
    int pool = have.colourless;
    for (Colour c : kAllColours) {
      const auto i = static_cast<std::size_t>(c);
      m.points.of(c) = std::max(0, need_c[i] - have.of(c));
      pool += std::max(0, have.of(c) - need_c[i]);
    }
    m.points.colourless = std::max(0, need_any - pool);
    const auto key = [](const Missing& x) {
      return std::make_pair(x.points.total(), x.points.total() - x.points.colourless);
    };
    if (!found || key(m) < key(best)) {
      best = m;
      found = true;
    }
  }

  void go(int level, int singles, std::uint32_t used, std::array<int, kColours> need_c,
          int need_any) {
    const int n = static_cast<int>(track.size());
    if (level >= n) {
      finish(need_c, need_any);
      return;
    }
    const Level& lv = track[static_cast<std::size_t>(level)];
    if (lv.colour) {
      auto nc = need_c;
      nc[static_cast<std::size_t>(*lv.colour)] += lv.colour_n;
      go(level + 1, singles, used, nc, need_any);
    }
    if (lv.any_n > 0) go(level + 1, singles, used, need_c, need_any + lv.any_n);
    if (singles > 0) go(level + 1, singles - 1, used, need_c, need_any);
    std::vector<LevelRun> tried;
    for (int r = 0; r < static_cast<int>(runs.size()) && r < kMaxRuns; ++r) {
      const LevelRun& run = runs[static_cast<std::size_t>(r)];
      if ((used >> r & 1U) != 0 || std::find(tried.begin(), tried.end(), run) != tried.end()) {
        continue;
      }
      tried.push_back(run);
      if (run.last_only && n - level > run.count) continue;
      go(level + std::min(run.count, n - level), singles, used | 1U << r, need_c, need_any);
    }
  }
};

}  // namespace

Missing still_missing(const Track& track, int cleared, const Resources& held) {
  const int n = static_cast<int>(track.size());
  cleared = std::clamp(cleared, 0, n);
  MissingSearch search{track, held.points, held.runs, {}, false};
  search.go(cleared, std::min(std::max(held.singles, 0), n), 0, {}, 0);
  Missing m = search.best;
  m.levels_left = n - cleared;
  m.enough = m.points.total() == 0;
  if (m.levels_left == 0) {
    m.text = "already defeated";
  } else if (m.enough) {
    m.text = "enough to defeat it";
  } else {
    std::vector<std::string> parts;
    for (Colour c : kAllColours) {
      if (m.points.of(c) > 0) parts.push_back(fmt::format("{} {}", m.points.of(c), colour_name(c)));
    }
    if (m.points.colourless > 0) parts.push_back(fmt::format("{} any", m.points.colourless));
    m.text = fmt::format("needs {}", fmt::join(parts, " + "));
  }
  return m;
}

}  // namespace duels::cards::crossfire
