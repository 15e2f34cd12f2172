#include "vision/render.hpp"

#include <fmt/format.h>

#include <opencv2/aruco.hpp>
#include <opencv2/calib3d.hpp>
#include <opencv2/imgproc.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <limits>
#include <optional>
#include <utility>
#include <vector>

#include "calib/pattern.hpp"
#include "common/error.hpp"
#include "vision/ring.hpp"
#include "vision/rotation.hpp"

namespace duels::vision {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

// A solid the ray caster knows: a vertical cylinder (bases, hats), a capsule (figures, hands) or
// a die (a convex polyhedron).
struct Solid {
  enum class Kind { kCylinder, kCapsule, kDie } kind = Kind::kCapsule;
  cv::Vec3d a;        // cylinder: centre of the bottom; capsule: one end; die: its centre
  cv::Vec3d b;        // cylinder: centre of the top; capsule: other end; die: its centre
  double radius = 1;  // die: its inradius (every face plane this far from the centre)
  cv::Vec3d colour;   // BGR
  int base = -1;      // cylinder of base #base: its top carries the marker
  double angle_rad = 0;
  // A die: its kind (sides), the face on top, its marks' colour and its turn (local → table).
  int sides = 0;
  int top_face = 0;  // index of the face whose normal points up
  int top_value = 1;
  cv::Vec3d marks;
  cv::Matx33d rot = cv::Matx33d::eye();
};

// The faces of the dice, as unit normals of planes at distance 1 from the centre (a die of
// inradius 1); with the factor from inradius to the farthest vertex.
struct DieShape {
  std::vector<cv::Vec3d> normals;
  double circumradius = 1;
};

const DieShape& die_shape(int sides) {
  static const std::array<DieShape, 5> shapes = [] {
    std::array<DieShape, 5> out;
    auto add = [](DieShape& d, cv::Vec3d n) { d.normals.push_back(cv::normalize(n)); };
    // d4: tetrahedron.
    for (const cv::Vec3d& n :
         {cv::Vec3d(1, 1, 1), cv::Vec3d(1, -1, -1), cv::Vec3d(-1, 1, -1), cv::Vec3d(-1, -1, 1)})
      add(out[0], n);
    out[0].circumradius = 3.0;
    // d6: cube.
    for (int axis = 0; axis < 3; ++axis) {
      for (double sgn : {1.0, -1.0}) {
        cv::Vec3d n(0, 0, 0);
        n[axis] = sgn;
        add(out[1], n);
      }
    }
    out[1].circumradius = std::sqrt(3.0);
    // d8: octahedron.
    for (int k = 0; k < 8; ++k)
      add(out[2], cv::Vec3d((k & 1) ? -1 : 1, (k & 2) ? -1 : 1, (k & 4) ? -1 : 1));
    out[2].circumradius = std::sqrt(3.0);
    // d10: pentagonal trapezohedron (kites at alternate heights, 36 degrees apart).
    const double tilt = 40 * CV_PI / 180;
    for (int k = 0; k < 10; ++k) {
      const double az = k * CV_PI / 5;
      const double el = (k % 2 == 0) ? tilt : -tilt;
      add(out[3],
          cv::Vec3d(std::cos(el) * std::cos(az), std::cos(el) * std::sin(az), std::sin(el)));
    }
    out[3].circumradius = 1 / std::sin(tilt) + 0.05;
    // d12: dodecahedron.
    const double phi = (1 + std::sqrt(5.0)) / 2;
    for (double s1 : {1.0, -1.0}) {
      for (double s2 : {1.0, -1.0}) {
        add(out[4], cv::Vec3d(0, s1, s2 * phi));
        add(out[4], cv::Vec3d(s1, s2 * phi, 0));
        add(out[4], cv::Vec3d(s2 * phi, 0, s1));
      }
    }
    out[4].circumradius = 1.26;
    return out;
  }();
  switch (sides) {
    case 4:
      return shapes[0];
    case 8:
      return shapes[2];
    case 10:
      return shapes[3];
    case 12:
      return shapes[4];
    default:
      return shapes[1];
  }
}

struct Hit {
  double t = kInf;
  cv::Vec3d normal;
};

// Ray o + t·d against a vertical cylinder (side and top cap; the bottom sits on the table).
Hit hit_cylinder(const Solid& s, const cv::Vec3d& o, const cv::Vec3d& d) {
  Hit best;
  const double r = s.radius;
  const double ox = o[0] - s.a[0];
  const double oy = o[1] - s.a[1];
  const double qa = d[0] * d[0] + d[1] * d[1];
  if (qa > 1e-18) {
    const double qb = 2 * (ox * d[0] + oy * d[1]);
    const double qc = ox * ox + oy * oy - r * r;
    const double disc = qb * qb - 4 * qa * qc;
    if (disc >= 0) {
      const double t = (-qb - std::sqrt(disc)) / (2 * qa);
      const double z = o[2] + t * d[2];
      if (t > 0 && z >= s.a[2] && z <= s.b[2]) {
        best.t = t;
        best.normal = cv::Vec3d(ox + t * d[0], oy + t * d[1], 0) / r;
      }
    }
  }
  if (std::abs(d[2]) > 1e-18) {
    const double t = (s.b[2] - o[2]) / d[2];
    const double x = ox + t * d[0];
    const double y = oy + t * d[1];
    if (t > 0 && t < best.t && x * x + y * y <= r * r) {
      best.t = t;
      best.normal = cv::Vec3d(0, 0, 1);
    }
  }
  return best;
}

// Ray against a capsule (segment a–b swept by a sphere).
Hit hit_capsule(const Solid& s, const cv::Vec3d& o, const cv::Vec3d& d) {
  Hit best;
  const cv::Vec3d ba = s.b - s.a;
  const cv::Vec3d oa = o - s.a;
  const double baba = ba.dot(ba);
  const double bard = ba.dot(d);
  const double baoa = ba.dot(oa);
  const double rdoa = d.dot(oa);
  const double oaoa = oa.dot(oa);
  const double dd = d.dot(d);
  const double r2 = s.radius * s.radius;
  if (baba > 1e-12) {
    const double a = baba * dd - bard * bard;
    const double b = baba * rdoa - baoa * bard;
    const double c = baba * oaoa - baoa * baoa - r2 * baba;
    const double h = b * b - a * c;
    if (a > 1e-18 && h >= 0) {
      const double t = (-b - std::sqrt(h)) / a;
      const double y = baoa + t * bard;
      if (t > 0 && y > 0 && y < baba) {
        const cv::Vec3d p = o + t * d;
        const cv::Vec3d axis = s.a + ba * (y / baba);
        best.t = t;
        best.normal = cv::normalize(p - axis);
        return best;
      }
    }
  }
  // The end spheres.
  for (const cv::Vec3d& centre : {s.a, s.b}) {
    const cv::Vec3d oc = o - centre;
    const double b = oc.dot(d);
    const double c = oc.dot(oc) - r2;
    const double h = b * b - dd * c;
    if (h < 0) continue;
    const double t = (-b - std::sqrt(h)) / dd;
    if (t > 0 && t < best.t) {
      best.t = t;
      best.normal = cv::normalize(o + t * d - centre);
    }
  }
  return best;
}

// Ray against a die: the interval where the ray is inside every face's half-space.
// `face`, when given, gets the index of the face it enters through.
Hit hit_die(const Solid& s, const cv::Vec3d& o, const cv::Vec3d& d, int* face = nullptr) {
  const DieShape& shape = die_shape(s.sides);
  const cv::Vec3d ol = s.rot.t() * (o - s.a) * (1 / s.radius);
  const cv::Vec3d dl = s.rot.t() * d * (1 / s.radius);
  double t_in = -kInf;
  double t_out = kInf;
  int enter = -1;
  for (std::size_t i = 0; i < shape.normals.size(); ++i) {
    const cv::Vec3d& n = shape.normals[i];
    const double den = n.dot(dl);
    const double num = 1 - n.dot(ol);
    if (std::abs(den) < 1e-15) {
      if (num < 0) return {};
      continue;
    }
    const double t = num / den;
    if (den < 0) {
      if (t > t_in) {
        t_in = t;
        enter = static_cast<int>(i);
      }
    } else {
      t_out = std::min(t_out, t);
    }
    if (t_in > t_out) return {};
  }
  if (enter < 0 || t_in <= 0) return {};
  Hit h;
  h.t = t_in;
  h.normal = s.rot * shape.normals[static_cast<std::size_t>(enter)];
  if (face) *face = enter;
  return h;
}

Hit hit(const Solid& s, const cv::Vec3d& o, const cv::Vec3d& d) {
  switch (s.kind) {
    case Solid::Kind::kCylinder:
      return hit_cylinder(s, o, d);
    case Solid::Kind::kDie:
      return hit_die(s, o, d);
    default:
      return hit_capsule(s, o, d);
  }
}

// The radius of a ball round `s.a`–`s.b` that holds the solid.
double bounding_radius(const Solid& s) {
  return s.kind == Solid::Kind::kDie ? s.radius * die_shape(s.sides).circumradius : s.radius;
}

// A die's body, marks and colours, resting on a face on a top at `top_z`, its centre at `at`.
Solid die_solid(const DieSpec& die, cv::Point2d at, double top_z, double base_angle_rad) {
  Solid s;
  s.kind = Solid::Kind::kDie;
  s.sides = die.sides;
  const DieShape& shape = die_shape(die.sides);
  // Inradius from the size across: a cube's half edge; the others about as wide.
  const double k = die.sides == 6 ? 0.5 : die.sides == 4 ? 0.22 : 0.45;
  s.radius = k * die.size_in;
  // The cube rests on face 1 (−x), so face 0 is the one above; the others rest on face 0. The
  // face nearest up shows `face` (top_face, below).
  const std::size_t bottom = die.sides == 6 ? 1 : 0;
  const cv::Matx33d rest = rotation_between(shape.normals[bottom], cv::Vec3d(0, 0, -1));
  const double yaw = die.yaw_deg * CV_PI / 180 + base_angle_rad;
  const cv::Matx33d turn(std::cos(yaw), -std::sin(yaw), 0, std::sin(yaw), std::cos(yaw), 0, 0, 0,
                         1);
  s.rot = turn * rest;
  s.a = s.b = cv::Vec3d(at.x, at.y, top_z + s.radius);
  double best = -2;
  for (std::size_t i = 0; i < shape.normals.size(); ++i) {
    const double up = (s.rot * shape.normals[i])[2];
    if (up > best) {
      best = up;
      s.top_face = static_cast<int>(i);
    }
  }
  s.top_value = die.face;
  switch (die.colour) {
    case DieColour::kWhite:
      s.colour = {228, 230, 232}, s.marks = {30, 30, 30};
      break;
    case DieColour::kYellow:
      s.colour = {40, 200, 225}, s.marks = {25, 25, 25};
      break;
    case DieColour::kBlue:
      s.colour = {170, 80, 30}, s.marks = {230, 230, 230};
      break;
    case DieColour::kGreen:
      s.colour = {60, 150, 40}, s.marks = {230, 230, 230};
      break;
    case DieColour::kBlack:
      s.colour = {28, 28, 30}, s.marks = {230, 230, 230};
      break;
    case DieColour::kRed:
      s.colour = {40, 40, 190}, s.marks = {230, 230, 230};
      break;
  }
  return s;
}

// The colour of a die where a ray met it: its body, or a mark (pips, or a number's strokes drawn
// as pips) near the middle of the face.
cv::Vec3d die_colour_at(const Solid& s, const cv::Vec3d& p, int face) {
  const DieShape& shape = die_shape(s.sides);
  const cv::Vec3d n = shape.normals[static_cast<std::size_t>(face)];
  const cv::Vec3d local = s.rot.t() * (p - s.a) * (1 / s.radius);
  const cv::Vec3d helper = std::abs(n[2]) < 0.9 ? cv::Vec3d(0, 0, 1) : cv::Vec3d(1, 0, 0);
  const cv::Vec3d u = cv::normalize(helper.cross(n));
  const cv::Vec3d v = n.cross(u);
  const cv::Vec3d q = local - n;
  const double x = q.dot(u);
  const double y = q.dot(v);
  const int value = face == s.top_face ? s.top_value : face % 6 + 1;
  // Pip places of a d6 face (of half-width 1); smaller on the other dice's smaller faces.
  const double scale = s.sides == 6 ? 1.0 : 0.45;
  static const std::array<std::vector<cv::Point2d>, 7> pips = {{
      {},
      {{0, 0}},
      {{-0.5, -0.5}, {0.5, 0.5}},
      {{-0.5, -0.5}, {0, 0}, {0.5, 0.5}},
      {{-0.5, -0.5}, {0.5, 0.5}, {-0.5, 0.5}, {0.5, -0.5}},
      {{-0.5, -0.5}, {0.5, 0.5}, {-0.5, 0.5}, {0.5, -0.5}, {0, 0}},
      {{-0.5, -0.5}, {0.5, 0.5}, {-0.5, 0.5}, {0.5, -0.5}, {-0.5, 0}, {0.5, 0}},
  }};
  const double pip_r = 0.17 * scale;
  for (const auto& c : pips[static_cast<std::size_t>((value - 1) % 6 + 1)]) {
    if (std::hypot(x - scale * c.x, y - scale * c.y) < pip_r) return s.marks;
  }
  return s.colour;
}

cv::Point2d rotate(cv::Point2d p, double a) {
  return {p.x * std::cos(a) - p.y * std::sin(a), p.x * std::sin(a) + p.y * std::cos(a)};
}

}  // namespace

