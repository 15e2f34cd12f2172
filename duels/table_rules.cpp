#include "duels/table_rules.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <cmath>
#include <cstring>
#include <unordered_map>

#include "common/names.hpp"
#include "duels/limits.hpp"

namespace duels {

namespace {

const FigureState& fig(const GameState& s, FigureId f) {
  return s.figures[static_cast<std::size_t>(f)];
}

Rejection reject(RejectCode code, std::string reason) {
  return Rejection{code, std::move(reason)};
}

std::string at(Point p) {
  return fmt::format("({:.1f}, {:.1f})", p.x, p.y);
}

// A length beside the allowance it exceeds: one decimal, or two when one would read the same.
std::string longer(double length, double allowance) {
  std::string a = fmt::format("{:.1f}", length);
  if (a == fmt::format("{:.1f}", allowance)) a = fmt::format("{:.2f}", length);
  return a + "\"";
}

// "the crate", "Gridlock": terrain by its id with an article, bases by the figure's name.
std::string list_names(const std::vector<std::string>& names) {
  std::string out;
  for (std::size_t i = 0; i < names.size(); ++i) {
    if (i > 0) out += i + 1 == names.size() ? " and " : ", ";
    out += names[i];
  }
  return out;
}

bool is_terrain(const GameState& s, const std::string& id) {
  return std::any_of(s.terrain.begin(), s.terrain.end(),
                     [&](const TerrainPiece& t) { return t.id == id; });
}

std::string thing(const GameState& s, const std::string& id) {
  return is_terrain(s, id) ? "the " + id : id;
}

}  // namespace

Disc base_disc(const FigureState& f) {
  return Disc{Vec2{f.position->x, f.position->y}, f.def.base_diameter_in / 2};
}

Obstacles terrain_obstacles(const GameState& s) {
  Obstacles out;
  out.reserve(s.terrain.size());
  for (const auto& t : s.terrain) {
    if (t.shape) out.push_back({t.id, *t.shape});
  }
  return out;
}

Obstacles line_of_fire_blockers(const GameState& s, FigureId attacker, FigureId target) {
  Obstacles others = terrain_obstacles(s);
  for (FigureId o = 0; o < static_cast<FigureId>(s.figures.size()); ++o) {
    const auto& f = fig(s, o);
    if (o == attacker || o == target || f.eliminated || !f.position) continue;
    others.push_back({f.def.name, Shape::make_circle(base_disc(f).centre, base_disc(f).radius_in)});
  }
  return others;
}

namespace {

// Bit for bit (so -0.0 and 0.0, which atan2 tells apart, are not taken for each other).
bool same_bits(const Disc& x, const Disc& y) {
  return std::memcmp(&x.centre.x, &y.centre.x, sizeof(double)) == 0 &&
         std::memcmp(&x.centre.y, &y.centre.y, sizeof(double)) == 0 &&
         std::memcmp(&x.radius_in, &y.radius_in, sizeof(double)) == 0;
}

bool same_bits(double x, double y) {
  return std::memcmp(&x, &y, sizeof(double)) == 0;
}

bool same_bits(const Vec2& x, const Vec2& y) {
  return same_bits(x.x, y.x) && same_bits(x.y, y.y);
}

// Bit for bit, as same_bits(Disc) (0.0 and -0.0 are told apart).
bool same_shape_bits(const Shape& x, const Shape& y) {
  if (x.kind != y.kind || !same_bits(x.circle, y.circle) || x.polygon.size() != y.polygon.size())
    return false;
  for (std::size_t i = 0; i < x.polygon.size(); ++i) {
    if (!same_bits(x.polygon[i], y.polygon[i])) return false;
  }
  return true;
}

// A hash of doubles by their bits, for the kept measurements and fields: it takes in the bases
// only (the terrain rarely changes within a run), and entries are then compared in full, so a
// collision only costs a comparison.
struct BitHash {
  std::uint64_t h = 0x243F6A8885A308D3ULL;
  void mix(std::uint64_t x) {
    h ^= x + 0x9E3779B97F4A7C15ULL + (h << 6U) + (h >> 2U);
    h *= 0xBF58476D1CE4E5B9ULL;
  }
  void add(double d) {
    std::uint64_t b = 0;
    std::memcpy(&b, &d, sizeof b);
    mix(b);
  }
  void add(const Disc& d) {
    add(d.centre.x);
    add(d.centre.y);
    add(d.radius_in);
  }
  [[nodiscard]] std::uint64_t value() const { return h ^ (h >> 31U); }
};

// Whether `others` is what line_of_fire_blockers(s, attacker, target) would build, compared in
// place (nothing is copied or allocated).
bool same_blockers(const GameState& s, FigureId attacker, FigureId target,
                   const Obstacles& others) {
  std::size_t i = 0;
  for (const auto& t : s.terrain) {
    if (!t.shape) continue;
    if (i >= others.size() || others[i].id != t.id || !same_shape_bits(others[i].shape, *t.shape))
      return false;
    ++i;
  }
  for (FigureId o = 0; o < static_cast<FigureId>(s.figures.size()); ++o) {
    const auto& f = fig(s, o);
    if (o == attacker || o == target || f.eliminated || !f.position) continue;
    if (i >= others.size()) return false;
    const Obstacle& ob = others[i++];
    if (ob.id != f.def.name || ob.shape.kind != Shape::Kind::Circle || !ob.shape.polygon.empty() ||
        !same_bits(ob.shape.circle, base_disc(f)))
      return false;
  }
  return i == others.size();
}

/// Answers kept on one thread: up to kEntries entries found by a hash, the last four handed out
/// tried first (a turn asks the same question again and again). An entry is handed out only when
/// `serves` says it answers this very question; entries stay put until the store is full, when
/// it starts again (bounded memory).
template <class Entry>
class KeptAnswers {
 public:
  template <class Serves, class Hash, class Make>
  const Entry& find_or_make(Serves&& serves, Hash&& hash, Make&& make) {
    for (const Entry* e : recent_) {
      if (e != nullptr && serves(*e)) return *e;
    }
    const std::uint64_t h = hash();
    const Entry* found = nullptr;
    const auto [first, last] = cache_.equal_range(h);
    for (auto it = first; it != last && found == nullptr; ++it) {
      if (serves(it->second)) found = &it->second;
    }
    if (found == nullptr) {
      if (cache_.size() >= kEntries) {
        cache_.clear();
        recent_.fill(nullptr);
      }
      found = &cache_.emplace(h, make())->second;
    }
    recent_[next_] = found;
    next_ = (next_ + 1) % recent_.size();
    return *found;
  }

