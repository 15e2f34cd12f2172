#pragma once
// Shared test fixtures: the synthetic cameras (their ray grids take a second to build, so each
// is built once per test run) and the standard boards.

#include "calib/pattern.hpp"
#include "calib/synthetic.hpp"
#include "calib/table.hpp"

#include <cmath>

namespace duels::calib::testing {

/// The 9x6, 25 mm chessboard of the OpenCV samples.
inline PatternSpec chessboard_9x6() {
  PatternSpec spec;
  spec.kind = PatternKind::kChessboard;
  spec.cols = 9;
  spec.rows = 6;
  spec.square_mm = 25;
  return spec;
}

/// A 7x5-square ChArUco board.
inline PatternSpec charuco_7x5() {
  PatternSpec spec;
  spec.kind = PatternKind::kCharuco;
  spec.cols = 7;
  spec.rows = 5;
  spec.square_mm = 30;
  spec.marker_mm = 22;
  spec.dictionary = "DICT_5X5_100";
  return spec;
}

/// example_webcam_1080p() with 2x2 supersampling, built once.
inline const SyntheticCamera& webcam_1080p() {
  static const SyntheticCamera camera(example_webcam_1080p(), 2);
  return camera;
}

/// The same lens scaled to 640x360 (fx = 333.3), for tests that need many frames.
inline Intrinsics webcam_640() {
  Intrinsics cam = example_webcam_1080p();
  const double s = 640.0 / 1920.0;
  cam.image_size = {640, 360};
  cam.camera_matrix(0, 0) *= s;
  cam.camera_matrix(1, 1) *= s;
  cam.camera_matrix(0, 2) = (cam.camera_matrix(0, 2) + 0.5) * s - 0.5;
  cam.camera_matrix(1, 2) = (cam.camera_matrix(1, 2) + 0.5) * s - 0.5;
  return cam;
}

}  // namespace duels::calib::testing

namespace duels::calib::testing {

/// A wide 1080p webcam (fx = fy = 900, the example lens) that sees a whole 60"x60" table from
/// 1.3 m at 45 degrees.
inline Intrinsics table_webcam() {
  Intrinsics cam = example_webcam_1080p();
  cam.camera_matrix(0, 0) = 900;
  cam.camera_matrix(1, 1) = 900;
  return cam;
}

/// table_webcam() with 2x2 supersampling, built once.
inline const SyntheticCamera& table_webcam_renderer() {
  static const SyntheticCamera camera(table_webcam(), 2);
  return camera;
}

/// The camera 1.3 m from the table centre at 45 degrees elevation, on the player's side,
/// aimed 6" short of the centre so the whole table is in the frame. Table frame → camera.
inline Pose table_camera_pose() {
  const double d_in = 1300.0 / 25.4;
  const double h_in = d_in * std::sqrt(0.5);
  return look_at({30, 30 - h_in, h_in}, {30, 24, 0}, {0, 0, 1});
}

/// The printable corner set: four 5" DICT_4X4_50 markers, paper edge at the table edge.
inline MarkerLayout corner_markers() {
  return corner_marker_layout({60, 60}, 5.0, 1.5, "DICT_4X4_50", 0);
}

}  // namespace duels::calib::testing
