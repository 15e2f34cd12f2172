// Brute-force references for the geometry tests and benchmark.
#include "duels/geometry_oracle.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>
#include <queue>

#include "duels/geometry_internal.hpp"

namespace duels::oracle {

namespace {
constexpr double kInf = std::numeric_limits<double>::infinity();
}  // namespace

LineOfFireSample sample_line_of_fire(const Disc& attacker, const Disc& target,
                                     const Obstacles& others, int samples, bool stop_at_first) {
  LineOfFireSample out;
  out.min_gap_in = kInf;
  std::vector<Vec2> pa;
  std::vector<Vec2> pt;
  for (int k = 0; k < samples; ++k) {
    const double a = geom::kTwoPi * k / samples;
    pa.push_back(attacker.centre + geom::unit(a) * attacker.radius_in);
    pt.push_back(target.centre + geom::unit(a) * target.radius_in);
  }
  for (const Vec2& p : pa) {
    for (const Vec2& q : pt) {
      const Segment s{p, q};
      bool clear = true;
      double clearance = kInf;
      for (const Obstacle& o : others) {
        if (touches(s, o.shape)) {
          clear = false;
          break;
        }
        clearance = std::min(clearance, distance_in(s, o.shape));
      }
      if (!clear) continue;
      out.clear = true;
      out.min_gap_in = std::min(out.min_gap_in, s.length_in());
      out.best_clearance_in = std::max(out.best_clearance_in, clearance);
      if (stop_at_first) return out;
    }
  }
  return out;
}

// ---------------------------------------------------------------------------------------------

namespace {

std::vector<Vec2> convex_hull(std::vector<Vec2> pts) {
  std::sort(pts.begin(), pts.end(),
            [](Vec2 a, Vec2 b) { return a.x < b.x || (a.x == b.x && a.y < b.y); });
  if (pts.size() < 3) return pts;
  std::vector<Vec2> h(2 * pts.size());
  std::size_t k = 0;
  for (const Vec2& p : pts) {
    while (k >= 2 && cross(h[k - 1] - h[k - 2], p - h[k - 2]) <= 0)
      --k;
    h[k++] = p;
  }
  for (std::size_t i = pts.size() - 1, t = k + 1; i-- > 0;) {
    while (k >= t && cross(h[k - 1] - h[k - 2], pts[i] - h[k - 2]) <= 0)
      --k;
    h[k++] = pts[i];
  }
  h.resize(k - 1);
  return h;  // counter-clockwise
}

std::vector<Vec2> ngon(Vec2 c, double radius, int sides) {
  std::vector<Vec2> out;
  for (int k = 0; k < sides; ++k)
    out.push_back(c + geom::unit(geom::kTwoPi * k / sides) * radius);
  return out;
}

}  // namespace

struct PolygonPaths::Impl {
  Vec2 start;
  Vec2 lo;
  Vec2 hi;
  std::vector<std::vector<Vec2>> polys;  // convex, counter-clockwise
  std::vector<Vec2> nodes;               // node 0 = start
  std::vector<int> owner;                // polygon of each node (-1 for the start)
  std::vector<int> corner;               // index in its polygon
  std::vector<double> dist;

  [[nodiscard]] bool in_rect(Vec2 p) const {
    constexpr double tol = 1e-9;
    return p.x >= lo.x - tol && p.x <= hi.x + tol && p.y >= lo.y - tol && p.y <= hi.y + tol;
  }

