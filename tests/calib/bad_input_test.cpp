// Bad input gives a clear error naming the file and what was expected — never a crash, never
// a half-written file.
#include <gtest/gtest.h>

#include <opencv2/imgcodecs.hpp>

#include <filesystem>
#include <fstream>

#include "calib/camera_file.hpp"
#include "calib/folder.hpp"
#include "calib/layout_file.hpp"
#include "common/error.hpp"
#include "fixtures.hpp"
#include "temp_dir.hpp"
#include "test_paths.hpp"

namespace duels::calib {
namespace {

namespace fs = std::filesystem;
const std::string kPhotos = duels_test::test_data_dir() + "/calib-chessboard-9x6";

// Runs the folder flow and returns the error message (empty when it succeeded).
std::string folder_error(const std::string& dir, const PatternSpec& spec) {
  try {
    calibrate_folder(dir, spec);
  } catch (const DataException& e) {
    return e.what();
  }
  return "";
}

void copy_photos(const std::string& to, int count) {
  int n = 0;
  for (const auto& p : list_images(kPhotos)) {
    if (n++ == count) break;
    fs::copy_file(p, fs::path(to) / fs::path(p).filename());
  }
}

TEST(BadInput, MissingFolder) {
  const std::string msg = folder_error("/nonexistent/photos", testing::chessboard_9x6());
  EXPECT_NE(msg.find("/nonexistent/photos"), std::string::npos) << msg;
  EXPECT_NE(msg.find("no such folder"), std::string::npos) << msg;
}

TEST(BadInput, EmptyFolder) {
  testing::TempDir dir;
  std::ofstream(dir.file("notes.txt")) << "not a photo";
  const std::string msg = folder_error(dir.path(), testing::chessboard_9x6());
  EXPECT_NE(msg.find(dir.path()), std::string::npos) << msg;
  EXPECT_NE(msg.find("it has none"), std::string::npos) << msg;
}

TEST(BadInput, ImagesWithoutABoard) {
  testing::TempDir dir;
  cv::RNG rng(1);
  for (int i = 0; i < 3; ++i) {
    cv::Mat noise(240, 320, CV_8UC1);
    rng.fill(noise, cv::RNG::UNIFORM, 0, 255);
    cv::imwrite(dir.file("frame" + std::to_string(i) + ".png"), noise);
  }
  const std::string msg = folder_error(dir.path(), testing::chessboard_9x6());
  EXPECT_NE(msg.find("found in none of the 3 images"), std::string::npos) << msg;
  EXPECT_NE(msg.find("frame0.png"), std::string::npos) << msg;
}

// One photo at another resolution (a phone shot among webcam frames) is skipped with its
// reason, and the others calibrate, as plain OpenCV would calibrate them.
TEST(BadInput, OddSizePhotoIsSkippedWithItsReason) {
  testing::TempDir dir;
  copy_photos(dir.path(), 5);
  cv::imwrite(dir.file("right99.jpg"), cv::Mat(720, 1280, CV_8UC1, cv::Scalar(128)));
  const FolderCalibration f = calibrate_folder(dir.path(), testing::chessboard_9x6());
  EXPECT_EQ(f.detections.image_size, cv::Size(640, 480));
  EXPECT_EQ(f.result.view_names.size() + f.result.dropped.size(), 5u);
  ASSERT_EQ(f.detections.skipped.size(), 1u);
  const Miss& skipped = f.detections.skipped.front();
  EXPECT_EQ(skipped.name, "right99.jpg");
  EXPECT_NE(skipped.reason.find("1280x720"), std::string::npos) << skipped.reason;
  EXPECT_NE(skipped.reason.find("640x480"), std::string::npos) << skipped.reason;
}

TEST(BadInput, WrongPatternSizeTooBig) {
  testing::TempDir dir;
  copy_photos(dir.path(), 3);
  PatternSpec spec = testing::chessboard_9x6();
  spec.cols = 10;  // the board has 9x6 inner corners
  const std::string msg = folder_error(dir.path(), spec);
  EXPECT_NE(msg.find("no chessboard of 10x6 inner corners"), std::string::npos) << msg;
  EXPECT_NE(msg.find("inner corners where four squares meet"), std::string::npos) << msg;
}

TEST(BadInput, WrongPatternSizeTooSmall) {
  testing::TempDir dir;
  const Intrinsics cam = testing::webcam_640();
  const SyntheticCamera synth(cam, 1);
  const auto tex = board_texture(testing::chessboard_9x6(), 2.0);
  const auto poses = calibration_poses(cam, testing::chessboard_9x6(), 4, 17, 25.0);
  for (std::size_t i = 0; i < poses.size(); ++i) {
    cv::imwrite(dir.file("view" + std::to_string(i) + ".png"),
                synth.render(tex, poses[i], {0.5, 1.0, i}));
  }
  EXPECT_EQ(folder_error(dir.path(), testing::chessboard_9x6()), "");
  PatternSpec spec = testing::chessboard_9x6();
  spec.cols = 8;
  const std::string msg = folder_error(dir.path(), spec);
  EXPECT_NE(msg.find("8x6 inner corners"), std::string::npos) << msg;
}

// The sector detector can return an 8x6 grid inside a 9x6 board; the squares beyond the grid
// give the mistake away.
TEST(BadInput, GridInsideABiggerBoardIsRecognised) {
  const Intrinsics cam = testing::webcam_640();
  const SyntheticCamera synth(cam, 2);
  const auto tex = board_texture(testing::chessboard_9x6(), 2.0);
  for (const auto& pose : calibration_poses(cam, testing::chessboard_9x6(), 3, 21, 30.0)) {
    const cv::Mat frame = synth.render(tex, pose, {0.5, 1.0, 1});
    const BoardView truth = project_board(cam, testing::chessboard_9x6(), pose);
    EXPECT_FALSE(checker_continues_beyond(frame, {9, 6}, truth.image_px));
    for (int skip : {0, 1}) {  // leave out the first or the last column
      std::vector<cv::Point2f> inner;
      for (int r = 0; r < 6; ++r) {
        for (int c = skip; c < 8 + skip; ++c)
          inner.push_back(truth.image_px[r * 9 + c]);
      }
      EXPECT_TRUE(checker_continues_beyond(frame, {8, 6}, inner));
    }
  }
}

TEST(BadInput, TooFewPhotos) {
  testing::TempDir dir;
  copy_photos(dir.path(), 2);
  const std::string msg = folder_error(dir.path(), testing::chessboard_9x6());
  EXPECT_NE(msg.find("at least 4 are needed"), std::string::npos) << msg;
}

// A damaged file among good photos is skipped with its reason; a folder where nothing decodes
// is an error naming a file and why.
TEST(BadInput, UnreadableImageIsSkippedButNoneReadableIsAnError) {
  testing::TempDir dir;
  copy_photos(dir.path(), 5);
  std::ofstream(dir.file("broken.jpg")) << "\xff\xd8 this is not really a jpeg";
  const FolderCalibration f = calibrate_folder(dir.path(), testing::chessboard_9x6());
  EXPECT_EQ(f.result.view_names.size() + f.result.dropped.size(), 5u);
  ASSERT_EQ(f.detections.skipped.size(), 1u);
  EXPECT_EQ(f.detections.skipped.front().name, "broken.jpg");
  EXPECT_NE(f.detections.skipped.front().reason.find("decode"), std::string::npos);

  testing::TempDir broken;
  std::ofstream(broken.file("broken.jpg")) << "\xff\xd8 this is not really a jpeg";
  std::ofstream(broken.file("empty.png")) << "";
  const std::string msg = folder_error(broken.path(), testing::chessboard_9x6());
  EXPECT_NE(msg.find("none of the 2 image files could be read"), std::string::npos) << msg;
  EXPECT_NE(msg.find("broken.jpg"), std::string::npos) << msg;
}

TEST(BadInput, InvalidPatternOnTheCommandLine) {
  PatternSpec spec = testing::charuco_7x5();
  spec.marker_mm = 0;
  const std::string msg = folder_error(kPhotos, spec);
  EXPECT_NE(msg.find("marker size"), std::string::npos) << msg;
}

// Reads a calibration file that must fail; returns the error.
std::string read_error(const std::string& path) {
  try {
    read_camera_file(path);
  } catch (const DataException& e) {
    return e.what();
  }
  return "";
}

TEST(BadInput, CorruptYamlNamesTheLine) {
  testing::TempDir dir;
  std::ofstream(dir.file("cam.yml")) << "%YAML:1.0\n---\nimage_width: 640\nimage_height: 480\n"
                                        "camera_matrix: !!opencv-matrix\n   rows: 3\n"
                                        "   cols: [3\n   dt: d\n";
  const std::string msg = read_error(dir.file("cam.yml"));
  EXPECT_NE(msg.find("cam.yml:"), std::string::npos) << msg;
  EXPECT_NE(msg.find("YAML"), std::string::npos) << msg;
}

TEST(BadInput, NotAnOpenCvFile) {
  testing::TempDir dir;
  std::ofstream(dir.file("cam.yml")) << "camera: [1, 2\n";
  EXPECT_NE(read_error(dir.file("cam.yml")).find("cam.yml"), std::string::npos);
  std::ofstream(dir.file("empty.yml")).close();
  EXPECT_NE(read_error(dir.file("empty.yml")).find("empty"), std::string::npos);
  EXPECT_NE(read_error(dir.file("missing.yml")).find("could not be opened"), std::string::npos);
}

// Found by fuzz_calib_files: a matrix whose `cols` key is damaged made OpenCV throw
// std::length_error out of the reader.
TEST(BadInput, DamagedMatrixKeyIsADataError) {
  const std::string text = R"(%YAML:1.0
---
cameraResolution: [ 1280, 720 ]
cameraMatrix: !!opencv-matrix
   rows: 3
   cols: 3
   dt: d
   data: [ 1000., 0., 640., 0., 1000., 360., 0., 0., 1. ]
dist_coeffs: !!opencv-matrix
   rows: 1
   :ols: 5
   dt: d
   data: [ -0.1, 0.05, 0., 0., 0. ]
)";
  try {
    (void)duels::calib::parse_camera_file(text, "cam.yml");
    FAIL() << "a damaged matrix was accepted";
  } catch (const duels::DataException& e) {
    EXPECT_NE(std::string(e.what()).find("cam.yml"), std::string::npos) << e.what();
  }
}

TEST(BadInput, WrongFieldsNameFieldAndLine) {
  testing::TempDir dir;
  std::ofstream(dir.file("cam.yml")) << R"(%YAML:1.0
---
image_width: 640
image_height: 480
camera_matrix: !!opencv-matrix
   rows: 2
   cols: 2
   dt: d
   data: [ 500., 0., 0., 500. ]
distortion_coefficients: !!opencv-matrix
   rows: 5
   cols: 1
   dt: d
   data: [ 0., 0., 0., 0., 0. ]
)";
  const std::string msg = read_error(dir.file("cam.yml"));
  EXPECT_NE(msg.find("cam.yml:5: camera_matrix: a 3x3 matrix, not 2x2"), std::string::npos) << msg;
  std::ofstream(dir.file("cam2.yml")) << R"(%YAML:1.0
---
schema_version: 7
image_width: 640
)";
  const std::string msg2 = read_error(dir.file("cam2.yml"));
  EXPECT_NE(msg2.find("cam2.yml:3: schema_version"), std::string::npos) << msg2;
  std::ofstream(dir.file("cam3.yml")) << "%YAML:1.0\n---\nimage_width: 640\n";
  const std::string msg3 = read_error(dir.file("cam3.yml"));
  EXPECT_NE(msg3.find("camera_matrix: a 3x3 camera matrix (it is missing)"), std::string::npos)
      << msg3;
}

