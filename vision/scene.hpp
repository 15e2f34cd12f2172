#pragma once
/// @file Synthetic table scenes as data: the table, the camera, bases with their markers and
/// rough figures, scripted moves and sweeping hands, and how the picture is degraded. Read
/// from YAML (`schema_version: 1`, inches, seconds); see assets/scenes/demo.yaml.
///
/// ```yaml
/// schema_version: 1
/// seed: 7
/// fps: 10
/// duration: 12                      # seconds
/// # corner_markers: side of the four registration markers (0 = none)
/// table: {width: 60, depth: 60, felt_grey: 110, corner_markers: 4}
/// camera: {width: 1920, height: 1080, fx: 1000, distance: 51.2, elevation: 45, azimuth: 0,
///          target: [30, 26], dist: [-0.12, 0.08, 0.0008, -0.0005, -0.02]}
/// look: {supersample: 2, noise: 2.0, blur: 0.5, motion_blur: true, lighting: 0.25,
///        lamp: {at: [-20, 30, 30], radius: 3, strength: 0.7, ambient: 0.45}}  # optional lamp
/// dictionary: DICT_4X4_50
/// bases:
///   - id: razor
///     figure: Razor                  # optional, a figure name (assets) for the tracker output
///     marker: 10
///     target: square                 # optional: square (default), ring or ring2 (vision/ring.hpp;
///                                    # the ring's code is `marker`)
///     diameter: 2.0
///     height: 0.75
///     marker_side: 1.0
///     marker_offset: [0, 0.35]       # marker centre from the base centre; +y = facing
///     figure_height: 4.5             # 0 = no figure drawn
///     figure_radius: 0.36            # optional; the figure stands at the back of the base and
///                                    # the marker must keep clear of it
///     colour: [40, 60, 200]          # BGR of the base and figure
///     dice:                          # optional: dice lying on the base's top (issue 51)
///       - {at: [0.5, 0.3], colour: black, sides: 6, face: 5, size: 0.6, yaw: 20, t_on: 2}
///     path:                          # keyframes, linear in between; angle = facing, degrees
///       - {t: 0, x: 12, y: 10, angle: 90}
///       - {t: 4, x: 20, y: 18}
/// hands:
///   - {t0: 5, t1: 7, from: [0, 30], to: [60, 34], height: 4, radius: 1.6}
/// ```

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "calib/lens.hpp"
#include "calib/table.hpp"
#include "vision/ring.hpp"

