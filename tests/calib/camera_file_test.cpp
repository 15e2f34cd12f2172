// The calibration file: OpenCV's standard keys, our extras, files from OpenCV's own tools,
// all-or-nothing writes and precise errors.
#include <gtest/gtest.h>

#include <fstream>

#include "calib/camera_file.hpp"
#include "calib/synthetic.hpp"
#include "common/atomic_file.hpp"
#include "common/error.hpp"
#include "fixtures.hpp"
#include "temp_dir.hpp"

namespace duels::calib {
namespace {

CalibrationResult small_calibration() {
  const Intrinsics cam = example_webcam_1080p();
  cv::RNG rng(1);
  std::vector<BoardView> views;
  for (const auto& pose : calibration_poses(cam, testing::chessboard_9x6(), 6, 1)) {
    BoardView v = project_board(cam, testing::chessboard_9x6(), pose,
                                "img" + std::to_string(views.size()) + ".png");
    jitter_corners(v, 0.3, rng);
    views.push_back(v);
  }
  return calibrate(views).value();
}

CameraFile sample_file() {
  CameraFile f =
      camera_file_from(small_calibration(), testing::chessboard_9x6(), "2024-05-01T18:30:00");
  f.dropped.push_back({"blurry.png", "reprojection error 2.10 px is 6.0x the median"});
  TableRecord t;
  t.table = {60, 48};
  t.table_to_camera = {{1.9, 0.1, -0.05}, {-30, 10, 50}};
  t.method = "markers 0,1,2,3 (DICT_4X4_50)";
  t.rms_px = 0.21;
  t.points.table_in = {{4, 4, 0}, {56, 4, 0}, {56, 44, 0}, {4, 44, 0}};
  t.points.image_px = {{100, 900}, {1800, 900}, {1500, 200}, {400, 200}};
  AccuracyReport a;
  a.rms_in = 0.012;
  a.p95_in = 0.02;
  a.max_in = 0.05;
  t.accuracy = a;
  f.table = t;
  return f;
}

TEST(CameraFile, RoundTripsEverything) {
  testing::TempDir dir;
  const CameraFile f = sample_file();
  write_camera_file(dir.file("cam.yml"), f);
  EXPECT_EQ(dir.count(), 1);  // no temporary left behind
  const CameraFile g = read_camera_file(dir.file("cam.yml"));
  EXPECT_EQ(g.intrinsics.image_size, f.intrinsics.image_size);
  EXPECT_LT(cv::norm(cv::Mat(g.intrinsics.camera_matrix), cv::Mat(f.intrinsics.camera_matrix)),
            1e-9);
  EXPECT_EQ(g.intrinsics.dist.size(), 5u);
  EXPECT_DOUBLE_EQ(g.rms_px, f.rms_px);
  EXPECT_EQ(g.per_view_rms_px.size(), 6u);
  EXPECT_EQ(g.views, f.views);
  ASSERT_EQ(g.dropped.size(), 1u);
  EXPECT_EQ(g.dropped[0].reason, f.dropped[0].reason);
  EXPECT_EQ(g.pattern, describe(testing::chessboard_9x6()));
  EXPECT_EQ(g.date, "2024-05-01T18:30:00");
  EXPECT_EQ(g.std_dev.size(), 9u);
  EXPECT_LT(cv::norm(g.covariance, f.covariance), 1e-12);
  ASSERT_TRUE(g.table);
  EXPECT_EQ(g.table->table.depth_in, 48);
  EXPECT_EQ(g.table->table_to_camera.tvec, f.table->table_to_camera.tvec);
  EXPECT_EQ(g.table->method, f.table->method);
  EXPECT_EQ(g.table->points.image_px.size(), 4u);
  ASSERT_TRUE(g.table->accuracy);
  EXPECT_DOUBLE_EQ(g.table->accuracy->rms_in, 0.012);
}

TEST(CameraFile, StandardKeysReadByPlainOpenCv) {
  testing::TempDir dir;
  const CameraFile f = sample_file();
  write_camera_file(dir.file("cam.yml"), f);
  cv::FileStorage fs(dir.file("cam.yml"), cv::FileStorage::READ);
  ASSERT_TRUE(fs.isOpened());
  EXPECT_EQ(static_cast<int>(fs["image_width"]), 1920);
  EXPECT_EQ(static_cast<int>(fs["image_height"]), 1080);
  cv::Mat k;
  cv::Mat d;
  cv::Mat per_view;
  fs["camera_matrix"] >> k;
  fs["distortion_coefficients"] >> d;
  fs["per_view_reprojection_errors"] >> per_view;
  EXPECT_EQ(k.size(), cv::Size(3, 3));
  EXPECT_NEAR(k.at<double>(0, 0), f.intrinsics.fx(), 1e-9);
  EXPECT_EQ(d.total(), 5u);
  EXPECT_NEAR(static_cast<double>(fs["avg_reprojection_error"]), f.rms_px, 1e-12);
  EXPECT_EQ(per_view.total(), 6u);
  EXPECT_EQ(static_cast<int>(fs["schema_version"]), kCameraFileSchema);
  EXPECT_EQ(static_cast<int>(fs["board_width"]), 9);
}

// The output format of OpenCV's samples/cpp/calibration.cpp.
const char* const kOpenCvSampleOutput = R"(%YAML:1.0
---
calibration_time: "Wed 01 May 2024 18:30:00"
nframes: 13
image_width: 640
image_height: 480
board_width: 9
board_height: 6
square_size: 25.
flags: 0
camera_matrix: !!opencv-matrix
   rows: 3
   cols: 3
   dt: d
   data: [ 5.3658e+02, 0., 3.4264e+02, 0., 5.3629e+02, 2.3552e+02, 0., 0., 1. ]
distortion_coefficients: !!opencv-matrix
   rows: 5
   cols: 1
   dt: d
   data: [ -2.6509e-01, -4.6665e-02, 1.8302e-03, -3.1497e-04, 2.5290e-01 ]
avg_reprojection_error: 4.0e-01
)";

TEST(CameraFile, ReadsOpenCvSampleOutput) {
  testing::TempDir dir;
  std::ofstream(dir.file("out_camera_data.yml")) << kOpenCvSampleOutput;
  const CameraFile f = read_camera_file(dir.file("out_camera_data.yml"));
  EXPECT_EQ(f.intrinsics.image_size, cv::Size(640, 480));
  EXPECT_NEAR(f.intrinsics.fx(), 536.58, 1e-9);
  EXPECT_NEAR(f.intrinsics.dist[4], 0.2529, 1e-12);
  EXPECT_NEAR(f.rms_px, 0.4, 1e-12);
  EXPECT_FALSE(f.table);
  EXPECT_TRUE(f.std_dev.empty());
}

// The output format of OpenCV's apps/interactive-calibration.
TEST(CameraFile, ReadsInteractiveCalibrationOutput) {
  testing::TempDir dir;
  std::ofstream(dir.file("cameraParameters.xml")) << R"(<?xml version="1.0"?>
<opencv_storage>
<calibrationDate>"Wed May  1 18:30:00 2024"</calibrationDate>
<framesCount>21</framesCount>
<cameraResolution>1280 720</cameraResolution>
<cameraMatrix type_id="opencv-matrix"><rows>3</rows><cols>3</cols><dt>d</dt>
  <data>9.1e+02 0. 6.4e+02 0. 9.1e+02 3.6e+02 0. 0. 1.</data></cameraMatrix>
<dist_coeffs type_id="opencv-matrix"><rows>1</rows><cols>5</cols><dt>d</dt>
  <data>-0.1 0.05 0. 0. 0.</data></dist_coeffs>
<avg_reprojection_error>0.3</avg_reprojection_error>
</opencv_storage>
)";
  const CameraFile f = read_camera_file(dir.file("cameraParameters.xml"));
  EXPECT_EQ(f.intrinsics.image_size, cv::Size(1280, 720));
  EXPECT_NEAR(f.intrinsics.cy(), 360, 1e-9);
  EXPECT_EQ(f.intrinsics.dist.size(), 5u);
}

