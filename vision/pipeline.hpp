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

/// The second look for small markers: far from the camera a marker is a few pixels per cell
/// and the first pass over the whole frame can miss it. Bases the map knows but the first pass
/// did not find get another look, enlarged: where a tracked base was last seen (every frame),
/// and over the whole band of the picture where markers are small (every `discovery_every`
/// frames, for bases not yet seen).
struct SecondLookOptions {
  bool enabled = true;
  double small_marker_px = 24;  ///< markers whose projected side is below this count as small
  double upscale = 1.5;         ///< enlargement of the second look (1.5 read the most in tests)
  int discovery_every = 10;     ///< frames between looks over the whole small-marker band
};

/// One frame through the pipeline: the raw detections (for drawing/debugging) and the state.
struct PipelineResult {
  std::vector<Detection> detections;
  std::vector<BaseObservation> observations;
  TableState state;
  int second_looks = 0;     ///< regions looked at again this frame
  int found_on_second = 0;  ///< markers only the second look found
};

/// Detector, base map, table plane and tracker together. Frames must have the calibration's
/// resolution (a DataException says so otherwise).
class Pipeline {
 public:
  Pipeline(calib::TablePlane plane, BaseMap map, DetectorOptions detector = {},
           TrackerOptions tracker = {}, SecondLookOptions second = {});
  PipelineResult process(const cv::Mat& image, std::int64_t frame, double time_s);
  [[nodiscard]] const calib::TablePlane& plane() const { return plane_; }
  [[nodiscard]] const BaseMap& map() const { return map_; }
  /// The part of the picture where the map's smallest marker is small (empty when none is).
  [[nodiscard]] cv::Rect small_marker_band() const { return band_; }

 private:
  std::vector<cv::Rect> second_look_regions(const std::vector<Detection>& found,
                                            std::int64_t frame) const;

  calib::TablePlane plane_;
  BaseMap map_;
  MarkerDetector detector_;
  Tracker tracker_;
  SecondLookOptions second_;
  cv::Rect band_;
  std::vector<TrackedBase> last_;  ///< the previous frame's bases
  std::int64_t processed_ = 0;
};

/// The base map of a synthetic scene (its bases' markers, sizes and offsets).
BaseMap base_map_from_scene(const SceneSpec& scene);
/// The exact table plane of a synthetic scene's camera.
calib::TablePlane plane_from_scene(const SceneSpec& scene);
/// The table plane stored in a calibration file. Throws DataException when the file has no
/// table registration.
calib::TablePlane plane_from_calibration(const std::string& path);

}  // namespace duels::vision
