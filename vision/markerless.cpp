#include "vision/markerless.hpp"

#include <opencv2/imgproc.hpp>

#include <algorithm>
#include <cmath>
#include <optional>
#include <set>
#include <string>

#include "calib/detect.hpp"
#include "vision/naming.hpp"

namespace duels::vision {

namespace {

// A grey level at a table point (nothing outside the picture), nearest pixel.
std::optional<double> grey_at(const calib::TablePlane& plane, const cv::Mat& gray, double x,
                              double y, double h) {
  const auto px = plane.table_to_image({x, y, h});
  if (!px) return std::nullopt;
  const int u = static_cast<int>(std::lround(px->x));
  const int v = static_cast<int>(std::lround(px->y));
  if (u < 0 || v < 0 || u >= gray.cols || v >= gray.rows) return std::nullopt;
  return gray.at<unsigned char>(v, u);
}

}  // namespace

DiscFinder::DiscFinder(const calib::TablePlane& plane, DiscOptions options)
    : options_(options), plane_(plane) {
  if (options_.px_per_in <= 0) options_.px_per_in = std::clamp(7.0 / options_.radius_in, 3.0, 14.0);
  const double ppi = options_.px_per_in;
  // The top view reaches past the table's edges by the filter's reach, as the ring finder's
  // does (vision/ring.cpp): cut at the edges, it put false candidates all along them.
  top_ = TableTopView(plane, ppi, options_.top_height_in, 1.4 * options_.radius_in);
  kernel_ = rim_matched_filter(options_.radius_in * ppi, 0.6, 0.95);
  // The table's own markers lie on the table; a base's top is higher, so each is seen where
  // the camera's rays through its corners meet the tops' height.
  for (const auto& quad : options_.table_markers_in) {
    if (auto poly = marker_keep_out(plane_, quad, options_.top_height_in, options_.radius_in))
      known_regions_.push_back(*poly);
  }
}

double DiscFinder::rim_step(const cv::Mat& gray, const RimFit& fit) const {
  // Along every ray that kept its rim point: just inside the rim against just outside it.
  const double R = options_.radius_in;
  const double h = options_.top_height_in;
  const cv::Point2d c = fit.centre_in;
  std::vector<double> step;
  for (int k = 0; k < kRingRays && static_cast<std::size_t>(k) < fit.ray_ok.size(); ++k) {
    if (!fit.ray_ok[static_cast<std::size_t>(k)]) continue;
    const double a = 2 * CV_PI * k / kRingRays;
    const cv::Point2d u(std::cos(a), std::sin(a));
    const auto gi = grey_at(plane_, gray, c.x + 0.9 * R * u.x, c.y + 0.9 * R * u.y, h);
    const auto go = grey_at(plane_, gray, c.x + 1.12 * R * u.x, c.y + 1.12 * R * u.y, h);
    if (gi && go) step.push_back(*gi - *go);
  }
  if (step.size() < 12) return 0;
  std::nth_element(step.begin(), step.begin() + static_cast<long>(step.size() / 2), step.end());
  return step[step.size() / 2];
}

std::vector<RimFit> DiscFinder::find_rims(const cv::Mat& image,
                                          const std::vector<cv::Point2d>& hints,
                                          const std::vector<std::vector<cv::Point2f>>& exclude,
                                          bool search) const {
  const auto excluded = [&](cv::Point2d at) {
    return inside_any(exclude, at) || inside_any(known_regions_, at);
  };
  const cv::Mat gray = calib::to_gray(image);
  const double R = options_.radius_in;
  // Where discs were seen lately first (the best starting points), then — on a search — the
  // round tops of a top view of the table.
  std::vector<cv::Point2d> cands;
  for (const auto& h : hints) {
    if (!excluded(h)) cands.push_back(h);
  }
  if (search) {
    const cv::Mat top = top_.look(gray);
    // A light top's matched filter: the band just inside the rim minus the band just outside
    // it (zero mean, so flat felt scores nothing); local maxima over about a base radius.
    cv::Mat score;
    cv::filter2D(top, score, CV_32F, kernel_, cv::Point(-1, -1), 0, cv::BORDER_CONSTANT);
    cv::Mat dil;
    const int nms = std::max(1, static_cast<int>(0.6 * R * options_.px_per_in));
    cv::dilate(score, dil,
               cv::getStructuringElement(cv::MORPH_RECT, cv::Size(2 * nms + 1, 2 * nms + 1)));
    struct Cand {
      float s;
      cv::Point2d at;
    };
    std::vector<Cand> found;
    // Peaks on the table only (a base's centre is on it).
    const int lo = top_.first_on_table();
    for (int v = lo; v < score.rows - lo; ++v) {
      const float* sp = score.ptr<float>(v);
      const float* dp = dil.ptr<float>(v);
      for (int u = lo; u < score.cols - lo; ++u) {
        if (sp[u] >= options_.min_contrast && sp[u] >= dp[u]) {
          const cv::Point2d at = top_.to_table(u, v);
          if (!excluded(at)) found.push_back({sp[u], at});
        }
      }
    }
    std::sort(found.begin(), found.end(), [](const Cand& a, const Cand& b) { return a.s > b.s; });
    if (found.size() > static_cast<std::size_t>(options_.max_candidates))
      found.resize(static_cast<std::size_t>(options_.max_candidates));
    for (const auto& c : found) {
      if (std::none_of(hints.begin(), hints.end(),
                       [&](const cv::Point2d& h) { return cv::norm(c.at - h) < 0.5 * R; }))
        cands.push_back(c.at);
    }
  }
  // Each candidate located by its rim: the top's outer edge fitted sub-pixel in the picture
  // as a circle at the top's height (shared with the ring finder), points where a figure hides
  // the rim left out. A candidate without such a rim is no base.
  struct Scored {
    RimFit fit;
    double evidence;  // rim points × the top's step along them
  };
  std::vector<Scored> fits;
  const double h = options_.top_height_in;
  for (const auto& c : cands) {
    // A candidate a fitted disc already started from (or ended near) is not measured again.
    if (std::any_of(fits.begin(), fits.end(),
                    [&](const Scored& f) { return cv::norm(f.fit.centre_in - c) < 0.25 * R; }))
      continue;
    // Narrow first (a candidate is usually within a fifth of a radius, and a neighbour 0.3"
    // away then stays out of the search), wide when that finds nothing.
    auto fit = fit_base_rim(plane_, gray, c, R, h, false);
    if (!fit) fit = fit_base_rim(plane_, gray, c, R, h, true);
    // In a packed group the top view's peak of a base whose figure and neighbours hide much
    // of its rim lies up to a fifth of a radius off its centre; from there neither search
    // keeps half the rim. Narrow searches from four points a fifth of a radius around it find
    // it (packed groups' third bases, mostly: 16 seeds, 15 more bases of 1280, none wrongly).
    for (int k = 0; k < 4 && !fit; ++k) {
      const double a = CV_PI / 2 * k;
      fit = fit_base_rim(plane_, gray, c + 0.2 * R * cv::Point2d(std::cos(a), std::sin(a)), R, h,
                         false);
    }
    if (!fit || excluded(fit->centre_in)) continue;
    // Again from the fitted centre when the first started off (the rays then cross the rim
    // squarely).
    if (cv::norm(fit->centre_in - c) > 0.08 * R) {
      if (auto again = fit_base_rim(plane_, gray, fit->centre_in, R, h, false)) fit = again;
    }
    // The top must stand out along the rim it was fitted to: a circle pieced together from the
    // edges of figures, felt and neighbouring bases has no light top inside its rim.
    const double step = rim_step(gray, *fit);
    // A disc where none was followed must look like a whole top: a tight fit (RMS at most
    // 0.045 R or 0.3 pixel), or most of its rim (min_new_rim_rays of 48 rays) at its own size when
    // fitted freely — the ring finder's test without its code. Pieces of the table's corner markers
    // (when the camera sees them only in part, they cannot be found and left out) fail it.
    const bool followed = std::any_of(hints.begin(), hints.end(), [&](const cv::Point2d& p) {
      return cv::norm(p - fit->centre_in) < 0.5 * R;
    });
    const auto whole = [&](const RimFit& f) {
      return tight_rim_fit(f) || whole_rim_fit(f, options_.min_new_rim_rays);
    };
    if (!followed && !whole(*fit)) continue;
    if (step < options_.min_rim_step) continue;
    // A new disc fitted loosely may be a circle pieced together over a packed base whose own
    // rim no candidate reached (up to 1.5 R from it: its figure and neighbours hide much of
    // that rim). Narrow fits started 1.15 R and 1.45 R round it look for such a base: the one
    // that overlaps it and fits as well (90 % of its rim points or more, an RMS at most 10 %
    // higher) is put beside it when it passes the same tests, and the rim evidence below keeps
    // one of the two. Measured: the 2 bases more than 1" off on tables 33-48 (a false disc
    // 1.3-1.5" from a packed base took its name) are gone, and as many bases are found over
    // tables 1-48 (`duels bench coverage --target markerless`).
    if (!followed && !tight_rim_fit(*fit)) {
      std::optional<RimFit> rival;
      for (int k = 0; k < 32; ++k) {
        const double a = CV_PI / 8 * (k % 16);
        const double off = (k < 16 ? 1.15 : 1.45) * R;
        auto g =
            fit_base_rim(plane_, gray, fit->centre_in + off * cv::Point2d(std::cos(a), std::sin(a)),
                         R, h, false);
        if (!g) continue;
        const double apart = cv::norm(g->centre_in - fit->centre_in);
        if (apart < 0.25 * R || apart >= 1.9 * R || g->rim_points < 0.9 * fit->rim_points ||
            g->fit_rms_in > 1.1 * fit->fit_rms_in)
          continue;
        if (!rival || g->rim_points * rival->fit_rms_in > rival->rim_points * g->fit_rms_in)
          rival = std::move(g);
      }
      if (rival && whole(*rival) && !excluded(rival->centre_in)) {
        const double rs = rim_step(gray, *rival);
        if (rs >= options_.min_rim_step) fits.push_back({*rival, rs * rival->rim_points});
      }
    }
    fits.push_back({std::move(*fit), step * fit->rim_points});
  }
  // Bases do not overlap: of discs closer than 1.9 R, the one with the most rim evidence (rim
  // points times the top's step along them) stays. A circle pieced together from the edges of
  // packed bases and their figures has less than the base's own.
  std::sort(fits.begin(), fits.end(),
            [](const Scored& a, const Scored& b) { return a.evidence > b.evidence; });
  std::vector<RimFit> out;
  for (auto& f : fits) {
    if (std::none_of(out.begin(), out.end(), [&](const RimFit& o) {
          return cv::norm(o.centre_in - f.fit.centre_in) < 1.9 * R;
        }))
      out.push_back(std::move(f.fit));
  }
  return out;
}

std::vector<cv::Point2d> DiscFinder::find(const cv::Mat& image,
                                          const std::vector<cv::Point2d>& hints,
                                          const std::vector<std::vector<cv::Point2f>>& exclude,
                                          bool search) const {
  std::vector<cv::Point2d> out;
  for (const auto& f : find_rims(image, hints, exclude, search))
    out.push_back(f.centre_in);
  return out;
}

std::vector<BaseObservation> DiscIdentities::assign(const std::vector<cv::Point2d>& discs,
                                                    double radius_in, double time_s) {
  // Greedy: closest (disc, known base) pairs first. A base seen in the last frame is followed
  // within `max_jump_in`; one out of sight for a while (carried across the table by a hand,
  // blurred while moving) within `max_jump_in` plus `return_speed_in_s` for every second it
  // has been away, so it keeps its identity (and its name) where it is put down.
  struct Pair {
    double d;
    std::size_t disc;
    int id;
  };
  std::vector<Pair> pairs;
  for (std::size_t i = 0; i < discs.size(); ++i) {
    for (const auto& [id, k] : last_) {
      const double away = std::max(0.0, time_s - k.time_s - frame_s_);
      const double reach = std::min(max_return_in_, max_jump_in_ + return_speed_in_s_ * away);
      const double d = cv::norm(discs[i] - k.at);
      if (d <= reach) pairs.push_back({d, i, id});
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
  if (last_time_s_) frame_s_ = std::clamp(time_s - *last_time_s_, 0.0, 1.0);
  last_time_s_ = time_s;
  std::vector<BaseObservation> out;
  for (std::size_t i = 0; i < discs.size(); ++i) {
    if (id_of[i] < 0) id_of[i] = next_id_++;
    last_[id_of[i]] = {discs[i], time_s};
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
    : options_(options), plane_(plane), finder_(plane, options), tracker_(tracker) {}

void MarkerlessPipeline::name_near(cv::Point2d near_in, std::string figure) {
  pending_.push_back({near_in, std::move(figure)});
}

std::vector<WaitingName> MarkerlessPipeline::waiting_names() const {
  std::vector<WaitingName> out;
  for (const PendingName& p : pending_)
    out.push_back({p.figure, p.near_in});
  return out;
}

TableState MarkerlessPipeline::process(const cv::Mat& image, std::int64_t frame, double time_s) {
  std::vector<cv::Point2d> hints;
  for (const auto& b : last_)
    hints.push_back(b.centre_in);
  if (processed_++ % kCornerEvery == 0) {
    // The table's corner markers (ids 0-3), widened by a base's radius and a quarter of the
    // marker (its white margin): a base centred there would stand on the marker.
    corner_regions_.clear();  // the calibration's markers: the finder's own (DiscOptions)
    for (const Detection& d : detector_.detect(image)) {
      if (d.marker_id < 0 || d.marker_id >= 4) continue;
      if (auto poly =
              marker_keep_out(plane_, d.corners_px, options_.top_height_in, options_.radius_in))
        corner_regions_.push_back(*poly);
    }
  }
  // The whole table is searched every few frames, and every frame while a base the player
  // named is out of sight (it may be moving: found again soon, it keeps its name).
  const bool search = options_.search_every <= 1 || processed_ % options_.search_every == 1 ||
                      hints.empty() ||
                      std::any_of(last_.begin(), last_.end(), [&](const TrackedBase& b) {
                        return b.state == BaseState::kOccluded && by_player_.count(b.marker_id);
                      });
  last_discs_ = finder_.find(image, hints, corner_regions_, search);
  const auto observations = identities_.assign(last_discs_, options_.radius_in, time_s);
  // A waiting name goes to the base nearest its point: within a base's radius at once, within
  // 3" (the nearest it came while the name waited) once it has waited a second. Nearest pairs
  // first: a false disc (on a corner marker the camera sees only in part, say) seen at the same
  // time as a base does not take the base's name. A false disc 1.4" from a base whose own disc
  // was not found at the first frame took its name, more than 1" off (table 12 of the 720p 75°
  // camera, `duels bench coverage --target markerless`); now the base's own disc, found a
  // frame later, takes it.
  struct Pair {
    double d;
    std::size_t obs;
    std::size_t name;
  };
  std::vector<Pair> pairs;
  std::vector<std::size_t> fresh;
  for (auto& p : pending_) {
    if (!p.since_s) p.since_s = time_s;
  }
  for (std::size_t i = 0; i < observations.size(); ++i) {
    const int id = observations[i].marker_id;
    if (named_.insert(id).second) fresh.push_back(i);
    if (by_player_.count(id)) continue;
    for (std::size_t k = 0; k < pending_.size(); ++k) {
      PendingName& p = pending_[k];
      double d = cv::norm(observations[i].centre_in - p.near_in);
      if (d <= kNameReachIn) {
        const auto [seen, inserted] = p.near.try_emplace(id, d);
        if (!inserted) seen->second = std::min(seen->second, d);
      }
      if (const auto seen = p.near.find(id); seen != p.near.end()) d = seen->second;
      if (d <= options_.radius_in || (name_has_waited(*p.since_s, time_s) && d <= kNameReachIn))
        pairs.push_back({d, i, k});
    }
  }
  std::sort(pairs.begin(), pairs.end(), [](const Pair& a, const Pair& b) { return a.d < b.d; });
  std::map<std::size_t, std::size_t> name_of;  // observation → pending name
  std::set<std::size_t> used;
  for (const auto& p : pairs) {
    if (name_of.count(p.obs) || used.count(p.name)) continue;
    name_of[p.obs] = p.name;
    used.insert(p.name);
  }
  for (std::size_t i : fresh) {
    if (!name_of.count(i)) {
      const int id = observations[i].marker_id;
      tracker_.name(id, "base " + std::to_string(id));
    }
  }
  for (const auto& [i, k] : name_of) {
    const int id = observations[i].marker_id;
    tracker_.name(id, pending_[k].figure);
    by_player_.insert(id);
  }
  for (auto k = used.rbegin(); k != used.rend(); ++k)
    pending_.erase(pending_.begin() + static_cast<long>(*k));
  last_ = tracker_.update(observations, time_s);
  return measure_table(frame, time_s, last_);
}

}  // namespace duels::vision