TEST(CameraFile, WriteIntoMissingFolderFailsCleanly) {
  testing::TempDir dir;
  EXPECT_THROW(write_camera_file(dir.file("nope/cam.yml"), sample_file()), DataException);
  EXPECT_EQ(dir.count(), 0);
}

TEST(CameraFile, OverwriteReplacesTheWholeFile) {
  testing::TempDir dir;
  CameraFile f = sample_file();
  write_camera_file(dir.file("cam.yml"), f);
  f.table.reset();
  write_camera_file(dir.file("cam.yml"), f);
  EXPECT_FALSE(read_camera_file(dir.file("cam.yml")).table);
  EXPECT_EQ(dir.count(), 1);
}

// Issue #17: a full disk used to leave a 0-byte or 4096-byte file and lose the old calibration.
TEST(CameraFile, FullDiskKeepsThePreviousCalibration) {
  testing::TempDir dir;
  write_camera_file(dir.file("cam.yml"), sample_file());
  std::ifstream in(dir.file("cam.yml"), std::ios::binary);
  const std::string before((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  for (long long budget : {0LL, 100LL, 1000LL}) {
    set_write_budget(budget);
    CameraFile f = sample_file();
    f.table.reset();
    EXPECT_THROW(write_camera_file(dir.file("cam.yml"), f), DataException) << budget;
    set_write_budget(std::nullopt);
    std::ifstream again(dir.file("cam.yml"), std::ios::binary);
    const std::string after((std::istreambuf_iterator<char>(again)),
                            std::istreambuf_iterator<char>());
    EXPECT_EQ(after, before) << budget;
    EXPECT_TRUE(read_camera_file(dir.file("cam.yml")).table) << budget;
    EXPECT_EQ(dir.count(), 1) << budget;
  }
}

// Issue #17: `table_width_in: 1e9` made `track --calib` hang; a key given twice was accepted.
TEST(CameraFile, OutOfRangeTableAndDuplicateKeysAreRefused) {
  testing::TempDir dir;
  write_camera_file(dir.file("cam.yml"), sample_file());
  std::ifstream in(dir.file("cam.yml"), std::ios::binary);
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const auto replaced = [&](const std::string& from, const std::string& to) {
    std::string t = text;
    const auto at = t.find(from);
    EXPECT_NE(at, std::string::npos) << from;
    return t.replace(at, from.size(), to);
  };
  for (const char* width : {"1e9", "1e7", "0.5", "-3"}) {
    try {
      (void)parse_camera_file(
          replaced("table_width_in: 60.", std::string("table_width_in: ") + width + "\n#"),
          "cam.yml");
      ADD_FAILURE() << width << " accepted";
    } catch (const DataException& e) {
      EXPECT_EQ(e.error().field, "table_width_in") << e.what();
      EXPECT_NE(std::string(e.what()).find("from 1 to 1000"), std::string::npos) << e.what();
    }
  }
  try {
    (void)parse_camera_file(text + "image_width: 640\n", "cam.yml");
    ADD_FAILURE() << "a duplicate key was accepted";
  } catch (const DataException& e) {
    EXPECT_EQ(e.error().field, "image_width") << e.what();
    EXPECT_NE(std::string(e.what()).find("twice"), std::string::npos) << e.what();
  }
}

// Found by fuzz_calib_files under AddressSanitizer: a matrix declaring 3 x 3,000,000,000 cells
// made OpenCV try to allocate 50 GB before reading its 9 values. The shape is now checked
// against the values first, and the error names the key and its line.
TEST(CameraFile, AMatrixLargerThanItsDataIsRefusedBeforeAllocating) {
  const std::string good = kOpenCvSampleOutput;
  EXPECT_NEAR(parse_camera_file(good, "cam.yml").intrinsics.fx(), 536.58, 1e-9);
  for (const char* cols : {"3000000000", "2147483647", "4", "0", "-3"}) {
    std::string bad = good;
    bad.replace(bad.find("cols: 3"), 7, std::string("cols: ") + cols);
    try {
      (void)parse_camera_file(bad, "cam.yml");
      ADD_FAILURE() << cols << " accepted";
    } catch (const DataException& e) {
      EXPECT_EQ(e.error().field, "camera_matrix") << e.what();
      EXPECT_EQ(e.error().line, 11) << e.what();
    }
  }
}

}  // namespace
}  // namespace duels::calib
