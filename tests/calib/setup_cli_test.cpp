// Camera set-up as a player meets it (issue #20): a folder with a stray photo, a registration
// that saw only three markers, a table partly out of view, a calibration too weak to measure
// with, a camera that is not there. Each runs the real `duels` binary.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <opencv2/imgcodecs.hpp>
#include <opencv2/imgproc.hpp>

#include <sys/wait.h>
#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "calib/camera_file.hpp"
#include "calib/image_source.hpp"
#include "calib/synthetic.hpp"
#include "fixtures.hpp"
#include "temp_dir.hpp"
#include "test_paths.hpp"

namespace duels::calib {
namespace {

namespace fs = std::filesystem;
const std::string kPhotos = duels_test::test_data_dir() + "/calib-chessboard-9x6";

struct CliRun {
  int exit_code = -1;
  std::string out;
};

// Runs `duels ARGS` (under a time limit, so a hang fails instead of stalling the suite);
// `with_stderr` folds stderr into out.
CliRun duels(const std::string& args, bool with_stderr = false) {
  CliRun r;
  const std::string command =
      "timeout 60 " + duels_test::binary() + " " + args + (with_stderr ? " 2>&1" : " 2>/dev/null");
  FILE* pipe = popen(command.c_str(), "r");
  if (pipe == nullptr) return r;
  std::array<char, 4096> buf{};
  std::size_t n = 0;
  while ((n = std::fread(buf.data(), 1, buf.size(), pipe)) > 0)
    r.out.append(buf.data(), n);
  const int status = pclose(pipe);
  r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return r;
}

int count_of(const std::string& text, const std::string& what) {
  int n = 0;
  for (auto at = text.find(what); at != std::string::npos; at = text.find(what, at + 1))
    ++n;
  return n;
}

// A photo of the 60"x60" table with the given corner markers, and a calibration file with the
// exact camera (and, when given, an intrinsics covariance).
void table_setup(testing::TempDir& dir, const MarkerLayout& printed,
                 const cv::Mat& covariance = {}) {
  CameraFile file;
  file.intrinsics = testing::table_webcam();
  file.covariance = covariance;
  write_camera_file(dir.file("cam.yml"), file);
  const SyntheticCamera& synth = testing::table_webcam_renderer();
  cv::Mat canvas = synth.canvas(cv::Scalar(60));
  synth.draw_plane(canvas, table_texture({60, 60}, printed), testing::table_camera_pose());
  cv::imwrite(dir.file("table.png"), synth.finish(canvas, {0.5, 2.0, 8}));
}

const std::string kMarkers = " --marker-size 5in --marker-inset 1.5in";

TEST(SetupCli, StrayPhotosAreSkippedWithTheirReasons) {
  testing::TempDir dir;
  fs::create_directory(dir.file("photos"));
  for (const auto& p : list_images(kPhotos))
    fs::copy_file(p, fs::path(dir.file("photos")) / fs::path(p).filename());
  std::ofstream(dir.file("photos/broken.jpg")) << "\xff\xd8 not really a jpeg";
  cv::Mat big;
  cv::resize(cv::imread(kPhotos + "/right01.jpg"), big, cv::Size(1280, 960));
  cv::imwrite(dir.file("photos/phone.jpg"), big);
  const CliRun r =
      duels("calibrate --images " + dir.file("photos") + " --cols 9 --rows 6 --square 25mm --out " +
            dir.file("cam.yml") + " --json");
  ASSERT_EQ(r.exit_code, 0) << r.out;
  const auto j = nlohmann::json::parse(r.out);
  ASSERT_EQ(j.at("skipped").size(), 2u) << r.out;
  EXPECT_EQ(j["skipped"][0]["name"], "broken.jpg");
  EXPECT_NE(j["skipped"][0]["reason"].get<std::string>().find("decode"), std::string::npos);
  EXPECT_EQ(j["skipped"][1]["name"], "phone.jpg");
  EXPECT_NE(j["skipped"][1]["reason"].get<std::string>().find("1280x960, not 640x480"),
            std::string::npos);
  EXPECT_GE(j.at("views_used").get<int>(), 11);
  EXPECT_EQ(j.at("image_size"), nlohmann::json({640, 480}));
  EXPECT_TRUE(fs::exists(dir.file("cam.yml")));

  // A folder where nothing decodes is an error (exit 3), and nothing is written.
  fs::create_directory(dir.file("junk"));
  std::ofstream(dir.file("junk/a.jpg")) << "junk";
  const CliRun junk = duels("calibrate --images " + dir.file("junk") +
                                " --cols 9 --rows 6 --square 25mm --out " + dir.file("j.yml"),
                            true);
  EXPECT_EQ(junk.exit_code, 3) << junk.out;
  EXPECT_NE(junk.out.find("none of the 1 image files could be read"), std::string::npos)
      << junk.out;
  EXPECT_FALSE(fs::exists(dir.file("j.yml")));
}

TEST(SetupCli, RegistrationFromThreeMarkersSaysSo) {
  testing::TempDir dir;
  MarkerLayout three = testing::corner_markers();
  three.markers.pop_back();  // the far-left marker (id 3) is not on the table
  table_setup(dir, three);
  const std::string args = "calibrate table --camera-file " + dir.file("cam.yml") + " --image " +
                           dir.file("table.png") + kMarkers;
  const CliRun text = duels(args + " --out " + dir.file("a.yml"));
  ASSERT_EQ(text.exit_code, 0) << text.out;
  EXPECT_NE(text.out.find("only 3 of the 4 markers were used (not seen: 3 (far-left))"),
            std::string::npos)
      << text.out;
  const CliRun json = duels(args + " --out " + dir.file("b.yml") + " --json");
  ASSERT_EQ(json.exit_code, 0) << json.out;
  const auto j = nlohmann::json::parse(json.out);
  EXPECT_EQ(j.at("markers_used"), 3);
  EXPECT_EQ(j.at("markers_in_layout"), 4);
  // All four seen: no note.
  testing::TempDir full;
  table_setup(full, testing::corner_markers());
  const CliRun all = duels("calibrate table --camera-file " + full.file("cam.yml") + " --image " +
                           full.file("table.png") + kMarkers);
  ASSERT_EQ(all.exit_code, 0) << all.out;
  EXPECT_EQ(all.out.find("markers were used"), std::string::npos) << all.out;
}

// The layout says the table is 60" x 200" but the camera sees only the near 100": the far cells
// have no error to report, and are marked so (never 0.000).
TEST(SetupCli, CellsOutOfViewAreMarkedNotZero) {
  testing::TempDir dir;
  table_setup(dir, testing::corner_markers());
  std::ofstream(dir.file("layout.yml")) << "schema_version: 1\n"
                                           "dictionary: DICT_4X4_50\n"
                                           "table: {width_in: 60, depth_in: 200}\n"
                                           "markers:\n"
                                           "  - {id: 0, x_in: 4, y_in: 4, size_in: 5}\n"
                                           "  - {id: 1, x_in: 56, y_in: 4, size_in: 5}\n"
                                           "  - {id: 2, x_in: 56, y_in: 56, size_in: 5}\n"
                                           "  - {id: 3, x_in: 4, y_in: 56, size_in: 5}\n";
  const std::string args = "calibrate table --camera-file " + dir.file("cam.yml") + " --image " +
                           dir.file("table.png") + " --layout " + dir.file("layout.yml");
  const CliRun text = duels(args + " --out " + dir.file("a.yml"));
  ASSERT_EQ(text.exit_code, 0) << text.out;
  const std::string map = text.out.substr(text.out.find("map, RMS inches"));
  EXPECT_NE(map.find("-----"), std::string::npos) << text.out;
  EXPECT_EQ(map.find("0.000"), std::string::npos) << text.out;
  EXPECT_NE(text.out.find("far edge out of view"), std::string::npos) << text.out;
  const CliRun json = duels(args + " --out " + dir.file("b.yml") + " --json");
  ASSERT_EQ(json.exit_code, 0) << json.out;
  const auto a = nlohmann::json::parse(json.out).at("accuracy");
  EXPECT_TRUE(a.at("far_rms_in").is_null());
  int nulls = 0;
  for (const auto& c : a.at("cell_rms_in")) {
    if (c.is_null()) {
      ++nulls;
    } else {
      EXPECT_GT(c.get<double>(), 0.0);
    }
  }
  EXPECT_GT(nulls, 0);
  EXPECT_LT(a.at("visible_fraction").get<double>(), 1.0);
}

// A calibration whose focal length is uncertain by ±15 % predicts errors of inches: refused
// with the reason, and the camera file is left as it was.
TEST(SetupCli, UnusableCalibrationIsRefusedWithTheReason) {
  testing::TempDir dir;
  cv::Mat cov = cv::Mat::zeros(9, 9, CV_64F);
  const double sigma[9] = {140, 140, 60, 60, 0.05, 0.05, 0.002, 0.002, 0.05};
  for (int i = 0; i < 9; ++i)
    cov.at<double>(i, i) = sigma[i] * sigma[i];
  table_setup(dir, testing::corner_markers(), cov);
  const auto before = fs::file_size(dir.file("cam.yml"));
  const CliRun r = duels("calibrate table --camera-file " + dir.file("cam.yml") + " --image " +
                             dir.file("table.png") + kMarkers,
                         true);
  EXPECT_EQ(r.exit_code, 3) << r.out;
  EXPECT_NE(r.out.find("95% of measurements would be off by up to"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("Recalibrate"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("worst"), std::string::npos) << r.out;
  EXPECT_EQ(fs::file_size(dir.file("cam.yml")), before);
  EXPECT_FALSE(read_camera_file(dir.file("cam.yml")).table.has_value());
  // The same set-up with a tight calibration is accepted.
  testing::TempDir good;
  table_setup(good, testing::corner_markers(), cov / 10000);  // σ 100 times smaller
  const CliRun ok = duels("calibrate table --camera-file " + good.file("cam.yml") + " --image " +
                          good.file("table.png") + kMarkers);
  EXPECT_EQ(ok.exit_code, 0) << ok.out;
}

// `duels track --frames N` on a camera that is not there: a bounded number of attempts, one
// message, then an error; OpenCV's own warnings stay out of the terminal.
TEST(SetupCli, MissingCameraGivesUpOnceWhenFramesAreCounted) {
  testing::TempDir dir;
  table_setup(dir, testing::corner_markers());
  ASSERT_EQ(duels("calibrate table --camera-file " + dir.file("cam.yml") + " --image " +
                  dir.file("table.png") + kMarkers)
                .exit_code,
            0);
  const CliRun r = duels(
      "track --source cam:97 --calib " + dir.file("cam.yml") + " --markerless --frames 2", true);
  EXPECT_EQ(r.exit_code, 3) << r.out;
  EXPECT_EQ(count_of(r.out, "gave up after 5 attempts"), 1) << r.out;
  EXPECT_LE(count_of(r.out, "could not be opened"), 1) << r.out;
  EXPECT_EQ(count_of(r.out, "WARN"), 0) << r.out;
  EXPECT_LE(count_of(r.out, "\n"), 3) << r.out;
  // A stream that refuses the connection (loopback, closed port): every backend OpenCV tries
  // and FFmpeg log their failure on each attempt; none of it reaches the terminal.
  const CliRun s = duels("track --source rtsp://127.0.0.1:1/none --calib " + dir.file("cam.yml") +
                             " --markerless --frames 1",
                         true);
  EXPECT_EQ(s.exit_code, 3) << s.out;
  EXPECT_EQ(count_of(s.out, "gave up after 5 attempts"), 1) << s.out;
  EXPECT_EQ(count_of(s.out, "ERROR"), 0) << s.out;
  EXPECT_EQ(count_of(s.out, "Connection"), 0) << s.out;
  EXPECT_LE(count_of(s.out, "\n"), 3) << s.out;
}

// `duels track` on the ring demo scene with a base map that leaves Gridlock out: Razor is
// tracked by name, and Gridlock's ring at (40, 30) is reported as a base not named, in the text
// and in the JSON (`unnamed`), rather than not at all.
TEST(SetupCli, TrackReportsARingTheMapDoesNotNameAsUnnamed) {
  testing::TempDir dir;
  std::ofstream(dir.file("razor_only.yaml"))
      << "schema_version: 1\ndictionary: DICT_4X4_50\nbases:\n"
         "  - {marker: 0, figure: Razor, diameter: 2.0, marker_height: 0.75, target: ring2}\n";
  const std::string args =
      "track --source synthetic:demo_rings --bases " + dir.file("razor_only.yaml") + " --frames 6";
  const CliRun text = duels(args);
  ASSERT_EQ(text.exit_code, 0) << text.out;
  const std::string last = text.out.substr(text.out.rfind("frame 5"));
  EXPECT_NE(last.find("Razor        ( 18.00,  12.00) in"), std::string::npos) << last;
  EXPECT_NE(last.find("(unnamed)    ( 40.00,  30.00) in  a base not named"), std::string::npos)
      << last;
  const CliRun json = duels(args + " --json");
  ASSERT_EQ(json.exit_code, 0) << json.out;
  std::istringstream lines(json.out);
  std::string line;
  std::string final_line;
  while (std::getline(lines, line))
    if (!line.empty()) final_line = line;
  const auto j = nlohmann::json::parse(final_line);
  ASSERT_EQ(j.at("unnamed").size(), 1U) << final_line;
  EXPECT_NEAR(j["unnamed"][0]["centre_in"][0].get<double>(), 40, 0.1);
  EXPECT_NEAR(j["unnamed"][0]["centre_in"][1].get<double>(), 30, 0.1);
  EXPECT_EQ(j["unnamed"][0]["radius_in"].get<double>(), 1.0);
  ASSERT_EQ(j.at("bases").size(), 1U);
  EXPECT_EQ(j["bases"][0]["figure"], "Razor");
}

// The player names a ring the camera cannot name by where it stands: Gridlock's ring carries
// code 1, the map says 5 (a sticker from another sheet). With --name it is reported as
// Gridlock: at once where the point falls on it, after a second for a rougher point; a figure the
// map lacks, a malformed --name, or a point off the table, is refused with the reason.
TEST(SetupCli, TrackNamesARingTheCameraCannotNameWithName) {
  testing::TempDir dir;
  std::ofstream(dir.file("wrong_code.yaml"))
      << "schema_version: 1\ndictionary: DICT_4X4_50\nbases:\n"
         "  - {marker: 0, figure: Razor, diameter: 2.0, marker_height: 0.75, target: ring2}\n"
         "  - {marker: 5, figure: Gridlock, diameter: 2.0, marker_height: 0.75, target: ring2}\n";
  const std::string args =
      "track --source synthetic:demo_rings --bases " + dir.file("wrong_code.yaml") + " --frames 6";
  const CliRun unnamed = duels(args);
  ASSERT_EQ(unnamed.exit_code, 0) << unnamed.out;
  EXPECT_NE(unnamed.out.substr(unnamed.out.rfind("frame 5")).find("(unnamed)    ( 40.00,  30.00)"),
            std::string::npos)
      << unnamed.out;
  // Where it stands (within its radius of the point): named from the frame it is first seen.
  const CliRun named = duels(args + " --name Gridlock@40.5,29.5");
  ASSERT_EQ(named.exit_code, 0) << named.out;
  const std::string last = named.out.substr(named.out.rfind("frame 5"));
  EXPECT_NE(last.find("Gridlock     ( 40.00,  30.00) in"), std::string::npos) << last;
  EXPECT_EQ(last.find("(unnamed)"), std::string::npos) << last;
  // A rougher point (1.4" off): the name waits a second (frame 10 at 10 fps), then goes to the
  // ring seen nearest it.
  const CliRun rough = duels("track --source synthetic:demo_rings --bases " +
                             dir.file("wrong_code.yaml") + " --frames 11 --name Gridlock@41,29");
  ASSERT_EQ(rough.exit_code, 0) << rough.out;
  const std::size_t at9 = rough.out.rfind("frame 9 ");
  const std::size_t at10 = rough.out.rfind("frame 10 ");
  ASSERT_NE(at9, std::string::npos) << rough.out;
  ASSERT_NE(at10, std::string::npos) << rough.out;
  const std::string waiting = rough.out.substr(at9, at10 - at9);
  EXPECT_NE(waiting.find("(unnamed)    ( 40.00,  30.0"), std::string::npos) << waiting;
  // Until then the name is listed as waiting where it was given.
  EXPECT_NE(waiting.find("Gridlock     ( 41.00,  29.00) in  name waiting: no base seen there yet"),
            std::string::npos)
      << waiting;
  EXPECT_EQ(waiting.find("Gridlock     ( 40.00"), std::string::npos) << waiting;
  EXPECT_NE(rough.out.substr(at10).find("Gridlock     ( 40.00,  30.0"), std::string::npos)
      << rough.out.substr(at10);
  EXPECT_EQ(rough.out.substr(at10).find("name waiting"), std::string::npos)
      << rough.out.substr(at10);
  // A point on the table where no base stands: the name waits, and says so, every frame (JSON:
  // `waiting_names`); Gridlock's ring stays unnamed.
  const CliRun nowhere = duels(args + " --json --name Gridlock@55,5");
  ASSERT_EQ(nowhere.exit_code, 0) << nowhere.out;
  std::string final_json = nowhere.out;
  while (!final_json.empty() && final_json.back() == '\n')
    final_json.pop_back();
  final_json = final_json.substr(final_json.rfind('\n') + 1);
  const auto j = nlohmann::json::parse(final_json);
  ASSERT_EQ(j.at("frame"), 5) << final_json;
  ASSERT_EQ(j.at("waiting_names").size(), 1U) << final_json;
  EXPECT_EQ(j["waiting_names"][0]["figure"], "Gridlock");
  EXPECT_EQ(j["waiting_names"][0]["near_in"][0].get<double>(), 55);
  EXPECT_EQ(j["waiting_names"][0]["near_in"][1].get<double>(), 5);
  EXPECT_EQ(j.at("unnamed").size(), 1U) << final_json;
  const CliRun nobody = duels(args + " --name Nobody@41,29", true);
  EXPECT_NE(nobody.exit_code, 0);
  EXPECT_NE(nobody.out.find("no base of 'Nobody' in the base map"), std::string::npos)
      << nobody.out;
  const CliRun malformed = duels(args + " --name Gridlock@41", true);
  EXPECT_NE(malformed.exit_code, 0);
  EXPECT_NE(malformed.out.find("expected FIGURE@X,Y"), std::string::npos) << malformed.out;
  // A point no base can stand near (off the 60" table by more than the 3" a name reaches).
  const CliRun off = duels(args + " --name Gridlock@70,29", true);
  EXPECT_NE(off.exit_code, 0);
  EXPECT_NE(off.out.find("--name 'Gridlock@70,29': (70, 29) is off the table: it is 60 x 60 in"),
            std::string::npos)
      << off.out;
}

}  // namespace
}  // namespace duels::calib
