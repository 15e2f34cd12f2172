// Figure and team files written by the editor read back equal; dial positions, tracks and
// bonuses as typed; the player's data folder beside the samples, with name clashes naming both
// files; atomic saves.
#include "duels/asset_writer.hpp"

#include <gtest/gtest.h>
#include <stdlib.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "duels/assets.hpp"
#include "test_paths.hpp"

namespace duels {
namespace {

namespace fs = std::filesystem;

struct TempFolder {
  fs::path path;
  TempFolder() {
    std::string t = (fs::temp_directory_path() / "duels-writer-XXXXXX").string();
    path = mkdtemp(t.data());
  }
  ~TempFolder() {
    std::error_code ec;
    fs::remove_all(path, ec);
  }
  TempFolder(const TempFolder&) = delete;
  TempFolder& operator=(const TempFolder&) = delete;
};

const AssetLibrary& samples() {
  static const AssetLibrary lib = load_asset_library(duels_test::source_dir() + "/assets");
  return lib;
}

void write(const fs::path& p, const std::string& text) {
  fs::create_directories(p.parent_path());
  std::ofstream(p) << text;
}

TEST(AssetWriter, EverySampleFigureReadsBackEqual) {
  ASSERT_FALSE(samples().figures.empty());
  for (const auto& [name, f] : samples().figures) {
    AssetLibrary back;
    LoadReport report;
    load_asset_text(figure_file_text(f), "back.yaml", back, report);
    ASSERT_TRUE(report.ok()) << name << ": " << report.errors.front().message() << "\n"
                             << figure_file_text(f);
    ASSERT_EQ(back.figures.size(), 1U);
    FigureDef expected = f;
    expected.sample = false;  // the editor writes the player's own figures
    EXPECT_EQ(back.figures.begin()->second, expected) << name;
  }
}

TEST(AssetWriter, NamesWithQuotesAndColonsSurvive) {
  FigureDef f = samples().figures.begin()->second;
  f.name = "Mr. \"Big\": the #1 \\ boss";
  f.collector_number = "007";
  AssetLibrary back;
  LoadReport report;
  load_asset_text(figure_file_text(f), "q.yaml", back, report);
  ASSERT_TRUE(report.ok()) << report.errors.front().message();
  EXPECT_EQ(back.figures.begin()->first, f.name);
  EXPECT_EQ(back.figures.begin()->second.collector_number, "007");
}

TEST(AssetWriter, TeamReadsBack) {
  TeamDef t{"My Runners", {{"Razor", {"armored-jacket"}}, {"Hex", {}}}};
  AssetLibrary back;
  LoadReport report;
  load_asset_text(team_file_text(t), "t.yaml", back, report, &samples());
  ASSERT_TRUE(report.ok()) << report.errors.front().message();
  ASSERT_EQ(back.teams.count("My Runners"), 1U);
  EXPECT_EQ(back.teams["My Runners"].members.size(), 2U);
  EXPECT_EQ(back.teams["My Runners"].members[0].gear, std::vector<std::string>{"armored-jacket"});
}

TEST(AssetWriter, DialPositionsAsTyped) {
  auto p = parse_dial_position("5 yellow hole");
  ASSERT_TRUE(p);
  EXPECT_EQ(p->value, 5);
  EXPECT_EQ(p->shield, dice::Colour::Yellow);
  EXPECT_EQ(p->bullet_holes, 1);
  EXPECT_EQ(dial_position_text(*p), "5 yellow hole");
  EXPECT_EQ(parse_dial_position("0 hole hole hole")->bullet_holes, 3);
  EXPECT_FALSE(parse_dial_position(""));
  EXPECT_NE(parse_dial_position("five").error().find("'five'"), std::string::npos);
  EXPECT_NE(parse_dial_position("5 purple").error().find("'purple'"), std::string::npos);
  EXPECT_FALSE(parse_dial_position("5 red blue"));
  EXPECT_FALSE(parse_dial_position("1 hole hole hole hole"));
  EXPECT_FALSE(parse_dial_position("100"));
}

TEST(AssetWriter, TracksAndBonusesAsTyped) {
  auto t = parse_tape_track("blue 0 14");
  ASSERT_TRUE(t);
  EXPECT_EQ(t->colour, dice::Colour::Blue);
  EXPECT_DOUBLE_EQ(t->to_in, 14);
  EXPECT_FALSE(parse_tape_track("white 0 4"));  // tapes have no white track
  EXPECT_FALSE(parse_tape_track("blue 6 4"));
  EXPECT_FALSE(parse_tape_track("blue 0"));
  auto b = parse_damage_bonus("yellow:1 red:2");
  ASSERT_TRUE(b);
  EXPECT_EQ(b->at(dice::Colour::Red), 2);
  EXPECT_TRUE(parse_damage_bonus("")->empty());
  EXPECT_FALSE(parse_damage_bonus("yellow"));
  EXPECT_FALSE(parse_damage_bonus("yellow:1 yellow:2"));
}

TEST(AssetWriter, CheckFigureNamesTheClashAndTheThreeHoleRule) {
  FigureDef f = samples().figures.at("Razor");
  const auto clash = check_figure(f, &samples(), "/tmp/mine.yaml");
  ASSERT_EQ(clash.size(), 1U);
  EXPECT_NE(clash[0].expected.find("samples.yaml"), std::string::npos) << clash[0].expected;
  f.name = "Razor Two";
  EXPECT_TRUE(check_figure(f, &samples()).empty());
  for (auto& d : f.dials)
    for (auto& p : d.positions)
      p.bullet_holes = 0;
  const auto holes = check_figure(f, &samples());
  ASSERT_FALSE(holes.empty());
  EXPECT_NE(holes[0].expected.find("three bullet holes"), std::string::npos);
}

TEST(AssetWriter, FileStems) {
  EXPECT_EQ(file_stem("Street Samurai #2"), "street-samurai-2");
  EXPECT_EQ(file_stem("  "), "figure");
}

TEST(AssetWriter, SavingMakesTheFolderAndLeavesNoTemporaryFile) {
  TempFolder dir;
  const fs::path p = dir.path / "sub" / "f.yaml";
  save_asset_file(p.string(), "one\n");
  save_asset_file(p.string(), "two\n");
  std::ifstream in(p);
  std::stringstream s;
  s << in.rdbuf();
  EXPECT_EQ(s.str(), "two\n");
  EXPECT_EQ(std::distance(fs::directory_iterator(p.parent_path()), fs::directory_iterator()), 1);
  EXPECT_THROW(save_asset_file("/proc/no/such/f.yaml", "x"), DataException);
}

TEST(DataFolder, OwnFiguresLoadBesideTheSamples) {
  TempFolder user;
  FigureDef mine = samples().figures.at("Razor");
  mine.name = "Blade";
  mine.sample = false;
  write(user.path / "figures" / "blade.yaml", figure_file_text(mine));
  write(user.path / "teams" / "mine.yaml",
        team_file_text({"Blades", {{"Blade", {"armored-jacket"}}, {"Razor", {}}}}));
  const AssetLibrary lib =
      load_asset_libraries({duels_test::source_dir() + "/assets", user.path.string()});
  ASSERT_NE(lib.find_figure("Blade"), nullptr);
  ASSERT_NE(lib.find_figure("Razor"), nullptr);
  EXPECT_EQ(lib.teams.count("Blades"), 1U);
  EXPECT_EQ(lib.figure_files.at("Blade"), (user.path / "figures" / "blade.yaml").string());
  // A folder that does not exist is no error (a player without own figures).
  EXPECT_NO_THROW(
      load_asset_libraries({duels_test::source_dir() + "/assets", "/nonexistent/duels"}));
}

TEST(DataFolder, ANameClashWithASampleNamesBothFiles) {
  TempFolder user;
  FigureDef mine = samples().figures.at("Hex");
  mine.name = "razor";  // case differs: still the same figure for every command
  const fs::path file = user.path / "figures" / "razor.yaml";
  write(file, figure_file_text(mine));
  try {
    (void)load_asset_libraries({duels_test::source_dir() + "/assets", user.path.string()});
    FAIL() << "a clash must be an error";
  } catch (const DataException& e) {
    const std::string m = e.what();
    EXPECT_NE(m.find(file.string()), std::string::npos) << m;
    EXPECT_NE(m.find("assets/figures/samples.yaml"), std::string::npos) << m;
  }
}

TEST(DataFolder, ATeamNameClashNamesBothFiles) {
  TempFolder user;
  const std::string sample_team = samples().teams.begin()->first;
  const fs::path file = user.path / "teams" / "t.yaml";
  write(file, team_file_text({sample_team, {{"Razor", {}}}}));
  try {
    (void)load_asset_libraries({duels_test::source_dir() + "/assets", user.path.string()});
    FAIL() << "a clash must be an error";
  } catch (const DataException& e) {
    const std::string m = e.what();
    EXPECT_NE(m.find(file.string()), std::string::npos) << m;
    EXPECT_NE(m.find("assets/teams/samples.yaml"), std::string::npos) << m;
  }
}

}  // namespace
}  // namespace duels
