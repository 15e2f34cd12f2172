#include "cards/crossfire/allocate.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <bit>
#include <limits>
#include <map>
#include <optional>
#include <unordered_map>

namespace duels::cards::crossfire {

namespace {

constexpr int kMaxParts = 14;
constexpr int kMaxObstacles = 12;
constexpr int kDefeatWorth = 1000;
constexpr int kCriticalHarm = 10;
constexpr int kStaggerHarm = 3;

/// A piece of a card that goes to one obstacle: the box, or one single level.
struct Part {
  int card = 0;
  Points points;
  int singles = 0;
  LevelRun run;
  bool obstacle_only = false;
  [[nodiscard]] int size() const { return points.total() + singles + run.count; }
};

std::vector<Part> make_parts(const AllocInput& in) {
  std::vector<Part> parts;
  for (int i = 0; i < static_cast<int>(in.cards.size()); ++i) {
    const Bundle& b = in.cards[static_cast<std::size_t>(i)].bundle;
    Part box{i, b.points, 0, {}, b.obstacle_only};
    if (b.mode != LevelMode::Spread) box.run = LevelRun{b.levels, b.mode == LevelMode::Last};
    if (box.size() > 0) parts.push_back(box);
    if (b.mode == LevelMode::Spread) {
      for (int k = 0; k < b.levels; ++k)
        parts.push_back(Part{i, {}, 1, {}, b.obstacle_only});
    }
  }
  return parts;
}

/// Resources of a subset of parts in a compact form: points, singles, runs by kind.
struct Pooled {
  Points points;
  int singles = 0;
  std::array<std::uint8_t, 2 * kMaxLevelDamage> runs{};  ///< (count-1)*2 + last_only
};

/// Run kinds beyond the table (never made from bundles) share the last slot.
std::size_t run_kind(const LevelRun& r) {
  const int k = (std::clamp(r.count, 1, kMaxLevelDamage) - 1) * 2 + (r.last_only ? 1 : 0);
  return static_cast<std::size_t>(k);
}

Resources to_resources(const Pooled& p) {
  Resources r;
  r.points = p.points;
  r.singles = p.singles;
  for (std::size_t k = 0; k < p.runs.size(); ++k) {
    for (int i = 0; i < p.runs[k]; ++i)
      r.runs.push_back(LevelRun{static_cast<int>(k / 2) + 1, k % 2 == 1});
  }
  return r;
}

/// A 128-bit key of pooled resources (points ≤ 1000 each fit 10 bits; run counts ≤ 14 fit 4).
struct PoolKey {
  std::uint64_t lo = 0;
  std::uint64_t hi = 0;
  friend bool operator==(const PoolKey&, const PoolKey&) = default;
};
struct PoolKeyHash {
  std::size_t operator()(const PoolKey& k) const {
    return std::hash<std::uint64_t>()(k.lo * 0x9E3779B97F4A7C15ULL ^ k.hi);
  }
};
PoolKey pool_key(const Pooled& p) {
  PoolKey k;
  for (int c : p.points.coloured)
    k.lo = k.lo << 10 | static_cast<std::uint64_t>(c);
  k.lo = k.lo << 10 | static_cast<std::uint64_t>(p.points.colourless);
  k.lo = k.lo << 5 | static_cast<std::uint64_t>(p.singles);
  for (std::uint8_t r : p.runs)
    k.hi = k.hi << 4 | r;
  return k;
}

/// Mixed-radix packing of a score into one integer whose order is the lexicographic order
/// (each lower field's total stays below half its radix; check_input keeps it so).
constexpr long long kCardsRadix = 1LL << 5;
constexpr long long kWasteRadix = 1LL << 11;
constexpr long long kLevelsRadix = 1LL << 9;
constexpr long long kDefeatsRadix = 1LL << 25;
constexpr int kMaxDamageUnits = 1000;
constexpr int kMaxWeight = 100000;
constexpr int kMaxRunners = 8;

long long pack(const AllocScore& s) {
  return (((s.harm * kDefeatsRadix + s.defeats) * kLevelsRadix + s.levels) * kWasteRadix +
          s.waste) *
             kCardsRadix +
         s.cards;
}

/// A subset of parts worth placing beside an obstacle, with its packed gain.
struct Candidate {
  std::uint32_t subset = 0;
  long long packed = 0;
  bool defeated = false;
};

/// Value of one obstacle with a subset of parts: defeated, levels cleared, waste.
struct ObstacleValue {
  bool defeated = false;
  int levels = 0;
  int waste = 0;
};

/// Everything shared by the solver, the exhaustive search and the scorer.
class Context {
 public:
  explicit Context(const AllocInput& in) : in_(in), parts_(make_parts(in)) {
    const int o_count = static_cast<int>(in.obstacles.size());
    const int r_count = static_cast<int>(in.runners.size());
    faces_.assign(static_cast<std::size_t>(o_count), -1);
    for (int o = 0; o < o_count; ++o) {
      weights_.push_back(default_weight(in, o));
      const std::string& f = in.obstacles[static_cast<std::size_t>(o)].card.faces;
      for (int r = 0; r < r_count; ++r) {
        if (!f.empty() && in.runners[static_cast<std::size_t>(r)].name == f) {
          faces_[static_cast<std::size_t>(o)] = r;
        }
      }
    }
    // Groups: the attackers of each runner (their harm is shared), then every other obstacle.
    std::vector<bool> grouped(static_cast<std::size_t>(o_count), false);
    for (int r = 0; r < r_count; ++r) {
      std::vector<int> g;
      for (int o = 0; o < o_count; ++o) {
        if (faces_[static_cast<std::size_t>(o)] == r &&
            in.obstacles[static_cast<std::size_t>(o)].card.attack > 0) {
          g.push_back(o);
          grouped[static_cast<std::size_t>(o)] = true;
        }
      }
      if (!g.empty()) {
        groups_.push_back(g);
        group_runner_.push_back(r);
      }
    }
    for (int o = 0; o < o_count; ++o) {
      if (!grouped[static_cast<std::size_t>(o)]) {
        groups_.push_back({o});
        group_runner_.push_back(-1);
      }
    }
    for (int p = 0; p < static_cast<int>(parts_.size()); ++p) {
      const Part& part = parts_[static_cast<std::size_t>(p)];
      if (part.singles > 0) spread_of_card_[part.card] |= 1U << p;
    }
    banned_.assign(static_cast<std::size_t>(o_count), 0U);
    for (int o = 0; o < o_count; ++o) {
      if (!in.obstacles[static_cast<std::size_t>(o)].card.boss) continue;
      for (int p = 0; p < static_cast<int>(parts_.size()); ++p) {
        if (parts_[static_cast<std::size_t>(p)].obstacle_only) {
          banned_[static_cast<std::size_t>(o)] |= 1U << p;
        }
      }
    }
    cache_.resize(static_cast<std::size_t>(o_count));
    // Equivalence classes of identical parts, in part order.
    std::vector<std::uint32_t> previous_twin(parts_.size(), 0);  // bit of the part before, or 0
    for (std::size_t p = 0; p < parts_.size(); ++p) {
      for (std::size_t q = p; q-- > 0;) {
        if (same_part(parts_[p], parts_[q])) {
          previous_twin[p] = 1U << q;
          break;
        }
      }
    }
    canonical_.assign(std::size_t{1} << parts_.size(), true);
    for (std::size_t m = 0; m < canonical_.size(); ++m) {
      for (std::size_t p = 0; p < parts_.size(); ++p) {
        if ((m >> p & 1U) != 0 && previous_twin[p] != 0 && (m & previous_twin[p]) == 0) {
          canonical_[m] = false;
          break;
        }
      }
    }
    pooled_.resize(std::size_t{1} << parts_.size());
    for (std::size_t m = 1; m < pooled_.size(); ++m) {
      const int p = std::countr_zero(static_cast<std::uint32_t>(m));
      Pooled x = pooled_[m & (m - 1)];
      const Part& part = parts_[static_cast<std::size_t>(p)];
      x.points += part.points;
      x.singles += part.singles;
      if (part.run.count > 0) ++x.runs[run_kind(part.run)];
      pooled_[m] = x;
    }
  }

