#include "duels/odds.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <stdexcept>
#include <unordered_map>

#include "dice/distribution.hpp"

namespace duels {

double OddsResult::p_effect(AceEffect e) const {
  auto it = effect.find(e);
  return it == effect.end() ? 0.0 : ratio(it->second);
}

double OddsResult::expected_clicks() const {
  double m = 0;
  for (std::size_t k = 0; k < clicks.size(); ++k)
    m += static_cast<double>(k) * ratio(clicks[k]);
  return m;
}

namespace {

// Outcome of the attack dice once Bad Karma and aces are settled: which dice survive (add to the
// sum), which are aces, and the sum of the survivors. Everything after step G depends only on
// these, so the DP counts outcomes per (survivors, aces, sum).
struct MaskKey {
  std::uint32_t assigned;
  std::uint32_t survivors;
  std::uint32_t aces;
  bool operator==(const MaskKey&) const = default;
};
struct MaskKeyHash {
  std::size_t operator()(const MaskKey& k) const {
    return (static_cast<std::size_t>(k.assigned) * 0x9E3779B1U) ^ (k.survivors << 10U) ^
           (k.aces << 20U);
  }
};

// Sum-count arrays are kept as [lo, lo+size) windows to skip zeros.
struct SumCounts {
  int lo = 0;
  std::vector<std::uint64_t> c;
  void add_shifted(const SumCounts& other, int shift) {
    if (other.c.empty()) return;
    const int olo = other.lo + shift;
    const int ohi = olo + static_cast<int>(other.c.size());
    if (c.empty()) {
      lo = olo;
      c.assign(other.c.size(), 0);
    }
    int hi = lo + static_cast<int>(c.size());
    if (olo < lo) {
      c.insert(c.begin(), static_cast<std::size_t>(lo - olo), 0);
      lo = olo;
    }
    if (ohi > hi) {
      c.resize(c.size() + static_cast<std::size_t>(ohi - hi), 0);
      hi = ohi;
    }
    std::uint64_t* dst = c.data() + (olo - lo);
    const std::uint64_t* src = other.c.data();
    for (std::size_t i = 0; i < other.c.size(); ++i)
      dst[i] += src[i];
  }
};

using Layer = std::unordered_map<MaskKey, SumCounts, MaskKeyHash>;

// Clicks and effects for a hit with these survivors and aces (independent of the sum).
struct HitOutcome {
  int clicks = 0;
  std::array<bool, 4> effect{};
};

HitOutcome hit_outcome(const OddsQuery& q, std::uint32_t survivors, std::uint32_t aces) {
  std::array<int, dice::kColourCount> shields{};
  for (dice::Colour c : q.shields)
    ++shields[static_cast<int>(c)];
  HitOutcome out;
  int best_bonus = 0;
  auto consider_bonus = [&](dice::Colour c) {
    if (auto it = q.bonus.find(c); it != q.bonus.end())
      best_bonus = std::max(best_bonus, it->second);
  };
  for (std::size_t i = 0; i < q.attack.size(); ++i) {
    const dice::Colour c = q.attack[i].colour;
    if ((survivors >> i) & 1U) {
      if (shields[static_cast<int>(c)] > 0) {
        --shields[static_cast<int>(c)];
      } else {
        ++out.clicks;
        consider_bonus(c);
      }
    } else if ((aces >> i) & 1U) {
      ++out.clicks;
      consider_bonus(c);
      if (auto e = ace_effect_of(c)) {
        out.effect[static_cast<int>(*e)] = true;
        if (*e == AceEffect::MajorMojo) ++out.clicks;
      }
    }
  }
  out.clicks += best_bonus;
  return out;
}

void check_query(const OddsQuery& q) {
  if (q.attack.size() > kMaxOddsAttackDice || q.dodge.size() > kMaxOddsDodgeDice) {
    throw std::invalid_argument("too many dice for exact odds");
  }
}

void add_hits(OddsResult& r, const HitOutcome& h, std::uint64_t n) {
  if (n == 0) return;
  r.hit += n;
  if (r.clicks.size() <= static_cast<std::size_t>(h.clicks)) {
    r.clicks.resize(static_cast<std::size_t>(h.clicks) + 1, 0);
  }
  r.clicks[static_cast<std::size_t>(h.clicks)] += n;
  for (int e = 0; e < 4; ++e) {
    if (h.effect[static_cast<std::size_t>(e)]) r.effect[static_cast<AceEffect>(e)] += n;
  }
}

}  // namespace

namespace {

// Dense DP layer for up to kDenseDice attack dice: each die is unassigned (0), a survivor (1),
// an ace (2) or removed by Bad Karma (3), two bits per die, and each state holds outcome counts
// per survivor sum in a fixed-width row with a [lo, hi] window of non-zero entries.
constexpr std::uint32_t kDenseDice = 6;

struct DenseLayer {
  int width = 0;  // sums 0..width-1
  std::vector<std::uint64_t> counts;
  std::vector<std::int16_t> lo, hi;
  std::vector<std::uint32_t> active;
  std::vector<char> is_active;

