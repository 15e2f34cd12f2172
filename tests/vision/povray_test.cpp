// The second image source (issue 51, goal 4): tables rendered once by POV-Ray from the very
// scenes our renderer draws (tests/data/povray, made by `duels bench coverage --images
// tests/data/povray --povray-render`), degraded by vision/degrade as ours are. No renderer of
// our own flatters these numbers: the figures, dice, light and shadows are POV-Ray's.
#include <gtest/gtest.h>

#include <opencv2/aruco.hpp>
#include <opencv2/imgproc.hpp>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>

#include "calib/lens.hpp"
#include "calib/pattern.hpp"
#include "common/error.hpp"
#include "files.hpp"
#include "test_paths.hpp"
#include "vision/coverage.hpp"
#include "vision/povray.hpp"

namespace duels::vision {
namespace {

namespace fs = std::filesystem;

std::string image_set() {
  return duels_test::test_data_dir() + "/povray";
}

// The 720p 70° camera (the README's first set-up) over the set's tables.
CoverageScenario set_scenario(const char* camera, int seeds) {
  for (CoverageScenario sc : standard_coverage_scenarios(BaseTargetKind::kRing2)) {
    if (sc.name.find(camera) == std::string::npos) continue;
    sc.first_seed = 1;
    sc.seeds = seeds;
    sc.frames = 10;
    sc.image_set = image_set();
    return sc;
  }
  ADD_FAILURE() << "no " << camera << " scenario";
  return {};
}

// The set's in-play tables (their names as `duels bench coverage --posed --dice 3-6 --lamp`
// gives them).
CoverageScenario in_play(CoverageScenario sc, bool posed, bool dice, bool lamp) {
  if (dice) {
    sc.dice_min = 3;
    sc.dice_max = 6;
    sc.name += " dice3-6";
  }
  sc.posed = posed;
  if (posed) sc.name += " posed";
  sc.lamp = lamp;
  if (lamp) sc.name += " lamp";
  return sc;
}

CoverageResult run(const CoverageScenario& sc) {
  const CoverageResult r = run_coverage(sc);
  std::printf(
      "POV-Ray, %s, tables 1-%d: named %d of %d (every frame), more than 1\" off %d, switched %d, "
      "false rings %d\n",
      sc.name.c_str(), sc.seeds, r.every_frame_total(), r.all_total(), r.off_by_1in,
      r.identity_switches, r.false_rings);
  return r;
}

// The set's pictures are the scenes' own: POV-Ray's camera is the scene's lens (pinhole, then
// the lens's distortion applied in linear light), so the table's corner markers are found where
// the scene's camera puts them, the right way round (not mirrored) and to a pixel.
TEST(PovraySet, CornerMarkersLieWhereTheScenesCameraPutsThem) {
  // (The 1080p 65° camera at 61" sees no corner marker whole: goal 5 of the issue.)
  const CoverageScenario plain = set_scenario("720p 70deg", 1);
  cv::Point2d sum(0, 0);
  int corners_seen = 0;
  for (const CoverageScenario& sc : {plain, in_play(plain, true, true, true)}) {
    const char* camera = sc.name.c_str();
    const CoverageTable table = coverage_table(sc, 1);
    const calib::MarkerLayout layout = scene_corner_markers(table.spec);
    const auto dict = calib::dictionary_by_name(table.spec.dictionary);
    ASSERT_TRUE(dict);
    cv::Mat gray;
    cv::cvtColor(table.clean, gray, cv::COLOR_BGR2GRAY);
    std::vector<std::vector<cv::Point2f>> corners;
    std::vector<int> ids;
    cv::aruco::detectMarkers(gray, dict, corners, ids);
    int checked = 0;
    for (std::size_t k = 0; k < ids.size(); ++k) {
      const auto it = std::find_if(layout.markers.begin(), layout.markers.end(),
                                   [&](const auto& m) { return m.id == ids[k]; });
      ASSERT_NE(it, layout.markers.end()) << "marker " << ids[k] << " is not the table's";
      const double h = it->side_in / 2;
      // ArUco's corner order: the marker's top-left, top-right, bottom-right, bottom-left as
      // printed (the top towards the table's far edge).
      const cv::Point2d local[4] = {{-h, h}, {h, h}, {h, -h}, {-h, -h}};
      for (int c = 0; c < 4; ++c) {
        const cv::Point3d p(it->centre_in.x + local[c].x, it->centre_in.y + local[c].y, 0);
        const cv::Point2d want =
            calib::project_point(table.spec.camera, table.spec.table_to_camera, p);
        const cv::Point2d got = corners[k][static_cast<std::size_t>(c)];
        EXPECT_LT(cv::norm(got - want), 2.0) << camera << " marker " << ids[k] << " corner " << c;
        sum += got - want;
        ++corners_seen;
      }
      ++checked;
    }
    EXPECT_GE(checked, 4) << camera;
  }
  // No shift common to every corner (half a pixel would be a camera model off by one).
  ASSERT_GT(corners_seen, 0);
  EXPECT_LT(cv::norm(sum / corners_seen), 0.35) << sum / corners_seen;
}

// Printed rings under rough figures, on POV-Ray's pictures, with the webcam's damage and with a
// camera's own processing added (linear-light blur, Bayer mosaic, sharpening): no wrong name, no
// base off its place, no base where none stands, and nearly every base named in every frame
// (measured: 63 and 61 of 64). Figures of a real shape, dice and the lamp on the same source
// still name bases wrongly (docs/base-targets.md, "A second image source"): issue 51 is open.
TEST(PovraySet, RingsUnderRoughFiguresAreNamedAndNeverWrongly) {
  CoverageScenario sc = set_scenario("720p 70deg", 4);
  for (const bool processing : {false, true}) {
    sc.degradation.linear_light = processing;
    sc.degradation.bayer = processing;
    sc.degradation.sharpen = processing ? processing_webcam().sharpen : 0;
    const CoverageResult r = run(sc);
    EXPECT_EQ(r.off_by_1in, 0) << describe(sc.degradation);
    EXPECT_EQ(r.identity_switches, 0) << describe(sc.degradation);
    EXPECT_EQ(r.false_rings, 0) << describe(sc.degradation);
    EXPECT_EQ(r.all_total(), 64);
    EXPECT_GE(r.every_frame_total(), 58) << describe(sc.degradation);
  }
}

// A set rendered from another scene is refused in words, naming the truth file and the field
// that differs, never read against the wrong truth.
TEST(PovraySet, APictureOfAnotherSceneIsRefusedByField) {
  const duels_test::ScratchFolder dir("povray_other_scene", ::testing::TempDir());
  const CoverageScenario sc = set_scenario("720p 70deg", 1);
  const std::string stem = image_set_stem(sc, 1);
  fs::copy_file(image_set() + "/" + stem + ".jpg", dir.file(stem + ".jpg"));
  std::string truth = duels_test::slurp(image_set() + "/" + stem + ".json");
  const auto at = truth.find("\"x\": ");
  ASSERT_NE(at, std::string::npos);
  truth.insert(at + 5, "1");  // base 0 ten inches or more elsewhere
  std::ofstream(dir.file(stem + ".json")) << truth;
  CoverageScenario other = sc;
  other.image_set = dir.path.string();
  try {
    (void)coverage_table(other, 1);
    ADD_FAILURE() << "read against another scene's truth";
  } catch (const DataException& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find(stem + ".json"), std::string::npos) << what;
    EXPECT_NE(what.find("bases[0].x"), std::string::npos) << what;
  }
}

// The camera POV-Ray stands in for: a flat grey picture comes out at the felt's grey (the
// exposure), in sRGB, and a pinhole lens leaves every pixel where it was.
TEST(PovraySet, TheCameraExposesTheFeltAtItsGreyThroughTheToneCurve) {
  SceneSpec spec;
  spec.name = "flat";
  spec.camera.image_size = {64, 48};
  spec.camera.camera_matrix = cv::Matx33d(50, 0, 31.5, 0, 50, 23.5, 0, 0, 1);
  spec.look.felt_grey = 110;
  cv::Mat linear(48, 64, CV_16UC3, cv::Scalar::all(9000));
  // A bright square off the middle stays where it is and brighter than the felt.
  linear(cv::Rect(40, 10, 8, 8)).setTo(cv::Scalar::all(40000));
  const cv::Mat out = camera_picture(linear, spec);
  ASSERT_EQ(out.size(), cv::Size(64, 48));
  EXPECT_NEAR(out.at<cv::Vec3b>(40, 10)[1], 110, 1);
  EXPECT_GT(out.at<cv::Vec3b>(14, 44)[1], 200);
  EXPECT_NEAR(out.at<cv::Vec3b>(14, 36)[1], 110, 1);
}

}  // namespace
}  // namespace duels::vision
