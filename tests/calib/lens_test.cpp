// The lens model: our distortion equals OpenCV's projection, and its inverse is exact.
#include <gtest/gtest.h>

#include <opencv2/calib3d.hpp>

#include "calib/lens.hpp"
#include "calib/synthetic.hpp"

namespace duels::calib {
namespace {

std::vector<std::vector<double>> lenses() {
  return {{},
          {-0.12, 0.08, 0.0008, -0.0005, -0.02},
          {0.25, -0.1, 0.002, 0.001, 0.03},
          {-0.2, 0.05, 0, 0, -0.01, 0.05, 0.01, 0.002},
          {-0.1, 0.02, 0.001, 0.0, 0.0, 0, 0, 0, 0.001, -0.0005, 0.0008, 0.0002}};
}

TEST(Lens, ProjectionMatchesOpenCv) {
  cv::RNG rng(1);
  for (const auto& dist : lenses()) {
    Intrinsics cam = example_webcam_1080p();
    cam.dist = dist;
    for (int i = 0; i < 200; ++i) {
      const cv::Point3d p(rng.uniform(-0.7, 0.7), rng.uniform(-0.45, 0.45), 1.0);
      std::vector<cv::Point2d> expected;
      cv::projectPoints(std::vector<cv::Point3d>{p}, cv::Vec3d(), cv::Vec3d(), cam.camera_matrix,
                        dist.empty() ? std::vector<double>{0, 0, 0, 0} : dist, expected);
      const cv::Point2d ours = project_point(cam, Pose{}, p);
      EXPECT_LT(cv::norm(ours - expected[0]), 1e-9);
    }
  }
}

// Property: for random rays across a 1080p field of view, ray → pixel → ray and back to the
// pixel are exact (sampling rays, not pixels: strong lenses fold over near the image corners,
// where a pixel has no inverse at all).
TEST(Lens, InverseIsExactAcrossTheImage) {
  cv::RNG rng(2);
  for (const auto& dist : lenses()) {
    Intrinsics cam = example_webcam_1080p();
    cam.dist = dist;
    for (int i = 0; i < 500; ++i) {
      const cv::Point2d ray(rng.uniform(-0.9, 0.9), rng.uniform(-0.5, 0.5));
      const cv::Point2d px = normalized_to_pixel(cam, ray);
      const auto back = pixel_to_normalized(cam, px);
      ASSERT_TRUE(back) << px << " lens " << cv::Mat(dist).t();
      EXPECT_LT(cv::norm(*back - ray), 1e-11) << px;
      EXPECT_LT(cv::norm(normalized_to_pixel(cam, *back) - px), 1e-9) << px;
    }
  }
}

TEST(Lens, MoreExactThanOpenCvDefaultUndistort) {
  Intrinsics cam = example_webcam_1080p();
  cam.dist = {-0.3, 0.12, 0, 0, -0.02};
  const cv::Point2d corner(5, 5);
  std::vector<cv::Point2d> opencv;
  cv::undistortPoints(std::vector<cv::Point2d>{corner}, opencv, cam.camera_matrix, cam.dist);
  const double opencv_err = cv::norm(normalized_to_pixel(cam, opencv[0]) - corner);
  const double ours_err =
      cv::norm(normalized_to_pixel(cam, *pixel_to_normalized(cam, corner)) - corner);
  EXPECT_LT(ours_err, 1e-9);
  EXPECT_GT(opencv_err, ours_err);  // OpenCV's default is 5 fixed-point iterations
}

TEST(Lens, PoseHelpers) {
  const Pose pose = look_at({0, 0, 10}, {0, 0, 0}, {0, 1, 0});
  const cv::Vec3d c = camera_centre_in_object(pose);
  EXPECT_NEAR(cv::norm(c - cv::Vec3d(0, 0, 10)), 0, 1e-12);
  // The target lands on the principal point.
  const Intrinsics cam = example_webcam_1080p();
  const cv::Point2d px = project_point(cam, pose, {0, 0, 0});
  EXPECT_NEAR(px.x, cam.cx(), 1e-9);
  EXPECT_NEAR(px.y, cam.cy(), 1e-9);
  // Seen from above with "up" = +y, +x is to the right and +y up in the image.
  EXPECT_GT(project_point(cam, pose, {1, 0, 0}).x, px.x);
  EXPECT_LT(project_point(cam, pose, {0, 1, 0}).y, px.y);
}

}  // namespace
}  // namespace duels::calib
