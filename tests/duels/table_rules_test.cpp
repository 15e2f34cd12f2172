// The match rules the table it measures: every rulebook sentence on movement, blocking, terrain
// and placement, through apply(), with analytic answers worked out by hand.
#include "duels/table_rules.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <thread>

#include "duels/assets.hpp"
#include "duels/autoplay.hpp"
#include "duels/engine.hpp"
#include "test_paths.hpp"

namespace duels {
namespace {

const AssetLibrary& lib() {
  static const AssetLibrary l = load_asset_library(duels_test::source_dir() + "/assets");
  return l;
}

struct Standing {
  const char* figure;
  int team;
  Point at;
};

std::vector<Event> ok(GameState& s, const Command& c) {
  auto r = apply(s, c);
  EXPECT_TRUE(r) << command_name(c) << ": " << (r ? "" : r.error().reason);
  return r ? *r : std::vector<Event>{};
}

Rejection rejected(GameState& s, const Command& c) {
  const GameState before = s;
  auto r = apply(s, c);
  EXPECT_FALSE(r) << command_name(c) << " was accepted";
  EXPECT_EQ(s, before) << "a rejected command changed the state";
  return r ? Rejection{} : r.error();
}

MatchSetup setup_with(const std::vector<Standing>& figures, bool placed) {
  MatchSetup m;
  m.teams.push_back({"Red", {}});
  m.teams.push_back({"Blue", {}});
  for (const auto& f : figures) {
    m.teams[static_cast<std::size_t>(f.team)].figures.push_back(
        {*lib().find_figure(f.figure), {}, placed ? std::optional<Point>(f.at) : std::nullopt});
  }
  return m;
}

// A match in its first turn (Red, alpha), every figure standing where asked, every die on its
// base, with the given terrain put down (Red's pieces first, alternating).
GameState at_table(const std::vector<Standing>& figures, const Obstacles& terrain = {}) {
  GameState s = *new_game(setup_with(figures, true));
  ok(s, RollForAlpha{{{0, {6, 5}}, {1, {2, 3}}}});
  for (const auto& t : terrain)
    ok(s, PlaceTerrain{s.placing, t.id, t.shape});
  while (s.phase == Phase::PlaceTerrain)
    ok(s, PassTerrain{s.placing});
  for (FigureId f = 0; f < static_cast<FigureId>(s.figures.size()); ++f) {
    auto cup = s.figures[static_cast<std::size_t>(f)].dice_in(DieZone::Cup);
    if (cup.size() > 6) cup.resize(6);
    ok(s, ChooseDice{f, cup});
  }
  EXPECT_EQ(s.phase, Phase::Turns);
  return s;
}

Obstacle rect(const char* id, double x0, double y0, double x1, double y1) {
  return {id, Shape::make_polygon({{x0, y0}, {x1, y0}, {x1, y1}, {x0, y1}})};
}

// Razor's dice: #0, #1 white d6; Head 7.
Move move_to(FigureId f, Point to, std::vector<DieRoll> rolls = {},
             std::optional<double> typed = std::nullopt) {
  return Move{f, std::move(rolls), typed, to};
}

bool mentions(const std::vector<Event>& ev, const std::string& text) {
  for (const auto& e : ev) {
    if (e.text.find(text) != std::string::npos) return true;
  }
  return false;
}

// ---- Movement -------------------------------------------------------------------------------

// "Terrain blocks movement" / "it cannot move through terrain": the detour round a crate.
// Razor (r 1) at (14, 30) to (26, 30); the crate covers x 18..22, y 28..32. The shortest way
// is tangent to the crate's corner grown by 1" at (18, 32), along y = 33, and back down:
// 2·√19 + 4 + 2·(atan(2/4) + asin(1/√20)).
TEST(TableRules, DetourRoundACrate) {
  const double detour =
      2 * std::sqrt(19.0) + 4 + 2 * (std::atan2(2.0, 4.0) + std::asin(1 / std::sqrt(20.0)));
  ASSERT_NEAR(detour, 14.096, 1e-3);
  GameState s = at_table({{"Razor", 0, {14, 30}}, {"Gridlock", 1, {50, 50}}},
                         {rect("crate", 18, 28, 22, 32)});
  const MoveCheck m = check_move(s, 0, {26, 30}, 20);
  ASSERT_TRUE(m.ok) << m.reason;
  EXPECT_NEAR(m.length_in, detour, 1e-6);
  ASSERT_EQ(m.detour.size(), 1U);
  EXPECT_EQ(m.detour[0], "the crate");
  // 7 + 3 + 4 = 14 is short of 14.10.
  auto r = rejected(s, move_to(0, {26, 30}, {{0, 3}, {1, 4}}));
  EXPECT_EQ(r.code, RejectCode::TooFar);
  EXPECT_EQ(r.reason,
            "Razor can reach at most 14.0\"; the shortest way round the crate to (26.0, 30.0) is "
            "14.1\"");
  // A typed distance that disagrees with the path is refused; one that agrees is taken.
  r = rejected(s, move_to(0, {26, 30}, {{0, 5}, {1, 4}}, 12.0));
  EXPECT_NE(r.reason.find("shortest legal path to (26.0, 30.0) is 14.1\""), std::string::npos)
      << r.reason;
  GameState t = s;
  const auto ev = ok(t, move_to(0, {26, 30}, {{0, 5}, {1, 4}}, 14.1));
  EXPECT_TRUE(mentions(ev, "Razor moves 14.1\" round the crate to (26.0, 30.0), of its 16\""));
  EXPECT_EQ(t.figures[0].position, (Point{26, 30}));
  ok(s, move_to(0, {26, 30}, {{0, 5}, {1, 4}}));  // untyped: the table measures it
}

// "you must measure around the bases of opposing figures—not through them": Gridlock (r 1)
// stands on Razor's straight line from (10, 30) to (20, 30). Round it (grown to r 2, centre 5"
// away): 2·√21 + 4·asin(2/5).
TEST(TableRules, AroundAnOpposingBaseInTheStraightLine) {
  const double round = 2 * std::sqrt(21.0) + 4 * std::asin(0.4);
  GameState s = at_table({{"Razor", 0, {10, 30}}, {"Gridlock", 1, {15, 30}}});
  const MoveCheck m = check_move(s, 0, {20, 30}, 20);
  ASSERT_TRUE(m.ok);
  EXPECT_NEAR(m.length_in, round, 1e-6);
  auto r = rejected(s, move_to(0, {20, 30}, {{0, 3}}));  // 10 < 10.81
  EXPECT_EQ(r.reason,
            "Razor can reach at most 10.0\"; the shortest way round Gridlock to (20.0, 30.0) is "
            "10.8\"");
  ok(s, move_to(0, {20, 30}, {{0, 4}}));  // 11 ≥ 10.81
}

// Friendly bases may be passed through (only opposing ones are gone round).
TEST(TableRules, ThroughAFriendlyBaseInTheWay) {
  GameState s = at_table({{"Razor", 0, {10, 30}}, {"Hex", 0, {15, 30}}, {"Gridlock", 1, {50, 50}}});
  const MoveCheck m = check_move(s, 0, {20, 30}, 20);
  ASSERT_TRUE(m.ok);
  EXPECT_NEAR(m.length_in, 10, 1e-9);
  EXPECT_TRUE(m.detour.empty());
  ok(s, move_to(0, {20, 30}, {{0, 3}}));
}

// "may not end its movement with any part of its base overlapping terrain or another figure's
// base": 0.01" short is legal, 0.01" over is not — for an opposing base, a friendly base and
// terrain.
TEST(TableRules, EndingAHundredthShortOfAnotherBase) {
  const auto base = [] {
    return at_table({{"Razor", 0, {10, 30}}, {"Hex", 0, {10, 40}}, {"Gridlock", 1, {16, 30}}},
                    {rect("crate", 20, 20, 24, 24)});
  };
  GameState s = base();
  // Gridlock's edge is at x = 15; Razor's centre at 13.99 leaves 0.01".
  ok(s, move_to(0, {13.99, 30}));
  s = base();
  auto r = rejected(s, move_to(0, {14.01, 30}));
  EXPECT_EQ(r.reason, "Razor can't end at (14.0, 30.0): its base would overlap Gridlock");
  // Hex (friendly) at (10, 40): ending 0.01" short of it is fine, overlapping is not.
  s = base();
  ok(s, move_to(0, {10, 37.99}, {{0, 2}}));
  s = base();
  r = rejected(s, move_to(0, {10, 38.01}, {{0, 2}}));
  EXPECT_EQ(r.reason, "Razor can't end at (10.0, 38.0): its base would overlap Hex");
  // The crate's left side is at x = 20.
  s = base();
  ok(s, move_to(0, {18.99, 22}, {{0, 6}, {1, 6}}));
  s = base();
  r = rejected(s, move_to(0, {19.01, 22}, {{0, 6}, {1, 6}}));
  EXPECT_EQ(r.reason, "Razor can't end at (19.0, 22.0): its base would overlap the crate");
}

// The base must stay on the table: leaving it by a hair is refused, touching the edge is not.
TEST(TableRules, LeavingTheTableByAHair) {
  GameState s = at_table({{"Razor", 0, {55, 30}}, {"Gridlock", 1, {10, 10}}});
  GameState t = s;
  ok(t, move_to(0, {59, 30}));
  auto r = rejected(s, move_to(0, {59.001, 30}));
  EXPECT_EQ(r.reason, "Razor can't end at (59.0, 30.0): its base would not be wholly on the table");
  r = rejected(s, move_to(0, {56.4, -4.8}));
  EXPECT_NE(r.reason.find("not be wholly on the table"), std::string::npos);
}

// "When your figure moves, no part of its base may exceed its final movement value", with the
// movement dice rolled: Head 7 alone, then 7 + 3 + 4.
TEST(TableRules, NoFartherThanTheMovementValue) {
  GameState s = at_table({{"Razor", 0, {10, 30}}, {"Gridlock", 1, {50, 50}}});
  GameState t = s;
  ok(t, move_to(0, {17, 30}));
  auto r = rejected(s, move_to(0, {17.01, 30}));
  EXPECT_EQ(r.reason, "Razor can reach at most 7.0\"; (17.0, 30.0) is 7.01\" away");
  r = rejected(s, move_to(0, {25, 30}, {{0, 3}, {1, 4}}));  // 15 > 14
  EXPECT_EQ(r.reason, "Razor can reach at most 14.0\"; (25.0, 30.0) is 15.0\" away");
  ok(s, move_to(0, {24, 30}, {{0, 3}, {1, 4}}));
}

// A move names where the base ends: without it the figure would silently stay put.
TEST(TableRules, AMoveWithoutADestinationIsRefused) {
  GameState s = at_table({{"Razor", 0, {10, 30}}, {"Gridlock", 1, {50, 50}}});
  auto r = rejected(s, Move{0, {}, 5.0, std::nullopt});
  EXPECT_EQ(r.reason,
            "say where Razor ends its move: move Razor to X Y (the path is measured from where it "
            "stands, (10.0, 30.0))");
}

// ---- Line of fire ---------------------------------------------------------------------------

// "If any part of another figure's base or a piece of terrain blocks this straight line, the
// attack cannot be made." A wall across the whole gap blocks; the engine names it.
TEST(TableRules, TerrainBlocksTheLineOfFire) {
  GameState s =
      at_table({{"Razor", 0, {10, 30}}, {"Gridlock", 1, {30, 30}}}, {rect("wall", 19, 20, 20, 40)});
  const Measurement pos = measure_from_positions(s, 0, 1);
  EXPECT_FALSE(pos.line_of_fire);
  ASSERT_EQ(pos.blockers, std::vector<std::string>{"wall"});
  // The attack as the console sends it (measured from the positions) …
  auto r = rejected(s, DeclareAttack{0, 1, pos, {4}});
  EXPECT_EQ(r.code, RejectCode::NoLineOfFire);
  EXPECT_EQ(r.reason, "Razor has no line of fire to Gridlock (blocked by wall)");
  // … and a typed gap as if the line were clear: the positions still decide.
  Measurement hand{12, 2, true, {}};
  hand.manual = true;
  r = rejected(s, DeclareAttack{0, 1, hand, {4}});
  EXPECT_EQ(r.reason, "Razor has no line of fire to Gridlock (blocked by wall)");
  // `blocked BY` must name what really blocks.
  Measurement said{0, 2, false, {"crate"}};
  r = rejected(s, DeclareAttack{0, 1, said, {4}});
  EXPECT_EQ(r.reason,
            "Razor has no line of fire to Gridlock, but 'crate' is not what blocks it: blocked "
            "by wall");
}

// Another figure's base blocks too — a friendly one as much as an opposing one.
TEST(TableRules, ABaseInBetweenBlocks) {
  GameState s =
      at_table({{"Razor", 0, {10, 30}}, {"Bulldozer", 0, {20, 30}}, {"Gridlock", 1, {30, 30}}});
  // Bulldozer (2.5") sits between two 2" bases: every line from Razor to Gridlock meets it.
  const Measurement pos = measure_from_positions(s, 0, 2);
  EXPECT_FALSE(pos.line_of_fire);
  EXPECT_EQ(pos.blockers, std::vector<std::string>{"Bulldozer"});
  auto r = rejected(s, DeclareAttack{0, 2, pos, {4}});
  EXPECT_EQ(r.reason, "Razor has no line of fire to Gridlock (blocked by Bulldozer)");
}

// A piece that hides only part of the target leaves a line of fire: the attack is measured
// along it (its gap is longer than the centre line's).
TEST(TableRules, PartialCoverLeavesALine) {
  GameState s = at_table({{"Razor", 0, {10, 30}}, {"Gridlock", 1, {30, 30}}},
                         {rect("crate", 19, 29.5, 21, 40)});
  const Measurement pos = measure_from_positions(s, 0, 1);
  ASSERT_TRUE(pos.line_of_fire);
  EXPECT_GT(pos.gap_in, 18.0);
  EXPECT_LT(pos.gap_in, 18.5);
  // Saying it is blocked is refused: nothing blocks it.
  Measurement said{0, 2, false, {"crate"}};
  auto r = rejected(s, DeclareAttack{0, 1, said, {5}});
  EXPECT_NE(r.reason.find("nothing blocks Razor's line of fire to Gridlock (not crate)"),
            std::string::npos)
      << r.reason;
  const auto ev = ok(s, DeclareAttack{0, 1, pos, {5}});  // green d6 reaches 26"
  EXPECT_NEAR(s.attack->gap_in, pos.gap_in, 1e-12);
  EXPECT_FALSE(s.attack->manual);
}

// A gap measured by hand is used for the tape, and kept beside what the positions say.
TEST(TableRules, AHandMeasuredGapIsKeptBesideThePositions) {
  GameState s = at_table({{"Razor", 0, {10, 30}}, {"Gridlock", 1, {25, 30}}});
  Measurement hand{12.5, 2, true, {}};
  hand.manual = true;
  const auto ev = ok(s, DeclareAttack{0, 1, hand, {3}});  // blue d8 reaches 14"
  ASSERT_TRUE(s.attack);
  EXPECT_TRUE(s.attack->manual);
  EXPECT_DOUBLE_EQ(s.attack->gap_in, 12.5);
  EXPECT_NEAR(s.attack->positions_gap_in, 13, 1e-9);
  EXPECT_TRUE(mentions(ev, "at 12.5\" (measured by hand; the positions say 13.0\")"));
}

// The positions also decide the range: a gap the positions give beyond the blue track refuses
// blue dice even when the command carries a shorter (non-manual) gap.
TEST(TableRules, TheRangeComesFromThePositions) {
  GameState s = at_table({{"Razor", 0, {10, 30}}, {"Gridlock", 1, {30, 30}}});
  Measurement claimed{5, 2, true, {}};  // not manual: the engine measures 18"
  auto r = rejected(s, DeclareAttack{0, 1, claimed, {3}});
  EXPECT_EQ(r.code, RejectCode::OutOfRange);
}

// ---- Terrain and placement ------------------------------------------------------------------

GameState placing(const Obstacles& catalogue = {}) {
  MatchSetup m = setup_with({{"Razor", 0, {}}, {"Hex", 0, {}}, {"Gridlock", 1, {}}}, false);
  if (!catalogue.empty()) m.table.catalogue = std::make_shared<const Obstacles>(catalogue);
  GameState s = *new_game(m);
  ok(s, RollForAlpha{{{0, {6, 5}}, {1, {2, 3}}}});
  return s;
}

// "Each team may place two terrain pieces; terrain is placed before figures. The alpha team
// places terrain first": pieces from the table's catalogue by name, or typed with a shape.
TEST(TableRules, TerrainFromTheCatalogueOrTypedWithAShape) {
  GameState s = placing({rect("crate", 20, 16, 25, 22)});
  auto r = rejected(s, PlaceTerrain{0, "car", std::nullopt});
  EXPECT_NE(r.reason.find("the table has no terrain called 'car' (still to place: crate); give "
                          "its shape"),
            std::string::npos)
      << r.reason;
  rejected(s, PlaceTerrain{1, "crate", std::nullopt});  // Blue is not alpha
  const auto ev = ok(s, PlaceTerrain{0, "Crate", std::nullopt});
  EXPECT_TRUE(mentions(ev,
                       "Red places the crate (4-cornered piece 5.0\" × 6.0\" around (22.5, "
                       "19.0))."));
  ASSERT_TRUE(s.terrain[0].shape);
  EXPECT_EQ(s.terrain[0].id, "crate");
  r = rejected(s, PlaceTerrain{1, "car", Shape::make_rect({58, 30}, 6, 3)});
  EXPECT_NE(r.reason.find("the car must lie wholly on the 60\" × 60\" table"), std::string::npos)
      << r.reason;
  ok(s, PlaceTerrain{1, "car", Shape::make_rect({50, 30}, 6, 3)});
  ok(s, PlaceTerrain{0, "pillar", Shape::make_circle({30, 45}, 1.5)});
  ok(s, PassTerrain{1});
  EXPECT_EQ(s.phase, Phase::PlaceFigures);
  EXPECT_EQ(terrain_obstacles(s).size(), 3U);
}

// "Teams must place their figures at least 48" away from any other opposing figure already in
// the play area", on the table, not on terrain and not on another base.
TEST(TableRules, PlacementOnTheTableOffTerrainAndFortyEightInchesApart) {
  GameState s = placing();
  ok(s, PlaceTerrain{0, "crate", Shape::make_rect({30, 5}, 6, 4)});
  ok(s, PassTerrain{1});
  ok(s, PassTerrain{0});
  ASSERT_EQ(s.phase, Phase::PlaceFigures);
  auto r = rejected(s, PlaceFigure{1, {10, -500}});
  EXPECT_EQ(r.reason,
            "Hex must stand wholly on the 60\" × 60\" table (its base at (10.0, -500.0) would "
            "not)");
  r = rejected(s, PlaceFigure{0, {0.99, 30}});  // a hair off the edge
  EXPECT_NE(r.reason.find("wholly on the"), std::string::npos);
  r = rejected(s, PlaceFigure{0, {30, 6}});
  EXPECT_EQ(r.reason, "Razor can't stand at (30.0, 6.0): its base would overlap the crate");
  ok(s, PlaceFigure{0, {30, 2}});  // touching the crate is allowed
  // Blue: 48" from Razor (edge to edge: centres 50" apart).
  r = rejected(s, PlaceFigure{2, {30, 51.9}});
  EXPECT_EQ(r.reason, "Gridlock must start at least 48.0\" from Razor (the gap would be 47.9\")");
  ok(s, PlaceFigure{2, {30, 52}});
  // Red's Hex: next to Razor but not on it.
  r = rejected(s, PlaceFigure{1, {31.5, 2}});
  EXPECT_EQ(r.reason, "Hex can't stand at (31.5, 2.0): its base would overlap Razor's");
  ok(s, PlaceFigure{1, {33, 2}});
  EXPECT_EQ(s.phase, Phase::ChooseDice);
}

// Set-up positions given with the match are checked too.
TEST(TableRules, SetUpPositionsMustStandOnTheTable) {
  auto g = new_game(setup_with({{"Razor", 0, {10, 30}}, {"Gridlock", 1, {10, 61}}}, true));
  ASSERT_FALSE(g);
  EXPECT_NE(g.error().reason.find("Gridlock must stand wholly on the"), std::string::npos);
  g = new_game(setup_with({{"Razor", 0, {10, 30}}, {"Gridlock", 1, {11, 30}}}, true));
  ASSERT_FALSE(g);
  EXPECT_NE(g.error().reason.find("overlap"), std::string::npos);
}

// A journal from before format 2 (no table in its set-up) keeps the typed numbers, and says so.
TEST(TableRules, OldMatchesKeepTheirTypedDistances) {
  MatchSetup m = setup_with({{"Razor", 0, {10, 30}}, {"Gridlock", 1, {50, 30}}}, true);
  m.table.measured = false;
  GameState s = *new_game(m);
  ok(s, RollForAlpha{{{0, {6, 5}}, {1, {2, 3}}}});
  ok(s, PlaceTerrain{0, "crate", std::nullopt});
  ok(s, PassTerrain{1});
  ok(s, PassTerrain{0});
  ok(s, ChooseDice{0, {0, 1, 2, 3, 4, 5}});
  ok(s, ChooseDice{1, {0, 1, 2, 3, 4, 5}});
  ok(s, Move{0, {}, 1.0, Point{52, 30}});  // the old, unchecked move
  EXPECT_EQ(s.figures[0].position, (Point{52, 30}));
  const auto notes = table_notes(s);
  ASSERT_EQ(notes.size(), 2U);
  EXPECT_EQ(notes[1], "terrain 'crate' has no shape (written before format 2): it blocks nothing");
}

// ---- Kept measurements and movement fields ---------------------------------------------------

// measure_from_positions and move_field_of keep their last answers per thread (the opponent and
// the engine ask the same questions in a row). Whatever changes on the table — a base that
// moves, one that is eliminated, terrain put down — each answer must be the one a fresh
// measurement gives.
TEST(TableRules, KeptMeasurementsFollowEveryChangeOnTheTable) {
  GameState s =
      at_table({{"Razor", 0, {10, 30}}, {"Bulldozer", 0, {20, 30}}, {"Gridlock", 1, {30, 30}}});
  const Vec2 goal{30, 34.5};  // just beyond Gridlock, seen from Razor
  auto check = [&](const char* what) {
    SCOPED_TRACE(what);
    const Measurement kept = measure_from_positions(s, 0, 2);
    const Obstacles others = line_of_fire_blockers(s, 0, 2);
    const LineOfFireResult fresh =
        line_of_fire(base_disc(s.figures[0]), base_disc(s.figures[2]), others);
    EXPECT_EQ(kept.line_of_fire, fresh.clear);
    if (fresh.clear) {
      EXPECT_EQ(kept.gap_in, std::max(0.0, fresh.gap_in));
    } else {
      std::vector<std::string> names;
      for (std::size_t b : fresh.blockers)
        names.push_back(others[b].id);
      EXPECT_EQ(kept.blockers, names);
    }
    const Measurement again = measure_from_positions(s, 0, 2);  // asked again: the same answer
    EXPECT_EQ(again.gap_in, kept.gap_in);
    EXPECT_EQ(again.chord_in, kept.chord_in);
    EXPECT_EQ(again.blockers, kept.blockers);
    const MoveField field = move_field_of(s, 0);
    const MoveField new_field(base_disc(s.figures[0]), move_obstacles_of(s, 0));
    EXPECT_EQ(field.distance_to(goal), new_field.distance_to(goal));
    // The built-in opponent's next command (its way of closing in is kept per field and target):
    // asked twice here, where every answer above is kept, it is the one a fresh thread works
    // out with nothing kept at all.
    (void)AutoPlayer(5).next(s);
    const std::optional<Command> warm = AutoPlayer(5).next(s);
    std::optional<Command> cold;
    Measurement cold_measure;
    double cold_distance = 0;
    std::thread([&] {
      cold = AutoPlayer(5).next(s);
      cold_measure = measure_from_positions(s, 0, 2);
      cold_distance = move_field_of(s, 0).distance_to(goal);
    }).join();
    EXPECT_EQ(cold_measure.gap_in, kept.gap_in);
    EXPECT_EQ(cold_measure.chord_in, kept.chord_in);
    EXPECT_EQ(cold_measure.blockers, kept.blockers);
    EXPECT_EQ(cold_distance, field.distance_to(goal));
    EXPECT_TRUE(warm && cold);
    if (warm && cold) {
      GameState after_warm = s;
      GameState after_cold = s;
      EXPECT_FALSE(apply_quietly(after_warm, *warm));
      EXPECT_FALSE(apply_quietly(after_cold, *cold));
      EXPECT_EQ(after_warm, after_cold) << command_name(*warm);
    }
    return kept;
  };
  EXPECT_EQ(check("Bulldozer in between").blockers, std::vector<std::string>{"Bulldozer"});
  s.figures[1].position = Point{20, 40};
  EXPECT_TRUE(check("Bulldozer stepped aside").line_of_fire);
  s.figures[1].position = Point{20, 30};
  EXPECT_FALSE(check("Bulldozer back").line_of_fire);
  s.figures[1].eliminated = true;
  EXPECT_TRUE(check("Bulldozer eliminated").line_of_fire);
  s.terrain.push_back({"wall", 0, rect("wall", 19, 20, 20, 40).shape});
  EXPECT_EQ(check("a wall put down").blockers, std::vector<std::string>{"wall"});
  s.terrain.back().shape = rect("wall", 19, 35, 20, 40).shape;
  EXPECT_TRUE(check("the wall moved off the line").line_of_fire);
  s.figures[2].position = Point{30, 45};
  EXPECT_FALSE(check("Gridlock behind the wall").line_of_fire);
  s.figures[1].team = 1;  // an opposing base is gone round, a friendly one passed through
  s.figures[1].eliminated = false;
  s.figures[1].position = Point{20, 31};
  check("Bulldozer changed sides");
}

// Fields are kept (move_field_of) and build their path graph at the first query that needs
// one; the thread also keeps the terrain's part of every graph for the table it measured last.
// A field kept from a table with more terrain, asked after another table was measured, gives
// the answer a fresh thread gives.
TEST(TableRules, AKeptFieldAnswersAfterAnotherTableWasMeasured) {
  const GameState a = at_table({{"Razor", 0, {10, 30}}, {"Gridlock", 1, {50, 30}}},
                               {rect("wall", 19, 20, 21, 40),
                                rect("crate", 30, 5, 34, 9),
                                {"pillar", Shape::make_circle({40, 50}, 1.5)}});
  const GameState b = at_table({{"Razor", 0, {10, 30}}, {"Gridlock", 1, {50, 30}}},
                               {rect("crate", 30, 25, 34, 35)});
  const Vec2 behind_wall{25, 30};
  const Vec2 behind_crate{38, 30};
  const MoveField kept = move_field_of(a, 0);                      // no graph yet: nothing asked
  EXPECT_GT(move_field_of(b, 0).distance_to(behind_crate), 28.0);  // b's graph
  const double answer = kept.distance_to(behind_wall);
  double fresh = 0;
  std::thread([&] {
    fresh = MoveField(base_disc(a.figures[0]), move_obstacles_of(a, 0)).distance_to(behind_wall);
  }).join();
  EXPECT_EQ(answer, fresh);
  EXPECT_GT(answer, 15.0);  // round the wall, not through it
}

}  // namespace
}  // namespace duels
