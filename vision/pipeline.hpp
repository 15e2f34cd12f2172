#pragma once
/// @file The whole per-frame vision pipeline in marker mode: detect markers → locate bases on
/// the table → track → measure. Plus the glue that gets its inputs: the base map and table
/// plane of a synthetic scene, and the table plane of a calibration file.

#include <opencv2/core.hpp>

#include <string>

#include "calib/table.hpp"
#include "vision/markers.hpp"
#include "vision/scene.hpp"
#include "vision/tracker.hpp"

namespace duels::vision {

/// One frame through the pipeline: the raw detections (for drawing/debugging) and the state.
struct PipelineResult {
  std::vector<Detection> detections;
  std::vector<BaseObservation> observations;
  TableState state;
};

/// Detector, base map, table plane and tracker together. Frames must have the calibration's
/// resolution (a DataException says so otherwise).
class Pipeline {
 public:
  Pipeline(calib::TablePlane plane, BaseMap map, DetectorOptions detector = {},
           TrackerOptions tracker = {});
  PipelineResult process(const cv::Mat& image, std::int64_t frame, double time_s);
  [[nodiscard]] const calib::TablePlane& plane() const { return plane_; }
  [[nodiscard]] const BaseMap& map() const { return map_; }

 private:
  calib::TablePlane plane_;
  BaseMap map_;
  MarkerDetector detector_;
  Tracker tracker_;
};

/// The base map of a synthetic scene (its bases' markers, sizes and offsets).
BaseMap base_map_from_scene(const SceneSpec& scene);
/// The exact table plane of a synthetic scene's camera.
calib::TablePlane plane_from_scene(const SceneSpec& scene);
/// The table plane stored in a calibration file. Throws DataException when the file has no
/// table registration.
calib::TablePlane plane_from_calibration(const std::string& path);

}  // namespace duels::vision
