#include "vision/pipeline.hpp"

#include <fmt/format.h>

#include <opencv2/imgproc.hpp>

#include <algorithm>
#include <cmath>
#include <optional>

#include "calib/camera_file.hpp"
#include "calib/detect.hpp"
#include "vision/naming.hpp"

namespace duels::vision {

namespace {

// Rings are looked for on the white margin of the table's markers' paper, only not where a
// base centred would stand on the black square: a base may stand on that paper, and no ring's
// code is read from it. Measured (`duels bench coverage --target ring2`, seeds 1-48) against
// a quarter of the marker's side: 11 more of 3840 bases named (the flat 720p camera's far
// third 57 of 75 against 53), none wrongly. Markerless mode has no code to check and keeps
// the quarter: without it a false disc put a base more than 1" off (seeds 1-16).
constexpr double kRingMarkerMargin = 0;

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

// The assignment problem (Hungarian method, O(n²·m)): rows to distinct columns, n ≤ m, the
// least total cost. Returns the column of every row.
std::vector<int> min_cost_assignment(const std::vector<std::vector<double>>& cost) {
  const int n = static_cast<int>(cost.size());
  if (n == 0) return {};
  const int m = static_cast<int>(cost[0].size());
  constexpr double kInf = 1e18;
  std::vector<double> u(static_cast<std::size_t>(n) + 1, 0);
  std::vector<double> v(static_cast<std::size_t>(m) + 1, 0);
  std::vector<int> p(static_cast<std::size_t>(m) + 1, 0);
  std::vector<int> way(static_cast<std::size_t>(m) + 1, 0);
  const auto at = [](auto& vec, int i) -> auto& {
    return vec[static_cast<std::size_t>(i)];
  };
  for (int i = 1; i <= n; ++i) {
    at(p, 0) = i;
    int j0 = 0;
    std::vector<double> minv(static_cast<std::size_t>(m) + 1, kInf);
    std::vector<char> used(static_cast<std::size_t>(m) + 1, 0);
    do {
      at(used, j0) = 1;
      const int i0 = at(p, j0);
      double delta = kInf;
      int j1 = 0;
      for (int j = 1; j <= m; ++j) {
        if (at(used, j)) continue;
        const double cur = at(at(cost, i0 - 1), j - 1) - at(u, i0) - at(v, j);
        if (cur < at(minv, j)) {
          at(minv, j) = cur;
          at(way, j) = j0;
        }
        if (at(minv, j) < delta) {
          delta = at(minv, j);
          j1 = j;
        }
      }
      for (int j = 0; j <= m; ++j) {
        if (at(used, j)) {
          at(u, at(p, j)) += delta;
          at(v, j) -= delta;
        } else {
          at(minv, j) -= delta;
        }
      }
      j0 = j1;
    } while (at(p, j0) != 0);
    do {
      const int j1 = at(way, j0);
      at(p, j0) = at(p, j1);
      j0 = j1;
    } while (j0 != 0);
  }
  std::vector<int> row(static_cast<std::size_t>(n), -1);
  for (int j = 1; j <= m; ++j) {
    if (at(p, j) > 0) at(row, at(p, j) - 1) = j - 1;
  }
  return row;
}

}  // namespace

Pipeline::Pipeline(calib::TablePlane plane, BaseMap map, DetectorOptions detector,
                   TrackerOptions tracker, SecondLookOptions second, RingIdentityOptions rings)
    : plane_(std::move(plane)),
      map_(std::move(map)),
      detector_([&] {
        detector.dictionary = map_.dictionary;
        return detector;
      }()),
      tracker_(tracker),
      second_(second),
      ring_options_(rings) {
  for (const auto& b : map_.bases)
    tracker_.name(b.marker_id, b.figure);
  BaseMap squares;
  squares.dictionary = map_.dictionary;
  for (const auto& b : map_.bases) {
    if (!b.ring) {
      squares.bases.push_back(b);
      continue;
    }
    std::size_t f = 0;
    while (f < ring_finders_.size() &&
           (std::abs(ring_finders_[f].diameter_in() - b.diameter_in) > 1e-9 ||
            std::abs(ring_finders_[f].top_height_in() - b.marker_height_in) > 1e-9 ||
            ring_finders_[f].style() != b.ring_style)) {
      ++f;
    }
    if (f == ring_finders_.size()) {
      ring_finders_.emplace_back(plane_, b.diameter_in, b.marker_height_in, b.ring_style);
      ring_codes_.emplace_back();
    }
    ring_codes_[f].push_back(b.marker_id);
  }
  any_square_ = !squares.bases.empty();
  known_keep_out_.resize(ring_finders_.size());
  for (std::size_t f = 0; f < ring_finders_.size(); ++f) {
    for (const auto& quad : ring_options_.table_markers_in) {
      if (auto poly = marker_keep_out(plane_, quad, ring_finders_[f].top_height_in(),
                                      ring_finders_[f].diameter_in() / 2, kRingMarkerMargin))
        known_keep_out_[f].push_back(std::move(*poly));
    }
  }
  ring_keep_out_ = known_keep_out_;
  if (second_.enabled && any_square_)
    band_ = band_of_small_markers(plane_, squares, second_.small_marker_px);
}

std::vector<BaseObservation> Pipeline::ring_observations(const cv::Mat& gray, double time_s,
                                                         std::vector<RingSighting>& seen,
                                                         std::vector<UnnamedBase>& unnamed) {
  const RingIdentityOptions& o = ring_options_;
  std::erase_if(ring_tracks_, [&](const RingTrack& t) {
    if (time_s - t.last_seen_s <= o.forget_s) return false;
    if (t.pinned && !t.by_match && t.id >= 0) {
      std::erase_if(remembered_names_,
                    [&](const RememberedName& r) { return r.marker_id == t.id; });
      remembered_names_.push_back({t.centre, t.id, t.finder});
    }
    return true;
  });
  std::vector<char> updated(ring_tracks_.size(), 0);
  for (std::size_t f = 0; f < ring_finders_.size(); ++f) {
    std::vector<RingHint> hints;
    for (const auto& t : ring_tracks_) {
      if (t.finder == f)
        hints.push_back({.at = t.centre, .named = t.id >= 0 && t.frames >= o.settled_frames});
    }
    const std::vector<std::vector<cv::Point2f>>& exclude = ring_keep_out_[f];
    const bool search = o.search_every <= 1 || processed_ % o.search_every == 0 || hints.empty();
    // Of two overlapping rings, one fitted within `still_in` of where a ring was seen lately
    // stands first.
    for (auto& s : ring_finders_[f].find(gray, hints, static_cast<int>(ring_codes_[f].size()),
                                         search, exclude, o.still_in, chroma_)) {
      // Bases do not overlap, and a base that stood still does not jump half a radius in one
      // frame: a ring fitted over a ring that stood still a moment ago (seen in the last
      // `settled_hold_s`), but not where it stood, is a false one (a fit where packed bases
      // meet, or beside a ring whose own rim was not fitted this frame). It would otherwise
      // take that ring's place and name.
      const bool over_settled =
          std::any_of(ring_tracks_.begin(), ring_tracks_.end(), [&](const RingTrack& t) {
            const double d = cv::norm(t.centre - s.centre_in);
            return t.finder == f && t.frames >= o.settled_frames &&
                   time_s - t.last_seen_s <= o.settled_hold_s && d > o.jump_in &&
                   d < 0.9 * ring_finders_[f].diameter_in();
          });
      if (over_settled) continue;
      // The same ring as a tracked one nearby (nearest first), or a new one.
      std::size_t best = ring_tracks_.size();
      double best_d = o.follow_in;
      for (std::size_t i = 0; i < ring_tracks_.size(); ++i) {
        const double d = cv::norm(ring_tracks_[i].centre - s.centre_in);
        if (ring_tracks_[i].finder == f && (i >= updated.size() || !updated[i]) && d < best_d) {
          best_d = d;
          best = i;
        }
      }
      // A ring the match named is followed off its spot only by tight fits: loose fits beside
      // a base under dice carried its track, a little at a time, 1.3" off the spot while the
      // base stood still (table 1's evening, 720p 70°, `duels bench evening --no-lamp`).
      if (best < ring_tracks_.size() && ring_tracks_[best].by_match && s.loose &&
          off_its_spot(ring_tracks_[best], s.centre_in))
        continue;
      if (best == ring_tracks_.size()) {
        RingTrack t;
        t.finder = f;
        t.centre = s.centre_in;
        t.code_sum.assign(s.code.size(), 0.f);
        t.weight_sum.assign(s.code.size(), 0.f);
        t.beside_marker = s.beside_marker;
        t.first_seen_s = time_s;
        ring_tracks_.push_back(std::move(t));
        updated.push_back(0);
      }
      RingTrack& t = ring_tracks_[best];
      updated[best] = 1;
      if (cv::norm(t.centre - s.centre_in) > o.still_in) {
        // Moved: its code turned with it; count from this frame on.
        std::fill(t.code_sum.begin(), t.code_sum.end(), 0.f);
        std::fill(t.weight_sum.begin(), t.weight_sum.end(), 0.f);
        t.frames = 0;
        t.tight_frames = 0;
        t.whole_frames = 0;
      }
      for (std::size_t j = 0; j < s.code.size(); ++j) {
        t.code_sum[j] += s.weight[j] * s.code[j];
        t.weight_sum[j] += s.weight[j];
      }
      ++t.frames;
      if (!s.loose) ++t.tight_frames;
      t.loose_now = s.loose;
      if (s.rim_points >= kLooseRimRays) ++t.whole_frames;
      t.in_a_row = t.last_frame == processed_ - 1 ? t.in_a_row + 1 : 1;
      t.last_frame = processed_;
      t.centre = s.centre_in;
      t.last_seen_s = time_s;
      seen.push_back(std::move(s));
    }
  }
  // The names the player gave first (they stand whatever the codes read), then the rings of
  // each size together: every code in play to at most one ring, the total agreement as large
  // as it can be (an assignment problem), and a ring is named only when giving its code
  // elsewhere, or leaving it unnamed, would cost clearly more evidence.
  apply_pending_names(updated, time_s);
  apply_match_spots(updated);
  for (std::size_t f = 0; f < ring_finders_.size(); ++f)
    name_rings(f, updated);
  recall_names(updated);
  name_moved_figure(updated, time_s);
  std::vector<BaseObservation> out;
  for (std::size_t i = 0; i < ring_tracks_.size(); ++i) {
    const RingTrack& t = ring_tracks_[i];
    if (!updated[i]) continue;
    if (t.id < 0) {
      // Settled (seen standing still in `settled_frames` frames): a ring fitted once may be a
      // fit on a figure's edge, and a false ring on a packed group's figures or along a corner
      // marker's paper was seen in two frames at most. Reported after two frames, over 30
      // frames of tables 1-16 and 10 of tables 17-48 (`duels bench coverage --target ring2
      // --frames 30`), 5 unnamed rings stood 2.4-3.9" from every base for a frame; now none.
      // A ring first fitted beside a corner marker is reported once its code names it only:
      // fits along the markers' paper stood still there as well (8 false rings, tables 1-8 of
      // the flat 720p camera, RingFinder::search_candidates).
      // A ring must read black somewhere: every code has black cells (a two-band code in every
      // half of its ring). Over 30 frames of tables 17-48, the flat 1080p camera reported 4 unnamed
      // rings (tables 18 and 45, at search frames) on the far corner markers' paper, 5.8-7.0 cells
      // of white read and no black.
      // And it must have fitted tightly once and been seen in `settled_frames` frames one after
      // another: with figures of a real one's shape (issue 51), light hats, shoulders and torsos
      // fitted loosely as rings, or now and then, 4.5" above the base tops (7 false rings over 4
      // tables of the 720p 70° camera, `duels bench coverage --posed`; 35 with dice and a lamp
      // too). Every true ring reported so was seen in every frame and fitted tightly.
      if (t.frames >= o.settled_frames && !t.beside_marker &&
          ring_black_cells(t.code_sum, t.frames) >= o.min_black_cells &&
          (!o.unnamed_needs_tight_run || (t.tight_frames > 0 && t.in_a_row >= o.settled_frames)) &&
          may_be_moved(t)) {
        unnamed.push_back({t.centre, ring_finders_[t.finder].diameter_in() / 2,
                           ring_finders_[t.finder].top_height_in(), t.frames});
      }
      continue;
    }
    // A ring named by the match or the player (its code not read) fitted loosely where it
    // shows again after a frame unseen is not reported
    // until it fits tightly or is seen again: a base carried away under a hand left a loose
    // fit on its empty spot for one frame, reported under its name 4.75" from it (issue 51,
    // `duels bench evening`, table 1).
    if (t.pinned && t.loose_now && t.in_a_row < 2) continue;
    // A ring the match named, off its figure's spot, is reported there once it has fitted tightly
    // there: loose fits beside a base under dice carried its track 1.3" off the spot, frame by
    // frame, while the base stood still (table 1's evening, 720p 70°, `--no-lamp`).
    if (t.by_match && t.tight_frames == 0 && off_its_spot(t)) continue;
    BaseObservation ob;
    ob.marker_id = t.id;
    ob.centre_in = t.centre;
    ob.angle_deg = t.facing_deg;
    ob.radius_in = ring_finders_[t.finder].diameter_in() / 2;
    ob.confidence = std::clamp(t.score, 0.0, 1.0);
    out.push_back(ob);
  }
  return out;
}

Expected<int, std::string> Pipeline::name_near(cv::Point2d near_in, const std::string& figure) {
  const auto it = std::find_if(map_.bases.begin(), map_.bases.end(),
                               [&](const BaseMarker& b) { return b.figure == figure; });
  if (it == map_.bases.end())
    return fmt::format("no base of '{}' in the base map (bases.yaml)", figure);
  if (!it->ring) {
    return fmt::format("{}'s base carries a square marker (id {}): the camera names it by it",
                       figure, it->marker_id);
  }
  std::erase_if(pending_names_, [&](const PendingName& p) { return p.marker_id == it->marker_id; });
  std::erase_if(remembered_names_,
                [&](const RememberedName& r) { return r.marker_id == it->marker_id; });
  pending_names_.push_back({near_in, it->marker_id});
  return it->marker_id;
}

std::vector<WaitingName> Pipeline::waiting_names() const {
  std::vector<WaitingName> out;
  for (const PendingName& p : pending_names_) {
    const auto it = std::find_if(map_.bases.begin(), map_.bases.end(),
                                 [&](const BaseMarker& b) { return b.marker_id == p.marker_id; });
    if (it != map_.bases.end()) out.push_back({it->figure, p.near_in});
  }
  return out;
}

void Pipeline::apply_pending_names(const std::vector<char>& updated, double time_s) {
  // A name typed for a base the camera has not found yet would otherwise go to the nearest
  // ring seen, a neighbour in a packed group 2.3" away, for good (a name the player gave is
  // not undone by codes).
  std::erase_if(pending_names_, [&](PendingName& p) {
    const std::size_t f = finder_of(p.marker_id);
    if (f == ring_codes_.size()) return true;
    if (!p.since_s) p.since_s = time_s;
    const double within =
        name_has_waited(*p.since_s, time_s) ? kNameReachIn : ring_finders_[f].diameter_in() / 2;
    const std::size_t best = nearest_seen_ring(f, p.near_in, within, updated, false);
    if (best == ring_tracks_.size()) return false;  // not seen yet: waits
    drop_name(p.marker_id);
    pin(ring_tracks_[best], p.marker_id);
    return true;
  });
}

std::size_t Pipeline::finder_of(int marker_id) const {
  std::size_t f = 0;
  while (f < ring_codes_.size() &&
         std::find(ring_codes_[f].begin(), ring_codes_[f].end(), marker_id) == ring_codes_[f].end())
    ++f;
  return f;
}

bool Pipeline::named_by_player(int marker_id) const {
  return std::any_of(ring_tracks_.begin(), ring_tracks_.end(), [&](const RingTrack& t) {
    return t.id == marker_id && t.pinned && !t.by_match;
  });
}

void Pipeline::drop_name(int marker_id) {
  for (RingTrack& t : ring_tracks_) {
    if (t.id != marker_id) continue;
    t.id = -1;
    t.pinned = false;
    t.by_match = false;
  }
}

void Pipeline::set_match_spots(const std::vector<MatchSpot>& spots) {
  std::vector<Spot> next;
  in_match_ = !spots.empty();
  foreign_figures_ = false;
  for (const MatchSpot& m : spots) {
    const auto it = std::find_if(map_.bases.begin(), map_.bases.end(),
                                 [&](const BaseMarker& b) { return b.figure == m.figure; });
    if (it == map_.bases.end()) foreign_figures_ = true;
    if (it == map_.bases.end() || !it->ring) continue;
    const std::size_t f = finder_of(it->marker_id);
    if (f == ring_codes_.size()) continue;
    Spot s{m.centre_in, it->marker_id, f};
    // A spot that stays where it was keeps the time a ring was last seen on it.
    for (const Spot& old : spots_) {
      if (old.marker_id == s.marker_id && cv::norm(old.at - s.at) < 1e-6)
        s.last_held_s = old.last_held_s;
    }
    next.push_back(s);
  }
  spots_ = std::move(next);
}

void Pipeline::apply_match_spots(const std::vector<char>& updated) {
  const RingIdentityOptions& o = ring_options_;
  for (const Spot& s : spots_) {
    // The player's word stands over the match's.
    if (named_by_player(s.marker_id)) continue;
    const std::size_t best = nearest_seen_ring(s.finder, s.at, o.match_spot_in, updated, false);
    if (best == ring_tracks_.size()) continue;
    RingTrack& t = ring_tracks_[best];
    // A ring named already (by the player, or followed from another spot) keeps its name.
    if (t.pinned) continue;
    // A ring fitted loosely in one frame only may be a figure's part over an empty spot (the
    // base lifted off it): it is believed once it fitted tightly or was seen twice in a row.
    if (t.tight_frames == 0 && t.in_a_row < 2) continue;
    drop_name(s.marker_id);
    pin(t, s.marker_id);
    t.by_match = true;
  }
}

bool Pipeline::off_its_spot(const RingTrack& t, std::optional<cv::Point2d> at) const {
  return std::any_of(spots_.begin(), spots_.end(), [&](const Spot& s) {
    return s.marker_id == t.id &&
           cv::norm(at.value_or(t.centre) - s.at) >= ring_options_.match_spot_in;
  });
}

// In a match every figure stands where the match has it, and one moves at a time: a ring off
// every spot is a figure moved only when a spot the camera saw held is empty and the ring came
// after it was. Any other is not reported: a light flat hat in a packed group, fitted tightly as
// a ring 2.5" from every base, stood in 76 frames of table 2's evening (720p 70°, `duels bench
// evening --first-seed 2 --seeds 1 --no-lamp`).
bool Pipeline::may_be_moved(const RingTrack& t) const {
  if (!in_match_) return true;
  // A figure of the match the base map lacks (a base the player left out of bases.yaml) may
  // stand anywhere: the camera cannot name it.
  if (foreign_figures_) return true;
  // A spot emptied before the ring came, or one the camera has never seen held (the figure may
  // stand elsewhere than the match has it) for a ring standing apart from every spot: false rings
  // on the hats and legs of packed figures stood 1.9-2.5" from their bases while a base hidden in
  // the group was never seen (table 1's evening, 720p 70°, 3 frames).
  const double apart = 1.5 * ring_finders_[t.finder].diameter_in();
  const bool alone = std::all_of(spots_.begin(), spots_.end(),
                                 [&](const Spot& s) { return cv::norm(t.centre - s.at) >= apart; });
  return std::any_of(spots_.begin(), spots_.end(), [&](const Spot& s) {
    return s.finder == t.finder &&
           ((s.empty && t.first_seen_s >= s.last_held_s) || (alone && s.last_held_s < -1e299));
  });
}

void Pipeline::name_moved_figure(const std::vector<char>& updated, double time_s) {
  const RingIdentityOptions& o = ring_options_;
  if (spots_.empty()) return;
  const auto on_a_spot = [&](const RingTrack& t) {
    return std::any_of(spots_.begin(), spots_.end(), [&](const Spot& s) {
      return s.finder == t.finder && cv::norm(t.centre - s.at) < o.match_spot_in;
    });
  };
  // The spots whose figure's ring is seen this frame (on the spot, or named so anywhere).
  std::size_t vacant = spots_.size();
  int empty = 0;
  for (std::size_t i = 0; i < spots_.size(); ++i) {
    Spot& s = spots_[i];
    bool held = false;
    for (std::size_t k = 0; k < ring_tracks_.size() && !held; ++k) {
      const RingTrack& t = ring_tracks_[k];
      held = updated[k] && t.finder == s.finder &&
             (t.id == s.marker_id || cv::norm(t.centre - s.at) < o.match_spot_in);
    }
    s.empty = !held && s.last_held_s > -1e299;
    if (held) {
      s.last_held_s = time_s;
    } else if (s.empty) {
      vacant = i;
      ++empty;
    }
  }
  // A spot whose ring has never been seen (hidden in a packed group, behind a figure) is not
  // known to be empty. Two spots empty (a hand over one, a figure in front of another): which
  // figure moved is not known.
  if (empty != 1) return;
  const Spot& s = spots_[vacant];
  // The player named this figure's base: that stands.
  if (named_by_player(s.marker_id)) return;
  std::size_t moved = ring_tracks_.size();
  for (std::size_t k = 0; k < ring_tracks_.size(); ++k) {
    const RingTrack& t = ring_tracks_[k];
    if (!updated[k] || t.finder != s.finder || t.id >= 0 || on_a_spot(t)) continue;
    if (moved < ring_tracks_.size()) return;  // two rings off the spots: which is it?
    moved = k;
  }
  if (moved == ring_tracks_.size()) return;
  RingTrack& t = ring_tracks_[moved];
  // Believed a base as a ring named by elimination is (name_by_elimination), and come since the
  // figure left its spot: a false ring that stood there before is not the moved figure.
  if (t.frames < o.settled_frames || t.tight_frames < 1 || t.in_a_row < o.settled_frames ||
      t.beside_marker || ring_black_cells(t.code_sum, t.frames) < o.min_black_cells ||
      t.first_seen_s < s.last_held_s)
    return;
  // Its code, as far as it is read, must not name another figure clearly.
  const std::vector<int>& codes = ring_codes_[s.finder];
  const auto agree =
      ring_agreements(t.code_sum, t.weight_sum, t.frames, codes, ring_finders_[s.finder].style());
  double own = 0;
  double other = -1e300;
  for (const RingAgreement& a : agree) {
    if (a.id == s.marker_id) {
      own = a.sectors;
    } else if (a.score >= o.min_score) {
      other = std::max(other, a.sectors);
    }
  }
  if (other - own >= o.min_margin_sectors) return;
  // The figure's old ring track (where it stood, unseen since) names nothing any more: a fit
  // on its empty spot would otherwise be reported under its name.
  drop_name(s.marker_id);
  pin(t, s.marker_id);
  t.by_match = true;
}

std::size_t Pipeline::nearest_seen_ring(std::size_t finder, cv::Point2d at, double within_in,
                                        const std::vector<char>& updated, bool unnamed_only) const {
  std::size_t best = ring_tracks_.size();
  double best_d = within_in;
  for (std::size_t i = 0; i < ring_tracks_.size(); ++i) {
    const RingTrack& t = ring_tracks_[i];
    const double d = cv::norm(t.centre - at);
    if (t.finder == finder && updated[i] && (!unnamed_only || t.id < 0) && d < best_d) {
      best_d = d;
      best = i;
    }
  }
  return best;
}

void Pipeline::pin(RingTrack& t, int marker_id) {
  t.id = marker_id;
  t.pinned = true;
  t.by_match = false;
  t.score = 1;
}

void Pipeline::recall_names(const std::vector<char>& updated) {
  constexpr double kSameSpotIn = 1.0;
  std::erase_if(remembered_names_, [&](const RememberedName& r) {
    // The figure's code read on a ring: the camera has found the base elsewhere.
    if (std::any_of(ring_tracks_.begin(), ring_tracks_.end(),
                    [&](const RingTrack& t) { return t.id == r.marker_id; }))
      return true;
    const std::size_t best = nearest_seen_ring(r.finder, r.at, kSameSpotIn, updated, true);
    if (best == ring_tracks_.size()) return false;  // not back yet
    pin(ring_tracks_[best], r.marker_id);
    return true;
  });
}

void Pipeline::name_rings(std::size_t finder, const std::vector<char>& updated) {
  const RingIdentityOptions& o = ring_options_;
  const std::vector<int>& codes = ring_codes_[finder];
  const int n_codes = static_cast<int>(codes.size());
  // The rings taking part: those seen this frame. A named ring out of sight keeps its name
  // but does not take part: a code is not ruled out for a ring that is seen because a ring
  // that is not seen holds it (that one may be a stale copy, and the exclusion would then
  // name the seen ring wrongly); a seen ring clearly named with it takes it over.
  // Rings the player named keep their names and take no part; their codes are not given.
  std::vector<std::size_t> rows;
  std::vector<char> pinned_code(static_cast<std::size_t>(n_codes), 0);
  for (std::size_t i = 0; i < ring_tracks_.size(); ++i) {
    const RingTrack& t = ring_tracks_[i];
    if (t.finder != finder) continue;
    if (t.pinned) {
      for (int c = 0; c < n_codes; ++c) {
        if (codes[static_cast<std::size_t>(c)] == t.id)
          pinned_code[static_cast<std::size_t>(c)] = 1;
      }
    } else if (updated[i]) {
      rows.push_back(i);
    }
  }
  if (rows.empty() || n_codes == 0) return;
  // Utility of ring r carrying code c: its evidence for c in clearly seen sectors (whether or
  // not it would be enough to name it: the alternatives count in full), plus a bonus for the
  // name a ring already has.
  constexpr double kForbidden = 1e9;
  const int n = static_cast<int>(rows.size());
  const int m = n_codes + n;  // the codes, then one "no name" column per ring
  std::vector<std::vector<double>> cost(static_cast<std::size_t>(n),
                                        std::vector<double>(static_cast<std::size_t>(m), 0.0));
  std::vector<std::vector<RingAgreement>> agree(static_cast<std::size_t>(n));
  for (int r = 0; r < n; ++r) {
    RingTrack& t = ring_tracks_[rows[static_cast<std::size_t>(r)]];
    auto& row = cost[static_cast<std::size_t>(r)];
    agree[static_cast<std::size_t>(r)] =
        ring_agreements(t.code_sum, t.weight_sum, t.frames, codes, ring_finders_[finder].style());
    for (int c = 0; c < n_codes; ++c) {
      const RingAgreement& a = agree[static_cast<std::size_t>(r)][static_cast<std::size_t>(c)];
      const double u =
          a.sectors + (t.id == codes[static_cast<std::size_t>(c)] ? o.keep_sectors : 0.0);
      row[static_cast<std::size_t>(c)] = pinned_code[static_cast<std::size_t>(c)] ? kForbidden : -u;
    }
  }
  const std::vector<int> best = min_cost_assignment(cost);
  const auto total = [&](const std::vector<int>& a) {
    double s = 0;
    for (int r = 0; r < n; ++r)
      s += cost[static_cast<std::size_t>(r)]
               [static_cast<std::size_t>(a[static_cast<std::size_t>(r)])];
    return s;
  };
  const double best_total = total(best);
  // A ring whose own evidence does not single out its code (another code fits it within the
  // margin) is named only by exclusion: those other codes are held by other rings. That is
  // believed only when each of them is read well enough there to be named with it; a misread
  // ring (a far ring read through the blur) would otherwise push this one onto a wrong code.
  std::vector<int> holder(static_cast<std::size_t>(n_codes), -1);
  for (int r = 0; r < n; ++r) {
    if (best[static_cast<std::size_t>(r)] < n_codes)
      holder[static_cast<std::size_t>(best[static_cast<std::size_t>(r)])] = r;
  }
  // A ring's evidence for a code; its best code's; and whether the code it carries stands out
  // of its readings (by the margin over the median code's) or it reads no code of its own (a
  // few cells in view, which some turn of every code fits).
  const auto ev = [&](int r, int c) {
    return agree[static_cast<std::size_t>(r)][static_cast<std::size_t>(c)].sectors;
  };
  std::vector<double> best_ev(static_cast<std::size_t>(n));
  std::vector<char> singled_out(static_cast<std::size_t>(n), 0);
  std::vector<double> taken_best(static_cast<std::size_t>(n), -1e300);  // best pinned code's
  for (int r = 0; r < n; ++r) {
    for (int c = 0; c < n_codes; ++c) {
      if (pinned_code[static_cast<std::size_t>(c)])
        taken_best[static_cast<std::size_t>(r)] =
            std::max(taken_best[static_cast<std::size_t>(r)], ev(r, c));
    }
    std::vector<double> e;
    for (const RingAgreement& x : agree[static_cast<std::size_t>(r)])
      e.push_back(x.sectors);
    const auto median = e.begin() + static_cast<long>(e.size() / 2);
    std::nth_element(e.begin(), median, e.end());
    best_ev[static_cast<std::size_t>(r)] = *std::max_element(e.begin(), e.end());
    const int col = best[static_cast<std::size_t>(r)];
    singled_out[static_cast<std::size_t>(r)] =
        col < n_codes && ev(r, col) - *median >= o.min_margin_sectors;
  }
  // Two rings that read no code of their own, either of which could carry the other's code
  // (within the margin of its best), are told apart only by what each reads against the
  // other's code: a hidden ring's cells read through its own figure may read against its own
  // code. Each is named by exclusion only when each reads its own code at least as well as the
  // other's. Table 10 of the flat 720p camera: base 11 (reading 11 1.70 cells, 12 1.59) and
  // base 12 behind it (11 1.80, 12 0.90) were named 12 and 11, both more than 1" off, from the
  // 15th of 30 frames on.
  const auto pair_agrees = [&](int r, int col) {
    for (int q = 0; q < n; ++q) {
      const int cq = best[static_cast<std::size_t>(q)];
      if (q == r || singled_out[static_cast<std::size_t>(q)] || cq >= n_codes) continue;
      const RingAgreement& aq = agree[static_cast<std::size_t>(q)][static_cast<std::size_t>(cq)];
      if (aq.score < o.min_score || aq.sectors < o.min_sectors) continue;  // never named
      const bool could_swap =
          ev(q, col) >= best_ev[static_cast<std::size_t>(q)] - o.min_margin_sectors ||
          ev(r, cq) >= best_ev[static_cast<std::size_t>(r)] - o.min_margin_sectors;
      if (could_swap && (ev(r, col) < ev(r, cq) || ev(q, cq) < ev(q, col))) return false;
    }
    return true;
  };
  const auto excluded_by_strong = [&](int r, int col) {
    const auto& row = cost[static_cast<std::size_t>(r)];
    for (int c = 0; c < n_codes; ++c) {
      if (c == col || -row[static_cast<std::size_t>(c)] <
                          -row[static_cast<std::size_t>(col)] - o.min_margin_sectors)
        continue;
      const int h = holder[static_cast<std::size_t>(c)];
      if (h < 0) return false;
      const RingAgreement& a = agree[static_cast<std::size_t>(h)][static_cast<std::size_t>(c)];
      if (a.score < o.min_score || a.sectors < o.min_sectors) return false;
    }
    return true;
  };
  for (int r = 0; r < n; ++r) {
    RingTrack& t = ring_tracks_[rows[static_cast<std::size_t>(r)]];
    const int col = best[static_cast<std::size_t>(r)];
    if (col >= n_codes) {
      // No code is better than none: the evidence turned against a named ring's name.
      if (t.id >= 0) {
        t.id = -1;
        t.score = 0;
      }
      continue;
    }
    // The margin: the best total without this ring carrying this code.
    double& cell = cost[static_cast<std::size_t>(r)][static_cast<std::size_t>(col)];
    const double kept = cell;
    cell = kForbidden;
    const double margin = total(min_cost_assignment(cost)) - best_total;
    cell = kept;
    const int id = codes[static_cast<std::size_t>(col)];
    const RingAgreement& a = agree[static_cast<std::size_t>(r)][static_cast<std::size_t>(col)];
    // A ring fitted loosely in the one frame it was seen may sit a tenth of an inch off and
    // read its code beside its cells: it is named once it is seen again, or at once when its
    // code stands out by three times the usual margin. A ring first fitted at a search frame
    // was otherwise nameless until the next frame. Measured (`duels bench coverage --target
    // ring2`, seeds 1-48): 10 more of 3840 named at the scored frame, none wrongly; naming
    // such a ring by the usual margin named 11, none wrongly either.
    const bool seen_enough = t.tight_frames > 0 || t.frames >= 2 || margin >= o.seen_once_margin;
    // A ring that reads no code of its own can be named only by exclusion. It is believed a
    // base only once its rim has held a whole ring's points (kLooseRimRays) in a frame, or it
    // has been fitted in two frames one after the other, and (above) its pairing with another
    // such ring is not decided against what either reads. A false ring fitted tightly on the
    // figures of a packed group (25-26 of 48 rim points, in frames 20, 25 and 27 of 30), 3.7"
    // behind hidden base 4 of table 13 of the 720p 70° camera, took that base's name; base 12
    // of table 10 of the same camera, hidden behind base 11 and seen in some frames only, holds
    // 34-38 points; base 3 of table 1 of the 1080p 65° camera (29 % of its ring in view) is
    // fitted tightly with few points in every frame and is now named from its second. Measured
    // (`duels bench coverage --target ring2`): 1253 of 1280 named in every frame and 2524 of
    // 2560 on tables 17-48, as before; over 30 frames no base more than 1" off or switched on
    // any of the 48 tables. Either of the first two conditions alone: whole ring only, base 3
    // of table 1 named only in later frames; two frames only, 1252 (table 10's base 12 lost a
    // frame).
    // A ring named only by exclusion must also have fitted tightly once: a figure's light head
    // or hat, fitted loosely as a ring in every frame, read next to no code and took a hidden
    // base's name so (issue 51, `--posed`: table 1's base 3, 47" off).
    const bool believed = singled_out[static_cast<std::size_t>(r)] ||
                          ((t.whole_frames > 0 || t.in_a_row >= 2) && pair_agrees(r, col) &&
                           (!o.exclusion_needs_tight || t.tight_frames > 0));
    // A ring never fitted tightly must read black to be named: every code has black cells in
    // every half of its ring, and a figure's light hat, fitted loosely as a ring in every frame,
    // read only white and was named so (issue 51, `--posed`: table 1's base 3, 47" off).
    const bool proven =
        t.tight_frames > 0 || ring_black_cells(t.code_sum, t.frames) >= o.min_black_cells;
    // In a match (set_match_spots) every ring standing where the match has a figure is named
    // so, and their codes are taken; a ring elsewhere is a moved figure or a false ring, and its
    // code must name it by itself: read better than any code taken so, by the margin (those
    // codes compete here: the match's names are not evidence that this ring is a base). Otherwise a
    // false ring on a figure's legs, 1.9" from its base, took the code of a base hidden in a packed
    // group by exclusion, every other code being taken (issue 51, `duels bench evening`, table 1).
    const bool own_code =
        !in_match_ || a.sectors - taken_best[static_cast<std::size_t>(r)] >= o.min_margin_sectors;
    const bool strong = seen_enough && believed && proven && own_code && a.score >= o.min_score &&
                        a.sectors >= o.min_sectors && excluded_by_strong(r, col);
    // A ring first fitted beside a corner marker may be a fit along the marker's paper, where
    // no base stands; it is named only by the margin of a ring seen once. By the usual margin,
    // such a ring on table 15 of the flat 720p camera gathered evidence for the code of base 6
    // (never located) and was named 6 from its 11th frame, 40" off (tables 1-16, 30 frames).
    // The margin must also outweigh the evidence against the code (agreeing A, disagreeing D:
    // score = (A − D) / (A + D), sectors = A − D, so D = sectors (1 − score) / (2 score)): what
    // covers part of the ring (dice, a hat, a lamp's shadow) reads cells at random, and a ring
    // whose own code leaves that much unexplained is not told from the next code by less. With
    // 3-6 dice on each base, rings misread so (score 0.73-0.77, margin 0.51-0.60, about a cell
    // against) named 3 bases wrongly over 4 tables of the 720p 70° camera (issue 51).
    const double against =
        a.score < 1 ? a.sectors * (1 - a.score) / (2 * std::max(a.score, 1e-6)) : 0.0;
    const double need = std::max(t.beside_marker ? o.seen_once_margin : o.min_margin_sectors,
                                 o.margin_over_against * against);
    if ((strong && margin >= need) || (t.id == id && margin >= 0)) {
      for (std::size_t k = 0; k < ring_tracks_.size(); ++k) {
        if (!updated[k] && ring_tracks_[k].id == id) ring_tracks_[k].id = -1;
      }
      t.id = id;
      t.score = a.score;
      t.facing_deg = a.facing_deg;
    } else if (t.id >= 0 && t.id != id) {
      t.id = -1;  // its old name is doubtful now, its new one not yet sure
      t.score = 0;
    }
  }
  // Two rings never share a name (a ring keeps a name the assignment gave elsewhere only
  // when it was not sure of the new one).
  for (std::size_t i = 0; i < ring_tracks_.size(); ++i) {
    for (std::size_t k = i + 1; k < ring_tracks_.size(); ++k) {
      if (ring_tracks_[i].id < 0 || ring_tracks_[i].id != ring_tracks_[k].id) continue;
      if (!ring_tracks_[k].pinned) ring_tracks_[k].id = -1;
      if (!ring_tracks_[i].pinned) ring_tracks_[i].id = -1;
    }
  }
  name_by_elimination(finder, rows, agree, updated);
}

// Named by elimination: when every code but one is held by a ring seen in this frame and
// one ring seen is nameless, that ring carries the last code — if it has stood still for
// `settled_frames`, fitted tightly at least once, and the little of its code it shows does
// not contradict the last one. Its code may be all hidden by its figure. Not when a holder
// is out of sight (the nameless ring may be that base, moved), nor when two codes or two
// rings are left. Measured (`duels bench coverage --target ring2`, seeds 1-48): 1 more of
// 3840 named (a far ring showing a third of a sector of its code), none wrongly.
void Pipeline::name_by_elimination(std::size_t finder, const std::vector<std::size_t>& rows,
                                   const std::vector<std::vector<RingAgreement>>& agree,
                                   const std::vector<char>& updated) {
  const RingIdentityOptions& o = ring_options_;
  const std::vector<int>& codes = ring_codes_[finder];
  const int n_codes = static_cast<int>(codes.size());
  const int n = static_cast<int>(rows.size());
  int nameless = -1;
  for (int r = 0; r < n; ++r) {
    if (ring_tracks_[rows[static_cast<std::size_t>(r)]].id >= 0) continue;
    if (nameless >= 0) return;
    nameless = r;
  }
  if (nameless < 0) return;
  int free_code = -1;
  for (int c = 0; c < n_codes; ++c) {
    const int id = codes[static_cast<std::size_t>(c)];
    bool held = false;
    for (std::size_t k = 0; k < ring_tracks_.size(); ++k) {
      if (ring_tracks_[k].id != id) continue;
      if (k >= updated.size() || !updated[k]) return;
      held = true;
    }
    if (held) continue;
    if (free_code >= 0) return;
    free_code = c;
  }
  if (free_code < 0) return;
  RingTrack& t = ring_tracks_[rows[static_cast<std::size_t>(nameless)]];
  const RingAgreement& a =
      agree[static_cast<std::size_t>(nameless)][static_cast<std::size_t>(free_code)];
  if (t.frames < o.settled_frames || t.tight_frames < 1 || a.score < o.min_score) return;
  // A ring first fitted beside a corner marker is named only by its code's clear margin
  // (name_rings): over 30 frames of table 34 of the 720p 75° camera, a fit on the far-left
  // marker's paper and the table's edge beside it, 1.3 cells of white read and no black, was
  // the one nameless ring while base 0 was never located, and was named 0 here at frame 28,
  // 33" off.
  if (t.beside_marker) return;
  t.id = codes[static_cast<std::size_t>(free_code)];
  t.score = a.score;
  t.facing_deg = a.facing_deg;
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
    if (m.ring || was_found(m.marker_id)) continue;
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
  chroma_ = ring_finders_.empty() ? cv::Mat() : ring_chroma(image);
  if (any_square_) r.detections = detector_.detect_gray(gray, cv::Rect(0, 0, gray.cols, gray.rows));
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
  if (!ring_finders_.empty() && ring_options_.skip_corner_markers &&
      processed_ % kCornerEvery == 0) {
    // The table's corner markers (ids 0-3), where no ring is looked for.
    const std::vector<Detection> found =
        any_square_ ? r.detections
                    : detector_.detect_gray(gray, cv::Rect(0, 0, gray.cols, gray.rows));
    ring_keep_out_ = known_keep_out_;
    for (const Detection& d : found) {
      if (d.marker_id < 0 || d.marker_id >= 4) continue;
      for (std::size_t f = 0; f < ring_finders_.size(); ++f) {
        if (auto poly = marker_keep_out(plane_, d.corners_px, ring_finders_[f].top_height_in(),
                                        ring_finders_[f].diameter_in() / 2, kRingMarkerMargin))
          ring_keep_out_[f].push_back(std::move(*poly));
      }
    }
  }
  std::vector<UnnamedBase> unnamed;
  if (!ring_finders_.empty()) {
    for (auto& o : ring_observations(gray, time_s, r.rings, unnamed))
      r.observations.push_back(o);
  }
  std::vector<TrackedBase> bases = tracker_.update(r.observations, time_s);
  // The match's memory: a base unseen for longer than the tracker keeps it (dice over its rim,
  // a hand held over it) stays where it was last seen, occluded, while the match has its figure
  // there: nothing says it has gone. Once its ring shows elsewhere, or the match moves it, it is
  // lost as before.
  for (TrackedBase& b : bases) {
    if (b.state != BaseState::kLost) continue;
    if (std::any_of(spots_.begin(), spots_.end(), [&](const Spot& s) {
          return s.marker_id == b.marker_id &&
                 cv::norm(s.at - b.centre_in) < ring_options_.match_spot_in;
        }))
      b.state = BaseState::kOccluded;
  }
  // A ring not named where a named base is seen (its square marker read) is that base.
  std::erase_if(unnamed, [&](const UnnamedBase& u) {
    return std::any_of(bases.begin(), bases.end(), [&](const TrackedBase& b) {
      return !b.stale() && cv::norm(b.centre_in - u.centre_in) < b.radius_in + u.radius_in;
    });
  });
  r.state = measure_table(frame, time_s, std::move(bases), std::move(unnamed));
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
    m.ring = b.target != BaseTargetKind::kSquare;
    m.ring_style = ring_style_of(b.target);
    map.bases.push_back(m);
  }
  return map;
}

