#include "cards/encounters/match.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <bit>
#include <map>
#include <tuple>
#include <unordered_set>

namespace duels::cards::encounters {

namespace {

constexpr int kFaces = 7;  // index 1..6
constexpr std::uint32_t kAnyCards = ~std::uint32_t{0};

std::uint8_t bit(int v) {
  return static_cast<std::uint8_t>(1U << v);
}

/// One usable ability, with its per-face transition table.
struct EngineAbility {
  int card = 0;
  int ability = 0;
  bool runner = false;     ///< from a normal Shadowrunner (not a Special one)
  bool every_die = false;  ///< "All rolled 4s & 6s are wild": one use covers every such die
  std::array<std::uint8_t, 7> next{};  ///< next[v]: values one use turns v into
  int gain = 0;                        ///< the most one use can add to a die
  int loss = 0;                        ///< the most one use can take from a die
};

/// A minimal way for one die: apply every ability in `mask` (cards `cards`) to reach `value`.
/// `gain`/`loss` sum the most each of its abilities could ever add or take away, for bounds.
struct Move {
  std::uint32_t mask = 0;
  std::uint32_t cards = 0;
  std::uint8_t value = 0;
  std::uint8_t steps = 0;
  std::uint8_t gain = 0;
  std::uint8_t loss = 0;
};

/// One die of a way: its face, its set (0, or 1 for the second set of "twice") and its move.
struct Pick {
  std::uint8_t face = 0;
  std::uint8_t group = 0;
  const Move* move = nullptr;
  std::uint32_t mask = 0;  ///< the abilities this die really uses (see MatchEngine::relocate)
};

using Picks = std::array<Pick, 8>;
using Counts = std::array<int, kFaces>;

/// The moves a set of cards allows, per face, cheapest first, with value bounds.
struct MoveLists {
  std::array<std::vector<const Move*>, kFaces> list;
  std::array<int, kFaces> min_value{};
  std::array<int, kFaces> max_value{};
  int gain = 0;  ///< the most all allowed abilities together can add (each used once)
  int loss = 0;  ///< the most they can take away
};

/// Search states known to fail, in an open-addressing table reused across searches (a new
/// search only bumps the generation). It doubles when three quarters full, up to kMaxSize
/// entries; past that it stops remembering, which only costs speed.
class FailMemo {
 public:
  FailMemo() : keys_(kMinSize), stamps_(kMinSize, 0) {}
  void reset() { ++generation_, used_ = 0; }
  [[nodiscard]] bool contains(std::uint64_t key) const {
    const std::size_t size = keys_.size();
    for (std::size_t i = slot(key, size), probes = 0; probes < kProbes;
         i = (i + 1) & (size - 1), ++probes) {
      if (stamps_[i] != generation_) return false;
      if (keys_[i] == key) return true;
    }
    return false;
  }
  void insert(std::uint64_t key) {
    if (used_ * 4 > keys_.size() * 3) {
      if (keys_.size() >= kMaxSize) return;
      grow();
    }
    place(key);
  }

 private:
  static constexpr std::size_t kMinSize = std::size_t{1} << 12;
  static constexpr std::size_t kMaxSize = std::size_t{1} << 22;
  static constexpr std::size_t kProbes = 16;
  static std::size_t slot(std::uint64_t key, std::size_t size) {
    return static_cast<std::size_t>((key * 0x9E3779B97F4A7C15ULL) >> 32) & (size - 1);
  }
  void place(std::uint64_t key) {
    const std::size_t size = keys_.size();
    for (std::size_t i = slot(key, size), probes = 0; probes < kProbes;
         i = (i + 1) & (size - 1), ++probes) {
      if (stamps_[i] != generation_) {
        stamps_[i] = generation_;
        keys_[i] = key;
        ++used_;
        return;
      }
    }
  }
  void grow() {
    std::vector<std::uint64_t> old_keys(keys_.size() * 2);
    std::vector<std::uint32_t> old_stamps(keys_.size() * 2, 0);
    old_keys.swap(keys_);
    old_stamps.swap(stamps_);
    used_ = 0;
    for (std::size_t i = 0; i < old_keys.size(); ++i) {
      if (old_stamps[i] == generation_) place(old_keys[i]);
    }
  }
  std::vector<std::uint64_t> keys_;
  std::vector<std::uint32_t> stamps_;
  std::uint32_t generation_ = 1;
  std::size_t used_ = 0;
};

}  // namespace

/// Everything prepared for one Encounter and one hand: the usable abilities and, per die face,
/// every minimal move they allow.
struct MatchEngine {
  int value = 0;
  bool twice = false;
  bool no_runners = false;
  std::vector<EngineAbility> abilities;
  std::uint32_t every_die = 0;       ///< abilities one use of which may change several dice
  std::vector<int> lift_cards;       ///< cards that may be discarded to lift the icon
  std::vector<int> lift_ability;     ///< per card: index of its lift ability, or -1
  std::uint32_t relevant_cards = 0;  ///< cards that can play any part
  std::array<std::vector<std::uint8_t>, kFaces> exact;  ///< [face][mask]: values reachable
  std::array<std::vector<Move>, kFaces> moves;
  /// Interchangeable abilities (same card, same effect on every face, not every-die) form a
  /// class. Moves use the lowest copies of each class; a search hands out the next free copies
  /// (relocate), so the used copies of a class are always its lowest ones and a hand holding
  /// one ability many times is not searched once per way to number the copies.
  std::array<std::uint8_t, 32> class_of{};
  std::vector<std::uint32_t> class_mask;
  std::vector<std::array<std::uint32_t, kMaxAbilities + 1>> class_prefix;  ///< lowest k copies
  std::uint32_t symmetric = 0;  ///< abilities in a class of two or more
  mutable FailMemo memo_;       ///< scratch for exists(); makes an engine single-threaded
  /// Search steps left before a search gives up (exhausted_); set by the public entry points.
  mutable std::uint64_t budget_ = 0;
  mutable bool exhausted_ = false;

