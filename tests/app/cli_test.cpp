// Runs the real `duels` binary and checks exit codes, JSON output and error messages.
#include <gtest/gtest.h>

#include <sys/wait.h>
#include "run_duels.hpp"

#include <array>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <optional>
#include <sstream>
#include <string>
#include <utility>
#include "test_paths.hpp"

namespace {

using duels::testing::CmdResult;
using duels::testing::run;
using duels::testing::run_env;

TEST(Cli, ResolveJsonHasTheDocumentedFields) {
  const CmdResult r =
      run("resolve --weapon 7 --body 5 --attack yellow:d6=5 yellow:d6=3 blue:d6=2 "
          "--shield yellow --bonus yellow:1 --json");
  ASSERT_EQ(r.code, 0) << r.out;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_TRUE(j["hit"].get<bool>());
  EXPECT_EQ(j["attack_total"], 17);
  EXPECT_EQ(j["defence_total"], 5);
  EXPECT_EQ(j["clicks"], 3);
  EXPECT_EQ(j["blocked"].size(), 1U);
  EXPECT_TRUE(j["bad_karma"].empty());
  EXPECT_TRUE(j["ace_effects"].is_array());
}

TEST(Cli, ResolveRepeatedShieldsAndAceEffects) {
  const CmdResult r =
      run("resolve --weapon 9 --body 5 --attack yellow:d6=5 yellow:d8=3 red:d6:ace=ace "
          "green:d8:ace=ace "
          "--shield yellow --shield yellow --json");
  ASSERT_EQ(r.code, 0) << r.out;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["blocked"].size(), 2U);
  EXPECT_EQ(j["clicks"], 3);  // two aces + Major Mojo
  EXPECT_EQ(j["ace_effects"], nlohmann::json({"major_mojo", "called_shot"}));
}

TEST(Cli, OddsJsonClicksSumToOne) {
  const CmdResult r =
      run("odds --weapon 7 --attack yellow:d8:ace blue:d10 --body 9 --dodge white:d6 --json");
  ASSERT_EQ(r.code, 0) << r.out;
  const auto j = nlohmann::json::parse(r.out);
  double sum = 0;
  for (const auto& p : j["clicks"])
    sum += p.get<double>();
  EXPECT_NEAR(sum, 1.0, 1e-12);
  EXPECT_GT(j["p_hit"].get<double>(), 0.0);
  EXPECT_NEAR(j["clicks"][0].get<double>(), 1.0 - j["p_hit"].get<double>(), 1e-12);
}

TEST(Cli, BadNotationIsExit3WithTheToken) {
  const CmdResult r = run("roll yellow:d8 blue:d7");
  EXPECT_EQ(r.code, 3);
  EXPECT_NE(r.out.find("'d7'"), std::string::npos) << r.out;
}

TEST(Cli, UsageErrorIsExit2) {
  EXPECT_EQ(run("resolve --weapon 7").code, 2);
  EXPECT_EQ(run("no-such-command").code, 2);
}

TEST(Cli, SeededRollIsRepeatable) {
  const CmdResult a = run("roll 3xwhite:d12 --seed 77 --json");
  const CmdResult b = run("roll 3xwhite:d12 --seed 77 --json");
  ASSERT_EQ(a.code, 0);
  EXPECT_EQ(a.out, b.out);
  EXPECT_EQ(nlohmann::json::parse(a.out)["seed"], 77);
}

TEST(Cli, FigureCheckReportsFileLineField) {
  const std::string path = ::testing::TempDir() + "bad_gear.yaml";
  FILE* f = fopen(path.c_str(), "w");
  ASSERT_NE(f, nullptr);
  fputs("schema_version: 1\ngear:\n  - {id: x, points: 30}\n", f);
  fclose(f);
  const CmdResult r = run("figure check " + path);
  EXPECT_EQ(r.code, 3);
  EXPECT_NE(r.out.find(path + ":3: gear[0].points: a whole number from 0 to 12"), std::string::npos)
      << r.out;
}

TEST(Cli, FigureShowAndBundledFilesCheck) {
  EXPECT_EQ(run("figure show Razor").code, 0);
  const CmdResult r =
      run(std::string("figure check ") + duels_test::source_dir() +
          "/assets/figures/samples.yaml " + duels_test::source_dir() + "/assets/TEMPLATE.yaml");
  EXPECT_EQ(r.code, 0) << r.out;
}

