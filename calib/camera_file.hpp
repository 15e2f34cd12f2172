#pragma once
/// @file The calibration file: OpenCV FileStorage YAML with OpenCV's standard keys (so OpenCV's
/// tools load it and we load theirs) plus ours (schema_version, pattern, date, uncertainty,
/// the table registration). Writes are all-or-nothing; bad files give file:line: field errors.

#include <opencv2/core.hpp>

#include <optional>
#include <string>
#include <vector>

#include "calib/intrinsics.hpp"
#include "calib/lens.hpp"
#include "calib/pattern.hpp"
#include "calib/table.hpp"

namespace duels::calib {

/// The schema_version this program writes and reads.
inline constexpr int kCameraFileSchema = 1;

/// The table registration as stored in a calibration file.
struct TableRecord {
  TableGeometry table;
  Pose table_to_camera;         ///< table frame (inches) → camera
  std::string method;           ///< how it was registered ("markers 0,1,2,3 (DICT_4X4_50)")
  std::string date;             ///< ISO 8601, local time
  double rms_px = 0;            ///< registration reprojection RMS
  TableCorrespondences points;  ///< what it was solved from (for accuracy re-estimates)
  std::optional<AccuracyReport> accuracy;  ///< expected error (rms/p95/max; no map stored)
};

/// Everything a calibration file holds. Fields OpenCV's own tools do not write are optional.
struct CameraFile {
  Intrinsics intrinsics;
  std::string pattern;                  ///< describe(spec), empty when unknown
  cv::Size board_inner_corners;         ///< board_width/board_height (OpenCV sample keys)
  double square_size_mm = 0;            ///< square_size
  std::string date;                     ///< calibration_time
  double rms_px = -1;                   ///< avg_reprojection_error; -1 when unknown
  std::vector<double> per_view_rms_px;  ///< per_view_reprojection_errors
  std::vector<std::string> views;       ///< names of the views used
  std::vector<DroppedView> dropped;     ///< views left out and why
  std::vector<double> std_dev;          ///< fx fy cx cy k1 k2 p1 p2 k3, empty when unknown
  cv::Mat covariance;                   ///< 9×9 of the same, empty when unknown
  std::optional<TableRecord> table;
};

/// Builds the file content from a calibration.
CameraFile camera_file_from(const CalibrationResult& result, const PatternSpec& spec,
                            const std::string& date);

/// Writes the file (YAML; .xml and .json also work) through a temporary file renamed into
/// place, so a failure never leaves a half-written file. Throws DataException.
void write_camera_file(const std::string& path, const CameraFile& file);

/// Reads our files and OpenCV's (calibration sample: camera_matrix / distortion_coefficients /
/// image_width / image_height; interactive-calibration: cameraMatrix / dist_coeffs /
/// cameraResolution). Throws DataException naming file, line, field and what was expected.
CameraFile read_camera_file(const std::string& path);

/// The same from the text of a file; `path` names it in errors and picks the format by its
/// extension (.xml, .json, else YAML).
CameraFile parse_camera_file(const std::string& text, const std::string& path);

/// Local time as "2024-05-01T18:30:00".
std::string now_iso8601();

}  // namespace duels::calib
