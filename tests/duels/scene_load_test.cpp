// Scene files: parsing, every kind of bad scene with its error, and the all-pairs check.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>

#include "common/error.hpp"
#include "duels/scene.hpp"
#include "test_paths.hpp"

namespace duels {
namespace {

// Figures made in code: a 2.5" base with a yellow/blue tape, and one without a tape.
FigureDef make_figure(std::string name, double diameter, std::vector<Track> tracks) {
  FigureDef f;
  f.name = std::move(name);
  f.base_diameter_in = diameter;
  f.tape.tracks = std::move(tracks);
  return f;
}

const FigureDef kBruiser =
    make_figure("Bruiser", 2.5, {{dice::Colour::Yellow, 0, 4}, {dice::Colour::Blue, 0, 14}});
const FigureDef kSniper = make_figure("Sniper", 2.0, {{dice::Colour::Green, 0, 30}});

const FigureDef* lookup(std::string_view name) {
  if (name == "Bruiser") return &kBruiser;
  if (name == "Sniper") return &kSniper;
  return nullptr;
}

Scene parse(const std::string& text) {
  return parse_scene(text, "test.yaml", lookup);
}

// Parses a bad scene and returns the error it must raise.
DataError error_of(const std::string& text) {
  try {
    parse(text);
  } catch (const DataException& e) {
    return e.error();
  }
  ADD_FAILURE() << "no error for:\n" << text;
  return {};
}

const char* kHeader = "schema_version: 1\nunits: in\ntable: {width: 60, depth: 40}\n";

TEST(SceneLoad, ReadsBasesTerrainAndFigures) {
  const Scene s = parse(std::string(kHeader) + R"(bases:
  - {id: a, figure: Bruiser, team: 1, x: 10, y: 10}
  - {id: b, figure: Bruiser, team: 2, x: 40, y: 10, diameter: 3}
  - {id: c, team: 2, x: 40, y: 30, diameter: 1.5}
terrain:
  - {id: crate, polygon: [[20, 20], [24, 20], [24, 26], [20, 26]]}
  - {id: wall, rect: {x: 30, y: 20, width: 8, depth: 1, angle: 90}}
  - {id: pillar, circle: {x: 50, y: 20, r: 2}}
)");
  EXPECT_DOUBLE_EQ(s.table.width_in, 60);
  EXPECT_DOUBLE_EQ(s.table.depth_in, 40);
  ASSERT_EQ(s.bases.size(), 3u);
  EXPECT_DOUBLE_EQ(s.bases[0].disc.radius_in, 1.25);  // from the figure
  EXPECT_DOUBLE_EQ(s.bases[1].disc.radius_in, 1.5);   // written diameter wins
  EXPECT_DOUBLE_EQ(s.bases[2].disc.radius_in, 0.75);
  ASSERT_TRUE(s.bases[0].tape.has_value());
  EXPECT_EQ(s.bases[0].tape->tracks.size(), 2u);
  EXPECT_FALSE(s.bases[2].tape.has_value());
  ASSERT_EQ(s.terrain.size(), 3u);
  EXPECT_DOUBLE_EQ(area_in2(s.terrain[0].shape), 24);
  EXPECT_NEAR(area_in2(s.terrain[1].shape), 8, 1e-12);
  // Turned a quarter: the wall runs along y.
  EXPECT_NEAR(distance_in(Vec2{30, 23.9}, s.terrain[1].shape), 0, 1e-12);
  EXPECT_NEAR(distance_in(Vec2{33.9, 20}, s.terrain[1].shape), 3.4, 1e-12);
  EXPECT_EQ(s.terrain[2].shape.kind, Shape::Kind::Circle);
  EXPECT_EQ(s.base_index("c"), 2u);
  EXPECT_FALSE(s.base_index("zz").has_value());
}

TEST(SceneLoad, OverlappingBasesNameBothEntries) {
  const DataError e = error_of(std::string(kHeader) + R"(bases:
  - {id: a, team: 1, x: 10, y: 10, diameter: 2}
  - {id: b, team: 2, x: 11.5, y: 10, diameter: 2}
)");
  EXPECT_EQ(e.file, "test.yaml");
  EXPECT_EQ(e.line, 6);
  EXPECT_EQ(e.field, "bases[1]");
  EXPECT_NE(e.expected.find("'a'"), std::string::npos) << e.expected;
  EXPECT_NE(e.expected.find("'b'"), std::string::npos) << e.expected;
}

TEST(SceneLoad, TouchingBasesAreFine) {
  EXPECT_NO_THROW(parse(std::string(kHeader) + R"(bases:
  - {id: a, team: 1, x: 10, y: 10, diameter: 2}
  - {id: b, team: 2, x: 12, y: 10, diameter: 2}
)"));
}

TEST(SceneLoad, NegativeSizesAreRejected) {
  DataError e =
      error_of(std::string(kHeader) + "bases:\n  - {id: a, team: 1, x: 10, y: 10, diameter: -2}\n");
  EXPECT_EQ(e.field, "bases[0].diameter");
  EXPECT_EQ(e.line, 5);
  EXPECT_NE(e.expected.find("positive"), std::string::npos);
  e = error_of(std::string(kHeader) +
               "bases: []\nterrain:\n  - {id: p, circle: {x: 5, y: 5, r: 0}}\n");
  EXPECT_EQ(e.field, "terrain[0].circle.r");
  e = error_of(std::string(kHeader) +
               "bases: []\nterrain:\n  - {id: w, rect: {x: 5, y: 5, width: 3, depth: -1}}\n");
  EXPECT_EQ(e.field, "terrain[0].rect.depth");
  e = error_of("schema_version: 1\nunits: in\ntable: {width: -60, depth: 40}\nbases: []\n");
  EXPECT_EQ(e.field, "table.width");
}

TEST(SceneLoad, SelfIntersectingPolygonIsRejected) {
  const DataError e = error_of(std::string(kHeader) + R"(bases: []
terrain:
  - {id: bowtie, polygon: [[0, 0], [4, 4], [4, 0], [0, 4]]}
)");
  EXPECT_EQ(e.field, "terrain[0].polygon");
  EXPECT_EQ(e.line, 6);
  EXPECT_NE(e.expected.find("simple polygon"), std::string::npos);
}

TEST(SceneLoad, DegeneratePolygonsAreRejected) {
  EXPECT_EQ(error_of(std::string(kHeader) +
                     "bases: []\nterrain:\n  - {id: l, polygon: [[0, 0], [1, 1], [2, 2]]}\n")
                .field,
            "terrain[0].polygon");
  EXPECT_EQ(error_of(std::string(kHeader) +
                     "bases: []\nterrain:\n  - {id: l, polygon: [[0, 0], [1, 1]]}\n")
                .field,
            "terrain[0].polygon");
  EXPECT_EQ(error_of(std::string(kHeader) +
                     "bases: []\nterrain:\n  - {id: l, polygon: [[0, 0], [1, x], [2, 0]]}\n")
                .field,
            "terrain[0].polygon[1]");
}

TEST(SceneLoad, UnknownFigureIsRejected) {
  const DataError e = error_of(std::string(kHeader) +
                               "bases:\n  - {id: a, figure: Nobody, team: 1, x: 10, y: 10}\n");
  EXPECT_EQ(e.field, "bases[0].figure");
  EXPECT_NE(e.expected.find("Nobody"), std::string::npos);
}

TEST(SceneLoad, BaseWithoutFigureNeedsADiameter) {
  const DataError e =
      error_of(std::string(kHeader) + "bases:\n  - {id: a, team: 1, x: 10, y: 10}\n");
  EXPECT_EQ(e.field, "bases[0].diameter");
}

TEST(SceneLoad, BasesMustBeOnTheTableAndOffTerrain) {
  DataError e =
      error_of(std::string(kHeader) + "bases:\n  - {id: a, team: 1, x: 0.5, y: 10, diameter: 2}\n");
  EXPECT_EQ(e.field, "bases[0]");
  EXPECT_NE(e.expected.find("edge"), std::string::npos);
  e = error_of(std::string(kHeader) + R"(bases:
  - {id: a, team: 1, x: 21, y: 10, diameter: 2}
terrain:
  - {id: crate, rect: {x: 25, y: 10, width: 8, depth: 8}}
)");
  EXPECT_EQ(e.field, "bases[0]");
  EXPECT_NE(e.expected.find("'crate'"), std::string::npos);
}

TEST(SceneLoad, IdsAreUniqueAcrossBasesAndTerrain) {
  const DataError e = error_of(std::string(kHeader) + R"(bases:
  - {id: x, team: 1, x: 10, y: 10, diameter: 2}
terrain:
  - {id: x, circle: {x: 40, y: 20, r: 1}}
)");
  EXPECT_EQ(e.field, "terrain[0].id");
}

TEST(SceneLoad, HeaderIsChecked) {
  EXPECT_EQ(
      error_of("schema_version: 2\nunits: in\ntable: {width: 6, depth: 6}\nbases: []\n").field,
      "schema_version");
  EXPECT_EQ(
      error_of("schema_version: 1\nunits: cm\ntable: {width: 6, depth: 6}\nbases: []\n").field,
      "units");
  EXPECT_EQ(error_of("schema_version: 1\nunits: in\nbases: []\n").field, "table");
  EXPECT_EQ(error_of(std::string(kHeader) + "bases: []\nlights: on\n").field, "lights");
  EXPECT_EQ(
      error_of(std::string(kHeader) + "bases:\n  - {id: a, team: 1, x: 10, y: 10, diameter: 2, "
                                      "colour: red}\n")
          .field,
      "bases[0].colour");
  EXPECT_EQ(error_of(std::string(kHeader) + "bases: []\nterrain:\n  - {id: t, circle: {x: 1, y: 1, "
                                            "r: 1}, rect: {x: 1, y: 1, width: 1, depth: 1}}\n")
                .field,
            "terrain[0]");
  EXPECT_NE(error_of("bases: [\n").expected.find("YAML"), std::string::npos);
}

TEST(SceneLoad, AllProblemsAreReportedAtOnce) {
  try {
    parse(std::string(kHeader) + R"(bases:
  - {id: a, figure: Nobody, team: 1, x: 10, y: 10}
  - {id: b, team: 0, x: 20, y: 10, diameter: 2}
)");
    FAIL() << "no error";
  } catch (const DataException& e) {
    EXPECT_NE(std::string(e.what()).find("1 more problem"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("bases[1].team"), std::string::npos) << e.what();
  }
}

TEST(SceneLoad, MissingFileIsAClearError) {
  try {
    load_scene_file("/nonexistent/scene.yaml", lookup);
    FAIL() << "no error";
  } catch (const DataException& e) {
    EXPECT_EQ(e.error().file, "/nonexistent/scene.yaml");
  }
}

TEST(SceneCheck, PairsOfOpposingBasesWithGapsLineOfFireAndUsableColours) {
  const Scene s = parse(std::string(kHeader) + R"(bases:
  - {id: a, figure: Bruiser, team: 1, x: 10, y: 10}
  - {id: a2, team: 1, x: 10, y: 20, diameter: 2}
  - {id: b, figure: Sniper, team: 2, x: 20, y: 10}
  - {id: c, team: 2, x: 10, y: 36, diameter: 2}
terrain:
  - {id: wall, rect: {x: 10, y: 28, width: 6, depth: 1}}
)");
  const auto pairs = check_scene(s);
  // a↔b, a↔c, a2↔b, a2↔c: 8 ordered pairs, none between team-mates.
  ASSERT_EQ(pairs.size(), 8u);
  for (const PairCheck& p : pairs)
    EXPECT_NE(s.bases[p.from].team, s.bases[p.to].team);
  const PairCheck& ab = pairs[0];
  EXPECT_EQ(s.bases[ab.from].id, "a");
  EXPECT_EQ(s.bases[ab.to].id, "b");
  EXPECT_DOUBLE_EQ(ab.gap_in, 10 - 1.25 - 1.0);
  EXPECT_TRUE(ab.line_of_fire.clear);
  EXPECT_DOUBLE_EQ(ab.line_of_fire.chord_in, 2.5);
  EXPECT_TRUE(ab.has_tape);
  // Gap 7.75: yellow reaches 4, blue 14.
  EXPECT_EQ(ab.usable, (std::vector<dice::Colour>{dice::Colour::Blue}));
  // The reverse pair: the target's chord, the sniper's tape.
  const auto ba = std::find_if(pairs.begin(), pairs.end(), [&](const PairCheck& p) {
    return s.bases[p.from].id == "b" && s.bases[p.to].id == "a";
  });
  ASSERT_NE(ba, pairs.end());
  EXPECT_DOUBLE_EQ(ba->line_of_fire.chord_in, 2.0);
  EXPECT_EQ(ba->usable, (std::vector<dice::Colour>{dice::Colour::Green}));
  // a2 → c is behind the wall; a2 has no tape.
  const auto a2c = std::find_if(pairs.begin(), pairs.end(), [&](const PairCheck& p) {
    return s.bases[p.from].id == "a2" && s.bases[p.to].id == "c";
  });
  ASSERT_NE(a2c, pairs.end());
  EXPECT_FALSE(a2c->line_of_fire.clear);
  EXPECT_EQ(a2c->blockers, (std::vector<std::string>{"wall"}));
  EXPECT_FALSE(a2c->has_tape);
  EXPECT_TRUE(a2c->usable.empty());
}

TEST(SceneCheck, ChordAlongALine) {
  const Disc d{{0, 0}, 1};
  EXPECT_DOUBLE_EQ(chord_along(d, {{-5, 0}, {5, 0}}), 2.0);
  EXPECT_NEAR(chord_along(d, {{-5, 0.6}, {5, 0.6}}), 1.6, 1e-12);
  EXPECT_DOUBLE_EQ(chord_along(d, {{-5, 2}, {5, 2}}), 0.0);
  EXPECT_DOUBLE_EQ(chord_along(d, {{3, 3}, {3, 3}}), 2.0);
}

TEST(SceneLoad, TheBundledDemoSceneLoadsWithItsFigures) {
  // The shipped example uses only the made-up sample figures' names, looked up here in code.
  const std::string path = duels_test::source_dir() + "/assets/scenes/demo_table.yaml";
  ASSERT_TRUE(std::filesystem::exists(path));
  const FigureDef razor = make_figure("Razor", 2.0, {{dice::Colour::Yellow, 0, 4}});
  const Scene s = load_scene_file(path, [&](std::string_view) { return &razor; });
  EXPECT_GE(s.bases.size(), 4u);
  EXPECT_GE(s.terrain.size(), 3u);
}

}  // namespace
}  // namespace duels
