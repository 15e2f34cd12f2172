// What a table holds in play, drawn by the renderer (issue 51): dice lying on the bases' tops, a
// lamp casting soft shadows, figures of a real one's shape; and scene files that describe them.
#include <gtest/gtest.h>

#include <opencv2/imgproc.hpp>

#include "calib/synthetic.hpp"
#include "common/error.hpp"
#include "vision/coverage.hpp"
#include "vision/render.hpp"
#include "vision/scene.hpp"

namespace duels::vision {
namespace {

// One ring base at (15, 15) on a 30" table, seen from 40" at 60 degrees; no noise or blur.
std::string scene_text(const std::string& base_extra, const std::string& look_extra = "") {
  return "schema_version: 1\n"
         "table: {width: 30, depth: 30, corner_markers: 0}\n"
         "camera: {width: 640, height: 480, fx: 600, distance: 40, elevation: 60}\n"
         "look: {supersample: 1, noise: 0, blur: 0, lighting: 0" +
         look_extra +
         "}\n"
         "bases:\n"
         "  - {id: a, marker: 0, target: ring2, path: [{t: 0, x: 15, y: 15, angle: 90}]" +
         base_extra + "}\n";
}

cv::Vec3b pixel_at(const SceneRenderer& r, const cv::Mat& img, cv::Point3d p) {
  const cv::Point2d px = calib::project_point(r.spec().camera, r.spec().table_to_camera, p);
  return img.at<cv::Vec3b>(static_cast<int>(px.y), static_cast<int>(px.x));
}

TEST(SceneFile, DiceLampAndPosedFiguresAreRead) {
  const SceneSpec s = parse_scene_spec(
      scene_text(", figure_style: posed, dice: [{at: [0.5, 0.2], colour: black, sides: 8, "
                 "face: 7, size: 0.6, yaw: 30, t_on: 1, t_off: 4}]",
                 ", lamp: {at: [-20, 15, 30], radius: 2, strength: 0.8, ambient: 0.4}"),
      "props.yaml");
  ASSERT_EQ(s.bases.size(), 1u);
  EXPECT_EQ(s.bases[0].figure_style, FigureStyle::kPosed);
  ASSERT_EQ(s.bases[0].dice.size(), 1u);
  const DieSpec& d = s.bases[0].dice[0];
  EXPECT_EQ(d.colour, DieColour::kBlack);
  EXPECT_EQ(d.sides, 8);
  EXPECT_EQ(d.face, 7);
  EXPECT_DOUBLE_EQ(d.t_on_s, 1);
  EXPECT_DOUBLE_EQ(d.t_off_s, 4);
  EXPECT_TRUE(s.look.lamp.on);
  EXPECT_DOUBLE_EQ(s.look.lamp.at_in.x, -20);
  EXPECT_DOUBLE_EQ(s.look.lamp.ambient, 0.4);
}

TEST(SceneFile, BadDiceAndLampsNameTheFieldAndWhatWasExpected) {
  const auto error_of = [](const std::string& text) -> std::string {
    try {
      parse_scene_spec(text, "props.yaml");
    } catch (const DataException& e) {
      return e.what();
    }
    return "no error";
  };
  std::string m = error_of(scene_text(", dice: [{at: [0.5, 0], colour: purple}]"));
  EXPECT_NE(m.find("bases[0].dice[0].colour"), std::string::npos) << m;
  EXPECT_NE(m.find("white, yellow, blue, green, black or red"), std::string::npos) << m;
  m = error_of(scene_text(", dice: [{at: [1.5, 0]}]"));
  EXPECT_NE(m.find("bases[0].dice[0].at"), std::string::npos) << m;
  m = error_of(scene_text(", dice: [{at: [0, 0], sides: 7}]"));
  EXPECT_NE(m.find("4, 6, 8, 10 or 12"), std::string::npos) << m;
  m = error_of(scene_text(", dice: [{at: [0, 0], face: 9}]"));
  EXPECT_NE(m.find("dice[0].face"), std::string::npos) << m;
  m = error_of(scene_text(", figure_style: statue"));
  EXPECT_NE(m.find("rough or posed"), std::string::npos) << m;
  m = error_of(scene_text("", ", lamp: {at: [0, 0, 1]}"));
  EXPECT_NE(m.find("look.lamp.at"), std::string::npos) << m;
}

TEST(Renderer, ADieLiesOnTheTopInItsColourFromItsTime) {
  SceneSpec s = parse_scene_spec(
      scene_text(", figure_height: 0, dice: [{at: [0.55, 0], colour: red, size: 0.6, t_on: 1}]"),
      "die.yaml");
  s.fps = 1;
  const SceneRenderer r(s);
  FrameTruth before;
  FrameTruth after;
  const cv::Mat without = r.render(0, &before);
  const cv::Mat with = r.render(1, &after);
  // The die's top face, 0.6" above the base's 0.75" top, 0.55" to the right of its centre (the
  // base faces +y, so its frame's +x is the table's +x), beside its one pip.
  const cv::Point3d top(15 + 0.55 + 0.15, 15 + 0.1, 0.75 + 0.6);
  const cv::Vec3b red = pixel_at(r, with, top);

  EXPECT_GT(red[2], red[1] + 80) << red;
  EXPECT_GT(red[2], red[0] + 80) << red;
  const cv::Vec3b bare = pixel_at(r, without, top);
  EXPECT_LT(std::abs(int(bare[2]) - int(bare[1])), 30) << bare;  // the ring's black or white
  // The die hides part of the code band, and the truth says so.
  EXPECT_DOUBLE_EQ(before.bases[0].ring_visible, 1.0);
  EXPECT_LT(after.bases[0].ring_visible, 0.97);
  EXPECT_GT(after.bases[0].ring_visible, 0.7);
}

TEST(Renderer, EveryKindOfDieIsDrawnAndHidesTheRing) {
  for (int sides : {4, 6, 8, 10, 12}) {
    SCOPED_TRACE(sides);
    SceneSpec s = parse_scene_spec(scene_text(", figure_height: 0"), "die.yaml");
    DieSpec d;
    d.sides = sides;
    d.colour = DieColour::kGreen;
    d.at_in = {0.6, 0};
    s.bases[0].dice.push_back(d);
    FrameTruth truth;
    const SceneRenderer r(s);
    const cv::Mat img = r.render(0, &truth);
    EXPECT_LT(truth.bases[0].ring_visible, 0.98);
    // Green pixels where the die lies.
    cv::Mat hsv;
    cv::cvtColor(img, hsv, cv::COLOR_BGR2HSV);
    cv::Mat green;
    cv::inRange(hsv, cv::Scalar(40, 120, 40), cv::Scalar(80, 255, 255), green);
    EXPECT_GT(cv::countNonZero(green), 15);
  }
}

TEST(Renderer, ALampLightsItsSideAndCastsSoftShadowsAwayFromIt) {
  // The lamp at the left, 30 degrees up: a 4.5" figure's shadow falls to the right.
  const SceneSpec lit = parse_scene_spec(
      scene_text("", ", lamp: {at: [-25, 15, 23], radius: 2, strength: 0.7, ambient: 0.45}"),
      "lamp.yaml");
  const SceneRenderer r(lit);
  const cv::Mat img = r.render(0);
  SceneSpec unlit_spec = lit;
  unlit_spec.look.lamp.on = false;
  const SceneRenderer unlit(unlit_spec);
  const cv::Mat plain = unlit.render(0);
  const auto grey = [&](const SceneRenderer& rr, const cv::Mat& m, double x, double y) {
    const cv::Vec3b v = pixel_at(rr, m, {x, y, 0});
    return (v[0] + v[1] + v[2]) / 3.0;
  };
  // Beside the base on the lamp's side the felt is lit; at the same distance on the far side it
  // lies in the shadow of the figure (standing at the back of the base, y = 14.41), darker than
  // the felt without the lamp.
  const double fy = 15 - (1 - 0.36 - 0.05);
  const double lit_side = grey(r, img, 15 - 3.5, fy);
  const double shadow = grey(r, img, 15 + 3.5, fy);
  const double felt = grey(unlit, plain, 15 + 3.5, fy);
  EXPECT_GT(lit_side, felt * 1.05);
  EXPECT_LT(shadow, felt * 0.6);
  EXPECT_LT(shadow, lit_side * 0.5);
  // Far from anything the lamp only lights: no shadow there.
  EXPECT_GT(grey(r, img, 15, 26), felt * 0.9);
  // Soft: half way between the shadow's middle and the lit felt beside it the shade is between.
  double lo = 1e9;
  double hi = 0;
  bool between = false;
  for (double y = fy; y < fy + 2.5; y += 0.05) {
    const double g = grey(r, img, 15 + 3.5, y);
    lo = std::min(lo, g);
    hi = std::max(hi, g);
    between |= g > shadow + 0.25 * (lit_side - shadow) && g < shadow + 0.75 * (lit_side - shadow);
  }
  EXPECT_TRUE(between) << lo << " " << hi;
}

TEST(Coverage, TablesInPlayCarryDiceFiguresAndALamp) {
  CoverageScenario sc;
  sc.target = BaseTargetKind::kRing2;
  sc.dice_min = 3;
  sc.dice_max = 6;
  sc.posed = true;
  sc.lamp = true;
  const SceneSpec s = coverage_scene(sc, 3);
  ASSERT_EQ(s.bases.size(), 16u);
  EXPECT_TRUE(s.look.lamp.on);
  EXPECT_GT(s.look.lamp.at_in.z, 20);
  for (const auto& b : s.bases) {
    EXPECT_EQ(b.figure_style, FigureStyle::kPosed);
    EXPECT_GE(b.dice.size(), 3u);
    EXPECT_LE(b.dice.size(), 6u);
    for (const auto& d : b.dice) {
      EXPECT_LE(std::hypot(d.at_in.x, d.at_in.y), b.diameter_in / 2);
      for (const auto& e : b.dice) {
        if (&d != &e) {
          EXPECT_GE(cv::norm(d.at_in - e.at_in), 0.5);
        }
      }
    }
  }
  // The same seed gives the same table, another seed another.
  const SceneSpec again = coverage_scene(sc, 3);
  EXPECT_EQ(again.bases[5].dice.size(), s.bases[5].dice.size());
  EXPECT_EQ(again.bases[5].dice[0].at_in, s.bases[5].dice[0].at_in);
}

}  // namespace
}  // namespace duels::vision
