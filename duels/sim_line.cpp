// The one-dimensional matchup model that `duels sim` ran before it played the engine: kept only
// as the speed baseline of bench/duels_sim_bench.cpp and for tests/duels/sim_test.cpp.
#include "duels/sim_line.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <unordered_map>

#include "dice/roller.hpp"
#include "duels/odds.hpp"

namespace duels {

namespace {

using dice::Colour;

// A die's kind as a 6-bit code: what matters for odds.
int die_code(const dice::Die& d) {
  return static_cast<int>(d.colour) * 10 + (d.sides / 2 - 2) * 2 + (d.ace ? 1 : 0);
}

// Static data of one side, precomputed once.
struct Side {
  FigureDef def;
  std::vector<GearDef> gear;
  std::vector<dice::Die> dice;
  std::vector<int> gear_of_die;  // -1: starting die
  std::vector<int> preference;   // dice in the order they are put on the base
};

// What changes during a match.
struct Fighter {
  std::array<int, 3> dial{};
  std::uint32_t base = 0;
  std::uint32_t removed = 0;
  std::uint32_t gear_removed = 0;
  int clicks_dealt = 0;
};

Side make_side(const SimSide& s) {
  Side out{s.figure, s.gear, {}, {}, {}};
  for (const auto& d : s.figure.starting_dice) {
    out.dice.push_back(d);
    out.gear_of_die.push_back(-1);
  }
  for (std::size_t g = 0; g < s.gear.size(); ++g) {
    for (const auto& d : s.gear[g].dice) {
      out.dice.push_back(d);
      out.gear_of_die.push_back(static_cast<int>(g));
    }
  }
  // Preference: attack dice the tape can use (largest first), up to two white, then the rest.
  std::vector<std::pair<double, int>> scored;
  int whites = 0;
  for (std::size_t i = 0; i < out.dice.size(); ++i) {
    const auto& d = out.dice[i];
    double score = d.sides + (d.ace ? 1.5 : 0);
    if (d.colour == Colour::White) {
      score = whites++ < 2 ? 5.5 + d.sides * 0.1 : 0.5;
    } else if (dice::is_wild(d.colour)) {
      score *= s.figure.tape.has(d.colour) ? 1.0 : 0.6;
    } else if (!s.figure.tape.has(d.colour)) {
      score = d.colour == Colour::Yellow ? 3 : 0.1;
    }
    scored.emplace_back(score, static_cast<int>(i));
  }
  std::stable_sort(scored.begin(), scored.end(),
                   [](auto& x, auto& y) { return x.first > y.first; });
  for (const auto& [score, i] : scored)
    out.preference.push_back(i);
  return out;
}

const DialPosition& showing(const Side& s, const Fighter& f, int d) {
  return s.def.dials[static_cast<std::size_t>(d)]
      .positions[static_cast<std::size_t>(f.dial[static_cast<std::size_t>(d)])];
}

int holes(const Side& s, const Fighter& f) {
  return showing(s, f, 0).bullet_holes + showing(s, f, 1).bullet_holes +
         showing(s, f, 2).bullet_holes;
}

std::vector<Colour> shields_of(const Side& s, const Fighter& f) {
  std::vector<Colour> out;
  for (std::size_t g = 0; g < s.gear.size(); ++g) {
    if (((f.gear_removed >> g) & 1U) == 0)
      out.insert(out.end(), s.gear[g].shields.begin(), s.gear[g].shields.end());
  }
  for (int d = 0; d < 3; ++d) {
    if (showing(s, f, d).shield) out.push_back(*showing(s, f, d).shield);
  }
  return out;
}

}  // namespace

// Exact odds per situation, keyed by everything they depend on.
struct LineModelCache {
  struct Key {
    std::uint64_t attack = 0;  // sorted die codes, 6 bits each, plus count
    std::uint64_t dodge = 0;
    int weapon = 0;
    int body = 0;
    std::uint32_t shields = 0;  // count per colour, 4 bits each
    int attacker = 0;           // whose bonus applies
    bool operator==(const Key&) const = default;
  };
  struct KeyHash {
    std::size_t operator()(const Key& k) const {
      std::uint64_t h = k.attack * 0x9E3779B97F4A7C15ULL;
      h ^= (k.dodge + 0x632BE59BD9B4E019ULL) * 0xC2B2AE3D27D4EB4FULL;
      h ^= static_cast<std::uint64_t>(k.weapon * 131 + k.body) * 0x165667B19E3779F9ULL;
      h ^= (static_cast<std::uint64_t>(k.shields) << 3U) ^ static_cast<std::uint64_t>(k.attacker);
      return static_cast<std::size_t>(h ^ (h >> 29U));
    }
  };
  std::unordered_map<Key, double, KeyHash> expected;
};

std::shared_ptr<LineModelCache> make_line_model_cache() {
  return std::make_shared<LineModelCache>();
}

namespace {

std::uint64_t code_of(const std::vector<dice::Die>& dice) {
  std::array<int, 16> codes{};
  const std::size_t n = std::min<std::size_t>(dice.size(), 9);
  for (std::size_t i = 0; i < n; ++i)
    codes[i] = die_code(dice[i]);
  std::sort(codes.begin(), codes.begin() + static_cast<long>(n));
  std::uint64_t k = n;
  for (std::size_t i = 0; i < n; ++i)
    k = (k << 6U) | static_cast<std::uint64_t>(codes[i]);
  return k;
}

std::uint32_t shield_code(const std::vector<Colour>& shields) {
  std::uint32_t k = 0;
  for (Colour c : shields)
    k += 1U << (4 * static_cast<int>(c));
  return k;
}

class Match {
 public:
  Match(const std::array<Side, 2>& sides, LineModelCache& cache, dice::Rng& rng, int round_cap)
      : sides_(sides), cache_(cache), rng_(rng), round_cap_(round_cap) {}

