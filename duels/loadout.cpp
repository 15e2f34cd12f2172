#include "duels/loadout.hpp"

#include <fmt/format.h>

namespace duels {

FigureSetup parse_loadout(const AssetLibrary& lib, const std::string& spec, const char* flag) {
  std::vector<std::string> parts;
  std::size_t start = 0;
  while (true) {
    const auto plus = spec.find('+', start);
    parts.push_back(
        spec.substr(start, plus == std::string::npos ? std::string::npos : plus - start));
    if (plus == std::string::npos) break;
    start = plus + 1;
  }
  const FigureDef* f = lib.find_figure(parts[0]);
  if (f == nullptr) {
    std::string known;
    for (const auto& [n, def] : lib.figures)
      known += (known.empty() ? "" : ", ") + n;
    throw DataException(
        {"<command line>", 0, flag, fmt::format("a known figure ({}), not '{}'", known, parts[0])});
  }
  FigureSetup fs{*f, {}, std::nullopt};
  int points = 0;
  for (std::size_t i = 1; i < parts.size(); ++i) {
    const GearDef* g = lib.find_gear(parts[i]);
    if (g == nullptr) {
      throw DataException({"<command line>", 0, flag,
                           fmt::format("a known gear id after '+', not '{}'", parts[i])});
    }
    points += g->points;
    fs.gear.push_back(*g);
  }
  if (points > kMaxGearPoints) {
    throw DataException({"<command line>", 0, flag,
                         fmt::format("at most {} points of gear for {} (this is {})",
                                     kMaxGearPoints, f->name, points)});
  }
  return fs;
}

MatchSetup setup_from_teams(const AssetLibrary& lib, const std::vector<std::string>& teams) {
  MatchSetup setup;
  for (const auto& name : teams) {
    auto it = lib.teams.find(name);
    if (it == lib.teams.end()) {
      std::string known;
      for (const auto& [n, t] : lib.teams)
        known += (known.empty() ? "" : ", ") + n;
      throw DataException({"<command line>", 0, "--teams",
                           fmt::format("a known team ({}), not '{}'", known, name)});
    }
    TeamSetup team{name, {}};
    for (const auto& m : it->second.members) {
      FigureSetup fs{*lib.find_figure(m.figure), {}, std::nullopt};
      for (const auto& g : m.gear)
        fs.gear.push_back(*lib.find_gear(g));
      team.figures.push_back(fs);
    }
    setup.teams.push_back(team);
  }
  return setup;
}

MatchSetup setup_from_loadouts(const AssetLibrary& lib, const std::vector<std::string>& loadouts,
                               const char* flag) {
  MatchSetup setup;
  for (const auto& spec : loadouts) {
    FigureSetup fs = parse_loadout(lib, spec, flag);
    setup.teams.push_back(TeamSetup{fs.figure.name, {fs}});
  }
  return setup;
}

}  // namespace duels
