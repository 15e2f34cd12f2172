// The table plane: pixel <-> inch mapping (on the table and above it), registration from the
// corner markers or a board, and the accuracy estimate, checked against rendered scenes with a
// known camera.
#include <gtest/gtest.h>

#include <cmath>

#include "calib/intrinsics.hpp"
#include "calib/synthetic.hpp"
#include "calib/table.hpp"
#include "fixtures.hpp"

namespace duels::calib {
namespace {

using testing::corner_markers;
using testing::table_camera_pose;
using testing::table_webcam;

constexpr double kNoisePx = 0.3;  // injected corner noise, 2-D RMS
const TableGeometry kTable{60, 60};

// RMS and max error (inches) of mapping the true pixels of a 13x13 grid over the table (at a
// height) back to the table through an estimated plane.
struct MapError {
  double rms_in = 0;
  double max_in = 0;
};
MapError mapping_error(const TablePlane& truth, const TablePlane& estimate, double height_in) {
  double sum = 0;
  double worst = 0;
  int n = 0;
  for (int i = 0; i <= 12; ++i) {
    for (int j = 0; j <= 12; ++j) {
      const cv::Point3d p(5.0 * i, 5.0 * j, height_in);
      const auto px = truth.table_to_image(p);
      const auto back = px ? estimate.image_to_table(*px, height_in) : std::nullopt;
      const double e = back ? cv::norm(*back - cv::Point2d(p.x, p.y)) : 1e9;
      sum += e * e;
      worst = std::max(worst, e);
      ++n;
    }
  }
  return {std::sqrt(sum / n), worst};
}

TEST(TablePlane, PixelsAndInchesRoundTrip) {
  const TablePlane plane(table_webcam(), table_camera_pose(), kTable);
  for (double h : {0.0, 1.0, 3.5}) {
    for (int i = 0; i <= 6; ++i) {
      for (int j = 0; j <= 6; ++j) {
        const cv::Point3d p(10.0 * i, 10.0 * j, h);
        const auto px = plane.table_to_image(p);
        ASSERT_TRUE(px);
        const auto back = plane.image_to_table(*px, h);
        ASSERT_TRUE(back);
        EXPECT_LT(cv::norm(*back - cv::Point2d(p.x, p.y)), 1e-6);
      }
    }
  }
}

// A base's top 1.5" above the table seen at pixel px is NOT where the table point at px is:
// mapping through the table plane (a homography) would put it inches off.
TEST(TablePlane, PointsAboveTheTableNeedTheirHeight) {
  const TablePlane plane(table_webcam(), table_camera_pose(), kTable);
  const cv::Point3d top(45, 50, 1.5);
  const auto px = plane.table_to_image(top);
  ASSERT_TRUE(px);
  const auto with_height = plane.image_to_table(*px, 1.5);
  const auto on_table = plane.image_to_table(*px, 0.0);
  EXPECT_LT(cv::norm(*with_height - cv::Point2d(45, 50)), 1e-6);
  EXPECT_GT(cv::norm(*on_table - cv::Point2d(45, 50)), 1.0);
}

TEST(TablePlane, CameraGeometryMatchesTheScene) {
  const TablePlane plane(table_webcam(), table_camera_pose(), kTable);
  const cv::Point3d c = plane.camera_position_in();
  EXPECT_NEAR(c.z, 1300 / 25.4 * std::sqrt(0.5), 1e-6);  // 45 degrees up from the centre
  EXPECT_NEAR(std::hypot(c.x - 30, c.y - 30, c.z), 1300 / 25.4, 1e-6);
  EXPECT_GT(plane.px_per_in_at({30, 0}), plane.px_per_in_at({30, 60}));  // near looks bigger
}

TEST(TablePlane, RayAboveTheHorizonHasNoTablePoint) {
  const TablePlane plane(table_webcam(), table_camera_pose(), kTable);
  // The top-centre of the image looks over the far edge toward the horizon... make sure a ray
  // pointing up (camera y negative enough) is refused rather than mapped behind the camera.
  Pose up = table_camera_pose();
  cv::Matx33d r;
  cv::Rodrigues(up.rvec, r);
  const cv::Vec3d sky = r * cv::Vec3d(0, 1, 1);  // a direction going up, in the camera frame
  const cv::Point2d px = normalized_to_pixel(table_webcam(), {sky[0] / sky[2], sky[1] / sky[2]});
  EXPECT_FALSE(plane.image_to_table(px));
}

// The whole chain of the claim, on rendered images: calibrate the intrinsics from 15
// rendered board views (0.3 px noise), register the table from a rendered image of the four
// corner markers (0.3 px noise), and compare the pixel→inch mapping with the truth.
struct TableRun {
  CalibrationResult intrinsics;
  Registration registration;
  int markers_found = 0;
};

const TableRun& rendered_table_run() {
  static const TableRun run = [] {
    TableRun r;
    const SyntheticCamera& synth = testing::table_webcam_renderer();
    const Intrinsics cam = table_webcam();
    const PatternSpec spec = testing::chessboard_9x6();
    const auto board = board_texture(spec, 4.0);
    cv::RNG rng(4242);
    std::vector<BoardView> views;
    const auto poses = calibration_poses(cam, spec, 15, 99);
    for (std::size_t i = 0; i < poses.size(); ++i) {
      auto v = detect_board(synth.render(board, poses[i], {0.5, 2.0, 700 + i}), spec);
      if (!v) continue;
      jitter_corners(*v, kNoisePx, rng);
      v->name = "view " + std::to_string(i);
      views.push_back(*v);
    }
    r.intrinsics = calibrate(views).value();
    const auto tex = table_texture(kTable, corner_markers());
    cv::Mat canvas = synth.canvas(cv::Scalar(60));
    synth.draw_plane(canvas, tex, table_camera_pose());
    const cv::Mat frame = synth.finish(canvas, {0.5, 2.0, 31});
    const auto found = detect_markers(frame, "DICT_4X4_50").value();
    r.markers_found = static_cast<int>(found.ids.size());
    TableCorrespondences points = marker_correspondences(found, corner_markers());
    for (auto& p : points.image_px) {
      p.x += rng.gaussian(kNoisePx / std::sqrt(2.0));
      p.y += rng.gaussian(kNoisePx / std::sqrt(2.0));
    }
    r.registration = register_table(r.intrinsics.intrinsics, points, kTable).value();
    return r;
  }();
  return run;
}

TEST(TableRendered, MappingErrorUnderFiveHundredthsOfAnInch) {
  const TablePlane truth(table_webcam(), table_camera_pose(), kTable);
  const TableRun& run = rendered_table_run();
  ASSERT_EQ(run.markers_found, 4);  // all four corner markers
  const MapError on_table = mapping_error(truth, run.registration.plane, 0.0);
  const MapError base_top = mapping_error(truth, run.registration.plane, 1.5);
  EXPECT_LE(on_table.rms_in, 0.05);
  EXPECT_LE(base_top.rms_in, 0.05);
  std::printf(
      "table 60x60 in, 1080p, 1.3 m at 45 deg: mapping error rms %.4f in (max %.4f), "
      "1.5 in up rms %.4f in; registration rms %.3f px\n",
      on_table.rms_in, on_table.max_in, base_top.rms_in, run.registration.rms_px);
}

TEST(TableRendered, AccuracyEstimateIsOfTheRightSize) {
  const TablePlane truth(table_webcam(), table_camera_pose(), kTable);
  const TableRun& run = rendered_table_run();
  const AccuracyReport report =
      estimate_accuracy(run.registration.plane, run.intrinsics.covariance, run.registration.points,
                        registration_noise_px(run.registration));
  const MapError actual = mapping_error(truth, run.registration.plane, 0.0);
  EXPECT_GT(report.rms_in, 0.0);
  EXPECT_LT(report.rms_in, 0.05);
  EXPECT_LT(actual.rms_in, 3 * report.rms_in);  // one draw: not far beyond the estimate
  EXPECT_NEAR(report.visible_fraction, 1.0, 1e-9);
  std::printf(
      "estimated accuracy: rms %.4f in, p95 %.4f in, near %.4f in, far %.4f in (actual "
      "rms %.4f in)\n",
      report.rms_in, report.p95_in, report.near_rms_in, report.far_rms_in, actual.rms_in);
}

// The estimate is calibrated: over many independent calibrations + registrations (projected
// corners, no rendering), the mean squared mapping error matches the predicted one.
TEST(TableAccuracy, PredictionMatchesRepeatedTrials) {
  const Intrinsics cam = table_webcam();
  const TablePlane truth(cam, table_camera_pose(), kTable);
  const PatternSpec spec = testing::chessboard_9x6();
  const auto poses = calibration_poses(cam, spec, 12, 3);
  const MarkerLayout layout = corner_markers();
  cv::RNG rng(12345);
  double actual_sq = 0;
  double predicted_sq = 0;
  constexpr int kTrials = 24;
  for (int t = 0; t < kTrials; ++t) {
    std::vector<BoardView> views;
    for (const auto& pose : poses) {
      BoardView v = project_board(cam, spec, pose);
      jitter_corners(v, kNoisePx, rng);
      views.push_back(v);
    }
    const auto calib = calibrate(views);
    ASSERT_TRUE(calib) << calib.error();
    TableCorrespondences points;
    for (const auto& m : layout.markers) {
      const double h = m.side_in / 2;
      for (const cv::Point3d& corner : {cv::Point3d(m.centre_in.x - h, m.centre_in.y + h, 0),
                                        cv::Point3d(m.centre_in.x + h, m.centre_in.y + h, 0),
                                        cv::Point3d(m.centre_in.x + h, m.centre_in.y - h, 0),
                                        cv::Point3d(m.centre_in.x - h, m.centre_in.y - h, 0)}) {
        cv::Point2d px = *truth.table_to_image(corner);
        px.x += rng.gaussian(kNoisePx / std::sqrt(2.0));
        px.y += rng.gaussian(kNoisePx / std::sqrt(2.0));
        points.table_in.push_back(corner);
        points.image_px.push_back(px);
      }
    }
    const auto reg = register_table(calib->intrinsics, points, kTable);
    ASSERT_TRUE(reg) << reg.error();
    const double actual = mapping_error(truth, reg->plane, 0.0).rms_in;
    actual_sq += actual * actual;
    if (t < 4) {  // the prediction hardly varies between trials; a few are enough
      AccuracyOptions options;
      options.samples = 150;
      options.seed = static_cast<std::uint64_t>(t + 1);
      const auto report = estimate_accuracy(reg->plane, calib->covariance, reg->points,
                                            registration_noise_px(*reg), options);
      predicted_sq += report.rms_in * report.rms_in;
    }
  }
  const double actual_rms = std::sqrt(actual_sq / kTrials);
  const double predicted_rms = std::sqrt(predicted_sq / 4);
  EXPECT_GT(actual_rms / predicted_rms, 0.6);
  EXPECT_LT(actual_rms / predicted_rms, 1.6);
  std::printf("accuracy: predicted rms %.4f in, observed over %d trials %.4f in\n", predicted_rms,
              kTrials, actual_rms);
}

TEST(TableRegistration, BoardLyingOnTheTable) {
  const Intrinsics cam = table_webcam();
  const TablePlane truth(cam, table_camera_pose(), kTable);
  PatternSpec spec = testing::chessboard_9x6();
  spec.square_mm = 60;  // a 600 x 420 mm board
  const BoardPlacement placement{{20, 40}, 15.0};
  // Where the board's corners are on the table, through the placement; their true pixels.
  BoardView view;
  view.image_size = cam.image_size;
  view.board_mm = board_corners_mm(spec);
  for (std::size_t i = 0; i < view.board_mm.size(); ++i)
    view.corner_ids.push_back(static_cast<int>(i));
  view.image_px.resize(view.board_mm.size());
  const TableCorrespondences where = board_correspondences(view, spec, placement);
  cv::RNG rng(3);
  for (std::size_t i = 0; i < where.table_in.size(); ++i) {
    const cv::Point2d px = *truth.table_to_image(where.table_in[i]);
    view.image_px[i] = cv::Point2f(static_cast<float>(px.x + rng.gaussian(0.2)),
                                   static_cast<float>(px.y + rng.gaussian(0.2)));
  }
  // The first printed corner is 1 square right and 1 square down from the top-left corner.
  EXPECT_NEAR(where.table_in[0].x,
              20 + 60 / 25.4 * std::cos(15 * CV_PI / 180) + 60 / 25.4 * std::sin(15 * CV_PI / 180),
              1e-9);
  const auto reg = register_table(cam, board_correspondences(view, spec, placement), kTable);
  ASSERT_TRUE(reg) << reg.error();
  EXPECT_LT(mapping_error(truth, reg->plane, 0.0).rms_in, 0.2);
  const auto report = estimate_accuracy(reg->plane, cv::Mat(), reg->points, 0.28);
  EXPECT_GT(report.far_rms_in, 0.0);
}

TEST(TableRegistration, WrongLayoutPutsTheCameraUnderTheTableAndIsRefused) {
  const TablePlane truth(table_webcam(), table_camera_pose(), kTable);
  // Markers found where the layout says, but with ids swapped left/right (a mirror image).
  TableCorrespondences points;
  for (const auto& m : corner_markers().markers) {
    const double h = m.side_in / 2;
    for (const cv::Point3d& c : {cv::Point3d(m.centre_in.x - h, m.centre_in.y + h, 0),
                                 cv::Point3d(m.centre_in.x + h, m.centre_in.y + h, 0),
                                 cv::Point3d(m.centre_in.x + h, m.centre_in.y - h, 0),
                                 cv::Point3d(m.centre_in.x - h, m.centre_in.y - h, 0)}) {
      points.image_px.push_back(*truth.table_to_image(c));
      points.table_in.emplace_back(60 - c.x, c.y, 0);
    }
  }
  const auto reg = register_table(table_webcam(), points, kTable);
  ASSERT_FALSE(reg);
  EXPECT_NE(reg.error().find("under the table"), std::string::npos) << reg.error();
}

TEST(TableRegistration, TooFewPointsAndCollinearPointsAreRefused) {
  TableCorrespondences points;
  points.table_in = {{0, 0, 0}, {10, 0, 0}, {20, 0, 0}};
  points.image_px = {{100, 100}, {200, 100}, {300, 100}};
  EXPECT_FALSE(register_table(table_webcam(), points, kTable));
  points.table_in.emplace_back(30, 0, 0);
  points.image_px.emplace_back(400, 100);
  const auto reg = register_table(table_webcam(), points, kTable);
  ASSERT_FALSE(reg);
  EXPECT_NE(reg.error().find("one line"), std::string::npos) << reg.error();
}

TEST(TableLayout, CornerSetSitsInTheCorners) {
  const MarkerLayout layout = corner_marker_layout(kTable, 5, 1.5);
  ASSERT_EQ(layout.markers.size(), 4u);
  EXPECT_EQ(layout.markers[0].centre_in, cv::Point2d(4, 4));
  EXPECT_EQ(layout.markers[2].centre_in, cv::Point2d(56, 56));
  EXPECT_EQ(layout.markers[3].id, 3);
}

}  // namespace
}  // namespace duels::calib