  void classify() {
    class_mask.clear();
    class_prefix.clear();
    symmetric = 0;
    for (std::size_t a = 0; a < abilities.size(); ++a) {
      const EngineAbility& ab = abilities[a];
      std::size_t c = 0;
      for (; c < class_mask.size(); ++c) {
        const EngineAbility& first =
            abilities[static_cast<std::size_t>(std::countr_zero(class_mask[c]))];
        if (!ab.every_die && !first.every_die && first.card == ab.card &&
            first.runner == ab.runner && first.next == ab.next) {
          break;
        }
      }
      if (c == class_mask.size()) {
        class_mask.push_back(0);
        class_prefix.emplace_back();
      }
      class_mask[c] |= 1U << a;
      class_of[a] = static_cast<std::uint8_t>(c);
    }
    for (std::size_t c = 0; c < class_mask.size(); ++c) {
      std::uint32_t bits = 0;
      int k = 0;
      class_prefix[c][0] = 0;
      for (std::uint32_t x = class_mask[c]; x != 0; x &= x - 1) {
        bits |= x & (~x + 1);
        class_prefix[c][static_cast<std::size_t>(++k)] = bits;
      }
      if (k > 1) symmetric |= class_mask[c];
    }
  }

  /// True when `s` uses the lowest copies of every class it touches.
  [[nodiscard]] bool canonical(std::uint32_t s) const {
    for (std::uint32_t x = s & symmetric; x != 0;) {
      const std::size_t c = class_of[static_cast<std::size_t>(std::countr_zero(x))];
      const std::uint32_t in = s & class_mask[c];
      if (in != class_prefix[c][static_cast<std::size_t>(std::popcount(in))]) return false;
      x &= ~class_mask[c];
    }
    return true;
  }

  /// The abilities a move (lowest copies, `canon`) really uses when `used` are taken: the next
  /// free copies of each class. False when a class has too few copies left.
  [[nodiscard]] bool relocate(std::uint32_t canon, std::uint32_t used,
                              std::uint32_t& actual) const {
    actual = canon & ~symmetric;
    if ((actual & used & ~every_die) != 0) return false;
    for (std::uint32_t x = canon & symmetric; x != 0;) {
      const std::size_t c = class_of[static_cast<std::size_t>(std::countr_zero(x))];
      const std::uint32_t cm = class_mask[c];
      const int n = std::popcount(canon & cm);
      const int u = std::popcount(used & cm);
      if (u + n > std::popcount(cm)) return false;
      actual |= class_prefix[c][static_cast<std::size_t>(u + n)] ^
                class_prefix[c][static_cast<std::size_t>(u)];
      x &= ~cm;
    }
    return true;
  }

  void prepare() {
    classify();
    const int a_count = static_cast<int>(abilities.size());
    const std::size_t subsets = std::size_t{1} << a_count;
    for (int f = 1; f <= 6; ++f) {
      auto& ex = exact[static_cast<std::size_t>(f)];
      ex.assign(subsets, 0);
      std::vector<std::uint8_t> any(subsets, 0);
      ex[0] = any[0] = bit(f);
      auto& mv = moves[static_cast<std::size_t>(f)];
      mv.clear();
      mv.push_back(Move{0, 0, static_cast<std::uint8_t>(f), 0});
      for (std::size_t s = 1; s < subsets; ++s) {
        unsigned reach = 0;
        unsigned below = 0;  // values reachable with a proper subset
        for (int a = 0; a < a_count; ++a) {
          if ((s & (std::size_t{1} << a)) == 0) continue;
          const std::size_t prev = s ^ (std::size_t{1} << a);
          below |= any[prev];
          const auto& next = abilities[static_cast<std::size_t>(a)].next;
          for (unsigned m = ex[prev]; m != 0; m &= m - 1) {
            reach |= next[static_cast<std::size_t>(std::countr_zero(m))];
          }
        }
        ex[s] = static_cast<std::uint8_t>(reach);
        any[s] = static_cast<std::uint8_t>(reach | below);
        if ((reach & ~below) == 0 || !canonical(static_cast<std::uint32_t>(s))) continue;
        std::uint32_t cards = 0;
        int gain = 0;
        int loss = 0;
        for (int a = 0; a < a_count; ++a) {
          if ((s & (std::size_t{1} << a)) != 0) {
            const EngineAbility& ab = abilities[static_cast<std::size_t>(a)];
            cards |= 1U << ab.card;
            gain += ab.gain;
            loss += ab.loss;
          }
        }
        for (unsigned m = reach & ~below; m != 0; m &= m - 1) {
          mv.push_back(Move{static_cast<std::uint32_t>(s), cards,
                            static_cast<std::uint8_t>(std::countr_zero(m)),
                            static_cast<std::uint8_t>(std::popcount(s)),
                            static_cast<std::uint8_t>(gain), static_cast<std::uint8_t>(loss)});
        }
      }
    }
  }

  /// The card discarded to lift the icon when playing with `cards`, or -1.
  [[nodiscard]] int lift_of(std::uint32_t cards) const {
    for (int l : lift_cards) {
      if ((cards & (1U << l)) != 0) return l;
    }
    return -1;
  }