TEST(Cli, DemoPlaysToTheEndAndSaysItIsTheTerminalDemo) {
  const CmdResult r = run("demo --seed 3");
  ASSERT_EQ(r.code, 0) << r.out;
  EXPECT_NE(r.out.find("terminal"), std::string::npos);
  EXPECT_NE(r.out.find("won after"), std::string::npos);
  EXPECT_EQ(r.out, run("demo --seed 3").out);
}

TEST(Cli, AdviseRanksLegalAttacks) {
  const CmdResult r =
      run("advise --attacker Razor --target Hex --gap 10 --base yellow:d8:ace blue:d8 green:d6 "
          "white:d6 --dodge-base white:d6 --json");
  ASSERT_EQ(r.code, 0) << r.out;
  const auto options = nlohmann::json::parse(r.out)["options"];
  ASSERT_EQ(options.size(), 3U);  // blue, green, blue+green (yellow out of range, white can't)
  EXPECT_GE(options[0]["expected_clicks"].get<double>(),
            options[1]["expected_clicks"].get<double>());
}

}  // namespace

namespace {

std::string temp_dir(const std::string& name) {
  const std::string dir = ::testing::TempDir() + name;
  std::string cmd = "rm -rf '" + dir + "' && mkdir -p '" + dir + "'";
  EXPECT_EQ(std::system(cmd.c_str()), 0);
  return dir;
}

TEST(CliMatch, NewPlayShowUndoListStats) {
  const std::string dir = temp_dir("cli_match");
  const std::string env = "XDG_DATA_HOME='" + dir + "' ";
  const std::string journal = dir + "/m.jsonl";
  ASSERT_EQ(
      run_env(env, "match new --figures Razor+armored-jacket,Hex --seed 5 --journal " + journal)
          .code,
      0);
  const std::string script = dir + "/s.txt";
  FILE* f = fopen(script.c_str(), "w");
  ASSERT_NE(f, nullptr);
  fputs(
      "alpha 6+5 2+3\npass\npass\nplace Razor 30 57\nplace Hex 30 3\n"
      "choose Razor blue:d8 blue:d10:ace 2xwhite:d6\nchoose Hex white:d6 yellow:d6\n"
      "move Razor 9 to 30 48 roll white:d6=2\n",
      f);
  fclose(f);
  CmdResult played = run_env(env, "match play " + journal + " --script " + script);
  ASSERT_EQ(played.code, 0) << played.out;
  CmdResult shown = run_env(env, "match show " + journal + " --json");
  ASSERT_EQ(shown.code, 0) << shown.out;
  const auto j = nlohmann::json::parse(shown.out);
  EXPECT_EQ(j["event"], 8);
  EXPECT_EQ(j["state"]["phase"], "turns");
  const std::string hash_after_move = j["hash"];
  // Undo the move, then show at event 7: the same state either way.
  ASSERT_EQ(run_env(env, "match undo " + journal).code, 0);
  const auto undone = nlohmann::json::parse(run_env(env, "match show " + journal + " --json").out);
  const auto at7 =
      nlohmann::json::parse(run_env(env, "match show " + journal + " --json --at 7").out);
  EXPECT_EQ(undone["hash"], at7["hash"]);
  EXPECT_NE(undone["hash"], hash_after_move);
  // An illegal script line: exit 3, with the script's file and line.
  f = fopen(script.c_str(), "w");
  fputs("attack Razor Hex gap 30 with blue:d8\n", f);
  fclose(f);
  played = run_env(env, "match play " + journal + " --script " + script);
  EXPECT_EQ(played.code, 3);
  EXPECT_NE(played.out.find(script + ":1: not allowed: blue dice can't attack at 30.00\""),
            std::string::npos)
      << played.out;
  // Finish it with the built-in opponent; the index lists and counts it.
  ASSERT_EQ(run_env(env, "match autoplay --journal " + journal + " --seed 5 --quiet").code, 0);
  const auto list = nlohmann::json::parse(run_env(env, "match list --json").out);
  ASSERT_EQ(list.size(), 1U);
  EXPECT_NE(list[0]["status"].get<std::string>().find("won"), std::string::npos);
  const auto stats = nlohmann::json::parse(run_env(env, "stats --json").out);
  EXPECT_EQ(stats["matches"], 1);
  EXPECT_EQ(stats["finished"], 1);
  ASSERT_EQ(stats["by_figure"].size(), 2U);
  EXPECT_EQ(stats["by_figure"][0]["wins"].get<int>() + stats["by_figure"][1]["wins"].get<int>(), 1);
  EXPECT_GT(stats["attacks"].get<int>(), 0);
}

TEST(CliMatch, AutoplayIsDeterministicAndRefusesToOverwrite) {
  const std::string dir = temp_dir("cli_autoplay");
  const std::string env = "XDG_DATA_HOME='" + dir + "' ";
  const CmdResult a =
      run_env(env, "match autoplay --teams 'Tech Team,Heavy Team' --seed 8 --quiet --journal " +
                       dir + "/a.jsonl");
  const CmdResult b =
      run_env(env, "match autoplay --teams 'Tech Team,Heavy Team' --seed 8 --quiet --journal " +
                       dir + "/b.jsonl");
  ASSERT_EQ(a.code, 0) << a.out;
  EXPECT_EQ(a.out, b.out);
  EXPECT_EQ(
      run_env(env, "match new --teams 'Tech Team,Heavy Team' --journal " + dir + "/a.jsonl").code,
      2);
}

}  // namespace