  // Plays one match; returns the winner (0, 1) or -1 for a draw, and the rounds played.
  int play(int& rounds) {
    fighters_ = {};
    gap_ = 48.0;
    int alpha = 0;
    while (true) {
      // One call per statement: the order of the rolls is fixed on every compiler.
      int a = rng_.uniform(6);
      a += rng_.uniform(6);
      int b = rng_.uniform(6);
      b += rng_.uniform(6);
      if (a != b) {
        alpha = a > b ? 0 : 1;
        break;
      }
    }
    for (rounds = 1; rounds <= round_cap_; ++rounds) {
      for (int i = 0; i < 2; ++i)
        choose_dice(i);
      for (int k = 0; k < 2; ++k) {
        const int me = k == 0 ? alpha : 1 - alpha;
        if (const int w = turn(me); w >= 0) return w;
      }
      alpha = 1 - alpha;
    }
    rounds = round_cap_;
    return -1;
  }

  [[nodiscard]] const std::array<Fighter, 2>& fighters() const { return fighters_; }

 private:
  void choose_dice(int i) {
    Fighter& f = fighters_[static_cast<std::size_t>(i)];
    f.base = 0;
    int n = 0;
    for (int d : sides_[static_cast<std::size_t>(i)].preference) {
      if (n == 6) break;
      if ((f.removed >> d) & 1U) continue;
      f.base |= 1U << d;
      ++n;
    }
  }

  // Which dice on `me`'s base may attack at the current gap: anchors and wild joiners.
  void attack_candidates(int me, std::vector<int>& anchors, std::vector<int>& joiners) const {
    const Side& s = sides_[static_cast<std::size_t>(me)];
    const Fighter& f = fighters_[static_cast<std::size_t>(me)];
    for (std::size_t i = 0; i < s.dice.size(); ++i) {
      if (((f.base >> i) & 1U) == 0) continue;
      const Colour c = s.dice[i].colour;
      const Track* t = s.def.tape.track(c);
      const bool own = t != nullptr && track_usable(*t, gap_, s.def.base_diameter_in);
      if (c == Colour::White) continue;
      if (own) {
        anchors.push_back(static_cast<int>(i));
      } else if (dice::is_wild(c)) {
        joiners.push_back(static_cast<int>(i));
      }
    }
    if (anchors.empty()) joiners.clear();
  }

  double expected(int attacker, const std::vector<dice::Die>& attack,
                  const std::vector<dice::Die>& dodge) {
    const int defender = 1 - attacker;
    const Side& a = sides_[static_cast<std::size_t>(attacker)];
    const Side& d = sides_[static_cast<std::size_t>(defender)];
    const Fighter& fa = fighters_[static_cast<std::size_t>(attacker)];
    const Fighter& fd = fighters_[static_cast<std::size_t>(defender)];
    const auto shields = shields_of(d, fd);
    LineModelCache::Key key{code_of(attack),         code_of(dodge),       showing(a, fa, 1).value,
                            showing(d, fd, 2).value, shield_code(shields), attacker};
    if (auto it = cache_.expected.find(key); it != cache_.expected.end()) return it->second;
    OddsQuery q{key.weapon, key.body, attack, dodge, shields, a.def.damage_bonus};
    const double e = attack_odds(q).expected_clicks();
    cache_.expected.emplace(key, e);
    return e;
  }

