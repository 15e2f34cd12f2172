#include "vision/render.hpp"

#include <fmt/format.h>

#include <opencv2/aruco.hpp>
#include <opencv2/imgproc.hpp>

#include <algorithm>
#include <cmath>
#include <limits>
#include <utility>

#include "calib/pattern.hpp"
#include "common/error.hpp"
#include "vision/ring.hpp"

namespace duels::vision {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

// A solid the ray caster knows: a vertical cylinder (bases) or a capsule (figures, hands).
struct Solid {
  enum class Kind { kCylinder, kCapsule } kind = Kind::kCapsule;
  cv::Vec3d a;  // cylinder: centre of the bottom; capsule: one end
  cv::Vec3d b;  // cylinder: centre of the top; capsule: other end
  double radius = 1;
  cv::Vec3d colour;  // BGR
  int base = -1;     // cylinder of base #base: its top carries the marker
  double angle_rad = 0;
};

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

Hit hit(const Solid& s, const cv::Vec3d& o, const cv::Vec3d& d) {
  return s.kind == Solid::Kind::kCylinder ? hit_cylinder(s, o, d) : hit_capsule(s, o, d);
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

  Impl(const SceneSpec& spec, const calib::TablePlane& plane)
      : camera(spec.camera, spec.look.supersample) {
    const calib::MarkerLayout layout =
        spec.corner_marker_side_in > 0
            ? calib::corner_marker_layout(spec.table, spec.corner_marker_side_in, 0.5,
                                          spec.dictionary, 0)
            : calib::MarkerLayout{spec.dictionary, {}};
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
    if (b.figure_height_in <= 0) continue;
    // A rough figure behind its marker: legs/torso capsule and a head, leaning nowhere.
    const FigureFootprint footprint = *figure_footprint(b);
    const double body_r = footprint.radius_in;
    const cv::Point2d foot = pose.centre_in + rotate(footprint.centre_in, a - CV_PI / 2);
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
    // Visibility: a 6×6 grid of points on the marker, each checked against every other solid.
    int seen = 0;
    int total = 0;
    const cv::Size size = spec_.camera.image_size;
    for (int gy = 0; gy < 6; ++gy) {
      for (int gx = 0; gx < 6; ++gx) {
        const double fx = (gx + 0.5) / 6;
        const double fy = (gy + 0.5) / 6;
        const cv::Point3d top = corners[0] + fx * (corners[1] - corners[0]);
        const cv::Point3d p = top + fy * (corners[3] - corners[0]);
        ++total;
        const cv::Point2d px = calib::project_point(spec_.camera, spec_.table_to_camera, p);
        if (px.x < 0 || px.y < 0 || px.x > size.width || px.y > size.height) continue;
        const cv::Vec3d d = cv::Vec3d(p) - eye;
        bool blocked = false;
        for (const auto& s : solids) {
          if (s.base == static_cast<int>(i)) continue;
          if (hit(s, eye, d).t < 1 - 1e-9) {
            blocked = true;
            break;
          }
        }
        if (!blocked) ++seen;
      }
    }
    bt.marker_visible = static_cast<double>(seen) / total;
    truth.bases.push_back(bt);
  }
  return truth;
}

cv::Mat SceneRenderer::render(std::int64_t index, FrameTruth* truth) const {
  const double t = static_cast<double>(index) / spec_.fps;
  if (truth) *truth = truth_at(index, t);
  bool anything_moves = false;
  for (const auto& b : spec_.bases) {
    anything_moves |= moved(b, t - spec_.look.exposure_s, t + spec_.look.exposure_s);
  }
  for (const auto& h : spec_.hands)
    anything_moves |= t >= h.t0_s - spec_.look.exposure_s && t <= h.t1_s + spec_.look.exposure_s;
  const int subframes = spec_.look.motion_blur && anything_moves ? 3 : 1;
  const cv::Mat& rays = impl_->camera.rays();
  const int ss = impl_->camera.supersample();
  const cv::Vec3d eye = impl_->eye;
  const cv::Matx33d& to_table = impl_->cam_to_table;
  const cv::Vec3d light = cv::normalize(cv::Vec3d(-0.3, -0.5, 1.0));
  cv::Mat sum;
  for (int k = 0; k < subframes; ++k) {
    const double tk =
        subframes == 1 ? t : t + spec_.look.exposure_s * (k / (subframes - 1.0) - 0.5);
    const std::vector<Solid> solids = solids_at(spec_, tk);
    cv::Mat canvas = impl_->table_canvas.clone();
    cv::Mat depth(canvas.size(), CV_64F, cv::Scalar(kInf));
    for (const auto& s : solids) {
      // Canvas box of the solid: project its bounding box.
      const double r = s.radius;
      const double x0 = std::min(s.a[0], s.b[0]) - r;
      const double x1 = std::max(s.a[0], s.b[0]) + r;
      const double y0 = std::min(s.a[1], s.b[1]) - r;
      const double y1 = std::max(s.a[1], s.b[1]) + r;
      const double z0 = s.kind == Solid::Kind::kCylinder ? s.a[2] : std::min(s.a[2], s.b[2]) - r;
      const double z1 = s.kind == Solid::Kind::kCylinder ? s.b[2] : std::max(s.a[2], s.b[2]) + r;
      double bx0 = kInf;
      double by0 = kInf;
      double bx1 = -kInf;
      double by1 = -kInf;
      bool behind = false;
      const cv::Matx33d rot = calib::rotation_of(spec_.table_to_camera);
      for (int c = 0; c < 8; ++c) {
        const cv::Vec3d p((c & 1) ? x1 : x0, (c & 2) ? y1 : y0, (c & 4) ? z1 : z0);
        const cv::Vec3d cam = rot * p + spec_.table_to_camera.tvec;
        if (cam[2] <= 0.5) {
          behind = true;
          break;
        }
        const cv::Point2d px = impl_->camera.to_canvas(
            calib::project_point(spec_.camera, spec_.table_to_camera, cv::Point3d(p)));
        bx0 = std::min(bx0, px.x);
        by0 = std::min(by0, px.y);
        bx1 = std::max(bx1, px.x);
        by1 = std::max(by1, px.y);
      }
      cv::Rect region(0, 0, canvas.cols, canvas.rows);
      if (!behind) {
        const double m = 0.15 * std::max(bx1 - bx0, by1 - by0) + 4 * ss;
        const double lim = 1e6;
        region &= cv::Rect(cv::Point(static_cast<int>(std::floor(std::clamp(bx0 - m, -lim, lim))),
                                     static_cast<int>(std::floor(std::clamp(by0 - m, -lim, lim)))),
                           cv::Point(static_cast<int>(std::ceil(std::clamp(bx1 + m, -lim, lim))),
                                     static_cast<int>(std::ceil(std::clamp(by1 + m, -lim, lim)))));
      }
      if (region.area() <= 0) continue;
      const cv::Mat* marker =
          s.base >= 0 ? &impl_->markers[static_cast<std::size_t>(s.base)] : nullptr;
      const SceneBaseSpec* base =
          s.base >= 0 ? &spec_.bases[static_cast<std::size_t>(s.base)] : nullptr;
      cv::parallel_for_(cv::Range(region.y, region.y + region.height), [&](const cv::Range& rows) {
        for (int v = rows.start; v < rows.end; ++v) {
          const auto* ray = rays.ptr<cv::Vec2f>(v);
          auto* out = canvas.ptr<cv::Vec3b>(v);
          auto* zb = depth.ptr<double>(v);
          for (int u = region.x; u < region.x + region.width; ++u) {
            if (!std::isfinite(ray[u][0])) continue;
            const cv::Vec3d d = to_table * cv::Vec3d(ray[u][0], ray[u][1], 1.0);
            const Hit h = hit(s, eye, d);
            if (!(h.t < zb[u])) continue;
            zb[u] = h.t;
            cv::Vec3d colour = s.colour;
            if (base && h.normal[2] > 0.99 && base->target == BaseTargetKind::kRing) {
              // The base's top: the printed ring round its edge, the base's own colour inside.
              const cv::Vec3d p = eye + h.t * d;
              const cv::Point2d local =
                  rotate({p[0] - s.a[0], p[1] - s.a[1]}, -(s.angle_rad - CV_PI / 2));
              if (const auto shade = ring_shade(base->marker_id, s.radius, local))
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
            const double shade = 0.55 + 0.45 * std::max(0.0, h.normal.dot(light));
            out[u] = cv::Vec3b(cv::saturate_cast<unsigned char>(colour[0] * shade),
                               cv::saturate_cast<unsigned char>(colour[1] * shade),
                               cv::saturate_cast<unsigned char>(colour[2] * shade));
          }
        }
      });
    }
    if (subframes == 1) {
      sum = canvas;
    } else {
      if (sum.empty()) sum = cv::Mat::zeros(canvas.size(), CV_32FC3);
      cv::accumulate(canvas, sum);
    }
  }
  if (subframes > 1) sum.convertTo(sum, CV_8UC3, 1.0 / subframes);
  calib::FinishOptions finish;
  finish.blur_sigma_px = spec_.look.blur_sigma_px;
  finish.noise_sigma = 0;
  cv::Mat image = impl_->camera.finish(sum, finish);
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

}  // namespace duels::vision
