#include "vision/markerless.hpp"

#include <opencv2/imgproc.hpp>

#include <algorithm>
#include <cmath>
#include <set>
#include <string>

#include "calib/detect.hpp"

namespace duels::vision {

DiscFinder::DiscFinder(const calib::TablePlane& plane, DiscOptions options)
    : options_(options), table_(plane.table()) {
  const double ppi = options_.px_per_in;
  const int w = static_cast<int>(std::lround(table_.width_in * ppi));
  const int h = static_cast<int>(std::lround(table_.depth_in * ppi));
  map_x_.create(h, w, CV_32F);
  map_y_.create(h, w, CV_32F);
  for (int v = 0; v < h; ++v) {
    for (int u = 0; u < w; ++u) {
      const cv::Point3d p((u + 0.5) / ppi, table_.depth_in - (v + 0.5) / ppi,
                          options_.top_height_in);
      const auto px = plane.table_to_image(p);
      map_x_.at<float>(v, u) = px ? static_cast<float>(px->x) : -1.f;
      map_y_.at<float>(v, u) = px ? static_cast<float>(px->y) : -1.f;
    }
  }
}

cv::Mat DiscFinder::rectify(const cv::Mat& image) const {
  cv::Mat out;
  cv::remap(calib::to_gray(image), out, map_x_, map_y_, cv::INTER_LINEAR, cv::BORDER_CONSTANT,
            cv::Scalar(0));
  return out;
}

std::vector<cv::Point2d> DiscFinder::find(const cv::Mat& image) const {
  cv::Mat top = rectify(image);
  cv::GaussianBlur(top, top, cv::Size(0, 0), 1.0);
  const double r_px = options_.radius_in * options_.px_per_in;
  std::vector<cv::Vec3f> circles;
  cv::HoughCircles(top, circles, cv::HOUGH_GRADIENT, 1, 1.5 * r_px, 120, 18,
                   static_cast<int>(std::floor(0.85 * r_px)),
                   static_cast<int>(std::ceil(1.15 * r_px)));
  std::vector<cv::Point2d> out;
  for (const auto& c : circles) {
    out.emplace_back((c[0]) / options_.px_per_in, table_.depth_in - (c[1]) / options_.px_per_in);
  }
  return out;
}

std::vector<BaseObservation> DiscIdentities::assign(const std::vector<cv::Point2d>& discs,
                                                    double radius_in) {
  // Greedy: closest (disc, known base) pairs first.
  struct Pair {
    double d;
    std::size_t disc;
    int id;
  };
  std::vector<Pair> pairs;
  for (std::size_t i = 0; i < discs.size(); ++i) {
    for (const auto& [id, p] : last_) {
      const double d = cv::norm(discs[i] - p);
      if (d <= max_jump_in_) pairs.push_back({d, i, id});
    }
  }
  std::sort(pairs.begin(), pairs.end(), [](const Pair& a, const Pair& b) { return a.d < b.d; });
  std::vector<int> id_of(discs.size(), -1);
  std::set<int> taken;
  for (const auto& p : pairs) {
    if (id_of[p.disc] >= 0 || taken.count(p.id)) continue;
    id_of[p.disc] = p.id;
    taken.insert(p.id);
  }
  std::vector<BaseObservation> out;
  for (std::size_t i = 0; i < discs.size(); ++i) {
    if (id_of[i] < 0) id_of[i] = next_id_++;
    last_[id_of[i]] = discs[i];
    BaseObservation o;
    o.marker_id = id_of[i];
    o.centre_in = discs[i];
    o.radius_in = radius_in;
    o.confidence = 0.5;
    out.push_back(o);
  }
  return out;
}

MarkerlessPipeline::MarkerlessPipeline(const calib::TablePlane& plane, DiscOptions options,
                                       TrackerOptions tracker)
    : options_(options), finder_(plane, options), tracker_(tracker) {}

void MarkerlessPipeline::name_near(cv::Point2d near_in, std::string figure) {
  pending_.push_back({near_in, std::move(figure)});
}

TableState MarkerlessPipeline::process(const cv::Mat& image, std::int64_t frame, double time_s) {
  const auto observations = identities_.assign(finder_.find(image), options_.radius_in);
  // A base seen for the first time takes the waiting name whose point it stands nearest (within
  // 3"), or "base N".
  for (const auto& o : observations) {
    if (!named_.insert(o.marker_id).second) continue;
    auto best = pending_.end();
    for (auto it = pending_.begin(); it != pending_.end(); ++it) {
      const double d = cv::norm(o.centre_in - it->near_in);
      if (d <= 3.0 && (best == pending_.end() || d < cv::norm(o.centre_in - best->near_in)))
        best = it;
    }
    if (best == pending_.end()) {
      tracker_.name(o.marker_id, "base " + std::to_string(o.marker_id));
    } else {
      tracker_.name(o.marker_id, best->figure);
      pending_.erase(best);
    }
  }
  return measure_table(frame, time_s, tracker_.update(observations, time_s));
}

}  // namespace duels::vision