struct SceneRenderer::Impl {
  calib::SyntheticCamera camera;
  cv::Mat table_canvas;          // the empty table, supersampled, BGR
  cv::Mat gain;                  // uneven lighting, output size, CV_32FC3
  std::vector<cv::Mat> markers;  // one cell per pixel, 0 / 255, per base
  cv::Vec3d eye;                 // camera centre, table frame
  cv::Matx33d cam_to_table;      // rotation camera → table
  cv::Rect2d view;               // what the canvas sees, normalized (ideal) coordinates
  // The canvas in tiles of kTile² pixels: each tile's middle ray (unit, table frame) and the
  // widest angle between it and any ray of the tile (infinite where the lens has no ray).
  static constexpr int kTile = 16;
  cv::Mat tile_ray;    // CV_64FC3
  cv::Mat tile_angle;  // CV_64F

  Impl(const SceneSpec& spec, const calib::TablePlane& plane)
      : camera(spec.camera, spec.look.supersample) {
    const calib::MarkerLayout layout = scene_corner_markers(spec);
    calib::TableLook look;
    look.felt_grey = spec.look.felt_grey;
    look.px_per_in = 24;
    calib::PlanarTexture tex = calib::table_texture(spec.table, layout, look);
    {
      // Felt texture: seeded low-contrast blotches on the playing surface only.
      cv::Mat noise(tex.image.size(), CV_32F);
      cv::RNG rng(spec.seed * 7919 + 17);
      rng.fill(noise, cv::RNG::NORMAL, 0.0, 14.0);
      cv::GaussianBlur(noise, noise, cv::Size(0, 0), 2.0);
      cv::Mat felt = tex.image == spec.look.felt_grey;
      cv::Mat img;
      tex.image.convertTo(img, CV_32F);
      cv::Mat textured = img + noise;
      textured.copyTo(img, felt);
      img.convertTo(tex.image, CV_8U);
      tex = calib::make_texture(tex.image, tex.plane_to_px);
    }
    table_canvas = camera.canvas(cv::Scalar(70, 80, 90), CV_8UC3);
    camera.draw_plane(table_canvas, tex, plane.pose());
    const auto dict = calib::dictionary_by_name(spec.dictionary);
    for (const auto& b : spec.bases) {
      cv::Mat m;
      if (dict) cv::aruco::drawMarker(dict, b.marker_id, dict->markerSize + 2, m, 1);
      markers.push_back(m);
    }
    const cv::Size size = spec.camera.image_size;
    gain.create(size, CV_32FC3);
    for (int v = 0; v < size.height; ++v) {
      for (int u = 0; u < size.width; ++u) {
        const double x = (u + 0.5) / size.width - 0.5;
        const double y = (v + 0.5) / size.height - 0.5;
        const double g =
            1.0 + spec.look.lighting * (0.8 * x - 0.5 * y - 1.2 * (x * x + y * y) + 0.2);
        gain.at<cv::Vec3f>(v, u) = cv::Vec3f::all(static_cast<float>(g));
      }
    }
    eye = calib::camera_centre_in_object(plane.pose());
    cam_to_table = calib::rotation_of(plane.pose()).t();
    view = camera.ray_bounds();
    const cv::Mat& rays = camera.rays();
    const int tiles_x = (rays.cols + kTile - 1) / kTile;
    const int tiles_y = (rays.rows + kTile - 1) / kTile;
    tile_ray.create(tiles_y, tiles_x, CV_64FC3);
    tile_angle.create(tiles_y, tiles_x, CV_64F);
    auto unit_ray = [&](int u, int v) -> std::optional<cv::Vec3d> {
      const cv::Vec2f r = rays.at<cv::Vec2f>(v, u);
      if (!std::isfinite(r[0])) return std::nullopt;
      return cv::normalize(cam_to_table * cv::Vec3d(r[0], r[1], 1.0));
    };
    for (int ty = 0; ty < tiles_y; ++ty) {
      for (int tx = 0; tx < tiles_x; ++tx) {
        const int u0 = tx * kTile;
        const int v0 = ty * kTile;
        const int u1 = std::min(rays.cols, u0 + kTile) - 1;
        const int v1 = std::min(rays.rows, v0 + kTile) - 1;
        const auto mid = unit_ray((u0 + u1) / 2, (v0 + v1) / 2);
        double widest = mid ? 0.0 : kInf;
        for (int v : {v0, v1}) {
          for (int u : {u0, u1}) {
            const auto corner = unit_ray(u, v);
            if (!mid || !corner) {
              widest = kInf;
              continue;
            }
            widest = std::max(widest, std::acos(std::clamp(mid->dot(*corner), -1.0, 1.0)));
          }
        }
        tile_ray.at<cv::Vec3d>(ty, tx) = mid ? *mid : cv::Vec3d();
        // Lens rays bend smoothly: twice the corners' angle bounds every ray inside the tile.
        tile_angle.at<double>(ty, tx) = 2 * widest;
      }
    }
  }
};

