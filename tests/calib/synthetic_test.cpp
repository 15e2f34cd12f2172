// The synthetic renderer: exact geometry (corners land where the lens model says), seeded
// reproducibility, and detection accuracy on rendered 1080p frames.
#include <gtest/gtest.h>

#include <opencv2/calib3d.hpp>

#include <cmath>

#include "calib/detect.hpp"
#include "calib/synthetic.hpp"
#include "fixtures.hpp"

namespace duels::calib {
namespace {

PatternSpec chessboard() {
  PatternSpec spec;
  spec.cols = 9;
  spec.rows = 6;
  spec.square_mm = 25;
  return spec;
}

double rms_error(const BoardView& found, const BoardView& truth) {
  double sum = 0;
  int n = 0;
  for (std::size_t i = 0; i < found.corner_ids.size(); ++i) {
    const auto id = static_cast<std::size_t>(found.corner_ids[i]);
    const cv::Point2f d = found.image_px[i] - truth.image_px[id];
    sum += d.dot(d);
    ++n;
  }
  return std::sqrt(sum / n);
}

TEST(Synthetic, RaysInvertTheLensExactly) {
  const Intrinsics cam = example_webcam_1080p();
  Intrinsics small = cam;  // a quarter-size camera keeps the test quick
  small.image_size = {480, 270};
  small.camera_matrix = cam.camera_matrix * 0.25;
  small.camera_matrix(2, 2) = 1;
  const SyntheticCamera synth(small, 2);
  double worst = 0;
  for (int v = 0; v < synth.rays().rows; v += 7) {
    for (int u = 0; u < synth.rays().cols; u += 7) {
      const cv::Vec2f ray = synth.rays().at<cv::Vec2f>(v, u);
      std::vector<cv::Point3d> p{{ray[0], ray[1], 1.0}};
      std::vector<cv::Point2d> px;
      cv::projectPoints(p, cv::Vec3d(), cv::Vec3d(), small.camera_matrix, small.dist, px);
      const cv::Point2d expected((u + 0.5) / 2 - 0.5, (v + 0.5) / 2 - 0.5);
      worst = std::max(worst, cv::norm(px[0] - expected));
    }
  }
  EXPECT_LT(worst, 1e-3);  // float storage of the rays; the solve itself is exact to 1e-9
}

TEST(Synthetic, SameSeedSameImage) {
  const Intrinsics cam = example_webcam_1080p();
  Intrinsics small = cam;
  small.image_size = {320, 180};
  small.camera_matrix = cam.camera_matrix * (1.0 / 6);
  small.camera_matrix(2, 2) = 1;
  const SyntheticCamera synth(small, 1);
  const auto tex = board_texture(chessboard(), 2.0);
  const auto pose = calibration_poses(small, chessboard(), 1, 5).at(0);
  const cv::Mat a = synth.render(tex, pose, {0.5, 3.0, 42});
  const cv::Mat b = synth.render(tex, pose, {0.5, 3.0, 42});
  const cv::Mat c = synth.render(tex, pose, {0.5, 3.0, 43});
  EXPECT_EQ(cv::norm(a, b, cv::NORM_INF), 0.0);
  EXPECT_GT(cv::norm(a, c, cv::NORM_INF), 0.0);
}

TEST(Synthetic, PosesAreVisibleAndVaried) {
  const Intrinsics cam = example_webcam_1080p();
  const auto poses = calibration_poses(cam, chessboard(), 20, 7);
  ASSERT_EQ(poses.size(), 20u);
  for (const auto& p : poses) {
    const BoardView v = project_board(cam, chessboard(), p);
    for (const auto& px : v.image_px) {
      EXPECT_TRUE(cv::Rect(0, 0, 1920, 1080).contains(cv::Point(px)));
    }
  }
  EXPECT_NE(poses[0].tvec, poses[1].tvec);
}

// The detector finds rendered corners to a small fraction of a pixel: the renderer's geometry
// and the sub-pixel refinement agree with the exact projection.
TEST(Synthetic, DetectedCornersMatchProjection1080p) {
  const Intrinsics cam = example_webcam_1080p();
  const SyntheticCamera& synth = testing::webcam_1080p();
  const auto tex = board_texture(chessboard(), 4.0);
  const auto poses = calibration_poses(cam, chessboard(), 4, 11);
  for (std::size_t i = 0; i < poses.size(); ++i) {
    const cv::Mat frame = synth.render(tex, poses[i], {0.6, 2.0, 100 + i});
    const auto found = detect_board(frame, chessboard());
    ASSERT_TRUE(found) << found.error();
    const BoardView truth = project_board(cam, chessboard(), poses[i]);
    const double err = rms_error(*found, truth);
    EXPECT_LT(err, 0.08) << "view " << i;
    std::printf("view %zu: detection error %.3f px RMS\n", i, err);
  }
}

TEST(Synthetic, CharucoBoardRendersAndIsFound) {
  PatternSpec spec;
  spec.kind = PatternKind::kCharuco;
  spec.cols = 7;
  spec.rows = 5;
  spec.square_mm = 30;
  spec.marker_mm = 22;
  spec.dictionary = "DICT_5X5_100";
  const Intrinsics cam = example_webcam_1080p();
  const SyntheticCamera& synth = testing::webcam_1080p();
  const auto tex = board_texture(spec, 4.0);
  const auto pose = calibration_poses(cam, spec, 1, 3).at(0);
  const cv::Mat frame = synth.render(tex, pose, {0.6, 2.0, 9});
  const auto found = detect_board(frame, spec);
  ASSERT_TRUE(found) << found.error();
  EXPECT_EQ(found->corner_ids.size(), 24u);
  const double err = rms_error(*found, project_board(cam, spec, pose));
  EXPECT_LT(err, 0.1);
  std::printf("charuco detection error %.3f px RMS\n", err);
}

// Turned upside down, a 9x6 chessboard still numbers its corners from the black outer square.
TEST(Synthetic, ChessboardCornerOrderFollowsThePrintedBoard) {
  const Intrinsics cam = testing::webcam_640();
  const SyntheticCamera synth(cam, 2);
  const auto tex = board_texture(chessboard(), 2.0);
  for (double turn : {0.0, CV_PI / 2, CV_PI, -CV_PI / 2 + 0.3}) {
    Pose pose;
    pose.rvec = cv::Vec3d(0.2, -0.15, turn);
    pose.tvec = cv::Vec3d(0, 0, 550);
    // Centre the board (its middle is at (100, 62.5) mm in the board frame).
    cv::Matx33d r;
    cv::Rodrigues(pose.rvec, r);
    pose.tvec -= r * cv::Vec3d(100, 62.5, 0);
    const cv::Mat frame = synth.render(tex, pose, {0.5, 1.0, 3});
    const auto found = detect_board(frame, chessboard());
    ASSERT_TRUE(found) << found.error();
    // Same corners in the same order as the truth (a wrong order is off by whole squares).
    EXPECT_LT(rms_error(*found, project_board(cam, chessboard(), pose)), 0.25) << "turn " << turn;
  }
}

}  // namespace
}  // namespace duels::calib