  std::vector<dice::Die> dice_of(int who, const std::vector<int>& idx) const {
    std::vector<dice::Die> out;
    for (int i : idx)
      out.push_back(sides_[static_cast<std::size_t>(who)].dice[static_cast<std::size_t>(i)]);
    return out;
  }

  // Returns the winner if the attack eliminated the target, else -1.
  int attack(int me, const std::vector<int>& dice) {
    const int them = 1 - me;
    Fighter& fa = fighters_[static_cast<std::size_t>(me)];
    Fighter& fd = fighters_[static_cast<std::size_t>(them)];
    const Side& sa = sides_[static_cast<std::size_t>(me)];
    const Side& sd = sides_[static_cast<std::size_t>(them)];
    const auto attack_dice = dice_of(me, dice);
    // The defender's dodge: the subset of white/yellow (and joining wild) dice on its base that
    // saves the most expected clicks, each die spent costing a little.
    std::vector<int> dodge_cand;
    bool anchor = false;
    for (std::size_t i = 0; i < sd.dice.size(); ++i) {
      if (((fd.base >> i) & 1U) == 0) continue;
      const Colour c = sd.dice[i].colour;
      if (c == Colour::White || c == Colour::Yellow) {
        dodge_cand.push_back(static_cast<int>(i));
        anchor = true;
      } else if (dice::is_wild(c) && sd.def.tape.has(c)) {
        dodge_cand.push_back(static_cast<int>(i));
        anchor = true;
      }
    }
    (void)anchor;
    if (dodge_cand.size() > 4) dodge_cand.resize(4);
    std::vector<int> best_dodge;
    double best_e = expected(me, attack_dice, {});
    for (std::uint32_t m = 1; m < (1U << dodge_cand.size()); ++m) {
      std::vector<int> idx;
      for (std::size_t i = 0; i < dodge_cand.size(); ++i) {
        if ((m >> i) & 1U) idx.push_back(dodge_cand[i]);
      }
      const double e =
          expected(me, attack_dice, dice_of(them, idx)) + 0.05 * static_cast<double>(idx.size());
      if (e < best_e - 1e-12) {
        best_e = e;
        best_dodge = idx;
      }
    }
    AttackInput in;
    in.weapon = showing(sa, fa, 1).value;
    in.body = showing(sd, fd, 2).value;
    for (std::size_t k = 0; k < dice.size(); ++k)
      in.attack.push_back({attack_dice[k], rng_.uniform(attack_dice[k].sides)});
    for (int i : best_dodge) {
      const auto& die = sd.dice[static_cast<std::size_t>(i)];
      in.dodge.push_back({die, rng_.uniform(die.sides)});
    }
    in.shields = shields_of(sd, fd);
    in.bonus = sa.def.damage_bonus;
    const AttackResult r = resolve_attack(in);
    for (int i : dice)
      fa.base &= ~(1U << i);
    for (int i : best_dodge)
      fd.base &= ~(1U << i);
    if (!r.hit) return -1;
    if (r.has_effect(AceEffect::Stun)) fd.base = 0;
    for (int k = r.effect_count(AceEffect::TechSuperiority); k > 0; --k) {
      int cheapest = -1;
      for (std::size_t g = 0; g < sd.gear.size(); ++g) {
        if ((fd.gear_removed >> g) & 1U) continue;
        if (cheapest < 0 || sd.gear[g].points < sd.gear[static_cast<std::size_t>(cheapest)].points)
          cheapest = static_cast<int>(g);
      }
      if (cheapest < 0) break;
      fd.gear_removed |= 1U << cheapest;
      for (std::size_t i = 0; i < sd.dice.size(); ++i) {
        if (sd.gear_of_die[i] == cheapest) {
          fd.removed |= 1U << i;
          fd.base &= ~(1U << i);
        }
      }
    }
    if (r.clicks <= 0) return -1;
    fa.clicks_dealt += r.clicks;
    // Damage where it hurts least (most, after a Called Shot): holes first, then value lost.
    const bool hurt_most = r.has_effect(AceEffect::CalledShot);
    int best = 0;
    double best_score = 0;
    for (int d = 0; d < 3; ++d) {
      Fighter g = fd;
      const int last =
          static_cast<int>(sd.def.dials[static_cast<std::size_t>(d)].positions.size()) - 1;
      g.dial[static_cast<std::size_t>(d)] =
          std::min(g.dial[static_cast<std::size_t>(d)] + r.clicks, last);
      const int h = holes(sd, g);
      const double score = (h >= 3 ? 1000 : 0) + h * 10.0 +
                           (showing(sd, fd, d).value - showing(sd, g, d).value) +
                           (d == 1 ? 0.5 : 0);
      const double signed_score = hurt_most ? -score : score;
      if (d == 0 || signed_score < best_score) {
        best = d;
        best_score = signed_score;
      }
    }
    const int last =
        static_cast<int>(sd.def.dials[static_cast<std::size_t>(best)].positions.size()) - 1;
    fd.dial[static_cast<std::size_t>(best)] =
        std::min(fd.dial[static_cast<std::size_t>(best)] + r.clicks, last);
    return holes(sd, fd) >= 3 ? me : -1;
  }