TEST(LayoutFile, ReadsMarkersAndTable) {
  const LayoutFile f = parse_marker_layout(R"(schema_version: 1
dictionary: DICT_4X4_50
table: {width_in: 72, depth_in: 48}
markers:
  - {id: 4, x_in: 3, y_in: 3, size_in: 4}
  - {id: 5, x_in: 69, y_in: 3, size_in: 4}
  - {id: 6, x_in: 36, y_in: 45, size_in: 4}
)",
                                           "layout.yml");
  ASSERT_TRUE(f.table);
  EXPECT_EQ(f.table->width_in, 72);
  ASSERT_EQ(f.layout.markers.size(), 3u);
  EXPECT_EQ(f.layout.markers[2].centre_in, cv::Point2d(36, 45));
}

TEST(LayoutFile, ErrorsNameLineAndField) {
  try {
    parse_marker_layout(R"(schema_version: 1
dictionary: DICT_4X4_50
markers:
  - {id: 0, x_in: 3, y_in: 3, size_in: 4}
  - {id: 0, x_in: 57, y_in: three, size_in: 4}
)",
                        "layout.yml");
    FAIL() << "no error";
  } catch (const DataException& e) {
    const std::string msg = e.what();
    EXPECT_NE(msg.find("layout.yml:5: markers[1]"), std::string::npos) << msg;
    EXPECT_NE(msg.find("y_in"), std::string::npos) << msg;
  }
  EXPECT_THROW(parse_marker_layout("schema_version: 2\ndictionary: DICT_4X4_50\nmarkers: []\n",
                                   "layout.yml"),
               DataException);
  EXPECT_THROW(parse_marker_layout("dictionary: DICT_NOPE\nmarkers: []\n", "layout.yml"),
               DataException);
  EXPECT_THROW(read_marker_layout("/nonexistent/layout.yml"), DataException);
}

}  // namespace
}  // namespace duels::calib