namespace {

TEST(CliMatch, ReportWritesMarkdownHtmlChartsAndCsv) {
  const std::string dir = temp_dir("cli_report");
  const std::string env = "XDG_DATA_HOME='" + dir + "' ";
  ASSERT_EQ(run_env(env, "match autoplay --figures Razor,Bulldozer --seed 4 --quiet --journal " +
                             dir + "/m.jsonl")
                .code,
            0);
  const CmdResult r =
      run_env(env, "match report " + dir + "/m.jsonl --out " + dir + "/report --csv");
  ASSERT_EQ(r.code, 0) << r.out;
  for (const char* f :
       {"report.md", "report.html", "dice_luck.png", "damage.png", "dials.png", "rolls.csv"}) {
    FILE* fp = fopen((dir + "/report/" + f).c_str(), "rb");
    ASSERT_NE(fp, nullptr) << f;
    fseek(fp, 0, SEEK_END);
    EXPECT_GT(ftell(fp), 100) << f;
    fclose(fp);
  }
}

}  // namespace

// ---- your own figures: `figure new` and the data folder ----------------------------------------

namespace {
// A fresh data folder (XDG_DATA_HOME) for one test, and the env prefix that points at it.
struct DataHome {
  std::string dir;
  std::string env;
  explicit DataHome(const std::string& name) {
    dir = ::testing::TempDir() + "datahome-" + name;
    std::filesystem::remove_all(dir);
    std::filesystem::create_directories(dir);
    env = "XDG_DATA_HOME=" + dir + " ";
  }
  [[nodiscard]] std::string write(const std::string& name, const std::string& text) const {
    const std::string p = dir + "/" + name;
    std::filesystem::create_directories(std::filesystem::path(p).parent_path());
    std::ofstream(p) << text;
    return p;
  }
};

// The answers to `duels figure new`, one a line, as a player would type them.
constexpr const char* kNewFigureAnswers =
    "Night Owl\n"  // name
    "042\n"        // collector number
    "45\n"         // points
    "\n"           // base: the default 2" x 0.75"
    "2xwhite:d6 yellow:d8:ace blue:d10\n"
    "blue:1\n"
    "7\n7\n6 hole\n5\n4\n3 hole\n0 hole hole hole\n\n"  // head
    "6\n5 yellow\n5\n4 hole\n2\n0 hole hole hole\n\n"   // weapon
    "8\n8 blue\n7 hole\n6\n5 hole\n0 hole hole hole\n\n"
    "yellow 0 4\nblue 0 14\n\n";
}  // namespace

TEST(CliFigureNew, AnswersFromAPipeSaveAFileEveryCommandFinds) {
  const DataHome home("new");
  const std::string answers = home.write("answers.txt", kNewFigureAnswers);
  const CmdResult r = run_env(home.env, "figure new < " + answers);
  ASSERT_EQ(r.code, 0) << r.out;
  const std::string file = home.dir + "/duels-companion/figures/night-owl.yaml";
  EXPECT_NE(r.out.find("Saved to " + file), std::string::npos) << r.out;
  EXPECT_TRUE(std::filesystem::exists(file));
  const CmdResult check = run_env(home.env, "figure check " + file);
  EXPECT_EQ(check.code, 0) << check.out;
  const CmdResult show = run_env(home.env, "figure show \"Night Owl\" --json");
  ASSERT_EQ(show.code, 0) << show.out;
  const auto j = nlohmann::json::parse(show.out);
  EXPECT_EQ(j["points"], 45);
  EXPECT_EQ(j["collector_number"], "042");
  // The figure plays: a seeded match against a sample, to the end.
  const CmdResult sim = run_env(home.env, "sim --a \"Night Owl\" --b Razor --games 2 --seed 1");
  EXPECT_EQ(sim.code, 0) << sim.out;
  EXPECT_NE(sim.out.find("Night Owl"), std::string::npos) << sim.out;
  // Entering it again is refused: the name is taken (naming the file).
  const CmdResult again = run_env(home.env, "figure new < " + answers);
  EXPECT_EQ(again.code, 3) << again.out;
  EXPECT_NE(again.out.find("already in " + file), std::string::npos) << again.out;
}