namespace {

// Scenes built in code skip the parser's checks: the same placement rule, as an exception.
SceneSpec checked(SceneSpec spec) {
  for (std::size_t i = 0; i < spec.bases.size(); ++i) {
    if (auto problem = marker_placement_problem(spec.bases[i])) {
      throw DataException({spec.name.empty() ? "<scene>" : spec.name, 0,
                           fmt::format("bases[{}].{}", i, problem->field), problem->expected});
    }
  }
  return spec;
}

}  // namespace

SceneRenderer::SceneRenderer(SceneSpec spec)
    : spec_(checked(std::move(spec))),
      plane_(spec_.camera, spec_.table_to_camera, spec_.table),
      impl_(std::make_unique<Impl>(spec_, plane_)) {}

SceneRenderer::~SceneRenderer() = default;

namespace {

// A number from 0 to 1 for a figure's variant and a part of its pose (splitmix64).
double variant_share(std::uint32_t variant, int part) {
  std::uint64_t z = variant * 0x9E3779B97F4A7C15ULL + static_cast<std::uint64_t>(part) * 0xBF58476D;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  z ^= z >> 31;
  return static_cast<double>(z >> 11) / 9007199254740992.0;
}

// A figure of a real one's shape standing at `foot` (table inches) on base `b`, facing `a`
// (radians, table frame): legs apart, a torso, shoulders, arms held out, a weapon reaching over
// the rim in front, a head with (by its variant) a light flat hat or helmet, and perhaps a cape
// or a backpack over the rim behind. Parts and paint vary with the base's figure_variant.
void add_posed_figure(std::vector<Solid>& out, const SceneBaseSpec& b, cv::Point2d foot, double a,
                      double body_r) {
  const std::uint32_t var = b.figure_variant;
  const auto share = [&](int part) { return variant_share(var, part); };
  const double h = b.figure_height_in * (0.85 + 0.3 * share(1));
  const double z0 = b.height_in;
  const cv::Vec3d fwd(std::cos(a), std::sin(a), 0);
  const cv::Vec3d side(-std::sin(a), std::cos(a), 0);
  const cv::Vec3d at(foot.x, foot.y, z0);
  // Paint: cloth, skin, and a light colour for tops (hats, pads, light jackets).
  const cv::Vec3d cloth(40 + 150 * share(2), 40 + 150 * share(3), 40 + 150 * share(4));
  const cv::Vec3d skin(110 + 40 * share(5), 140 + 40 * share(5), 180 + 50 * share(5));
  const cv::Vec3d light(200 + 40 * share(6), 200 + 40 * share(7), 195 + 45 * share(8));
  const auto capsule = [&](cv::Vec3d p, cv::Vec3d q, double r, cv::Vec3d colour) {
    Solid s;
    s.a = p;
    s.b = q;
    s.radius = r;
    s.colour = colour;
    out.push_back(s);
  };
  const double leg_r = 0.45 * body_r;
  const double hip = 0.45 * h;
  const double shoulder = 0.78 * h;
  const double stance = (0.3 + 0.5 * share(9)) * body_r;
  for (double sgn : {-1.0, 1.0}) {
    capsule(at + sgn * stance * side + cv::Vec3d(0, 0, leg_r),
            at + sgn * 0.4 * body_r * side + cv::Vec3d(0, 0, hip), leg_r, cloth * 0.7);
  }
  capsule(at + cv::Vec3d(0, 0, hip), at + cv::Vec3d(0, 0, shoulder - 0.5 * body_r), body_r,
          share(10) < 0.4 ? light : cloth);
  // Shoulders: a bar across, light pads on some.
  const double sw = 1.25 * body_r + 0.1;
  capsule(at - sw * side + cv::Vec3d(0, 0, shoulder), at + sw * side + cv::Vec3d(0, 0, shoulder),
          0.55 * body_r, share(11) < 0.5 ? light : cloth);
  // The weapon arm: held forward, the weapon reaching past the rim in front.
  const double arm_r = 0.32 * body_r;
  const double reach = 0.7 + 0.6 * share(12);
  const double wsgn = share(13) < 0.5 ? -1.0 : 1.0;
  const cv::Vec3d sh = at + wsgn * sw * side + cv::Vec3d(0, 0, shoulder);
  const cv::Vec3d hand =
      at + wsgn * 0.5 * sw * side + reach * fwd + cv::Vec3d(0, 0, (0.55 + 0.15 * share(14)) * h);
  capsule(sh, hand, arm_r, cloth);
  const double gun = 0.9 + 0.9 * share(15);
  capsule(hand, hand + gun * fwd + cv::Vec3d(0, 0, -0.25 * gun * share(16)),
          0.09 + 0.06 * share(17), cv::Vec3d(45, 45, 50));
  // The other arm: out to the side and down, its hand over the rim on some.
  const cv::Vec3d sh2 = at - wsgn * sw * side + cv::Vec3d(0, 0, shoulder);
  const double out_by = 0.6 + 0.8 * share(18);
  const cv::Vec3d hand2 = at - wsgn * (sw + out_by) * side + 0.3 * share(19) * fwd +
                          cv::Vec3d(0, 0, (0.35 + 0.2 * share(20)) * h);
  capsule(sh2, hand2, arm_r, cloth);
  capsule(hand2, hand2, 1.3 * arm_r, skin);
  // Head, and a light flat hat or helmet on most.
  const double head_r = 0.8 * body_r;
  const cv::Vec3d head = at + cv::Vec3d(0, 0, shoulder + 0.4 * body_r + head_r);
  capsule(head, head, head_r, skin);
  if (share(21) < 0.7) {
    Solid hat;
    hat.kind = Solid::Kind::kCylinder;
    const double brim = share(22) < 0.5 ? 1.6 : 1.1;
    hat.a = head + cv::Vec3d(0, 0, 0.3 * head_r);
    hat.b = head + cv::Vec3d(0, 0, (0.3 + 0.5 * share(23)) * head_r + 0.08);
    hat.radius = brim * head_r;
    hat.colour = light;
    out.push_back(hat);
  }
  // Behind: a cape (a broad slab of capsules hanging over the rim) or a backpack.
  if (share(24) < 0.4) {
    for (double f : {-0.6, 0.0, 0.6}) {
      capsule(at + f * sw * side - 0.4 * body_r * fwd + cv::Vec3d(0, 0, shoulder),
              at + 1.4 * f * sw * side - (0.6 + 0.5 * share(25)) * fwd + cv::Vec3d(0, 0, 0.25 * h),
              0.3 * body_r, cloth * 0.6);
    }
  } else if (share(24) < 0.7) {
    capsule(at - 0.9 * body_r * fwd + cv::Vec3d(0, 0, 0.6 * h),
            at - 0.9 * body_r * fwd + cv::Vec3d(0, 0, 0.75 * h), 0.6 * body_r, light * 0.8);
  }
}

// Everything solid at time t.
std::vector<Solid> solids_at(const SceneSpec& spec, double t) {
  std::vector<Solid> out;
  for (std::size_t i = 0; i < spec.bases.size(); ++i) {
    const auto& b = spec.bases[i];
    const BasePose pose = base_pose_at(b, t);
    const double a = pose.angle_deg * CV_PI / 180;
    Solid base;
    base.kind = Solid::Kind::kCylinder;
    base.a = cv::Vec3d(pose.centre_in.x, pose.centre_in.y, 0);
    base.b = cv::Vec3d(pose.centre_in.x, pose.centre_in.y, b.height_in);
    base.radius = b.diameter_in / 2;
    base.colour = cv::Vec3d(b.colour[0], b.colour[1], b.colour[2]);
    base.base = static_cast<int>(i);
    base.angle_rad = a;
    out.push_back(base);
    for (const auto& die : b.dice) {
      if (t < die.t_on_s || t >= die.t_off_s) continue;
      out.push_back(
          die_solid(die, pose.centre_in + rotate(die.at_in, a - CV_PI / 2), b.height_in, a));
    }
    if (b.figure_height_in <= 0) continue;
    const FigureFootprint footprint = *figure_footprint(b);
    const double body_r = footprint.radius_in;
    const cv::Point2d foot = pose.centre_in + rotate(footprint.centre_in, a - CV_PI / 2);
    if (b.figure_style == FigureStyle::kPosed) {
      add_posed_figure(out, b, foot, a, body_r);
      continue;
    }
    // A rough figure behind its marker: legs/torso capsule and a head, leaning nowhere.
    Solid body;
    body.a = cv::Vec3d(foot.x, foot.y, b.height_in + body_r);
    body.b = cv::Vec3d(foot.x, foot.y, b.height_in + 0.75 * b.figure_height_in);
    body.radius = body_r;
    body.colour = base.colour * 0.8 + cv::Vec3d(30, 30, 30);
    out.push_back(body);
    Solid head;
    head.a = head.b = cv::Vec3d(foot.x, foot.y, b.height_in + b.figure_height_in - body_r);
    head.radius = body_r * 0.9;
    head.colour = cv::Vec3d(120, 150, 190);
    out.push_back(head);
  }
  for (const auto& h : spec.hands) {
    if (t < h.t0_s || t > h.t1_s) continue;
    const double f = (t - h.t0_s) / (h.t1_s - h.t0_s);
    const cv::Point2d p = h.from_in + f * (h.to_in - h.from_in);
    cv::Point2d dir = h.to_in - h.from_in;
    const double len = std::hypot(dir.x, dir.y);
    dir = len > 0 ? dir / len : cv::Point2d(1, 0);
    Solid palm;
    palm.a = cv::Vec3d(p.x - 0.6 * dir.x, p.y - 0.6 * dir.y, h.height_in);
    palm.b = cv::Vec3d(p.x + 0.6 * dir.x, p.y + 0.6 * dir.y, h.height_in);
    palm.radius = h.radius_in;
    palm.colour = cv::Vec3d(120, 150, 205);
    out.push_back(palm);
    Solid arm;
    arm.a = palm.a;
    arm.b = cv::Vec3d(p.x, -30, h.height_in + 16);
    arm.radius = 0.8 * h.radius_in;
    arm.colour = cv::Vec3d(90, 110, 150);
    out.push_back(arm);
  }
  return out;
}

bool moved(const SceneBaseSpec& b, double t0, double t1) {
  const BasePose p0 = base_pose_at(b, t0);
  const BasePose p1 = base_pose_at(b, t1);
  return std::hypot(p1.centre_in.x - p0.centre_in.x, p1.centre_in.y - p0.centre_in.y) > 1e-9 ||
         std::abs(p1.angle_deg - p0.angle_deg) > 1e-9;
}

// The marker's corners on the table at the base's top: picture TL, TR, BR, BL.
std::array<cv::Point3d, 4> marker_corners_in(const SceneBaseSpec& b, const BasePose& pose) {
  const double a = pose.angle_deg * CV_PI / 180 - CV_PI / 2;  // base frame +y = facing
  const double h = b.marker_side_in / 2;
  const cv::Point2d local[4] = {{-h, h}, {h, h}, {h, -h}, {-h, -h}};
  std::array<cv::Point3d, 4> out;
  for (int k = 0; k < 4; ++k) {
    const cv::Point2d p = pose.centre_in + rotate(b.marker_offset_in + local[k], a);
    out[static_cast<std::size_t>(k)] = {p.x, p.y, b.height_in};
  }
  return out;
}

}  // namespace

