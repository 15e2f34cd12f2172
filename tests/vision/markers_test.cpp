// Marker mode: the real ChArUco photo, base maps (and their errors), base centres from markers
// at a height, and frames that do not match the calibration.
#include <gtest/gtest.h>

#include <opencv2/imgcodecs.hpp>

#include <set>

#include "common/error.hpp"
#include "test_paths.hpp"
#include "vision/markers.hpp"
#include "vision/pipeline.hpp"
#include "vision/render.hpp"

namespace duels::vision {
namespace {

TEST(Markers, RealCharucoPhotoHasAll17Markers) {
  const cv::Mat image =
      cv::imread(duels_test::test_data_dir() + "/charuco-board-photo.jpg", cv::IMREAD_GRAYSCALE);
  ASSERT_FALSE(image.empty());
  for (bool aruco3 : {false, true}) {
    DetectorOptions o;
    o.dictionary = "6x6_250";
    o.aruco3 = aruco3;
    const auto found = MarkerDetector(o).detect(image);
    std::set<int> ids;
    for (const auto& d : found)
      ids.insert(d.marker_id);
    std::printf("real photo (aruco3=%d): %zu markers\n", aruco3, found.size());
    EXPECT_EQ(found.size(), 17u) << "aruco3=" << aruco3;
    for (int id = 0; id <= 16; ++id)
      EXPECT_TRUE(ids.count(id)) << id << " aruco3=" << aruco3;
  }
}

TEST(Markers, DictionaryNamesAreForgiving) {
  EXPECT_EQ(normalize_dictionary_name("6x6_250").value_or(""), "DICT_6X6_250");
  EXPECT_EQ(normalize_dictionary_name("DICT_4X4_50").value_or(""), "DICT_4X4_50");
  EXPECT_FALSE(normalize_dictionary_name("7x7_3"));
  DetectorOptions o;
  o.dictionary = "nonsense";
  EXPECT_THROW(MarkerDetector{o}, DataException);
}

TEST(BaseMapFile, ParsesAndReportsErrorsWithLines) {
  const BaseMap m = parse_base_map(
      "schema_version: 1\ndictionary: 4x4_50\nbases:\n"
      "  - {marker: 10, figure: Razor, diameter: 2, marker_side: 1, marker_height: 0.75, offset: "
      "[0, 0.3]}\n",
      "map.yaml");
  ASSERT_EQ(m.bases.size(), 1u);
  EXPECT_EQ(m.dictionary, "DICT_4X4_50");
  EXPECT_DOUBLE_EQ(m.bases[0].offset_in.y, 0.3);
  try {
    parse_base_map(
        "schema_version: 1\nbases:\n"
        "  - {marker: 10, figure: A, diameter: 2, marker_side: 1, marker_height: 0.75}\n"
        "  - {marker: 10, figure: B, diameter: 2, marker_side: 1, marker_height: 0.75}\n",
        "map.yaml");
    FAIL();
  } catch (const DataException& e) {
    EXPECT_EQ(e.error().line, 4) << e.what();
    EXPECT_NE(std::string(e.what()).find("bases[1].marker"), std::string::npos) << e.what();
  }
  EXPECT_THROW(parse_base_map("schema_version: 1\nbases:\n  - {marker: 1}\n", "m.yaml"),
               DataException);
  EXPECT_THROW(load_base_map("/nonexistent/map.yaml"), DataException);
}

// Issue #17: a base on marker 0 (a table corner) was silently never tracked.
TEST(BaseMapFile, TableCornerMarkerIdsAreRefused) {
  for (int id = 0; id < 4; ++id) {
    try {
      parse_base_map("schema_version: 1\nbases:\n  - {marker: " + std::to_string(id) +
                         ", figure: A, diameter: 2, marker_side: 1, marker_height: 0.75}\n",
                     "map.yaml");
      ADD_FAILURE() << "marker " << id << " accepted";
    } catch (const DataException& e) {
      EXPECT_NE(std::string(e.what()).find("map.yaml:3: bases[0].marker"), std::string::npos)
          << e.what();
      EXPECT_NE(std::string(e.what()).find("corner"), std::string::npos) << e.what();
    }
  }
}

SceneSpec one_base_scene(double angle_deg, cv::Point2d offset) {
  SceneSpec s;
  s.camera = calib::example_webcam_1080p();
  s.table_to_camera = camera_pose_over_table({30, 24}, 51.2, 45, 0);
  s.look.motion_blur = false;
  SceneBaseSpec b;
  b.id = "a";
  b.marker_id = 10;
  b.marker_side_in = 1.0;
  b.marker_offset_in = offset;
  b.figure_height_in = 0;  // figures and occlusion are tested with the scripted match
  b.path.push_back({0, 27.3, 21.6, angle_deg});
  s.bases.push_back(b);
  return s;
}

TEST(Markers, BaseCentreFromAnOffsetMarkerAtItsHeight) {
  for (double angle : {-90.0, 135.0}) {
    SceneRenderer r(one_base_scene(angle, {0.1, 0.28}));
    const cv::Mat image = r.render(0);
    const BaseMap map = base_map_from_scene(r.spec());
    const auto obs = locate_bases(MarkerDetector(DetectorOptions{}).detect(image), map, r.plane());
    ASSERT_EQ(obs.size(), 1u) << angle;
    EXPECT_NEAR(obs[0].centre_in.x, 27.3, 0.05) << angle;
    EXPECT_NEAR(obs[0].centre_in.y, 21.6, 0.05) << angle;
    EXPECT_NEAR(std::remainder(obs[0].angle_deg - angle, 360.0), 0, 2.0) << angle;
    // Ignoring the marker's height would put the base several tenths of an inch off.
    BaseMap flat = map;
    flat.bases[0].marker_height_in = 0;
    const auto wrong =
        locate_bases(MarkerDetector(DetectorOptions{}).detect(image), flat, r.plane());
    if (!wrong.empty()) {
      EXPECT_GT(cv::norm(wrong[0].centre_in - cv::Point2d(27.3, 21.6)), 0.3);
    }
  }
}

TEST(Markers, MarkerOfTheWrongSizeIsRejected) {
  SceneRenderer r(one_base_scene(90, {0, 0}));
  BaseMap map = base_map_from_scene(r.spec());
  map.bases[0].marker_side_in = 2.0;  // a wrong map
  EXPECT_TRUE(
      locate_bases(MarkerDetector(DetectorOptions{}).detect(r.render(0)), map, r.plane()).empty());
}

TEST(Pipeline, FrameOfAnotherResolutionIsADataError) {
  SceneRenderer r(one_base_scene(90, {0, 0}));
  Pipeline p(r.plane(), base_map_from_scene(r.spec()));
  EXPECT_THROW(p.process(cv::Mat(720, 1280, CV_8UC3, cv::Scalar::all(0)), 0, 0), DataException);
}

}  // namespace
}  // namespace duels::vision
