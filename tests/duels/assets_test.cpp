#include "duels/assets.hpp"

#include <gtest/gtest.h>
#include "test_paths.hpp"

namespace duels {
namespace {

AssetLibrary bundled() {
  return load_asset_library(duels_test::source_dir() + "/assets");
}

TEST(Assets, BundledSamplesLoad) {
  const auto lib = bundled();
  EXPECT_GE(lib.figures.size(), 4U);
  EXPECT_GE(lib.gear.size(), 10U);
  for (const auto& [name, f] : lib.figures) {
    EXPECT_TRUE(f.sample) << name << " must be marked as a sample";
    for (const auto& d : f.dials)
      EXPECT_FALSE(d.positions.empty());
  }
  const FigureDef* razor = lib.find_figure("razor");
  ASSERT_NE(razor, nullptr);
  EXPECT_EQ(razor->dial(DialKind::Weapon).positions[2].shield, dice::Colour::Yellow);
  EXPECT_EQ(lib.find_gear("cyberdeck")->dice.front().origin, "cyberdeck");
}

TEST(Assets, TemplateIsValid) {
  AssetLibrary lib;
  LoadReport report;
  load_asset_file(duels_test::source_dir() + "/assets/TEMPLATE.yaml", lib, report);
  EXPECT_TRUE(report.ok()) << (report.ok() ? "" : report.errors.front().message());
}

struct Bad {
  const char* yaml;
  int line;
  const char* field;
  const char* expected;
};

class BadAsset : public ::testing::TestWithParam<Bad> {};

TEST_P(BadAsset, NamesFileLineFieldAndExpectation) {
  AssetLibrary lib = bundled();
  AssetLibrary own;
  LoadReport report;
  load_asset_text(GetParam().yaml, "bad.yaml", own, report, &lib);
  ASSERT_FALSE(report.ok());
  const auto& e = report.errors.front();
  EXPECT_EQ(e.file, "bad.yaml");
  EXPECT_EQ(e.line, GetParam().line) << e.message();
  EXPECT_EQ(e.field, GetParam().field) << e.message();
  EXPECT_NE(e.expected.find(GetParam().expected), std::string::npos) << e.message();
}

constexpr const char* kFigure =
    "schema_version: 1\n"
    "figures:\n"
    "  - name: T\n"
    "    points: 10\n"
    "    base: {diameter: 2}\n"
    "    starting_dice: [white:d6]\n"
    "    dials: {head: [5, '4 hole'], weapon: [5, '4 hole'], body: [5, '4 hole']}\n"
    "    tape: [{colour: yellow, from: 0, to: 3}]\n";

INSTANTIATE_TEST_SUITE_P(
    Cases, BadAsset,
    ::testing::Values(
        Bad{"schema_version: 2\nfigures: []\n", 1, "schema_version",
            "this program reads version 1"},
        Bad{"figures: []\n", 1, "schema_version", "missing"},
        Bad{"schema_version: 1\ngear:\n  - {id: x, points: 13}\n", 3, "gear[0].points",
            "from 0 to 12"},
        Bad{"schema_version: 1\ngear:\n  - {id: x, points: 2, dice: [purple:d6]}\n", 3,
            "gear[0].dice", "a colour"},
        Bad{"schema_version: 1\ngear:\n  - {id: x, points: 2, dice: [white:d7]}\n", 3,
            "gear[0].dice", "d4, d6"},
        Bad{"schema_version: 1\nteams:\n  - name: A\n    members:\n      - {figure: Nobody}\n", 5,
            "teams[0].members[0].figure", "no figure is called 'Nobody'"},
        Bad{"schema_version: 1\nteams:\n  - name: A\n    members:\n      - {figure: Razor, gear: "
            "[sniper-rifle, power-focus, monofilament-whip]}\n",
            5, "teams[0].members[0].gear", "at most 12 points of gear (this is 13)"},
        Bad{"schema_version: 1\nfigures:\n  - name: T\n    points: 10\n    base: {diameter: -2}\n"
            "    starting_dice: [white:d6]\n"
            "    dials: {head: [5, '4 hole'], weapon: [5, '4 hole'], body: [5, '4 hole']}\n"
            "    tape: [{colour: yellow, from: 0, to: 3}]\n",
            5, "figures[0].base.diameter", "from 0.5 to 12"},
        Bad{"schema_version: 1\nfigures:\n  - name: T\n    points: 10\n    base: {diameter: 2}\n"
            "    starting_dice: [white:d6]\n"
            "    dials: {head: [5, 4], weapon: [5, '4 hole'], body: [5, '4 hole']}\n"
            "    tape: [{colour: yellow, from: 0, to: 3}]\n",
            7, "figures[0].dials", "three bullet holes"},
        Bad{"schema_version: 1\nfigures:\n  - name: T\n    points: 10\n    base: {diameter: 2}\n"
            "    starting_dice: [white:d6]\n"
            "    dials: {head: [5, '4 hole'], weapon: [5, '4 hole'], body: [5, '4 hole']}\n"
            "    tape: [{colour: yellow, from: 3, to: 1}]\n",
            8, "figures[0].tape[0].to", "beyond its start"},
        Bad{"schema_version: 1\nfigures: [\n", 3, "", "YAML syntax error"}));

TEST(Assets, EveryProblemIsReported) {
  AssetLibrary lib;
  LoadReport report;
  load_asset_text(
      "schema_version: 1\ngear:\n  - {id: a, points: 20}\n  - {id: b, points: 1, shields: "
      "[pink]}\n",
      "two.yaml", lib, report);
  EXPECT_EQ(report.errors.size(), 2U);
}

TEST(Assets, ValidFigureParses) {
  AssetLibrary lib;
  LoadReport report;
  load_asset_text(kFigure, "ok.yaml", lib, report);
  ASSERT_TRUE(report.ok()) << report.errors.front().message();
  const FigureDef& f = lib.figures.at("T");
  EXPECT_EQ(f.dial(DialKind::Head).positions[1].bullet_holes, 1);
  EXPECT_DOUBLE_EQ(f.base_height_in, 0.75);
}

// Issue #17: a teams file repeating a team name silently replaced the first team.
TEST(Assets, RepeatedTeamNameIsRefused) {
  AssetLibrary lib;
  LoadReport report;
  load_asset_text(kFigure, "ok.yaml", lib, report);
  ASSERT_TRUE(report.ok());
  load_asset_text("schema_version: 1\nteams:\n  - name: Crew\n    members: [{figure: T}]\n",
                  "a.yaml", lib, report);
  ASSERT_TRUE(report.ok()) << report.errors.front().message();
  load_asset_text("schema_version: 1\nteams:\n  - name: Crew\n    members: [{figure: T}]\n",
                  "b.yaml", lib, report);
  ASSERT_EQ(report.errors.size(), 1U);
  EXPECT_NE(report.errors[0].message().find("b.yaml:3: teams[0].name"), std::string::npos)
      << report.errors[0].message();
}

}  // namespace
}  // namespace duels