  /// The abilities usable when playing exactly the cards in `cards`.
  [[nodiscard]] std::uint32_t allowed(std::uint32_t cards) const {
    const int lift = no_runners ? lift_of(cards) : -1;
    std::uint32_t mask = 0;
    for (std::size_t a = 0; a < abilities.size(); ++a) {
      const EngineAbility& ab = abilities[a];
      if ((cards & (1U << ab.card)) == 0) continue;
      if (ab.runner && no_runners && (lift < 0 || ab.card == lift)) continue;
      mask |= 1U << a;
    }
    return mask;
  }

  [[nodiscard]] MoveLists filter(std::uint32_t cards) const {
    const std::uint32_t ok = allowed(cards);
    MoveLists ml;
    for (std::size_t a = 0; a < abilities.size(); ++a) {
      if ((ok & (1U << a)) != 0) {
        // An ability that covers every die may add (or take) its most on each of the 8 dice.
        const int uses = abilities[a].every_die ? 8 : 1;
        ml.gain += uses * abilities[a].gain;
        ml.loss += uses * abilities[a].loss;
      }
    }
    for (std::size_t f = 1; f <= 6; ++f) {
      auto& list = ml.list[f];
      for (const Move& m : moves[f]) {
        if ((m.mask & ~ok) == 0) list.push_back(&m);
      }
      std::stable_sort(list.begin(), list.end(), [](const Move* x, const Move* y) {
        return std::tie(x->steps, x->value) < std::tie(y->steps, y->value);
      });
      ml.min_value[f] = 6;
      ml.max_value[f] = 1;
      for (const Move* m : list) {
        ml.min_value[f] = std::min<int>(ml.min_value[f], m->value);
        ml.max_value[f] = std::max<int>(ml.max_value[f], m->value);
      }
    }
    return ml;
  }

  /// The abilities, in order, that take `face` to `target` using exactly `mask`.
  void path(int face, std::uint32_t mask, int target,
            std::vector<std::tuple<int, int, int>>& out) const {
    if (mask == 0) return;
    const auto& ex = exact[static_cast<std::size_t>(face)];
    for (int a = 0; a < static_cast<int>(abilities.size()); ++a) {
      if ((mask & (1U << a)) == 0) continue;
      const std::uint32_t prev = mask ^ (1U << a);
      for (unsigned m = ex[prev]; m != 0; m &= m - 1) {
        const int u = std::countr_zero(m);
        if ((abilities[static_cast<std::size_t>(a)].next[static_cast<std::size_t>(u)] &
             bit(target)) != 0) {
          path(face, prev, u, out);
          out.emplace_back(a, u, target);
          return;
        }
      }
    }
  }

  /// Depth-first search for ways with these face counts: all of them (`use_all`) or any
  /// non-empty sub-multiset. Calls visit(picks, n, mask) per way until it returns false;
  /// returns false when stopped. Without a memo, equal dice take their moves in order, so each
  /// multiset of (face, set, move) is visited once; with a memo of failed states (used to
  /// answer "is there a way?"), orders converge on the same states instead. The first die
  /// always goes to the first set.
  template <class Visit>
  bool search(const MoveLists& ml, const Counts& counts, bool use_all, Visit&& visit,
              FailMemo* memo = nullptr, std::uint32_t exact_cards = kAnyCards) const {
    const int groups = twice ? 2 : 1;
    const int target = value * groups;
    std::array<int, kFaces + 1> suffix_min{};
    std::array<int, kFaces + 1> suffix_max{};
    std::array<int, kFaces + 1> suffix_plain{};
    for (int f = 6; f >= 1; --f) {
      const auto fi = static_cast<std::size_t>(f);
      suffix_min[fi] = suffix_min[fi + 1] + counts[fi] * ml.min_value[fi];
      suffix_max[fi] = suffix_max[fi + 1] + counts[fi] * ml.max_value[fi];
      suffix_plain[fi] = suffix_plain[fi + 1] + counts[fi] * f;
    }
    Picks picks{};
    int n = 0;
    std::array<int, 2> sums{};
    int gain_used = 0;  // abilities used so far, by their bound
    int loss_used = 0;
    bool go = true;
    auto rec = [&](auto&& self, int f, int k, std::size_t start, std::uint32_t mask,
                   std::uint32_t cards) -> void {
      if (!go) return;
      if (budget_ == 0) {
        exhausted_ = true;
        go = false;
        return;
      }
      --budget_;
      const int total = sums[0] + sums[1];
      if (total == target && n > 0 && (!twice || sums[0] == value) &&
          (exact_cards == kAnyCards || cards == exact_cards)) {
        if (!use_all || (f > 6 || (k == counts[static_cast<std::size_t>(f)] &&
                                   suffix_max[static_cast<std::size_t>(f) + 1] == 0))) {
          go = visit(picks, n, mask);
          return;
        }
      }
      if (f > 6) return;
      const auto fi = static_cast<std::size_t>(f);
      const int left = counts[fi] - k;
      // Bounds: each remaining die within its reachable values, and all remaining dice together
      // within their faces plus what the unused abilities could add (or take) at most.
      const int rest_plain = suffix_plain[fi + 1] + left * f;
      const int rest_max =
          std::min(suffix_max[fi + 1] + left * ml.max_value[fi], rest_plain + ml.gain - gain_used);
      if (total + rest_max < target) return;
      if (use_all) {
        const int rest_min = std::max(suffix_min[fi + 1] + left * ml.min_value[fi],
                                      rest_plain - (ml.loss - loss_used));
        if (total + rest_min > target) return;
      }
      std::uint64_t key = 0;
      if (memo != nullptr) {
        key = (static_cast<std::uint64_t>(mask) << 24) |
              (static_cast<std::uint64_t>(sums[0]) << 14) |
              (static_cast<std::uint64_t>(sums[1]) << 8) | (static_cast<std::uint64_t>(f) << 4) |
              static_cast<std::uint64_t>(k);
        if (memo->contains(key)) return;
        start = 0;
      }
      if (!use_all || left == 0) self(self, f + 1, 0, 0, mask, cards);
      if (left > 0 && n < 8) {
        const auto& list = ml.list[fi];
        const std::size_t codes = list.size() * static_cast<std::size_t>(groups);
        for (std::size_t code = start; code < codes && go; ++code) {
          const int g = static_cast<int>(code / list.size());
          const Move* m = list[code % list.size()];
          if (sums[static_cast<std::size_t>(g)] + m->value > value) continue;
          if (g == 1 && sums[0] == 0) continue;  // mirror images: the first die goes to set 0
          std::uint32_t actual = 0;
          if (!relocate(m->mask, mask, actual)) continue;
          picks[static_cast<std::size_t>(n)] =
              Pick{static_cast<std::uint8_t>(f), static_cast<std::uint8_t>(g), m, actual};
          ++n;
          sums[static_cast<std::size_t>(g)] += m->value;
          gain_used += m->gain;
          loss_used += m->loss;
          self(self, f, k + 1, code, mask | actual, cards | m->cards);
          gain_used -= m->gain;
          loss_used -= m->loss;
          sums[static_cast<std::size_t>(g)] -= m->value;
          --n;
        }
      }
      if (memo != nullptr && go) memo->insert(key);
    };
    rec(rec, 1, 0, 0, 0, 0);
    return go;
  }