  [[nodiscard]] bool group_has_runner(std::size_t g) const { return group_runner_[g] >= 0; }

  /// Identical parts (a card's single levels, or equal cards used alike) are interchangeable:
  /// the solver only builds sets that use the first ones of each kind, which cuts the
  /// symmetric duplicates without losing any score.
  [[nodiscard]] bool canonical(std::uint32_t m) const { return canonical_[m]; }

  /// The subsets worth placing beside obstacle `o`: allowed, and every part in them helps
  /// (clears more, or wastes less than leaving it out). Any solution can drop the other parts
  /// without losing score, so the solver looks at these only.
  std::vector<Candidate> candidates(int o) {
    const std::size_t n = pooled_.size();
    std::vector<ObstacleValue> vals(n);
    std::vector<bool> ok(n, false);
    std::vector<Candidate> out;
    for (std::uint32_t s = 0; s < n; ++s) {
      if (!allowed(o, s)) continue;
      ok[s] = true;
      vals[s] = value(o, s, Evaluator::Programme);
      bool tight = true;
      for (std::uint32_t rest = s; rest != 0 && tight; rest &= rest - 1) {
        const int p = std::countr_zero(rest);
        const ObstacleValue& without = vals[s & ~(1U << p)];
        const int drop_waste = without.waste + parts_[static_cast<std::size_t>(p)].size();
        tight = vals[s].levels > without.levels ||
                (vals[s].levels == without.levels && vals[s].waste < drop_waste);
      }
      if (tight) out.push_back(Candidate{s, pack(gain(o, vals[s])), vals[s].defeated});
    }
    return out;
  }