  // One figure's turn: attack while it can, close in, attack again.
  int turn(int me) {
    int attacks = 0;
    bool moved = false;
    while (true) {
      if (attacks < 2) {
        std::vector<int> anchors, joiners;
        attack_candidates(me, anchors, joiners);
        std::vector<int> cand = anchors;
        cand.insert(cand.end(), joiners.begin(), joiners.end());
        if (cand.size() > 6) cand.resize(6);
        std::vector<int> best;
        double best_e = 1e-9;
        for (std::uint32_t m = 1; m < (1U << cand.size()); ++m) {
          std::vector<int> idx;
          bool has_anchor = false;
          for (std::size_t i = 0; i < cand.size(); ++i) {
            if ((m >> i) & 1U) {
              idx.push_back(cand[i]);
              has_anchor = has_anchor || i < anchors.size();
            }
          }
          if (!has_anchor) continue;
          const double e = expected(me, dice_of(me, idx), {});
          if (e > best_e) {
            best_e = e;
            best = idx;
          }
        }
        if (!best.empty()) {
          ++attacks;
          if (const int w = attack(me, best); w >= 0) return w;
          continue;
        }
      }
      if (!moved) {
        moved = true;
        const double head = showing(sides_[static_cast<std::size_t>(me)],
                                    fighters_[static_cast<std::size_t>(me)], 0)
                                .value;
        gap_ = std::max(std::min(gap_, 0.5), gap_ - head);
        continue;
      }
      return -1;
    }
  }

  const std::array<Side, 2>& sides_;
  LineModelCache& cache_;
  dice::Rng& rng_;
  int round_cap_;
  std::array<Fighter, 2> fighters_{};
  double gap_ = 48;
};

}  // namespace

SimResult simulate_line_model(const SimSide& a, const SimSide& b, int games, std::uint64_t seed,
                              int round_cap, std::shared_ptr<LineModelCache> cache) {
  if (!cache) cache = make_line_model_cache();
  const std::array<Side, 2> sides = {make_side(a), make_side(b)};
  dice::Rng rng(seed);
  Match match(sides, *cache, rng, round_cap);
  SimResult r;
  r.games = games;
  long long total_rounds = 0;
  long long dealt_a = 0;
  long long dealt_b = 0;
  for (int g = 0; g < games; ++g) {
    int rounds = 0;
    const int w = match.play(rounds);
    total_rounds += rounds;
    dealt_a += match.fighters()[0].clicks_dealt;
    dealt_b += match.fighters()[1].clicks_dealt;
    if (w == 0) ++r.wins_a;
    if (w == 1) ++r.wins_b;
    if (w < 0) ++r.draws;
  }
  r.win_a = wilson(r.wins_a, games);
  r.win_b = wilson(r.wins_b, games);
  r.mean_rounds = games > 0 ? static_cast<double>(total_rounds) / games : 0;
  r.damage_per_round_a =
      total_rounds > 0 ? static_cast<double>(dealt_a) / static_cast<double>(total_rounds) : 0;
  r.damage_per_round_b =
      total_rounds > 0 ? static_cast<double>(dealt_b) / static_cast<double>(total_rounds) : 0;
  r.odds_cached = cache->expected.size();
  return r;
}

}  // namespace duels
