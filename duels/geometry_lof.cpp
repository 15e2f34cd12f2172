// Exact line of fire between two bases.
//
// A segment from the attacker's disc A to the target's disc T lies on a line that meets both
// discs; along such a line the part between A's exit point and T's entry point (the "gap
// segment") is contained in every segment from A to T on it. So the question is whether some
// line meeting A and T has a gap segment touching no obstacle.
//
// The clear lines form an open set in the 2-D space of lines. If it is not empty, slide a clear
// line sideways until it first touches a feature (an obstacle circle, a polygon corner, or the
// edge of A or T), then turn it about that contact until it touches a second feature: the
// result is a common tangent of two features, and clear lines lie arbitrarily close to it. So
// testing every common tangent of every pair of features, each nudged off its contacts into the
// clear side (found exactly from the first-order contact constraints), decides existence.
//
// The witness is the clear segment with the smallest gap (the best tape measurement). The gap
// has its only minimum on the centre line, so when that is blocked the best clear line lies on
// the boundary of the clear set: at a common tangent, or at a stationary point along a family of
// lines tangent to one feature, which a sampled search plus golden-section refinement finds.
#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <numbers>

#include "duels/geometry.hpp"
#include "duels/geometry_internal.hpp"

namespace duels {
namespace {

using geom::kTwoPi;

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kTouchTol = 1e-9;                // a feature this close to a line touches it
constexpr double kPush = kLineOfFireClearanceIn;  // how far candidate lines are nudged off contacts

// A line {x : n·x = s} with unit normal n.
struct Line {
  Vec2 n;
  double s = 0;
};

// A clear line with its gap segment (attacker exit → target entry) and attacker chord.
struct Candidate {
  Line line;
  Segment seg;
  double chord = 0;
  [[nodiscard]] double gap() const { return seg.length_in(); }
};

// Something a critical line can touch: a circle (radius ≥ 0: a polygon corner is radius 0).
// shape = -1 for the attacker, -2 for the target, else an index into the solver's shapes;
// vertex = the polygon corner index, or -1.
struct Feature {
  Vec2 c;
  double r = 0;
  int shape = 0;
  int vertex = -1;
};

// One first-order contact constraint: keep sign·(u·dθ − ds) > 0.
struct Contact {
  double u = 0;
  double sign = 1;
};

// An obstacle relevant to this pair, with its bounding box for a quick rejection.
struct Relevant {
  const Shape* shape = nullptr;
  std::size_t index = 0;
  Vec2 lo;
  Vec2 hi;
  double centre_distance = 0;  // from the centre segment, for ordering blockers
};

class LofSolver {
 public:
  LofSolver(const Disc& a, const Disc& t, const Obstacles& others) : a_(a), t_(t) {
    const Vec2 ca = a.centre;
    const Vec2 ct = t.centre;
    const double reach = std::max(a.radius_in, t.radius_in);
    for (std::size_t i = 0; i < others.size(); ++i) {
      const Shape& s = others[i].shape;
      Relevant r;
      r.shape = &s;
      r.index = i;
      if (s.kind == Shape::Kind::Circle) {
        const double d = geom::point_segment_distance(s.circle.centre, ca, ct) - s.circle.radius_in;
        if (d > reach + kTouchTol) continue;
        r.centre_distance = d;
        const Vec2 e{s.circle.radius_in, s.circle.radius_in};
        r.lo = s.circle.centre - e;
        r.hi = s.circle.centre + e;
      } else {
        if (s.polygon.size() < 3) continue;
        const double d = geom::segment_polygon_distance(ca, ct, s.polygon);
        if (d > reach + kTouchTol) continue;
        r.centre_distance = d;
        r.lo = r.hi = s.polygon.front();
        for (const Vec2& p : s.polygon) {
          r.lo = {std::min(r.lo.x, p.x), std::min(r.lo.y, p.y)};
          r.hi = {std::max(r.hi.x, p.x), std::max(r.hi.y, p.y)};
        }
      }
      relevant_.push_back(r);
    }
    active_.resize(relevant_.size());
    for (std::size_t i = 0; i < active_.size(); ++i)
      active_[i] = i;
  }

  [[nodiscard]] const std::vector<Relevant>& relevant() const { return relevant_; }
  void set_active(std::vector<std::size_t> active) { active_ = std::move(active); }

