#include "duels/asset_writer.hpp"

#include "common/atomic_file.hpp"

#include <fcntl.h>
#include <fmt/format.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cctype>
#include <cerrno>
#include <charconv>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <sstream>

#include "dice/notation.hpp"

namespace duels {

namespace {

// A YAML double-quoted scalar.
std::string yaml_quoted(std::string_view s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') out += '\\';
    if (c == '\n') {
      out += "\\n";
      continue;
    }
    out += c;
  }
  return out + "\"";
}

std::string number(double v) {
  return fmt::format("{:g}", v);
}

std::vector<std::string> words(std::string_view text) {
  std::istringstream in{std::string(text)};
  std::vector<std::string> out;
  for (std::string w; in >> w;)
    out.push_back(w);
  return out;
}

std::optional<double> to_number(const std::string& w) {
  double v = 0;
  const auto [end, ec] = std::from_chars(w.data(), w.data() + w.size(), v);
  if (ec != std::errc() || end != w.data() + w.size()) return std::nullopt;
  return v;
}

}  // namespace

std::string dial_position_text(const DialPosition& p) {
  std::string out = std::to_string(p.value);
  if (p.shield) out += fmt::format(" {}", dice::colour_name(*p.shield));
  for (int i = 0; i < p.bullet_holes; ++i)
    out += " hole";
  return out;
}

Expected<DialPosition, std::string> parse_dial_position(std::string_view text) {
  const auto w = words(text);
  if (w.empty()) return std::string("a dial value, e.g. 6, \"5 yellow\" or \"4 hole\"");
  DialPosition p;
  int value = 0;
  const auto [end, ec] = std::from_chars(w[0].data(), w[0].data() + w[0].size(), value);
  if (ec != std::errc() || end != w[0].data() + w[0].size() || value < -20 || value > 99)
    return fmt::format("a dial value from -20 to 99 first, not '{}'", w[0]);
  p.value = value;
  for (std::size_t i = 1; i < w.size(); ++i) {
    if (w[i] == "hole") {
      if (++p.bullet_holes > 3) return std::string("at most three bullet holes on one position");
    } else if (auto c = dice::parse_colour(w[i])) {
      if (p.shield) return std::string("at most one shield per dial position");
      p.shield = c;
    } else {
      return fmt::format(
          "a shield colour (white, yellow, blue, green, black, red) or 'hole' after the value, "
          "not '{}'",
          w[i]);
    }
  }
  return p;
}

Expected<Track, std::string> parse_tape_track(std::string_view text) {
  const auto w = words(text);
  if (w.size() != 3) return std::string("a track as COLOUR FROM TO in inches, e.g. \"blue 0 14\"");
  const auto c = dice::parse_colour(w[0]);
  if (!c || *c == dice::Colour::White)
    return fmt::format("a track colour: yellow, blue, green, black or red, not '{}'", w[0]);
  const auto from = to_number(w[1]);
  const auto to = to_number(w[2]);
  if (!from || *from < 0 || *from > 200)
    return fmt::format("where the track starts, 0 to 200 inches, not '{}'", w[1]);
  if (!to || *to <= *from || *to > 200)
    return fmt::format("where the track ends, beyond its start ({}) and at most 200, not '{}'",
                       w[1], w[2]);
  return Track{*c, *from, *to};
}

Expected<std::map<dice::Colour, int>, std::string> parse_damage_bonus(std::string_view text) {
  std::map<dice::Colour, int> out;
  for (const auto& w : words(text)) {
    const auto colon = w.find(':');
    const auto c = dice::parse_colour(w.substr(0, colon));
    int v = 0;
    const std::string rest = colon == std::string::npos ? "" : w.substr(colon + 1);
    const auto [end, ec] = std::from_chars(rest.data(), rest.data() + rest.size(), v);
    if (!c || colon == std::string::npos || ec != std::errc() || end != rest.data() + rest.size() ||
        v < 0 || v > 10)
      return fmt::format("a bonus as COLOUR:N with N from 0 to 10, e.g. yellow:1, not '{}'", w);
    if (out.count(*c) != 0)
      return fmt::format("one bonus per colour ({} appears twice)", dice::colour_name(*c));
    out[*c] = v;
  }
  return out;
}

