#include "duels/limits.hpp"

#include <fmt/format.h>

#include <cmath>

#include "common/utf8.hpp"
#include "duels/geometry.hpp"

namespace duels::limits {

namespace {

using Fault = std::optional<std::string>;

Fault id_fault(int id, const char* what) {
  if (id < 0 || id > kMaxId) return fmt::format("{} must be a number from 0 to {}", what, kMaxId);
  return std::nullopt;
}

Fault ids_fault(const std::vector<int>& ids, const char* what) {
  if (ids.size() > kMaxListEntries)
    return fmt::format("at most {} {} in one command", kMaxListEntries, what);
  for (int id : ids) {
    if (auto f = id_fault(id, what)) return f;
  }
  return std::nullopt;
}

Fault name_fault(const std::string& name, const char* what) {
  if (name.size() > kMaxNameBytes)
    return fmt::format("{} may be at most {} bytes long", what, kMaxNameBytes);
  if (!valid_utf8(name)) return fmt::format("{} must be UTF-8 text", what);
  return std::nullopt;
}

bool coordinate_ok(double v) {
  return std::abs(v) < kMaxCoordIn;  // false for NaN
}

Fault point_fault(const Point& p, const char* what) {
  if (!coordinate_ok(p.x) || !coordinate_ok(p.y))
    return fmt::format("{} must be a point within {:g} inches of the table's corner", what,
                       kMaxCoordIn);
  return std::nullopt;
}

Fault distance_fault(double d, const char* what) {
  if (!(d >= 0 && d <= kMaxDistanceIn))
    return fmt::format("{} must be a distance from 0 to {:g} inches", what, kMaxDistanceIn);
  return std::nullopt;
}

Fault shape_fault(const Shape& shape) {
  if (shape.kind == Shape::Kind::Circle) {
    if (!coordinate_ok(shape.circle.centre.x) || !coordinate_ok(shape.circle.centre.y))
      return fmt::format("the terrain's centre must lie within {:g} inches of the table's corner",
                         kMaxCoordIn);
    const double r = shape.circle.radius_in;
    if (!(r >= kMinRadiusIn && r <= kMaxRadiusIn))
      return fmt::format("the terrain's radius must be from {:g} to {:g} inches", kMinRadiusIn,
                         kMaxRadiusIn);
    return std::nullopt;
  }
  const auto& corners = shape.polygon;
  if (corners.size() < kMinCorners || corners.size() > kMaxCorners)
    return fmt::format("the terrain's outline needs {} to {} corners", kMinCorners, kMaxCorners);
  for (const Vec2& v : corners) {
    if (!coordinate_ok(v.x) || !coordinate_ok(v.y))
      return fmt::format("the terrain's corners must lie within {:g} inches of the table's corner",
                         kMaxCoordIn);
  }
  if (polygon_self_intersects(corners)) return std::string("the terrain's outline crosses itself");
  if (!(area_in2(shape) > kMinAreaIn2))
    return std::string("the terrain's corners must enclose an area");
  return std::nullopt;
}

Fault measurement_fault(const Measurement& m) {
  if (auto f = distance_fault(m.gap_in, "the gap")) return f;
  if (auto f = distance_fault(m.chord_in, "the chord")) return f;
  if (m.blockers.size() > kMaxListEntries)
    return fmt::format("at most {} things blocking one line of fire", kMaxListEntries);
  for (const auto& b : m.blockers) {
    if (auto f = name_fault(b, "what blocks the line of fire")) return f;
  }
  return std::nullopt;
}

struct Check {
  Fault operator()(const RollForAlpha& c) const {
    if (c.rolls.size() > static_cast<std::size_t>(kMaxTeams))
      return fmt::format("at most {} teams roll for alpha", kMaxTeams);
    for (const auto& entry : c.rolls) {
      if (entry.first < 0 || entry.first > kMaxTeams)
        return fmt::format("a team rolling for alpha must be a number from 0 to {}", kMaxTeams);
    }
    return std::nullopt;
  }
  Fault operator()(const PlaceTerrain& c) const {
    if (auto f = id_fault(c.team, "the team")) return f;
    if (auto f = name_fault(c.id, "the terrain's name")) return f;
    if (c.shape) return shape_fault(*c.shape);
    return std::nullopt;
  }
  Fault operator()(const PassTerrain& c) const { return id_fault(c.team, "the team"); }
  Fault operator()(const PlaceFigure& c) const {
    if (auto f = id_fault(c.figure, "the figure")) return f;
    return point_fault(c.at, "where the figure stands");
  }
  Fault operator()(const ChooseDice& c) const {
    if (auto f = id_fault(c.figure, "the figure")) return f;
    return ids_fault(c.dice, "dice");
  }
  Fault operator()(const Move& c) const {
    if (auto f = id_fault(c.figure, "the figure")) return f;
    if (c.rolls.size() > kMaxListEntries)
      return fmt::format("at most {} movement dice", kMaxListEntries);
    if (c.distance_in) {
      if (auto f = distance_fault(*c.distance_in, "the distance moved")) return f;
    }
    if (c.to) return point_fault(*c.to, "where the figure moves to");
    return std::nullopt;
  }
  Fault operator()(const DeclareAttack& c) const {
    if (auto f = id_fault(c.attacker, "the attacker")) return f;
    if (auto f = id_fault(c.target, "the target")) return f;
    if (auto f = measurement_fault(c.measurement)) return f;
    if (auto f = ids_fault(c.dice, "dice")) return f;
    if (c.from_positions) return measurement_fault(*c.from_positions);
    return std::nullopt;
  }
  Fault operator()(const ChooseDodge& c) const { return ids_fault(c.dice, "dice"); }
  Fault operator()(const RollAttack& c) const {
    for (const auto* faces : {&c.attack_faces, &c.dodge_faces}) {
      if (faces->size() > kMaxListEntries)
        return fmt::format("at most {} results in one roll", kMaxListEntries);
      for (int v : *faces) {
        if (v < kMinFace || v > kMaxFace)
          return fmt::format("a die shows {} to {} (not {})", kMinFace, kMaxFace, v);
      }
    }
    return std::nullopt;
  }
  Fault operator()(const RemoveGear& c) const { return name_fault(c.gear_id, "the gear's id"); }
  Fault operator()(const AssignDamage&) const { return std::nullopt; }
  Fault operator()(const EndTurn& c) const { return id_fault(c.figure, "the figure"); }
};

}  // namespace

std::optional<std::string> command_fault(const Command& command) {
  return std::visit(Check{}, command);
}

}  // namespace duels::limits
