// Where the camera can read a base target: analytic set-ups whose readable area is known.
#include <gtest/gtest.h>

#include <cmath>

#include "calib/coverage.hpp"
#include "calib/synthetic.hpp"
#include "calib/table.hpp"

namespace duels::calib {
namespace {

constexpr double kHeight = 100;  // inches above the table
constexpr double kTop = 0.75;    // the bases' tops

// A lens-perfect camera straight above the table's middle: a horizontal plane maps at one
// scale, fx / (camera height − base height) pixels per inch, everywhere.
TablePlane overhead(double px_per_cell) {
  Intrinsics cam;
  cam.image_size = cv::Size(1280, 1280);
  const double fx = px_per_cell * 6 * (kHeight - kTop);
  cam.camera_matrix = cv::Matx33d(fx, 0, 640, 0, fx, 640, 0, 0, 1);
  const Pose pose = look_at({30, 30, kHeight}, {30, 30, 0}, {0, 1, 0});
  return TablePlane(cam, pose, TableGeometry{60, 60});
}

TEST(Coverage, OverheadCameraReadsEverywhereAboveTheLimit) {
  const TableCoverage map = table_coverage(overhead(2.4), BaseTargetSpec{});
  EXPECT_EQ(map.readable_share, 1.0);
  EXPECT_EQ(map.in_view_share, 1.0);
  for (const auto& cell : map.cells)
    EXPECT_NEAR(cell.px_per_cell, 2.4, 1e-6);
  ASSERT_EQ(map.advice.size(), 1u);
  EXPECT_NE(map.advice[0].find("every base target"), std::string::npos) << map.advice[0];
  EXPECT_EQ(map.side_needed_in, 1.0);
}

TEST(Coverage, OverheadCameraBelowTheLimitSaysWhatWouldReach) {
  const TableCoverage map = table_coverage(overhead(1.6), BaseTargetSpec{});
  EXPECT_EQ(map.readable_share, 0.0);
  EXPECT_EQ(map.in_view_share, 1.0);
  // 2 px wanted, 1.6 got: a target 1.25 times larger, or 20 % closer.
  EXPECT_EQ(map.side_needed_in, 1.25);
  ASSERT_FALSE(map.advice.empty());
  EXPECT_NE(map.advice[0].find("use 1.25-inch targets"), std::string::npos) << map.advice[0];
  EXPECT_NE(map.advice[0].find("the far 60 inches"), std::string::npos) << map.advice[0];
  // The farthest spot is a table corner: sqrt(30² + 30² + 99.25²) ≈ 107.9"; 20 % of it ≈ 21.6".
  EXPECT_NE(map.advice[0].find("about 22 inches closer"), std::string::npos) << map.advice[0];
}

TEST(Coverage, TargetsHalfOutOfThePictureAreNotCounted) {
  TablePlane plane = overhead(2.4);
  Intrinsics cam = plane.camera();
  cam.image_size = cv::Size(1280, 640);  // only the far half of the table (image top = far)
  const TableCoverage map =
      table_coverage(TablePlane(cam, plane.pose(), plane.table()), BaseTargetSpec{});
  EXPECT_NEAR(map.in_view_share, 0.5, 0.05);
  EXPECT_NEAR(map.readable_by_third[2], 1.0, 1e-9);
  EXPECT_EQ(map.readable_by_third[0], 0.0);
  ASSERT_FALSE(map.advice.empty());
  EXPECT_NE(map.advice.back().find("outside the picture (the near edge"), std::string::npos)
      << map.advice.back();
}

// The issue's webcam: 720p, 70° across, 61" from the table's middle at 40° elevation. The far
// side gets fewer pixels than the near side.
TEST(Coverage, WebcamLosesTheFarEdgeFirst) {
  Intrinsics cam;
  cam.image_size = cv::Size(1280, 720);
  const double fx = 640 / std::tan(35 * CV_PI / 180);
  cam.camera_matrix = cv::Matx33d(fx, 0, 640, 0, fx, 360, 0, 0, 1);
  const double e = 40 * CV_PI / 180;
  const cv::Vec3d target(30, 30, 0);
  const cv::Vec3d eye = target + 61 * cv::Vec3d(0, -std::cos(e), std::sin(e));
  const TablePlane plane(cam, look_at(eye, target, {0, 0, 1}), TableGeometry{60, 60});
  const TableCoverage map = table_coverage(plane, BaseTargetSpec{});
  EXPECT_GT(map.readable_by_third[0], map.readable_by_third[2]);
  // Every spot's pixels per cell falls with depth along the middle of the table.
  for (int r = 1; r < map.rows; ++r) {
    const auto& nearer = map.at(map.cols / 2, r - 1);
    const auto& farther = map.at(map.cols / 2, r);
    if (nearer.in_view && farther.in_view) {
      EXPECT_LT(farther.px_per_cell, nearer.px_per_cell);
    }
  }
  ASSERT_FALSE(map.advice.empty());
  EXPECT_NE(map.advice[0].find("at 720p"), std::string::npos) << map.advice[0];
  const cv::Mat picture = draw_coverage(map, 4);
  EXPECT_EQ(picture.size(), cv::Size(240, 240));
}

}  // namespace
}  // namespace duels::calib
