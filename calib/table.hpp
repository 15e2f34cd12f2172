#pragma once
/// @file The table plane: the camera's pose over the table and the mapping between image pixels
/// and table inches (on the table or at a height above it), registration from markers or a
/// board, and the expected measurement error in inches.

#include <opencv2/core.hpp>

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "calib/detect.hpp"
#include "calib/lens.hpp"
#include "calib/pattern.hpp"
#include "common/error.hpp"

namespace duels::calib {

/// The playing area, inches. Table frame: origin at the near-left corner (the player's side),
/// x along the near edge to the right, y away from the player, z up (right-handed).
struct TableGeometry {
  double width_in = 60.0;
  double depth_in = 60.0;
};

/// The camera over the table: lens plus the pose of the table frame (inches) in the camera.
/// Maps image pixels to table inches by intersecting the pixel's ray with the horizontal plane
/// at the asked height (not a bare homography, so the top of a base 1" up maps correctly).
class TablePlane {
 public:
  TablePlane() = default;
  TablePlane(Intrinsics camera, Pose table_to_camera, TableGeometry table);

  [[nodiscard]] const Intrinsics& camera() const { return camera_; }
  [[nodiscard]] const Pose& pose() const { return pose_; }
  [[nodiscard]] const TableGeometry& table() const { return table_; }

  /// Table point (x, y, height above the table), inches → image pixel. Nothing when the point
  /// is behind the camera.
  [[nodiscard]] std::optional<cv::Point2d> table_to_image(const cv::Point3d& table_in) const;

  /// Image pixel → the table point (x, y) at `height_in` above the table seen through it.
  /// Nothing when the ray does not reach that plane in front of the camera.
  [[nodiscard]] std::optional<cv::Point2d> image_to_table(const cv::Point2d& px,
                                                          double height_in = 0.0) const;

  /// Where the camera's centre is, in table inches (z = height above the table).
  [[nodiscard]] cv::Point3d camera_position_in() const;
  /// Angle between the optical axis and straight down, degrees (0 = looking straight down).
  [[nodiscard]] double camera_tilt_deg() const;
  /// Image pixels per table inch around a table point (geometric mean of the two directions).
  [[nodiscard]] double px_per_in_at(const cv::Point2d& table_in) const;
  /// True when the point lies on the playing area.
  [[nodiscard]] bool on_table(const cv::Point2d& table_in) const;