  /// True (and the picks) when the dice `counts`, all of them, beat the Encounter with `ml`,
  /// using the abilities of exactly the cards `exact_cards` (or any, with kAnyCards).
  bool exists(const MoveLists& ml, const Counts& counts, std::uint32_t exact_cards = kAnyCards,
              Picks* out = nullptr, int* out_n = nullptr) const {
    int total_min = 0;
    int total_max = 0;
    int plain = 0;
    for (std::size_t f = 1; f <= 6; ++f) {
      total_min += counts[f] * ml.min_value[f];
      total_max += counts[f] * ml.max_value[f];
      plain += counts[f] * static_cast<int>(f);
    }
    total_min = std::max(total_min, plain - ml.loss);
    total_max = std::min(total_max, plain + ml.gain);
    const int target = value * (twice ? 2 : 1);
    if (target < total_min || target > total_max) return false;
    bool found = false;
    memo_.reset();
    search(
        ml, counts, true,
        [&](const Picks& p, int n, std::uint32_t) {
          found = true;
          if (out != nullptr) *out = p;
          if (out_n != nullptr) *out_n = n;
          return false;
        },
        &memo_, exact_cards);
    return found;
  }
};

namespace {

std::optional<std::string> check_query(const MatchQuery& q) {
  if (q.value < 1 || q.value > 48) {
    return fmt::format("the Encounter Value must be from 1 to 48 (got {})", q.value);
  }
  if (q.dice.size() > 8) {
    return fmt::format("at most 8 unlocked dice (6 plus 2 bonus dice), got {}", q.dice.size());
  }
  for (std::size_t i = 0; i < q.dice.size(); ++i) {
    if (q.dice[i] < 1 || q.dice[i] > 6) {
      return fmt::format("die {} shows {}: a die shows 1 to 6", i + 1, q.dice[i]);
    }
  }
  if (q.cards.size() > 32) return std::string("at most 32 cards in hand");
  return std::nullopt;
}

Expected<std::shared_ptr<const MatchEngine>, std::string> build_engine(const MatchQuery& q) {
  if (auto problem = check_query(q)) return *problem;
  auto e = std::make_shared<MatchEngine>();
  e->value = q.value;
  e->twice = q.twice;
  e->no_runners = q.no_runners;
  e->lift_ability.assign(q.cards.size(), -1);
  for (std::size_t i = 0; i < q.cards.size(); ++i) {
    const HandCard& hc = q.cards[i];
    for (std::size_t j = 0; j < hc.card.abilities.size(); ++j) {
      if (hc.card.abilities[j].kind == AbilityKind::Lift && (hc.used_mask & (1U << j)) == 0 &&
          e->lift_ability[i] < 0) {
        e->lift_ability[i] = static_cast<int>(j);
      }
    }
    if (q.no_runners && !hc.face_down && !hc.card.special && e->lift_ability[i] >= 0) {
      e->lift_cards.push_back(static_cast<int>(i));
    }
  }
  const bool runners_possible = !q.no_runners || !e->lift_cards.empty();
  int beyond_limit = 0;
  for (std::size_t i = 0; i < q.cards.size(); ++i) {
    const HandCard& hc = q.cards[i];
    if (hc.face_down || (!hc.card.special && !runners_possible)) continue;
    for (std::size_t j = 0; j < hc.card.abilities.size(); ++j) {
      const Ability& a = hc.card.abilities[j];
      if (a.kind == AbilityKind::Lift || (hc.used_mask & (1U << j)) != 0 ||
          !keyword_matches(a, q.keywords)) {
        continue;
      }
      // Past the limit the abilities are only counted (the masks below are 32 bits wide).
      if (static_cast<int>(e->abilities.size()) + beyond_limit >= kMaxAbilities) {
        ++beyond_limit;
        continue;
      }
      EngineAbility ea;
      ea.card = static_cast<int>(i);
      ea.ability = static_cast<int>(j);
      ea.runner = !hc.card.special;
      ea.every_die = a.kind == AbilityKind::Wild;
      if (ea.every_die) e->every_die |= 1U << e->abilities.size();
      for (int v = 1; v <= 6; ++v) {
        const unsigned targets = ability_targets(a, v);
        ea.next[static_cast<std::size_t>(v)] = static_cast<std::uint8_t>(targets);
        if (targets != 0) {
          ea.gain = std::max(ea.gain, (31 - std::countl_zero(targets)) - v);
          ea.loss = std::max(ea.loss, v - std::countr_zero(targets));
        }
      }
      e->abilities.push_back(ea);
      e->relevant_cards |= 1U << i;
    }
  }
  for (int l : e->lift_cards)
    e->relevant_cards |= 1U << l;
  if (beyond_limit > 0) {
    return fmt::format("too many usable abilities at once ({}, the limit is {})",
                       e->abilities.size() + static_cast<std::size_t>(beyond_limit), kMaxAbilities);
  }
  if (std::popcount(e->relevant_cards) > kMaxCards) {
    return fmt::format("too many usable cards at once ({}, the limit is {})",
                       std::popcount(e->relevant_cards), kMaxCards);
  }
  e->prepare();
  return std::shared_ptr<const MatchEngine>(std::move(e));
}

std::string too_many_ways(const MatchEngine& e) {
  return fmt::format(
      "these {} abilities combine in too many ways to check them all; leave some cards out and "
      "ask again",
      e.abilities.size());
}

Counts face_counts(const std::vector<int>& dice) {
  Counts counts{};
  for (int d : dice) {
    if (d >= 1 && d <= 6) ++counts[static_cast<std::size_t>(d)];
  }
  return counts;
}

/// Every non-empty sub-multiset of `counts`.
std::vector<Counts> sub_multisets(const Counts& counts) {
  std::vector<Counts> out;
  Counts d{};
  while (true) {
    std::size_t f = 1;
    while (f <= 6 && d[f] == counts[f])
      d[f++] = 0;
    if (f > 6) break;
    ++d[f];
    out.push_back(d);
  }
  return out;
}

CardFate fate_of(const MatchQuery& q, int lift_card, int card) {
  const RunnerCard& c = q.cards[static_cast<std::size_t>(card)].card;
  if (card == lift_card) return CardFate::DiscardedToLift;
  if (c.special) return CardFate::SpentSpecial;
  switch (c.retain) {
    case RetainMode::Never:
      return CardFate::Discarded;
    case RetainMode::Always:
      return CardFate::RetainedFree;
    case RetainMode::Normal:
      break;
  }
  return CardFate::RetainFor3;
}

/// What a set of cards costs: cards not free to keep, cards lost, retain ¥.
struct CardCost {
  int nonfree = 0;
  int lost = 0;
  int retain = 0;
};

CardCost card_cost(const MatchQuery& q, int lift_card, std::uint32_t cards) {
  CardCost c;
  for (unsigned x = cards; x != 0; x &= x - 1) {
    switch (fate_of(q, lift_card, std::countr_zero(x))) {
      case CardFate::RetainedFree:
        break;
      case CardFate::RetainFor3:
        ++c.nonfree;
        c.retain += 3;
        break;
      default:
        ++c.nonfree;
        ++c.lost;
    }
  }
  return c;
}

int dice_distance(int dice_used, int dice_total, std::optional<int> preferred_left) {
  if (preferred_left) return std::abs((dice_total - dice_used) - *preferred_left);
  return dice_used;
}

/// A way found: which dice, which cards, and the picks that make it.
struct Way {
  Counts dice{};
  int size = 0;
  std::uint32_t cards = 0;
  Picks picks{};
  int n = 0;
  std::tuple<int, int, int, int, int> key;  // nonfree, lost, dice distance, retain, steps
};

Solution materialize(const MatchQuery& q, const MatchEngine& e, const Way& w) {
  Solution s;
  std::array<std::vector<int>, kFaces> by_face;
  for (std::size_t i = 0; i < q.dice.size(); ++i) {
    by_face[static_cast<std::size_t>(q.dice[i])].push_back(static_cast<int>(i));
  }
  std::array<std::size_t, kFaces> taken{};
  s.groups.resize(e.twice ? 2 : 1);
  struct DieWay {
    int die;
    int face;
    const Move* move;
    std::uint32_t mask;
  };
  std::vector<DieWay> dies;
  for (int p = 0; p < w.n; ++p) {
    const Pick& pk = w.picks[static_cast<std::size_t>(p)];
    const int die = by_face[pk.face][taken[pk.face]++];
    s.groups[pk.group].push_back(die);
    dies.push_back({die, pk.face, pk.move, pk.mask});
  }
  for (auto& g : s.groups)
    std::sort(g.begin(), g.end());
  std::sort(s.groups.begin(), s.groups.end());
  std::sort(dies.begin(), dies.end(),
            [](const DieWay& x, const DieWay& y) { return x.die < y.die; });
  const int lift = e.no_runners ? e.lift_of(w.cards) : -1;
  if (lift >= 0) {
    s.steps.push_back(Step{lift, e.lift_ability[static_cast<std::size_t>(lift)], -1, 0, 0});
  }
  std::vector<std::tuple<int, int, int>> path;
  for (const DieWay& d : dies) {
    s.dice.push_back(d.die);
    s.faces.push_back(d.face);
    s.values.push_back(d.move->value);
    path.clear();
    e.path(d.face, d.mask, d.move->value, path);
    for (const auto& [a, from, to] : path) {
      const EngineAbility& ea = e.abilities[static_cast<std::size_t>(a)];
      s.steps.push_back(Step{ea.card, ea.ability, d.die, from, to});
    }
  }
  std::vector<int> cards;
  for (const Step& st : s.steps) {
    if (std::find(cards.begin(), cards.end(), st.card) == cards.end()) cards.push_back(st.card);
  }
  std::sort(cards.begin(), cards.end());
  for (int card : cards) {
    const CardFate fate = fate_of(q, lift, card);
    s.cards.push_back(CardUse{card, fate});
    if (fate == CardFate::RetainFor3) s.retain_cost_nuyen += 3;
    if (fate == CardFate::Discarded || fate == CardFate::SpentSpecial ||
        fate == CardFate::DiscardedToLift) {
      ++s.cards_lost;
    }
  }
  s.dice_left = static_cast<int>(q.dice.size()) - w.n;
  return s;
}

std::vector<Unavailable> unavailable_abilities(const MatchQuery& q, bool any_lift) {
  std::vector<Unavailable> out;
  for (std::size_t i = 0; i < q.cards.size(); ++i) {
    const HandCard& hc = q.cards[i];
    for (std::size_t j = 0; j < hc.card.abilities.size(); ++j) {
      const Ability& a = hc.card.abilities[j];
      std::string reason;
      if (a.kind == AbilityKind::Lift) {
        if (!q.no_runners) continue;  // nothing to lift
        if (hc.face_down) reason = "the card is face down this turn (ignoring the District)";
      } else if (hc.face_down) {
        reason = "the card is face down this turn (ignoring the District)";
      } else if ((hc.used_mask & (1U << j)) != 0) {
        reason = "already used against this Encounter (each ability once per Encounter)";
      } else if (q.no_runners && !hc.card.special) {
        reason = any_lift ? "the Encounter shows the No-Shadowrunners icon (usable only if a "
                            "lift card is discarded)"
                          : "the Encounter shows the No-Shadowrunners icon";
      } else if (!keyword_matches(a, q.keywords)) {
        std::string kw = a.keyword;
        if (!kw.empty()) kw[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(kw[0])));
        reason = fmt::format("the Encounter has no {} keyword", kw);
      }
      if (!reason.empty()) {
        out.push_back(Unavailable{static_cast<int>(i), static_cast<int>(j), std::move(reason)});
      }
    }
  }
  return out;
}

}  // namespace

