#include "duels/autoplay.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <cstring>
#include <numbers>
#include <tuple>
#include <unordered_map>

#include "duels/engine.hpp"
#include "duels/geometry.hpp"
#include "duels/odds.hpp"
#include "duels/table_rules.hpp"

namespace duels {

namespace {

using dice::Colour;

double dist(const Point& a, const Point& b) {
  return std::hypot(a.x - b.x, a.y - b.y);
}

const FigureState& fig(const GameState& s, FigureId f) {
  return s.figures[static_cast<std::size_t>(f)];
}

std::vector<dice::Die> dice_of(const FigureState& f, const std::vector<DieId>& ids) {
  std::vector<dice::Die> out;
  for (DieId id : ids)
    out.push_back(f.dice[static_cast<std::size_t>(id)].die);
  return out;
}

std::vector<int> roll_faces(dice::Roller& roller, const FigureState& f,
                            const std::vector<DieId>& ids) {
  std::vector<int> out;
  for (DieId id : ids)
    out.push_back(roller.roll(f.dice[static_cast<std::size_t>(id)].die).face);
  return out;
}

// Round start: attack dice the tape can use (largest first), then up to two white dice, then
// wild dice; at most six.
std::vector<DieId> choose_dice(const FigureState& f) {
  std::vector<std::pair<double, DieId>> scored;
  int whites = 0;
  for (DieId id : f.dice_in(DieZone::Cup)) {
    const dice::Die& d = f.dice[static_cast<std::size_t>(id)].die;
    double score = d.sides + (d.ace ? 1.5 : 0);
    if (d.colour == Colour::White) {
      score = whites++ < 2 ? 5.5 + d.sides * 0.1 : 0.5;
    } else if (dice::is_wild(d.colour)) {
      score *= f.def.tape.has(d.colour) ? 1.0 : 0.6;
    } else if (!f.def.tape.has(d.colour)) {
      score = d.colour == Colour::Yellow ? 3 : 0.1;  // yellow still dodges
    }
    scored.emplace_back(score, id);
  }
  std::stable_sort(scored.begin(), scored.end(),
                   [](auto& a, auto& b) { return a.first > b.first; });
  std::vector<DieId> out;
  for (const auto& [score, id] : scored) {
    if (out.size() == 6) break;
    out.push_back(id);
  }
  std::sort(out.begin(), out.end());
  return out;
}

// Enemies on the table, nearest first (at most `n`).
std::vector<FigureId> nearest_enemies(const GameState& s, FigureId me, std::size_t n) {
  std::vector<std::pair<double, FigureId>> all;
  for (FigureId o = 0; o < static_cast<FigureId>(s.figures.size()); ++o) {
    const auto& f = fig(s, o);
    if (f.eliminated || f.team == fig(s, me).team || !f.position) continue;
    all.emplace_back(dist(*f.position, *fig(s, me).position), o);
  }
  std::sort(all.begin(), all.end());
  std::vector<FigureId> out;
  for (std::size_t i = 0; i < all.size() && i < n; ++i)
    out.push_back(all[i].second);
  return out;
}

bool pack_query(const OddsQuery& q, OddsCache::Key& key, bool with_dodge = true);

// A choice among subsets of `cand` added to `q` (packed as OddsCache::ChoiceKey); false when it
// does not fit (then the choice is searched every time).
bool pack_choice(RollPurpose purpose, const OddsQuery& q, const FigureState& f,
                 const std::vector<DieId>& cand, std::uint32_t n, std::uint64_t legal,
                 OddsCache::ChoiceKey& key) {
  OddsCache::Key base;
  if (!pack_query(q, base)) return false;
  auto& v = key.v;
  std::size_t at = 0;
  v[at++] = static_cast<std::uint16_t>(purpose);
  for (std::uint16_t x : base.v)
    v[at++] = x;
  v[at++] = static_cast<std::uint16_t>(n);
  for (std::uint32_t i = 0; i < n; ++i) {
    const dice::Die& d = f.dice[static_cast<std::size_t>(cand[i])].die;
    if (d.sides < 0 || d.sides > 1000) return false;
    v[at++] = static_cast<std::uint16_t>(static_cast<int>(d.colour) * 2048 + d.sides * 2 +
                                         (d.ace ? 1 : 0));
  }
  for (int w = 0; w < 4; ++w)
    v[at++] = static_cast<std::uint16_t>(legal >> (16U * static_cast<unsigned>(w)));
  return true;
}

// Which subsets of the first n candidates the rules allow for `purpose` (bit `mask`).
std::uint64_t legal_subsets(const GameState& s, const FigureState& f,
                            const std::vector<DieId>& cand, std::uint32_t n, RollPurpose purpose,
                            double gap_in, double chord_in, std::vector<dice::Die>& dice) {
  std::uint64_t legal = 0;
  for (std::uint32_t mask = 1; mask < (1U << n); ++mask) {
    dice.clear();
    for (std::uint32_t i = 0; i < n; ++i) {
      if ((mask >> i) & 1U) dice.push_back(f.dice[static_cast<std::size_t>(cand[i])].die);
    }
    if (roll_colours_ok(f, dice, purpose, gap_in, chord_in, s.options))
      legal |= std::uint64_t{1} << mask;
  }
  return legal;
}

std::vector<DieId> subset_of(const std::vector<DieId>& cand, std::uint32_t mask) {
  std::vector<DieId> ids;
  for (std::uint32_t i = 0; i < cand.size() && i < 32; ++i) {
    if ((mask >> i) & 1U) ids.push_back(cand[i]);
  }
  return ids;
}

// The attack subset with the most expected clicks (against no dodge, to stay quick).
std::optional<std::vector<DieId>> best_attack(const GameState& s, FigureId me, FigureId target,
                                              const Measurement& m, OddsCache& cache) {
  const auto cand = attack_dice_candidates(s, me, m.gap_in, m.chord_in);
  if (cand.empty()) return std::nullopt;
  const auto& a = fig(s, me);
  const auto& t = fig(s, target);
  OddsQuery q{a.value(DialKind::Weapon), t.value(DialKind::Body), {}, {}, t.shields(),
              a.def.damage_bonus};
  const auto n = static_cast<std::uint32_t>(std::min<std::size_t>(cand.size(), 6));
  q.attack.reserve(n);
  const std::uint64_t legal =
      legal_subsets(s, a, cand, n, RollPurpose::Attack, m.gap_in, m.chord_in, q.attack);
  q.attack.clear();
  OddsCache::ChoiceKey key;
  const bool keyed = pack_choice(RollPurpose::Attack, q, a, cand, n, legal, key);
  if (keyed) {
    if (auto chosen = cache.find_choice(key)) {
      if (*chosen == 0) return std::nullopt;
      return subset_of(cand, *chosen);
    }
  }
  std::uint32_t best = 0;
  double best_e = 0;
  for (std::uint32_t mask = 1; mask < (1U << n); ++mask) {
    if (((legal >> mask) & 1U) == 0) continue;
    q.attack.clear();
    for (std::uint32_t i = 0; i < n; ++i) {
      if ((mask >> i) & 1U) q.attack.push_back(a.dice[static_cast<std::size_t>(cand[i])].die);
    }
    const double e = cache.expected_clicks(q);
    if (e > best_e + 1e-12) {
      best_e = e;
      best = mask;
    }
  }
  if (keyed) cache.keep_choice(key, static_cast<std::uint8_t>(best));
  if (best == 0) return std::nullopt;
  return subset_of(cand, best);
}

std::vector<DieId> best_dodge(const GameState& s, const PendingAttack& p, OddsCache& cache) {
  const auto& a = fig(s, p.attacker);
  const auto& d = fig(s, p.target);
  std::vector<DieId> cand;
  for (DieId id : d.dice_in(DieZone::Base)) {
    const Colour c = d.dice[static_cast<std::size_t>(id)].die.colour;
    if (c == Colour::White || c == Colour::Yellow || dice::is_wild(c)) cand.push_back(id);
  }
  OddsQuery q{a.value(DialKind::Weapon),
              d.value(DialKind::Body),
              dice_of(a, p.attack_dice),
              {},
              d.shields(),
              a.def.damage_bonus};
  const auto n = static_cast<std::uint32_t>(std::min<std::size_t>(cand.size(), 6));
  q.dodge.reserve(n);
  const std::uint64_t legal = legal_subsets(s, d, cand, n, RollPurpose::Dodge, 0, 0, q.dodge);
  q.dodge.clear();
  OddsCache::ChoiceKey key;
  const bool keyed = pack_choice(RollPurpose::Dodge, q, d, cand, n, legal, key);
  if (keyed) {
    if (auto chosen = cache.find_choice(key)) return subset_of(cand, *chosen);
  }
  std::uint32_t best = 0;
  double best_e = cache.expected_clicks(q);
  for (std::uint32_t mask = 1; mask < (1U << n); ++mask) {
    if (((legal >> mask) & 1U) == 0) continue;
    q.dodge.clear();
    for (std::uint32_t i = 0; i < n; ++i) {
      if ((mask >> i) & 1U) q.dodge.push_back(d.dice[static_cast<std::size_t>(cand[i])].die);
    }
    // Dodge dice are spent for the round: take a bigger dodge only if it saves a real amount.
    const double e = cache.expected_clicks(q) + 0.05 * static_cast<double>(std::popcount(mask));
    if (e < best_e - 1e-12) {
      best_e = e;
      best = mask;
    }
  }
  if (keyed) cache.keep_choice(key, static_cast<std::uint8_t>(best));
  return subset_of(cand, best);
}

// Where damage hurts least (defender) or most (attacker with a Called Shot): bullet holes
// first, then the value lost.
DialKind pick_dial(const FigureState& f, int clicks, bool hurt_most) {
  DialKind best = DialKind::Head;
  double best_score = 0;
  bool first = true;
  FigureState g = f;  // one copy; only its dials change from try to try
  for (DialKind d : kAllDials) {
    const auto& positions = f.def.dial(d).positions;
    const int k = static_cast<int>(d);
    const int after = std::min<int>(f.dial[static_cast<std::size_t>(k)] + clicks,
                                    static_cast<int>(positions.size()) - 1);
    g.dial = f.dial;
    g.dial[static_cast<std::size_t>(k)] = after;
    const double lost = f.value(d) - g.value(d);
    const double score = (g.bullet_holes() >= 3 ? 1000 : 0) + g.bullet_holes() * 10.0 + lost +
                         (d == DialKind::Weapon ? 0.5 : 0);
    const double signed_score = hurt_most ? -score : score;
    if (first || signed_score < best_score) {
      best = d;
      best_score = signed_score;
      first = false;
    }
  }
  return best;
}

// A legal set-up spot for a figure, the nearest to `want` on a 1" grid (nullopt when none).
std::optional<Point> legal_spot_near(const GameState& s, FigureId f, Point want) {
  std::optional<Point> best;
  double best_d = 0;
  const auto& t = s.table.bounds;
  for (double x = 0.5; x < t.width_in; x += 1.0) {
    for (double y = 0.5; y < t.depth_in; y += 1.0) {
      const double d = std::hypot(x - want.x, y - want.y);
      if (best && d >= best_d) continue;
      if (!check_placement(s, f, Point{x, y})) {
        best = Point{x, y};
        best_d = d;
      }
    }
  }
  return best;
}

// Answers worked out from a movement field, kept under the field's serial number and the bits
// of the other inputs: a field's answers never change (move_field_of hands out the same field
// while the mover and everything it must respect are the same, bit for bit), so a kept answer
// is the one working it out again gives. Simulated matches close in from the same few spots
// over and over.
template <std::size_t N, typename Value>
class FieldMemo {
 public:
  using Key = std::array<std::uint64_t, N>;
  const Value* find(const Key& k) const {
    auto it = map_.find(k);
    return it == map_.end() ? nullptr : &it->second;
  }
  void keep(const Key& k, Value v) {
    if (map_.size() >= kMaxEntries) map_.clear();  // bounded memory: start again
    map_.emplace(k, std::move(v));
  }