 private:
  Intrinsics camera_;
  Pose pose_;
  TableGeometry table_;
  cv::Matx33d r_ = cv::Matx33d::eye();  // table → camera rotation
  cv::Vec3d centre_;                    // camera centre in the table frame
};

/// Where one printed ArUco marker lies on the table: centre and side, inches. The top edge of
/// the marker picture faces away from the player (+y).
struct MarkerPlacement {
  int id = 0;
  cv::Point2d centre_in;
  double side_in = 0;
};

/// A set of markers at known table positions, all from one dictionary.
struct MarkerLayout {
  std::string dictionary = "DICT_4X4_50";
  std::vector<MarkerPlacement> markers;
};

/// The printable corner set: one marker per table corner, its outer edges `inset_in` from the
/// table edges. Ids first_id.. go near-left, near-right, far-right, far-left.
MarkerLayout corner_marker_layout(const TableGeometry& table, double side_in, double inset_in = 0,
                                  const std::string& dictionary = "DICT_4X4_50", int first_id = 0);

/// ArUco markers found in one image (corners clockwise from the picture's top-left).
struct MarkerDetections {
  std::vector<int> ids;
  std::vector<std::array<cv::Point2f, 4>> corners_px;
};

/// Finds markers of a dictionary with sub-pixel corners. Error only for an unknown dictionary.
Expected<MarkerDetections, std::string> detect_markers(const cv::Mat& image,
                                                       const std::string& dictionary);

/// Table points matched to image points: what a registration is solved from, kept so the
/// accuracy estimate can replay it.
struct TableCorrespondences {
  std::vector<cv::Point3d> table_in;
  std::vector<cv::Point2d> image_px;
  std::string method;  ///< e.g. "markers 0,1,2,3 (DICT_4X4_50)"
  /// Markers: the ids whose corners were used, ascending (empty for a board).
  std::vector<int> marker_ids;
};

/// Matches detected markers to the layout (unknown ids are ignored).
TableCorrespondences marker_correspondences(const MarkerDetections& found,
                                            const MarkerLayout& layout);

/// A board lying face up on the table: where the top-left corner of its printed squares lies
/// (inches from the table origin) and how far it is turned counter-clockwise (degrees). At 0° the
/// top edge of the printed board faces away from the player.
struct BoardPlacement {
  cv::Point2d corner_in;
  double angle_deg = 0;
};

/// Maps a board view's corners to table points for a placement.
TableCorrespondences board_correspondences(const BoardView& view, const PatternSpec& spec,
                                           const BoardPlacement& placement);

/// A solved registration: the plane and how well the points fit.
struct Registration {
  TablePlane plane;
  double rms_px = 0;  ///< RMS reprojection error of the points used
  TableCorrespondences points;
};

/// Solves the camera pose from table correspondences (planar PnP, refined by Levenberg-Marquardt).
/// Errors: fewer than 4 points, all on a line, or a pose that puts the camera under the table
/// (wrong ids, layout or board placement).
Expected<Registration, std::string> register_table(const Intrinsics& camera,
                                                   const TableCorrespondences& points,
                                                   const TableGeometry& table);

/// Options of estimate_accuracy.
struct AccuracyOptions {
  int samples = 200;       ///< Monte-Carlo draws
  int grid = 13;           ///< grid points per side over the playing area
  double height_in = 0.0;  ///< height of the measured points above the table
  std::uint64_t seed = 1;  ///< draws are reproducible
};

/// Expected measurement error over the table, inches, from the calibration's uncertainty.
struct AccuracyReport {
  double rms_in = 0;                ///< over the whole table
  double p95_in = 0;                ///< 95 % of measurements are better than this
  double max_in = 0;                ///< worst draw at the worst place
  double near_rms_in = 0;           ///< along the near edge (y = 0)
  double far_rms_in = 0;            ///< along the far edge (y = depth)
  int grid = 0;                     ///< cells per side of cell_rms_in
  std::vector<double> cell_rms_in;  ///< grid×grid, row 0 = near edge, column 0 = left
  /// grid×grid: measurements behind each cell_rms_in; 0 = the point is out of the camera's
  /// view (its cell_rms_in is then 0 and means nothing).
  std::vector<int> cell_draws;
  double registration_noise_px = 0;  ///< corner noise assumed for the registration
  double visible_fraction = 0;       ///< share of the grid points inside the image
  /// Share of (visible grid point, draw) pairs that gave a measurement at all (a draw whose pose
  /// can't be solved, or whose ray misses the table, gives none).
  double measured_fraction = 0;
  int samples = 0;
};

/// Propagates the uncertainty by Monte Carlo: each draw perturbs the intrinsics by their
/// covariance (9×9: fx fy cx cy k1 k2 p1 p2 k3; empty = exact), re-registers the table from
/// the correspondences' ideal image points plus Gaussian noise of `noise_rms_px` (2-D RMS),
/// and maps every grid point's true pixel back to the table. Reports the error statistics.
AccuracyReport estimate_accuracy(const TablePlane& plane, const cv::Mat& intrinsics_covariance,
                                 const TableCorrespondences& points, double noise_rms_px,
                                 const AccuracyOptions& options = {});

/// Corner noise (2-D RMS, px) implied by a registration's residual, corrected for the six pose
/// parameters it fitted.
double registration_noise_px(const Registration& registration);

/// Why a set-up with this expected error can't be used to measure a table, in words a player
/// can act on; nothing when it can. Refused: no part of the table in view, draws that could not
/// be measured at all, or 95 % of measurements off by more than `limit_in`.
std::optional<std::string> accuracy_problem(const AccuracyReport& report, double limit_in);

}  // namespace duels::calib