// Issue 52, row 3: `figure new --force` for "Night-Owl!" overwrote the file of another figure,
// "Night Owl" (both make night-owl.yaml), without saying the file held a different figure.
TEST(CliFigureNew, AnotherFiguresFileIsNeverReplaced) {
  const DataHome home("force");
  ASSERT_EQ(run_env(home.env, "figure new < " + home.write("a.txt", kNewFigureAnswers)).code, 0);
  const std::string owl = home.dir + "/duels-companion/figures/night-owl.yaml";
  std::ifstream before_in(owl);
  const std::string before((std::istreambuf_iterator<char>(before_in)),
                           std::istreambuf_iterator<char>());
  std::string answers = kNewFigureAnswers;
  answers.replace(0, 9, "Night-Owl!");
  const std::string other = home.write("b.txt", answers);
  // With --out on that file, even --force is refused, naming the figure the file holds.
  CmdResult r = run_env(home.env, "figure new --force --out " + owl + " < " + other);
  EXPECT_EQ(r.code, 2) << r.out;
  EXPECT_NE(r.out.find("holds the figure 'Night Owl', not 'Night-Owl!'"), std::string::npos)
      << r.out;
  // Without --out it goes to the next free name beside it.
  r = run_env(home.env, "figure new --force < " + other);
  EXPECT_EQ(r.code, 0) << r.out;
  EXPECT_NE(r.out.find("Saved to " + home.dir + "/duels-companion/figures/night-owl-2.yaml"),
            std::string::npos)
      << r.out;
  std::ifstream after_in(owl);
  const std::string after((std::istreambuf_iterator<char>(after_in)),
                          std::istreambuf_iterator<char>());
  EXPECT_EQ(after, before) << "Night Owl's file was changed";
  EXPECT_EQ(run_env(home.env, "figure show \"Night Owl\"").code, 0);
  EXPECT_EQ(run_env(home.env, "figure show \"Night-Owl!\"").code, 0);
}