FrameTruth SceneRenderer::truth_at(std::int64_t index, double time_s) const {
  FrameTruth truth;
  truth.index = index;
  truth.time_s = time_s;
  const std::vector<Solid> solids = solids_at(spec_, time_s);
  const cv::Vec3d eye = impl_->eye;
  for (const auto& h : spec_.hands)
    truth.hand_in_view |= time_s >= h.t0_s && time_s <= h.t1_s;
  for (std::size_t i = 0; i < spec_.bases.size(); ++i) {
    const auto& b = spec_.bases[i];
    const BasePose pose = base_pose_at(b, time_s);
    BaseTruth bt;
    bt.id = b.id;
    bt.figure = b.figure;
    bt.marker_id = b.marker_id;
    bt.centre_in = pose.centre_in;
    bt.angle_deg = pose.angle_deg;
    bt.radius_in = b.diameter_in / 2;
    bt.moving = moved(b, time_s - 1.0 / spec_.fps, time_s) ||
                moved(b, time_s - spec_.look.exposure_s, time_s + spec_.look.exposure_s);
    const auto corners = marker_corners_in(b, pose);
    for (std::size_t k = 0; k < 4; ++k) {
      bt.marker_corners_px[k] =
          calib::project_point(spec_.camera, spec_.table_to_camera, corners[k]);
    }
    // Visibility of a point on the base's top: in the picture, and no other solid (its own
    // figure included) between it and the camera.
    const cv::Size size = spec_.camera.image_size;
    const auto in_view = [&](const cv::Point3d& p) {
      const cv::Point2d px = calib::project_point(spec_.camera, spec_.table_to_camera, p);
      if (px.x < 0 || px.y < 0 || px.x > size.width || px.y > size.height) return false;
      const cv::Vec3d d = cv::Vec3d(p) - eye;
      return std::none_of(solids.begin(), solids.end(), [&](const Solid& s) {
        return s.base != static_cast<int>(i) && hit(s, eye, d).t < 1 - 1e-9;
      });
    };
    // The marker: a 6×6 grid of points on it.
    int seen = 0;
    for (int gy = 0; gy < 6; ++gy) {
      for (int gx = 0; gx < 6; ++gx) {
        const cv::Point3d top = corners[0] + (gx + 0.5) / 6 * (corners[1] - corners[0]);
        seen += in_view(top + (gy + 0.5) / 6 * (corners[3] - corners[0])) ? 1 : 0;
      }
    }
    bt.marker_visible = seen / 36.0;
    // A ring's code band (0.45 R – 0.80 R on the top): 48 points round it at two radii.
    seen = 0;
    for (int k = 0; k < 48; ++k) {
      const double a = 2 * CV_PI * (k + 0.5) / 48;
      for (double f : {0.54, 0.71}) {
        seen += in_view({pose.centre_in.x + f * bt.radius_in * std::cos(a),
                         pose.centre_in.y + f * bt.radius_in * std::sin(a), b.height_in})
                    ? 1
                    : 0;
      }
    }
    bt.ring_visible = seen / 96.0;
    truth.bases.push_back(bt);
  }
  return truth;
}