  [[nodiscard]] const std::vector<Part>& parts() const { return parts_; }
  [[nodiscard]] const std::vector<std::vector<int>>& groups() const { return groups_; }
  [[nodiscard]] int weight(int o) const { return weights_[static_cast<std::size_t>(o)]; }

  /// Parts `s` may all go beside obstacle `o`.
  [[nodiscard]] bool allowed(int o, std::uint32_t s) const {
    if ((s & banned_[static_cast<std::size_t>(o)]) != 0) return false;
    for (const auto& [card, spread] : spread_of_card_) {
      if (std::popcount(s & spread) > 1) return false;
    }
    return true;
  }

  ObstacleValue value(int o, std::uint32_t s, Evaluator eval) {
    const AllocObstacle& ob = in_.obstacles[static_cast<std::size_t>(o)];
    auto& cache = cache_[static_cast<std::size_t>(o)][static_cast<int>(eval)];
    const PoolKey key = pool_key(pooled_[s]);
    if (auto it = cache.find(key); it != cache.end()) return it->second;
    const Resources res = to_resources(pooled_[s]);
    ObstacleValue v;
    const int n = static_cast<int>(ob.card.track.size());
    if (eval == Evaluator::Programme) {
      const ObstacleOutcome out = best_on_obstacle(ob.card.track, ob.card.cleared, ob.partial, res);
      v = ObstacleValue{out.defeated, out.levels_cleared(), out.waste()};
    } else {
      const auto [levels, waste] =
          enumerate_obstacle(ob.card.track, ob.card.cleared, ob.partial, res);
      v = ObstacleValue{n > 0 && std::clamp(ob.card.cleared, 0, n) + levels == n, levels, waste};
    }
    cache.emplace(key, v);
    return v;
  }

  AllocScore gain(int o, const ObstacleValue& v) const {
    AllocScore g;
    g.defeats = v.defeated ? weight(o) : 0;
    g.levels = v.levels;
    g.waste = -v.waste;
    return g;
  }

  /// Minus the harm to the runner of group `g` when the obstacles flagged in `defeated` (bit j
  /// for the group's j-th obstacle) are gone.
  [[nodiscard]] long long harm(std::size_t g, std::uint32_t defeated) const {
    const int r = group_runner_[g];
    if (r < 0) return 0;
    const AllocRunner& runner = in_.runners[static_cast<std::size_t>(r)];
    int packet = 0;
    for (std::size_t j = 0; j < groups_[g].size(); ++j) {
      if ((defeated >> j & 1U) == 0) {
        packet += in_.obstacles[static_cast<std::size_t>(groups_[g][j])].card.attack;
      }
    }
    if (packet <= 0) return 0;
    const long long urgency = static_cast<long long>(in_.runners.size()) - r;
    if (runner.staggered) return -kCriticalHarm * urgency;
    if (runner.hp - packet < 1) return -kStaggerHarm * urgency;
    return 0;
  }

  /// The part of the score that depends only on which parts are placed at all: played cards'
  /// parts left out are wasted, offered cards touched are spent (and their other parts wasted).
  [[nodiscard]] AllocScore placed_terms(std::uint32_t placed) const {
    AllocScore s;
    std::vector<bool> touched(in_.cards.size(), false);
    for (int p = 0; p < static_cast<int>(parts_.size()); ++p) {
      if ((placed >> p & 1U) != 0)
        touched[static_cast<std::size_t>(parts_[static_cast<std::size_t>(p)].card)] = true;
    }
    for (std::size_t c = 0; c < in_.cards.size(); ++c) {
      if (in_.cards[c].use == CardUse::Offered && touched[c]) --s.cards;
    }
    for (int p = 0; p < static_cast<int>(parts_.size()); ++p) {
      if ((placed >> p & 1U) != 0) continue;
      const Part& part = parts_[static_cast<std::size_t>(p)];
      const auto c = static_cast<std::size_t>(part.card);
      if (in_.cards[c].use == CardUse::Played || touched[c]) s.waste -= part.size();
    }
    return s;
  }

