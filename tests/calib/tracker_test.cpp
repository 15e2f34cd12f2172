// Continuous re-registration from the corner markers: a bumped camera is noticed (> 0.1" at
// the far edge), reported, and re-locked once it is still; small jitter is not a bump.
#include <gtest/gtest.h>

#include "calib/table_tracker.hpp"
#include "fixtures.hpp"

namespace duels::calib {
namespace {

const TableGeometry kTable{60, 60};

// What the detector would report for the corner markers seen from `pose` (0.3 px noise).
MarkerDetections seen_from(const Pose& pose, cv::RNG& rng, int hide = -1) {
  const TablePlane plane(testing::table_webcam(), pose, kTable);
  MarkerDetections d;
  for (const auto& m : testing::corner_markers().markers) {
    if (m.id == hide) continue;
    const double h = m.side_in / 2;
    std::array<cv::Point2f, 4> corners;
    const cv::Point3d c[4] = {{m.centre_in.x - h, m.centre_in.y + h, 0},
                              {m.centre_in.x + h, m.centre_in.y + h, 0},
                              {m.centre_in.x + h, m.centre_in.y - h, 0},
                              {m.centre_in.x - h, m.centre_in.y - h, 0}};
    for (int k = 0; k < 4; ++k) {
      const cv::Point2d px = *plane.table_to_image(c[k]);
      corners[static_cast<std::size_t>(k)] =
          cv::Point2f(static_cast<float>(px.x + rng.gaussian(0.21)),
                      static_cast<float>(px.y + rng.gaussian(0.21)));
    }
    d.ids.push_back(m.id);
    d.corners_px.push_back(corners);
  }
  return d;
}

Pose bumped(const Pose& pose, double yaw_deg) {
  Pose out = pose;
  cv::Matx33d r;
  cv::Rodrigues(pose.rvec, r);
  cv::Matx33d turn;
  cv::Rodrigues(cv::Vec3d(0, yaw_deg * CV_PI / 180, 0), turn);
  cv::Rodrigues(turn * r, out.rvec);
  out.tvec = turn * pose.tvec;
  return out;
}

TEST(TableTracker, RegistersAfterStillFramesThenStaysLockedUnderJitter) {
  TableTracker tracker(testing::table_webcam(), testing::corner_markers(), kTable);
  cv::RNG rng(1);
  const Pose pose = testing::table_camera_pose();
  TrackerStatus s;
  for (int i = 0; i < 4; ++i) {
    s = tracker.update(seen_from(pose, rng));
    EXPECT_EQ(s.state, TrackerState::kSearching);
  }
  s = tracker.update(seen_from(pose, rng));
  EXPECT_EQ(s.state, TrackerState::kLocked);
  EXPECT_TRUE(s.relocked);
  for (int i = 0; i < 60; ++i) {
    s = tracker.update(seen_from(pose, rng));
    EXPECT_EQ(s.state, TrackerState::kLocked) << "frame " << i << " shift " << s.far_edge_shift_in;
    EXPECT_LT(s.far_edge_shift_in, 0.1);
  }
}

TEST(TableTracker, BumpIsReportedAndRecovered) {
  TableTracker tracker(testing::table_webcam(), testing::corner_markers(), kTable);
  const Pose pose = testing::table_camera_pose();
  tracker.set_reference(TablePlane(testing::table_webcam(), pose, kTable));
  cv::RNG rng(2);
  const Pose moved = bumped(pose, 0.4);  // a 0.4 degree knock: ~0.5" at the far edge
  const double true_shift =
      TableTracker::far_edge_shift_in(TablePlane(testing::table_webcam(), pose, kTable),
                                      TablePlane(testing::table_webcam(), moved, kTable));
  ASSERT_GT(true_shift, 0.1);
  TrackerStatus s = tracker.update(seen_from(moved, rng));
  EXPECT_EQ(s.state, TrackerState::kLocked);  // one frame could be a glitch
  s = tracker.update(seen_from(moved, rng));
  EXPECT_EQ(s.state, TrackerState::kMoved);
  EXPECT_NEAR(s.far_edge_shift_in, true_shift, 0.1);
  EXPECT_NE(s.message.find("camera moved"), std::string::npos);
  int frames = 0;
  while (tracker.state() == TrackerState::kMoved && frames < 20) {
    s = tracker.update(seen_from(moved, rng));
    ++frames;
  }
  EXPECT_EQ(tracker.state(), TrackerState::kLocked);
  EXPECT_TRUE(s.relocked);
  // The new registration is the moved camera's.
  const double residual = TableTracker::far_edge_shift_in(
      tracker.reference()->plane, TablePlane(testing::table_webcam(), moved, kTable));
  EXPECT_LT(residual, 0.05);
}

TEST(TableTracker, CoveredMarkersAreReportedNotTakenForAMove) {
  TableTracker tracker(testing::table_webcam(), testing::corner_markers(), kTable);
  tracker.set_reference(TablePlane(testing::table_webcam(), testing::table_camera_pose(), kTable));
  cv::RNG rng(3);
  MarkerDetections two = seen_from(testing::table_camera_pose(), rng);
  two.ids.resize(2);
  two.corners_px.resize(2);
  const TrackerStatus s = tracker.update(two);
  EXPECT_EQ(s.state, TrackerState::kLocked);
  EXPECT_NE(s.message.find("only 2 of 4"), std::string::npos) << s.message;
  // Three markers are still enough to check the pose.
  const TrackerStatus three = tracker.update(seen_from(testing::table_camera_pose(), rng, 2));
  EXPECT_EQ(three.markers_seen, 3);
  EXPECT_EQ(three.state, TrackerState::kLocked);
}

}  // namespace
}  // namespace duels::calib