  DenseLayer(std::uint32_t n, int w)
      : width(w),
        counts((std::size_t{1} << (2 * n)) * static_cast<std::size_t>(w), 0),
        lo(std::size_t{1} << (2 * n), 0),
        hi(std::size_t{1} << (2 * n), -1),
        is_active(std::size_t{1} << (2 * n), 0) {}

  std::uint64_t* row(std::uint32_t state) {
    return counts.data() + static_cast<std::size_t>(state) * static_cast<std::size_t>(width);
  }
  void add(std::uint32_t state, const std::uint64_t* src, int src_lo, int src_hi, int shift) {
    if (!is_active[state]) {
      is_active[state] = 1;
      active.push_back(state);
      lo[state] = static_cast<std::int16_t>(src_lo + shift);
      hi[state] = static_cast<std::int16_t>(src_hi + shift);
    } else {
      lo[state] = static_cast<std::int16_t>(std::min<int>(lo[state], src_lo + shift));
      hi[state] = static_cast<std::int16_t>(std::max<int>(hi[state], src_hi + shift));
    }
    std::uint64_t* dst = row(state) + shift;
    for (int i = src_lo; i <= src_hi; ++i)
      dst[i] += src[i];
  }
  void clear() {
    for (std::uint32_t s : active) {
      std::fill_n(row(s) + lo[s], hi[s] - lo[s] + 1, 0);
      is_active[s] = 0;
      hi[s] = -1;
    }
    active.clear();
  }
};

// Calls emit(survivors, aces, counts-per-sum lo..hi) for every final state of the attack dice.
template <class Emit>
void attack_states_dense(const OddsQuery& q, Emit&& emit) {
  const auto n = static_cast<std::uint32_t>(q.attack.size());
  int max_sides = 1;
  int width = 1;
  for (const auto& d : q.attack) {
    max_sides = std::max(max_sides, d.sides);
    width += d.sides;
  }
  DenseLayer cur(n, width);
  DenseLayer next(n, width);
  const std::uint64_t one = 1;
  cur.add(0, &one, 0, 0, 0);
  for (int v = 1; v <= max_sides; ++v) {
    std::uint32_t can_show = 0;
    for (std::uint32_t i = 0; i < n; ++i) {
      if (q.attack[i].sides >= v) can_show |= 1U << i;
    }
    for (std::uint32_t state : cur.active) {
      std::uint32_t assigned = 0;
      for (std::uint32_t i = 0; i < n; ++i) {
        if ((state >> (2 * i)) & 3U) assigned |= 1U << i;
      }
      const std::uint32_t open = can_show & ~assigned;
      const std::uint64_t* src = cur.row(state);
      const int src_lo = cur.lo[state];
      const int src_hi = cur.hi[state];
      std::uint32_t t = open;
      while (true) {
        std::uint32_t code = state;
        int shift = 0;
        std::uint32_t plain = t;
        if (v == 1) {
          for (std::uint32_t i = 0; i < n; ++i) {
            if (((t >> i) & 1U) && q.attack[i].ace) {
              code |= 2U << (2 * i);
              plain &= ~(1U << i);
            }
          }
        }
        if (std::popcount(plain) == 1) {
          code |= 1U << (2 * static_cast<std::uint32_t>(std::countr_zero(plain)));
          shift = v;
        } else {
          for (std::uint32_t i = 0; i < n; ++i) {
            if ((plain >> i) & 1U) code |= 3U << (2 * i);
          }
        }
        next.add(code, src, src_lo, src_hi, shift);
        if (t == 0) break;
        t = (t - 1) & open;
      }
    }
    cur.clear();
    std::swap(cur, next);
  }
  for (std::uint32_t state : cur.active) {
    std::uint32_t survivors = 0;
    std::uint32_t aces = 0;
    bool complete = true;
    for (std::uint32_t i = 0; i < n; ++i) {
      const std::uint32_t s = (state >> (2 * i)) & 3U;
      complete = complete && s != 0;
      if (s == 1) survivors |= 1U << i;
      if (s == 2) aces |= 1U << i;
    }
    if (complete)
      emit(survivors, aces, cur.row(state) + cur.lo[state], cur.lo[state], cur.hi[state]);
  }
}

// The same DP with a hash map, for the rarer larger pools (7–8 dice).
template <class Emit>
void attack_states_sparse(const OddsQuery& q, Emit&& emit) {
  const auto n = static_cast<std::uint32_t>(q.attack.size());
  const std::uint32_t full = (1U << n) - 1U;
  int max_sides = 1;
  for (const auto& d : q.attack)
    max_sides = std::max(max_sides, d.sides);
  Layer layer;
  layer[MaskKey{0, 0, 0}] = SumCounts{0, {1}};
  for (int v = 1; v <= max_sides; ++v) {
    std::uint32_t can_show = 0;
    for (std::uint32_t i = 0; i < n; ++i) {
      if (q.attack[i].sides >= v) can_show |= 1U << i;
    }
    Layer next;
    next.reserve(layer.size() * 2);
    for (const auto& [key, sums] : layer) {
      const std::uint32_t open = can_show & ~key.assigned;
      std::uint32_t t = open;
      while (true) {
        MaskKey k = key;
        k.assigned |= t;
        int shift = 0;
        std::uint32_t plain = t;
        if (v == 1) {
          for (std::uint32_t i = 0; i < n; ++i) {
            if (((t >> i) & 1U) && q.attack[i].ace) {
              k.aces |= 1U << i;
              plain &= ~(1U << i);
            }
          }
        }
        if (std::popcount(plain) == 1) {
          k.survivors |= plain;
          shift = v;
        }
        next[k].add_shifted(sums, shift);
        if (t == 0) break;
        t = (t - 1) & open;
      }
    }
    layer = std::move(next);
  }
  for (const auto& [key, sums] : layer) {
    if (key.assigned == full && !sums.c.empty()) {
      emit(key.survivors, key.aces, sums.c.data(), sums.lo,
           sums.lo + static_cast<int>(sums.c.size()) - 1);
    }
  }
}

/// How many dodge rolls total at most x: a plain sum, folded in through its cumulative counts.
class DodgeCounts {
 public:
  explicit DodgeCounts(const dice::Distribution& dodge)
      : dodge_(dodge), cum_(dice::cumulative(dodge)) {}
  std::uint64_t operator()(int x) const {
    if (x < dodge_.min()) return 0;
    if (x >= dodge_.max()) return dodge_.total;
    return cum_[static_cast<std::size_t>(x - dodge_.offset)];
  }