bool better_solution(const Solution& a, const Solution& b, std::optional<int> preferred_dice_left) {
  const auto key = [&](const Solution& s) {
    int nonfree = 0;
    for (const CardUse& c : s.cards)
      nonfree += c.fate == CardFate::RetainedFree ? 0 : 1;
    const int total = static_cast<int>(s.dice.size()) + s.dice_left;
    return std::make_tuple(
        nonfree, s.cards_lost,
        dice_distance(static_cast<int>(s.dice.size()), total, preferred_dice_left),
        s.retain_cost_nuyen, s.steps.size());
  };
  const auto ka = key(a);
  const auto kb = key(b);
  if (ka != kb) return ka < kb;
  const auto steps_key = [](const Solution& s) {
    std::vector<std::tuple<int, int, int, int, int>> out;
    for (const Step& st : s.steps)
      out.emplace_back(st.card, st.ability, st.die, st.from, st.to);
    return out;
  };
  return std::tie(a.faces, a.values, a.dice) < std::tie(b.faces, b.values, b.dice) ||
         (std::tie(a.faces, a.values, a.dice) == std::tie(b.faces, b.values, b.dice) &&
          steps_key(a) < steps_key(b));
}

Expected<MatchResult, std::string> find_matches(const MatchQuery& query) {
  auto built = build_engine(query);
  if (!built) return built.error();
  const MatchEngine& e = **built;
  e.budget_ = query.search_budget;
  MatchResult result;
  result.unavailable = unavailable_abilities(query, !e.lift_cards.empty());
  const Counts counts = face_counts(query.dice);
  const int total_dice = static_cast<int>(query.dice.size());

  // 1. Which sets of dice can be beaten at all (with every card): the lock sizes.
  const MoveLists all = e.filter(e.relevant_cards);
  std::vector<Counts> feasible;
  std::vector<int> sizes;
  std::uint32_t size_mask = 0;
  for (const Counts& d : sub_multisets(counts)) {
    if (!e.exists(all, d)) continue;
    int size = 0;
    for (int c : d)
      size += c;
    feasible.push_back(d);
    sizes.push_back(size);
    size_mask |= 1U << size;
  }
  for (int k = 1; k <= 8; ++k) {
    if ((size_mask & (1U << k)) != 0) result.lock_sizes.push_back(k);
  }

  // 2. Best-first over sets of cards: for each set of dice, a way that uses exactly each set
  //    of cards (every card in it plays a part), cheapest sets first.
  struct CardSet {
    std::uint32_t cards;
    int lift;
    CardCost cost;
  };
  std::vector<CardSet> sets;
  for (std::uint32_t k = e.relevant_cards;; k = (k - 1) & e.relevant_cards) {
    const int lift = e.no_runners ? e.lift_of(k) : -1;
    // Every card of the set must be able to play a part with it, else the set is not minimal.
    const std::uint32_t ok = e.allowed(k);
    std::uint32_t contributing = lift >= 0 ? (1U << lift) : 0;
    for (std::size_t a = 0; a < e.abilities.size(); ++a) {
      if ((ok & (1U << a)) != 0) contributing |= 1U << e.abilities[a].card;
    }
    // Lifting the icon only makes sense when a normal Shadowrunner's ability is then used.
    std::uint32_t runner_cards = 0;
    for (const EngineAbility& ab : e.abilities) {
      if (ab.runner && ab.card != lift) runner_cards |= 1U << ab.card;
    }
    const bool lift_used = lift < 0 || (k & runner_cards) != 0;
    if (contributing == k && lift_used) sets.push_back(CardSet{k, lift, card_cost(query, lift, k)});
    if (k == 0) break;
  }
  std::stable_sort(sets.begin(), sets.end(), [](const CardSet& x, const CardSet& y) {
    return std::make_tuple(x.cost.nonfree, x.cost.lost, x.cost.retain, std::popcount(x.cards),
                           x.cards) < std::make_tuple(y.cost.nonfree, y.cost.lost, y.cost.retain,
                                                      std::popcount(y.cards), y.cards);
  });
  std::vector<Way> ways;
  for (std::size_t si = 0; si < sets.size(); ++si) {
    const CardSet& set = sets[si];
    const bool new_tier = si > 0 && (sets[si - 1].cost.nonfree != set.cost.nonfree ||
                                     sets[si - 1].cost.lost != set.cost.lost);
    if (new_tier && ways.size() >= query.max_solutions) {
      result.truncated = true;
      break;
    }
    const MoveLists ml = e.filter(set.cards);
    const std::uint32_t ability_cards = set.lift >= 0 ? set.cards & ~(1U << set.lift) : set.cards;
    for (std::size_t di = 0; di < feasible.size(); ++di) {
      Way w;
      if (!e.exists(ml, feasible[di], ability_cards, &w.picks, &w.n)) continue;
      w.dice = feasible[di];
      w.size = sizes[di];
      w.cards = set.cards;
      int steps = set.lift >= 0 ? 1 : 0;
      for (int p = 0; p < w.n; ++p)
        steps += w.picks[static_cast<std::size_t>(p)].move->steps;
      w.key = {set.cost.nonfree, set.cost.lost,
               dice_distance(w.size, total_dice, query.preferred_dice_left), set.cost.retain,
               steps};
      if (set.cards == 0) result.plain_match = true;
      ways.push_back(w);
    }
  }
  if (e.exhausted_) return too_many_ways(e);
  result.found = ways.size();
  const std::size_t keep = std::min(query.max_solutions, ways.size());
  std::stable_sort(ways.begin(), ways.end(),
                   [](const Way& x, const Way& y) { return x.key < y.key; });
  for (std::size_t i = 0; i < keep; ++i)
    result.solutions.push_back(materialize(query, e, ways[i]));
  std::stable_sort(result.solutions.begin(), result.solutions.end(),
                   [&](const Solution& a, const Solution& b) {
                     return better_solution(a, b, query.preferred_dice_left);
                   });
  return result;
}

