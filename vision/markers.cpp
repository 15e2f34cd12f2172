#include "vision/markers.hpp"

#include <fmt/format.h>

#include <opencv2/imgproc.hpp>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <fstream>
#include <sstream>

#include "calib/detect.hpp"
#include "calib/pattern.hpp"
#include "common/yaml_read.hpp"
#include "vision/ring.hpp"

namespace duels::vision {

std::optional<std::string> normalize_dictionary_name(const std::string& text) {
  std::string upper;
  for (char c : text)
    upper += static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  if (upper.rfind("DICT_", 0) != 0) upper = "DICT_" + upper;
  if (!calib::dictionary_by_name(upper)) return std::nullopt;
  return upper;
}

MarkerDetector::MarkerDetector(DetectorOptions options) : options_(std::move(options)) {
  const auto name = normalize_dictionary_name(options_.dictionary);
  if (!name) {
    throw DataException({"<command line>", 0, "dictionary",
                         fmt::format("an ArUco dictionary such as 4x4_50 or 6x6_250, not '{}'",
                                     options_.dictionary)});
  }
  options_.dictionary = *name;
  dictionary_ = calib::dictionary_by_name(*name);
  params_ = cv::aruco::DetectorParameters::create();
  params_->minMarkerPerimeterRate = options_.min_perimeter_rate;
  params_->cornerRefinementMethod =
      options_.refine_apriltag ? cv::aruco::CORNER_REFINE_APRILTAG : cv::aruco::CORNER_REFINE_NONE;
  params_->useAruco3Detection = options_.aruco3;
  // Far bases are small and foreshortened: finer contour approximation and more samples per
  // cell when reading the bits.
  params_->polygonalApproxAccuracyRate = 0.05;
  params_->perspectiveRemovePixelPerCell = 8;
  params_->minCornerDistanceRate = 0.03;
  // Two thresholding passes (3 and 13 px windows) instead of OpenCV's three (3, 13, 23): base
  // markers are small, the widest pass found no extra base in the accuracy scenes and cost a
  // third of the time (6.8 vs 9.8 ms per 720p frame).
  params_->adaptiveThreshWinSizeMin = 3;
  params_->adaptiveThreshWinSizeMax = 13;
  params_->adaptiveThreshWinSizeStep = 10;
  if (options_.aruco3) {
    params_->minSideLengthCanonicalImg = 16;
    params_->minMarkerLengthRatioOriginalImg = 0.0f;
  }
}

std::vector<Detection> MarkerDetector::detect(const cv::Mat& image) const {
  if (image.empty()) return {};
  const cv::Mat gray = calib::to_gray(image);
  return detect_gray(gray, cv::Rect(0, 0, gray.cols, gray.rows));
}

std::vector<Detection> MarkerDetector::detect_gray(const cv::Mat& gray, cv::Rect roi,
                                                   double scale) const {
  std::vector<Detection> out;
  roi &= cv::Rect(0, 0, gray.cols, gray.rows);
  if (roi.empty() || scale <= 0) return out;
  cv::Mat view = gray(roi);
  cv::Ptr<cv::aruco::DetectorParameters> params = params_;
  if (scale != 1.0 || roi.size() != gray.size()) {
    if (scale != 1.0) {
      cv::Mat enlarged;
      cv::resize(view, enlarged, cv::Size(), scale, scale, cv::INTER_LINEAR);
      view = enlarged;
    }
    // The smallest marker keeps its size in the whole image's pixels.
    params = cv::makePtr<cv::aruco::DetectorParameters>(*params_);
    params->minMarkerPerimeterRate = options_.min_perimeter_rate * std::max(gray.cols, gray.rows) *
                                     scale / std::max(view.cols, view.rows);
    params->minMarkerPerimeterRate = std::min(params->minMarkerPerimeterRate, 0.5);
  }
  std::vector<std::vector<cv::Point2f>> corners;
  std::vector<int> ids;
  cv::aruco::detectMarkers(view, dictionary_, corners, ids, params);
  const int cells = dictionary_->markerSize + 2;
  const cv::Point2f origin(static_cast<float>(roi.x), static_cast<float>(roi.y));
  const auto inv = static_cast<float>(1.0 / scale);
  for (std::size_t i = 0; i < ids.size(); ++i) {
    auto& c = corners[i];
    double side_min = 1e9;
    double side_max = 0;
    for (int k = 0; k < 4; ++k) {
      const double s =
          cv::norm(c[static_cast<std::size_t>(k)] - c[static_cast<std::size_t>((k + 1) % 4)]);
      side_min = std::min(side_min, s);
      side_max = std::max(side_max, s);
    }
    if (options_.refine_subpix && !options_.refine_apriltag) {
      // The search window must stay inside the black border cell next to each corner.
      const int half = std::clamp(static_cast<int>(side_min / cells * 0.8), 1, 5);
      cv::cornerSubPix(view, c, cv::Size(half, half), cv::Size(-1, -1),
                       cv::TermCriteria(cv::TermCriteria::EPS + cv::TermCriteria::COUNT, 30, 0.01));
    }
    Detection d;
    d.marker_id = ids[i];
    cv::Point2d sum(0, 0);
    for (std::size_t k = 0; k < 4; ++k) {
      d.corners_px[k] = c[k] * inv + origin;
      sum += cv::Point2d(d.corners_px[k]);
    }
    d.centre_px = sum * 0.25;
    d.score = side_max > 0 ? std::clamp(side_min / side_max, 0.0, 1.0) : 0.0;
    out.push_back(d);
  }
  std::sort(out.begin(), out.end(),
            [](const Detection& a, const Detection& b) { return a.marker_id < b.marker_id; });
  return out;
}

const BaseMarker* BaseMap::find(int marker_id) const {
  for (const auto& b : bases) {
    if (b.marker_id == marker_id) return &b;
  }
  return nullptr;
}

BaseMap parse_base_map(const std::string& text, const std::string& file) {
  const YAML::Node root = parse_yaml_text(text, file);
  FieldReader r(file);
  BaseMap map;
  if (!r.expect_map(root, "", {"schema_version", "dictionary", "bases"})) r.throw_if_errors();
  r.schema_version(root, kBaseMapSchemaVersion);
  if (auto d = r.text(root, "dictionary", "", false)) {
    if (auto n = normalize_dictionary_name(*d)) {
      map.dictionary = *n;
    } else {
      r.error(root["dictionary"], "dictionary", "an ArUco dictionary name such as DICT_4X4_50",
              root);
    }
  }
  const YAML::Node bases = r.sequence(root, "bases", "", true);
  if (bases.size() == 0 && bases.IsSequence() && root["bases"].IsDefined()) {
    r.error(root["bases"], "bases", "at least one base", root);
  }
  for (std::size_t i = 0; i < bases.size(); ++i) {
    const YAML::Node b = bases[i];
    const std::string path = index_path("bases", i);
    if (!r.expect_map(
            b, path,
            {"marker", "figure", "diameter", "marker_side", "marker_height", "offset", "target"})) {
      continue;
    }
    BaseMarker m;
    m.marker_id = r.integer(b, "marker", path, true, 0, 999).value_or(4);
    m.figure = r.text(b, "figure", path, true).value_or("");
    m.diameter_in = r.number(b, "diameter", path, true, 0.5, 12).value_or(2);
    if (auto t = r.text(b, "target", path, false)) {
      if (*t == "ring" || *t == "ring2") {
        m.ring = true;
        m.ring_style = *t == "ring2" ? RingStyle::kTwoBand : RingStyle::kOneBand;
        if (m.marker_id >= ring_code_count(m.ring_style)) {
          r.error(b["marker"], join_path(path, "marker"),
                  fmt::format("a {} code from 0 to {}", *t, ring_code_count(m.ring_style) - 1), b);
        }
      } else if (*t != "square") {
        r.error(b["target"], join_path(path, "target"), "square, ring or ring2", b);
      }
    }
    // Square markers 0-3 are the table's corner markers (calibrate table, print markers): a
    // base with one of them would be taken for a corner and never tracked. (A ring's code is
    // no ArUco id: rings are numbered from 0.)
    if (!m.ring && b["marker"].IsDefined() && m.marker_id < 4) {
      r.error(b["marker"], join_path(path, "marker"),
              fmt::format("a marker id from 4 up ({} is one of the table's corner markers 0-3)",
                          m.marker_id),
              b);
    }
    m.marker_side_in = r.number(b, "marker_side", path, !m.ring, 0.2, 12).value_or(1);
    m.marker_height_in = r.number(b, "marker_height", path, true, 0, 24).value_or(0.75);
    const YAML::Node off = b["offset"];
    if (off.IsDefined() && !off.IsNull()) {
      double x = 0;
      double y = 0;
      if (!off.IsSequence() || off.size() != 2 || !YAML::convert<double>::decode(off[0], x) ||
          !YAML::convert<double>::decode(off[1], y) || std::abs(x) > 12 || std::abs(y) > 12) {
        r.error(off, join_path(path, "offset"), "[x, y] in inches (base frame, +y = facing)", b);
      } else {
        m.offset_in = {x, y};
      }
    }
    if (map.find(m.marker_id)) {
      r.error(b["marker"], join_path(path, "marker"), "a marker id used by no other base", b);
    }
    map.bases.push_back(m);
  }
  r.throw_if_errors();
  return map;
}

BaseMap load_base_map(const std::string& path) {
  return parse_base_map(read_text_file(path, "a readable base map file (YAML)"), path);
}

std::vector<BaseObservation> locate_bases(const std::vector<Detection>& detections,
                                          const BaseMap& map, const calib::TablePlane& plane) {
  std::vector<BaseObservation> out;
  for (const auto& d : detections) {
    const BaseMarker* m = map.find(d.marker_id);
    if (!m || m->ring) continue;
    std::array<cv::Point2d, 4> on_table;
    bool ok = true;
    for (std::size_t k = 0; k < 4 && ok; ++k) {
      const auto p = plane.image_to_table(cv::Point2d(d.corners_px[k]), m->marker_height_in);
      ok = p.has_value();
      if (ok) on_table[k] = *p;
    }
    if (!ok) continue;
    // The plane at the marker's height maps the square exactly: its corners' mean is its centre.
    const cv::Point2d centre = 0.25 * (on_table[0] + on_table[1] + on_table[2] + on_table[3]);
    double side = 0;
    for (std::size_t k = 0; k < 4; ++k)
      side += cv::norm(on_table[k] - on_table[(k + 1) % 4]) / 4;
    const double size_error = std::abs(side / m->marker_side_in - 1);
    if (size_error > 0.25) continue;
    // Picture "up" (left edge, bottom → top, plus the top edge) gives the facing direction.
    const cv::Point2d up = (on_table[0] - on_table[3]) + (on_table[1] - on_table[2]);
    const double facing = std::atan2(up.y, up.x);
    const double a = facing - CV_PI / 2;  // base frame → table frame rotation
    const cv::Point2d offset(m->offset_in.x * std::cos(a) - m->offset_in.y * std::sin(a),
                             m->offset_in.x * std::sin(a) + m->offset_in.y * std::cos(a));
    BaseObservation o;
    o.marker_id = d.marker_id;
    o.centre_in = centre - offset;
    o.angle_deg = facing * 180 / CV_PI;
    o.radius_in = m->diameter_in / 2;
    o.confidence = std::clamp(d.score * (1 - 2 * size_error), 0.0, 1.0);
    out.push_back(o);
  }
  return out;
}

namespace {

// marker_keep_out from the marker's corners in the picture, pixels.
std::optional<std::vector<cv::Point2f>> keep_out_of(const calib::TablePlane& plane,
                                                    const std::array<cv::Point2d, 4>& corners_px,
                                                    double top_height_in, double radius_in,
                                                    double margin_share) {
  std::vector<cv::Point2d> q;
  for (const auto& p : corners_px) {
    if (auto t = plane.image_to_table(p, top_height_in)) q.push_back(*t);
  }
  if (q.size() != 4) return std::nullopt;
  const cv::Point2d mid = (q[0] + q[1] + q[2] + q[3]) / 4;
  const double side = (cv::norm(q[1] - q[0]) + cv::norm(q[2] - q[1]) + cv::norm(q[3] - q[2]) +
                       cv::norm(q[0] - q[3])) /
                      4;
  if (side <= 0) return std::nullopt;
  const double grow = (side + 2 * (margin_share * side + radius_in)) / side;
  std::vector<cv::Point2f> poly;
  for (const auto& p : q) {
    const cv::Point2d v = mid + (p - mid) * grow;
    poly.emplace_back(static_cast<float>(v.x), static_cast<float>(v.y));
  }
  return poly;
}

}  // namespace

std::optional<std::vector<cv::Point2f>> marker_keep_out(
    const calib::TablePlane& plane, const std::array<cv::Point2f, 4>& corners_px,
    double top_height_in, double radius_in, double margin_share) {
  std::array<cv::Point2d, 4> px;
  for (std::size_t k = 0; k < 4; ++k)
    px[k] = corners_px[k];
  return keep_out_of(plane, px, top_height_in, radius_in, margin_share);
}

std::optional<std::vector<cv::Point2f>> marker_keep_out(
    const calib::TablePlane& plane, const std::array<cv::Point2d, 4>& corners_in,
    double top_height_in, double radius_in, double margin_share) {
  std::array<cv::Point2d, 4> px;
  for (std::size_t k = 0; k < 4; ++k) {
    const auto p = plane.table_to_image({corners_in[k].x, corners_in[k].y, 0});
    if (!p) return std::nullopt;
    px[k] = *p;
  }
  return keep_out_of(plane, px, top_height_in, radius_in, margin_share);
}

}  // namespace duels::vision