namespace {

bool same_solid(const Solid& x, const Solid& y) {
  return x.kind == y.kind && x.a == y.a && x.b == y.b && x.radius == y.radius &&
         x.colour == y.colour && x.base == y.base && x.angle_rad == y.angle_rad &&
         x.sides == y.sides && x.top_value == y.top_value && x.rot == y.rot;
}

// The light of a frame: the fixed soft light from above, and the scene's lamp when it is on,
// with the soft shadows the frame's solids cast from it (a round lamp seen from kLampSamples
// points). Which solids can shade a table point is looked up in a grid of 1" cells.
class Lighting {
 public:
  static constexpr int kLampSamples = 8;

  Lighting(const SceneSpec& spec, const std::vector<Solid>& solids)
      : lamp_(spec.look.lamp), solids_(solids) {
    if (!lamp_.on) return;
    const cv::Vec3d l(lamp_.at_in.x, lamp_.at_in.y, lamp_.at_in.z);
    const cv::Vec3d mid(spec.table.width_in / 2, spec.table.depth_in / 2, 0);
    // The lamp's disc faces the table's middle; its points on a Vogel spiral.
    const cv::Vec3d axis = cv::normalize(mid - l);
    const cv::Vec3d helper = std::abs(axis[2]) < 0.9 ? cv::Vec3d(0, 0, 1) : cv::Vec3d(1, 0, 0);
    const cv::Vec3d u = cv::normalize(helper.cross(axis));
    const cv::Vec3d v = axis.cross(u);
    for (int k = 0; k < kLampSamples; ++k) {
      const double r = lamp_.radius_in * std::sqrt((k + 0.5) / kLampSamples);
      const double t = k * 2.39996323;
      samples_.push_back(l + r * (std::cos(t) * u + std::sin(t) * v));
    }
    norm_ = raw(mid, cv::Vec3d(0, 0, 1), l);
    if (norm_ <= 1e-9) norm_ = 1;
    origin_ = {std::min(0.0, l[0]) - 30, std::min(0.0, l[1]) - 30};
    cols_ = static_cast<int>(std::max(spec.table.width_in, l[0]) - origin_.x + 30) + 1;
    rows_ = static_cast<int>(std::max(spec.table.depth_in, l[1]) - origin_.y + 30) + 1;
    cells_.assign(static_cast<std::size_t>(cols_ * rows_), {});
    for (std::size_t i = 0; i < solids_.size(); ++i) {
      const Solid& sd = solids_[i];
      const cv::Vec3d c = (sd.a + sd.b) * 0.5;
      const double rho = cv::norm(sd.b - sd.a) / 2 + bounding_radius(sd);
      double x0 = c[0] - rho;
      double x1 = c[0] + rho;
      double y0 = c[1] - rho;
      double y1 = c[1] + rho;
      if (c[2] + rho < l[2] - 0.5) {
        // Its shadow on the table, from anywhere on the lamp (grown by a third for the cone).
        const double f = l[2] / (l[2] - c[2]);
        const cv::Vec3d p = l + (c - l) * f;
        const double reach = 1.35 * rho * f + lamp_.radius_in * (f - 1) + 0.5;
        x0 = std::min(x0, p[0] - reach);
        x1 = std::max(x1, p[0] + reach);
        y0 = std::min(y0, p[1] - reach);
        y1 = std::max(y1, p[1] + reach);
      }
      for (int cy = cell(y0, origin_.y, rows_); cy <= cell(y1, origin_.y, rows_); ++cy) {
        for (int cx = cell(x0, origin_.x, cols_); cx <= cell(x1, origin_.x, cols_); ++cx)
          cells_[static_cast<std::size_t>(cy * cols_ + cx)].push_back(static_cast<int>(i));
      }
    }
  }

  // The factor on the colour of a point `p` of a solid with normal `n`.
  [[nodiscard]] double on_solid(const cv::Vec3d& p, const cv::Vec3d& n) const {
    const double fixed = 0.55 + 0.45 * std::max(0.0, n.dot(kFixedLight));
    if (!lamp_.on) return fixed;
    return lamp_.ambient * fixed + lamp(p, n);
  }
  // The factor on the table's colour at `p` (1 without a lamp).
  [[nodiscard]] double on_table(const cv::Vec3d& p) const {
    if (!lamp_.on) return 1;
    return lamp_.ambient + lamp(p, cv::Vec3d(0, 0, 1));
  }
  [[nodiscard]] bool lamp_on() const { return lamp_.on; }

 private:
  static inline const cv::Vec3d kFixedLight = cv::normalize(cv::Vec3d(-0.3, -0.5, 1.0));

  static int cell(double x, double origin, int count) {
    return std::clamp(static_cast<int>(std::floor(x - origin)), 0, count - 1);
  }
  // Lambert's law with the fall-off of the distance's square, from point `l`.
  static double raw(const cv::Vec3d& p, const cv::Vec3d& n, const cv::Vec3d& l) {
    const cv::Vec3d d = l - p;
    const double d2 = d.dot(d);
    return std::max(0.0, n.dot(d) / std::sqrt(d2)) / d2;
  }
  // The lamp's light at `p`, the share of the lamp's points it sees.
  [[nodiscard]] double lamp(const cv::Vec3d& p, const cv::Vec3d& n) const {
    const cv::Vec3d l(lamp_.at_in.x, lamp_.at_in.y, lamp_.at_in.z);
    const double lit = raw(p, n, l) / norm_;
    if (lit <= 0) return 0;
    const cv::Vec3d from = p + 1e-3 * n;
    const int cx = static_cast<int>(std::floor(p[0] - origin_.x));
    const int cy = static_cast<int>(std::floor(p[1] - origin_.y));
    int seen = kLampSamples;
    if (cx >= 0 && cy >= 0 && cx < cols_ && cy < rows_) {
      const auto& cands = cells_[static_cast<std::size_t>(cy * cols_ + cx)];
      if (!cands.empty()) {
        seen = 0;
        for (const cv::Vec3d& q : samples_) {
          const cv::Vec3d d = q - from;
          const bool blocked = std::any_of(cands.begin(), cands.end(), [&](int i) {
            const Solid& sd = solids_[static_cast<std::size_t>(i)];
            // Cheap test first: the segment must pass within the solid's bounding ball.
            const cv::Vec3d c = (sd.a + sd.b) * 0.5;
            const double rho = cv::norm(sd.b - sd.a) / 2 + bounding_radius(sd);
            const double f = std::clamp((c - from).dot(d) / d.dot(d), 0.0, 1.0);
            if (cv::norm(from + f * d - c) > rho) return false;
            return hit(sd, from, d).t < 1;
          });
          seen += blocked ? 0 : 1;
        }
      }
    }
    return lamp_.strength * lit * seen / kLampSamples;
  }

