#pragma once
// Seeded random table scenes and small helpers for the geometry tests.

#include <algorithm>
#include <cmath>
#include <numbers>
#include <random>
#include <string>
#include <vector>

#include "duels/geometry.hpp"

namespace duels::testing {

/// A deterministic random source for one property-test case.
class Rand {
 public:
  explicit Rand(std::uint64_t seed) : gen_(seed) {}
  double uniform(double lo, double hi) {
    return std::uniform_real_distribution<double>(lo, hi)(gen_);
  }
  int below(int n) { return std::uniform_int_distribution<int>(0, n - 1)(gen_); }
  bool chance(double p) { return uniform(0, 1) < p; }

 private:
  std::mt19937_64 gen_;
};

inline Vec2 rotate(Vec2 p, double a) {
  return {p.x * std::cos(a) - p.y * std::sin(a), p.x * std::sin(a) + p.y * std::cos(a)};
}

/// Convex hull of points, counter-clockwise.
inline std::vector<Vec2> hull(std::vector<Vec2> pts) {
  std::sort(pts.begin(), pts.end(),
            [](Vec2 a, Vec2 b) { return a.x < b.x || (a.x == b.x && a.y < b.y); });
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
  return h;
}

/// A random obstacle centred near `at`: a circle, a turned rectangle or a convex polygon.
inline Shape random_shape(Rand& rng, Vec2 at, double size) {
  const int kind = rng.below(3);
  if (kind == 0) return Shape::make_circle(at, rng.uniform(0.2, 1.0) * size);
  if (kind == 1) {
    return Shape::make_rect(at, rng.uniform(0.2, 2.0) * size, rng.uniform(0.2, 2.0) * size,
                            rng.uniform(0, 180));
  }
  std::vector<Vec2> pts;
  for (int i = 0; i < 6; ++i) {
    pts.push_back(at + Vec2{rng.uniform(-1, 1), rng.uniform(-1, 1)} * size);
  }
  auto h = hull(pts);
  if (h.size() < 3) return Shape::make_circle(at, 0.5 * size);
  return Shape::make_polygon(h);
}

/// Moves and turns a shape (rigid motion: turn by `a` about the origin, then shift).
inline Shape transform(const Shape& s, double a, Vec2 shift) {
  if (s.kind == Shape::Kind::Circle) {
    return Shape::make_circle(rotate(s.circle.centre, a) + shift, s.circle.radius_in);
  }
  std::vector<Vec2> pts;
  for (const Vec2& p : s.polygon)
    pts.push_back(rotate(p, a) + shift);
  return Shape::make_polygon(pts);
}

/// The shape grown (eps > 0) or shrunk (eps < 0) by about |eps|: circles exactly, convex
/// polygons by moving every edge (the grown polygon contains every point within eps).
inline Shape offset(const Shape& s, double eps) {
  if (s.kind == Shape::Kind::Circle) {
    return Shape::make_circle(s.circle.centre, std::max(1e-6, s.circle.radius_in + eps));
  }
  const auto& p = s.polygon;
  const std::size_t n = p.size();
  std::vector<Vec2> out;
  for (std::size_t i = 0; i < n; ++i) {
    const Vec2 a = p[(i + n - 1) % n];
    const Vec2 b = p[i];
    const Vec2 c = p[(i + 1) % n];
    const Vec2 e1 = (b - a) / norm(b - a);
    const Vec2 e2 = (c - b) / norm(c - b);
    const Vec2 n1{e1.y, -e1.x};  // outward for counter-clockwise
    const Vec2 n2{e2.y, -e2.x};
    const Vec2 bis = n1 + n2;
    const double k = eps / std::max(1e-9, dot(bis / norm(bis), n1));
    out.push_back(b + bis / norm(bis) * k);
  }
  return Shape::make_polygon(out);
}

inline bool overlaps(const Shape& s, const Disc& d, double margin) {
  return distance_in(d.centre, s) < d.radius_in + margin;
}

}  // namespace duels::testing