std::string figure_file_text(const FigureDef& f) {
  std::string out = fmt::format(
      "# {} — entered with Duels Companion's figure editor; check it with `duels figure check`.\n"
      "schema_version: {}\nfigures:\n",
      f.name, kAssetSchemaVersion);
  out += fmt::format("  - name: {}\n", yaml_quoted(f.name));
  if (!f.collector_number.empty())
    out += fmt::format("    collector_number: {}\n", yaml_quoted(f.collector_number));
  out += fmt::format("    points: {}\n", f.points);
  out += fmt::format("    base: {{diameter: {}, height: {}}}\n", number(f.base_diameter_in),
                     number(f.base_height_in));
  std::string dice;
  for (const auto& d : f.starting_dice)
    dice += (dice.empty() ? "" : ", ") + dice::to_notation(d);
  out += fmt::format("    starting_dice: [{}]\n", dice);
  std::string bonus;
  for (const auto& [c, v] : f.damage_bonus)
    bonus += fmt::format("{}{}: {}", bonus.empty() ? "" : ", ", dice::colour_name(c), v);
  out += fmt::format("    damage_bonus: {{{}}}\n", bonus);
  out += "    dials:  # position 0 is the green arrow; then click by click\n";
  for (DialKind d : kAllDials) {
    std::string row;
    for (const auto& p : f.dial(d).positions)
      row += (row.empty() ? "" : ", ") + yaml_quoted(dial_position_text(p));
    std::string key(dial_name(d));
    for (auto& ch : key)
      ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
    out += fmt::format("      {}: [{}]\n", key, row);
  }
  out += f.tape.tracks.empty() ? "    tape: []\n" : "    tape:\n";
  for (const auto& t : f.tape.tracks) {
    out += fmt::format("      - {{colour: {}, from: {}, to: {}}}\n", dice::colour_name(t.colour),
                       number(t.from_in), number(t.to_in));
  }
  return out;
}

std::string team_file_text(const TeamDef& t) {
  std::string out =
      fmt::format("# {} — built with Duels Companion's team builder.\nschema_version: {}\nteams:\n",
                  t.name, kAssetSchemaVersion);
  out += fmt::format("  - name: {}\n", yaml_quoted(t.name));
  out += t.members.empty() ? "    members: []\n" : "    members:\n";
  for (const auto& m : t.members) {
    std::string gear;
    for (const auto& g : m.gear)
      gear += (gear.empty() ? "" : ", ") + yaml_quoted(g);
    out += fmt::format("      - {{figure: {}, gear: [{}]}}\n", yaml_quoted(m.figure), gear);
  }
  return out;
}

std::vector<DataError> check_figure(const FigureDef& figure, const AssetLibrary* library,
                                    const std::string& file) {
  AssetLibrary own;
  LoadReport report;
  load_asset_text(figure_file_text(figure), file, own, report);
  if (library != nullptr) {
    if (const FigureDef* same = library->find_figure(figure.name)) {
      const auto it = library->figure_files.find(same->name);
      std::error_code ec;
      // The figure's own file (saving it again) is no clash.
      if (it != library->figure_files.end() && std::filesystem::equivalent(it->second, file, ec))
        return report.errors;
      report.errors.push_back(
          {file, 0, "figures[0].name",
           fmt::format("a name no other figure has ('{}' is already in {})", same->name,
                       it == library->figure_files.end() ? "the library" : it->second)});
    }
  }
  return report.errors;
}

std::vector<DataError> check_team(const TeamDef& team, const AssetLibrary& library,
                                  const std::string& file) {
  AssetLibrary own;
  LoadReport report;
  load_asset_text(team_file_text(team), file, own, report, &library);
  if (team.members.empty())
    report.errors.push_back({file, 0, "teams[0].members", "at least one figure"});
  return report.errors;
}

std::string file_stem(std::string_view name) {
  std::string out;
  for (char c : name) {
    const auto u = static_cast<unsigned char>(c);
    if (std::isalnum(u) != 0) {
      out += static_cast<char>(std::tolower(u));
    } else if (!out.empty() && out.back() != '-') {
      out += '-';
    }
  }
  while (!out.empty() && out.back() == '-')
    out.pop_back();
  return out.empty() ? "figure" : out;
}

void save_asset_file(const std::string& path, const std::string& text) {
  const std::filesystem::path target(path);
  std::error_code ec;
  if (target.has_parent_path()) std::filesystem::create_directories(target.parent_path(), ec);
  write_file_atomically(path, text);
}

}  // namespace duels