  // Whether the segment runs through the interior of a convex polygon (Cyrus–Beck clipping).
  static bool crosses_interior(Vec2 a, Vec2 b, const std::vector<Vec2>& poly) {
    double t0 = 0;
    double t1 = 1;
    const Vec2 d = b - a;
    const std::size_t n = poly.size();
    for (std::size_t i = 0, j = n - 1; i < n; j = i++) {
      const Vec2 e = poly[i] - poly[j];
      const Vec2 out_n{e.y, -e.x};  // outward for counter-clockwise polygons
      const double num = dot(out_n, a - poly[j]);
      const double den = dot(out_n, d);
      if (den == 0) {
        if (num > 0) return false;
        continue;
      }
      const double t = -num / den;
      if (den < 0) {
        t0 = std::max(t0, t);
      } else {
        t1 = std::min(t1, t);
      }
      if (t0 >= t1) return false;
    }
    const Vec2 m = a + d * ((t0 + t1) / 2);
    for (std::size_t i = 0, j = n - 1; i < n; j = i++) {
      const Vec2 e = poly[i] - poly[j];
      if (cross(e, m - poly[j]) / norm(e) <= 1e-9) return false;  // on the boundary
    }
    return true;
  }

  [[nodiscard]] bool strictly_inside(Vec2 p, int skip) const {
    for (std::size_t k = 0; k < polys.size(); ++k) {
      if (static_cast<int>(k) == skip) continue;
      const auto& poly = polys[k];
      bool inside = true;
      for (std::size_t i = 0, j = poly.size() - 1; i < poly.size() && inside; j = i++) {
        const Vec2 e = poly[i] - poly[j];
        if (cross(e, p - poly[j]) / norm(e) <= 1e-9) inside = false;
      }
      if (inside) return true;
    }
    return false;
  }

  // A path bends only around a corner it passes on the outside: both neighbours of the corner
  // lie on one side of the run.
  [[nodiscard]] bool tangent_at(int node, Vec2 other) const {
    const int o = owner[static_cast<std::size_t>(node)];
    if (o < 0) return true;
    const auto& poly = polys[static_cast<std::size_t>(o)];
    const std::size_t n = poly.size();
    const auto c = static_cast<std::size_t>(corner[static_cast<std::size_t>(node)]);
    const Vec2 v = poly[c];
    const Vec2 d = other - v;
    const double s1 = cross(d, poly[(c + n - 1) % n] - v);
    const double s2 = cross(d, poly[(c + 1) % n] - v);
    return !(s1 > 1e-12 && s2 < -1e-12) && !(s1 < -1e-12 && s2 > 1e-12);
  }