Expected<MatchOracle, std::string> MatchOracle::make(const MatchQuery& query) {
  MatchQuery q = query;
  q.dice.clear();
  auto built = build_engine(q);
  if (!built) return built.error();
  (*built)->budget_ = query.search_budget;
  MatchOracle oracle;
  oracle.engine_ = std::move(*built);
  return oracle;
}

bool MatchOracle::exhausted() const {
  return engine_->exhausted_;
}

bool MatchOracle::can_match(const std::vector<int>& dice) const {
  const MoveLists all = engine_->filter(engine_->relevant_cards);
  bool found = false;
  engine_->search(all, face_counts(dice), false, [&](const Picks&, int, std::uint32_t) {
    found = true;
    return false;
  });
  return found;
}

std::uint32_t MatchOracle::lock_size_mask(const std::vector<int>& dice) const {
  const MoveLists all = engine_->filter(engine_->relevant_cards);
  std::uint32_t sizes = 0;
  for (const Counts& d : sub_multisets(face_counts(dice))) {
    int size = 0;
    for (int c : d)
      size += c;
    if ((sizes & (1U << size)) == 0 && engine_->exists(all, d)) sizes |= 1U << size;
  }
  return sizes;
}

std::string fate_text(CardFate fate) {
  switch (fate) {
    case CardFate::RetainFor3:
      return "retain for 3¥ or discard";
    case CardFate::Discarded:
      return "discarded (red icon: cannot be Retained)";
    case CardFate::RetainedFree:
      return "retained free (purple icon)";
    case CardFate::SpentSpecial:
      return "Special Shadowrunner: to the Encounter discard";
    case CardFate::DiscardedToLift:
      return "discarded to lift the No-Shadowrunners icon";
  }
  return "?";
}

