// The table model: who says where a base is, the measurement the map draws, the terrain
// triangulation and the map transform.
#include "overlay/table_model.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <numbers>
#include <random>

#include "fixtures.hpp"
#include "test_paths.hpp"

namespace duels::overlay {
namespace {

using testing::crate_layout;
using testing::razor_vs_hex;

GameState started(const MatchSetup& setup) {
  auto s = new_game(setup);
  EXPECT_TRUE(s);
  return *s;
}

TEST(TableModel, BasesComeFromTheMatchThenVisionThenTheHand) {
  GameState s = started(razor_vs_hex({20, 30}, {32, 30}));
  const TableLayout layout = crate_layout();
  TableView v = make_table_view(s, layout, {});
  ASSERT_EQ(v.bases.size(), 2U);
  EXPECT_EQ(v.base_of(0)->disc.centre, (Vec2{20, 30}));
  EXPECT_EQ(v.base_of(0)->source, PositionSource::Match);

  const std::vector<TrackedBasePosition> seen = {{"hex", {33, 31}, 0.9}, {"Razor", {1, 1}, 0.2}};
  v = make_table_view(s, layout, {}, seen);
  EXPECT_EQ(v.base_of(1)->disc.centre, (Vec2{33, 31}));  // names match case-insensitively
  EXPECT_EQ(v.base_of(1)->source, PositionSource::Vision);
  EXPECT_EQ(v.base_of(0)->source, PositionSource::Match);  // low confidence is ignored

  v = make_table_view(s, layout, {{1, Point{40, 10}}}, seen);
  EXPECT_EQ(v.base_of(1)->disc.centre, (Vec2{40, 10}));
  EXPECT_EQ(v.base_of(1)->source, PositionSource::Manual);
}

TEST(TableModel, OnlyTerrainThatIsDownBlocks) {
  GameState s = started(razor_vs_hex());
  const TableLayout layout = crate_layout();
  TableView v = make_table_view(s, layout, {});
  EXPECT_TRUE(v.terrain.empty());
  EXPECT_EQ(v.unplaced.size(), 2U);
  s.terrain.push_back({"wall", 0});
  v = make_table_view(s, layout, {});
  ASSERT_EQ(v.terrain.size(), 1U);
  EXPECT_EQ(v.terrain[0].id, "wall");
  EXPECT_EQ(v.unplaced.size(), 1U);
}

TEST(TableModel, MeasureGivesTheEdgeGapAndUsableColours) {
  const GameState s = started(razor_vs_hex({20, 30}, {32, 30}));
  const TableView v = make_table_view(s, crate_layout(), {});
  const AttackMeasure m = measure_attack(v, s, 0, 1);
  ASSERT_TRUE(m.valid);
  EXPECT_NEAR(m.centre_gap_in, 10.0, 1e-9);
  ASSERT_TRUE(m.lof.clear);
  EXPECT_NEAR(m.measurement.gap_in, 10.0, 1e-6);
  EXPECT_NEAR(m.measurement.chord_in, 2.0, 1e-6);
  // Razor's tape: yellow to 4", blue to 14", green to 26".
  EXPECT_EQ(m.usable, (std::vector<dice::Colour>{dice::Colour::Blue, dice::Colour::Green}));
  EXPECT_TRUE(m.measurement.line_of_fire);
}

TEST(TableModel, TerrainAcrossTheLineBlocksAndIsNamed) {
  GameState s = started(razor_vs_hex({20, 18}, {32, 18}));
  s.terrain.push_back({"wall", 0});  // 1" x 8" across the centre line at x = 26
  const TableView v = make_table_view(s, crate_layout(), {});
  const AttackMeasure m = measure_attack(v, s, 0, 1);
  ASSERT_TRUE(m.valid);
  EXPECT_FALSE(m.lof.clear);
  EXPECT_EQ(m.blocker_ids, (std::vector<std::string>{"wall"}));
  EXPECT_FALSE(m.measurement.line_of_fire);
  EXPECT_EQ(m.measurement.blockers, m.blocker_ids);
  EXPECT_TRUE(m.usable.empty());
}

TEST(TableModel, AThirdBaseCanBlock) {
  MatchSetup setup = razor_vs_hex({10, 30}, {30, 30});
  setup.teams[1].figures.push_back(testing::loadout("Gridlock", {}, {20, 30}));
  const GameState s = started(setup);
  const TableView v = make_table_view(s, {}, {});
  const AttackMeasure m = measure_attack(v, s, 0, 1);
  EXPECT_FALSE(m.lof.clear);
  EXPECT_EQ(m.blocker_ids, (std::vector<std::string>{"Gridlock"}));
}

TEST(TableModel, MoveWorldSortsBasesByTeam) {
  MatchSetup setup = razor_vs_hex({10, 30}, {30, 30});
  setup.teams[0].figures.push_back(testing::loadout("Bulldozer", {}, {10, 40}));
  const GameState s = started(setup);
  const MoveObstacles w = move_world(make_table_view(s, crate_layout(), {}), s, 0);
  ASSERT_EQ(w.friendly_bases.size(), 1U);
  EXPECT_EQ(w.friendly_bases[0].id, "Bulldozer");
  ASSERT_EQ(w.opposing_bases.size(), 1U);
  EXPECT_EQ(w.opposing_bases[0].id, "Hex");
}

// A base the camera sees but cannot name blocks the line of fire across it and is gone round by
// a moving base, whoever it is; one on a figure's base (a figure placed by hand where the camera
// sees a base it cannot name: most likely that very base) is that figure's and blocks nothing
// more.
TEST(TableModel, AnUnnamedBaseBlocksUnlessItIsAFiguresOwn) {
  const GameState s = started(razor_vs_hex({10, 30}, {30, 30}));
  const std::vector<Disc> unnamed = {{{20, 30}, 1.0}, {{30.3, 29.8}, 1.0}};
  const TableView v = make_table_view(s, {}, {}, {}, unnamed);
  ASSERT_EQ(v.unnamed.size(), 1U);
  EXPECT_EQ(v.unnamed[0].centre, (Vec2{20, 30}));
  const AttackMeasure m = measure_attack(v, s, 0, 1);
  ASSERT_TRUE(m.valid);
  EXPECT_FALSE(m.lof.clear);
  EXPECT_EQ(m.blocker_ids, (std::vector<std::string>{"unnamed base (20.0, 30.0)"}));
  const MoveObstacles w = move_world(v, s, 0);
  ASSERT_EQ(w.opposing_bases.size(), 2U);
  EXPECT_EQ(w.opposing_bases[1].id, "unnamed base (20.0, 30.0)");
  // Moved off the line, it blocks nothing.
  const TableView off = make_table_view(s, {}, {}, {}, {{{20, 40}, 1.0}});
  EXPECT_TRUE(measure_attack(off, s, 0, 1).lof.clear);
}

TEST(TableModel, SceneGivesPositionsByFigureName) {
  const Scene scene =
      load_scene_file(duels_test::source_dir() + "/assets/scenes/demo_table.yaml",
                      [](std::string_view n) { return testing::library().find_figure(n); });
  MatchSetup setup = razor_vs_hex({1, 1}, {2, 2});
  for (auto& t : setup.teams)
    for (auto& f : t.figures)
      f.position.reset();
  EXPECT_EQ(apply_scene_positions(setup, scene), 2);
  EXPECT_EQ(*setup.teams[0].figures[0].position, (Point{10, 10}));
  EXPECT_EQ(*setup.teams[1].figures[0].position, (Point{16, 8}));
  const TableLayout layout = layout_from_scene(scene);
  EXPECT_EQ(layout.terrain.size(), 4U);
}

double area(const std::vector<Vec2>& poly) {
  double a = 0;
  for (std::size_t i = 0; i < poly.size(); ++i)
    a += cross(poly[i], poly[(i + 1) % poly.size()]);
  return a / 2;
}

TEST(TableModel, TriangulationCoversRandomStarPolygonsExactly) {
  std::mt19937 rng(20260301);
  std::uniform_real_distribution<double> radius(0.5, 3.0);
  for (int trial = 0; trial < 200; ++trial) {
    const int n = 3 + trial % 12;
    std::vector<Vec2> poly;
    for (int i = 0; i < n; ++i) {
      const double angle = 2 * std::numbers::pi * i / n;
      const double r = radius(rng);
      poly.push_back({10 + r * std::cos(angle), 10 + r * std::sin(angle)});
    }
    const auto tris = triangulate(poly);
    EXPECT_EQ(tris.size(), static_cast<std::size_t>(n - 2)) << "trial " << trial;
    double sum = 0;
    for (const auto& t : tris) {
      const double a = area({t[0], t[1], t[2]});
      EXPECT_GT(a, 0) << "trial " << trial;
      sum += a;
    }
    EXPECT_NEAR(sum, area(poly), 1e-9 * std::max(1.0, area(poly))) << "trial " << trial;
  }
}

TEST(TableModel, MapTransformRoundTripsAndKeepsTheTableInside) {
  const TableBounds table{60, 40};
  const MapTransform t = fit_map(table, 100, 50, 600, 600);
  EXPECT_FLOAT_EQ(t.px_per_in, 10.0f);  // the width limits: 600 px / 60"
  const auto corner = t.to_screen({0, 40});
  EXPECT_FLOAT_EQ(corner[0], 100.0f);
  EXPECT_FLOAT_EQ(corner[1], 50.0f + 100.0f);  // centred vertically: (600 - 400) / 2
  for (const Vec2 p : {Vec2{0, 0}, Vec2{12.5, 33}, Vec2{60, 40}}) {
    const auto s = t.to_screen(p);
    const Vec2 back = t.to_table(s[0], s[1]);
    EXPECT_NEAR(back.x, p.x, 1e-4);
    EXPECT_NEAR(back.y, p.y, 1e-4);
  }
}

TEST(TableModel, MoveAllowanceAddsRolledDice) {
  const GameState s = started(razor_vs_hex());
  const FigureState& razor = s.figures[0];
  EXPECT_EQ(move_allowance(razor, {}), 7);  // Razor's Head
  EXPECT_EQ(move_allowance(razor, {{0, 4}, {1, 6}}), 17);
  EXPECT_EQ(move_allowance(razor, {{2, 1}}), 7);  // yellow d8 ace rolled the ace: counts 0
}

}  // namespace
}  // namespace duels::overlay