  Lamp lamp_;
  const std::vector<Solid>& solids_;
  std::vector<cv::Vec3d> samples_;
  double norm_ = 1;
  cv::Point2d origin_;
  int cols_ = 0;
  int rows_ = 0;
  std::vector<std::vector<int>> cells_;
};

// The exposure's sub-frame times of the frame at time t (three when something moves during
// the exposure and motion blur is on, else one).
std::vector<double> subframe_times(const SceneSpec& spec, double t) {
  bool anything_moves = false;
  for (const auto& b : spec.bases) {
    anything_moves |= moved(b, t - spec.look.exposure_s, t + spec.look.exposure_s);
  }
  for (const auto& h : spec.hands)
    anything_moves |= t >= h.t0_s - spec.look.exposure_s && t <= h.t1_s + spec.look.exposure_s;
  const int subframes = spec.look.motion_blur && anything_moves ? 3 : 1;
  std::vector<double> out;
  for (int k = 0; k < subframes; ++k) {
    out.push_back(subframes == 1 ? t : t + spec.look.exposure_s * (k / (subframes - 1.0) - 0.5));
  }
  return out;
}

}  // namespace

// What painting a solid needs from the renderer.
struct SceneRenderer::Painter {
  const SceneSpec& spec;
  const Impl& impl;

  // The canvas box a solid can cover. A solid that reaches behind the camera (a player's arm)
  // is cut at a plane just in front of it; what is left is bounded in ideal image coordinates,
  // cut to the lens's view, and its outline taken through the lens.
  [[nodiscard]] cv::Rect box(const Solid& s, cv::Size canvas) const {
    const int ss = impl.camera.supersample();
    const double r = bounding_radius(s);
    const double x0 = std::min(s.a[0], s.b[0]) - r;
    const double x1 = std::max(s.a[0], s.b[0]) + r;
    const double y0 = std::min(s.a[1], s.b[1]) - r;
    const double y1 = std::max(s.a[1], s.b[1]) + r;
    const double z0 = s.kind == Solid::Kind::kCylinder ? s.a[2] : std::min(s.a[2], s.b[2]) - r;
    const double z1 = s.kind == Solid::Kind::kCylinder ? s.b[2] : std::max(s.a[2], s.b[2]) + r;
    constexpr double kNear = 0.5;  // inches in front of the camera
    const cv::Rect whole(0, 0, canvas.width, canvas.height);
    const cv::Matx33d rot = calib::rotation_of(spec.table_to_camera);
    std::array<cv::Vec3d, 8> cam;
    bool behind = false;
    for (int c = 0; c < 8; ++c) {
      const cv::Vec3d p((c & 1) ? x1 : x0, (c & 2) ? y1 : y0, (c & 4) ? z1 : z0);
      cam[static_cast<std::size_t>(c)] = rot * p + spec.table_to_camera.tvec;
      behind |= cam[static_cast<std::size_t>(c)][2] <= kNear;
    }
    std::vector<cv::Point2d> outline;  // canvas pixels
    if (!behind) {
      for (int c = 0; c < 8; ++c) {
        const cv::Vec3d p((c & 1) ? x1 : x0, (c & 2) ? y1 : y0, (c & 4) ? z1 : z0);
        outline.push_back(impl.camera.to_canvas(
            calib::project_point(spec.camera, spec.table_to_camera, cv::Point3d(p))));
      }
    } else {
      // The box's corners in front of the near plane and where its edges cross it.
      std::vector<cv::Vec3d> front;
      for (int c = 0; c < 8; ++c) {
        const cv::Vec3d& p = cam[static_cast<std::size_t>(c)];
        if (p[2] > kNear) front.push_back(p);
        for (int axis : {1, 2, 4}) {
          if (c & axis) continue;
          const cv::Vec3d& q = cam[static_cast<std::size_t>(c | axis)];
          if ((p[2] > kNear) != (q[2] > kNear)) {
            const double f = (kNear - p[2]) / (q[2] - p[2]);
            front.push_back(p + f * (q - p));
          }
        }
      }
      if (front.empty()) return {};
      double u0 = kInf;
      double v0 = kInf;
      double u1 = -kInf;
      double v1 = -kInf;
      for (const auto& p : front) {
        u0 = std::min(u0, p[0] / p[2]);
        u1 = std::max(u1, p[0] / p[2]);
        v0 = std::min(v0, p[1] / p[2]);
        v1 = std::max(v1, p[1] / p[2]);
      }
      const cv::Rect2d ideal = cv::Rect2d(u0, v0, u1 - u0, v1 - v0) & impl.view;
      if (ideal.area() <= 0) return {};
      // The outline of that rectangle through the lens, sampled densely along its edges.
      const calib::Pose identity{};
      constexpr int kSamples = 32;
      for (int k = 0; k <= kSamples; ++k) {
        const double f = static_cast<double>(k) / kSamples;
        const double u = ideal.x + f * ideal.width;
        const double v = ideal.y + f * ideal.height;
        for (const cv::Point2d q : {cv::Point2d(u, ideal.y), cv::Point2d(u, ideal.br().y),
                                    cv::Point2d(ideal.x, v), cv::Point2d(ideal.br().x, v)}) {
          outline.push_back(impl.camera.to_canvas(
              calib::project_point(spec.camera, identity, cv::Point3d(q.x, q.y, 1.0))));
        }
      }
    }
    double bx0 = kInf;
    double by0 = kInf;
    double bx1 = -kInf;
    double by1 = -kInf;
    for (const auto& px : outline) {
      bx0 = std::min(bx0, px.x);
      by0 = std::min(by0, px.y);
      bx1 = std::max(bx1, px.x);
      by1 = std::max(by1, px.y);
    }
    const double m = 0.15 * std::max(bx1 - bx0, by1 - by0) + 4 * ss;
    const double lim = 1e6;
    return whole & cv::Rect(cv::Point(static_cast<int>(std::floor(std::clamp(bx0 - m, -lim, lim))),
                                      static_cast<int>(std::floor(std::clamp(by0 - m, -lim, lim)))),
                            cv::Point(static_cast<int>(std::ceil(std::clamp(bx1 + m, -lim, lim))),
                                      static_cast<int>(std::ceil(std::clamp(by1 + m, -lim, lim)))));
  }

  // Whether any ray of canvas tile (tx, ty) can meet capsule `s`: the tile's middle ray must
  // pass within r + angle·(farthest distance) of its axis, since every ray of the tile stays
  // within that angle of the middle one.
  [[nodiscard]] bool tile_may_hit(const Solid& s, int tx, int ty) const {
    const double angle = impl.tile_angle.at<double>(ty, tx);
    if (!std::isfinite(angle)) return true;
    const cv::Vec3d eye = impl.eye;
    const double r = bounding_radius(s);
    const double reach = std::max(cv::norm(s.a - eye), cv::norm(s.b - eye)) + r;
    Solid grown = s;
    grown.radius = r + angle * reach + 1e-6;
    // The eye inside the grown capsule: no cheap answer, paint the tile.
    const cv::Vec3d ab = s.b - s.a;
    const double len2 = ab.dot(ab);
    const double f = len2 > 0 ? std::clamp((eye - s.a).dot(ab) / len2, 0.0, 1.0) : 0.0;
    if (cv::norm(eye - (s.a + f * ab)) <= grown.radius) return true;
    return hit_capsule(grown, eye, impl.tile_ray.at<cv::Vec3d>(ty, tx)).t < kInf;
  }