namespace duels::vision {

/// The schema version of scene files this program reads.
inline constexpr int kSceneSchemaVersion = 1;

/// A keyframe of a base's scripted path: where it is at time `t_s` and which way it faces.
struct Keyframe {
  double t_s = 0;
  double x_in = 0;
  double y_in = 0;
  double angle_deg = 90;  ///< facing direction, counter-clockwise from +x (90 = away from player)
};

/// What a base carries to be found by: a square ArUco marker on its top (`marker_side`,
/// `marker_offset`), or a coded ring printed round the outer edge of its top (vision/ring.hpp;
/// the ring's code is the base's `marker` id).
enum class BaseTargetKind { kSquare, kRing, kRing2 };
/// The ring style of a ring target (kRing: one band, kRing2: two bands; kSquare: none).
RingStyle ring_style_of(BaseTargetKind kind);

/// The rulebook's dice colours.
enum class DieColour { kWhite, kYellow, kBlue, kGreen, kBlack, kRed };
/// "white", "yellow", …; nothing for another word.
std::optional<DieColour> die_colour_by_name(const std::string& name);
/// The word for a colour.
const char* die_colour_name(DieColour colour);

/// A die lying on a base's top, as the rules put up to six there at every round's start: a
/// convex solid (d4 a tetrahedron, d6 a cube, d8 an octahedron, d10 a pentagonal
/// trapezohedron, d12 a dodecahedron) resting on a face, with pips or numbers drawn dark on a
/// light die and light on a dark one, there from `t_on_s` until `t_off_s`.
struct DieSpec {
  cv::Point2d at_in;  ///< its centre, base frame (+y = facing), inches
  int sides = 6;
  double size_in = 0.6;  ///< across (a d6's edge)
  double yaw_deg = 0;
  DieColour colour = DieColour::kWhite;
  int face = 1;  ///< the face on top (1 … sides)
  double t_on_s = 0;
  double t_off_s = 1e9;
};

/// How a figure is drawn: `kRough` a capsule and a head behind the marker; `kPosed` a figure of a
/// real one's shape — arms held out, a weapon reaching over the rim, shoulders, a cape, a light
/// flat hat or helmet top — so that parts of it overhang the base's rim and its top.
enum class FigureStyle { kRough, kPosed };

/// A base in a synthetic scene: its marker, its looks and its scripted path.
struct SceneBaseSpec {
  std::string id;
  std::string figure;  ///< figure name, may be empty
  int marker_id = 0;
  BaseTargetKind target = BaseTargetKind::kSquare;
  double diameter_in = 2.0;
  double height_in = 0.75;
  double marker_side_in = 1.0;
  cv::Point2d marker_offset_in{0, 0};  ///< base frame: +y along the facing direction
  double figure_height_in = 4.5;
  double figure_radius_in = 0;  ///< the figure's body; 0 = from the diameter (see figure_footprint)
  cv::Scalar colour{60, 60, 200};
  FigureStyle figure_style = FigureStyle::kRough;
  std::uint32_t figure_variant = 0;  ///< a posed figure's pose and paint (any number)
  std::vector<Keyframe> path;        ///< sorted by time, at least one
  std::vector<DieSpec> dice;         ///< dice lying on its top (they move with it)
};

/// A hand sweeping straight across the table between two times.
struct HandSweep {
  double t0_s = 0;
  double t1_s = 1;
  cv::Point2d from_in;
  cv::Point2d to_in;
  double height_in = 4;
  double radius_in = 1.6;
};

/// A lamp beside the table: a round light of `radius_in` at `at_in` (table inches, z up) that
/// lights what it sees by Lambert's law (falling off with the square of the distance, 1 at the
/// table's middle) and casts soft shadows; what it does not reach keeps `ambient`.
struct Lamp {
  bool on = false;
  cv::Point3d at_in{-25, 30, 35};
  double radius_in = 3;
  double strength = 0.7;
  double ambient = 0.45;
};

/// How the renderer degrades the picture.
struct SceneLook {
  int supersample = 2;
  double noise_sigma = 2.0;  ///< grey levels
  double blur_sigma_px = 0.5;
  bool motion_blur = true;  ///< average sub-frames over the exposure when something moves
  double exposure_s = 0.02;
  double lighting = 0.25;  ///< strength of the uneven illumination (0 = flat)
  int felt_grey = 110;
  Lamp lamp;
};

/// A whole synthetic scene.
struct SceneSpec {
  std::string name;
  std::uint64_t seed = 1;
  double fps = 10;
  double duration_s = 10;
  calib::TableGeometry table;
  double corner_marker_side_in = 4;  ///< registration markers at the corners; 0 = none
  std::string dictionary = "DICT_4X4_50";
  calib::Intrinsics camera;
  calib::Pose table_to_camera;
  SceneLook look;
  std::vector<SceneBaseSpec> bases;
  std::vector<HandSweep> hands;

  [[nodiscard]] int frame_count() const;
};

/// Where a base is at a time (interpolated along its path).
struct BasePose {
  cv::Point2d centre_in;
  double angle_deg = 90;
};
/// The pose of a base at `t_s`.
/// The registration markers a scene draws at the table's corners (0.5" in from both edges),
/// empty when it draws none: what the renderer paints and where trackers of it look for no base.
calib::MarkerLayout scene_corner_markers(const SceneSpec& spec);

BasePose base_pose_at(const SceneBaseSpec& base, double t_s);

/// Where a base's figure stands on its top, in the base frame (+y = facing): a disc at the back
/// of the base. The renderer draws the figure's body over exactly this disc, so a marker must
/// keep clear of it.
struct FigureFootprint {
  cv::Point2d centre_in;
  double radius_in = 0;
};
/// The footprint of `base`'s figure, or nothing when the base carries no figure.
std::optional<FigureFootprint> figure_footprint(const SceneBaseSpec& base);

/// What is wrong with where `base`'s marker sits, in the words of an error's "expected" part
/// (with the field to blame), or nothing when the marker lies wholly on the base's top and
/// clear of its figure.
struct MarkerPlacementProblem {
  std::string field;     ///< "marker_side" or "marker_offset"
  std::string expected;  ///< what would be right
};
std::optional<MarkerPlacementProblem> marker_placement_problem(const SceneBaseSpec& base);

/// The camera looking at `target_in` from `distance_in` away, `elevation_deg` above the table
/// and turned `azimuth_deg` around it (0 = from the player's side).
calib::Pose camera_pose_over_table(cv::Point2d target_in, double distance_in, double elevation_deg,
                                   double azimuth_deg);

/// Parses a scene. Every problem is collected; a DataException names file, line, field and
/// what was expected.
SceneSpec parse_scene_spec(const std::string& text, const std::string& file);
/// Same, reading a file.
SceneSpec load_scene_spec(const std::string& path);

/// A scene by name or file: "demo" → assets/scenes/demo.yaml under `assets_dir`, anything
/// ending in .yaml is a path.
SceneSpec load_named_scene(const std::string& name_or_path, const std::string& assets_dir);

}  // namespace duels::vision