 private:
  const dice::Distribution& dodge_;
  std::vector<std::uint64_t> cum_;
};

}  // namespace

OddsResult attack_odds(const OddsQuery& q) {
  check_query(q);
  // Dodge: a plain sum, folded in through its cumulative counts.
  const dice::Distribution dodge = dice::sum_of(q.dodge);
  const DodgeCounts dodge_at_most(dodge);

  OddsResult r;
  std::uint64_t attack_total = 1;
  for (const auto& d : q.attack)
    attack_total *= static_cast<std::uint64_t>(d.sides);
  r.total = attack_total * dodge.total;
  r.clicks.assign(1, 0);
  // by_sum[s - lo] = outcomes of these survivors and aces whose survivors sum to s.
  auto emit = [&](std::uint32_t survivors, std::uint32_t aces, const std::uint64_t* by_sum, int lo,
                  int hi) {
    if ((survivors | aces) == 0) return;  // every die lost to Bad Karma: a miss
    std::uint64_t hits = 0;
    for (int s = lo; s <= hi; ++s) {
      // Hit iff weapon + s ≥ body + dodge, i.e. dodge ≤ weapon + s − body.
      const std::uint64_t n = by_sum[s - lo];
      if (n != 0) hits += n * dodge_at_most(q.weapon + s - q.body);
    }
    if (hits != 0) add_hits(r, hit_outcome(q, survivors, aces), hits);
  };
  if (q.attack.size() <= kDenseDice) {
    attack_states_dense(q, emit);
  } else {
    attack_states_sparse(q, emit);
  }
  r.clicks[0] += r.total - r.hit;
  return r;
}

AttackSide::AttackSide(const OddsQuery& q) : weapon_(q.weapon), body_(q.body) {
  if (q.attack.size() > kMaxOddsAttackDice)
    throw std::invalid_argument("too many dice for exact odds");
  for (const auto& d : q.attack)
    attack_total_ *= static_cast<std::uint64_t>(d.sides);
  auto keep = [&](std::uint32_t survivors, std::uint32_t aces, const std::uint64_t* by_sum, int lo,
                  int hi) {
    if ((survivors | aces) == 0) return;  // every die lost to Bad Karma: a miss
    const HitOutcome h = hit_outcome(q, survivors, aces);
    outcomes_.push_back(
        {lo, std::vector<std::uint64_t>(by_sum, by_sum + (hi - lo + 1)), h.clicks, h.effect});
  };
  if (q.attack.size() <= kDenseDice) {
    attack_states_dense(q, keep);
  } else {
    attack_states_sparse(q, keep);
  }
}

OddsResult AttackSide::against(const std::vector<dice::Die>& dodge_dice) const {
  if (dodge_dice.size() > kMaxOddsDodgeDice)
    throw std::invalid_argument("too many dice for exact odds");
  // What attack_odds does with each final state of the attack dice, in the same order.
  const dice::Distribution dodge = dice::sum_of(dodge_dice);
  const DodgeCounts dodge_at_most(dodge);
  OddsResult r;
  r.total = attack_total_ * dodge.total;
  r.clicks.assign(1, 0);
  for (const Outcome& o : outcomes_) {
    std::uint64_t hits = 0;
    const int hi = o.lo + static_cast<int>(o.by_sum.size()) - 1;
    for (int s = o.lo; s <= hi; ++s) {
      const std::uint64_t n = o.by_sum[static_cast<std::size_t>(s - o.lo)];
      if (n != 0) hits += n * dodge_at_most(weapon_ + s - body_);
    }
    if (hits != 0) add_hits(r, HitOutcome{o.clicks, o.effect}, hits);
  }
  r.clicks[0] += r.total - r.hit;
  return r;
}

OddsResult attack_odds_enumerated(const OddsQuery& q) {
  OddsResult r;
  r.clicks.assign(1, 0);
  AttackInput in;
  in.weapon = q.weapon;
  in.body = q.body;
  in.shields = q.shields;
  in.bonus = q.bonus;
  for (const auto& d : q.attack)
    in.attack.push_back({d, 1});
  for (const auto& d : q.dodge)
    in.dodge.push_back({d, 1});
  r.total = 1;
  for (const auto& roll : in.attack)
    r.total *= static_cast<std::uint64_t>(roll.die.sides);
  for (const auto& roll : in.dodge)
    r.total *= static_cast<std::uint64_t>(roll.die.sides);
  // Odometer over every face of every die.
  std::vector<dice::Roll*> all;
  for (auto& roll : in.attack)
    all.push_back(&roll);
  for (auto& roll : in.dodge)
    all.push_back(&roll);
  while (true) {
    const AttackResult res = resolve_attack(in);
    if (res.hit) {
      HitOutcome h;
      h.clicks = res.clicks;
      for (AceEffect e : res.ace_effects)
        h.effect[static_cast<int>(e)] = true;
      add_hits(r, h, 1);
    }
    std::size_t i = 0;
    while (i < all.size() && all[i]->face == all[i]->die.sides)
      all[i++]->face = 1;
    if (i == all.size()) break;
    ++all[i]->face;
  }
  r.clicks[0] += r.total - r.hit;
  return r;
}

namespace {
std::vector<std::vector<int>> subsets(std::size_t n, bool include_empty) {
  std::vector<std::vector<int>> out;
  for (std::uint32_t m = include_empty ? 0U : 1U; m < (1U << n); ++m) {
    std::vector<int> s;
    for (std::size_t i = 0; i < n; ++i) {
      if ((m >> i) & 1U) s.push_back(static_cast<int>(i));
    }
    out.push_back(std::move(s));
  }
  return out;
}

template <class T>
std::vector<T> pick(const std::vector<T>& from, const std::vector<int>& idx) {
  std::vector<T> out;
  for (int i : idx)
    out.push_back(from[static_cast<std::size_t>(i)]);
  return out;
}
}  // namespace

std::vector<Advice> advise_attacks(const OddsQuery& base, const std::vector<dice::Die>& offered,
                                   const std::vector<dice::Die>& dodge_offered,
                                   SubsetFilter attack_filter, SubsetFilter dodge_filter,
                                   const void* context) {
  std::vector<Advice> out;
  const auto dodge_sets = subsets(std::min<std::size_t>(dodge_offered.size(), 12), true);
  for (const auto& attack_idx : subsets(std::min(offered.size(), kMaxOddsAttackDice), false)) {
    OddsQuery q = base;
    q.attack = pick(offered, attack_idx);
    if (attack_filter != nullptr && !attack_filter(q.attack, context)) continue;
    std::optional<Advice> best;
    for (const auto& dodge_idx : dodge_sets) {
      q.dodge = pick(dodge_offered, dodge_idx);
      if (!dodge_idx.empty() && dodge_filter != nullptr && !dodge_filter(q.dodge, context))
        continue;
      OddsResult odds = attack_odds(q);
      if (!best || odds.expected_clicks() < best->best_dodge.odds.expected_clicks() - 1e-12) {
        best = Advice{{attack_idx, odds}, {dodge_idx, odds}};
      }
    }
    if (best) out.push_back(std::move(*best));
  }
  std::stable_sort(out.begin(), out.end(), [](const Advice& a, const Advice& b) {
    const double ea = a.attack.odds.expected_clicks();
    const double eb = b.attack.odds.expected_clicks();
    if (ea != eb) return ea > eb;
    return a.attack.odds.p_hit() > b.attack.odds.p_hit();
  });
  return out;
}

}  // namespace duels