  // The parts of `region` where solid `s` may show: the region itself for a base; for a capsule
  // (figure, hand, arm), the runs of tiles its rays can meet.
  [[nodiscard]] std::vector<cv::Rect> paint_rects(const Solid& s, cv::Rect region) const {
    if (s.kind == Solid::Kind::kCylinder) return {region};
    constexpr int kTile = Impl::kTile;
    std::vector<cv::Rect> out;
    for (int ty = region.y / kTile; ty * kTile < region.br().y; ++ty) {
      int run_start = -1;
      const int last = (region.br().x - 1) / kTile;
      for (int tx = region.x / kTile; tx <= last + 1; ++tx) {
        const bool hit = tx <= last && tile_may_hit(s, tx, ty);
        if (hit && run_start < 0) run_start = tx;
        if (!hit && run_start >= 0) {
          out.push_back(region &
                        cv::Rect(run_start * kTile, ty * kTile, (tx - run_start) * kTile, kTile));
          run_start = -1;
        }
      }
    }
    return out;
  }

  // Ray-casts one solid into `canvas` and `depth` (full canvas size) inside `region`.
  void paint(const Solid& s, cv::Rect region, cv::Mat& canvas, cv::Mat& depth,
             const Lighting& lighting) const {
    region &= box(s, canvas.size());
    if (region.area() <= 0) return;
    const std::vector<cv::Rect> rects = paint_rects(s, region);
    const cv::Mat& rays = impl.camera.rays();
    const cv::Vec3d eye = impl.eye;
    const cv::Matx33d& to_table = impl.cam_to_table;
    const cv::Mat* marker = s.base >= 0 ? &impl.markers[static_cast<std::size_t>(s.base)] : nullptr;
    const SceneBaseSpec* base =
        s.base >= 0 ? &spec.bases[static_cast<std::size_t>(s.base)] : nullptr;
    auto paint_row = [&](int v, int u0, int u1) {
      const auto* ray = rays.ptr<cv::Vec2f>(v);
      auto* out = canvas.ptr<cv::Vec3b>(v);
      auto* zb = depth.ptr<double>(v);
      for (int u = u0; u < u1; ++u) {
        if (!std::isfinite(ray[u][0])) continue;
        const cv::Vec3d d = to_table * cv::Vec3d(ray[u][0], ray[u][1], 1.0);
        int face = -1;
        const Hit h = s.kind == Solid::Kind::kDie ? hit_die(s, eye, d, &face) : hit(s, eye, d);
        if (!(h.t < zb[u])) continue;
        zb[u] = h.t;
        cv::Vec3d colour = s.colour;
        if (face >= 0) {
          colour = die_colour_at(s, eye + h.t * d, face);
        } else if (base && h.normal[2] > 0.99 && base->target != BaseTargetKind::kSquare) {
          // The base's top: the printed ring round its edge, the base's own colour inside.
          const cv::Vec3d p = eye + h.t * d;
          const cv::Point2d local =
              rotate({p[0] - s.a[0], p[1] - s.a[1]}, -(s.angle_rad - CV_PI / 2));
          if (const auto shade =
                  ring_shade(base->marker_id, s.radius, local, ring_style_of(base->target)))
            colour = cv::Vec3d::all(*shade > 0.5 ? 235.0 : 25.0);
        } else if (base && h.normal[2] > 0.99) {
          // The base's top: light paper with the marker.
          const cv::Vec3d p = eye + h.t * d;
          const cv::Point2d local =
              rotate({p[0] - s.a[0], p[1] - s.a[1]}, -(s.angle_rad - CV_PI / 2)) -
              base->marker_offset_in;
          const double side = base->marker_side_in;
          const double px = (local.x + side / 2) / side;
          const double py = (side / 2 - local.y) / side;
          colour = cv::Vec3d::all(225);
          if (marker && !marker->empty() && px >= 0 && px < 1 && py >= 0 && py < 1) {
            const int cx = std::min(marker->cols - 1, static_cast<int>(px * marker->cols));
            const int cy = std::min(marker->rows - 1, static_cast<int>(py * marker->rows));
            colour = cv::Vec3d::all(marker->at<unsigned char>(cy, cx) ? 235.0 : 25.0);
          }
        }
        const double shade = lighting.on_solid(eye + h.t * d, h.normal);
        out[u] = cv::Vec3b(cv::saturate_cast<unsigned char>(colour[0] * shade),
                           cv::saturate_cast<unsigned char>(colour[1] * shade),
                           cv::saturate_cast<unsigned char>(colour[2] * shade));
      }
    };
    // Rows of every rect, shared among the threads.
    std::vector<std::pair<int, const cv::Rect*>> rows;
    for (const auto& r : rects) {
      for (int v = r.y; v < r.br().y; ++v)
        rows.emplace_back(v, &r);
    }
    cv::parallel_for_(cv::Range(0, static_cast<int>(rows.size())), [&](const cv::Range& range) {
      for (int i = range.start; i < range.end; ++i) {
        const auto& [v, r] = rows[static_cast<std::size_t>(i)];
        paint_row(v, r->x, r->br().x);
      }
    });
  }

  // The lamp's light and shadows on the table where no solid stands.
  void light_table(cv::Rect region, cv::Mat& canvas, const cv::Mat& depth,
                   const Lighting& lighting) const {
    const cv::Mat& rays = impl.camera.rays();
    const cv::Vec3d eye = impl.eye;
    const cv::Matx33d& to_table = impl.cam_to_table;
    cv::parallel_for_(cv::Range(region.y, region.br().y), [&](const cv::Range& range) {
      for (int v = range.start; v < range.end; ++v) {
        const auto* ray = rays.ptr<cv::Vec2f>(v);
        auto* out = canvas.ptr<cv::Vec3b>(v);
        const auto* zb = depth.ptr<double>(v);
        for (int u = region.x; u < region.br().x; ++u) {
          if (zb[u] < kInf || !std::isfinite(ray[u][0])) continue;
          const cv::Vec3d d = to_table * cv::Vec3d(ray[u][0], ray[u][1], 1.0);
          if (d[2] >= -1e-12) continue;
          const double f = lighting.on_table(eye + (-eye[2] / d[2]) * d);
          for (int c = 0; c < 3; ++c)
            out[u][c] = cv::saturate_cast<unsigned char>(out[u][c] * f);
        }
      }
    });
  }

  // The exposure averaged over its sub-frames, painted into `into` (canvas size, 8UC3) inside
  // `region` only; outside it `into` is left as it was.
  void compose(const std::vector<std::vector<Solid>>& subframes, cv::Rect region,
               cv::Mat& into) const {
    if (region.area() <= 0) return;
    cv::Mat sum;
    for (const auto& solids : subframes) {
      cv::Mat canvas(impl.table_canvas.size(), impl.table_canvas.type());
      impl.table_canvas(region).copyTo(canvas(region));
      cv::Mat depth(canvas.size(), CV_64F);
      depth(region).setTo(cv::Scalar(kInf));
      const Lighting lighting(spec, solids);
      for (const auto& s : solids)
        paint(s, region, canvas, depth, lighting);
      if (lighting.lamp_on()) light_table(region, canvas, depth, lighting);
      if (subframes.size() == 1) {
        canvas(region).copyTo(into(region));
        return;
      }
      if (sum.empty()) sum = cv::Mat::zeros(region.size(), CV_32FC3);
      cv::accumulate(canvas(region), sum);
    }
    cv::Mat avg;
    sum.convertTo(avg, CV_8UC3, 1.0 / static_cast<double>(subframes.size()));
    avg.copyTo(into(region));
  }
};

