// The card-game commands of the real `duels` binary (issue 19): scripts stop at their first
// refused line, and impossible inputs are refused naming the token.
#include <gtest/gtest.h>

#include <sys/wait.h>
#include "run_duels.hpp"

#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include "test_paths.hpp"

namespace {

using duels::testing::CmdResult;
using duels::testing::run;

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

std::string fresh(const std::string& name) {
  const std::string path = ::testing::TempDir() + name;
  std::filesystem::remove(path);
  std::filesystem::remove(path + ".damaged");
  return path;
}

/// The journal's entry types after the header.
std::vector<std::string> entry_types(const std::string& journal) {
  std::vector<std::string> out;
  std::ifstream in(journal);
  std::string line;
  bool header = true;
  while (std::getline(in, line)) {
    if (header) {
      header = false;
      continue;
    }
    out.push_back(nlohmann::json::parse(line).at("type").get<std::string>());
  }
  return out;
}

std::string fmt_args(const std::string& game, const std::string& script, const std::string& journal,
                     bool keep_going) {
  std::string args = game + " play --quiet --script " + script + " --journal " + journal;
  if (game != "crossfire") args += " --seed 1";
  if (keep_going) args += " --keep-going";
  return args;
}

struct GameScript {
  const char* game;
  const char* file;       // in tests/data/cards
  int refused_line;       // the line the script stops at
  std::size_t journaled;  // entries written before it
  const char* after;      // a reply only the lines after the refusal would print
};

// Each game's whole-game script has one refused line in the middle: the script stops there
// (exit 3 naming it), nothing after it is played or journaled; --keep-going plays the rest.
TEST(CardScripts, StopAtTheFirstRefusedLine) {
  const GameScript scripts[] = {
      {"encounters", "encounters_game.txt", 17, 14, "Game over"},
      {"crossfire", "crossfire_game.txt", 15, 16, "GAME OVER"},
      {"srtcg", "srtcg_game.txt", 16, 13, "wins"},
  };
  for (const GameScript& g : scripts) {
    SCOPED_TRACE(g.game);
    const std::string script = duels_test::test_data_dir() + "/cards/" + g.file;
    const std::string journal = fresh(std::string(g.game) + "_stop.jsonl");
    const CmdResult r = run(fmt_args(g.game, script, journal, false));
    EXPECT_EQ(r.code, 3) << r.out;
    EXPECT_TRUE(contains(r.out, script + ":" + std::to_string(g.refused_line) + ":")) << r.out;
    EXPECT_TRUE(contains(r.out, "none after it was played")) << r.out;
    EXPECT_FALSE(contains(r.out, g.after)) << r.out;
    EXPECT_EQ(entry_types(journal).size(), g.journaled) << r.out;
    // --keep-going: the old behaviour, every other line played, still an error naming the line.
    const std::string journal2 = fresh(std::string(g.game) + "_keep.jsonl");
    const CmdResult k = run(fmt_args(g.game, script, journal2, true));
    EXPECT_EQ(k.code, 3) << k.out;
    EXPECT_TRUE(contains(k.out, script + ":" + std::to_string(g.refused_line) + ":")) << k.out;
    EXPECT_TRUE(contains(k.out, g.after)) << k.out;
    EXPECT_GT(entry_types(journal2).size(), g.journaled);
  }
}

// Every "accepted although impossible" input of the issue: refused, naming the token.
TEST(CardRefusals, EncountersOptions) {
  auto r = run("encounters solve --value 5 --dice 1,,2");
  EXPECT_EQ(r.code, 3) << r.out;
  EXPECT_TRUE(contains(r.out, "--dice")) << r.out;
  EXPECT_TRUE(contains(r.out, "a die face before this ','")) << r.out;
  r = run("encounters solve --value 5 --dice 1,2 --keep -3");
  EXPECT_NE(r.code, 0) << r.out;
  EXPECT_TRUE(contains(r.out, "--keep")) << r.out;
  r = run("encounters advise --values \"\"");
  EXPECT_NE(r.code, 0) << r.out;
  EXPECT_TRUE(contains(r.out, "--values")) << r.out;
  r = run("encounters advise --retain \"Fixer: +1\" --nuyen -8");
  EXPECT_NE(r.code, 0) << r.out;
  EXPECT_TRUE(contains(r.out, "--nuyen")) << r.out;
  r = run("encounters advise --objective reach --need -5");
  EXPECT_NE(r.code, 0) << r.out;
  EXPECT_TRUE(contains(r.out, "--need")) << r.out;
  EXPECT_TRUE(contains(r.out, "-5")) << r.out;
  // The wild reading: both 4s are wild under one use of the card.
  r = run("encounters solve --value 12 --dice 4,4 --runner \"CM: wild 4,6\"");
  EXPECT_EQ(r.code, 0) << r.out;
  EXPECT_TRUE(contains(r.out, "= 6+6")) << r.out;
  EXPECT_FALSE(contains(r.out, "No legal way")) << r.out;
}

TEST(CardRefusals, CrossfireOptions) {
  auto r = run("crossfire flips --mission dragon --runners 3");
  EXPECT_EQ(r.code, 3) << r.out;
  EXPECT_TRUE(contains(r.out, "--runners")) << r.out;
  EXPECT_TRUE(contains(r.out, "4-runner mission")) << r.out;
  EXPECT_EQ(run("crossfire flips --mission dragon --runners 4").code, 0);
  r = run("crossfire allocate --obstacle Guard=2 --obstacle guard=3 --card red+2");
  EXPECT_EQ(r.code, 3) << r.out;
  EXPECT_TRUE(contains(r.out, "--obstacle")) << r.out;
  EXPECT_TRUE(contains(r.out, "given twice")) << r.out;
}

TEST(CardRefusals, SrtcgOptions) {
  auto r = run("srtcg combat --runners \"6/4 dmg 99\" --challenge 4/9");
  EXPECT_EQ(r.code, 3) << r.out;
  EXPECT_TRUE(contains(r.out, "dead")) << r.out;
  EXPECT_FALSE(contains(r.out, "pumped to 0")) << r.out;
  std::string twenty;
  for (int i = 0; i < 20; ++i)
    twenty += (i ? "," : "") + std::string("2/2");
  r = run("srtcg combat --runners " + twenty + " --challenge 4/9");
  EXPECT_EQ(r.code, 3) << r.out;
  EXPECT_TRUE(contains(r.out, "at most 6 runners")) << r.out;
  r = run("srtcg tournament pair --player Ann:3 --player Bob:2 --player Ann:1 --player Cy:0");
  EXPECT_EQ(r.code, 3) << r.out;
  EXPECT_TRUE(contains(r.out, "'Ann' is given twice")) << r.out;
  r = run("srtcg tournament pair --player Ann:3 --player Bob:2 --played Ann-Ann");
  EXPECT_EQ(r.code, 3) << r.out;
  EXPECT_TRUE(contains(r.out, "Ann-Ann")) << r.out;
  // The split reading stays (armor per share) and the other number is shown beside it.
  r = run("srtcg combat --runners \"A: 1/3 A2,B: 1/3 A2\" --challenge \"G: 4/9\"");
  EXPECT_EQ(r.code, 0) << r.out;
  EXPECT_TRUE(contains(r.out, "the team takes 0 in all")) << r.out;
  EXPECT_TRUE(contains(r.out, "it would take 2")) << r.out;
}

}  // namespace
