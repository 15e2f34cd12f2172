// The figure editor's and team builder's state, headless: fields checked as typed, dials
// entered click by click, saving into the data folder, the gear limit and team value.
#include "overlay/editor_model.hpp"

#include <gtest/gtest.h>

#include <filesystem>

#include "fixtures.hpp"
#include "test_paths.hpp"

namespace duels::overlay {
namespace {

using testing::TempDir;

FigureDraft complete_draft() {
  FigureDraft d;
  d.name = "Night Owl";
  d.points = "45";
  d.dice = "2xwhite:d6 yellow:d8:ace blue:d10";
  d.bonus = "blue:1";
  for (const char* t : {"7", "7", "6 hole", "5", "0 hole hole hole"}) {
    d.showing(DialKind::Head) = t;
    d.click_forward(DialKind::Head);
  }
  for (const char* t : {"6", "5 yellow", "0 hole hole hole"}) {
    d.showing(DialKind::Weapon) = t;
    d.click_forward(DialKind::Weapon);
  }
  for (const char* t : {"8", "8 blue", "0 hole hole hole"}) {
    d.showing(DialKind::Body) = t;
    d.click_forward(DialKind::Body);
  }
  d.tape = {"yellow 0 4", "blue 0 14"};
  return d;
}

struct EditorDir : TempDir {
  EditorLibrary lib{{duels_test::source_dir() + "/assets", (path / "data").string()}};
};

TEST(FigureDraft, EachFieldIsCheckedAsTyped) {
  EditorDir dir;
  FigureDraft d = complete_draft();
  EXPECT_TRUE(check_draft(d, dir.lib).ok());
  d.points = "forty";
  d.dice = "2xwhite:d7";
  d.showing(DialKind::Head) = "";  // the click the editor is on, past the last: not an error
  d.dials[0][1] = "7 purple";
  d.tape[1] = "blue 9 2";
  const DraftCheck c = check_draft(d, dir.lib);
  EXPECT_FALSE(c.ok());
  EXPECT_EQ(c.field_errors.count("points"), 1U);
  EXPECT_EQ(c.field_errors.count("dice"), 1U);
  ASSERT_EQ(c.field_errors.count("head.1"), 1U);
  EXPECT_NE(c.field_errors.at("head.1").find("'purple'"), std::string::npos);
  EXPECT_EQ(c.field_errors.count("tape.1"), 1U);
  EXPECT_EQ(c.field_errors.count("name"), 0U);
}

TEST(FigureDraft, TurningTheDialsClickByClick) {
  FigureDraft d;
  d.showing(DialKind::Body) = "9";
  d.click_forward(DialKind::Body);
  EXPECT_EQ(d.turned[2], 1);
  EXPECT_EQ(d.dials[2].size(), 2U);
  d.showing(DialKind::Body) = "8 hole";
  d.click_back(DialKind::Body);
  EXPECT_EQ(d.showing(DialKind::Body), "9");
  d.click_back(DialKind::Body);  // not before the green arrow
  EXPECT_EQ(d.turned[2], 0);
  d.remove_click(DialKind::Body);
  EXPECT_EQ(d.dials[2], std::vector<std::string>{"8 hole"});
  const FigureDef preview = preview_figure(d);
  EXPECT_EQ(preview.dial(DialKind::Body).positions[0].bullet_holes, 1);
}

TEST(FigureDraft, WholeFigureProblemsAndAClashWithASample) {
  EditorDir dir;
  FigureDraft d = complete_draft();
  for (auto& dial : d.dials)
    for (auto& t : dial)
      if (t.find("hole") != std::string::npos) t = "0";
  DraftCheck c = check_draft(d, dir.lib);
  ASSERT_EQ(c.problems.size(), 1U);
  EXPECT_NE(c.problems[0].find("three bullet holes"), std::string::npos);
  d = complete_draft();
  d.name = "Hex";
  c = check_draft(d, dir.lib);
  ASSERT_FALSE(c.problems.empty());
  EXPECT_NE(c.problems[0].find("samples.yaml"), std::string::npos) << c.problems[0];
}

TEST(FigureDraft, SaveWritesACheckedFileAndTheLibrarySeesIt) {
  EditorDir dir;
  const std::string path = save_draft(complete_draft(), dir.lib);
  EXPECT_EQ(path, (dir.path / "data" / "figures" / "night-owl.yaml").string());
  ASSERT_NE(dir.lib.library().find_figure("Night Owl"), nullptr);
  EXPECT_EQ(dir.lib.library().find_figure("Night Owl")->points, 45);
  // Loading it back into the editor and saving again is no clash with itself.
  const FigureDraft again = draft_of(*dir.lib.library().find_figure("Night Owl"));
  EXPECT_TRUE(check_draft(again, dir.lib, path).ok());
  EXPECT_FALSE(check_draft(again, dir.lib).ok());  // as a new figure, the name is taken
  FigureDraft bad = complete_draft();
  bad.points.clear();
  EXPECT_THROW(save_draft(bad, dir.lib), DataException);
}

TEST(TeamDraft, GearLimitAndTeamValue) {
  EditorDir dir;
  const AssetLibrary& lib = dir.lib.library();
  TeamDef t{"Owls", {{"Razor", {"armored-jacket", "smartgun-link"}}, {"Hex", {}}}};
  EXPECT_EQ(gear_points(t.members[0], lib), 7);
  EXPECT_EQ(team_value(t, lib),
            lib.find_figure("Razor")->points + 7 + lib.find_figure("Hex")->points);
  EXPECT_TRUE(team_problems(t, dir.lib).empty());
  t.members[0].gear.push_back("sniper-rifle");
  t.members[0].gear.push_back("stim-patch");  // 14 points
  const auto problems = team_problems(t, dir.lib);
  ASSERT_FALSE(problems.empty());
  EXPECT_NE(problems[0].find("at most 12"), std::string::npos) << problems[0];
  t.members[0].gear.pop_back();
  const std::string path = save_team(t, dir.lib);
  EXPECT_TRUE(std::filesystem::exists(path));
  EXPECT_EQ(dir.lib.library().teams.count("Owls"), 1U);
  TeamDef clash{"Street Team", {{"Razor", {}}}};
  EXPECT_FALSE(team_problems(clash, dir.lib).empty());
}

}  // namespace
}  // namespace duels::overlay
