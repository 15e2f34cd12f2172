#include "vision/pipeline.hpp"

#include <fmt/format.h>

#include <opencv2/imgproc.hpp>

#include <algorithm>
#include <cmath>
#include <optional>

#include "calib/camera_file.hpp"
#include "calib/detect.hpp"

namespace duels::vision {

namespace {

// The projected side (pixels) of a square marker of `side_in` lying at `at` (table inches,
// height included): the shorter of its two foreshortened sides. Nothing when off the picture.
std::optional<double> projected_side_px(const calib::TablePlane& plane, cv::Point3d at,
                                        double side_in) {
  const double h = side_in / 2;
  const auto x0 = plane.table_to_image({at.x - h, at.y, at.z});
  const auto x1 = plane.table_to_image({at.x + h, at.y, at.z});
  const auto y0 = plane.table_to_image({at.x, at.y - h, at.z});
  const auto y1 = plane.table_to_image({at.x, at.y + h, at.z});
  if (!x0 || !x1 || !y0 || !y1) return std::nullopt;
  return std::min(cv::norm(*x1 - *x0), cv::norm(*y1 - *y0));
}

// Where on the picture the map's smallest marker would be small: the box around every table
// point (2" grid) where it projects below `small_px`, padded by a marker.
cv::Rect band_of_small_markers(const calib::TablePlane& plane, const BaseMap& map,
                               double small_px) {
  if (map.bases.empty()) return {};
  const auto smallest = std::min_element(
      map.bases.begin(), map.bases.end(),
      [](const BaseMarker& a, const BaseMarker& b) { return a.marker_side_in < b.marker_side_in; });
  const cv::Size size = plane.camera().image_size;
  const calib::TableGeometry& table = plane.table();
  cv::Rect band;
  for (double y = 0; y <= table.depth_in + 1e-9; y += 2) {
    for (double x = 0; x <= table.width_in + 1e-9; x += 2) {
      const cv::Point3d at(x, y, smallest->marker_height_in);
      const auto side = projected_side_px(plane, at, smallest->marker_side_in);
      const auto px = plane.table_to_image(at);
      if (!side || !px || *side >= small_px) continue;
      const int pad = static_cast<int>(std::ceil(2 * small_px));
      const cv::Rect box(static_cast<int>(px->x) - pad, static_cast<int>(px->y) - pad, 2 * pad,
                         2 * pad);
      band = band.empty() ? box : (band | box);
    }
  }
  return band & cv::Rect(0, 0, size.width, size.height);
}

}  // namespace

Pipeline::Pipeline(calib::TablePlane plane, BaseMap map, DetectorOptions detector,
                   TrackerOptions tracker, SecondLookOptions second)
    : plane_(std::move(plane)),
      map_(std::move(map)),
      detector_([&] {
        detector.dictionary = map_.dictionary;
        return detector;
      }()),
      tracker_(tracker),
      second_(second) {
  for (const auto& b : map_.bases)
    tracker_.name(b.marker_id, b.figure);
  if (second_.enabled) band_ = band_of_small_markers(plane_, map_, second_.small_marker_px);
}

std::vector<cv::Rect> Pipeline::second_look_regions(const std::vector<Detection>& found,
                                                    std::int64_t frame) const {
  std::vector<cv::Rect> regions;
  if (!second_.enabled) return regions;
  const auto was_found = [&](int id) {
    return std::any_of(found.begin(), found.end(),
                       [&](const Detection& d) { return d.marker_id == id; });
  };
  bool unseen_missing = false;
  for (const auto& m : map_.bases) {
    if (was_found(m.marker_id)) continue;
    const auto last = std::find_if(last_.begin(), last_.end(), [&](const TrackedBase& b) {
      return b.marker_id == m.marker_id && b.state != BaseState::kLost;
    });
    if (last == last_.end()) {
      unseen_missing = true;
      continue;
    }
    // A tracked base whose small marker went missing: look again where it was.
    const cv::Point3d at(last->centre_in.x, last->centre_in.y, m.marker_height_in);
    const auto side = projected_side_px(plane_, at, m.marker_side_in);
    if (!side || *side >= second_.small_marker_px) continue;
    cv::Rect box;
    const double r = m.diameter_in / 2 + 0.5;
    const cv::Point2d around[] = {{-r, -r}, {r, -r}, {r, r}, {-r, r}};
    for (const cv::Point2d& d : around) {
      const auto px = plane_.table_to_image({at.x + d.x, at.y + d.y, at.z});
      if (!px) continue;
      const cv::Rect p(static_cast<int>(px->x), static_cast<int>(px->y), 1, 1);
      box = box.empty() ? p : (box | p);
    }
    if (!box.empty()) regions.push_back(box);
  }
  const bool discovery =
      second_.discovery_every <= 1 || frame % second_.discovery_every == 0 || processed_ == 0;
  if (unseen_missing && discovery && !band_.empty()) {
    // The band covers every region inside it.
    std::erase_if(regions, [&](const cv::Rect& r) { return (r & band_) == r; });
    regions.push_back(band_);
  }
  return regions;
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
  const cv::Mat gray = calib::to_gray(image);
  r.detections = detector_.detect_gray(gray, cv::Rect(0, 0, gray.cols, gray.rows));
  for (const cv::Rect& region : second_look_regions(r.detections, frame)) {
    ++r.second_looks;
    for (const Detection& d : detector_.detect_gray(gray, region, second_.upscale)) {
      const bool known = map_.find(d.marker_id) != nullptr;
      const bool already =
          std::any_of(r.detections.begin(), r.detections.end(),
                      [&](const Detection& x) { return x.marker_id == d.marker_id; });
      if (!known || already) continue;
      r.detections.push_back(d);
      ++r.found_on_second;
    }
  }
  std::sort(r.detections.begin(), r.detections.end(),
            [](const Detection& a, const Detection& b) { return a.marker_id < b.marker_id; });
  r.observations = locate_bases(r.detections, map_, plane_);
  r.state = measure_table(frame, time_s, tracker_.update(r.observations, time_s));
  last_ = r.state.bases;
  ++processed_;
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