  /// The full score of per-obstacle part masks.
  AllocScore score(const std::vector<std::uint32_t>& masks, Evaluator eval) {
    AllocScore total;
    std::uint32_t placed = 0;
    std::vector<bool> defeated(masks.size(), false);
    for (std::size_t o = 0; o < masks.size(); ++o) {
      const ObstacleValue v = value(static_cast<int>(o), masks[o], eval);
      defeated[o] = v.defeated;
      total += gain(static_cast<int>(o), v);
      placed |= masks[o];
    }
    for (std::size_t g = 0; g < groups_.size(); ++g) {
      std::uint32_t d = 0;
      for (std::size_t j = 0; j < groups_[g].size(); ++j) {
        if (defeated[static_cast<std::size_t>(groups_[g][j])]) d |= 1U << j;
      }
      total.harm += harm(g, d);
    }
    total += placed_terms(placed);
    return total;
  }

 private:
  const AllocInput& in_;
  std::vector<Part> parts_;
  std::vector<int> weights_;
  std::vector<int> faces_;
  std::vector<std::vector<int>> groups_;
  std::vector<int> group_runner_;
  std::map<int, std::uint32_t> spread_of_card_;
  std::vector<std::uint32_t> banned_;
  [[nodiscard]] bool same_part(const Part& a, const Part& b) const {
    const AllocCard& ca = in_.cards[static_cast<std::size_t>(a.card)];
    const AllocCard& cb = in_.cards[static_cast<std::size_t>(b.card)];
    // Single levels of one card are alike. Across cards only boxes of equal cards are (single
    // levels of two cards differ: two of one card can't share an obstacle, one of each can).
    if (a.card == b.card) return a.singles > 0 && b.singles > 0;
    if (a.singles > 0 || b.singles > 0) return false;
    return ca.use == cb.use && ca.bundle.points == cb.bundle.points &&
           ca.bundle.levels == cb.bundle.levels && ca.bundle.mode == cb.bundle.mode &&
           ca.bundle.obstacle_only == cb.bundle.obstacle_only && a.points == b.points &&
           a.singles == b.singles && a.run == b.run && a.obstacle_only == b.obstacle_only;
  }