  // The gap segment along a line, or false when the line misses a disc by more than `tol`.
  bool gap_along(const Line& l, Candidate& out, double tol = 0) const {
    Vec2 dir = perp(l.n);
    if (dot(dir, t_.centre - a_.centre) < 0) dir = -dir;
    const double sda = dot(l.n, a_.centre) - l.s;
    const double sdt = dot(l.n, t_.centre) - l.s;
    if (std::abs(sda) > a_.radius_in + tol || std::abs(sdt) > t_.radius_in + tol) return false;
    const double ha = std::sqrt(std::max(0.0, a_.radius_in * a_.radius_in - sda * sda));
    const double ht = std::sqrt(std::max(0.0, t_.radius_in * t_.radius_in - sdt * sdt));
    out.line = l;
    out.seg = {a_.centre - l.n * sda + dir * ha, t_.centre - l.n * sdt - dir * ht};
    out.chord = 2 * ha;
    return true;
  }

  // Strict test: the segment touches no active obstacle.
  [[nodiscard]] bool segment_clear(const Segment& s) const {
    const Vec2 lo{std::min(s.a.x, s.b.x), std::min(s.a.y, s.b.y)};
    const Vec2 hi{std::max(s.a.x, s.b.x), std::max(s.a.y, s.b.y)};
    for (std::size_t k : active_) {
      const Relevant& r = relevant_[k];
      if (r.lo.x > hi.x || r.hi.x < lo.x || r.lo.y > hi.y || r.hi.y < lo.y) continue;
      if (touches(s, *r.shape)) return false;
    }
    return true;
  }

  bool line_clear(const Line& l, Candidate& out) const {
    return gap_along(l, out) && segment_clear(out.seg);
  }

  bool centre(Candidate& out) const {
    const Vec2 d = t_.centre - a_.centre;
    const Vec2 u = d / norm(d);
    const Line l{perp(u), dot(perp(u), a_.centre)};
    return line_clear(l, out);
  }

  // Every common tangent of two features, nudged into the clear side. Appends clear lines to
  // `found`; stops at the first when `first_only`.
  bool enumerate(std::vector<Candidate>* found, bool first_only) const {
    std::vector<Feature> features = make_features();
    std::vector<Line> lines;
    bool any = false;
    for (std::size_t i = 0; i < features.size(); ++i) {
      for (std::size_t j = i + 1; j < features.size(); ++j) {
        lines.clear();
        bitangents(features[i], features[j], lines);
        for (const Line& l : lines) {
          Candidate c;
          if (!nudge_clear(l, features, c)) continue;
          any = true;
          if (found != nullptr) found->push_back(c);
          if (first_only) return true;
        }
      }
    }
    return any;
  }

  // Best clear line near the families of lines tangent to each obstacle feature.
  void refine(std::vector<Candidate>& found) const {
    for (const Feature& f : make_features()) {
      if (f.shape < 0) continue;
      refine_family(f, found);
    }
  }

 private:
  std::vector<Feature> make_features() const {
    std::vector<Feature> out;
    out.push_back({a_.centre, a_.radius_in, -1, -1});
    out.push_back({t_.centre, t_.radius_in, -2, -1});
    for (std::size_t k : active_) {
      const Shape& s = *relevant_[k].shape;
      const int id = static_cast<int>(k);
      if (s.kind == Shape::Kind::Circle) {
        out.push_back({s.circle.centre, s.circle.radius_in, id, -1});
        add_crossings(s.circle.centre, s.circle.radius_in, id, out);
      } else {
        for (std::size_t v = 0; v < s.polygon.size(); ++v) {
          out.push_back({s.polygon[v], 0.0, id, static_cast<int>(v)});
        }
        add_polygon_crossings(s.polygon, id, out);
      }
    }
    return out;
  }

