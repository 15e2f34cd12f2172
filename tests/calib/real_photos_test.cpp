// Calibration on real photos (OpenCV sample data): fit quality and leave-one-out stability.
#include <gtest/gtest.h>

#include <opencv2/imgcodecs.hpp>

#include <cmath>
#include <string>

#include "calib/detect.hpp"
#include "calib/image_source.hpp"
#include "calib/intrinsics.hpp"
#include "test_paths.hpp"

namespace duels::calib {
namespace {

const std::string kData = duels_test::test_data_dir();

PatternSpec chessboard_9x6() {
  PatternSpec spec;
  spec.kind = PatternKind::kChessboard;
  spec.cols = 9;
  spec.rows = 6;
  spec.square_mm = 25;
  return spec;
}

// Detection runs once for the whole suite (13 photos).
const FolderDetections& photos() {
  static const FolderDetections found =
      detect_in_folder(kData + "/calib-chessboard-9x6", chessboard_9x6());
  return found;
}

TEST(RealPhotos, BoardFoundInEveryPhoto) {
  EXPECT_EQ(photos().views.size(), 13u);
  for (const auto& m : photos().misses)
    ADD_FAILURE() << m.name << ": " << m.reason;
  EXPECT_EQ(photos().image_size, cv::Size(640, 480));
}

TEST(RealPhotos, RmsUnderHalfPixel) {
  const auto result = calibrate(photos().views);
  ASSERT_TRUE(result) << result.error();
  EXPECT_LE(result->rms_px, 0.5);
  EXPECT_GE(result->view_names.size(), 11u);
  for (const auto& d : result->dropped) {
    EXPECT_FALSE(d.reason.empty());
    std::printf("dropped %s: %s\n", d.name.c_str(), d.reason.c_str());
  }
  // Sane camera: principal point near the image centre, square pixels.
  EXPECT_NEAR(result->intrinsics.cx(), 320, 40);
  EXPECT_NEAR(result->intrinsics.cy(), 240, 40);
  EXPECT_NEAR(result->intrinsics.fx() / result->intrinsics.fy(), 1.0, 0.02);
  RecordProperty("rms_px", std::to_string(result->rms_px));
  std::printf("real photos: rms %.3f px, fx %.2f fy %.2f cx %.2f cy %.2f, %zu views\n",
              result->rms_px, result->intrinsics.fx(), result->intrinsics.fy(),
              result->intrinsics.cx(), result->intrinsics.cy(), result->view_names.size());
}

TEST(RealPhotos, LeaveOneOutFocalLengthWithinOnePercent) {
  const auto& views = photos().views;
  const auto full = calibrate(views);
  ASSERT_TRUE(full) << full.error();
  double worst = 0;
  for (std::size_t skip = 0; skip < views.size(); ++skip) {
    std::vector<BoardView> rest;
    for (std::size_t i = 0; i < views.size(); ++i) {
      if (i != skip) rest.push_back(views[i]);
    }
    const auto r = calibrate(rest);
    ASSERT_TRUE(r) << r.error();
    const double rel = std::abs(r->intrinsics.fx() / full->intrinsics.fx() - 1.0);
    worst = std::max(worst, rel);
    EXPECT_LT(rel, 0.01) << "without " << views[skip].name;
  }
  std::printf("leave-one-out: worst fx change %.3f %%\n", worst * 100);
}

TEST(RealPhotos, CharucoPhotoCornersFound) {
  const cv::Mat photo = cv::imread(kData + "/charuco-board-photo.jpg");
  ASSERT_FALSE(photo.empty());
  PatternSpec spec;
  spec.kind = PatternKind::kCharuco;
  spec.cols = 5;
  spec.rows = 7;
  spec.square_mm = 40;
  spec.marker_mm = 24;
  spec.dictionary = "DICT_6X6_250";
  const auto view = detect_board(photo, spec);
  ASSERT_TRUE(view) << view.error();
  EXPECT_EQ(view->corner_ids.size(), 24u);  // all 4x6 inner corners
  // Corners lie on a regular grid: neighbours along a row are about one square apart.
  for (std::size_t i = 0; i + 1 < view->corner_ids.size(); ++i) {
    if (view->corner_ids[i] / 4 == view->corner_ids[i + 1] / 4) {
      EXPECT_NEAR(cv::norm(view->image_px[i + 1] - view->image_px[i]), 200, 40);
    }
  }
}

}  // namespace
}  // namespace duels::calib
