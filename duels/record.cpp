#include "duels/record.hpp"

#include <fmt/format.h>

#include <limits>

#include <nlohmann/json.hpp>

#include "dice/notation.hpp"
#include "duels/limits.hpp"
#include "duels/serialize.hpp"

namespace duels {

using nlohmann::json;

namespace {

[[noreturn]] void bad(const std::string& path, const std::string& expected) {
  throw DataException({"", 0, path, expected});
}

const json& field(const json& j, const char* key, const std::string& path) {
  if (!j.is_object()) bad(path, "an object");
  auto it = j.find(key);
  if (it == j.end()) bad(path.empty() ? key : path + "." + key, "a value (it is missing)");
  return *it;
}

std::string sub(const std::string& path, const char* key) {
  return path.empty() ? key : path + "." + key;
}

long long integer(const json& j, const char* key, const std::string& path, long long lo,
                  long long hi) {
  const json& v = field(j, key, path);
  if (!v.is_number_integer()) bad(sub(path, key), "a whole number");
  const long long n = v.get<long long>();
  if (n < lo || n > hi) bad(sub(path, key), fmt::format("a whole number from {} to {}", lo, hi));
  return n;
}

double number(const json& j, const char* key, const std::string& path, double lo, double hi) {
  const json& v = field(j, key, path);
  if (!v.is_number()) bad(sub(path, key), "a number");
  const double d = v.get<double>();
  if (!(d >= lo && d <= hi)) bad(sub(path, key), fmt::format("a number from {} to {}", lo, hi));
  return d;
}

std::string text(const json& j, const char* key, const std::string& path) {
  const json& v = field(j, key, path);
  if (!v.is_string()) bad(sub(path, key), "a string");
  return v.get<std::string>();
}

bool boolean(const json& j, const char* key, const std::string& path) {
  const json& v = field(j, key, path);
  if (!v.is_boolean()) bad(sub(path, key), "true or false");
  return v.get<bool>();
}

const json& array(const json& j, const char* key, const std::string& path) {
  const json& v = field(j, key, path);
  if (!v.is_array()) bad(sub(path, key), "a list");
  return v;
}

dice::Colour colour(const json& v, const std::string& path) {
  if (!v.is_string()) bad(path, "a colour name");
  auto c = dice::parse_colour(v.get<std::string>());
  if (!c) bad(path, "a colour: white, yellow, blue, green, black or red");
  return *c;
}

std::vector<dice::Die> dice_list(const json& j, const char* key, const std::string& path) {
  const std::string t = text(j, key, path);
  if (t.empty()) return {};
  auto p = dice::parse_pool(t);
  if (!p) bad(sub(path, key), p.error().message());
  return *p;
}

/// True when `v` is a whole number an `int` holds (a roll read as 2^32 + 3 would become 3).
bool int_number(const json& v) {
  if (!v.is_number_integer()) return false;
  const long long n = v.get<long long>();
  return n >= std::numeric_limits<int>::min() && n <= std::numeric_limits<int>::max();
}

std::vector<int> int_list(const json& j, const char* key, const std::string& path, int lo, int hi) {
  std::vector<int> out;
  const json& a = array(j, key, path);
  if (a.size() > limits::kMaxListEntries)
    bad(sub(path, key), fmt::format("at most {} entries", limits::kMaxListEntries));
  for (const auto& v : a) {
    if (!v.is_number_integer()) bad(sub(path, key), "whole numbers");
    const long long n = v.get<long long>();
    if (n < lo || n > hi) bad(sub(path, key), fmt::format("numbers from {} to {}", lo, hi));
    out.push_back(static_cast<int>(n));
  }
  return out;
}

json point_json(const Point& p) {
  return json::array({p.x, p.y});
}

Point point_from(const json& v, const std::string& path) {
  if (!v.is_array() || v.size() != 2 || !v[0].is_number() || !v[1].is_number()) {
    bad(path, "a point [x, y] in inches");
  }
  const double x = v[0].get<double>();
  const double y = v[1].get<double>();
  if (!(std::abs(x) < limits::kMaxCoordIn && std::abs(y) < limits::kMaxCoordIn))
    bad(path, "coordinates within a table");
  return {x, y};
}

json measurement_json(const Measurement& m) {
  return {{"gap_in", m.gap_in},
          {"chord_in", m.chord_in},
          {"line_of_fire", m.line_of_fire},
          {"blockers", m.blockers}};
}

}  // namespace

json shape_to_json(const Shape& shape) {
  if (shape.kind == Shape::Kind::Circle) {
    return {{"circle",
             {{"x", shape.circle.centre.x},
              {"y", shape.circle.centre.y},
              {"r", shape.circle.radius_in}}}};
  }
  json pts = json::array();
  for (const Vec2& v : shape.polygon)
    pts.push_back(json::array({v.x, v.y}));
  return {{"polygon", pts}};
}

Shape shape_from_json(const json& j, const std::string& path) {
  if (!j.is_object()) bad(path, "a shape: {circle: {x, y, r}} or {polygon: [[x, y], …]}");
  if (j.contains("circle")) {
    const std::string cpath = sub(path, "circle");
    const json& c = j["circle"];
    const double x = number(c, "x", cpath, -limits::kMaxCoordIn, limits::kMaxCoordIn);
    const double y = number(c, "y", cpath, -limits::kMaxCoordIn, limits::kMaxCoordIn);
    const double r = number(c, "r", cpath, limits::kMinRadiusIn, limits::kMaxRadiusIn);
    return Shape::make_circle({x, y}, r);
  }
  if (j.contains("polygon")) {
    const json& a = array(j, "polygon", path);
    if (a.size() < limits::kMinCorners || a.size() > limits::kMaxCorners)
      bad(sub(path, "polygon"),
          fmt::format("{} to {} corners", limits::kMinCorners, limits::kMaxCorners));
    std::vector<Vec2> pts;
    for (std::size_t i = 0; i < a.size(); ++i) {
      const Point p = point_from(a[i], fmt::format("{}.polygon[{}]", path, i));
      pts.push_back({p.x, p.y});
    }
    if (polygon_self_intersects(pts))
      bad(sub(path, "polygon"), "an outline that does not cross itself");
    Shape sh = Shape::make_polygon(std::move(pts));
    if (!(area_in2(sh) > limits::kMinAreaIn2))
      bad(sub(path, "polygon"), "corners enclosing an area");
    return sh;
  }
  bad(path, "a shape: {circle: {x, y, r}} or {polygon: [[x, y], …]}");
}

FigureDef figure_from_json(const json& j, const std::string& path) {
  FigureDef f;
  f.name = text(j, "name", path);
  f.collector_number = text(j, "collector_number", path);
  f.points = static_cast<int>(integer(j, "points", path, 0, 1000));
  f.sample = boolean(j, "sample", path);
  const json& base = field(j, "base", path);
  f.base_diameter_in = number(base, "diameter", sub(path, "base"), 0.5, 12);
  f.base_height_in = number(base, "height", sub(path, "base"), 0, 12);
  f.starting_dice = dice_list(j, "starting_dice", path);
  const json& bonus = field(j, "damage_bonus", path);
  if (!bonus.is_object()) bad(sub(path, "damage_bonus"), "an object");
  for (const auto& [k, v] : bonus.items()) {
    const std::string bpath = sub(path, "damage_bonus") + "." + k;
    if (!v.is_number_integer() || v.get<long long>() < 0 || v.get<long long>() > 10)
      bad(bpath, "a bonus from 0 to 10");
    f.damage_bonus[colour(json(k), bpath)] = v.get<int>();
  }
  const json& dials = field(j, "dials", path);
  for (DialKind d : kAllDials) {
    const std::string key(d == DialKind::Head ? "head" : d == DialKind::Weapon ? "weapon" : "body");
    const std::string dpath = sub(path, "dials") + "." + key;
    const json& positions = array(dials, key.c_str(), sub(path, "dials"));
    if (positions.empty() || positions.size() > 64) bad(dpath, "1 to 64 positions");
    for (std::size_t i = 0; i < positions.size(); ++i) {
      const std::string ppath = fmt::format("{}[{}]", dpath, i);
      DialPosition p;
      p.value = static_cast<int>(integer(positions[i], "value", ppath, -20, 99));
      p.bullet_holes = static_cast<int>(integer(positions[i], "holes", ppath, 0, 3));
      if (positions[i].contains("shield"))
        p.shield = colour(positions[i]["shield"], ppath + ".shield");
      f.dials[static_cast<std::size_t>(d)].positions.push_back(p);
    }
  }
  const json& tape = array(j, "tape", path);
  for (std::size_t i = 0; i < tape.size(); ++i) {
    const std::string tpath = fmt::format("{}.tape[{}]", path, i);
    Track t;
    t.colour = colour(field(tape[i], "colour", tpath), tpath + ".colour");
    t.from_in = number(tape[i], "from", tpath, 0, 200);
    t.to_in = number(tape[i], "to", tpath, 0, 200);
    f.tape.tracks.push_back(t);
  }
  return f;
}

GearDef gear_from_json(const json& j, const std::string& path) {
  GearDef g;
  g.id = text(j, "id", path);
  g.name = text(j, "name", path);
  g.points = static_cast<int>(integer(j, "points", path, 0, kMaxGearPoints));
  g.dice = dice_list(j, "dice", path);
  for (auto& d : g.dice)
    d.origin = g.id;
  const json& shields = array(j, "shields", path);
  for (std::size_t i = 0; i < shields.size(); ++i) {
    g.shields.push_back(colour(shields[i], fmt::format("{}.shields[{}]", path, i)));
  }
  g.sample = boolean(j, "sample", path);
  return g;
}

json setup_to_json(const MatchSetup& setup) {
  json teams = json::array();
  for (const auto& t : setup.teams) {
    json figures = json::array();
    for (const auto& f : t.figures) {
      json gear = json::array();
      for (const auto& g : f.gear)
        gear.push_back(to_json(g));
      json fj{{"figure", to_json(f.figure)}, {"gear", gear}};
      if (f.position) fj["position"] = point_json(*f.position);
      figures.push_back(fj);
    }
    teams.push_back({{"name", t.name}, {"figures", figures}});
  }
  json out{{"teams", teams},
           {"options",
            {{"wild_alone_attack_needs_range", setup.options.wild_alone_attack_needs_range},
             {"enforce_placement_distance", setup.options.enforce_placement_distance},
             {"placement_distance_in", setup.options.placement_distance_in}}}};
  if (setup.table.measured) {
    // Format 2: the table and the terrain the players may put down by name. (A format 1
    // set-up has no "table": its matches keep the typed distances.)
    json catalogue = json::array();
    if (setup.table.catalogue) {
      for (const auto& o : *setup.table.catalogue)
        catalogue.push_back({{"id", o.id}, {"shape", shape_to_json(o.shape)}});
    }
    out["table"] = {{"width", setup.table.bounds.width_in},
                    {"depth", setup.table.bounds.depth_in},
                    {"catalogue", catalogue}};
  }
  return out;
}

MatchSetup setup_from_json(const json& j) {
  MatchSetup s;
  const json& teams = array(j, "teams", "setup");
  if (teams.size() < 2 || teams.size() > 16) bad("setup.teams", "2 to 16 teams");
  for (std::size_t t = 0; t < teams.size(); ++t) {
    const std::string tpath = fmt::format("setup.teams[{}]", t);
    TeamSetup ts{text(teams[t], "name", tpath), {}};
    const json& figures = array(teams[t], "figures", tpath);
    if (figures.empty() || figures.size() > 128) bad(tpath + ".figures", "1 to 128 figures");
    for (std::size_t i = 0; i < figures.size(); ++i) {
      const std::string fpath = fmt::format("{}.figures[{}]", tpath, i);
      FigureSetup fs;
      fs.figure = figure_from_json(field(figures[i], "figure", fpath), fpath + ".figure");
      const json& gear = array(figures[i], "gear", fpath);
      for (std::size_t k = 0; k < gear.size(); ++k) {
        fs.gear.push_back(gear_from_json(gear[k], fmt::format("{}.gear[{}]", fpath, k)));
      }
      if (figures[i].contains("position"))
        fs.position = point_from(figures[i]["position"], fpath + ".position");
      ts.figures.push_back(fs);
    }
    s.teams.push_back(ts);
  }
  const json& o = field(j, "options", "setup");
  s.options.wild_alone_attack_needs_range =
      boolean(o, "wild_alone_attack_needs_range", "setup.options");
  s.options.enforce_placement_distance = boolean(o, "enforce_placement_distance", "setup.options");
  s.options.placement_distance_in = number(o, "placement_distance_in", "setup.options", 0, 1000);
  if (j.contains("table")) {
    const json& t = j["table"];
    s.table.measured = true;
    s.table.bounds.width_in = number(t, "width", "setup.table", 1, 1000);
    s.table.bounds.depth_in = number(t, "depth", "setup.table", 1, 1000);
    const json& cat = array(t, "catalogue", "setup.table");
    if (cat.size() > 256) bad("setup.table.catalogue", "at most 256 pieces");
    auto pieces = std::make_shared<Obstacles>();
    for (std::size_t i = 0; i < cat.size(); ++i) {
      const std::string cpath = fmt::format("setup.table.catalogue[{}]", i);
      pieces->push_back({text(cat[i], "id", cpath),
                         shape_from_json(field(cat[i], "shape", cpath), cpath + ".shape")});
    }
    if (!pieces->empty()) s.table.catalogue = std::move(pieces);
  } else {
    s.table.measured = false;  // format 1: no table in the set-up
  }
  return s;
}

namespace {

json rolls_json(const std::vector<DieRoll>& rolls) {
  json out = json::array();
  for (const auto& r : rolls)
    out.push_back({r.die, r.face});
  return out;
}

struct ToJson {
  json operator()(const RollForAlpha& c) const {
    json rolls = json::object();
    for (const auto& [t, r] : c.rolls)
      rolls[std::to_string(t)] = {r[0], r[1]};
    return {{"type", "roll_for_alpha"}, {"rolls", rolls}};
  }
  json operator()(const PlaceTerrain& c) const {
    json j{{"type", "place_terrain"}, {"team", c.team}, {"id", c.id}};
    if (c.shape) j["shape"] = shape_to_json(*c.shape);
    return j;
  }
  json operator()(const PassTerrain& c) const {
    return {{"type", "pass_terrain"}, {"team", c.team}};
  }
  json operator()(const PlaceFigure& c) const {
    return {{"type", "place_figure"}, {"figure", c.figure}, {"at", point_json(c.at)}};
  }
  json operator()(const ChooseDice& c) const {
    return {{"type", "choose_dice"}, {"figure", c.figure}, {"dice", c.dice}};
  }
  json operator()(const Move& c) const {
    json j{{"type", "move"}, {"figure", c.figure}, {"rolls", rolls_json(c.rolls)}};
    if (c.distance_in) j["distance_in"] = *c.distance_in;
    if (c.to) j["to"] = point_json(*c.to);
    return j;
  }
  json operator()(const DeclareAttack& c) const {
    json j{{"type", "declare_attack"},
           {"attacker", c.attacker},
           {"target", c.target},
           {"gap_in", c.measurement.gap_in},
           {"chord_in", c.measurement.chord_in},
           {"line_of_fire", c.measurement.line_of_fire},
           {"blockers", c.measurement.blockers},
           {"dice", c.dice}};
    if (c.measurement.manual) j["manual"] = true;
    if (c.from_positions) j["from_positions"] = measurement_json(*c.from_positions);
    return j;
  }
  json operator()(const ChooseDodge& c) const {
    return {{"type", "choose_dodge"}, {"dice", c.dice}};
  }
  json operator()(const RollAttack& c) const {
    json j{{"type", "roll_attack"}, {"attack", c.attack_faces}, {"dodge", c.dodge_faces}};
    if (c.bonus) j["bonus"] = dice::colour_name(*c.bonus);
    return j;
  }
  json operator()(const RemoveGear& c) const {
    return {{"type", "remove_gear"}, {"gear", c.gear_id}};
  }
  json operator()(const AssignDamage& c) const {
    return {{"type", "assign_damage"},
            {"dial", c.dial == DialKind::Head     ? "head"
                     : c.dial == DialKind::Weapon ? "weapon"
                                                  : "body"}};
  }
  json operator()(const EndTurn& c) const { return {{"type", "end_turn"}, {"figure", c.figure}}; }
};

using limits::kMaxId;

}  // namespace

json command_to_json(const Command& command) {
  return std::visit(ToJson{}, command);
}

namespace {

Command parse_command(const json& j) {
  const std::string type = text(j, "type", "command");
  const std::string p = "command";
  if (type == "roll_for_alpha") {
    RollForAlpha c;
    const json& rolls = field(j, "rolls", p);
    if (!rolls.is_object() || rolls.size() > static_cast<std::size_t>(limits::kMaxTeams))
      bad("command.rolls", "an object of team → [d6, d6]");
    for (const auto& [k, v] : rolls.items()) {
      int team = 0;
      try {
        std::size_t used = 0;
        team = std::stoi(k, &used);
        if (used != k.size() || team < 0 || team > limits::kMaxTeams)
          throw std::invalid_argument(k);
      } catch (const std::exception&) {
        bad("command.rolls", "team numbers as keys");
      }
      if (!v.is_array() || v.size() != 2 || !int_number(v[0]) || !int_number(v[1])) {
        bad("command.rolls." + k, "two d6 results");
      }
      c.rolls[team] = {v[0].get<int>(), v[1].get<int>()};
    }
    return c;
  }
  if (type == "place_terrain") {
    PlaceTerrain c{static_cast<TeamId>(integer(j, "team", p, 0, kMaxId)), text(j, "id", p),
                   std::nullopt};
    if (j.contains("shape")) c.shape = shape_from_json(j["shape"], "command.shape");
    return c;
  }
  if (type == "pass_terrain")
    return PassTerrain{static_cast<TeamId>(integer(j, "team", p, 0, kMaxId))};
  if (type == "place_figure") {
    return PlaceFigure{static_cast<FigureId>(integer(j, "figure", p, 0, kMaxId)),
                       point_from(field(j, "at", p), "command.at")};
  }
  if (type == "choose_dice") {
    return ChooseDice{static_cast<FigureId>(integer(j, "figure", p, 0, kMaxId)),
                      int_list(j, "dice", p, 0, kMaxId)};
  }
  if (type == "move") {
    Move c;
    c.figure = static_cast<FigureId>(integer(j, "figure", p, 0, kMaxId));
    const json& rolls = array(j, "rolls", p);
    if (rolls.size() > limits::kMaxListEntries)
      bad("command.rolls", fmt::format("at most {} dice", limits::kMaxListEntries));
    for (const auto& r : rolls) {
      if (!r.is_array() || r.size() != 2 || !int_number(r[0]) || !int_number(r[1])) {
        bad("command.rolls", "[die, face] pairs");
      }
      c.rolls.push_back({r[0].get<int>(), r[1].get<int>()});
    }
    if (j.contains("distance_in"))
      c.distance_in = number(j, "distance_in", p, 0, limits::kMaxDistanceIn);
    if (j.contains("to")) c.to = point_from(j["to"], "command.to");
    return c;
  }
  if (type == "declare_attack") {
    DeclareAttack c;
    c.attacker = static_cast<FigureId>(integer(j, "attacker", p, 0, kMaxId));
    c.target = static_cast<FigureId>(integer(j, "target", p, 0, kMaxId));
    c.measurement.gap_in = number(j, "gap_in", p, 0, limits::kMaxDistanceIn);
    c.measurement.chord_in = number(j, "chord_in", p, 0, limits::kMaxDistanceIn);
    c.measurement.line_of_fire = boolean(j, "line_of_fire", p);
    for (const auto& b : array(j, "blockers", p)) {
      if (!b.is_string()) bad("command.blockers", "names");
      c.measurement.blockers.push_back(b.get<std::string>());
    }
    c.dice = int_list(j, "dice", p, 0, kMaxId);
    if (j.contains("manual")) c.measurement.manual = boolean(j, "manual", p);
    if (j.contains("from_positions")) {
      const json& m = j["from_positions"];
      const std::string mp = "command.from_positions";
      Measurement pm;
      pm.gap_in = number(m, "gap_in", mp, 0, limits::kMaxDistanceIn);
      pm.chord_in = number(m, "chord_in", mp, 0, limits::kMaxDistanceIn);
      pm.line_of_fire = boolean(m, "line_of_fire", mp);
      for (const auto& b : array(m, "blockers", mp)) {
        if (!b.is_string()) bad(mp + ".blockers", "names");
        pm.blockers.push_back(b.get<std::string>());
      }
      c.from_positions = pm;
    }
    return c;
  }
  if (type == "choose_dodge") return ChooseDodge{int_list(j, "dice", p, 0, kMaxId)};
  if (type == "roll_attack") {
    RollAttack c{int_list(j, "attack", p, limits::kMinFace, limits::kMaxFace),
                 int_list(j, "dodge", p, limits::kMinFace, limits::kMaxFace), std::nullopt};
    if (j.contains("bonus")) c.bonus = colour(j["bonus"], "command.bonus");
    return c;
  }
  if (type == "remove_gear") return RemoveGear{text(j, "gear", p)};
  if (type == "assign_damage") {
    auto d = parse_dial(text(j, "dial", p));
    if (!d) bad("command.dial", "head, weapon or body");
    return AssignDamage{*d};
  }
  if (type == "end_turn") return EndTurn{static_cast<FigureId>(integer(j, "figure", p, 0, kMaxId))};
  bad("command.type", fmt::format("a known command type, not '{}'", type));
}

}  // namespace

Command command_from_json(const json& j) {
  Command c = parse_command(j);
  // The engine's bounds, from the one definition it enforces them by (duels/limits.hpp).
  if (auto fault = limits::command_fault(c)) bad("command", "a command within bounds: " + *fault);
  return c;
}

}  // namespace duels