  // Where an obstacle overlapping a base crosses its edge (only in overlapping scenes): the
  // gap segment's end can enter the obstacle there, so those points are features too.
  void add_crossings(Vec2 c, double r, int id, std::vector<Feature>& out) const {
    for (const Disc& d : {a_, t_}) {
      const Vec2 w = c - d.centre;
      const double l = norm(w);
      if (l >= d.radius_in + r || l <= std::abs(d.radius_in - r) || l == 0) continue;
      const double x = (d.radius_in * d.radius_in - r * r + l * l) / (2 * l);
      const double h = std::sqrt(std::max(0.0, d.radius_in * d.radius_in - x * x));
      const Vec2 u = w / l;
      out.push_back({d.centre + u * x + perp(u) * h, 0.0, id, -1});
      out.push_back({d.centre + u * x - perp(u) * h, 0.0, id, -1});
    }
  }
  void add_polygon_crossings(const std::vector<Vec2>& poly, int id,
                             std::vector<Feature>& out) const {
    for (const Disc& d : {a_, t_}) {
      for (std::size_t i = 0, j = poly.size() - 1; i < poly.size(); j = i++) {
        const Vec2 p = poly[j];
        const Vec2 q = poly[i];
        const Vec2 e = q - p;
        const double a = norm2(e);
        const double b = 2 * dot(e, p - d.centre);
        const double c = norm2(p - d.centre) - d.radius_in * d.radius_in;
        const double disc = b * b - 4 * a * c;
        if (a == 0 || disc <= 0) continue;
        for (double sgn : {-1.0, 1.0}) {
          const double tt = (-b + sgn * std::sqrt(disc)) / (2 * a);
          if (tt > 0 && tt < 1) out.push_back({p + e * tt, 0.0, id, -1});
        }
      }
    }
  }

  // The (up to four) lines tangent to both features.
  static void bitangents(const Feature& f, const Feature& g, std::vector<Line>& out) {
    const Vec2 w = f.c - g.c;
    const double l = norm(w);
    if (l <= 0) return;
    const Vec2 wh = w / l;
    for (double s2 : {1.0, -1.0}) {
      if (s2 < 0 && g.r == 0) break;
      const double k = f.r - s2 * g.r;  // n·(c_f − c_g) = r_f − s2·r_g
      if (std::abs(k) > l) continue;
      const double cs = k / l;
      const double sn = std::sqrt(std::max(0.0, 1 - cs * cs));
      for (double side : {1.0, -1.0}) {
        const Vec2 n = wh * cs + perp(wh) * (side * sn);
        out.push_back({n, dot(n, f.c) - f.r});
        if (sn == 0) break;
      }
    }
  }

  // Nudges a critical line off its contacts into the clear side and tests it.
  bool nudge_clear(const Line& l, const std::vector<Feature>& features, Candidate& out) const {
    // Reference point: the middle of the gap segment.
    Candidate g;
    if (!gap_along(l, g, kTouchTol)) return false;
    const Vec2 m = (g.seg.a + g.seg.b) / 2;
    const Vec2 p = perp(l.n);
    const double ua = dot(g.seg.a - m, p);
    const double ub = dot(g.seg.b - m, p);
    const double umin = std::min(ua, ub) - kTouchTol;
    const double umax = std::max(ua, ub) + kTouchTol;
    const double half = std::max(0.5 * g.seg.length_in(), 1e-6);

    std::vector<Contact>& contacts = scratch_contacts_;
    contacts.clear();
    for (const Feature& f : features) {
      const double sd = dot(l.n, f.c) - l.s;
      const double u = dot(f.c - m, p);
      if (f.shape < 0) {
        if (std::abs(sd) >= f.r - kTouchTol) contacts.push_back({u, sd > 0 ? -1.0 : 1.0});
        continue;
      }
      if (f.vertex < 0) {
        if (f.r > 0 && std::abs(std::abs(sd) - f.r) <= kTouchTol && u >= umin && u <= umax) {
          contacts.push_back({u, sd > 0 ? 1.0 : -1.0});
        }
        continue;
      }
      if (std::abs(sd) > kTouchTol || u < umin || u > umax) continue;
      const auto& poly = relevant_[static_cast<std::size_t>(f.shape)].shape->polygon;
      const std::size_t n = poly.size();
      const std::size_t v = static_cast<std::size_t>(f.vertex);
      const std::array<std::size_t, 2> nbr = {(v + n - 1) % n, (v + 1) % n};
      for (std::size_t k = 0; k < 2; ++k) {
        const Vec2 w = poly[nbr[k]];
        const double sw = dot(l.n, w) - l.s;
        if (std::abs(sw) > kTouchTol) {
          contacts.push_back({u, sw > 0 ? 1.0 : -1.0});
        } else {
          // The edge lies along the line: the polygon is on its inner (left, for CCW) side.
          const Vec2 e = k == 0 ? poly[v] - w : w - poly[v];
          contacts.push_back({u, dot(l.n, perp(e)) > 0 ? 1.0 : -1.0});
        }
      }
    }

    // Directions d = (dθ·half, ds) with every n_i·d > 0, where n_i = sign_i·(u_i/half, −1).
    std::vector<double>& normals = scratch_normals_;
    normals.clear();
    for (const Contact& c : contacts) {
      normals.push_back(std::atan2(-c.sign, c.sign * c.u / half));
    }
    std::vector<std::pair<double, double>>& dirs = scratch_dirs_;  // (margin, angle)
    dirs.clear();
    if (normals.empty()) {
      dirs.emplace_back(1.0, 0.0);
    } else {
      std::vector<double>& bounds = scratch_bounds_;
      bounds.clear();
      for (double a : normals) {
        bounds.push_back(geom::wrap_angle(a + std::numbers::pi / 2));
        bounds.push_back(geom::wrap_angle(a - std::numbers::pi / 2));
      }
      std::sort(bounds.begin(), bounds.end());
      for (std::size_t i = 0; i < bounds.size(); ++i) {
        const double lo = bounds[i];
        const double hi = i + 1 < bounds.size() ? bounds[i + 1] : bounds[0] + kTwoPi;
        const double mid = (lo + hi) / 2;
        double margin = kInf;
        for (double a : normals)
          margin = std::min(margin, std::cos(mid - a));
        if (margin > 1e-12) dirs.emplace_back(margin, mid);
      }
      std::sort(dirs.begin(), dirs.end(),
                [](const auto& x, const auto& y) { return x.first > y.first; });
    }
    for (const auto& [margin, ang] : dirs) {
      const double eps = std::min(kPush / std::max(margin, 1e-6), 1e-3);
      for (double scale : {1.0, 0.01}) {
        const double e = eps * scale;
        const double dtheta = e * std::cos(ang) / half;
        const double ds = e * std::sin(ang);
        const Vec2 n{l.n.x * std::cos(dtheta) - l.n.y * std::sin(dtheta),
                     l.n.x * std::sin(dtheta) + l.n.y * std::cos(dtheta)};
        const Line moved{n, dot(n, m) - (dot(l.n, m) - l.s) + ds};
        if (line_clear(moved, out)) return true;
      }
    }
    return false;
  }

