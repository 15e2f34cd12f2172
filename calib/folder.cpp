#include "calib/folder.hpp"

#include <fmt/format.h>

#include "common/error.hpp"

namespace duels::calib {

FolderCalibration calibrate_folder(const std::string& dir, const PatternSpec& spec,
                                   const CalibrationOptions& options) {
  if (const auto bad = validate(spec)) throw DataException({"<command line>", 0, "pattern", *bad});
  FolderCalibration out;
  out.detections = detect_in_folder(dir, spec);
  const auto& d = out.detections;
  if (d.views.empty()) {
    const Miss& first = d.misses.empty() ? d.skipped.front() : d.misses.front();
    throw DataException(
        {dir, 0, "--images",
         fmt::format("photos showing the board ({}); it was found in none of the {} images "
                     "({}: {})",
                     describe(spec), d.misses.size() + d.skipped.size(), first.name,
                     first.reason)});
  }
  auto result = calibrate(d.views, options);
  if (!result) {
    throw DataException({dir, 0, "--images",
                         fmt::format("enough good photos of the board: {} (board found in {} of "
                                     "{} images)",
                                     result.error(), d.views.size(),
                                     d.views.size() + d.misses.size() + d.skipped.size())});
  }
  out.result = std::move(result).value();
  return out;
}

}  // namespace duels::calib
