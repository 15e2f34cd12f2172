#pragma once
/// @file Marker mode: finding ArUco markers in a frame and turning the markers on bases into
/// base centres in table inches, through the table registration and corrected for the height
/// of the marker above the table.

#include <opencv2/aruco.hpp>
#include <opencv2/core.hpp>

#include <array>
#include <optional>
#include <string>
#include <vector>

#include "calib/table.hpp"
#include "common/error.hpp"
#include "vision/ring.hpp"

namespace duels::vision {

/// The schema version of base map files this program reads.
inline constexpr int kBaseMapSchemaVersion = 1;

/// One marker found in a frame: id, corners (clockwise from the marker picture's top-left,
/// pixels), centre and a score (0..1: how square and sharp it looked).
struct Detection {
  int marker_id = 0;
  std::array<cv::Point2f, 4> corners_px;
  cv::Point2d centre_px;
  double score = 1;
};

/// Detector tuning. The defaults suit table views from 720p to 1080p.
struct DetectorOptions {
  std::string dictionary = "DICT_4X4_50";
  bool aruco3 = false;        ///< OpenCV's ArUco3 fast path (faster at 1080p, loses tiny markers)
  bool refine_subpix = true;  ///< corner refinement (cornerSubPix inside the border cell)
  /// OpenCV's AprilTag corner refinement (CORNER_REFINE_APRILTAG) instead of ours; for the
  /// tag-family comparison in `duels bench coverage --refine apriltag`.
  bool refine_apriltag = false;
  double min_perimeter_rate =
      0.015;  ///< smallest marker perimeter, share of the image's larger side
};

/// Finds ArUco markers with cv::aruco. Throws DataException for an unknown dictionary name.
class MarkerDetector {
 public:
  explicit MarkerDetector(DetectorOptions options = {});
  [[nodiscard]] std::vector<Detection> detect(const cv::Mat& image) const;
  /// Detects inside `roi` of a grey image, enlarged `scale` times first (markers a few pixels
  /// per cell read better enlarged); corners come back in the whole image's pixels.
  [[nodiscard]] std::vector<Detection> detect_gray(const cv::Mat& gray, cv::Rect roi,
                                                   double scale = 1.0) const;
  [[nodiscard]] const DetectorOptions& options() const { return options_; }

 private:
  DetectorOptions options_;
  cv::Ptr<cv::aruco::Dictionary> dictionary_;
  cv::Ptr<cv::aruco::DetectorParameters> params_;
};

/// "6x6_250", "DICT_6X6_250" or "dict_6x6_250" → "DICT_6X6_250"; nothing when unknown.
std::optional<std::string> normalize_dictionary_name(const std::string& text);

/// Which figure a marker belongs to and where it sits on the base.
struct BaseMarker {
  int marker_id = 0;  ///< the square marker's id, or the ring's code (`target: ring`)
  bool ring = false;  ///< the base carries a ring (vision/ring.hpp) instead of a square marker
  RingStyle ring_style = RingStyle::kOneBand;  ///< which ring (`target: ring` or `ring2`)
  std::string figure;                          ///< figure (or base) name reported by the tracker
  double diameter_in = 2.0;                    ///< the base
  double marker_side_in = 1.0;     ///< printed side of the marker (black border included)
  double marker_height_in = 0.75;  ///< height of the marker's face above the table
  cv::Point2d offset_in{0, 0};     ///< marker centre from the base centre, base frame (+y = facing)
};

/// The marker → base map (`--bases MAP.yaml`):
/// ```yaml
/// schema_version: 1
/// dictionary: DICT_4X4_50
/// bases:
///   - {marker: 10, figure: Razor, diameter: 2.0, marker_side: 1.0, marker_height: 0.75, offset:
///   [0, 0.35]}
///   - {marker: 5, figure: Kaylee, diameter: 2.0, marker_height: 0.75, target: ring}
/// ```
/// `target: ring` — the base carries ring code `marker` round its top's edge (`duels print
/// bases`); marker_height is then the height of the base's top, marker_side and offset unused.
struct BaseMap {
  std::string dictionary = "DICT_4X4_50";
  std::vector<BaseMarker> bases;
  [[nodiscard]] const BaseMarker* find(int marker_id) const;
};

/// Parses a base map; DataException naming file, line, field and what was expected.
BaseMap parse_base_map(const std::string& text, const std::string& file);
BaseMap load_base_map(const std::string& path);

/// A base located from its marker in one frame, table inches.
struct BaseObservation {
  int marker_id = 0;
  cv::Point2d centre_in;
  double angle_deg = 0;  ///< facing direction (counter-clockwise from +x)
  double radius_in = 0;
  double confidence = 1;  ///< 0..1 from the marker's size check and detection score
};

/// Turns detections of mapped markers into base observations. Markers not in the map, or
/// whose size on the table disagrees with the map by more than 25 %, are left out (a marker
/// at the wrong height or a false detection).
std::vector<BaseObservation> locate_bases(const std::vector<Detection>& detections,
                                          const BaseMap& map, const calib::TablePlane& plane);

/// Where no base of radius `radius_in` is looked for, round one of the table's own markers
/// seen at `corners_px`: the marker where the camera's rays through its corners meet the bases'
/// tops (`top_height_in`), widened by the base's radius and `margin_share` of the marker's side
/// (a quarter: its white margin); table inches. Nothing when a corner does not meet that
/// height. Its black and white corners and the edge of its paper look like pieces of a base's
/// rim: markerless mode, which has no code to tell, keeps out of the margin too; the rings,
/// whose codes the paper does not carry, look for bases on it (`margin_share` 0).
std::optional<std::vector<cv::Point2f>> marker_keep_out(
    const calib::TablePlane& plane, const std::array<cv::Point2f, 4>& corners_px,
    double top_height_in, double radius_in, double margin_share = 0.25);
/// The same for a marker lying on the table with corners `corners_in` (table inches).
std::optional<std::vector<cv::Point2f>> marker_keep_out(
    const calib::TablePlane& plane, const std::array<cv::Point2d, 4>& corners_in,
    double top_height_in, double radius_in, double margin_share = 0.25);

}  // namespace duels::vision
