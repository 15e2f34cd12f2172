#include "vision/pipeline.hpp"

#include <fmt/format.h>

#include "calib/camera_file.hpp"

namespace duels::vision {

Pipeline::Pipeline(calib::TablePlane plane, BaseMap map, DetectorOptions detector,
                   TrackerOptions tracker)
    : plane_(std::move(plane)),
      map_(std::move(map)),
      detector_([&] {
        detector.dictionary = map_.dictionary;
        return detector;
      }()),
      tracker_(tracker) {
  for (const auto& b : map_.bases)
    tracker_.name(b.marker_id, b.figure);
}

PipelineResult Pipeline::process(const cv::Mat& image, std::int64_t frame, double time_s) {
  const cv::Size expected = plane_.camera().image_size;
  if (image.size() != expected) {
    throw DataException(
        {"<frame>", 0, "--calib",
         fmt::format("a calibration for {}x{} frames (the source delivers {}x{}: calibrate "
                     "this camera at this resolution)",
                     expected.width, expected.height, image.cols, image.rows)});
  }
  PipelineResult r;
  r.detections = detector_.detect(image);
  r.observations = locate_bases(r.detections, map_, plane_);
  r.state = measure_table(frame, time_s, tracker_.update(r.observations, time_s));
  return r;
}

BaseMap base_map_from_scene(const SceneSpec& scene) {
  BaseMap map;
  map.dictionary = scene.dictionary;
  for (const auto& b : scene.bases) {
    BaseMarker m;
    m.marker_id = b.marker_id;
    m.figure = b.figure.empty() ? b.id : b.figure;
    m.diameter_in = b.diameter_in;
    m.marker_side_in = b.marker_side_in;
    m.marker_height_in = b.height_in;
    m.offset_in = b.marker_offset_in;
    map.bases.push_back(m);
  }
  return map;
}

calib::TablePlane plane_from_scene(const SceneSpec& scene) {
  return {scene.camera, scene.table_to_camera, scene.table};
}

calib::TablePlane plane_from_calibration(const std::string& path) {
  const calib::CameraFile file = calib::read_camera_file(path);
  if (!file.table) {
    throw DataException({path, 0, "table",
                         "a calibration with a table registration (run `duels calibrate table` "
                         "first)"});
  }
  return {file.intrinsics, file.table->table_to_camera, file.table->table};
}

}  // namespace duels::vision