  // Lines tangent to feature f (f on their negative side, pushed off it by kPush): sample the
  // family over the angles where the line meets both discs, refine the best local minima.
  void refine_family(const Feature& f, std::vector<Candidate>& found) const {
    const double off = f.r + kPush;
    auto band = [&](const Disc& d) {
      const Vec2 w = d.centre - f.c;
      return geom::AngleSet::cos_band(0.0, norm(w), geom::angle_of(w), off - d.radius_in,
                                      off + d.radius_in);
    };
    const geom::AngleSet valid = band(a_).intersect(band(t_));
    auto eval = [&](double phi, Candidate& c) {
      const Vec2 n = geom::unit(phi);
      return line_clear({n, dot(n, f.c) + off}, c) ? c.gap() : kInf;
    };
    // Spans touching 0 and 2π are one arc of the circle; sample them as such.
    std::vector<std::pair<double, double>> spans = valid.spans();
    if (spans.size() >= 2 && spans.front().first <= 0 && spans.back().second >= kTwoPi) {
      spans.front().first = spans.back().first - kTwoPi;
      spans.pop_back();
    }
    for (const auto& [lo, hi] : spans) {
      const int n = std::clamp(static_cast<int>(std::ceil((hi - lo) / 0.04)), 6, 32);
      std::vector<double> phis(static_cast<std::size_t>(n));
      std::vector<double> vals(static_cast<std::size_t>(n));
      for (int k = 0; k < n; ++k) {
        const auto kk = static_cast<std::size_t>(k);
        phis[kk] = lo + (hi - lo) * (k + 0.5) / n;
        Candidate c;
        vals[kk] = eval(phis[kk], c);
        if (vals[kk] < kInf) found.push_back(c);
      }
      for (int k = 0; k < n; ++k) {
        const auto kk = static_cast<std::size_t>(k);
        if (!(vals[kk] < kInf)) continue;
        const bool left_ok = k == 0 || vals[kk - 1] >= vals[kk];
        const bool right_ok = k == n - 1 || vals[kk + 1] >= vals[kk];
        if (!left_ok || !right_ok) continue;
        const double a = k == 0 ? lo : phis[kk - 1];
        const double b = k == n - 1 ? hi : phis[kk + 1];
        golden(a, b, phis[kk], vals[kk], eval, found);
      }
    }
  }