  std::vector<bool> canonical_;
  std::vector<Pooled> pooled_;
  std::vector<std::array<std::unordered_map<PoolKey, ObstacleValue, PoolKeyHash>, 2>> cache_;
};

std::string card_name(const AllocInput& in, int c) {
  const std::string& n = in.cards[static_cast<std::size_t>(c)].bundle.name;
  return n.empty() ? fmt::format("card {}", c + 1) : n;
}

/// Why a played part helps nowhere: too little to clear a level (and where it would be
/// partial), or nothing takes it at all.
std::string unplaced_reason(const AllocInput& in, const Part& part) {
  for (const AllocObstacle& o : in.obstacles) {
    const int n = static_cast<int>(o.card.track.size());
    if (o.card.cleared >= n || part.points.empty()) continue;
    const Level& next = o.card.track[static_cast<std::size_t>(o.card.cleared)];
    const bool counts = next.any_n > 0 || (next.colour && part.points.of(*next.colour) > 0);
    if (counts) {
      return fmt::format(
          "clears no level anywhere; beside {} it would only be partial on level "
          "{} ({}), erased at end of turn",
          o.card.name, o.card.cleared + 1, describe(next));
    }
  }
  return "no obstacle can use it";
}

/// Fills targets, placements, waste, kept cards and the explanation from per-obstacle masks.
void explain(const AllocInput& in, const Context& ctx, const std::vector<std::uint32_t>& masks,
             AllocResult& r) {
  const auto& parts = ctx.parts();
  const std::size_t o_count = in.obstacles.size();
  r.box_target.assign(in.cards.size(), -1);
  r.level_targets.assign(in.cards.size(), {});
  r.obstacles.assign(o_count, {});
  std::uint32_t placed = 0;
  for (std::size_t o = 0; o < o_count; ++o) {
    const AllocObstacle& ob = in.obstacles[o];
    ObstaclePlan& plan = r.obstacles[o];
    plan.weight = ctx.weight(static_cast<int>(o));
    std::map<int, Contribution> by_card;
    for (int p = 0; p < static_cast<int>(parts.size()); ++p) {
      if ((masks[o] >> p & 1U) == 0) continue;
      placed |= 1U << p;
      const Part& part = parts[static_cast<std::size_t>(p)];
      Contribution& c = by_card[part.card];
      c.card = part.card;
      c.points += part.points;
      c.singles += part.singles;
      if (part.run.count > 0) c.run = part.run;
      if (part.singles > 0) {
        r.level_targets[static_cast<std::size_t>(part.card)].push_back(static_cast<int>(o));
      } else {
        r.box_target[static_cast<std::size_t>(part.card)] = static_cast<int>(o);
      }
    }
    std::vector<Contribution> contributions;
    for (const auto& [card, c] : by_card) {
      contributions.push_back(c);
      plan.cards.push_back(card);
    }
    const ObstacleResult res =
        resolve_obstacle(ob.card.track, ob.card.cleared, ob.partial, contributions);
    plan.defeated = res.outcome.defeated;
    plan.cleared_before = res.outcome.cleared_before;
    plan.cleared_after = res.outcome.cleared_after;
    plan.placements = res.placements;
    for (const Wasted& w : res.wasted)
      r.wasted.push_back(w);
    if (contributions.empty()) continue;
    std::vector<std::string> level_lines;
    for (int level = plan.cleared_before; level < plan.cleared_after; ++level) {
      std::vector<std::string> who;
      for (const Placement& pl : plan.placements) {
        if (pl.level != level) continue;
        who.push_back(pl.levels > 0
                          ? fmt::format("{} ({} level{} of damage)", card_name(in, pl.card),
                                        pl.levels, pl.levels == 1 ? "" : "s")
                          : fmt::format("{} {}", card_name(in, pl.card), describe(pl.points)));
      }
      if (who.empty()) continue;  // inside a run of level damage
      level_lines.push_back(fmt::format("level {} ({}) ← {}", level + 1,
                                        describe(ob.card.track[static_cast<std::size_t>(level)]),
                                        fmt::join(who, ", ")));
    }
    r.lines.push_back(fmt::format(
        "{}: {}{}", ob.card.name,
        level_lines.empty() ? std::string("no level cleared")
                            : fmt::format("{}", fmt::join(level_lines, "; ")),
        plan.defeated
            ? " → DEFEATED"
            : fmt::format(" → {} of {} levels cleared", plan.cleared_after, ob.card.track.size())));
  }
  // Parts placed nowhere.
  std::vector<bool> touched(in.cards.size(), false);
  for (int p = 0; p < static_cast<int>(parts.size()); ++p) {
    if ((placed >> p & 1U) != 0)
      touched[static_cast<std::size_t>(parts[static_cast<std::size_t>(p)].card)] = true;
  }
  for (int p = 0; p < static_cast<int>(parts.size()); ++p) {
    if ((placed >> p & 1U) != 0) continue;
    const Part& part = parts[static_cast<std::size_t>(p)];
    const auto c = static_cast<std::size_t>(part.card);
    if (in.cards[c].use == CardUse::Offered && !touched[c]) continue;
    r.wasted.push_back(
        Wasted{part.card, part.points, part.singles + part.run.count, unplaced_reason(in, part)});
  }
  for (std::size_t c = 0; c < in.cards.size(); ++c) {
    if (in.cards[c].use == CardUse::Offered && !touched[c]) r.kept.push_back(static_cast<int>(c));
  }
  std::sort(r.wasted.begin(), r.wasted.end(),
            [](const Wasted& a, const Wasted& b) { return a.card < b.card; });
  for (const Wasted& w : r.wasted) {
    std::string what = w.points.empty() ? std::string() : describe(w.points);
    if (w.levels > 0) {
      what += fmt::format("{}{} level{} of damage", what.empty() ? "" : " + ", w.levels,
                          w.levels == 1 ? "" : "s");
    }
    r.lines.push_back(fmt::format("wasted: {} {} — {}", card_name(in, w.card), what, w.why));
  }
  for (int c : r.kept) {
    r.lines.push_back(fmt::format("keep {} in {}: not needed", card_name(in, c),
                                  in.cards[static_cast<std::size_t>(c)].owner.empty()
                                      ? std::string("hand")
                                      : in.cards[static_cast<std::size_t>(c)].owner + "'s hand"));
  }
}

/// Per-obstacle masks from targets (the inverse of explain's targets).
Expected<std::vector<std::uint32_t>, std::string> masks_from_targets(
    const AllocInput& in, const std::vector<Part>& parts, const std::vector<int>& box_target,
    const std::vector<std::vector<int>>& level_targets) {
  const int o_count = static_cast<int>(in.obstacles.size());
  std::vector<std::uint32_t> masks(static_cast<std::size_t>(o_count), 0U);
  std::vector<std::size_t> next_single(in.cards.size(), 0);
  for (int p = 0; p < static_cast<int>(parts.size()); ++p) {
    const Part& part = parts[static_cast<std::size_t>(p)];
    const auto c = static_cast<std::size_t>(part.card);
    int o = -1;
    if (part.singles > 0) {
      if (c < level_targets.size() && next_single[c] < level_targets[c].size()) {
        o = level_targets[c][next_single[c]++];
      }
    } else if (c < box_target.size()) {
      o = box_target[c];
    }
    if (o >= o_count) return fmt::format("obstacle {} does not exist", o);
    if (o >= 0) masks[static_cast<std::size_t>(o)] |= 1U << p;
  }
  return masks;
}

}  // namespace

AllocScore& AllocScore::operator+=(const AllocScore& o) {
  harm += o.harm;
  defeats += o.defeats;
  levels += o.levels;
  waste += o.waste;
  cards += o.cards;
  return *this;
}

int default_weight(const AllocInput& in, int o) {
  const ObstacleCard& c = in.obstacles[static_cast<std::size_t>(o)].card;
  if (c.weight) return *c.weight;
  int urgency = 1;
  const int r_count = static_cast<int>(in.runners.size());
  for (int r = 0; r < r_count; ++r) {
    if (!c.faces.empty() && in.runners[static_cast<std::size_t>(r)].name == c.faces) {
      urgency = r_count - r;
    }
  }
  return kDefeatWorth + 10 * c.threat + c.nuyen + c.attack * urgency;
}

std::optional<std::string> check_input(const AllocInput& in) {
  if (in.obstacles.empty()) return std::string("no obstacle to damage");
  if (static_cast<int>(in.obstacles.size()) > kMaxObstacles) {
    return fmt::format("at most {} obstacles", kMaxObstacles);
  }
  for (const AllocObstacle& o : in.obstacles) {
    if (o.card.track.empty()) return fmt::format("{} has an empty track", o.card.name);
    if (static_cast<int>(o.card.track.size()) > kMaxLevels) {
      return fmt::format("{}: at most {} levels", o.card.name, kMaxLevels);
    }
    if (o.card.cleared < 0 || o.card.cleared > static_cast<int>(o.card.track.size())) {
      return fmt::format("{}: cleared levels must be 0 to {}", o.card.name, o.card.track.size());
    }
    if (!o.card.faces.empty() && !in.runners.empty() &&
        std::none_of(in.runners.begin(), in.runners.end(),
                     [&](const AllocRunner& r) { return r.name == o.card.faces; })) {
      return fmt::format("{} faces '{}', who is not among the runners", o.card.name, o.card.faces);
    }
  }
  if (static_cast<int>(in.runners.size()) > kMaxRunners) {
    return fmt::format("at most {} runners", kMaxRunners);
  }
  int units = 0;
  for (const AllocCard& c : in.cards)
    units += c.bundle.points.total() + c.bundle.levels;
  if (units > kMaxDamageUnits) {
    return fmt::format("at most {} points and levels of damage at once", kMaxDamageUnits);
  }
  for (const AllocObstacle& o : in.obstacles) {
    if (o.card.weight && (*o.card.weight < 0 || *o.card.weight > kMaxWeight)) {
      return fmt::format("{}: a weight from 0 to {}", o.card.name, kMaxWeight);
    }
  }
  if (static_cast<int>(make_parts(in).size()) > kMaxParts) {
    return fmt::format(
        "too many cards: at most {} parts (each card's box, and each single level of "
        "levels:N) at once",
        kMaxParts);
  }
  return std::nullopt;
}

Expected<AllocResult, std::string> allocate(const AllocInput& in) {
  if (auto bad = check_input(in)) return *bad;
  Context ctx(in);
  const auto& parts = ctx.parts();
  const int p_count = static_cast<int>(parts.size());
  const std::uint32_t full = (1U << p_count) - 1;
  const std::size_t masks = std::size_t{1} << p_count;
  constexpr long long kNone = std::numeric_limits<long long>::min();

  // F[m]: best packed score of the groups done so far using exactly parts m.
  std::vector<long long> f(masks, kNone);
  f[0] = 0;
  // Back-pointers per group: for each obstacle step, the subset chosen and the previous d.
  struct Step {
    std::vector<std::uint32_t> subset;
    std::vector<std::uint8_t> prev_d;
  };
  std::vector<std::vector<Step>> steps(ctx.groups().size());
  std::vector<std::vector<std::uint8_t>> best_d(ctx.groups().size());

  for (std::size_t g = 0; g < ctx.groups().size(); ++g) {
    const auto& group = ctx.groups()[g];
    const std::size_t k = group.size();
    // The defeated set of the group matters only for a runner's harm.
    const bool track_d = ctx.group_has_runner(g);
    const std::size_t dn = track_d ? std::size_t{1} << k : 1;
    std::vector<long long> h(masks * dn, kNone);
    for (std::size_t m = 0; m < masks; ++m)
      h[m * dn] = f[m];
    for (std::size_t j = 0; j < k; ++j) {
      const std::vector<Candidate> cands = ctx.candidates(group[j]);
      std::vector<long long> h2(masks * dn, kNone);
      Step step{std::vector<std::uint32_t>(masks * dn, 0),
                std::vector<std::uint8_t>(masks * dn, 0)};
      const std::size_t bit = track_d ? std::size_t{1} << j : 0;
      for (std::uint32_t m = 0; m <= full; ++m) {
        for (std::size_t d = 0; d < dn; ++d) {
          const long long base = h[m * dn + d];
          if (base == kNone) continue;
          for (const Candidate& c : cands) {
            if ((c.subset & m) != 0 || !ctx.canonical(m | c.subset)) continue;
            const long long sc = base + c.packed;
            const std::size_t at = (m | c.subset) * dn + (c.defeated ? d | bit : d);
            if (h2[at] == kNone || h2[at] < sc) {
              h2[at] = sc;
              step.subset[at] = c.subset;
              step.prev_d[at] = static_cast<std::uint8_t>(d);
            }
          }
        }
        if (m == full) break;
      }
      h = std::move(h2);
      steps[g].push_back(std::move(step));
    }
    best_d[g].assign(masks, 0);
    std::fill(f.begin(), f.end(), kNone);
    for (std::size_t m = 0; m < masks; ++m) {
      for (std::size_t d = 0; d < dn; ++d) {
        if (h[m * dn + d] == kNone) continue;
        const long long sc =
            h[m * dn + d] +
            pack(AllocScore{ctx.harm(g, static_cast<std::uint32_t>(d)), 0, 0, 0, 0});
        if (f[m] == kNone || f[m] < sc) {
          f[m] = sc;
          best_d[g][m] = static_cast<std::uint8_t>(d);
        }
      }
    }
  }

  std::uint32_t best_m = 0;
  long long best = kNone;
  for (std::uint32_t m = 0; m <= full; ++m) {
    if (f[m] != kNone) {
      const long long sc = f[m] + pack(ctx.placed_terms(m));
      if (best == kNone || best < sc) {
        best = sc;
        best_m = m;
      }
    }
    if (m == full) break;
  }

  // Walk the back-pointers.
  std::vector<std::uint32_t> obstacle_mask(in.obstacles.size(), 0U);
  std::uint32_t m = best_m;
  for (std::size_t g = ctx.groups().size(); g-- > 0;) {
    const auto& group = ctx.groups()[g];
    const std::size_t dn = ctx.group_has_runner(g) ? std::size_t{1} << group.size() : 1;
    std::size_t d = best_d[g][m];
    for (std::size_t j = group.size(); j-- > 0;) {
      const Step& step = steps[g][j];
      const std::uint32_t s = step.subset[m * dn + d];
      const std::size_t prev = step.prev_d[m * dn + d];
      obstacle_mask[static_cast<std::size_t>(group[j])] = s;
      m &= ~s;
      d = prev;
    }
  }

  AllocResult r;
  r.score = ctx.score(obstacle_mask, Evaluator::Programme);
  explain(in, ctx, obstacle_mask, r);
  return r;
}

Expected<AllocResult, std::string> allocate_exhaustive(const AllocInput& in, Evaluator eval) {
  if (auto bad = check_input(in)) return *bad;
  Context ctx(in);
  const int p_count = static_cast<int>(ctx.parts().size());
  const int o_count = static_cast<int>(in.obstacles.size());
  std::vector<int> to(static_cast<std::size_t>(p_count), -1);
  std::vector<std::uint32_t> best_masks;
  AllocScore best;
  bool have = false;
  while (true) {
    std::vector<std::uint32_t> masks(static_cast<std::size_t>(o_count), 0U);
    for (int p = 0; p < p_count; ++p) {
      if (to[static_cast<std::size_t>(p)] >= 0) {
        masks[static_cast<std::size_t>(to[static_cast<std::size_t>(p)])] |= 1U << p;
      }
    }
    bool ok = true;
    for (int o = 0; o < o_count && ok; ++o)
      ok = ctx.allowed(o, masks[static_cast<std::size_t>(o)]);
    if (ok) {
      const AllocScore sc = ctx.score(masks, eval);
      if (!have || best < sc) {
        best = sc;
        best_masks = masks;
        have = true;
      }
    }
    int p = 0;
    while (p < p_count && ++to[static_cast<std::size_t>(p)] == o_count) {
      to[static_cast<std::size_t>(p)] = -1;
      ++p;
    }
    if (p == p_count) break;
  }
  AllocResult r;
  r.score = best;
  r.box_target.assign(in.cards.size(), -1);
  r.level_targets.assign(in.cards.size(), {});
  for (int o = 0; o < o_count; ++o) {
    for (int p = 0; p < p_count; ++p) {
      if ((best_masks[static_cast<std::size_t>(o)] >> p & 1U) == 0) continue;
      const Part& part = ctx.parts()[static_cast<std::size_t>(p)];
      if (part.singles > 0) {
        r.level_targets[static_cast<std::size_t>(part.card)].push_back(o);
      } else {
        r.box_target[static_cast<std::size_t>(part.card)] = o;
      }
    }
  }
  return r;
}

Expected<AllocScore, std::string> score_targets(const AllocInput& in,
                                                const std::vector<int>& box_target,
                                                const std::vector<std::vector<int>>& level_targets,
                                                Evaluator eval) {
  if (auto bad = check_input(in)) return *bad;
  Context ctx(in);
  auto masks = masks_from_targets(in, ctx.parts(), box_target, level_targets);
  if (!masks) return masks.error();
  for (std::size_t o = 0; o < masks->size(); ++o) {
    if (!ctx.allowed(static_cast<int>(o), (*masks)[o])) {
      return fmt::format(
          "the cards beside {} break a rule (two single levels of one card, or an "
          "obstacle-only card on a boss)",
          in.obstacles[o].card.name);
    }
  }
  return ctx.score(*masks, eval);
}

namespace {

/// One unit of damage for the enumeration: a point of a kind, a single level, or a run.
struct Unit {
  int kind = 0;  ///< 0..3 colours, 4 colourless, 5 single, 6 run
  LevelRun run;
};

struct Enumeration {
  const Track& track;
  int start;
  const Points& partial;
  std::vector<Unit> units;
  std::vector<int> at;  // unit → level or -1
  int total = 0;        // size of all units
  std::pair<int, int> best{-1, 0};

