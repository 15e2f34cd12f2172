// Reading table scenes from YAML, and the all-pairs table check.
#include "duels/scene.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <limits>
#include <set>
#include <sstream>

#include "common/yaml_read.hpp"
#include "duels/geometry_internal.hpp"

namespace duels {

namespace {

constexpr double kMaxInches = 10000;
constexpr double kOverlapTolIn = 1e-9;

std::string inches(double v) {
  return fmt::format("{:.3g}\"", v);
}

// A size that must be a positive number of inches.
std::optional<double> positive(FieldReader& r, const YAML::Node& map, std::string_view key,
                               std::string_view path, bool required) {
  const auto v = r.number(map, key, path, required, -kMaxInches, kMaxInches);
  if (v && *v <= 0) {
    r.error(map[std::string(key)], join_path(path, key),
            fmt::format("a positive number of inches, not {}", *v), map);
    return std::nullopt;
  }
  return v;
}

std::optional<Vec2> read_point(FieldReader& r, const YAML::Node& node, const std::string& path) {
  double x = 0;
  double y = 0;
  if (!node.IsSequence() || node.size() != 2 || !node[0].IsScalar() || !node[1].IsScalar() ||
      !YAML::convert<double>::decode(node[0], x) || !YAML::convert<double>::decode(node[1], y) ||
      !std::isfinite(x) || !std::isfinite(y) || std::abs(x) > kMaxInches ||
      std::abs(y) > kMaxInches) {
    r.error(node, path, "a point [x, y] of two numbers (inches)");
    return std::nullopt;
  }
  return Vec2{x, y};
}

// One terrain entry: id and exactly one of polygon / rect / circle.
std::optional<SceneTerrain> read_terrain(FieldReader& r, const YAML::Node& node,
                                         const std::string& path) {
  if (!r.expect_map(node, path, {"id", "polygon", "rect", "circle", "notes"})) return std::nullopt;
  const auto id = r.text(node, "id", path, true);
  const int shapes = static_cast<int>(node["polygon"].IsDefined()) +
                     static_cast<int>(node["rect"].IsDefined()) +
                     static_cast<int>(node["circle"].IsDefined());
  if (shapes != 1) {
    r.error(node, path,
            shapes == 0 ? "a shape: one of polygon, rect or circle"
                        : "only one shape (polygon, rect or circle), not several");
    return std::nullopt;
  }
  SceneTerrain t;
  t.id = id.value_or("");
  if (node["polygon"].IsDefined()) {
    const std::string ppath = join_path(path, "polygon");
    const YAML::Node pts = r.sequence(node, "polygon", path, true);
    std::vector<Vec2> corners;
    bool ok = pts.size() > 0;
    for (std::size_t i = 0; i < pts.size(); ++i) {
      const auto p = read_point(r, pts[i], index_path(ppath, i));
      if (p) {
        corners.push_back(*p);
      } else {
        ok = false;
      }
    }
    if (!ok) return std::nullopt;
    if (corners.size() < 3) {
      r.error(node["polygon"], ppath, fmt::format("at least 3 corners, not {}", corners.size()),
              node);
      return std::nullopt;
    }
    if (polygon_self_intersects(corners)) {
      r.error(node["polygon"], ppath, "a simple polygon (its edges cross or touch each other)",
              node);
      return std::nullopt;
    }
    if (std::abs(geom::signed_area2(corners)) <= 1e-12) {
      r.error(node["polygon"], ppath, "a polygon with some area (its corners are in a line)", node);
      return std::nullopt;
    }
    t.shape = Shape::make_polygon(std::move(corners));
  } else if (node["rect"].IsDefined()) {
    const std::string rpath = join_path(path, "rect");
    const YAML::Node rect = r.mapping(node, "rect", path, true);
    if (!r.expect_map(rect, rpath, {"x", "y", "width", "depth", "angle"})) return std::nullopt;
    const auto x = r.number(rect, "x", rpath, true, -kMaxInches, kMaxInches);
    const auto y = r.number(rect, "y", rpath, true, -kMaxInches, kMaxInches);
    const auto w = positive(r, rect, "width", rpath, true);
    const auto d = positive(r, rect, "depth", rpath, true);
    const auto angle = r.number(rect, "angle", rpath, false, -360, 360);
    if (!x || !y || !w || !d) return std::nullopt;
    t.shape = Shape::make_rect({*x, *y}, *w, *d, angle.value_or(0));
  } else {
    const std::string cpath = join_path(path, "circle");
    const YAML::Node circle = r.mapping(node, "circle", path, true);
    if (!r.expect_map(circle, cpath, {"x", "y", "r"})) return std::nullopt;
    const auto x = r.number(circle, "x", cpath, true, -kMaxInches, kMaxInches);
    const auto y = r.number(circle, "y", cpath, true, -kMaxInches, kMaxInches);
    const auto rad = positive(r, circle, "r", cpath, true);
    if (!x || !y || !rad) return std::nullopt;
    t.shape = Shape::make_circle({*x, *y}, *rad);
  }
  if (!id) return std::nullopt;
  return t;
}

}  // namespace

std::optional<std::size_t> Scene::base_index(std::string_view id) const {
  for (std::size_t i = 0; i < bases.size(); ++i) {
    if (bases[i].id == id) return i;
  }
  return std::nullopt;
}

Scene parse_scene(const std::string& text, const std::string& file, const FigureLookup& figures) {
  const YAML::Node root = parse_yaml_text(text, file);
  FieldReader r(file);
  Scene scene;
  if (!r.expect_map(root, "",
                    {"schema_version", "units", "table", "bases", "terrain", "name", "notes"})) {
    r.throw_if_errors();
  }
  r.schema_version(root, kSceneSchemaVersion);
  if (const auto units = r.text(root, "units", "", true); units && *units != "in") {
    r.error(root["units"], "units", fmt::format("in (inches), not '{}'", *units), root);
  }
  const YAML::Node table = r.mapping(root, "table", "", true);
  if (r.expect_map(table, "table", {"width", "depth"})) {
    scene.table.width_in = positive(r, table, "width", "table", true).value_or(60);
    scene.table.depth_in = positive(r, table, "depth", "table", true).value_or(60);
  }

  // Which entry each id came from (bases and terrain share one namespace).
  std::set<std::string, std::less<>> seen;
  std::vector<YAML::Node> base_nodes;
  std::vector<std::string> base_paths;
  const YAML::Node bases = r.sequence(root, "bases", "", true);
  for (std::size_t i = 0; i < bases.size(); ++i) {
    const YAML::Node b = bases[i];
    const std::string path = index_path("bases", i);
    if (!r.expect_map(b, path, {"id", "figure", "team", "x", "y", "diameter", "notes"})) continue;
    SceneBase base;
    const auto id = r.text(b, "id", path, true);
    const auto figure = r.text(b, "figure", path, false);
    const auto team = r.integer(b, "team", path, true, 1, 99);
    const auto x = r.number(b, "x", path, true, -kMaxInches, kMaxInches);
    const auto y = r.number(b, "y", path, true, -kMaxInches, kMaxInches);
    const auto diameter = positive(r, b, "diameter", path, false);
    bool ok = id && team && x && y;
    std::optional<double> dia = diameter;
    if (figure) {
      base.figure = *figure;
      const FigureDef* def = figures ? figures(*figure) : nullptr;
      if (def == nullptr) {
        r.error(b["figure"], join_path(path, "figure"),
                fmt::format("the name of a known figure ('{}' is not one)", *figure), b);
        ok = false;
      } else {
        base.tape = def->tape;
        if (!dia) dia = def->base_diameter_in;
      }
    } else if (!diameter && !b["diameter"].IsDefined()) {
      r.error(b, join_path(path, "diameter"),
              "a base diameter in inches (needed when the base names no figure)");
      ok = false;
    }
    if (!ok || !dia) continue;
    if (!seen.insert(*id).second) {
      r.error(b["id"], join_path(path, "id"), fmt::format("a unique id ('{}' is used twice)", *id),
              b);
      continue;
    }
    base.id = *id;
    base.team = *team;
    base.disc = {{*x, *y}, *dia / 2};
    scene.bases.push_back(std::move(base));
    base_nodes.push_back(b);
    base_paths.push_back(path);
  }

  std::vector<YAML::Node> terrain_nodes;
  const YAML::Node terrain = r.sequence(root, "terrain", "", false);
  for (std::size_t i = 0; i < terrain.size(); ++i) {
    const std::string path = index_path("terrain", i);
    auto t = read_terrain(r, terrain[i], path);
    if (!t) continue;
    if (!seen.insert(t->id).second) {
      r.error(terrain[i]["id"], join_path(path, "id"),
              fmt::format("a unique id ('{}' is used twice)", t->id), terrain[i]);
      continue;
    }
    scene.terrain.push_back(std::move(*t));
    terrain_nodes.push_back(terrain[i]);
  }

  // Where the pieces stand: bases wholly on the table, overlapping no base and no terrain.
  for (std::size_t i = 0; i < scene.bases.size(); ++i) {
    const SceneBase& b = scene.bases[i];
    const Vec2 c = b.disc.centre;
    const double rad = b.disc.radius_in;
    if (c.x - rad < -kOverlapTolIn || c.y - rad < -kOverlapTolIn ||
        c.x + rad > scene.table.width_in + kOverlapTolIn ||
        c.y + rad > scene.table.depth_in + kOverlapTolIn) {
      r.error(base_nodes[i], base_paths[i],
              fmt::format("a base wholly on the {} × {} table ('{}' reaches over its edge)",
                          inches(scene.table.width_in), inches(scene.table.depth_in), b.id));
    }
    for (std::size_t j = 0; j < i; ++j) {
      const double g = gap_in(b.disc, scene.bases[j].disc);
      if (g < -kOverlapTolIn) {
        r.error(base_nodes[i], base_paths[i],
                fmt::format("a base clear of base '{}' ('{}' overlaps it by {})", scene.bases[j].id,
                            b.id, inches(-g)));
      }
    }
    for (const SceneTerrain& t : scene.terrain) {
      double depth = 0;
      if (t.shape.kind == Shape::Kind::Circle) {
        depth = -(norm(c - t.shape.circle.centre) - t.shape.circle.radius_in - rad);
      } else {
        const double bd = geom::polygon_boundary_distance(c, t.shape.polygon);
        depth = rad - (geom::point_in_polygon(c, t.shape.polygon) ? -bd : bd);
      }
      if (depth > kOverlapTolIn) {
        r.error(base_nodes[i], base_paths[i],
                fmt::format("a base clear of terrain '{}' ('{}' overlaps it by {})", t.id, b.id,
                            inches(depth)));
      }
    }
  }
  r.throw_if_errors();
  return scene;
}

Scene load_scene_file(const std::string& path, const FigureLookup& figures) {
  return parse_scene(read_text_file(path, "a readable scene file"), path, figures);
}

Obstacles line_of_fire_obstacles(const Scene& scene, std::size_t attacker, std::size_t target) {
  Obstacles out;
  for (std::size_t i = 0; i < scene.bases.size(); ++i) {
    if (i == attacker || i == target) continue;
    const SceneBase& b = scene.bases[i];
    out.push_back({b.id, Shape::make_circle(b.disc.centre, b.disc.radius_in)});
  }
  for (const SceneTerrain& t : scene.terrain)
    out.push_back({t.id, t.shape});
  return out;
}

MoveObstacles move_obstacles(const Scene& scene, std::size_t mover) {
  MoveObstacles out;
  out.table = scene.table;
  const int team = scene.bases[mover].team;
  for (std::size_t i = 0; i < scene.bases.size(); ++i) {
    if (i == mover) continue;
    const SceneBase& b = scene.bases[i];
    Obstacle o{b.id, Shape::make_circle(b.disc.centre, b.disc.radius_in)};
    (b.team == team ? out.friendly_bases : out.opposing_bases).push_back(std::move(o));
  }
  for (const SceneTerrain& t : scene.terrain)
    out.terrain.push_back({t.id, t.shape});
  return out;
}

double chord_along(const Disc& base, const Segment& line) {
  const Vec2 d = line.b - line.a;
  const double len = norm(d);
  if (len <= 0) return 2 * base.radius_in;
  const double off = cross(d / len, base.centre - line.a);
  return 2 * std::sqrt(std::max(0.0, base.radius_in * base.radius_in - off * off));
}

std::vector<PairCheck> check_scene(const Scene& scene) {
  std::vector<PairCheck> out;
  const std::size_t n = scene.bases.size();
  for (std::size_t i = 0; i < n; ++i) {
    for (std::size_t j = i + 1; j < n; ++j) {
      const SceneBase& a = scene.bases[i];
      const SceneBase& b = scene.bases[j];
      if (a.team == b.team) continue;
      const Obstacles others = line_of_fire_obstacles(scene, i, j);
      PairCheck fwd;
      fwd.from = i;
      fwd.to = j;
      fwd.gap_in = gap_in(a.disc, b.disc);
      fwd.line_of_fire = line_of_fire(a.disc, b.disc, others);
      for (std::size_t k : fwd.line_of_fire.blockers)
        fwd.blockers.push_back(others[k].id);
      PairCheck rev = fwd;
      rev.from = j;
      rev.to = i;
      if (fwd.line_of_fire.clear) {
        rev.line_of_fire.witness = {fwd.line_of_fire.witness.b, fwd.line_of_fire.witness.a};
        rev.line_of_fire.chord_in = chord_along(b.disc, fwd.line_of_fire.witness);
      }
      for (PairCheck* p : {&fwd, &rev}) {
        const SceneBase& attacker = scene.bases[p->from];
        p->has_tape = attacker.tape.has_value();
        if (p->has_tape && p->line_of_fire.clear) {
          p->usable =
              usable_colours(*attacker.tape, p->line_of_fire.gap_in, p->line_of_fire.chord_in);
        }
      }
      out.push_back(std::move(fwd));
      out.push_back(std::move(rev));
    }
  }
  std::stable_sort(out.begin(), out.end(), [](const PairCheck& x, const PairCheck& y) {
    return x.from < y.from || (x.from == y.from && x.to < y.to);
  });
  return out;
}

}  // namespace duels