TEST(CliFigureNew, ABadAnswerFromAPipeNamesItsLine) {
  const DataHome home("bad");
  std::string answers = kNewFigureAnswers;
  answers.replace(answers.find("6 hole"), 6, "6 purple");  // line 9 of the answers
  const CmdResult r = run_env(home.env, "figure new < " + home.write("a.txt", answers));
  EXPECT_EQ(r.code, 3) << r.out;
  EXPECT_NE(r.out.find("<stdin>:9: dials.head[2]"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("'purple'"), std::string::npos) << r.out;
  EXPECT_FALSE(std::filesystem::exists(home.dir + "/duels-companion/figures"));
}

TEST(CliFigureNew, DialsThatCannotReachThreeHolesAreRefused) {
  const DataHome home("holes");
  std::string answers = kNewFigureAnswers;
  for (auto at = answers.find("0 hole hole hole"); at != std::string::npos;
       at = answers.find("0 hole hole hole"))
    answers.replace(at, 16, "0");
  for (auto at = answers.find(" hole"); at != std::string::npos; at = answers.find(" hole"))
    answers.erase(at, 5);
  const CmdResult r = run_env(home.env, "figure new < " + home.write("a.txt", answers));
  EXPECT_EQ(r.code, 3) << r.out;
  EXPECT_NE(r.out.find("three bullet holes"), std::string::npos) << r.out;
}

TEST(CliDataFolder, OwnTeamsAreFoundAndAClashNamesBothFiles) {
  const DataHome home("clash");
  (void)home.write("duels-companion/teams/mine.yaml",
                   "schema_version: 1\nteams:\n  - name: Night Crew\n    members:\n"
                   "      - {figure: Razor, gear: [armored-jacket]}\n");
  const CmdResult demo =
      run_env(home.env, "demo --terminal --teams \"Night Crew\",\"Arcane Team\" --seed 2");
  EXPECT_EQ(demo.code, 0) << demo.out;
  EXPECT_NE(demo.out.find("Night Crew"), std::string::npos) << demo.out;
  const std::string mine = home.write("duels-companion/figures/razor.yaml",
                                      "schema_version: 1\nfigures:\n  - name: Razor\n"
                                      "    points: 1\n    base: {diameter: 2}\n"
                                      "    starting_dice: [white:d6]\n    dials:\n"
                                      "      head: [1, \"0 hole\"]\n      weapon: [1, \"0 hole\"]\n"
                                      "      body: [1, \"0 hole\"]\n"
                                      "    tape: [{colour: yellow, from: 0, to: 4}]\n");
  const CmdResult r = run_env(home.env, "figure show Hex");
  EXPECT_EQ(r.code, 3) << r.out;
  EXPECT_NE(r.out.find(mine), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("assets/figures/samples.yaml"), std::string::npos) << r.out;
  // `figure check` on the file says so too.
  const CmdResult check = run_env(home.env, "figure check " + mine);
  EXPECT_EQ(check.code, 3) << check.out;
  EXPECT_NE(check.out.find("samples.yaml"), std::string::npos) << check.out;
}

namespace {

void write_text(const std::string& path, const char* text) {
  FILE* f = fopen(path.c_str(), "w");
  ASSERT_NE(f, nullptr);
  fputs(text, f);
  fclose(f);
}

}  // namespace

// `duels track --match JOURNAL` (issue 51): the camera knows where the match has its figures.
// Razor's ring carries code 0 but the base map says 5 (a sticker from another sheet): alone the
// camera cannot name it; told the match placed Razor at (18, 12), it names the ring there Razor,
// and after Razor's base moves to (24, 20) (the scene's script; the match not told) it names the
// one ring standing off the match's spots by the spot it left.
TEST(CliTrack, AMatchJournalNamesTheBasesWhereTheMatchHasThem) {
  const std::string dir = temp_dir("cli_track_match");
  const std::string env = "XDG_DATA_HOME='" + dir + "' ";
  write_text(dir + "/bases.yaml",
             "schema_version: 1\nbases:\n"
             "  - {marker: 5, figure: Razor, diameter: 2.0, marker_height: 0.75, target: ring2}\n"
             "  - {marker: 1, figure: Gridlock, diameter: 2.0, marker_height: 0.75, "
             "target: ring2}\n");
  write_text(dir + "/place.txt",
             "alpha 5+3 2+2\npass\npass\nplace Razor 18 12\nplace Gridlock 58 58\n");
  const std::string journal = dir + "/m.jsonl";
  ASSERT_EQ(run_env(env, "match new --figures Razor,Gridlock --seed 7 --journal " + journal).code,
            0);
  ASSERT_EQ(run_env(env, "match play " + journal + " --script " + dir + "/place.txt").code, 0);
  const std::string track =
      "track --source synthetic:demo_rings --bases " + dir + "/bases.yaml --json --frames ";
  using Place = std::pair<double, double>;
  const auto razor_at = [](const std::string& out, int frame) -> std::optional<Place> {
    std::istringstream lines(out);
    std::string line;
    while (std::getline(lines, line)) {
      const auto j = nlohmann::json::parse(line, nullptr, false);
      if (j.is_discarded() || j["frame"] != frame) continue;
      for (const auto& b : j["bases"]) {
        if (b["figure"] == "Razor" && !b["stale"].get<bool>())
          return Place(b["centre_in"][0].get<double>(), b["centre_in"][1].get<double>());
      }
    }
    return std::nullopt;
  };
  const CmdResult alone = run_env(env, track + "3");
  ASSERT_EQ(alone.code, 0) << alone.out;
  EXPECT_FALSE(razor_at(alone.out, 2));
  const CmdResult remembered = run_env(env, track + "46 --match " + journal);
  ASSERT_EQ(remembered.code, 0) << remembered.out;
  const auto placed = razor_at(remembered.out, 2);
  ASSERT_TRUE(placed);
  EXPECT_LT(std::hypot(placed->first - 18, placed->second - 12), 0.2);
  const auto moved = razor_at(remembered.out, 45);
  ASSERT_TRUE(moved);
  EXPECT_LT(std::hypot(moved->first - 24, moved->second - 20), 0.2);
  // A journal that is not one is refused before any frame, naming the file.
  write_text(dir + "/bad.jsonl", "not a journal\n");
  const CmdResult bad = run_env(env, track + "3 --match " + dir + "/bad.jsonl");
  EXPECT_EQ(bad.code, 3) << bad.out;
  EXPECT_NE(bad.out.find("bad.jsonl"), std::string::npos) << bad.out;
}