std::string describe(const Solution& s, const MatchQuery& q) {
  const auto card_name = [&](int card) {
    const std::string& n = q.cards[static_cast<std::size_t>(card)].card.name;
    return n.empty() ? fmt::format("card {}", card + 1) : n;
  };
  std::string out;
  for (std::size_t g = 0; g < s.groups.size(); ++g) {
    std::vector<std::string> vals;
    std::vector<std::string> dice;
    for (int die : s.groups[g]) {
      const auto it = std::find(s.dice.begin(), s.dice.end(), die);
      vals.push_back(std::to_string(s.values[static_cast<std::size_t>(it - s.dice.begin())]));
      dice.push_back(fmt::format("#{}", die + 1));
    }
    out +=
        fmt::format("{}lock {} = {}", g ? " and " : "", fmt::join(dice, " "), fmt::join(vals, "+"));
  }
  out += fmt::format(" ({} di{}, {} left)", s.dice.size(), s.dice.size() == 1 ? "e" : "ce",
                     s.dice_left);
  if (s.steps.empty()) return out + "; no cards";
  std::vector<std::string> steps;
  for (const Step& st : s.steps) {
    const Ability& a = q.cards[static_cast<std::size_t>(st.card)]
                           .card.abilities[static_cast<std::size_t>(st.ability)];
    if (st.die < 0) {
      steps.push_back(fmt::format("discard {} to lift the icon", card_name(st.card)));
    } else {
      steps.push_back(fmt::format("{} {} on die {}: {}→{}", card_name(st.card), to_notation(a),
                                  st.die + 1, st.from, st.to));
    }
  }
  std::vector<std::string> fates;
  for (const CardUse& c : s.cards) {
    fates.push_back(fmt::format("{} {}", card_name(c.card), fate_text(c.fate)));
  }
  return fmt::format("{}; {}; {}", out, fmt::join(steps, ", "), fmt::join(fates, "; "));
}