  [[nodiscard]] bool visible(Vec2 a, Vec2 b) const {
    if (!in_rect(a) || !in_rect(b)) return false;
    const Vec2 blo{std::min(a.x, b.x), std::min(a.y, b.y)};
    const Vec2 bhi{std::max(a.x, b.x), std::max(a.y, b.y)};
    for (const auto& poly : polys) {
      Vec2 plo = poly.front();
      Vec2 phi = poly.front();
      for (const Vec2& p : poly) {
        plo = {std::min(plo.x, p.x), std::min(plo.y, p.y)};
        phi = {std::max(phi.x, p.x), std::max(phi.y, p.y)};
      }
      if (plo.x > bhi.x || phi.x < blo.x || plo.y > bhi.y || phi.y < blo.y) continue;
      if (crosses_interior(a, b, poly)) return false;
    }
    return true;
  }
};

PolygonPaths::PolygonPaths(const Disc& mover, const MoveObstacles& world, int sides, bool outer)
    : impl_(std::make_unique<Impl>()) {
  Impl& m = *impl_;
  const double r = mover.radius_in;
  const double scale = outer ? 1.0 / std::cos(std::numbers::pi / sides) : 1.0;
  m.start = mover.centre;
  m.lo = {r, r};
  m.hi = {world.table.width_in - r, world.table.depth_in - r};
  auto add_circle = [&](Vec2 c, double rho) { m.polys.push_back(ngon(c, rho * scale, sides)); };
  for (const Obstacle& o : world.terrain) {
    if (o.shape.kind == Shape::Kind::Circle) {
      add_circle(o.shape.circle.centre, o.shape.circle.radius_in + r);
      continue;
    }
    const auto& p = o.shape.polygon;
    const std::size_t n = p.size();
    bool convex = true;
    for (std::size_t i = 0; i < n; ++i) {
      if (cross(p[(i + 1) % n] - p[i], p[(i + 2) % n] - p[(i + 1) % n]) < 0) convex = false;
    }
    if (convex) {
      std::vector<Vec2> pts;
      for (const Vec2& v : p) {
        for (const Vec2& q : ngon(v, r * scale, sides))
          pts.push_back(q);
      }
      m.polys.push_back(convex_hull(pts));
    } else {
      for (std::size_t i = 0; i < n; ++i) {
        std::vector<Vec2> pts = ngon(p[i], r * scale, sides);
        for (const Vec2& q : ngon(p[(i + 1) % n], r * scale, sides))
          pts.push_back(q);
        m.polys.push_back(convex_hull(pts));
      }
    }
  }
  for (const Obstacle& o : world.opposing_bases) {
    add_circle(o.shape.circle.centre, o.shape.circle.radius_in + r);
  }
  m.nodes.push_back(m.start);
  m.owner.push_back(-1);
  m.corner.push_back(-1);
  for (std::size_t k = 0; k < m.polys.size(); ++k) {
    for (std::size_t i = 0; i < m.polys[k].size(); ++i) {
      const Vec2 v = m.polys[k][i];
      if (!m.in_rect(v) || m.strictly_inside(v, static_cast<int>(k))) continue;
      m.nodes.push_back(v);
      m.owner.push_back(static_cast<int>(k));
      m.corner.push_back(static_cast<int>(i));
    }
  }
  // Dijkstra with edges found on demand (dense graph).
  const std::size_t n = m.nodes.size();
  m.dist.assign(n, kInf);
  std::vector<bool> done(n, false);
  if (m.strictly_inside(m.start, -1)) return;
  m.dist[0] = 0;
  for (;;) {
    std::size_t u = n;
    for (std::size_t i = 0; i < n; ++i) {
      if (!done[i] && m.dist[i] < kInf && (u == n || m.dist[i] < m.dist[u])) u = i;
    }
    if (u == n) break;
    done[u] = true;
    for (std::size_t v = 0; v < n; ++v) {
      if (done[v]) continue;
      const double nd = m.dist[u] + norm(m.nodes[v] - m.nodes[u]);
      if (nd >= m.dist[v]) continue;
      if (!m.tangent_at(static_cast<int>(u), m.nodes[v]) ||
          !m.tangent_at(static_cast<int>(v), m.nodes[u])) {
        continue;
      }
      if (m.visible(m.nodes[u], m.nodes[v])) m.dist[v] = nd;
    }
  }
}

PolygonPaths::~PolygonPaths() = default;

double PolygonPaths::distance_to(Vec2 goal) const {
  const Impl& m = *impl_;
  if (m.strictly_inside(goal, -1)) return kInf;
  double best = kInf;
  for (std::size_t v = 0; v < m.nodes.size(); ++v) {
    const double d = m.dist[v] + norm(goal - m.nodes[v]);
    if (!(d < best)) continue;
    if (!m.tangent_at(static_cast<int>(v), goal)) continue;
    if (m.visible(m.nodes[v], goal)) best = d;
  }
  return best;
}

// ---------------------------------------------------------------------------------------------

ReachResult grid_reach(const Disc& mover, double move_in, const MoveObstacles& world,
                       double cell_in) {
  ReachResult out;
  out.move_in = move_in;
  out.cell_in = cell_in;
  const double r = mover.radius_in;
  const double h = cell_in;
  const Vec2 s = mover.centre;
  out.first_col = static_cast<int>(std::floor(std::max(r, s.x - move_in) / h));
  out.first_row = static_cast<int>(std::floor(std::max(r, s.y - move_in) / h));
  out.cols = static_cast<int>(std::floor(std::min(world.table.width_in - r, s.x + move_in) / h)) -
             out.first_col + 1;
  out.rows = static_cast<int>(std::floor(std::min(world.table.depth_in - r, s.y + move_in) / h)) -
             out.first_row + 1;
  if (out.cols <= 0 || out.rows <= 0) return out;
  const std::size_t cells = static_cast<std::size_t>(out.cols) * static_cast<std::size_t>(out.rows);
  out.mask.assign(cells, 0);
  auto centre_of = [&](int i, int j) {
    return Vec2{(out.first_col + i + 0.5) * h, (out.first_row + j + 0.5) * h};
  };
  // Grown obstacles the path must avoid.
  Obstacles grown_path;
  Obstacles grown_end;
  for (const Obstacle& o : world.terrain)
    grown_path.push_back(o);
  for (const Obstacle& o : world.opposing_bases)
    grown_path.push_back(o);
  grown_end = grown_path;
  for (const Obstacle& o : world.friendly_bases)
    grown_end.push_back(o);
  auto clear_of = [&](const Segment& seg, const Obstacles& obs) {
    for (const Obstacle& o : obs) {
      if (distance_in(seg, o.shape) < r - 1e-9) return false;
    }
    return true;
  };
  std::vector<double> dist(cells, kInf);
  using Item = std::pair<double, std::size_t>;
  std::priority_queue<Item, std::vector<Item>, std::greater<>> queue;
  // Start: the cell holding the start, reached straight from it.
  const int si = static_cast<int>(std::floor(s.x / h)) - out.first_col;
  const int sj = static_cast<int>(std::floor(s.y / h)) - out.first_row;
  if (si < 0 || sj < 0 || si >= out.cols || sj >= out.rows) return out;
  const std::size_t start = static_cast<std::size_t>(sj) * static_cast<std::size_t>(out.cols) +
                            static_cast<std::size_t>(si);
  if (clear_of({s, centre_of(si, sj)}, grown_path)) {
    dist[start] = norm(centre_of(si, sj) - s);
    queue.emplace(dist[start], start);
  }
  static constexpr int kSteps[16][2] = {{1, 0},  {-1, 0},  {0, 1},  {0, -1}, {1, 1},  {1, -1},
                                        {-1, 1}, {-1, -1}, {2, 1},  {2, -1}, {-2, 1}, {-2, -1},
                                        {1, 2},  {1, -2},  {-1, 2}, {-1, -2}};
  while (!queue.empty()) {
    const auto [d, u] = queue.top();
    queue.pop();
    if (d > dist[u] || d > move_in) continue;
    const int ui = static_cast<int>(u % static_cast<std::size_t>(out.cols));
    const int uj = static_cast<int>(u / static_cast<std::size_t>(out.cols));
    for (const auto& st : kSteps) {
      const int vi = ui + st[0];
      const int vj = uj + st[1];
      if (vi < 0 || vj < 0 || vi >= out.cols || vj >= out.rows) continue;
      const std::size_t v = static_cast<std::size_t>(vj) * static_cast<std::size_t>(out.cols) +
                            static_cast<std::size_t>(vi);
      const double nd = d + h * std::hypot(st[0], st[1]);
      if (nd >= dist[v]) continue;
      if (!clear_of({centre_of(ui, uj), centre_of(vi, vj)}, grown_path)) continue;
      dist[v] = nd;
      queue.emplace(nd, v);
    }
  }
  std::size_t count = 0;
  for (int j = 0; j < out.rows; ++j) {
    for (int i = 0; i < out.cols; ++i) {
      const std::size_t k = static_cast<std::size_t>(j) * static_cast<std::size_t>(out.cols) +
                            static_cast<std::size_t>(i);
      if (dist[k] > move_in) continue;
      const Vec2 c = centre_of(i, j);
      bool legal = true;
      for (const Obstacle& o : grown_end) {
        if (distance_in(c, o.shape) < r - 1e-9) legal = false;
      }
      if (legal) {
        out.mask[k] = 1;
        ++count;
      }
    }
  }
  out.area_in2 = static_cast<double>(count) * h * h;
  return out;
}

}  // namespace duels::oracle
