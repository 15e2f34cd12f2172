// Circle-grid boards (symmetric and asymmetric, OpenCV's findCirclesGrid) are accepted like
// chessboards: rendered views with known lens and poses are found, their centres land on the
// true projections, and calibrating from them recovers the lens.
#include <gtest/gtest.h>

#include <opencv2/imgcodecs.hpp>

#include <cmath>
#include <cstdio>
#include <limits>

#include "calib/folder.hpp"
#include "calib/intrinsics.hpp"
#include "calib/printable.hpp"
#include "calib/synthetic.hpp"
#include "fixtures.hpp"
#include "temp_dir.hpp"

namespace duels::calib {
namespace {

PatternSpec symmetric_7x6() {
  PatternSpec spec;
  spec.kind = PatternKind::kCircles;
  spec.cols = 7;
  spec.rows = 6;
  spec.square_mm = 20;
  return spec;
}

// OpenCV's sample board: 4 circles a row, 11 rows.
PatternSpec asymmetric_4x11() {
  PatternSpec spec;
  spec.kind = PatternKind::kAsymmetricCircles;
  spec.cols = 4;
  spec.rows = 11;
  spec.square_mm = 15;
  return spec;
}

// RMS distance from each found centre to the nearest true one (a symmetric grid may be
// numbered from either end; the calibration does not mind), and the largest.
struct Match {
  double rms_px = 0;
  double max_px = 0;
};
Match match_to_truth(const BoardView& found, const BoardView& truth) {
  double sum = 0;
  Match m;
  for (const auto& p : found.image_px) {
    double best = std::numeric_limits<double>::max();
    for (const auto& q : truth.image_px)
      best = std::min(best, cv::norm(p - q));
    sum += best * best;
    m.max_px = std::max(m.max_px, best);
  }
  m.rms_px = std::sqrt(sum / static_cast<double>(found.image_px.size()));
  return m;
}

void check_grid(const PatternSpec& spec, std::uint64_t seed) {
  const Intrinsics cam = testing::webcam_640();
  const SyntheticCamera synth(cam, 2);
  const auto tex = board_texture(spec, 4.0);
  const auto poses = calibration_poses(cam, spec, 12, seed, 35.0);
  ASSERT_EQ(poses.size(), 12u);
  std::vector<BoardView> views;
  double worst = 0;
  for (std::size_t i = 0; i < poses.size(); ++i) {
    const cv::Mat frame = synth.render(tex, poses[i], {0.5, 2.0, seed + i});
    auto found = detect_board(frame, spec);
    ASSERT_TRUE(found) << describe(spec) << ", view " << i << ": " << found.error();
    ASSERT_EQ(found->image_px.size(), static_cast<std::size_t>(spec.cols * spec.rows));
    const Match m = match_to_truth(*found, project_board(cam, spec, poses[i]));
    EXPECT_LT(m.max_px, 0.5) << "view " << i;
    worst = std::max(worst, m.rms_px);
    found->name = "view" + std::to_string(i);
    views.push_back(std::move(found).value());
  }
  auto result = calibrate(views);
  ASSERT_TRUE(result) << result.error();
  const Intrinsics& k = result->intrinsics;
  std::printf("%s: worst view %.3f px RMS from the truth; fx %.2f (true %.2f), rms %.3f px\n",
              describe(spec).c_str(), worst, k.fx(), cam.fx(), result->rms_px);
  EXPECT_NEAR(k.fx() / cam.fx(), 1.0, 0.005);
  EXPECT_NEAR(k.fy() / cam.fy(), 1.0, 0.005);
  EXPECT_NEAR(k.cx(), cam.cx(), 3.0);
  EXPECT_NEAR(k.cy(), cam.cy(), 3.0);
  EXPECT_LT(result->rms_px, 0.3);
}

TEST(CircleGrid, SymmetricGridIsFoundAndCalibrates) {
  check_grid(symmetric_7x6(), 41);
}

TEST(CircleGrid, AsymmetricGridIsFoundAndCalibrates) {
  check_grid(asymmetric_4x11(), 43);
}

// The asymmetric grid's points follow OpenCV's layout (row i at x = (2j + i mod 2)·s), so a
// view found by findCirclesGrid matches project_board point for point, in order.
TEST(CircleGrid, AsymmetricCentresComeInTheBoardsOrder) {
  const PatternSpec spec = asymmetric_4x11();
  const Intrinsics cam = testing::webcam_640();
  const SyntheticCamera synth(cam, 2);
  const auto tex = board_texture(spec, 4.0);
  const auto poses = calibration_poses(cam, spec, 4, 43, 35.0);
  ASSERT_EQ(poses.size(), 4u);
  for (const Pose& pose : poses) {
    const auto found = detect_board(synth.render(tex, pose, {0.5, 2.0, 5}), spec);
    ASSERT_TRUE(found) << found.error();
    const BoardView truth = project_board(cam, spec, pose);
    for (std::size_t i = 0; i < truth.image_px.size(); ++i)
      EXPECT_LT(cv::norm(found->image_px[i] - truth.image_px[i]), 0.5) << "point " << i;
  }
}

std::string fmt_size(cv::Size s) {
  return std::to_string(s.width) + "x" + std::to_string(s.height) + " circles";
}

TEST(CircleGrid, WrongCountOrKindIsExplained) {
  const PatternSpec spec = symmetric_7x6();
  const Intrinsics cam = testing::webcam_640();
  const SyntheticCamera synth(cam, 2);
  const auto pose = calibration_poses(cam, spec, 1, 9, 20.0).at(0);
  const cv::Mat frame = synth.render(board_texture(spec, 4.0), pose, {0.5, 2.0, 9});
  EXPECT_TRUE(detect_board(frame, spec));
  // A grid inside the bigger one (a column or a row short) is recognised as too small.
  for (const cv::Size& wrong_size : {cv::Size(6, 6), cv::Size(7, 5)}) {
    PatternSpec wrong = spec;
    wrong.cols = wrong_size.width;
    wrong.rows = wrong_size.height;
    const auto miss = detect_board(frame, wrong);
    ASSERT_FALSE(miss) << wrong.cols << "x" << wrong.rows;
    EXPECT_NE(miss.error().find(fmt_size(wrong_size)), std::string::npos) << miss.error();
  }
  // Same for the asymmetric grid, a row short.
  const PatternSpec a = asymmetric_4x11();
  const auto a_pose = calibration_poses(cam, a, 4, 43, 35.0).at(0);
  const cv::Mat a_frame = synth.render(board_texture(a, 4.0), a_pose, {0.5, 2.0, 9});
  EXPECT_TRUE(detect_board(a_frame, a));
  PatternSpec short_a = a;
  short_a.rows = 10;
  EXPECT_FALSE(detect_board(a_frame, short_a));
  // A chessboard search in a picture of circles finds nothing either.
  PatternSpec chess = testing::chessboard_9x6();
  EXPECT_FALSE(detect_board(frame, chess));
}

TEST(CircleGrid, NamesSizesAndSheets) {
  EXPECT_EQ(parse_pattern_kind("circles"), PatternKind::kCircles);
  EXPECT_EQ(parse_pattern_kind("ACircles"), PatternKind::kAsymmetricCircles);
  EXPECT_EQ(parse_pattern_kind("asymmetric-circles"), PatternKind::kAsymmetricCircles);
  EXPECT_EQ(parse_pattern_kind(to_string(PatternKind::kAsymmetricCircles)),
            PatternKind::kAsymmetricCircles);
  const PatternSpec a = asymmetric_4x11();
  EXPECT_FALSE(validate(a).has_value());
  // 4 circles a row 2s apart, odd rows shifted by s, a margin of s: 8s x 12s.
  EXPECT_DOUBLE_EQ(board_size_mm(a).width, 8 * 15.0);
  EXPECT_DOUBLE_EQ(board_size_mm(a).height, 12 * 15.0);
  const auto pts = board_corners_mm(a);
  EXPECT_FLOAT_EQ(pts[4].x, 15.0f);  // row 1 starts at x = s
  EXPECT_FLOAT_EQ(pts[4].y, 15.0f);
  EXPECT_FLOAT_EQ(pts[5].x, 45.0f);
  // The printed circles are black strips whose area is the circle's (to 1 %).
  const double r = circle_diameter_mm(a) / 2;
  double area = 0;
  for (const auto& rect : board_black_rects_mm(a))
    area += rect.area();
  EXPECT_NEAR(area / (44 * CV_PI * r * r), 1.0, 0.01);
  const auto sheet = board_sheet(a, *paper_by_name("letter"));
  ASSERT_TRUE(sheet) << sheet.error();
}

}  // namespace
}  // namespace duels::calib
