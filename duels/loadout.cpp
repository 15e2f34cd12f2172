#include "duels/loadout.hpp"

#include <fmt/format.h>

#include <map>

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
  name_apart(setup);
  return setup;
}

MatchSetup setup_from_loadouts(const AssetLibrary& lib, const std::vector<std::string>& loadouts,
                               const char* flag) {
  MatchSetup setup;
  for (const auto& spec : loadouts) {
    TeamSetup team;
    std::size_t start = 0;
    while (true) {
      const auto semi = spec.find(';', start);
      const std::string one =
          spec.substr(start, semi == std::string::npos ? std::string::npos : semi - start);
      if (one.empty()) {
        throw DataException(
            {"<command line>", 0, flag,
             fmt::format("FIGURE[+GEAR…] between the ';' of a team, not an empty name in '{}'",
                         spec)});
      }
      FigureSetup fs = parse_loadout(lib, one, flag);
      team.name += (team.name.empty() ? "" : " & ") + fs.figure.name;
      team.figures.push_back(std::move(fs));
      if (semi == std::string::npos) break;
      start = semi + 1;
    }
    setup.teams.push_back(std::move(team));
  }
  name_apart(setup);
  return setup;
}

void name_apart(MatchSetup& setup) {
  // Figures are named in commands ("attack Razor-1 Razor-2"), so two of one name would leave
  // the second unreachable: every figure (and team) whose name repeats gets a number.
  auto number = [](std::vector<std::string*> names) {
    std::map<std::string, int> count;
    for (const std::string* n : names)
      ++count[*n];
    std::map<std::string, int> seen;
    for (std::string* n : names) {
      if (count[*n] > 1) {
        const std::string base = *n;
        *n = fmt::format("{}-{}", base, ++seen[base]);
      }
    }
  };
  std::vector<std::string*> figures;
  std::vector<std::string*> teams;
  for (auto& t : setup.teams) {
    teams.push_back(&t.name);
    for (auto& f : t.figures)
      figures.push_back(&f.figure.name);
  }
  number(figures);
  number(teams);
}

}  // namespace duels
