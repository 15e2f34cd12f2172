#include "overlay/editor_model.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <filesystem>

#include "dice/notation.hpp"
#include "duels/asset_writer.hpp"

namespace duels::overlay {

namespace fs = std::filesystem;

namespace {

std::string trim(const std::string& s) {
  const auto b = s.find_first_not_of(" \t");
  if (b == std::string::npos) return {};
  return s.substr(b, s.find_last_not_of(" \t") - b + 1);
}

std::optional<double> read_number(const std::string& text) {
  const std::string t = trim(text);
  double v = 0;
  const auto [end, ec] = std::from_chars(t.data(), t.data() + t.size(), v);
  if (t.empty() || ec != std::errc() || end != t.data() + t.size()) return std::nullopt;
  return v;
}

std::string dial_key(DialKind d) {
  std::string k(dial_name(d));
  for (auto& c : k)
    c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return k;
}

bool same_file(const std::string& a, const std::string& b) {
  std::error_code ec;
  return !a.empty() && !b.empty() && fs::equivalent(a, b, ec);
}

}  // namespace

EditorLibrary::EditorLibrary(AssetFolders folders) : folders_(std::move(folders)) {
  reload();
}

void EditorLibrary::reload() {
  ++version_;
  error_.clear();
  try {
    library_ = load_asset_libraries({folders_.bundled, folders_.user});
  } catch (const DataException& e) {
    error_ = e.what();
    try {
      library_ = load_asset_library(folders_.bundled);
    } catch (const DataException&) {
      library_ = AssetLibrary{};
    }
  }
}

void FigureDraft::click_forward(DialKind dial) {
  const auto d = static_cast<std::size_t>(dial);
  ++turned[d];
  if (turned[d] >= static_cast<int>(dials[d].size())) dials[d].emplace_back();
}

void FigureDraft::click_back(DialKind dial) {
  const auto d = static_cast<std::size_t>(dial);
  turned[d] = std::max(0, turned[d] - 1);
}

void FigureDraft::remove_click(DialKind dial) {
  const auto d = static_cast<std::size_t>(dial);
  if (dials[d].size() <= 1) {
    dials[d][0].clear();
    return;
  }
  dials[d].erase(dials[d].begin() + turned[d]);
  turned[d] = std::min(turned[d], static_cast<int>(dials[d].size()) - 1);
}

std::string& FigureDraft::showing(DialKind dial) {
  const auto d = static_cast<std::size_t>(dial);
  turned[d] = std::clamp(turned[d], 0, static_cast<int>(dials[d].size()) - 1);
  return dials[d][static_cast<std::size_t>(turned[d])];
}

DraftCheck check_draft(const FigureDraft& draft, const EditorLibrary& library,
                       const std::string& editing) {
  DraftCheck out;
  auto& err = out.field_errors;
  FigureDef f;
  f.name = trim(draft.name);
  if (f.name.empty()) err["name"] = "the name printed on the base";
  f.collector_number = trim(draft.collector_number);
  if (auto p = read_number(draft.points); p && *p >= 0 && *p <= 1000 && *p == int(*p)) {
    f.points = static_cast<int>(*p);
  } else {
    err["points"] = "the point value on the base, a whole number from 0 to 1000";
  }
  if (auto d = read_number(draft.diameter); d && *d >= 0.5 && *d <= 12) {
    f.base_diameter_in = *d;
  } else {
    err["diameter"] = "the base's diameter, 0.5 to 12 inches";
  }
  if (auto h = read_number(draft.height); h && *h >= 0 && *h <= 12) {
    f.base_height_in = *h;
  } else {
    err["height"] = "the base's height, 0 to 12 inches";
  }
  if (trim(draft.dice).empty()) {
    err["dice"] = "the starting dice, e.g. 2xwhite:d6 yellow:d8:ace blue:d10";
  } else if (auto pool = dice::parse_pool(draft.dice); !pool) {
    err["dice"] = pool.error().as_data_error("", 0, "").expected;
  } else {
    f.starting_dice = *pool;
  }
  if (auto bonus = parse_damage_bonus(draft.bonus); !bonus) {
    err["bonus"] = bonus.error();
  } else {
    f.damage_bonus = *bonus;
  }
  for (DialKind d : kAllDials) {
    const auto& typed = draft.dials[static_cast<std::size_t>(d)];
    // Empty clicks at the end are clicks not entered yet; empty ones between are mistakes.
    std::size_t n = typed.size();
    while (n > 1 && trim(typed[n - 1]).empty())
      --n;
    for (std::size_t i = 0; i < n; ++i) {
      const std::string key = fmt::format("{}.{}", dial_key(d), i);
      if (auto p = parse_dial_position(typed[i])) {
        f.dials[static_cast<std::size_t>(d)].positions.push_back(*p);
      } else {
        err[key] = trim(typed[i]).empty() ? "what the dial shows at this click, e.g. 6, "
                                            "\"5 yellow\" or \"4 hole\""
                                          : p.error();
      }
    }
  }
  for (std::size_t i = 0; i < draft.tape.size(); ++i) {
    if (trim(draft.tape[i]).empty() && (i > 0 || draft.tape.size() > 1)) continue;
    const std::string key = fmt::format("tape.{}", i);
    if (auto t = parse_tape_track(draft.tape[i])) {
      if (f.tape.has(t->colour)) {
        err[key] =
            fmt::format("one track per colour ({} is there already)", dice::colour_name(t->colour));
      } else {
        f.tape.tracks.push_back(*t);
      }
    } else {
      err[key] = t.error();
    }
  }
  out.path =
      editing.empty()
          ? (fs::path(library.folders().user) / "figures" / (file_stem(f.name) + ".yaml")).string()
          : editing;
  if (!err.empty()) return out;
  // A new figure may not take a name the library has; an edited one may keep its own.
  for (const auto& e : check_figure(f, &library.library(), editing.empty() ? "<new>" : editing))
    out.problems.push_back(e.field.empty() ? e.expected : e.field + ": " + e.expected);
  std::error_code ec;
  if (editing.empty() && fs::exists(out.path, ec)) {
    const auto it = library.library().figure_files.find(f.name);
    if (it == library.library().figure_files.end() || !same_file(it->second, out.path))
      out.problems.push_back(fmt::format("{} exists already: choose another name", out.path));
  }
  out.figure = std::move(f);
  return out;
}

FigureDef preview_figure(const FigureDraft& draft) {
  FigureDef f;
  f.name = trim(draft.name);
  for (DialKind d : kAllDials) {
    for (const auto& t : draft.dials[static_cast<std::size_t>(d)]) {
      auto p = parse_dial_position(t);
      f.dials[static_cast<std::size_t>(d)].positions.push_back(p ? *p : DialPosition{});
    }
  }
  return f;
}

FigureDraft draft_of(const FigureDef& f) {
  FigureDraft d;
  d.name = f.name;
  d.collector_number = f.collector_number;
  d.points = std::to_string(f.points);
  d.diameter = fmt::format("{:g}", f.base_diameter_in);
  d.height = fmt::format("{:g}", f.base_height_in);
  d.dice = dice::to_notation(f.starting_dice);
  for (const auto& [c, v] : f.damage_bonus)
    d.bonus += fmt::format("{}{}:{}", d.bonus.empty() ? "" : " ", dice::colour_name(c), v);
  for (DialKind k : kAllDials) {
    auto& out = d.dials[static_cast<std::size_t>(k)];
    out.clear();
    for (const auto& p : f.dial(k).positions)
      out.push_back(dial_position_text(p));
    if (out.empty()) out.emplace_back();
  }
  d.tape.clear();
  for (const auto& t : f.tape.tracks)
    d.tape.push_back(fmt::format("{} {:g} {:g}", dice::colour_name(t.colour), t.from_in, t.to_in));
  if (d.tape.empty()) d.tape.emplace_back();
  return d;
}

std::string save_draft(const FigureDraft& draft, EditorLibrary& library,
                       const std::string& editing) {
  const DraftCheck c = check_draft(draft, library, editing);
  if (!c.ok()) {
    std::string why = c.problems.empty() ? "" : c.problems.front();
    if (!c.field_errors.empty())
      why = c.field_errors.begin()->first + ": " + c.field_errors.begin()->second;
    throw DataException({c.path, 0, "", "a complete figure (" + why + ")"});
  }
  save_asset_file(c.path, figure_file_text(*c.figure));
  library.reload();
  return c.path;
}

int gear_points(const LoadoutEntry& member, const AssetLibrary& library) {
  int points = 0;
  for (const auto& id : member.gear) {
    if (const GearDef* g = library.find_gear(id)) points += g->points;
  }
  return points;
}

int team_value(const TeamDef& team, const AssetLibrary& library) {
  int value = 0;
  for (const auto& m : team.members) {
    if (const FigureDef* f = library.find_figure(m.figure)) value += f->points;
    value += gear_points(m, library);
  }
  return value;
}

namespace {
std::string team_path(const TeamDef& team, const EditorLibrary& library) {
  return (fs::path(library.folders().user) / "teams" / (file_stem(team.name) + ".yaml")).string();
}
}  // namespace

std::vector<std::string> team_problems(const TeamDef& team, const EditorLibrary& library) {
  std::vector<std::string> out;
  if (trim(team.name).empty()) out.emplace_back("the team needs a name");
  const std::string path = team_path(team, library);
  for (const auto& e : check_team(team, library.library(), path))
    out.push_back(e.field.empty() ? e.expected : e.field + ": " + e.expected);
  const auto& files = library.library().team_files;
  if (auto it = files.find(trim(team.name)); it != files.end() && !same_file(it->second, path))
    out.push_back(fmt::format("a team name no other team has ('{}' is already in {})",
                              trim(team.name), it->second));
  return out;
}

std::string save_team(const TeamDef& team, EditorLibrary& library) {
  const auto problems = team_problems(team, library);
  const std::string path = team_path(team, library);
  if (!problems.empty())
    throw DataException({path, 0, "", "a complete team (" + problems[0] + ")"});
  TeamDef t = team;
  t.name = trim(t.name);
  save_asset_file(path, team_file_text(t));
  library.reload();
  return path;
}

}  // namespace duels::overlay