  template <class Eval>
  static void golden(double a, double b, double best_x, double best_v, Eval& eval,
                     std::vector<Candidate>& found) {
    constexpr double kInvPhi = 0.6180339887498949;
    Candidate best_c;
    eval(best_x, best_c);
    double x1 = b - kInvPhi * (b - a);
    double x2 = a + kInvPhi * (b - a);
    Candidate c1;
    Candidate c2;
    double f1 = eval(x1, c1);
    double f2 = eval(x2, c2);
    for (int it = 0; it < 48 && b - a > 1e-11; ++it) {
      bool keep_left = f1 < f2 || (f1 == f2 && std::abs(x1 - best_x) <= std::abs(x2 - best_x));
      if (keep_left) {
        b = x2;
        x2 = x1;
        f2 = f1;
        c2 = c1;
        x1 = b - kInvPhi * (b - a);
        f1 = eval(x1, c1);
        if (f1 < best_v) {
          best_v = f1;
          best_x = x1;
          best_c = c1;
        }
      } else {
        a = x1;
        x1 = x2;
        f1 = f2;
        c1 = c2;
        x2 = a + kInvPhi * (b - a);
        f2 = eval(x2, c2);
        if (f2 < best_v) {
          best_v = f2;
          best_x = x2;
          best_c = c2;
        }
      }
    }
    if (best_v < kInf) found.push_back(best_c);
  }

  Disc a_;
  Disc t_;
  std::vector<Relevant> relevant_;
  std::vector<std::size_t> active_;
  // Scratch space reused by every candidate line (the solver lives for one call).
  mutable std::vector<Contact> scratch_contacts_;
  mutable std::vector<double> scratch_normals_;
  mutable std::vector<double> scratch_bounds_;
  mutable std::vector<std::pair<double, double>> scratch_dirs_;
};

}  // namespace

LineOfFireResult line_of_fire(const Disc& attacker, const Disc& target, const Obstacles& others) {
  LineOfFireResult out;
  const Vec2 d = target.centre - attacker.centre;
  const double dist = norm(d);
  if (dist - attacker.radius_in - target.radius_in <= 0 || dist == 0) {
    // Touching (or overlapping) bases: the contact point is a zero-length line of fire.
    const Vec2 u = dist > 0 ? d / dist : Vec2{1, 0};
    const double along =
        dist > 0 ? std::clamp(attacker.radius_in, dist - target.radius_in, dist) : 0.0;
    const Vec2 p = attacker.centre + u * along;
    out.clear = true;
    out.witness = {p, p};
    out.gap_in = 0;
    out.chord_in = 2 * attacker.radius_in;
    return out;
  }
  LofSolver solver(attacker, target, others);
  Candidate best;
  if (solver.centre(best)) {
    out.clear = true;
  } else {
    std::vector<Candidate> found;
    if (solver.enumerate(&found, false)) {
      solver.refine(found);
      out.clear = true;
      best = found.front();
      for (const Candidate& c : found) {
        const double g = c.gap();
        if (g < best.gap() - 1e-12 || (g <= best.gap() + 1e-12 && c.chord > best.chord)) best = c;
      }
    }
  }
  if (out.clear) {
    out.witness = best.seg;
    out.gap_in = best.gap();
    out.chord_in = best.chord;
    return out;
  }

  // Blocked: find a set of pieces that alone block, none of which can be dropped. Try the
  // pieces nearest the centre line alone first (the usual single wall or base), then drop the
  // farthest pieces one at a time while the rest still block.
  const auto& rel = solver.relevant();
  std::vector<std::size_t> order(rel.size());
  for (std::size_t i = 0; i < order.size(); ++i)
    order[i] = i;
  std::sort(order.begin(), order.end(), [&](std::size_t x, std::size_t y) {
    return rel[x].centre_distance < rel[y].centre_distance;
  });
  auto blocked_by = [&](std::vector<std::size_t> subset) {
    solver.set_active(std::move(subset));
    Candidate c;
    return !solver.centre(c) && !solver.enumerate(nullptr, true);
  };
  for (std::size_t k : order) {
    if (blocked_by({k})) {
      out.blockers = {rel[k].index};
      return out;
    }
  }
  std::vector<std::size_t> keep = order;
  for (auto it = order.rbegin(); it != order.rend(); ++it) {
    std::vector<std::size_t> without;
    for (std::size_t k : keep) {
      if (k != *it) without.push_back(k);
    }
    if (blocked_by(without)) keep = std::move(without);
  }
  for (std::size_t k : keep)
    out.blockers.push_back(rel[k].index);
  std::sort(out.blockers.begin(), out.blockers.end());
  return out;
}

}  // namespace duels