  void leaf() {
    const int n = static_cast<int>(track.size());
    int pos = start;
    int consumed = 0;
    for (int i = start; i < n; ++i) {
      if (i < pos) continue;
      Points pts;
      int singles = 0;
      const Unit* run = nullptr;
      for (std::size_t u = 0; u < units.size(); ++u) {
        if (at[u] != i) continue;
        const Unit& un = units[u];
        if (un.kind < 4) ++pts.coloured[static_cast<std::size_t>(un.kind)];
        if (un.kind == 4) ++pts.colourless;
        if (un.kind == 5) ++singles;
        if (un.kind == 6 && run == nullptr && (!un.run.last_only || n - i <= un.run.count)) {
          run = &un;
        }
      }
      const Level& lv = track[static_cast<std::size_t>(i)];
      const bool first = i == start;
      if (run != nullptr) {
        const int k = std::min(run->run.count, n - i);
        pos = i + k;
        consumed += k;
        continue;
      }
      if (singles > 0) {
        pos = i + 1;
        consumed += 1;
        continue;
      }
      // Points meeting a requirement all count as spent (the larger one when both are met).
      int need = -1;
      if (lv.colour) {
        const int c_need = std::max(0, lv.colour_n - (first ? partial.of(*lv.colour) : 0));
        if (pts.of(*lv.colour) >= c_need) need = c_need;
      }
      if (lv.any_n > 0) {
        const int a_need = std::max(0, lv.any_n - (first ? partial.total() : 0));
        if (pts.total() >= a_need) need = std::max(need, a_need);
      }
      if (need < 0) break;
      consumed += need;
      pos = i + 1;
    }
    const std::pair<int, int> v{pos - start, total - consumed};
    if (v.first > best.first || (v.first == best.first && v.second < best.second)) best = v;
  }

