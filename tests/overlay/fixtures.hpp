#pragma once
// Shared set-ups for the overlay tests: a Razor-vs-Hex match with the figures already standing,
// played up to Razor's first turn, in a temporary folder.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <utility>
#include <vector>

#include "duels/assets.hpp"
#include "duels/engine.hpp"
#include "match/duels_match.hpp"
#include "overlay/table_model.hpp"
#include "test_paths.hpp"

namespace duels::overlay::testing {

// A temporary folder, removed afterwards.
struct TempDir {
  std::filesystem::path path;
  TempDir() {
    std::string tmpl = (std::filesystem::temp_directory_path() / "duels-overlay-XXXXXX").string();
    path = mkdtemp(tmpl.data());
  }
  ~TempDir() {
    std::error_code ec;
    std::filesystem::remove_all(path, ec);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  [[nodiscard]] std::string file(const std::string& name) const { return (path / name).string(); }
};

// A base map of 2" bases carrying two-band rings (code, figure), written to `path`.
inline std::string ring_base_map(const std::string& path,
                                 const std::vector<std::pair<int, std::string>>& bases) {
  std::ofstream out(path);
  out << "schema_version: 1\ndictionary: DICT_4X4_50\nbases:\n";
  for (const auto& [code, figure] : bases) {
    out << "  - {marker: " << code << ", figure: " << figure
        << ", diameter: 2.0, marker_height: 0.75, target: ring2}\n";
  }
  return path;
}

inline const AssetLibrary& library() {
  static const AssetLibrary lib = load_asset_library(duels_test::source_dir() + "/assets");
  return lib;
}

inline FigureSetup loadout(const std::string& figure, const std::vector<std::string>& gear,
                           Point at) {
  FigureSetup f;
  f.figure = *library().find_figure(figure);
  for (const auto& g : gear)
    f.gear.push_back(*library().find_gear(g));
  f.position = at;
  return f;
}

// Razor (Street Team, seat 1) and Hex (Arcane Team, seat 2) standing on the table.
inline MatchSetup razor_vs_hex(Point razor = {20, 30}, Point hex = {32, 30}) {
  MatchSetup s;
  s.options.enforce_placement_distance = false;
  s.teams.push_back({"Street Team",
                     {loadout("Razor", {"armored-jacket", "smartgun-link", "stim-patch"}, razor)}});
  s.teams.push_back(
      {"Arcane Team", {loadout("Hex", {"power-focus", "spirit-ward", "stim-patch"}, hex)}});
  return s;
}

// A 60" table with one crate, away from the line between the default positions.
inline TableLayout crate_layout() {
  TableLayout l;
  l.terrain.push_back({"crate", Shape::make_rect({26, 44}, 4, 4)});
  l.terrain.push_back({"wall", Shape::make_rect({26, 18}, 1, 8)});
  return l;
}

// Dice ids on the bases: Razor blue:d8 (3), green:d6 (5) and more; Hex dodges with whites.
inline const std::vector<DieId> kRazorDice = {0, 2, 3, 4, 5, 6};
inline const std::vector<DieId> kHexDice = {0, 1, 2, 3, 4, 5};

// Alpha to the Street Team, the Street Team's terrain piece down (none when `terrain` is
// empty), dice chosen (unless `choose` is false): Razor's turn.
inline void play_to_first_turn(match::DuelsMatch& m, const std::string& terrain = "crate",
                               bool choose = true) {
  auto ok = [&](const Command& c) {
    auto r = m.play(c);
    ASSERT_TRUE(r) << r.error().reason;
  };
  ok(RollForAlpha{{{0, {6, 5}}, {1, {1, 2}}}});
  if (!terrain.empty()) {
    std::optional<Shape> shape;  // the layout's piece of that name, as the window puts it down
    for (const auto& piece : crate_layout().terrain) {
      if (piece.id == terrain) shape = piece.shape;
    }
    ok(PlaceTerrain{0, terrain, shape});
    ok(PassTerrain{1});
    ok(PassTerrain{0});
  } else {
    ok(PassTerrain{0});
    ok(PassTerrain{1});
  }
  if (!choose) return;
  ok(ChooseDice{0, kRazorDice});
  ok(ChooseDice{1, kHexDice});
  ASSERT_EQ(m.state().phase, Phase::Turns);
  ASSERT_EQ(m.state().active_team, 0);
}

/// SRTCG console lines up to Ann's first Shadowrun phase: Ann has Sam (6/4, pumped for 1¥) and
/// Rook (4/5, no pump), Bob guards Ann's revealed Objective (rep 50, the goal) with a Guard 3/4.
inline std::vector<std::string> srtcg_to_the_run() {
  return {"player Ann",
          "player Bob",
          "goal 50",
          "start Ann",
          "place Ann Job: rep 50",
          "next",
          "payday",
          "next",
          "next",
          "deploy Sam: 6/4; Stealth; cost 3; pump 1 +1/+0",
          "deploy Rook: 4/5; cost 2",
          "next",
          "next",
          "next",
          "place Bob Job: rep 30",
          "next",
          "payday",
          "next",
          "next",
          "challenge Ann Guard: 3/4",
          "next",
          "next",
          "discard 1",
          "next",
          "next",
          "payday",
          "next",
          "next",
          "next"};
}

}  // namespace duels::overlay::testing
