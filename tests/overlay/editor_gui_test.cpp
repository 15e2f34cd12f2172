// The figure editor and team builder in the real window (under Xvfb), driven by UI scripts like
// a player: a figure entered click by click, saved into the data folder, then played; and the
// window opens no match journal unless a match is started or resumed.
#include <fmt/format.h>
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <array>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <opencv2/imgcodecs.hpp>

#include "dice/notation.hpp"
#include "duels/asset_writer.hpp"
#include "duels/loadout.hpp"
#include "fixtures.hpp"
#include "match/journal.hpp"
#include "overlay/gui.hpp"
#include "test_paths.hpp"

namespace duels::overlay {
namespace {

namespace fs = std::filesystem;
using testing::TempDir;

struct GuiDir : TempDir {
  GuiDir() {
    fs::create_directories(path / "config");
    fs::create_directories(path / "data");
    setenv("XDG_CONFIG_HOME", (path / "config").c_str(), 1);
    setenv("XDG_DATA_HOME", (path / "data").c_str(), 1);
  }
  [[nodiscard]] std::string user_dir() const {
    return (path / "data" / "duels-companion").string();
  }
};

bool window_required() {
  const char* v = std::getenv("DUELS_REQUIRE_WINDOW");
  return v != nullptr && *v != '\0' && *v != '0';
}

// Runs the window; false when none can be opened here.
bool run(GuiOptions g, GuiResult& result) {
  if (!display_advertised()) return false;
  g.scale = 1;
  g.reset_layout = true;
  g.script_timeout_s = 30;
  try {
    result = run_gui(std::move(g));
  } catch (const GuiUnavailable&) {
    return false;
  }
  return true;
}

#define SKIP_WITHOUT_WINDOW(ran)                                     \
  if (!(ran)) {                                                      \
    if (window_required()) FAIL() << "no window can be opened here"; \
    GTEST_SKIP() << "no window can be opened here (no display)";     \
  }

// DUELS_GUI_TEST_SHOTS=DIR keeps the screenshots (docs/screenshots comes from there).
void keep_shot(const std::string& file) {
  if (const char* keep = std::getenv("DUELS_GUI_TEST_SHOTS"); keep != nullptr && *keep != '\0') {
    fs::create_directories(keep);
    fs::copy_file(file, fs::path(keep) / fs::path(file).filename(),
                  fs::copy_options::overwrite_existing);
  }
}

// The dials of the figure the script enters, click by click from the green arrow.
const std::array<std::vector<std::string>, 3> kDials = {
    std::vector<std::string>{"7", "7", "6 hole", "5", "4", "3 hole", "0 hole hole hole"},
    std::vector<std::string>{"6", "5 yellow", "5", "4 hole", "2", "0 hole hole hole"},
    std::vector<std::string>{"8", "8 blue", "7 hole", "6", "5 hole", "0 hole hole hole"}};

std::string figure_script(const std::string& shot_half, const std::string& shot_done) {
  std::string s =
      "click \"Name\"\ntype \"Night Owl\"\n"
      "click \"Collector number\"\ntype \"042\"\n"
      "click \"Points\"\ntype \"45\"\n"
      "click \"Starting dice\"\ntype \"2xwhite:d6 yellow:d8:ace blue:d10\"\n"
      "click \"Damage bonus\"\ntype \"blue:1\"\n";
  const char* names[] = {"Head", "Weapon", "Body"};
  for (std::size_t d = 0; d < 3; ++d) {
    s += fmt::format("# the {} dial, click by click: type what it shows, enter turns it on\n",
                     names[d]);
    for (std::size_t i = 0; i < kDials[d].size(); ++i) {
      s += fmt::format("click \"{} shows\"\ntype \"{}\"\n", names[d], kDials[d][i]);
      if (i + 1 < kDials[d].size()) s += "key enter\nwait 2\n";
    }
    if (d == 1) s += fmt::format("screenshot {}\n", shot_half);
  }
  s += "click \"Tape track 1\"\ntype \"yellow 0 4\"\n"
       "click \"Add track\"\nclick \"Tape track 2\"\ntype \"blue 0 14\"\n"
       "click \"Add track\"\nclick \"Tape track 3\"\ntype \"green 0 26\"\n"
       "wait-for \"Save figure\"\n";
  s += fmt::format("screenshot {}\n", shot_done);
  s += "click \"Save figure\"\nwait-for \"figure saved\"\n";
  return s;
}

TEST(EditorGui, AFigureEnteredClickByClickIsSavedAndPlaysAnAttack) {
  GuiDir dir;
  const std::string script = dir.file("editor.ui");
  std::ofstream(script) << figure_script(dir.file("editor-typing.png"), dir.file("editor.png")) +
                               "click \"Team name\"\ntype \"Owls\"\n"
                               "click \"Add Night Owl\"\nclick \"+ armored-jacket\"\n"
                               "click \"Save team\"\nwait-for \"team saved\"\n"
                               "click \"Arcane Team\"\nscreenshot " +
                               dir.file("team-builder.png") +
                               "\nclick \"Start match\"\nwait-for \"Roll for alpha\"\nwait 2\n";
  GuiOptions g;
  g.assets = AssetFolders{duels_test::source_dir() + "/assets", dir.user_dir()};
  g.open_editor = true;
  g.ui_script = script;
  GuiResult r;
  SKIP_WITHOUT_WINDOW(run(std::move(g), r));
  ASSERT_TRUE(r.script_error.empty()) << r.script_error;
  ASSERT_TRUE(r.script_finished);
  for (const char* shot : {"editor-typing.png", "editor.png", "team-builder.png"}) {
    ASSERT_FALSE(cv::imread(dir.file(shot)).empty()) << shot;
    keep_shot(dir.file(shot));
  }

  // The file in the data folder passes the same check as `duels figure check`, and says what
  // the script typed, click by click.
  const std::string file = dir.user_dir() + "/figures/night-owl.yaml";
  AssetLibrary saved;
  LoadReport report;
  load_asset_file(file, saved, report, &testing::library());
  ASSERT_TRUE(report.ok()) << report.errors.front().message();
  const FigureDef& owl = saved.figures.at("Night Owl");
  EXPECT_EQ(owl.points, 45);
  EXPECT_EQ(owl.collector_number, "042");
  EXPECT_EQ(dice::to_notation(owl.starting_dice), "2xwhite:d6 yellow:d8:ace blue:d10");
  EXPECT_EQ(owl.damage_bonus.at(dice::Colour::Blue), 1);
  for (DialKind d : kAllDials) {
    const auto& want = kDials[static_cast<std::size_t>(d)];
    ASSERT_EQ(owl.dial(d).positions.size(), want.size()) << dial_name(d);
    for (std::size_t i = 0; i < want.size(); ++i)
      EXPECT_EQ(parse_dial_position(want[i]).value(), owl.dial(d).positions[i]) << want[i];
  }
  EXPECT_EQ(owl.tape.tracks.size(), 3U);
  EXPECT_EQ(owl.dial(DialKind::Weapon).positions[1].shield, dice::Colour::Yellow);

  // The team builder's team was saved, and Start match made the match's journal then.
  const AssetLibrary lib =
      load_asset_libraries({duels_test::source_dir() + "/assets", dir.user_dir()});
  ASSERT_EQ(lib.teams.count("Owls"), 1U);
  EXPECT_EQ(lib.teams.at("Owls").members[0].gear, std::vector<std::string>{"armored-jacket"});
  ASSERT_FALSE(r.journal.empty());
  const auto started = match::replay(match::read_journal(r.journal));
  ASSERT_EQ(started.setup.teams.size(), 2U);
  EXPECT_EQ(started.setup.teams[0].figures[0].figure, owl);

  // The figure plays: a match at its first turn, and the window attacks Hex with its blue d10.
  MatchSetup setup;
  setup.options.enforce_placement_distance = false;
  FigureSetup mine{owl, {}, Point{20, 30}};
  setup.teams.push_back({"Owls", {mine}});
  setup.teams.push_back({"Arcane Team", {testing::loadout("Hex", {}, {32, 30})}});
  const std::string journal = dir.file("owl.jsonl");
  {
    auto m = match::DuelsMatch::create(journal, setup, 5);
    ASSERT_TRUE(m.play(RollForAlpha{{{0, {6, 5}}, {1, {1, 2}}}}));
    ASSERT_TRUE(m.play(PassTerrain{0}));
    ASSERT_TRUE(m.play(PassTerrain{1}));
    auto chose = m.play(ChooseDice{0, {0, 1, 2, 3}});
    ASSERT_TRUE(chose) << chose.error().reason;
    chose = m.play(ChooseDice{1, testing::kHexDice});
    ASSERT_TRUE(chose) << chose.error().reason;
    ASSERT_EQ(m.state().phase, Phase::Turns);
  }
  const std::string attack = dir.file("attack.ui");
  std::ofstream(attack) << "click-base \"Night Owl\"\nhover-base Hex\n"
                           "select-die \"blue:d10\"\nclick \"Attack\"\nclick \"No dodge\"\n"
                           "click \"attack die 1\"\ntype \"9\"\nclick \"Use these results\"\n"
                           "wait 3\nscreenshot "
                        << dir.file("owl-attack.png") << "\n";
  GuiOptions play;
  play.match_path = journal;
  play.layout = testing::crate_layout();
  play.ui_script = attack;
  GuiResult pr;
  ASSERT_TRUE(run(std::move(play), pr));
  ASSERT_TRUE(pr.script_error.empty()) << pr.script_error;
  keep_shot(dir.file("owl-attack.png"));
  const auto replayed = match::replay(match::read_journal(journal));
  const DeclareAttack* declare = nullptr;
  const RollAttack* roll = nullptr;
  for (const auto& st : replayed.steps) {
    if (const auto* d = std::get_if<DeclareAttack>(&st.command)) declare = d;
    if (const auto* x = std::get_if<RollAttack>(&st.command)) roll = x;
  }
  ASSERT_NE(declare, nullptr);
  EXPECT_EQ(declare->attacker, 0);
  EXPECT_EQ(declare->target, 1);
  EXPECT_EQ(declare->dice, std::vector<DieId>{3});  // blue d10
  ASSERT_NE(roll, nullptr);
  EXPECT_EQ(roll->attack_faces, std::vector<int>{9});
}

// ---- journals: only when a match is started or resumed ------------------------------------------

struct Cmd {
  int code = -1;
  std::string out;
};

Cmd duels_cmd(const std::string& args) {
  Cmd r;
  FILE* pipe = popen((duels_test::binary() + " " + args + " 2>&1").c_str(), "r");
  if (pipe == nullptr) return r;
  std::array<char, 4096> buf{};
  std::size_t n = 0;
  while ((n = fread(buf.data(), 1, buf.size(), pipe)) > 0)
    r.out.append(buf.data(), n);
  const int status = pclose(pipe);
  r.code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return r;
}

std::size_t journals_in(const GuiDir& dir) {
  const fs::path matches = dir.path / "data" / "duels-companion" / "matches";
  std::error_code ec;
  if (!fs::is_directory(matches, ec)) return 0;
  return static_cast<std::size_t>(
      std::distance(fs::directory_iterator(matches), fs::directory_iterator()));
}

TEST(GuiJournal, CardGamesCalibrationAndTheEditorOpenNoMatchJournal) {
  GuiDir dir;
  if (!display_advertised()) {
    if (window_required()) FAIL() << "no display";
    GTEST_SKIP() << "no display";
  }
  for (const char* args : {"--cards encounters", "--calibrate synthetic", "--editor"}) {
    const Cmd r = duels_cmd(fmt::format("gui {} --frames 3 --json", args));
    ASSERT_EQ(r.code, 0) << args << ": " << r.out;
    const auto j = nlohmann::json::parse(r.out.substr(r.out.find('{')));
    EXPECT_EQ(j["journal"], "") << args;
    EXPECT_EQ(journals_in(dir), 0U) << args << " wrote a match journal";
  }
  // `duels match list` has nothing to show.
  EXPECT_NE(duels_cmd("match list").out.find("No match"), std::string::npos)
      << duels_cmd("match list").out;
  // A match asked for is journaled (so this test can tell).
  const Cmd m = duels_cmd("gui --figures Razor,Hex --frames 2 --json");
  ASSERT_EQ(m.code, 0) << m.out;
  EXPECT_EQ(journals_in(dir), 1U);
}

}  // namespace
}  // namespace duels::overlay
