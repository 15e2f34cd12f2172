// Drawing the table into an RGB buffer, pixel by pixel (a table is at most a few hundred
// thousand pixels; every pixel asks which shapes cover its centre).
#include "duels/geometry_raster.hpp"

#include <algorithm>
#include <cmath>

#include "duels/geometry_internal.hpp"

namespace duels {

namespace {

constexpr Rgb kTable{236, 233, 220};
constexpr Rgb kEdge{120, 110, 90};
constexpr Rgb kTerrain{96, 96, 104};
constexpr Rgb kTerrainEdge{40, 40, 48};
constexpr Rgb kReach{110, 180, 250};
constexpr Rgb kPath{200, 40, 160};

Rgb blend(Rgb a, Rgb b, double t) {
  auto mix = [t](std::uint8_t x, std::uint8_t y) {
    return static_cast<std::uint8_t>(std::lround(x + (y - x) * t));
  };
  return {mix(a.r, b.r), mix(a.g, b.g), mix(a.b, b.b)};
}

constexpr Rgb kTeams[] = {{200, 60, 50},  {50, 90, 200},  {40, 150, 70},
                          {220, 150, 30}, {140, 60, 170}, {30, 150, 160}};

Rgb team_colour(int team) {
  const int n = static_cast<int>(std::size(kTeams));
  return kTeams[((team - 1) % n + n) % n];
}

}  // namespace

Rgb RgbImage::at(int x, int y) const {
  const std::size_t k = (static_cast<std::size_t>(y) * static_cast<std::size_t>(width) +
                         static_cast<std::size_t>(x)) *
                        3;
  return {rgb[k], rgb[k + 1], rgb[k + 2]};
}

void RgbImage::set(int x, int y, Rgb c) {
  if (x < 0 || y < 0 || x >= width || y >= height) return;
  const std::size_t k = (static_cast<std::size_t>(y) * static_cast<std::size_t>(width) +
                         static_cast<std::size_t>(x)) *
                        3;
  rgb[k] = c.r;
  rgb[k + 1] = c.g;
  rgb[k + 2] = c.b;
}

Rgb die_colour_rgb(dice::Colour c) {
  switch (c) {
    case dice::Colour::White:
      return {250, 250, 250};
    case dice::Colour::Yellow:
      return {225, 190, 0};
    case dice::Colour::Blue:
      return {30, 90, 220};
    case dice::Colour::Green:
      return {30, 150, 60};
    case dice::Colour::Black:
      return {15, 15, 15};
    case dice::Colour::Red:
      return {215, 30, 30};
  }
  return {0, 0, 0};
}

std::vector<TableDrawing::Ring> tape_range_rings(const Disc& base,
                                                 const std::vector<Track>& tracks) {
  std::vector<TableDrawing::Ring> out;
  for (const Track& t : tracks) {
    const auto range = usable_gap_range(t, 2 * base.radius_in);
    if (!range) continue;
    out.push_back({base.centre, base.radius_in + range->max_in, t.colour});
  }
  return out;
}

RgbImage draw_table(const TableDrawing& d, double px_per_in) {
  RgbImage img;
  const double s = px_per_in > 0 ? px_per_in : 10;
  img.width = std::max(1, static_cast<int>(std::ceil(d.table.width_in * s)));
  img.height = std::max(1, static_cast<int>(std::ceil(d.table.depth_in * s)));
  img.rgb.assign(static_cast<std::size_t>(img.width) * static_cast<std::size_t>(img.height) * 3, 0);
  const double px = 1.0 / s;  // one pixel in inches
  for (int y = 0; y < img.height; ++y) {
    for (int x = 0; x < img.width; ++x) {
      const Vec2 p{(x + 0.5) * px, d.table.depth_in - (y + 0.5) * px};
      Rgb c = kTable;
      if (d.reach != nullptr && d.reach->contains(p)) c = blend(c, kReach, 0.65);
      for (const Obstacle& o : d.terrain) {
        const Shape& sh = o.shape;
        double edge = 0;  // distance to the outline (inside only)
        bool inside = false;
        if (sh.kind == Shape::Kind::Circle) {
          const double dc = norm(p - sh.circle.centre);
          inside = dc <= sh.circle.radius_in;
          edge = sh.circle.radius_in - dc;
        } else {
          inside = geom::point_in_polygon(p, sh.polygon);
          if (inside) edge = geom::polygon_boundary_distance(p, sh.polygon);
        }
        if (inside) c = edge < 1.5 * px ? kTerrainEdge : kTerrain;
      }
      for (const TableDrawing::Base& b : d.bases) {
        const double dc = norm(p - b.disc.centre);
        if (dc > b.disc.radius_in) continue;
        const double rim = (b.highlight ? 3.0 : 1.5) * px;
        const Rgb tc = team_colour(b.team);
        c = b.disc.radius_in - dc < rim ? blend(tc, Rgb{0, 0, 0}, 0.45) : blend(tc, kTable, 0.25);
      }
      for (const TableDrawing::Ring& r : d.rings) {
        if (std::abs(norm(p - r.centre) - r.radius_in) <= px) {
          c = die_colour_rgb(r.colour);
          if (r.colour == dice::Colour::White) c = blend(c, Rgb{0, 0, 0}, 0.3);
        }
      }
      if (x == 0 || y == 0 || x == img.width - 1 || y == img.height - 1) c = kEdge;
      img.set(x, y, c);
    }
  }
  // The path on top, as a 2-pixel line.
  for (std::size_t i = 1; i < d.path.size(); ++i) {
    const Vec2 a = d.path[i - 1];
    const Vec2 b = d.path[i];
    const int steps = std::max(1, static_cast<int>(std::ceil(norm(b - a) * s * 2)));
    for (int k = 0; k <= steps; ++k) {
      const Vec2 q = a + (b - a) * (static_cast<double>(k) / steps);
      const int x = static_cast<int>(std::floor(q.x * s));
      const int y = static_cast<int>(std::floor((d.table.depth_in - q.y) * s));
      for (int dy = 0; dy < 2; ++dy) {
        for (int dx = 0; dx < 2; ++dx)
          img.set(x + dx, y + dy, kPath);
      }
    }
  }
  return img;
}

}  // namespace duels
