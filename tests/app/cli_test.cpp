// Runs the real `duels` binary and checks exit codes, JSON output and error messages.
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <array>
#include <cstdio>
#include <nlohmann/json.hpp>
#include <string>

namespace {

struct CmdResult {
  int code = -1;
  std::string out;  // stdout and stderr together
};

CmdResult run(const std::string& args) {
  const std::string cmd = std::string(DUELS_BINARY) + " " + args + " 2>&1";
  CmdResult r;
  FILE* pipe = popen(cmd.c_str(), "r");
  if (pipe == nullptr) return r;
  std::array<char, 4096> buf{};
  std::size_t n = 0;
  while ((n = fread(buf.data(), 1, buf.size(), pipe)) > 0)
    r.out.append(buf.data(), n);
  const int status = pclose(pipe);
  r.code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return r;
}

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
      run(std::string("figure check ") + DUELS_SOURCE_DIR + "/assets/figures/samples.yaml " +
          DUELS_SOURCE_DIR + "/assets/TEMPLATE.yaml");
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
