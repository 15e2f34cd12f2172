// Intrinsic calibration against the truth: rendered 1080p views with known K, distortion and
// poses, seeded noise; outlier rejection; the covariance behind the accuracy report.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "calib/intrinsics.hpp"
#include "calib/synthetic.hpp"
#include "fixtures.hpp"

namespace duels::calib {
namespace {

using testing::chessboard_9x6;

constexpr double kInjectedRmsPx = 0.3;

// Render → detect → jitter: the full pipeline on 15 views. Images get 0.5 px optical blur and
// σ = 2 grey-level pixel noise; the detected corners then get seeded Gaussian jitter of 0.3 px
// (2-D RMS, i.e. 0.21 px per axis), so the injected noise is known exactly.
struct SyntheticRun {
  std::vector<BoardView> views;
  double actual_noise_px = 0;  // RMS of (corners used − exact projection)
};

const SyntheticRun& rendered_views() {
  static const SyntheticRun run = [] {
    SyntheticRun r;
    const Intrinsics cam = example_webcam_1080p();
    const SyntheticCamera& synth = testing::webcam_1080p();
    const auto tex = board_texture(chessboard_9x6(), 4.0);
    const auto poses = calibration_poses(cam, chessboard_9x6(), 15, 2024);
    cv::RNG rng(77);
    double sum = 0;
    int n = 0;
    for (std::size_t i = 0; i < poses.size(); ++i) {
      const cv::Mat frame = synth.render(tex, poses[i], {0.5, 2.0, 500 + i});
      auto view = detect_board(frame, chessboard_9x6());
      if (!view) continue;
      jitter_corners(*view, kInjectedRmsPx, rng);
      const BoardView truth = project_board(cam, chessboard_9x6(), poses[i]);
      for (std::size_t k = 0; k < view->image_px.size(); ++k) {
        const cv::Point2f d = view->image_px[k] - truth.image_px[k];
        sum += d.dot(d);
        ++n;
      }
      view->name = "view " + std::to_string(i);
      r.views.push_back(*view);
    }
    r.actual_noise_px = std::sqrt(sum / n);
    return r;
  }();
  return run;
}

TEST(IntrinsicsSynthetic, FocalAndPrincipalPointWithinHalfPercent) {
  ASSERT_EQ(rendered_views().views.size(), 15u);  // the board was found in every view
  const auto result = calibrate(rendered_views().views);
  ASSERT_TRUE(result) << result.error();
  const Intrinsics truth = example_webcam_1080p();
  const Intrinsics& got = result->intrinsics;
  EXPECT_LT(std::abs(got.fx() / truth.fx() - 1), 0.005) << got.fx();
  EXPECT_LT(std::abs(got.fy() / truth.fy() - 1), 0.005) << got.fy();
  EXPECT_LT(std::abs(got.cx() / truth.cx() - 1), 0.005) << got.cx();
  EXPECT_LT(std::abs(got.cy() / truth.cy() - 1), 0.005) << got.cy();
  std::printf("synthetic 1080p: fx %+.3f%% fy %+.3f%% cx %+.3f%% cy %+.3f%% (errors vs truth)\n",
              100 * (got.fx() / truth.fx() - 1), 100 * (got.fy() / truth.fy() - 1),
              100 * (got.cx() / truth.cx() - 1), 100 * (got.cy() / truth.cy() - 1));
}

TEST(IntrinsicsSynthetic, RmsWithinFifteenPercentOfInjectedNoise) {
  const auto result = calibrate(rendered_views().views);
  ASSERT_TRUE(result) << result.error();
  EXPECT_NEAR(result->rms_px, kInjectedRmsPx, 0.15 * kInjectedRmsPx);
  EXPECT_TRUE(result->dropped.empty());
  std::printf(
      "synthetic 1080p: rms %.3f px for %.2f px injected (%.3f px measured incl. "
      "detection)\n",
      result->rms_px, kInjectedRmsPx, rendered_views().actual_noise_px);
}

TEST(IntrinsicsSynthetic, ErrorsAreWithinTheReportedUncertainty) {
  const auto result = calibrate(rendered_views().views);
  ASSERT_TRUE(result) << result.error();
  const Intrinsics truth = example_webcam_1080p();
  const double errors[4] = {
      result->intrinsics.fx() - truth.fx(), result->intrinsics.fy() - truth.fy(),
      result->intrinsics.cx() - truth.cx(), result->intrinsics.cy() - truth.cy()};
  for (int i = 0; i < 4; ++i) {
    EXPECT_LT(std::abs(errors[i]), 4 * result->std_dev[static_cast<std::size_t>(i)])
        << kIntrinsicParamNames[i];
  }
}

std::vector<BoardView> projected_views(const PatternSpec& spec, int count, double noise,
                                       std::uint64_t seed) {
  const Intrinsics cam = example_webcam_1080p();
  cv::RNG rng(seed);
  std::vector<BoardView> views;
  for (const auto& pose : calibration_poses(cam, spec, count, seed)) {
    BoardView v = project_board(cam, spec, pose, "view " + std::to_string(views.size()));
    jitter_corners(v, noise, rng);
    views.push_back(v);
  }
  return views;
}

// Our Jacobian covariance and OpenCV's std deviations describe the same fit. OpenCV divides
// the squared residual by (points − parameters) where the textbook (and our covariance) uses
// (2·points − parameters), so its σ are larger by exactly √((2N − P)/(N − P)).
TEST(Intrinsics, CovarianceDiagonalMatchesOpenCvStdDeviations) {
  const auto result = calibrate(projected_views(testing::chessboard_9x6(), 15, 0.3, 4));
  ASSERT_TRUE(result) << result.error();
  ASSERT_EQ(result->covariance.rows, kIntrinsicParamCount);
  const double n = result->points_used;
  const double p = kIntrinsicParamCount + 6.0 * static_cast<double>(result->view_names.size());
  const double expected = std::sqrt((n - p) / (2 * n - p));
  for (int i = 0; i < kIntrinsicParamCount; ++i) {
    const double ours = std::sqrt(result->covariance.at<double>(i, i));
    const double opencv = result->std_dev[static_cast<std::size_t>(i)];
    EXPECT_NEAR(ours / opencv, expected, 0.01 * expected) << kIntrinsicParamNames[i];
  }
}

TEST(Intrinsics, OutlierViewIsDroppedWithReason) {
  auto views = projected_views(chessboard_9x6(), 12, 0.2, 5);
  cv::RNG rng(6);
  jitter_corners(views[4], 4.0, rng);  // a blurred or moving shot
  const auto result = calibrate(views);
  ASSERT_TRUE(result) << result.error();
  ASSERT_EQ(result->dropped.size(), 1u);
  EXPECT_EQ(result->dropped[0].name, "view 4");
  EXPECT_NE(result->dropped[0].reason.find("median"), std::string::npos);
  EXPECT_EQ(std::count(result->view_names.begin(), result->view_names.end(), "view 4"), 0);
  EXPECT_LT(result->rms_px, 0.3);
}

TEST(Intrinsics, GoodViewsAreKept) {
  const auto result = calibrate(projected_views(chessboard_9x6(), 10, 0.3, 8));
  ASSERT_TRUE(result) << result.error();
  EXPECT_TRUE(result->dropped.empty());
  EXPECT_EQ(result->view_names.size(), 10u);
}

TEST(Intrinsics, PartialCharucoViewsCalibrate) {
  auto views = projected_views(testing::charuco_7x5(), 10, 0.2, 9);
  // Keep a different 70 % of the corners in each view, as when fingers cover the board.
  cv::RNG rng(10);
  for (auto& v : views) {
    BoardView partial = v;
    partial.image_px.clear();
    partial.board_mm.clear();
    partial.corner_ids.clear();
    for (std::size_t i = 0; i < v.corner_ids.size(); ++i) {
      if (rng.uniform(0.0, 1.0) < 0.7) {
        partial.image_px.push_back(v.image_px[i]);
        partial.board_mm.push_back(v.board_mm[i]);
        partial.corner_ids.push_back(v.corner_ids[i]);
      }
    }
    v = partial;
  }
  const auto result = calibrate(views);
  ASSERT_TRUE(result) << result.error();
  EXPECT_LT(std::abs(result->intrinsics.fx() / 1000.0 - 1), 0.01);
}

TEST(Intrinsics, TooFewViewsIsAnError) {
  const auto result = calibrate(projected_views(chessboard_9x6(), 3, 0.3, 1));
  ASSERT_FALSE(result);
  EXPECT_NE(result.error().find("at least 4"), std::string::npos) << result.error();
}

TEST(Intrinsics, MixedImageSizesIsAnError) {
  auto views = projected_views(chessboard_9x6(), 6, 0.3, 2);
  views[3].image_size = {1280, 720};
  const auto result = calibrate(views);
  ASSERT_FALSE(result);
  EXPECT_NE(result.error().find("mixed image sizes"), std::string::npos) << result.error();
}

TEST(Intrinsics, ViewsWithTooFewCornersAreDroppedFirst) {
  auto views = projected_views(chessboard_9x6(), 6, 0.3, 3);
  views[2].image_px.resize(4);
  views[2].board_mm.resize(4);
  views[2].corner_ids.resize(4);
  const auto result = calibrate(views);
  ASSERT_TRUE(result) << result.error();
  ASSERT_EQ(result->dropped.size(), 1u);
  EXPECT_NE(result->dropped[0].reason.find("only 4 corners"), std::string::npos);
}

}  // namespace
}  // namespace duels::calib
