// The match command language: each verb parsed into the engine's command, errors in words.
#include "match/script.hpp"

#include <gtest/gtest.h>

#include "duels/assets.hpp"
#include "duels/engine.hpp"
#include "test_paths.hpp"

namespace duels::match {
namespace {

GameState fresh() {
  const auto lib = load_asset_library(duels_test::source_dir() + "/assets");
  MatchSetup m;
  m.teams.push_back({"Red", {{*lib.find_figure("Razor"), {}, std::nullopt}}});
  m.teams.push_back(
      {"Blue", {{*lib.find_figure("Hex"), {*lib.find_gear("spirit-ward")}, std::nullopt}}});
  return *new_game(m);
}

// Parses and applies, expecting both to succeed.
void run(GameState& s, const std::string& line, dice::Rng& rng) {
  auto parsed = parse_script_line(s, line, rng);
  ASSERT_TRUE(parsed) << line << ": " << parsed.error();
  const Command* c = std::get_if<Command>(&*parsed);
  ASSERT_NE(c, nullptr) << line;
  auto r = duels::apply(s, *c);
  ASSERT_TRUE(r) << line << ": " << r.error().reason;
}

std::string error_of(const GameState& s, const std::string& line) {
  dice::Rng rng(1);
  auto parsed = parse_script_line(s, line, rng);
  EXPECT_FALSE(parsed) << line;
  return parsed ? "" : parsed.error();
}

TEST(Script, PlaysAnOpeningAndAnAttack) {
  GameState s = fresh();
  dice::Rng rng(5);
  for (const char* line :
       {"alpha 6+5 1+1", "pass", "pass", "place razor 30 57", "place Hex 30 3",
        "choose Razor yellow:d8:ace blue:d8 #4 2xwhite:d6  # comment", "choose Hex none"}) {
    run(s, line, rng);
  }
  EXPECT_EQ(s.phase, Phase::Turns);
  EXPECT_EQ(s.figures[0].dice_in(DieZone::Base).size(), 5U);
  run(s, "move Razor 9 to 30 48 roll white:d6=2", rng);
  EXPECT_EQ(s.figures[0].position, (Point{30, 48}));
  run(s, "attack Razor Hex gap 12 chord 1.5 with blue:d10:ace blue:d8", rng);
  EXPECT_DOUBLE_EQ(s.attack->chord_in, 1.5);
  run(s, "dodge none", rng);
  run(s, "roll ace 8", rng);  // Weapon 6 + 8 = 14 vs Body 8: a hit
  ASSERT_TRUE(s.attack);
  EXPECT_EQ(s.attack->result.clicks, 2);  // the ace and the d8
  run(s, "damage weapon", rng);
  EXPECT_EQ(s.figures[1].dial[1], 2);
  run(s, "end", rng);
  EXPECT_EQ(s.active_team, 1);
}

TEST(Script, AttackWithoutAGapIsMeasuredFromPositions) {
  GameState s = fresh();
  dice::Rng rng(5);
  for (const char* line :
       {"alpha 6+5 1+1", "pass", "pass", "place razor 30 57", "place Hex 30 3",
        "choose Razor blue:d8 green:d6", "choose Hex none", "move Razor 7 to 30 50"}) {
    run(s, line, rng);
  }
  // Centres 47" apart, both bases 2": the gap is 45", beyond every Razor track.
  auto parsed = parse_script_line(s, "attack Razor Hex with green:d6", rng);
  ASSERT_TRUE(parsed) << parsed.error();
  const auto& c = std::get<DeclareAttack>(std::get<Command>(*parsed));
  EXPECT_NEAR(c.measurement.gap_in, 45.0, 1e-9);
  EXPECT_TRUE(c.measurement.line_of_fire);
  EXPECT_FALSE(duels::apply(s, std::get<Command>(*parsed)));  // green ends at 26"
}

TEST(Script, TheTableMeasuresMovesAndKeepsHandMeasurements) {
  GameState s = fresh();
  dice::Rng rng(5);
  run(s, "alpha 6+5 1+1", rng);
  // A piece typed with its shape; the journal gets the shape.
  auto parsed = parse_script_line(s, "terrain car rect 45 30 6 3 15", rng);
  ASSERT_TRUE(parsed) << parsed.error();
  const auto& t = std::get<PlaceTerrain>(std::get<Command>(*parsed));
  ASSERT_TRUE(t.shape);
  EXPECT_NEAR(area_in2(*t.shape), 18, 1e-9);
  EXPECT_NE(error_of(s, "terrain car rect 45 30").find("a terrain shape: rect X Y WIDTH DEPTH"),
            std::string::npos);
  for (const char* line :
       {"terrain car rect 45 30 6 3 15", "pass", "pass", "place razor 30 57", "place Hex 30 3",
        "choose Razor blue:d8 green:d6 2xwhite:d6", "choose Hex none"}) {
    run(s, line, rng);
  }
  // No distance: the table measures it.
  parsed = parse_script_line(s, "move Razor to 30 50", rng);
  ASSERT_TRUE(parsed) << parsed.error();
  EXPECT_FALSE(std::get<Move>(std::get<Command>(*parsed)).distance_in);
  EXPECT_NE(error_of(s, "move Razor to 30").find("to X Y"), std::string::npos);
  run(s, "move Razor 7 to 30 50", rng);
  // A typed gap is a manual measurement, kept beside what the positions say.
  parsed = parse_script_line(s, "attack Razor Hex gap 20 with green:d6", rng);
  ASSERT_TRUE(parsed) << parsed.error();
  const auto& a = std::get<DeclareAttack>(std::get<Command>(*parsed));
  EXPECT_TRUE(a.measurement.manual);
  ASSERT_TRUE(a.from_positions);
  EXPECT_NEAR(a.from_positions->gap_in, 45, 1e-9);
  run(s, "attack Razor Hex gap 20 with green:d6", rng);
  EXPECT_TRUE(s.attack->manual);
}

TEST(Script, VirtualRollIsSeeded) {
  GameState a = fresh();
  dice::Rng r1(9), r2(9);
  for (const char* line : {"alpha 6+5 1+1", "pass", "pass", "place razor 30 57", "place Hex 30 3",
                           "choose Razor blue:d8", "choose Hex white:d6",
                           "attack Razor Hex gap 5 with blue:d8", "dodge white:d6"}) {
    run(a, line, r1);
  }
  GameState b = a;
  run(a, "roll", r1);
  run(b, "roll", r2);
  EXPECT_EQ(state_hash(a), state_hash(b));
}

TEST(Script, ErrorsSayWhatWasExpected) {
  GameState s = fresh();
  EXPECT_NE(error_of(s, "alpha 6+5").find("2 rolls like 6+5"), std::string::npos);
  EXPECT_NE(error_of(s, "place Nobody 1 2").find("no figure called 'Nobody' (figures: Razor, Hex)"),
            std::string::npos);
  EXPECT_NE(error_of(s, "place Razor x 2").find("X and Y in inches"), std::string::npos);
  EXPECT_NE(error_of(s, "choose Razor purple:d6").find("a colour"), std::string::npos);
  EXPECT_NE(error_of(s, "choose Razor red:d12").find("has no red:d12 in its cup"),
            std::string::npos);
  EXPECT_NE(error_of(s, "dance").find("not 'dance'"), std::string::npos);
  EXPECT_NE(error_of(s, "roll").find("no attack"), std::string::npos);
  EXPECT_NE(error_of(s, "damage toe").find("head, weapon or body"), std::string::npos);
}

// Issue #17: words after a complete command were ignored (`pass now please` passed).
TEST(Script, ExtraWordsAreRefused) {
  GameState s = fresh();
  for (const char* line : {"pass now please", "place Razor 10 10 extra", "undo twice", "show me",
                           "auto 3 more", "gear x y", "damage head now", "end Razor please"}) {
    EXPECT_NE(error_of(s, line).find("unexpected"), std::string::npos) << line;
  }
  dice::Rng rng(1);
  EXPECT_TRUE(parse_script_line(s, "place Razor 10 10", rng));
  EXPECT_TRUE(parse_script_line(s, "pass  # a comment", rng));
}

TEST(Script, ConsoleActions) {
  GameState s = fresh();
  dice::Rng rng(1);
  auto a = parse_script_line(s, "auto 12", rng);
  ASSERT_TRUE(a);
  const auto& action = std::get<ConsoleAction>(*a);
  EXPECT_EQ(action.kind, ConsoleAction::Auto);
  EXPECT_EQ(action.count, 12);
  EXPECT_EQ(std::get<ConsoleAction>(*parse_script_line(s, "  # only a comment", rng)).kind,
            ConsoleAction::Nothing);
  EXPECT_EQ(std::get<ConsoleAction>(*parse_script_line(s, "undo", rng)).kind, ConsoleAction::Undo);
}

TEST(Script, NeverCrashesOnRandomLines) {
  GameState s = fresh();
  dice::Rng rng(3);
  const std::vector<std::string> words = {"alpha", "6+5",       "place", "Razor", "Hex",  "choose",
                                          "#3",    "yellow:d8", "move",  "to",    "roll", "attack",
                                          "gap",   "with",      "dodge", "none",  "/",    "ace",
                                          "9",     "-1",        "1e400", "#",     "end"};
  for (int i = 0; i < 5000; ++i) {
    std::string line;
    const int n = rng.uniform(8);
    for (int k = 0; k < n; ++k)
      line +=
          words[static_cast<std::size_t>(rng.uniform(static_cast<int>(words.size())) - 1)] + " ";
    auto parsed = parse_script_line(s, line, rng);
    if (parsed) {
      if (const auto* c = std::get_if<Command>(&*parsed)) (void)duels::apply(s, *c);
    }
  }
  SUCCEED();
}

}  // namespace
}  // namespace duels::match