 private:
  static constexpr std::size_t kEntries = 8192;
  std::unordered_multimap<std::uint64_t, Entry> cache_;
  std::array<const Entry*, 4> recent_{};
  std::size_t next_ = 0;
};

Measurement measure_uncached(const GameState& s, FigureId attacker, FigureId target,
                             const Obstacles& others) {
  const auto& a = fig(s, attacker);
  const auto& t = fig(s, target);
  const LineOfFireResult lof = line_of_fire(base_disc(a), base_disc(t), others);
  Measurement m{
      std::max(0.0, gap_in(base_disc(a), base_disc(t))), a.def.base_diameter_in, lof.clear, {}};
  if (lof.clear) {
    m.gap_in = std::max(0.0, lof.gap_in);
    m.chord_in = std::clamp(lof.chord_in, 1e-9, a.def.base_diameter_in);
  } else {
    for (std::size_t b : lof.blockers)
      m.blockers.push_back(others[b].id);
  }
  return m;
}

}  // namespace

Measurement measure_from_positions(const GameState& s, FigureId attacker, FigureId target) {
  const auto& a = fig(s, attacker);
  const auto& t = fig(s, target);
  // The built-in opponent measures an attack before declaring it and the engine measures it
  // again; an opponent's turn measures the same pair after each of its attacks, and simulated
  // matches measure from the same few spots over and over. Measurements made on this thread are
  // kept (up to kEntries) and handed out again while the two bases and everything that may block
  // them are the same, bit for bit (line_of_fire is a pure function of these), so the answer is
  // the one a fresh measurement gives.
  struct Entry {
    Disc a;
    Disc t;
    Obstacles others;
    Measurement m;
  };
  thread_local KeptAnswers<Entry> kept;
  const Disc da = base_disc(a);
  const Disc dt = base_disc(t);
  auto hash = [&] {
    BitHash h;
    h.add(da);
    h.add(dt);
    for (FigureId o = 0; o < static_cast<FigureId>(s.figures.size()); ++o) {
      const auto& f = fig(s, o);
      if (o == attacker || o == target || f.eliminated || !f.position) continue;
      h.add(base_disc(f));
    }
    return h.value();
  };
  auto serves = [&](const Entry& e) {
    return same_bits(e.a, da) && same_bits(e.t, dt) && same_blockers(s, attacker, target, e.others);
  };
  auto make = [&] {
    Obstacles others = line_of_fire_blockers(s, attacker, target);
    Measurement m = measure_uncached(s, attacker, target, others);
    return Entry{da, dt, std::move(others), std::move(m)};
  };
  return kept.find_or_make(serves, hash, make).m;
}

MoveObstacles move_obstacles_of(const GameState& s, FigureId mover) {
  MoveObstacles w;
  w.table = s.table.bounds;
  w.terrain = terrain_obstacles(s);
  const TeamId team = fig(s, mover).team;
  for (FigureId o = 0; o < static_cast<FigureId>(s.figures.size()); ++o) {
    const auto& f = fig(s, o);
    if (o == mover || f.eliminated || !f.position) continue;
    Obstacle ob{f.def.name, Shape::make_circle(base_disc(f).centre, base_disc(f).radius_in)};
    (f.team == team ? w.friendly_bases : w.opposing_bases).push_back(std::move(ob));
  }
  return w;
}

namespace {

// Whether `w` == move_obstacles_of(s, mover), to the bit, compared in place (nothing is built).
bool same_world(const GameState& s, FigureId mover, const MoveObstacles& w) {
  if (!same_bits(w.table.width_in, s.table.bounds.width_in) ||
      !same_bits(w.table.depth_in, s.table.bounds.depth_in))
    return false;
  std::size_t i = 0;
  for (const auto& t : s.terrain) {
    if (!t.shape) continue;
    if (i >= w.terrain.size() || w.terrain[i].id != t.id ||
        !same_shape_bits(w.terrain[i].shape, *t.shape))
      return false;
    ++i;
  }
  if (i != w.terrain.size()) return false;
  const TeamId team = fig(s, mover).team;
  std::size_t friendly = 0;
  std::size_t opposing = 0;
  for (FigureId o = 0; o < static_cast<FigureId>(s.figures.size()); ++o) {
    const auto& f = fig(s, o);
    if (o == mover || f.eliminated || !f.position) continue;
    const Obstacles& list = f.team == team ? w.friendly_bases : w.opposing_bases;
    std::size_t& at = f.team == team ? friendly : opposing;
    if (at >= list.size()) return false;
    const Obstacle& ob = list[at++];
    if (ob.id != f.def.name ||
        !same_shape_bits(ob.shape, Shape::make_circle(base_disc(f).centre, base_disc(f).radius_in)))
      return false;
  }
  return friendly == w.friendly_bases.size() && opposing == w.opposing_bases.size();
}

// A hash of what move_field_of's answer depends on, but for the table and its terrain (which
// rarely change within a run): the mover's disc and the other bases. same_world compares the
// rest.
std::uint64_t world_hash(const GameState& s, FigureId mover, const Disc& disc) {
  BitHash h;
  h.add(disc);
  const TeamId team = fig(s, mover).team;
  for (FigureId o = 0; o < static_cast<FigureId>(s.figures.size()); ++o) {
    const auto& f = fig(s, o);
    if (o == mover || f.eliminated || !f.position) continue;
    h.mix(f.team == team ? 1 : 2);
    h.add(base_disc(f));
  }
  return h.value();
}

}  // namespace

MoveField move_field_of(const GameState& s, FigureId mover) {
  // Exact reuse: an entry serves only a mover disc and a world equal to the ones it was built
  // for, bit for bit, so the answers are those of a fresh field. Simulated matches start from
  // the same set-up and their moves end on the same few spots, so the same fields recur from
  // match to match (in 3,300 games of one matchup on the demo table, 96 % of the path graphs
  // needed had been built before); up to kEntries fields built on this thread are kept.
  struct Entry {
    Disc disc;
    MoveObstacles world;
    MoveField field;
  };
  thread_local KeptAnswers<Entry> kept;
  const Disc disc = base_disc(fig(s, mover));
  auto serves = [&](const Entry& e) {
    return same_bits(e.disc, disc) && same_world(s, mover, e.world);
  };
  auto make = [&] {
    MoveObstacles world = move_obstacles_of(s, mover);
    MoveField field(disc, world);
    return Entry{disc, std::move(world), std::move(field)};
  };
  return kept
      .find_or_make(
          serves, [&] { return world_hash(s, mover, disc); }, make)
      .field;
}

MoveCheck check_move(const GameState& s, FigureId figure, Point to, double allowance_in) {
  MoveCheck out;
  const auto& f = fig(s, figure);
  const std::string& name = f.def.name;
  if (!f.position) {
    out.reason = fmt::format("{} is not on the table", name);
    return out;
  }
  const Disc disc = base_disc(f);
  const Vec2 goal{to.x, to.y};
  out.straight_in = norm(goal - disc.centre);
  const MoveField field = move_field_of(s, figure);
  if (!field.start_problem().empty()) {
    out.reason = fmt::format("{} can't move: {}", name, field.start_problem());
    return out;
  }
  const EndCheck end = field.end_check(goal);
  if (!end.ok) {
    out.code = RejectCode::BadTarget;
    std::string why = end.reason;
    // "the base would overlap terrain 'crate'" → "its base would overlap the crate"
    for (const auto& t : s.terrain) {
      const std::string q = "terrain '" + t.id + "'";
      if (auto p = why.find(q); p != std::string::npos) why.replace(p, q.size(), "the " + t.id);
    }
    for (const auto& o : s.figures) {
      const std::string q = "'" + o.def.name + "'";
      if (auto p = why.find(q); p != std::string::npos) why.replace(p, q.size(), o.def.name);
    }
    if (auto p = why.find("the base"); p == 0) why.replace(0, 8, "its base");
    out.reason = fmt::format("{} can't end at {}: {}", name, at(to), why);
    return out;
  }
  out.path = field.path_to(goal);
  if (!out.path.found) {
    out.code = RejectCode::TooFar;
    out.reason = fmt::format(
        "{} has no way to {}: terrain, opposing bases or the table edge cut "
        "it off",
        name, at(to));
    return out;
  }
  out.length_in = out.path.length_in;
  if (out.length_in > out.straight_in + 1e-6) {
    // Name what the straight line runs into: terrain and opposing bases grown by the radius.
    const MoveObstacles world = move_obstacles_of(s, figure);
    const Segment straight{disc.centre, goal};
    std::vector<std::pair<double, std::string>> hit;
    auto consider = [&](const Obstacles& obs) {
      for (const auto& o : obs) {
        if (distance_in(straight, o.shape) < disc.radius_in - 1e-9) {
          hit.emplace_back(distance_in(disc.centre, o.shape), thing(s, o.id));
        }
      }
    };
    consider(world.terrain);
    consider(world.opposing_bases);
    std::sort(hit.begin(), hit.end());
    for (auto& [d, n] : hit)
      out.detour.push_back(n);
  }
  if (out.length_in > allowance_in + kMoveLengthToleranceIn) {
    out.code = RejectCode::TooFar;
    const std::string len = longer(out.length_in, allowance_in);
    if (!out.detour.empty()) {
      out.reason =
          fmt::format("{} can reach at most {:.1f}\"; the shortest way round {} to {} is {}", name,
                      allowance_in, list_names(out.detour), at(to), len);
    } else if (out.length_in > out.straight_in + 1e-6) {
      out.reason = fmt::format(
          "{} can reach at most {:.1f}\"; the shortest way to {} (along the table edge) is {}",
          name, allowance_in, at(to), len);
    } else {
      out.reason = fmt::format("{} can reach at most {:.1f}\"; {} is {} away", name, allowance_in,
                               at(to), len);
    }
    return out;
  }
  out.ok = true;
  return out;
}

std::optional<Rejection> check_placement(const GameState& s, FigureId figure, Point p) {
  const auto& f = fig(s, figure);
  const Disc disc{Vec2{p.x, p.y}, f.def.base_diameter_in / 2};
  const auto& t = s.table.bounds;
  if (p.x - disc.radius_in < -1e-9 || p.y - disc.radius_in < -1e-9 ||
      p.x + disc.radius_in > t.width_in + 1e-9 || p.y + disc.radius_in > t.depth_in + 1e-9) {
    return reject(RejectCode::PlacementTooClose,
                  fmt::format("{} must stand wholly on the {:g}\" × {:g}\" table (its base at {} "
                              "would not)",
                              f.def.name, t.width_in, t.depth_in, at(p)));
  }
  for (const auto& o : terrain_obstacles(s)) {
    const double d = distance_in(disc.centre, o.shape);
    if (d < disc.radius_in - 1e-9) {
      return reject(RejectCode::PlacementTooClose,
                    fmt::format("{} can't stand at {}: its base would overlap the {}", f.def.name,
                                at(p), o.id));
    }
  }
  for (const auto& o : s.figures) {
    if (!o.position || &o == &f || o.eliminated) continue;
    const double gap = gap_in(disc, base_disc(o));
    if (gap < -1e-9) {
      return reject(RejectCode::PlacementTooClose,
                    fmt::format("{} can't stand at {}: its base would overlap {}'s", f.def.name,
                                at(p), o.def.name));
    }
    if (o.team != f.team && s.options.enforce_placement_distance &&
        gap < s.options.placement_distance_in - 1e-9) {
      return reject(RejectCode::PlacementTooClose,
                    fmt::format("{} must start at least {:.1f}\" from {} (the gap would be "
                                "{:.1f}\")",
                                f.def.name, s.options.placement_distance_in, o.def.name, gap));
    }
  }
  return std::nullopt;
}

std::optional<Rejection> check_terrain_shape(const GameState& s, const std::string& id,
                                             const Shape& shape) {
  const auto& t = s.table.bounds;
  if (shape.kind == Shape::Kind::Circle) {
    const Disc& c = shape.circle;
    if (!(c.radius_in >= limits::kMinRadiusIn && c.radius_in <= limits::kMaxRadiusIn))
      return reject(RejectCode::Other, fmt::format("the {} needs a radius from {:g} to {:g} inches",
                                                   id, limits::kMinRadiusIn, limits::kMaxRadiusIn));
    if (c.centre.x - c.radius_in < -1e-9 || c.centre.y - c.radius_in < -1e-9 ||
        c.centre.x + c.radius_in > t.width_in + 1e-9 ||
        c.centre.y + c.radius_in > t.depth_in + 1e-9) {
      return reject(RejectCode::Other,
                    fmt::format("the {} must lie wholly on the {:g}\" × {:g}\" table", id,
                                t.width_in, t.depth_in));
    }
  } else {
    if (shape.polygon.size() < limits::kMinCorners || !(area_in2(shape) > limits::kMinAreaIn2))
      return reject(RejectCode::Other,
                    fmt::format("the {} needs at least three corners enclosing an area", id));
    if (polygon_self_intersects(shape.polygon))
      return reject(RejectCode::Other, fmt::format("the {}'s outline crosses itself", id));
    for (const Vec2& v : shape.polygon) {
      if (v.x < -1e-9 || v.y < -1e-9 || v.x > t.width_in + 1e-9 || v.y > t.depth_in + 1e-9) {
        return reject(RejectCode::Other,
                      fmt::format("the {} must lie wholly on the {:g}\" × {:g}\" table (its "
                                  "corner ({:.1f}, {:.1f}) is off it)",
                                  id, t.width_in, t.depth_in, v.x, v.y));
      }
    }
  }
  for (const auto& f : s.figures) {
    if (!f.position || f.eliminated) continue;
    if (distance_in(base_disc(f).centre, shape) < base_disc(f).radius_in - 1e-9) {
      return reject(RejectCode::Other,
                    fmt::format("the {} would overlap {}'s base", id, f.def.name));
    }
  }
  return std::nullopt;
}

const Obstacle* catalogue_piece(const GameState& s, std::string_view id) {
  if (!s.table.catalogue) return nullptr;
  for (const auto& o : *s.table.catalogue) {
    if (same_name(o.id, id)) return &o;
  }
  return nullptr;
}

std::vector<std::string> table_notes(const GameState& s) {
  std::vector<std::string> out;
  if (!s.table.measured) {
    out.emplace_back(
        "this journal is from before format 2: moves and attacks keep the distances typed in "
        "it, and the table does not check them");
  }
  for (const auto& t : s.terrain) {
    if (!t.shape) {
      out.push_back(
          fmt::format("terrain '{}' has no shape (written before format 2): it blocks "
                      "nothing",
                      t.id));
    }
  }
  return out;
}

TableState table_from_scene(const Scene& scene) {
  TableState t;
  t.bounds = scene.table;
  auto pieces = std::make_shared<Obstacles>();
  for (const auto& p : scene.terrain)
    pieces->push_back({p.id, p.shape});
  if (!pieces->empty()) t.catalogue = std::move(pieces);
  return t;
}

std::string describe_shape(const Shape& shape) {
  if (shape.kind == Shape::Kind::Circle) {
    return fmt::format("circle r {:.1f} at ({:.1f}, {:.1f})", shape.circle.radius_in,
                       shape.circle.centre.x, shape.circle.centre.y);
  }
  Vec2 lo = shape.polygon.front();
  Vec2 hi = lo;
  for (const Vec2& v : shape.polygon) {
    lo = {std::min(lo.x, v.x), std::min(lo.y, v.y)};
    hi = {std::max(hi.x, v.x), std::max(hi.y, v.y)};
  }
  return fmt::format("{}-cornered piece {:.1f}\" × {:.1f}\" around ({:.1f}, {:.1f})",
                     shape.polygon.size(), hi.x - lo.x, hi.y - lo.y, (lo.x + hi.x) / 2,
                     (lo.y + hi.y) / 2);
}

}  // namespace duels
