// Scene files: the bundled demo loads; mistakes name file, line, field and what was expected;
// the renderer is seeded and its truth matches the script.
#include <gtest/gtest.h>

#include "common/error.hpp"
#include "test_paths.hpp"
#include "vision/render.hpp"
#include "vision/scene.hpp"

namespace duels::vision {
namespace {

const std::string kAssets = duels_test::source_dir() + "/assets";

std::string minimal(const std::string& bases) {
  return "schema_version: 1\n"
         "table: {width: 30, depth: 30}\n"
         "camera: {width: 320, height: 240, fx: 300, distance: 40, elevation: 60}\n"
         "look: {supersample: 1}\n"
         "bases:\n" +
         bases;
}

TEST(SceneFile, BundledDemoLoads) {
  const SceneSpec s = load_named_scene("demo", kAssets);
  EXPECT_EQ(s.bases.size(), 2u);
  EXPECT_EQ(s.camera.image_size, cv::Size(1920, 1080));
  EXPECT_GT(s.frame_count(), 50);
  EXPECT_FALSE(s.hands.empty());
}

TEST(SceneFile, ErrorsNameFileLineFieldAndExpected) {
  const std::string text = minimal(
      "  - {id: a, marker: 10, path: [{t: 0, x: 5, y: 5}]}\n"
      "  - {id: b, marker: 10, diameter: -3, path: [{t: 0, x: 9, y: 9}]}\n");
  try {
    parse_scene_spec(text, "bad.yaml");
    FAIL() << "no error";
  } catch (const DataException& e) {
    const std::string m = e.what();
    EXPECT_NE(m.find("bad.yaml:"), std::string::npos) << m;
    EXPECT_NE(m.find("bases[1]"), std::string::npos) << m;
    EXPECT_NE(m.find("diameter"), std::string::npos) << m;
    EXPECT_EQ(e.error().line, 7) << m;
  }
}

TEST(SceneFile, WrongSchemaAndUnknownKeysAreRefused) {
  EXPECT_THROW(parse_scene_spec("schema_version: 9\n", "x.yaml"), DataException);
  EXPECT_THROW(
      parse_scene_spec(
          minimal("  - {id: a, marker: 10, colour: red, path: [{t: 0, x: 5, y: 5}]}\n"), "x.yaml"),
      DataException);
  EXPECT_THROW(
      parse_scene_spec(minimal("  - {id: a, marker: 10, wings: 2, path: [{t: 0, x: 5, y: 5}]}\n"),
                       "x.yaml"),
      DataException);
  EXPECT_THROW(parse_scene_spec(
                   minimal("  - {id: a, marker: 10, marker_side: 3, path: [{t: 0, x: 5, y: 5}]}\n"),
                   "x.yaml"),
               DataException);  // marker wider than the base
  EXPECT_THROW(load_scene_spec("/nonexistent/scene.yaml"), DataException);
}

TEST(SceneFile, AMarkerUnderTheFigureIsRefusedByFileAndByRenderer) {
  // 2" base: the figure's body (radius 0.36") stands at the back, reaching 0.23" behind the
  // centre; a 1" marker must sit at least 0.27" forward.
  const std::string text =
      minimal("  - {id: a, marker: 10, marker_offset: [0, 0.1], path: [{t: 0, x: 5, y: 5}]}\n");
  try {
    parse_scene_spec(text, "under.yaml");
    FAIL() << "no error";
  } catch (const DataException& e) {
    const std::string m = e.what();
    EXPECT_NE(m.find("under.yaml:6"), std::string::npos) << m;
    EXPECT_NE(m.find("bases[0].marker_offset"), std::string::npos) << m;
    EXPECT_NE(m.find("at least 0.27"), std::string::npos) << m;
  }
  // The same marker clears a figure that is not there, or a slimmer one.
  EXPECT_NO_THROW(parse_scene_spec(minimal("  - {id: a, marker: 10, marker_offset: [0, 0.1], "
                                           "figure_height: 0, path: [{t: 0, x: 5, y: 5}]}\n"),
                                   "x.yaml"));
  EXPECT_NO_THROW(parse_scene_spec(minimal("  - {id: a, marker: 10, marker_offset: [0, 0.1], "
                                           "figure_radius: 0.2, path: [{t: 0, x: 5, y: 5}]}\n"),
                                   "x.yaml"));
  // Left out, the offset puts the marker just in front of the figure.
  const SceneSpec s =
      parse_scene_spec(minimal("  - {id: a, marker: 10, path: [{t: 0, x: 5, y: 5}]}\n"), "x.yaml");
  EXPECT_NEAR(s.bases[0].marker_offset_in.y, 0.28, 1e-9);
  EXPECT_FALSE(marker_placement_problem(s.bases[0]));
  // Scenes built in code get the same check from the renderer.
  SceneSpec bad = s;
  bad.bases[0].marker_offset_in = {0, 0};
  EXPECT_THROW(SceneRenderer{bad}, DataException);
  bad.bases[0].figure_radius_in = 2;
  ASSERT_TRUE(marker_placement_problem(bad.bases[0]));
  EXPECT_EQ(marker_placement_problem(bad.bases[0])->field, "figure_radius");
}

// The renderer draws the figure over exactly its footprint: a marker that clears it by a
// hair is fully visible from (nearly) straight above, and one a hair closer is refused.
TEST(Renderer, TheFigureStandsOnItsFootprint) {
  SceneSpec s = parse_scene_spec(
      "schema_version: 1\ntable: {width: 30, depth: 30, corner_markers: 0}\n"
      "camera: {width: 640, height: 480, fx: 600, distance: 40, elevation: 89, target: [15, 15]}\n"
      "look: {supersample: 1}\nbases:\n"
      "  - {id: a, marker: 10, diameter: 2.5, marker_side: 1.25, marker_offset: [0, 0.33], "
      "path: [{t: 0, x: 15, y: 15, angle: 90}]}\n",
      "x.yaml");
  EXPECT_FALSE(marker_placement_problem(s.bases[0]));
  const FigureFootprint f = *figure_footprint(s.bases[0]);
  EXPECT_NEAR(f.radius_in, 0.45, 1e-9);
  EXPECT_NEAR(f.centre_in.y, -0.75, 1e-9);
  SceneRenderer r(s);
  EXPECT_GT(r.truth_at(0, 0).bases[0].marker_visible, 0.99);
  // The figure stands on the back of the top, on part of a ring's code band (0.45–0.8 R).
  const double band = r.truth_at(0, 0).bases[0].ring_visible;
  EXPECT_LT(band, 0.95);
  EXPECT_GT(band, 0.7);
  s.bases[0].marker_offset_in = {0, 0.32};
  ASSERT_TRUE(marker_placement_problem(s.bases[0]));
}

TEST(SceneFile, PathsInterpolate) {
  const SceneSpec s = parse_scene_spec(minimal("  - {id: a, marker: 10, path: [{t: 0, x: 5, y: 5, "
                                               "angle: 0}, {t: 2, x: 9, y: 13, angle: 90}]}\n"),
                                       "x.yaml");
  const BasePose mid = base_pose_at(s.bases[0], 1.0);
  EXPECT_DOUBLE_EQ(mid.centre_in.x, 7);
  EXPECT_DOUBLE_EQ(mid.centre_in.y, 9);
  EXPECT_DOUBLE_EQ(mid.angle_deg, 45);
  EXPECT_DOUBLE_EQ(base_pose_at(s.bases[0], 5).centre_in.x, 9);
}

TEST(Renderer, SameSeedSameFrameOtherSeedOtherNoise) {
  const std::string text = minimal("  - {id: a, marker: 10, path: [{t: 0, x: 15, y: 15}]}\n");
  SceneSpec s = parse_scene_spec(text, "x.yaml");
  const cv::Mat a = SceneRenderer(s).render(0);
  const cv::Mat b = SceneRenderer(s).render(0);
  EXPECT_EQ(cv::norm(a, b, cv::NORM_INF), 0);
  s.seed = 99;
  const cv::Mat c = SceneRenderer(s).render(0);
  EXPECT_GT(cv::norm(a, c, cv::NORM_L1), 0);
}

TEST(Renderer, TruthFollowsTheScriptAndSeesTheHand) {
  SceneSpec s = parse_scene_spec(
      minimal("  - {id: a, marker: 10, figure_height: 0, path: [{t: 0, x: 10, y: 15, angle: -90}, "
              "{t: 1, x: 10, y: 15}, {t: 2, x: 20, y: 15}]}\n") +
          "hands:\n  - {t0: 3, t1: 4, from: [0, 15], to: [30, 15], height: 3, radius: 2}\n",
      "x.yaml");
  s.fps = 10;
  SceneRenderer r(s);
  EXPECT_FALSE(r.truth_at(5, 0.5).bases[0].moving);
  EXPECT_TRUE(r.truth_at(15, 1.5).bases[0].moving);
  EXPECT_DOUBLE_EQ(r.truth_at(15, 1.5).bases[0].centre_in.x, 15);
  EXPECT_GT(r.truth_at(5, 0.5).bases[0].marker_visible, 0.99);
  EXPECT_GT(r.truth_at(5, 0.5).bases[0].ring_visible, 0.99);  // no figure on it
  // The hand passes over the base (x = 20) around t = 3.67 s.
  const FrameTruth under = r.truth_at(37, 3.0 + 2.0 / 3.0);
  EXPECT_TRUE(under.hand_in_view);
  EXPECT_LT(under.bases[0].marker_visible, 0.5);
  EXPECT_LT(under.bases[0].ring_visible, 0.5);
}

}  // namespace
}  // namespace duels::vision
