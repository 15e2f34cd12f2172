#pragma once
/// @file `duels bench coverage`: how many bases the camera finds, and how well, on webcam-like
/// scenes. Each scenario renders seeded tables (bases anywhere, figures facing anywhere, packed
/// groups 0.3" apart), degrades every frame with vision/degrade (blur, noise, JPEG, uneven
/// light — code separate from the renderer), hands the pipeline a lens known only to 0.5 %
/// (the table registered again through it), runs the real tracking pipeline over still frames
/// and scores it against the truth, by thirds of the table's depth: the bases named at their
/// place in each of the last frames of a search cycle, and at the last frame alone.

#include <opencv2/core.hpp>

#include <array>
#include <cstdint>
#include <iosfwd>
#include <string>
#include <vector>

#include "vision/degrade.hpp"
#include "vision/render.hpp"
#include "vision/scene.hpp"

namespace duels::vision {

/// One set-up of camera, table, bases and degradation.
struct CoverageScenario {
  std::string name;
  cv::Size size{1280, 720};
  double hfov_deg = 70;
  double distance_in = 61;  ///< camera centre to the table's centre
  double elevation_deg = 45;
  int bases = 16;  ///< per seed, of which `packed` stand in groups 0.3" apart
  int packed = 6;
  double diameter_in = 2.0;
  double facing_spread_deg = 360;  ///< 360 = figures face anywhere
  BaseTargetKind target = BaseTargetKind::kSquare;
  /// Markerless mode (vision/markerless.hpp) instead of reading the targets: the bases are found
  /// by their round tops, and each is named once, as a player would, by its true place at the
  /// first frame (`--name`). The scene's bases carry `target` all the same.
  bool markerless = false;
  std::string dictionary = "DICT_4X4_50";  ///< square markers' family (the corner markers too)
  bool refine_apriltag = false;            ///< OpenCV's AprilTag corner refinement, not ours
  Degradation degradation = typical_webcam();
  double lens_error = 0.005;  ///< the pipeline's focal length is off by this share
  int seeds = 2;
  int first_seed = 1;  ///< seeds first_seed … first_seed + seeds − 1
  int frames = 6;      ///< still frames (10 fps) per seed (`duels bench coverage`: 10)
  /// A base is named in every frame when it is named at its place in each of the last
  /// `steady_frames` frames (5: one cycle of the pipeline's searches of the whole table, which
  /// come one frame in 5; between them the rings are followed from where they were).
  int steady_frames = 5;
  /// What the table holds in play (issue 51): `dice_min`–`dice_max` dice on every base's top
  /// (d6, d8, d10, d12 in the rulebook's colours, about 0.6" across, anywhere on the top
  /// beside the figure: over the ring), figures of a real one's shape (`posed`: arms and a
  /// weapon over the rim, light flat hats and shoulders, capes) and a lamp 30–45° above the
  /// table at one side casting soft shadows over the neighbours.
  int dice_min = 0;
  int dice_max = 0;
  bool posed = false;
  bool lamp = false;
  /// When set, each table's clean picture comes from this image set instead of our renderer:
  /// `DIR/<name>-seed<N>.jpg`, rendered by POV-Ray from the very same scene (vision/povray.hpp;
  /// its truth file is checked against the scene), then degraded as ours are.
  std::string image_set;
  /// With `image_set`: render the pictures the set lacks with POV-Ray first (slow: minutes a
  /// table; needs the povray program).
  bool povray_render = false;
  /// When set, each table's first degraded frame is written there as a PNG (for a look).
  std::string save_dir;
  /// When set, every base reported off its place (and under whose name), every false ring and
  /// every base not named at the last frame is told there, a line each, with its frame and place.
  std::ostream* explain = nullptr;
};

/// The scores of a scenario (all seeds together).
struct CoverageResult {
  std::string name;
  std::array<int, 3> found{};  ///< near, middle, far third of the table's depth
  std::array<int, 3> all{};
  std::array<int, 3> every_frame{};  ///< named at their place (within 1") in each of the last
                                     ///< `steady_frames` frames, not only at the last one
  std::array<int, 3> located{};  ///< rings (or markerless discs) only: one fitted within 0.25" of
                                 ///< the base, named or not
  std::array<int, 3> half_hidden{};  ///< bases with less than half of their top's code band in
                                     ///< the camera's view (figures in front of it, their own
                                     ///< figure): no still picture shows their code
  double centre_p50_in = 0;
  double centre_p95_in = 0;
  double gap_p50_in = 0;
  double gap_p95_in = 0;
  int off_by_1in = 0;         ///< bases reported (seen) more than 1" from their truth (any frame)
  int identity_switches = 0;  ///< ids reported on another base's spot (any frame)
  int unnamed = 0;  ///< bases reported at the last frame under no base's id (markerless: discs
                    ///< the player did not name, false ones among them)
  /// Rings reported unnamed more than 1" from every base, counted in every frame they are
  /// (a ring in two frames counts twice): the window would show a base where none stands, and
  /// the match would take it for an opposing figure in the line of fire.
  int false_rings = 0;
  double pipeline_ms = 0;        ///< median per frame, one core
  double detect_markers_ms = 0;  ///< plain cv::aruco::detectMarkers on the same frames
  [[nodiscard]] int found_total() const { return found[0] + found[1] + found[2]; }
  [[nodiscard]] int all_total() const { return all[0] + all[1] + all[2]; }
  [[nodiscard]] int every_frame_total() const {
    return every_frame[0] + every_frame[1] + every_frame[2];
  }
};

/// The scene of a scenario for one seed (exposed for tests): the camera aimed so the table's
/// depth is centred in the picture, bases only where the camera sees their whole top.
SceneSpec coverage_scene(const CoverageScenario& scenario, std::uint64_t seed);

/// One seed's table as `run_coverage` sees it, so a bench can time the very same frames: the
/// scene, its clean picture and truth (nothing moves), and the degradation of its frames —
/// frame f is `degrade(clean, degradation, f)`.
struct CoverageTable {
  SceneSpec spec;
  FrameTruth truth;
  cv::Mat clean;
  Degradation degradation;
};
CoverageTable coverage_table(const CoverageScenario& scenario, int seed);

/// The file stem of a scenario's table in an image set: its name with '_' for spaces, then
/// "-seed<N>".
std::string image_set_stem(const CoverageScenario& scenario, int seed);

/// Puts `count` dice on `base`'s top (d6, d8, d10, d12 in the rulebook's colours, 0.55–0.65"
/// across, faces and turns at random) where they fit beside its figure and each other, over the
/// ring; fewer when no more fit.
void put_dice_on(SceneBaseSpec& base, int count, cv::RNG& rng);

/// True when the camera sees the whole top rim of a base at `c` (radius `r`, top `h` above the
/// table) inside the picture (2 % margin).
bool base_top_in_view(const calib::TablePlane& plane, cv::Point2d c, double r, double h);

/// The pipeline's idea of a scene's camera, as the bench hands it over: the focal length off by
/// `error` (sign by seed), and the table registered through that lens from the corner markers'
/// corners (as `duels calibrate table` would, from their true projections).
calib::TablePlane misjudged_plane(const SceneSpec& spec, double error, std::uint64_t seed);

/// Runs a scenario on one core.
CoverageResult run_coverage(const CoverageScenario& scenario);

/// The issue-15 scenarios: 720p and 1080p webcams over the stated ranges.
std::vector<CoverageScenario> standard_coverage_scenarios(BaseTargetKind target);

}  // namespace duels::vision
