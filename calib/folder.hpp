#pragma once
/// @file The photo-folder flow of `duels calibrate --images DIR`: find the board in every photo,
/// calibrate, and explain every photo that was not used. Nothing is written here: the caller
/// writes the file only when this succeeded, so bad input never leaves a file behind.

#include <string>

#include "calib/image_source.hpp"
#include "calib/intrinsics.hpp"

namespace duels::calib {

/// What calibrating a folder produced: the calibration and every photo's fate.
struct FolderCalibration {
  FolderDetections detections;  ///< views found, and photos without a board (with reasons)
  CalibrationResult result;     ///< the camera (result.dropped: views rejected as outliers)
};

/// Detects and calibrates. Throws DataException naming the folder or file and what was expected:
/// missing or empty folder, unreadable image, mixed image sizes, no board in any photo (with
/// the detector's reason, e.g. a wrong --cols/--rows), too few usable views.
FolderCalibration calibrate_folder(const std::string& dir, const PatternSpec& spec,
                                   const CalibrationOptions& options = {});

}  // namespace duels::calib