  void go(std::size_t u) {
    if (u == units.size()) {
      leaf();
      return;
    }
    const int n = static_cast<int>(track.size());
    // Identical units take non-decreasing levels (their order does not matter).
    int from = -1;
    if (u > 0 && units[u].kind == units[u - 1].kind && units[u].kind < 6) from = at[u - 1];
    for (int l = from; l < n; ++l) {
      if (l >= 0 && l < start) continue;
      at[u] = l;
      go(u + 1);
    }
  }
};

}  // namespace

std::pair<int, int> enumerate_obstacle(const Track& track, int cleared, const Points& partial,
                                       const Resources& res) {
  const int n = static_cast<int>(track.size());
  Enumeration e{track, std::clamp(cleared, 0, n), partial, {}, {}, 0, {-1, 0}};
  for (int c = 0; c < kColours; ++c) {
    for (int k = 0; k < res.points.coloured[static_cast<std::size_t>(c)]; ++k)
      e.units.push_back(Unit{c, {}});
  }
  for (int k = 0; k < res.points.colourless; ++k)
    e.units.push_back(Unit{4, {}});
  for (int k = 0; k < res.singles; ++k)
    e.units.push_back(Unit{5, {}});
  for (const LevelRun& r : res.runs)
    e.units.push_back(Unit{6, r});
  e.total = res.points.total() + res.singles;
  for (const LevelRun& r : res.runs)
    e.total += r.count;
  e.at.assign(e.units.size(), -1);
  e.go(0);
  return e.best;
}

}  // namespace duels::cards::crossfire
