// `duels figure check FILE…` and `duels figure show NAME`.
#include <fmt/format.h>

#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>

#include "app/command.hpp"
#include "dice/notation.hpp"
#include "duels/assets.hpp"
#include "duels/serialize.hpp"

namespace duels::app {
namespace {

void print_figure(const FigureDef& f) {
  std::cout << fmt::format("{}{}  #{}  {} points\n", f.name, f.sample ? " (SAMPLE)" : "",
                           f.collector_number, f.points);
  std::cout << fmt::format("  base: {:.2f}\" across, {:.2f}\" high\n", f.base_diameter_in,
                           f.base_height_in);
  std::cout << fmt::format("  starting dice: {}\n", dice::to_notation(f.starting_dice));
  std::string bonus;
  for (const auto& [c, v] : f.damage_bonus)
    bonus += fmt::format("{}+{} {}", bonus.empty() ? "" : ", ", v, dice::colour_name(c));
  std::cout << fmt::format("  damage bonus: {}\n", bonus.empty() ? "none" : bonus);
  std::cout << "  tape:";
  for (const auto& t : f.tape.tracks) {
    std::cout << fmt::format("  {} {:g}–{:g}\"", dice::colour_name(t.colour), t.from_in, t.to_in);
  }
  std::cout << "\n  dials (click by click, ▼ = start; [colour] = shield, * = bullet hole):\n";
  for (DialKind d : kAllDials) {
    std::string row;
    const auto& positions = f.dial(d).positions;
    for (std::size_t i = 0; i < positions.size(); ++i) {
      const auto& p = positions[i];
      std::string cell = fmt::format("{}{}", i == 0 ? "▼" : "", p.value);
      if (p.shield) cell += fmt::format("[{}]", dice::colour_name(*p.shield));
      cell += std::string(static_cast<std::size_t>(p.bullet_holes), '*');
      row += fmt::format(" {:>10}", cell);
    }
    std::cout << fmt::format("    {:<7}{}\n", dial_name(d), row);
  }
}

void add_figure(CLI::App& root) {
  auto* fig = root.add_subcommand("figure", "Check figure/gear/team files, or show a figure");
  fig->require_subcommand(1);

  auto files = std::make_shared<std::vector<std::string>>();
  auto check_json = std::make_shared<bool>(false);
  auto* check =
      fig->add_subcommand("check", "Validate figure, gear and team YAML files; list every problem");
  check->add_option("files", *files, "YAML files")->required()->expected(1, -1);
  check->add_flag("--json", *check_json, "print JSON");
  check->callback([files, check_json] {
    // Files are checked against the bundled library so teams may name bundled figures/gear.
    AssetLibrary lib;
    try {
      lib = load_asset_library(assets_dir());
    } catch (const DataException&) {
      lib = AssetLibrary{};
    }
    LoadReport report;
    for (const auto& f : *files) {
      AssetLibrary own;  // each file on its own, so it may define names the bundle has too
      load_asset_file(f, own, report, &lib);
    }
    if (*check_json) {
      nlohmann::json errors = nlohmann::json::array();
      for (const auto& e : report.errors) {
        errors.push_back({{"file", e.file},
                          {"line", e.line},
                          {"field", e.field},
                          {"expected", e.expected},
                          {"message", e.message()}});
      }
      std::cout << nlohmann::json{{"ok", report.ok()}, {"errors", errors}}.dump() << "\n";
    } else {
      for (const auto& e : report.errors)
        std::cout << e.message() << "\n";
      if (report.ok())
        std::cout << fmt::format("{} file{} OK\n", files->size(), files->size() == 1 ? "" : "s");
    }
    if (!report.ok())
      throw DataException({"", 0, "",
                           fmt::format("{} problem{} found", report.errors.size(),
                                       report.errors.size() == 1 ? "" : "s")});
  });

  auto name = std::make_shared<std::string>();
  auto show_json = std::make_shared<bool>(false);
  auto* show = fig->add_subcommand("show", "Print a figure (or gear piece) from the asset library");
  show->add_option("name", *name, "figure name or gear id")->required();
  show->add_flag("--json", *show_json, "print JSON");
  show->callback([name, show_json] {
    const AssetLibrary lib = load_asset_library(assets_dir());
    if (const FigureDef* f = lib.find_figure(*name)) {
      if (*show_json) {
        std::cout << to_json(*f).dump() << "\n";
      } else {
        print_figure(*f);
      }
      return;
    }
    if (const GearDef* g = lib.find_gear(*name)) {
      if (*show_json) {
        std::cout << to_json(*g).dump() << "\n";
      } else {
        std::string shields;
        for (auto c : g->shields)
          shields += (shields.empty() ? "" : ", ") + std::string(dice::colour_name(c));
        std::cout << fmt::format("{} ({}){}: {} points; dice: {}; shields: {}\n", g->name, g->id,
                                 g->sample ? " (SAMPLE)" : "", g->points,
                                 g->dice.empty() ? "none" : dice::to_notation(g->dice),
                                 shields.empty() ? "none" : shields);
      }
      return;
    }
    std::string known;
    for (const auto& [n, f] : lib.figures)
      known += (known.empty() ? "" : ", ") + n;
    throw DataException({"<command line>", 0, "name",
                         fmt::format("a figure or gear in the library (figures: {})", known)});
  });
}

DUELS_COMMAND(30, add_figure);

}  // namespace
}  // namespace duels::app
