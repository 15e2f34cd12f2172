// The "while here" items of issue #16, run through the real `duels` binary: figures checked by
// resolve/odds/advise, advise's limits, teams of several figures, mirror matches, errors that
// cite the command line, and range refusals to 0.01".
#include <gtest/gtest.h>

#include <sys/wait.h>
#include <unistd.h>
#include "run_duels.hpp"

#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

namespace {

namespace fs = std::filesystem;

using duels::testing::CmdResult;
using duels::testing::run;
using duels::testing::run_env;

bool has(const CmdResult& r, const std::string& text) {
  return r.out.find(text) != std::string::npos;
}

// A fresh folder for journals (and the data folder, so the match index stays out of $HOME).
struct Folder {
  fs::path path;
  explicit Folder(const std::string& name)
      : path(fs::temp_directory_path() / (name + "_" + std::to_string(::getpid()))) {
    fs::remove_all(path);
    fs::create_directories(path);
  }
  ~Folder() { fs::remove_all(path); }
  [[nodiscard]] std::string file(const std::string& n) const { return (path / n).string(); }
  [[nodiscard]] std::string env() const { return "XDG_DATA_HOME=" + path.string() + " "; }
};

CmdResult run_in(const Folder& f, const std::string& args) {
  return run_env(f.env(), args);
}

// --- resolve / odds with a figure --------------------------------------------------------

TEST(RulesCli, ResolveWithAnAttackerRefusesAColourWithoutATrack) {
  // Without a figure the dice are taken as given…
  EXPECT_EQ(run("resolve --weapon 6 --body 8 --attack red:d6=5").code, 0);
  // …with one, red needs a red track on Razor's tape (yellow, blue, green).
  const CmdResult r = run("resolve --weapon 6 --body 8 --attack red:d6=5 --attacker Razor");
  EXPECT_EQ(r.code, 3) << r.out;
  EXPECT_TRUE(has(r, "red dice can't be rolled alone")) << r.out;
  const CmdResult w = run("resolve --weapon 6 --body 8 --attack white:d6=5 --attacker Razor");
  EXPECT_EQ(w.code, 3) << w.out;
  EXPECT_TRUE(has(w, "white dice can't attack")) << w.out;
  EXPECT_EQ(run("resolve --weapon 6 --body 8 --attack blue:d8=5 --attacker Razor").code, 0);
}

TEST(RulesCli, OddsWithATargetRefusesADodgeColour) {
  const CmdResult r = run("odds --weapon 6 --body 8 --attack blue:d8 --dodge blue:d6 --target Hex");
  EXPECT_EQ(r.code, 3) << r.out;
  EXPECT_TRUE(has(r, "blue dice can't be rolled to dodge")) << r.out;
  EXPECT_EQ(run("odds --weapon 6 --body 8 --attack blue:d8 --dodge white:d6 --target Hex").code, 0);
  const CmdResult unknown = run("odds --weapon 6 --body 8 --attack blue:d8 --attacker Nobody");
  EXPECT_EQ(unknown.code, 3);
  EXPECT_TRUE(has(unknown, "<command line>: --attacker: a known figure")) << unknown.out;
}

// Razor's yellow track ends at 4": a gap of 4.004" is out of reach, and the message shows the
// gap and the reach apart (not "at 4.0": … ends at 4.0"").
TEST(RulesCli, ReachAtATracksEndIsReportedToTheHundredth) {
  const CmdResult r =
      run("resolve --weapon 6 --body 8 --attack yellow:d8=5 --attacker Razor --gap 4.004");
  EXPECT_EQ(r.code, 3) << r.out;
  EXPECT_TRUE(has(r,
                  "yellow dice can't attack at 4.004\": the yellow track ends at 4.00\" on "
                  "the tape, so it reaches 4.000\" at most"))
      << r.out;
  const CmdResult far =
      run("odds --weapon 6 --body 8 --attack yellow:d8 --attacker Razor --gap 4.3");
  EXPECT_EQ(far.code, 3) << far.out;
  EXPECT_TRUE(has(far, "can't attack at 4.30\"")) << far.out;
  EXPECT_TRUE(has(far, "reaches 4.00\" at most")) << far.out;
  EXPECT_EQ(run("odds --weapon 6 --body 8 --attack yellow:d8 --attacker Razor --gap 4").code, 0);
}

// --- advise's limits ----------------------------------------------------------------------

TEST(RulesCli, AdviseRefusesAChordLongerThanTheBase) {
  const CmdResult r =
      run("advise --attacker Razor --target Hex --base yellow:d8 blue:d8 --gap 3 --chord 2.5");
  EXPECT_EQ(r.code, 3) << r.out;
  EXPECT_TRUE(has(r, "--chord")) << r.out;
  EXPECT_TRUE(has(r, "2.00\"")) << r.out;
  EXPECT_EQ(
      run("advise --attacker Razor --target Hex --base yellow:d8 blue:d8 --gap 3 --chord 1.5").code,
      0);
}

TEST(RulesCli, AdviseRefusesGearOverTwelvePoints) {
  // 5 + 5 + 4 = 14 points.
  const CmdResult r =
      run("advise --attacker Razor --target Hex --base blue:d8 --gap 3 --target-gear cyberdeck "
          "power-focus ballistic-vest");
  EXPECT_EQ(r.code, 3) << r.out;
  EXPECT_TRUE(has(r, "at most 12 points of gear for Hex (these are 14)")) << r.out;
  const CmdResult twice =
      run("advise --attacker Razor --target Hex --base blue:d8 --gap 3 --target-gear spirit-ward "
          "spirit-ward");
  EXPECT_EQ(twice.code, 3) << twice.out;
  EXPECT_TRUE(has(twice, "twice")) << twice.out;
}

// --- match set-up from the command line ----------------------------------------------------

TEST(RulesCli, TeamsOfSeveralFiguresFromTheCommandLine) {
  const Folder f("duels_rules_cli_teams");
  const CmdResult r =
      run_in(f,
             "match new --figures \"Razor+stim-patch;Hex\" --figures Gridlock --seed 4 "
             "--journal " +
                 f.file("m.jsonl"));
  ASSERT_EQ(r.code, 0) << r.out;
  EXPECT_TRUE(has(r, "Razor & Hex")) << r.out;
  const CmdResult show = run_in(f, "match show " + f.file("m.jsonl") + " --json");
  ASSERT_EQ(show.code, 0) << show.out;
  const auto j = nlohmann::json::parse(show.out.substr(show.out.find('{')));
  int in_first = 0;
  int in_second = 0;
  for (const auto& fig : j.at("state").at("figures")) {
    (fig.at("team").get<int>() == 0 ? in_first : in_second) += 1;
  }
  EXPECT_EQ(in_first, 2);
  EXPECT_EQ(in_second, 1);
}

TEST(RulesCli, AMirrorMatchNamesTheTwoApart) {
  const Folder f("duels_rules_cli_mirror");
  const std::string journal = f.file("m.jsonl");
  const CmdResult r = run_in(f, "match new --figures Razor,Razor --seed 2 --journal " + journal);
  ASSERT_EQ(r.code, 0) << r.out;
  EXPECT_TRUE(has(r, "Razor-1")) << r.out;
  EXPECT_TRUE(has(r, "Razor-2")) << r.out;
  // Each can be named in a command: the second Razor's die choice reaches the rules.
  std::ofstream(f.file("s.txt")) << "alpha 6+5 2+3\npass\npass\nplace Razor-1 30 4\n"
                                    "place Razor-2 30 56\n";
  const CmdResult play = run_in(f, "match play " + journal + " --script " + f.file("s.txt"));
  EXPECT_FALSE(has(play, "no figure called")) << play.out;
  EXPECT_EQ(play.code, 0) << play.out;
  const CmdResult show = run_in(f, "match show " + journal + " --json");
  const auto j = nlohmann::json::parse(show.out.substr(show.out.find('{')));
  EXPECT_EQ(j.at("state").at("figures")[1].at("name"), "Razor-2") << show.out;
}

TEST(RulesCli, SetUpMistakesCiteTheCommandLineNotAJournalLine) {
  const Folder f("duels_rules_cli_setup");
  const std::string journal = f.file("m.jsonl");
  const CmdResult one = run_in(f, "match new --figures Razor --journal " + journal);
  EXPECT_EQ(one.code, 3) << one.out;
  EXPECT_TRUE(has(one, "<command line>: --figures:")) << one.out;
  EXPECT_TRUE(has(one, "at least two teams")) << one.out;
  EXPECT_FALSE(has(one, journal + ":1")) << one.out;
  const CmdResult twice =
      run_in(f, "match new --figures Razor+stim-patch+stim-patch,Hex --journal " + journal);
  EXPECT_EQ(twice.code, 3) << twice.out;
  EXPECT_TRUE(has(twice, "<command line>: --figures:")) << twice.out;
  EXPECT_TRUE(has(twice, "twice")) << twice.out;
  EXPECT_FALSE(fs::exists(journal));
  const CmdResult autoplay =
      run_in(f, "match autoplay --figures Hex --seed 1 --journal " + journal);
  EXPECT_EQ(autoplay.code, 3) << autoplay.out;
  EXPECT_TRUE(has(autoplay, "<command line>: --figures:")) << autoplay.out;
}

}  // namespace
