#include "duels/assets.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include "common/yaml_read.hpp"
#include "dice/notation.hpp"

namespace duels {

namespace {

std::string lower(std::string_view s) {
  std::string out(s);
  std::transform(out.begin(), out.end(), out.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return out;
}

// Dice as a list of notation strings or one string with several tokens.
std::vector<dice::Die> read_dice(FieldReader& r, const YAML::Node& map, std::string_view key,
                                 std::string_view path, bool required) {
  std::vector<dice::Die> out;
  const std::string field = join_path(path, key);
  const YAML::Node node = map.IsMap() ? map[std::string(key)] : YAML::Node();
  if (!node.IsDefined() || node.IsNull()) {
    if (required) r.error(node, field, "dice like [yellow:d6, 2xwhite:d6] (it is missing)", map);
    return out;
  }
  std::vector<std::pair<std::string, YAML::Node>> texts;
  if (node.IsScalar()) {
    texts.emplace_back(node.Scalar(), node);
  } else if (node.IsSequence()) {
    for (std::size_t i = 0; i < node.size(); ++i) {
      if (!node[i].IsScalar()) {
        r.error(node[i], index_path(field, i), "a die like yellow:d8:ace", node);
        continue;
      }
      texts.emplace_back(node[i].Scalar(), node[i]);
    }
  } else {
    r.error(node, field, "a list of dice like [yellow:d6, 2xwhite:d6]", map);
    return out;
  }
  for (const auto& [text, at] : texts) {
    auto parsed = dice::parse_pool(text);
    if (!parsed) {
      DataError e = parsed.error().as_data_error(r.file(), FieldReader::line_of(at), field);
      r.error(at, e.field, e.expected, node);
      continue;
    }
    out.insert(out.end(), parsed->begin(), parsed->end());
  }
  return out;
}

std::optional<dice::Colour> read_colour_scalar(FieldReader& r, const YAML::Node& node,
                                               const std::string& field,
                                               const YAML::Node& fallback) {
  if (!node.IsScalar()) {
    r.error(node, field, "a colour: white, yellow, blue, green, black or red", fallback);
    return std::nullopt;
  }
  auto c = dice::parse_colour(node.Scalar());
  if (!c) {
    r.error(
        node, field,
        fmt::format("a colour: white, yellow, blue, green, black or red, not '{}'", node.Scalar()),
        fallback);
  }
  return c;
}

// A dial position: {value: 5, shield: yellow, holes: 1}, or a number, or "5 yellow hole".
std::optional<DialPosition> read_position(FieldReader& r, const YAML::Node& node,
                                          const std::string& field, const YAML::Node& parent) {
  DialPosition p;
  if (node.IsMap()) {
    r.expect_map(node, field, {"value", "shield", "holes"});
    auto v = r.integer(node, "value", field, true, kMinDialValue, kMaxDialValue);
    auto h = r.integer(node, "holes", field, false, 0, 3);
    const YAML::Node shield = node["shield"];
    if (shield.IsDefined() && !shield.IsNull()) {
      p.shield = read_colour_scalar(r, shield, join_path(field, "shield"), node);
    }
    if (!v) return std::nullopt;
    p.value = *v;
    p.bullet_holes = h.value_or(0);
    return p;
  }
  if (!node.IsScalar()) {
    r.error(
        node, field,
        "a dial position like 5, \"5 yellow\", \"4 hole\" or {value: 5, shield: yellow, holes: 1}",
        parent);
    return std::nullopt;
  }
  std::istringstream words(node.Scalar());
  std::string word;
  bool first = true;
  while (words >> word) {
    if (first) {
      try {
        std::size_t used = 0;
        p.value = std::stoi(word, &used);
        if (used != word.size() || p.value < kMinDialValue || p.value > kMaxDialValue)
          throw std::invalid_argument(word);
      } catch (const std::exception&) {
        r.error(node, field,
                fmt::format("a dial value from {} to {} first, not '{}'", kMinDialValue,
                            kMaxDialValue, word),
                parent);
        return std::nullopt;
      }
      first = false;
    } else if (word == "hole") {
      ++p.bullet_holes;
    } else if (auto c = dice::parse_colour(word)) {
      if (p.shield) {
        r.error(node, field, "at most one shield per dial position", parent);
        return std::nullopt;
      }
      p.shield = c;
    } else {
      r.error(node, field, fmt::format("a shield colour or 'hole' after the value, not '{}'", word),
              parent);
      return std::nullopt;
    }
  }
  if (first) {
    r.error(node, field, "a dial value", parent);
    return std::nullopt;
  }
  if (p.bullet_holes > 3) {
    r.error(node, field, "at most three bullet holes on one position", parent);
    return std::nullopt;
  }
  return p;
}

std::optional<FigureDef> read_figure(FieldReader& r, const YAML::Node& node,
                                     const std::string& path) {
  const std::size_t errors_before = r.errors().size();
  if (!r.expect_map(node, path,
                    {"name", "collector_number", "points", "base", "starting_dice", "damage_bonus",
                     "dials", "tape", "sample", "notes"})) {
    return std::nullopt;
  }
  FigureDef f;
  f.name = r.text(node, "name", path, true).value_or("");
  if (f.name.empty() && r.errors().size() == errors_before)
    r.error(node["name"], join_path(path, "name"), "a non-empty name", node);
  f.collector_number = r.text(node, "collector_number", path, false).value_or("");
  f.points = r.integer(node, "points", path, true, 0, 1000).value_or(0);
  const YAML::Node base = r.mapping(node, "base", path, true);
  const std::string base_path = join_path(path, "base");
  r.expect_map(base, base_path, {"diameter", "height"});
  f.base_diameter_in = r.number(base, "diameter", base_path, true, 0.5, 12).value_or(2);
  f.base_height_in = r.number(base, "height", base_path, false, 0, 12).value_or(0.75);
  f.starting_dice = read_dice(r, node, "starting_dice", path, true);
  const YAML::Node bonus = r.mapping(node, "damage_bonus", path, false);
  for (const auto& entry : bonus) {
    const std::string bpath = join_path(join_path(path, "damage_bonus"), entry.first.Scalar());
    auto c = read_colour_scalar(r, entry.first, bpath, bonus);
    long long v = 0;
    if (!entry.second.IsScalar() || !YAML::convert<long long>::decode(entry.second, v) || v < 0 ||
        v > 10) {
      r.error(entry.second, bpath, "a bonus from 0 to 10", bonus);
      continue;
    }
    if (c) f.damage_bonus[*c] = static_cast<int>(v);
  }
  const YAML::Node dials = r.mapping(node, "dials", path, true);
  const std::string dials_path = join_path(path, "dials");
  r.expect_map(dials, dials_path, {"head", "weapon", "body"});
  int max_holes = 0;
  for (DialKind d : kAllDials) {
    const std::string key = lower(dial_name(d));
    const YAML::Node seq = r.sequence(dials, key, dials_path, true);
    const std::string dpath = join_path(dials_path, key);
    if (dials.IsMap() && dials[key].IsDefined() && seq.size() == 0) {
      r.error(dials[key], dpath, "at least one position (the green-arrow start)", dials);
    }
    int dial_max = 0;
    for (std::size_t i = 0; i < seq.size(); ++i) {
      auto p = read_position(r, seq[i], index_path(dpath, i), seq);
      if (!p) continue;
      dial_max = std::max(dial_max, p->bullet_holes);
      f.dials[static_cast<std::size_t>(d)].positions.push_back(*p);
    }
    max_holes += dial_max;
  }
  if (dials.IsMap() && dials.size() > 0 && max_holes < 3 && r.errors().size() == errors_before) {
    r.error(
        dials, dials_path,
        "dials that can show three bullet holes in all (else the figure can never be eliminated)",
        node);
  }
  const YAML::Node tape = r.sequence(node, "tape", path, true);
  const std::string tape_path = join_path(path, "tape");
  for (std::size_t i = 0; i < tape.size(); ++i) {
    const std::string tpath = index_path(tape_path, i);
    const YAML::Node t = tape[i];
    if (!r.expect_map(t, tpath, {"colour", "color", "from", "to"})) continue;
    const YAML::Node colour_node = t["colour"].IsDefined() ? t["colour"] : t["color"];
    if (!colour_node.IsDefined()) {
      r.error(t, join_path(tpath, "colour"), "a track colour (it is missing)");
      continue;
    }
    auto c = read_colour_scalar(r, colour_node, join_path(tpath, "colour"), t);
    auto from = r.number(t, "from", tpath, true, 0, 200);
    auto to = r.number(t, "to", tpath, true, 0, 200);
    if (!c || !from || !to) continue;
    if (*to <= *from) {
      r.error(t["to"], join_path(tpath, "to"),
              fmt::format("a track end beyond its start ({})", *from), t);
      continue;
    }
    if (*c == dice::Colour::White) {
      r.error(colour_node, join_path(tpath, "colour"),
              "yellow, blue, green, black or red (tapes have no white track)", t);
      continue;
    }
    if (f.tape.has(*c)) {
      r.error(colour_node, join_path(tpath, "colour"),
              fmt::format("one track per colour ({} appears twice)", dice::colour_name(*c)), t);
      continue;
    }
    f.tape.tracks.push_back({*c, *from, *to});
  }
  const YAML::Node sample = node["sample"];
  f.sample = sample.IsDefined() && sample.IsScalar() && sample.Scalar() == "true";
  if (r.errors().size() != errors_before) return std::nullopt;
  return f;
}

std::optional<GearDef> read_gear(FieldReader& r, const YAML::Node& node, const std::string& path) {
  const std::size_t errors_before = r.errors().size();
  if (!r.expect_map(node, path, {"id", "name", "points", "dice", "shields", "sample", "notes"}))
    return std::nullopt;
  GearDef g;
  g.id = r.text(node, "id", path, true).value_or("");
  g.name = r.text(node, "name", path, false).value_or(g.id);
  g.points = r.integer(node, "points", path, true, 0, kMaxGearPoints).value_or(0);
  g.dice = read_dice(r, node, "dice", path, false);
  for (auto& d : g.dice)
    d.origin = g.id;
  const YAML::Node shields = r.sequence(node, "shields", path, false);
  for (std::size_t i = 0; i < shields.size(); ++i) {
    if (auto c =
            read_colour_scalar(r, shields[i], index_path(join_path(path, "shields"), i), shields)) {
      g.shields.push_back(*c);
    }
  }
  if (g.id.empty() && r.errors().size() == errors_before)
    r.error(node, join_path(path, "id"), "a non-empty id");
  const YAML::Node sample = node["sample"];
  g.sample = sample.IsDefined() && sample.IsScalar() && sample.Scalar() == "true";
  if (r.errors().size() != errors_before) return std::nullopt;
  return g;
}

struct PendingTeam {
  TeamDef team;
  YAML::Node node;
  std::string path;
};

std::optional<PendingTeam> read_team(FieldReader& r, const YAML::Node& node,
                                     const std::string& path) {
  const std::size_t errors_before = r.errors().size();
  if (!r.expect_map(node, path, {"name", "members"})) return std::nullopt;
  PendingTeam t{TeamDef{}, node, path};
  t.team.name = r.text(node, "name", path, true).value_or("");
  const YAML::Node members = r.sequence(node, "members", path, true);
  for (std::size_t i = 0; i < members.size(); ++i) {
    const std::string mpath = index_path(join_path(path, "members"), i);
    if (!r.expect_map(members[i], mpath, {"figure", "gear"})) continue;
    LoadoutEntry e;
    e.figure = r.text(members[i], "figure", mpath, true).value_or("");
    const YAML::Node gear = r.sequence(members[i], "gear", mpath, false);
    for (std::size_t k = 0; k < gear.size(); ++k) {
      if (!gear[k].IsScalar()) {
        r.error(gear[k], index_path(join_path(mpath, "gear"), k), "a gear id", gear);
        continue;
      }
      e.gear.push_back(gear[k].Scalar());
    }
    t.team.members.push_back(e);
  }
  if (r.errors().size() != errors_before) return std::nullopt;
  return t;
}

// Team members must name known figures and gear, within the 12-point gear limit.
void check_team(FieldReader& r, const PendingTeam& t, const AssetLibrary& lib,
                const AssetLibrary* references) {
  const YAML::Node members = t.node["members"];
  for (std::size_t i = 0; i < t.team.members.size(); ++i) {
    const auto& m = t.team.members[i];
    const std::string mpath = index_path(join_path(t.path, "members"), i);
    if (lib.find_figure(m.figure) == nullptr &&
        (references == nullptr || references->find_figure(m.figure) == nullptr)) {
      r.error(members[i]["figure"], join_path(mpath, "figure"),
              fmt::format("a known figure name (no figure is called '{}')", m.figure), members[i]);
    }
    int points = 0;
    for (std::size_t k = 0; k < m.gear.size(); ++k) {
      const GearDef* g = lib.find_gear(m.gear[k]);
      if (g == nullptr && references != nullptr) g = references->find_gear(m.gear[k]);
      if (g == nullptr) {
        r.error(members[i]["gear"][k], index_path(join_path(mpath, "gear"), k),
                fmt::format("a known gear id (no gear has id '{}')", m.gear[k]), members[i]);
        continue;
      }
      points += g->points;
    }
    if (points > kMaxGearPoints) {
      r.error(members[i]["gear"], join_path(mpath, "gear"),
              fmt::format("at most {} points of gear (this is {})", kMaxGearPoints, points),
              members[i]);
    }
  }
}

}  // namespace

const FigureDef* AssetLibrary::find_figure(std::string_view name) const {
  if (auto it = figures.find(name); it != figures.end()) return &it->second;
  const std::string want = lower(name);
  for (const auto& [n, f] : figures) {
    if (lower(n) == want) return &f;
  }
  return nullptr;
}

const GearDef* AssetLibrary::find_gear(std::string_view id) const {
  if (auto it = gear.find(id); it != gear.end()) return &it->second;
  const std::string want = lower(id);
  for (const auto& [n, g] : gear) {
    if (lower(n) == want) return &g;
  }
  return nullptr;
}

namespace {
// "a unique name ('Razor' is defined twice)", naming the other file when it is another one.
std::string clash_message(std::string_view what, const std::string& name, const std::string& other,
                          const std::map<std::string, std::string, std::less<>>& files,
                          const std::string& this_file) {
  const auto it = files.find(other);
  const std::string same_case = other == name ? "" : fmt::format(" as '{}'", other);
  if (it == files.end() || it->second == this_file)
    return fmt::format("a unique {} ('{}' is defined twice{})", what, name, same_case);
  return fmt::format("a unique {} ('{}' is already defined{} in {}; rename one of the two)", what,
                     name, same_case, it->second);
}

void load_node(const YAML::Node& root, FieldReader& r, AssetLibrary& library,
               std::vector<PendingTeam>& teams) {
  if (!r.expect_map(root, "", {"schema_version", "figures", "gear", "teams"})) return;
  r.schema_version(root, kAssetSchemaVersion);
  if (!r.ok()) return;
  const YAML::Node figures = r.sequence(root, "figures", "", false);
  for (std::size_t i = 0; i < figures.size(); ++i) {
    const std::string path = index_path("figures", i);
    if (auto f = read_figure(r, figures[i], path)) {
      if (const FigureDef* same = library.find_figure(f->name)) {
        r.error(figures[i]["name"], join_path(path, "name"),
                clash_message("name", f->name, same->name, library.figure_files, r.file()),
                figures[i]);
        continue;
      }
      library.figure_files.emplace(f->name, r.file());
      library.figures.emplace(f->name, *f);
    }
  }
  const YAML::Node gear = r.sequence(root, "gear", "", false);
  for (std::size_t i = 0; i < gear.size(); ++i) {
    const std::string path = index_path("gear", i);
    if (auto g = read_gear(r, gear[i], path)) {
      if (const GearDef* same = library.find_gear(g->id)) {
        r.error(gear[i]["id"], join_path(path, "id"),
                clash_message("id", g->id, same->id, library.gear_files, r.file()), gear[i]);
        continue;
      }
      library.gear_files.emplace(g->id, r.file());
      library.gear.emplace(g->id, *g);
    }
  }
  const YAML::Node team_nodes = r.sequence(root, "teams", "", false);
  for (std::size_t i = 0; i < team_nodes.size(); ++i) {
    if (auto t = read_team(r, team_nodes[i], index_path("teams", i))) teams.push_back(*t);
  }
}

void load_one(const std::string& text, const std::string& file, AssetLibrary& library,
              LoadReport& report, std::vector<std::pair<PendingTeam, std::string>>& teams) {
  FieldReader r(file);
  try {
    const YAML::Node root = parse_yaml_text(text, file);
    std::vector<PendingTeam> found;
    load_node(root, r, library, found);
    for (auto& t : found)
      teams.emplace_back(std::move(t), file);
  } catch (const DataException& e) {
    report.errors.push_back(e.error());
  } catch (const YAML::Exception& e) {
    report.errors.push_back({file, e.mark.line >= 0 ? e.mark.line + 1 : 0, "", e.msg});
  }
  report.errors.insert(report.errors.end(), r.errors().begin(), r.errors().end());
}

void resolve_teams(std::vector<std::pair<PendingTeam, std::string>>& teams, AssetLibrary& library,
                   LoadReport& report, const AssetLibrary* references = nullptr) {
  for (auto& [t, file] : teams) {
    FieldReader r(file);
    check_team(r, t, library, references);
    if (auto same = library.teams.find(t.team.name); same != library.teams.end()) {
      r.error(t.node["name"], join_path(t.path, "name"),
              clash_message("team name", t.team.name, same->first, library.team_files, file),
              t.node);
    }
    if (r.ok()) {
      library.teams[t.team.name] = t.team;
      library.team_files[t.team.name] = file;
    }
    report.errors.insert(report.errors.end(), r.errors().begin(), r.errors().end());
  }
}
}  // namespace

void load_asset_text(const std::string& text, const std::string& file, AssetLibrary& library,
                     LoadReport& report, const AssetLibrary* references) {
  std::vector<std::pair<PendingTeam, std::string>> teams;
  load_one(text, file, library, report, teams);
  resolve_teams(teams, library, report, references);
}

void load_asset_file(const std::string& path, AssetLibrary& library, LoadReport& report,
                     const AssetLibrary* references) {
  std::vector<std::pair<PendingTeam, std::string>> teams;
  try {
    load_one(read_text_file(path, "a readable file"), path, library, report, teams);
  } catch (const DataException& e) {
    report.errors.push_back(e.error());
  }
  resolve_teams(teams, library, report, references);
}

AssetLibrary load_asset_library(const std::string& dir) {
  return load_asset_libraries({dir});
}

AssetLibrary load_asset_libraries(const std::vector<std::string>& dirs) {
  namespace fs = std::filesystem;
  AssetLibrary library;
  LoadReport report;
  std::vector<std::string> files;
  for (const auto& dir : dirs) {
    // Each folder's files sorted, the folders in the order given (bundled samples first).
    const std::size_t first = files.size();
    for (const char* sub : {"figures", "gear", "teams"}) {
      const fs::path folder = fs::path(dir) / sub;
      std::error_code ec;
      if (!fs::is_directory(folder, ec)) continue;
      for (const auto& entry : fs::directory_iterator(folder, ec)) {
        if (entry.path().extension() == ".yaml" || entry.path().extension() == ".yml") {
          files.push_back(entry.path().string());
        }
      }
    }
    std::sort(files.begin() + static_cast<std::ptrdiff_t>(first), files.end());
  }
  // Figures and gear first, then teams (which refer to them).
  std::vector<std::pair<PendingTeam, std::string>> teams;
  for (const auto& f : files) {
    // Only regular files of bounded size: a FIFO, a link to /dev/zero or a huge file dropped in
    // the folder is named as such, never waited on.
    try {
      load_one(read_text_file(f, "a readable figure, gear or team file"), f, library, report,
               teams);
    } catch (const DataException& e) {
      report.errors.push_back(e.error());
    }
  }
  resolve_teams(teams, library, report);
  if (!report.ok()) {
    DataError first = report.errors.front();
    if (report.errors.size() > 1) {
      std::string all;
      for (const auto& e : report.errors)
        all += "\n  " + e.message();
      first.expected += fmt::format(" (and {} more:{})", report.errors.size() - 1, all);
    }
    throw DataException(first);
  }
  return library;
}

}  // namespace duels