 private:
  static constexpr std::size_t kMaxEntries = 1U << 15U;
  struct Hash {
    std::size_t operator()(const Key& k) const {
      std::uint64_t h = 0x243F6A8885A308D3ULL;
      for (std::uint64_t x : k) {
        h = (h ^ x) * 0xBF58476D1CE4E5B9ULL;
        h ^= h >> 31U;
      }
      return static_cast<std::size_t>(h);
    }
  };
  std::unordered_map<Key, Value, Hash> map_;
};

std::uint64_t bits_of(double d) {
  std::uint64_t b = 0;
  std::memcpy(&b, &d, sizeof b);
  return b;
}

// Where close_in heads for: the reachable spot next to the target with the shortest way there
// (none when boxed in), and that way's length.
struct CloseInGoal {
  std::optional<Vec2> goal;
  double length_in = std::numeric_limits<double>::infinity();
};

CloseInGoal close_in_goal(const MoveField& field, const Disc& goal_disc) {
  const Disc& disc = field.mover();
  // The reachable spot next to the target with the shortest way there (the first of the 24 on
  // a tie). Spots reached in a straight line come first: their distance is the straight one
  // (norm from the field's start, what distance_to answers for them) and needs no path graph; a
  // spot behind something is then worked out only when its straight distance (a lower bound on any
  // way there) could still match the best.
  const double ring = goal_disc.radius_in + disc.radius_in + 0.5;
  std::array<Vec2, 24> spots{};
  std::array<bool, 24> legal{};
  std::array<bool, 24> straight{};
  // The 24 directions, worked out once (the same values each time).
  static const std::array<Vec2, 24> kDirections = [] {
    std::array<Vec2, 24> d{};
    for (int k = 0; k < 24; ++k) {
      const double a = 2 * std::numbers::pi * k / 24;
      d[static_cast<std::size_t>(k)] = Vec2{std::cos(a), std::sin(a)};
    }
    return d;
  }();
  for (int k = 0; k < 24; ++k) {
    spots[static_cast<std::size_t>(k)] =
        goal_disc.centre + kDirections[static_cast<std::size_t>(k)] * ring;
    legal[static_cast<std::size_t>(k)] = field.legal_end(spots[static_cast<std::size_t>(k)]);
    straight[static_cast<std::size_t>(k)] =
        legal[static_cast<std::size_t>(k)] &&
        field.straight_run_clear(spots[static_cast<std::size_t>(k)]);
  }
  CloseInGoal out;
  int goal_k = -1;
  auto offer = [&](int k, double len) {
    if (len < out.length_in || (len == out.length_in && k < goal_k)) {
      out.length_in = len;
      goal_k = k;
      out.goal = spots[static_cast<std::size_t>(k)];
    }
  };
  for (int k = 0; k < 24; ++k) {
    if (straight[static_cast<std::size_t>(k)])
      offer(k, norm(spots[static_cast<std::size_t>(k)] - field.mover().centre));
  }
  int hint = -1;
  for (int k = 0; k < 24; ++k) {
    const auto i = static_cast<std::size_t>(k);
    if (!legal[i] || straight[i]) continue;
    if (norm(spots[i] - disc.centre) > out.length_in) continue;  // no way round is shorter
    // Capped just above the best so far: a tie with an earlier spot is still seen.
    offer(k, field.distance_below(spots[i], std::nextafter(out.length_in, INFINITY), &hint));
  }
  return out;
}

// Where a move toward `goal` within `allowance` ends: as far along the shortest path as the
// allowance goes, backed off until the base may stand there; nullopt to stay put.
std::optional<Vec2> close_in_end(const MoveField& field, Vec2 goal, double allowance) {
  const PathResult path = field.path_to(goal);
  if (!path.found) return std::nullopt;
  const std::vector<Vec2> line = path.polyline(0.001);
  if (line.empty()) return std::nullopt;
  // Walk `length` along the path's corners.
  auto point_at = [&](double length) {
    Vec2 p = line.front();
    for (std::size_t i = 1; i < line.size(); ++i) {
      const double seg = norm(line[i] - line[i - 1]);
      if (length <= seg)
        return seg > 0 ? line[i - 1] + (line[i] - line[i - 1]) * (length / seg) : p;
      length -= seg;
      p = line[i];
    }
    return p;
  };
  for (double back = 0; back <= allowance + 0.05; back += 0.05) {
    const double along = std::min(allowance, path.length_in) - back;
    if (along < 0) break;
    const Vec2 p = point_at(along);
    if (field.end_clearance_in(p) < 1e-6) continue;
    if (field.distance_below(p, allowance) <= allowance - 1e-6) return p;
  }
  return std::nullopt;
}

// The move on a measured table: along the shortest legal path towards a spot half an inch from
// the target's base, as far as the allowance goes, ending where the base may stand.
Command close_in(const GameState& s, FigureId me, FigureId target, const Measurement& m,
                 dice::Roller& roller) {
  const auto& f = fig(s, me);
  const Disc goal_disc = base_disc(fig(s, target));
  const MoveField field = move_field_of(s, me);
  thread_local FieldMemo<4, CloseInGoal> goals;
  thread_local FieldMemo<4, std::optional<Vec2>> ends;
  const FieldMemo<4, CloseInGoal>::Key goal_key{field.serial(), bits_of(goal_disc.centre.x),
                                                bits_of(goal_disc.centre.y),
                                                bits_of(goal_disc.radius_in)};
  const CloseInGoal* chosen = goals.find(goal_key);
  if (chosen == nullptr) {
    goals.keep(goal_key, close_in_goal(field, goal_disc));
    chosen = goals.find(goal_key);
  }
  const std::optional<Vec2> goal = chosen->goal;
  const double goal_len = chosen->length_in;
  const Point here = *f.position;
  if (!goal) return Move{me, {}, std::nullopt, here};  // boxed in: stay
  std::vector<DieRoll> rolls;
  int sum = 0;
  if (goal_len > f.value(DialKind::Head) + 0.5 || m.gap_in > f.value(DialKind::Head) + 0.5) {
    for (DieId id : f.dice_in(DieZone::Base)) {
      if (f.dice[static_cast<std::size_t>(id)].die.colour == Colour::White) {
        const auto r = roller.roll(f.dice[static_cast<std::size_t>(id)].die);
        rolls.push_back({id, r.face});
        sum += r.value();
        break;  // keep a white die for dodging
      }
    }
  }
  const double allowance = f.value(DialKind::Head) + sum;
  const FieldMemo<4, std::optional<Vec2>>::Key end_key{field.serial(), bits_of(goal->x),
                                                       bits_of(goal->y), bits_of(allowance)};
  const std::optional<Vec2>* end = ends.find(end_key);
  if (end == nullptr) {
    ends.keep(end_key, close_in_end(field, *goal, allowance));
    end = ends.find(end_key);
  }
  if (!*end) return Move{me, rolls, std::nullopt, here};
  return Move{me, rolls, std::nullopt, Point{(*end)->x, (*end)->y}};
}

// FNV-1a over a cache key's words, folded.
template <std::size_t N>
std::size_t hash_words(const std::array<std::uint16_t, N>& words) {
  std::uint64_t h = 1469598103934665603ULL;
  for (std::uint16_t x : words) {
    h ^= x;
    h *= 1099511628211ULL;
  }
  return static_cast<std::size_t>(h ^ (h >> 29U));
}

}  // namespace

std::size_t OddsCache::ChoiceKeyHash::operator()(const ChoiceKey& k) const {
  return hash_words(k.v);
}

std::size_t OddsCache::KeyHash::operator()(const Key& k) const {
  return hash_words(k.v);
}

namespace {

// Packs a query into a key; false when it does not fit (then the odds are not cached).
bool pack_query(const OddsQuery& q, OddsCache::Key& key, bool with_dodge) {
  auto& v = key.v;
  std::size_t n = 0;
  auto put = [&](long long x) {
    if (n >= v.size() || x < 0 || x > 0xFFFF) return false;
    v[n++] = static_cast<std::uint16_t>(x);
    return true;
  };
  auto put_dice = [&](const std::vector<dice::Die>& d) {
    if (!put(static_cast<long long>(d.size()))) return false;
    const std::size_t from = n;
    for (const auto& die : d) {
      if (die.sides < 0 || die.sides > 1000) return false;
      if (!put(static_cast<long long>(static_cast<int>(die.colour)) * 2048 + die.sides * 2 +
               (die.ace ? 1 : 0)))
        return false;
    }
    std::sort(v.begin() + static_cast<long>(from), v.begin() + static_cast<long>(n));
    return true;
  };
  constexpr long long kOffset = 0x8000;
  if (!put(q.weapon + kOffset) || !put(q.body + kOffset)) return false;
  if (!put_dice(q.attack) || !put_dice(with_dodge ? q.dodge : std::vector<dice::Die>{}))
    return false;
  std::array<int, dice::kColourCount> shields{};
  for (auto c : q.shields)
    ++shields[static_cast<std::size_t>(c)];
  for (int c : shields)
    if (!put(c)) return false;
  if (!put(static_cast<long long>(q.bonus.size()))) return false;
  for (const auto& [c, b] : q.bonus)
    if (!put(static_cast<int>(c)) || !put(b + kOffset)) return false;
  return true;
}

}  // namespace

double OddsCache::expected_clicks(const OddsQuery& q) {
  // The order of dice and shields does not change the odds, so the key holds them sorted.
  Key key;
  if (!pack_query(q, key)) return attack_odds(q).expected_clicks();
  if (auto it = map_.find(key); it != map_.end()) return it->second;
  // A new situation: its attack side (the query without the dodge dice) is kept too, since the
  // dodge search asks the same attack against every subset of the dice on the base. The counts,
  // and so the expected clicks, are attack_odds(q)'s.
  Key side_key;
  double e = 0;
  if (pack_query(q, side_key, false)) {
    auto it = sides_.find(side_key);
    if (it == sides_.end()) {
      if (sides_.size() >= kMaxSides) sides_.clear();  // bounded memory: start again
      it = sides_.emplace(side_key, AttackSide(q)).first;
    }
    e = it->second.against(q.dodge).expected_clicks();
  } else {
    e = attack_odds(q).expected_clicks();
  }
  map_.emplace(key, e);
  return e;
}

double open_table_gap(const FigureState& a, const FigureState& b) {
  return std::max(0.0, dist(*a.position, *b.position) - a.def.base_diameter_in / 2 -
                           b.def.base_diameter_in / 2);
}

Measurement open_table_measurement(const GameState& s, FigureId attacker, FigureId target,
                                   const Obstacles& terrain) {
  const auto& a = fig(s, attacker);
  const auto& t = fig(s, target);
  auto disc = [](const FigureState& f) {
    return Disc{Vec2{f.position->x, f.position->y}, f.def.base_diameter_in / 2};
  };
  Obstacles others = terrain;
  for (FigureId o = 0; o < static_cast<FigureId>(s.figures.size()); ++o) {
    const auto& f = fig(s, o);
    if (o == attacker || o == target || f.eliminated || !f.position) continue;
    others.push_back({f.def.name, Shape::make_circle(Vec2{f.position->x, f.position->y},
                                                     f.def.base_diameter_in / 2)});
  }
  const LineOfFireResult lof = line_of_fire(disc(a), disc(t), others);
  Measurement m{std::max(0.0, open_table_gap(a, t)), a.def.base_diameter_in, lof.clear, {}};
  if (lof.clear) {
    m.gap_in = lof.gap_in;
    m.chord_in = std::min(lof.chord_in, a.def.base_diameter_in);
  } else {
    for (std::size_t b : lof.blockers)
      m.blockers.push_back(others[b].id);
  }
  return m;
}

std::optional<Command> AutoPlayer::next(const GameState& s) {
  roller_ = dice::Roller(seed_ ^ (0x9E3779B97F4A7C15ULL * (step_ + 1)));
  ++step_;
  return decide(s);
}

std::optional<Command> AutoPlayer::decide(const GameState& s) {
  switch (s.phase) {
    case Phase::GameOver:
      return std::nullopt;
    case Phase::AlphaRoll: {
      RollForAlpha c;
      for (TeamId t : s.alpha_contenders) {
        c.rolls[t] = {roller_.rng().uniform(6), roller_.rng().uniform(6)};
      }
      return c;
    }
    case Phase::PlaceTerrain:
      // The table's catalogue pieces, in catalogue order, while they fit.
      if (s.table.measured && s.table.catalogue) {
        for (const auto& piece : *s.table.catalogue) {
          const bool down = std::any_of(s.terrain.begin(), s.terrain.end(),
                                        [&](const TerrainPiece& t) { return t.id == piece.id; });
          if (!down && !check_terrain_shape(s, piece.id, piece.shape))
            return PlaceTerrain{s.placing, piece.id, piece.shape};
        }
      }
      return PassTerrain{s.placing};
    case Phase::PlaceFigures: {
      // Teams around a circle on a 60" table, far enough apart for the 48" rule.
      const auto n = static_cast<double>(s.teams.size());
      const double radius = std::max(26.0, 27.0 / std::sin(std::numbers::pi / n));
      const double angle = 2 * std::numbers::pi * s.placing / n + std::numbers::pi / 2;
      int index = 0;
      for (const auto& f : s.figures) {
        if (f.team == s.placing && f.position) ++index;
      }
      for (FigureId f = 0; f < static_cast<FigureId>(s.figures.size()); ++f) {
        if (fig(s, f).team == s.placing && !fig(s, f).position) {
          const double side = (index % 2 == 0 ? 1 : -1) * 3.0 * ((index + 1) / 2);
          const double cx = s.table.measured ? s.table.bounds.width_in / 2 : 30;
          const double cy = s.table.measured ? s.table.bounds.depth_in / 2 : 30;
          const Point want{cx + radius * std::cos(angle) - side * std::sin(angle),
                           cy + radius * std::sin(angle) + side * std::cos(angle)};
          if (s.table.measured && check_placement(s, f, want)) {
            if (auto spot = legal_spot_near(s, f, want)) return PlaceFigure{f, *spot};
          }
          return PlaceFigure{f, want};
        }
      }
      return std::nullopt;
    }
    case Phase::ChooseDice:
      for (FigureId f = 0; f < static_cast<FigureId>(s.figures.size()); ++f) {
        if (!fig(s, f).chose_dice) return ChooseDice{f, choose_dice(fig(s, f))};
      }
      return std::nullopt;
    case Phase::Turns:
      break;
  }
  if (s.attack) {
    const auto& p = *s.attack;
    switch (p.stage) {
      case AttackStage::Dodge:
        return ChooseDodge{best_dodge(s, p, *cache_)};
      case AttackStage::Roll:
        return RollAttack{roll_faces(roller_, fig(s, p.attacker), p.attack_dice),
                          roll_faces(roller_, fig(s, p.target), p.dodge_dice), std::nullopt};
      case AttackStage::RemoveGear: {
        const auto& d = fig(s, p.target);
        const GearState* cheapest = nullptr;
        for (const auto& g : d.gear) {
          if (!g.removed && (cheapest == nullptr || g.def.points < cheapest->def.points))
            cheapest = &g;
        }
        return RemoveGear{cheapest->def.id};
      }
      case AttackStage::Damage:
        return AssignDamage{pick_dial(fig(s, p.target), p.result.clicks, p.attacker_assigns)};
    }
  }
  FigureId me = -1;
  if (s.active_figure) {
    me = *s.active_figure;
  } else {
    for (FigureId f : s.team_figures(s.active_team, true)) {
      if (!fig(s, f).turn_done) {
        me = f;
        break;
      }
    }
  }
  const auto& f = fig(s, me);
  const auto enemies = nearest_enemies(s, me, 4);
  if (enemies.empty() || !f.position) return EndTurn{me};
  // Attack the nearest enemy in line of fire that some dice on the base can reach.
  std::optional<FigureId> target;
  Measurement m;
  for (FigureId e : enemies) {
    const Measurement em = measure_from_positions(s, me, e);
    if (!target) {
      target = e;  // the one to close in on when nothing can be attacked
      m = em;
    }
    if (f.attacks < 2 && em.line_of_fire) {
      if (auto dice = best_attack(s, me, e, em, *cache_)) return DeclareAttack{me, e, em, *dice};
    }
  }
  if (!f.moved && s.table.measured) return close_in(s, me, *target, m, roller_);
  if (!f.moved) {
    // Close in, stopping half an inch short of the target's base; roll the white dice when far.
    std::vector<DieRoll> rolls;
    int sum = 0;
    if (m.gap_in > f.value(DialKind::Head) + 0.5) {
      std::vector<DieId> movers;
      for (DieId id : f.dice_in(DieZone::Base)) {
        if (f.dice[static_cast<std::size_t>(id)].die.colour == Colour::White) movers.push_back(id);
      }
      if (movers.size() > 1) movers.resize(1);  // keep a white die for dodging
      for (DieId id : movers) {
        const auto r = roller_.roll(f.dice[static_cast<std::size_t>(id)].die);
        rolls.push_back({id, r.face});
        sum += r.value();
      }
    }
    const double allowance = f.value(DialKind::Head) + sum;
    const double travel = std::max(0.0, std::min(allowance, m.gap_in - 0.5));
    const Point from = *f.position;
    Point to = *fig(s, *target).position;
    if (!m.line_of_fire) {
      // Step round whatever blocks the line: aim beside the target.
      const double dx = to.x - from.x;
      const double dy = to.y - from.y;
      const double len = std::max(1e-9, std::hypot(dx, dy));
      const double side = (me % 2 == 0 ? 1.0 : -1.0) * 4.0;
      to = Point{to.x - dy / len * side, to.y + dx / len * side};
    }
    const double d = dist(from, to);
    const Point end =
        d > 0 ? Point{from.x + (to.x - from.x) * travel / d, from.y + (to.y - from.y) * travel / d}
              : from;
    return Move{me, rolls, travel, end};
  }
  return EndTurn{me};
}

}  // namespace duels