cv::Mat SceneRenderer::render(std::int64_t index, FrameTruth* truth) const {
  const double t = static_cast<double>(index) / spec_.fps;
  if (truth) *truth = truth_at(index, t);
  std::vector<std::vector<Solid>> subframes;
  for (double tk : subframe_times(spec_, t))
    subframes.push_back(solids_at(spec_, tk));
  const Painter painter{spec_, *impl_};
  cv::Mat canvas(impl_->table_canvas.size(), CV_8UC3);
  painter.compose(subframes, cv::Rect(cv::Point(0, 0), canvas.size()), canvas);
  calib::FinishOptions finish;
  finish.blur_sigma_px = spec_.look.blur_sigma_px;
  finish.noise_sigma = 0;
  cv::Mat image = impl_->camera.finish(canvas, finish);
  cv::Mat f;
  image.convertTo(f, CV_32FC3);
  f = f.mul(impl_->gain);
  if (spec_.look.noise_sigma > 0) {
    cv::Mat noise(f.size(), CV_32FC3);
    cv::RNG rng(spec_.seed * 1000003ULL + static_cast<std::uint64_t>(index));
    rng.fill(noise, cv::RNG::NORMAL, 0.0, spec_.look.noise_sigma);
    f += noise;
  }
  f.convertTo(image, CV_8UC3);
  return image;
}

// ---------------------------------------------------------------------------------------------
// LiveRenderer

struct LiveRenderer::State {
  std::vector<std::vector<Solid>> subframes;  // the last frame's solids, per sub-frame
  cv::Mat canvas;                             // its exposure, canvas size, 8UC3
  cv::Mat sharp;    // the exposure at picture size before the blur (only when supersampled)
  cv::Mat blurred;  // after the optical blur, image size, 8UC3
  cv::Mat lit;      // after the uneven light, image size, 8UC3
  std::vector<std::pair<cv::Mat, cv::Mat>> noise;  // sensor noise bank: (+ part, − part), 8UC3
  bool primed = false;
};

LiveRenderer::LiveRenderer(std::shared_ptr<const SceneRenderer> scene, int noise_patterns)
    : scene_(std::move(scene)), state_(std::make_unique<State>()) {
  const SceneSpec& spec = scene_->spec();
  if (spec.look.noise_sigma > 0) {
    cv::RNG rng(spec.seed * 1000003ULL + 99991);
    for (int k = 0; k < std::max(1, noise_patterns); ++k) {
      cv::Mat n(spec.camera.image_size, CV_32FC3);
      rng.fill(n, cv::RNG::NORMAL, 0.0, spec.look.noise_sigma);
      cv::Mat plus;
      cv::Mat minus;
      n.convertTo(plus, CV_8UC3);  // saturates the negative half to 0
      cv::Mat neg = -n;
      neg.convertTo(minus, CV_8UC3);
      state_->noise.emplace_back(plus, minus);
    }
  }
}

LiveRenderer::~LiveRenderer() = default;

cv::Mat LiveRenderer::render(std::int64_t index, FrameTruth* truth) {
  const SceneSpec& spec = scene_->spec();
  const SceneRenderer::Impl& impl = *scene_->impl_;
  const SceneRenderer::Painter painter{spec, impl};
  State& st = *state_;
  const double t = static_cast<double>(index) / spec.fps;
  if (truth) *truth = scene_->truth_at(index, t);
  std::vector<std::vector<Solid>> subframes;
  for (double tk : subframe_times(spec, t))
    subframes.push_back(solids_at(spec, tk));

  const cv::Size canvas_size = impl.table_canvas.size();
  const cv::Rect whole(cv::Point(0, 0), canvas_size);
  cv::Rect dirty;
  if (!st.primed) {
    st.canvas.create(canvas_size, CV_8UC3);
    dirty = whole;
  } else {
    // A solid is unchanged when it stands identically in every sub-frame of both frames;
    // every other solid's boxes, then and now, are repainted.
    auto unchanged = [&](const Solid& s) {
      auto in_all = [&](const std::vector<std::vector<Solid>>& frames) {
        return std::all_of(frames.begin(), frames.end(), [&](const std::vector<Solid>& solids) {
          return std::any_of(solids.begin(), solids.end(),
                             [&](const Solid& o) { return same_solid(s, o); });
        });
      };
      return in_all(subframes) && in_all(st.subframes);
    };
    for (const auto* frames : {&subframes, &st.subframes}) {
      for (const auto& solids : *frames) {
        for (const auto& s : solids) {
          if (unchanged(s)) continue;
          const cv::Rect b = painter.box(s, canvas_size);
          dirty = dirty.area() > 0 ? (dirty | b) : b;
        }
      }
    }
  }
  // A lamp's shadows reach past what changed: a lit scene is repainted whole.
  if (spec.look.lamp.on && dirty.area() > 0) dirty = whole;
  dirty_share_ = static_cast<double>(dirty.area()) / whole.area();
  const int ss = impl.camera.supersample();
  if (dirty.area() > 0) {
    // Whole pixels of the picture: the canvas region grows to multiples of the supersampling.
    const int x0 = dirty.x / ss * ss;
    const int y0 = dirty.y / ss * ss;
    const int x1 = std::min(canvas_size.width, (dirty.br().x + ss - 1) / ss * ss);
    const int y1 = std::min(canvas_size.height, (dirty.br().y + ss - 1) / ss * ss);
    dirty = cv::Rect(cv::Point(x0, y0), cv::Point(x1, y1));
    painter.compose(subframes, dirty, st.canvas);

    const cv::Size image_size = spec.camera.image_size;
    const cv::Rect image_whole(cv::Point(0, 0), image_size);
    const cv::Rect changed =
        image_whole & cv::Rect(x0 / ss, y0 / ss, (x1 - x0) / ss, (y1 - y0) / ss);
    if (!st.primed) {
      st.blurred.create(image_size, CV_8UC3);
      st.lit.create(image_size, CV_8UC3);
    }
    cv::Mat small;
    if (ss > 1) {
      cv::resize(st.canvas(dirty), small, changed.size(), 0, 0, cv::INTER_AREA);
    } else {
      small = st.canvas(dirty);
    }
    if (ss > 1) {
      if (st.sharp.empty()) st.sharp.create(image_size, CV_8UC3);
      small.copyTo(st.sharp(changed));
    }
    const cv::Mat& sharp = ss > 1 ? st.sharp : st.canvas;
    // The blur changes pixels up to its kernel's radius beyond what changed. It runs on a
    // stand-alone copy of that region grown by the radius once more, which gives exactly the
    // whole-picture blur inside (OpenCV's blur of a view into a bigger picture differs by one
    // grey level now and then).
    const double sigma = spec.look.blur_sigma_px;
    const int ksize = sigma > 0 ? (cvRound(sigma * 6 + 1) | 1) : 1;  // OpenCV's for 8-bit
    const int radius = ksize / 2;
    auto grown = [&](cv::Rect r, int by) {
      return image_whole & cv::Rect(r.x - by, r.y - by, r.width + 2 * by, r.height + 2 * by);
    };
    const cv::Rect blurred_region = grown(changed, radius);
    if (sigma > 0) {
      const cv::Rect source_region = grown(blurred_region, radius);
      cv::Mat blurred;
      cv::GaussianBlur(sharp(source_region).clone(), blurred, cv::Size(ksize, ksize), sigma, sigma);
      blurred(blurred_region - source_region.tl()).copyTo(st.blurred(blurred_region));
    } else {
      sharp(blurred_region).copyTo(st.blurred(blurred_region));
    }
    cv::Mat f;
    st.blurred(blurred_region).convertTo(f, CV_32FC3);
    f = f.mul(impl.gain(blurred_region));
    f.convertTo(st.lit(blurred_region), CV_8UC3);
    st.primed = true;
  }
  st.subframes = std::move(subframes);
  if (st.noise.empty()) return st.lit.clone();
  const auto& [plus, minus] = st.noise[static_cast<std::size_t>(index) % st.noise.size()];
  cv::Mat image;
  cv::add(st.lit, plus, image);
  cv::subtract(image, minus, image);
  return image;
}

}  // namespace duels::vision