BruteForceAnswer brute_force_matches(const MatchQuery& q) {
  BruteForceAnswer answer;
  const std::size_t n_cards = q.cards.size();
  answer.reachable_with_cards.assign(std::size_t{1} << n_cards, false);
  if (check_query(q) || n_cards > 12) return answer;
  // Every ability that could ever be used; runner abilities need the icon lifted (if shown).
  struct Ab {
    int card;
    const Ability* a;
    bool runner;
  };
  std::vector<Ab> abs;
  std::vector<int> lifts;
  for (std::size_t i = 0; i < n_cards; ++i) {
    const HandCard& hc = q.cards[i];
    if (hc.face_down) continue;
    for (std::size_t j = 0; j < hc.card.abilities.size(); ++j) {
      const Ability& a = hc.card.abilities[j];
      if ((hc.used_mask & (1U << j)) != 0) continue;
      if (a.kind == AbilityKind::Lift) {
        if (q.no_runners && !hc.card.special) lifts.push_back(static_cast<int>(i));
        continue;
      }
      if (!keyword_matches(a, q.keywords)) continue;
      abs.push_back({static_cast<int>(i), &a, !hc.card.special});
    }
  }
  const int nd = static_cast<int>(q.dice.size());
  std::vector<bool> exact_sets(std::size_t{1} << n_cards, false);
  // State: dice values, abilities used, the card discarded to lift (or none), cards used.
  std::unordered_set<std::uint64_t> seen;
  std::vector<int> values = q.dice;
  auto record = [&](std::uint32_t cards) {
    const int subsets = 1 << nd;
    std::vector<int> sums(static_cast<std::size_t>(subsets), 0);
    for (int s = 1; s < subsets; ++s) {
      const int low = std::countr_zero(static_cast<unsigned>(s));
      sums[static_cast<std::size_t>(s)] =
          sums[static_cast<std::size_t>(s & (s - 1))] + values[static_cast<std::size_t>(low)];
    }
    for (int s = 1; s < subsets; ++s) {
      if (sums[static_cast<std::size_t>(s)] != q.value) continue;
      if (!q.twice) {
        answer.lock_size_mask |= 1U << std::popcount(static_cast<unsigned>(s));
        exact_sets[cards] = true;
        continue;
      }
      const int rest = (subsets - 1) & ~s;
      for (int t = rest; t > 0; t = (t - 1) & rest) {
        if (sums[static_cast<std::size_t>(t)] == q.value) {
          answer.lock_size_mask |= 1U << std::popcount(static_cast<unsigned>(s | t));
          exact_sets[cards] = true;
        }
      }
    }
  };
  auto rec = [&](auto&& self, std::uint32_t used, int lift, std::uint32_t cards) -> void {
    std::uint64_t key = used;
    key = key * 16 + static_cast<std::uint64_t>(lift + 1);
    for (int v : values)
      key = key * 8 + static_cast<std::uint64_t>(v);
    key = key * 4096 + cards;
    if (!seen.insert(key).second) return;
    record(cards);
    const bool runners_ok = !q.no_runners || lift >= 0;
    if (q.no_runners && lift < 0) {
      for (int l : lifts)
        self(self, used, l, cards | (1U << l));
    }
    for (std::size_t a = 0; a < abs.size(); ++a) {
      if ((used & (1U << a)) != 0) continue;
      // "All rolled 4s & 6s are wild": the one use covers every die showing a listed face (a
      // second wild on the same die reaches nothing new), so wild is never used up here.
      const std::uint32_t uses = abs[a].a->kind == AbilityKind::Wild ? 0U : (1U << a);
      if (abs[a].runner && (!runners_ok || abs[a].card == lift)) continue;
      for (int d = 0; d < nd; ++d) {
        const int before = values[static_cast<std::size_t>(d)];
        for (int t = 1; t <= 6; ++t) {
          if ((ability_targets(*abs[a].a, before) & bit(t)) == 0) continue;
          values[static_cast<std::size_t>(d)] = t;
          self(self, used | uses, lift, cards | (1U << abs[a].card));
          values[static_cast<std::size_t>(d)] = before;
        }
      }
    }
  };
  rec(rec, 0, -1, 0);
  for (std::size_t s = 0; s < exact_sets.size(); ++s) {
    if (!exact_sets[s]) continue;
    for (std::size_t t = 0; t < exact_sets.size(); ++t) {
      if ((t & s) == s) answer.reachable_with_cards[t] = true;
    }
  }
  return answer;
}

}  // namespace duels::cards::encounters
