#pragma once
/// @file Timing the marker-mode pipeline against plain cv::aruco::detectMarkers on the same
/// frames in the same run (`duels bench vision`, bench/vision_pipeline_bench.cpp).

#include <opencv2/core.hpp>

#include <string>
#include <vector>

#include "vision/pipeline.hpp"
#include "vision/scene.hpp"

namespace duels::vision {

/// Per-frame medians, milliseconds, of our pipeline and of the baseline.
struct PipelineTiming {
  cv::Size size;
  int frames = 0;
  double pipeline_ms = 0;        ///< detect + refine + locate + track + measure
  double detect_markers_ms = 0;  ///< cvtColor + cv::aruco::detectMarkers (default parameters)
  [[nodiscard]] double ratio() const {
    return detect_markers_ms > 0 ? pipeline_ms / detect_markers_ms : 0;
  }
};

/// Times both over `frames` (each frame `repeats` times; medians over everything), on one
/// thread (cv::setNumThreads(1) during the run).
PipelineTiming time_pipeline(const std::vector<cv::Mat>& frames, const calib::TablePlane& plane,
                             const BaseMap& map, int repeats = 3,
                             const DetectorOptions& detector = {});

/// The frames of a scene rendered at `width` (intrinsics scaled, supersample 1), every
/// `step`-th frame, with the matching table plane and base map.
struct ScaledScene {
  std::vector<cv::Mat> frames;
  calib::TablePlane plane;
  BaseMap map;
};
ScaledScene render_scaled(SceneSpec spec, int width, int step);

}  // namespace duels::vision