calib::TablePlane plane_from_scene(const SceneSpec& scene) {
  return {scene.camera, scene.table_to_camera, scene.table};
}

std::vector<std::array<cv::Point2d, 4>> table_markers_of(const calib::MarkerLayout& layout) {
  std::vector<std::array<cv::Point2d, 4>> out;
  for (const auto& m : layout.markers) {
    const double h = m.side_in / 2;
    const cv::Point2d c = m.centre_in;
    out.push_back({cv::Point2d(c.x - h, c.y + h), cv::Point2d(c.x + h, c.y + h),
                   cv::Point2d(c.x + h, c.y - h), cv::Point2d(c.x - h, c.y - h)});
  }
  return out;
}

std::vector<std::array<cv::Point2d, 4>> table_markers_from_calibration(const std::string& path) {
  return table_markers_from_calibration(calib::read_camera_file(path));
}

std::vector<std::array<cv::Point2d, 4>> table_markers_from_calibration(
    const calib::CameraFile& file) {
  std::vector<std::array<cv::Point2d, 4>> out;
  // A marker registration stores each marker's four corners in turn (calib/table.cpp).
  if (!file.table || file.table->points.method.rfind("markers", 0) != 0) return out;
  const auto& pts = file.table->points.table_in;
  for (std::size_t i = 0; i + 3 < pts.size(); i += 4) {
    std::array<cv::Point2d, 4> q;
    for (std::size_t k = 0; k < 4; ++k)
      q[k] = {pts[i + k].x, pts[i + k].y};
    out.push_back(q);
  }
  return out;
}

calib::TablePlane plane_from_calibration(const std::string& path) {
  return plane_from_calibration(calib::read_camera_file(path), path);
}

calib::TablePlane plane_from_calibration(const calib::CameraFile& file, const std::string& path) {
  if (!file.table) {
    throw DataException({path, 0, "table",
                         "a calibration with a table registration (run `duels calibrate table` "
                         "first)"});
  }
  return {file.intrinsics, file.table->table_to_camera, file.table->table};
}

}  // namespace duels::vision
