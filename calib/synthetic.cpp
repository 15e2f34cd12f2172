#include "calib/synthetic.hpp"

#include <opencv2/calib3d.hpp>
#include <opencv2/imgproc.hpp>

#include <algorithm>
#include <cmath>
#include <limits>

#include "calib/units.hpp"

namespace duels::calib {

PlanarTexture make_texture(cv::Mat image, const cv::Matx23d& plane_to_px) {
  PlanarTexture tex;
  tex.image = std::move(image);
  tex.plane_to_px = plane_to_px;
  tex.levels.push_back(tex.image);
  while (tex.levels.back().cols > 8 && tex.levels.back().rows > 8 && tex.levels.size() < 12) {
    cv::Mat next;
    const cv::Mat& last = tex.levels.back();
    cv::resize(last, next, cv::Size((last.cols + 1) / 2, (last.rows + 1) / 2), 0, 0,
               cv::INTER_AREA);
    tex.levels.push_back(next);
  }
  return tex;
}

PlanarTexture board_texture(const PatternSpec& spec, double px_per_mm, double margin_mm) {
  BoardPicture pic = draw_board(spec, px_per_mm, margin_mm);
  return make_texture(pic.image, pic.board_mm_to_px);
}

PlanarTexture table_texture(const TableGeometry& table, const MarkerLayout& layout,
                            const TableLook& look) {
  const double ppi = look.px_per_in;
  const int w = static_cast<int>(std::lround(table.width_in * ppi));
  const int h = static_cast<int>(std::lround(table.depth_in * ppi));
  cv::Mat image(h, w, CV_8UC1, cv::Scalar(look.felt_grey));
  // Texture rows run from the far edge (row 0) to the near edge: page_y = depth − y.
  auto fill = [&](double x0_in, double page_y0_in, double w_in, double h_in, int value) {
    const int x0 = static_cast<int>(std::lround(x0_in * ppi));
    const int y0 = static_cast<int>(std::lround(page_y0_in * ppi));
    const int x1 = static_cast<int>(std::lround((x0_in + w_in) * ppi));
    const int y1 = static_cast<int>(std::lround((page_y0_in + h_in) * ppi));
    const cv::Rect r = cv::Rect(x0, y0, x1 - x0, y1 - y0) & cv::Rect(0, 0, w, h);
    if (r.area() > 0) image(r).setTo(value);
  };
  const auto dict = dictionary_by_name(layout.dictionary);
  for (const auto& m : layout.markers) {
    const double half = m.side_in / 2;
    const double paper = half + look.paper_margin_in;
    fill(m.centre_in.x - paper, table.depth_in - (m.centre_in.y + paper), 2 * paper, 2 * paper,
         255);
    if (!dict) continue;
    const cv::Point2d top_left(m.centre_in.x - half, table.depth_in - (m.centre_in.y + half));
    for (const auto& r : marker_black_rects(*dict, m.id, m.side_in, top_left)) {
      fill(r.x, r.y, r.width, r.height, 0);
    }
  }
  const cv::Matx23d plane_to_px(ppi, 0, 0, 0, -ppi, table.depth_in * ppi);
  return make_texture(image, plane_to_px);
}

SyntheticCamera::SyntheticCamera(Intrinsics camera, int supersample)
    : camera_(std::move(camera)), ss_(std::max(1, supersample)) {
  const int w = camera_.image_size.width * ss_;
  const int h = camera_.image_size.height * ss_;
  const cv::Matx33d& k = camera_.camera_matrix;
  auto distorted_of = [&](int u, int v) {
    const double yd = ((v + 0.5) / ss_ - 0.5 - k(1, 2)) / k(1, 1);
    const double xd = ((u + 0.5) / ss_ - 0.5 - k(0, 2) - k(0, 1) * yd) / k(0, 0);
    return cv::Point2d(xd, yd);
  };
  // Exact solves on a coarse grid give each pixel a starting point ~1e-6 away; one or two
  // Newton steps from there reach 1e-12 (a full solve per pixel would be ~3x slower).
  constexpr int kStep = 8;
  const int gw = (w + kStep - 1) / kStep + 1;
  const int gh = (h + kStep - 1) / kStep + 1;
  cv::Mat coarse(gh, gw, CV_64FC2);
  cv::parallel_for_(cv::Range(0, gh), [&](const cv::Range& range) {
    for (int gv = range.start; gv < range.end; ++gv) {
      for (int gu = 0; gu < gw; ++gu) {
        const auto n = undistort_normalized(distorted_of(gu * kStep, gv * kStep), camera_.dist);
        coarse.at<cv::Vec2d>(gv, gu) = n ? cv::Vec2d(n->x, n->y) : cv::Vec2d(NAN, NAN);
      }
    }
  });
  rays_.create(h, w, CV_32FC2);
  const float nan = std::numeric_limits<float>::quiet_NaN();
  cv::parallel_for_(cv::Range(0, h), [&](const cv::Range& range) {
    for (int v = range.start; v < range.end; ++v) {
      auto* row = rays_.ptr<cv::Vec2f>(v);
      const int gv = v / kStep;
      const double fv = static_cast<double>(v - gv * kStep) / kStep;
      for (int u = 0; u < w; ++u) {
        const int gu = u / kStep;
        const double fu = static_cast<double>(u - gu * kStep) / kStep;
        const cv::Vec2d guess = (1 - fv) * ((1 - fu) * coarse.at<cv::Vec2d>(gv, gu) +
                                            fu * coarse.at<cv::Vec2d>(gv, gu + 1)) +
                                fv * ((1 - fu) * coarse.at<cv::Vec2d>(gv + 1, gu) +
                                      fu * coarse.at<cv::Vec2d>(gv + 1, gu + 1));
        const cv::Point2d d = distorted_of(u, v);
        const auto n = std::isfinite(guess[0]) && std::isfinite(guess[1])
                           ? undistort_normalized(d, camera_.dist, {guess[0], guess[1]})
                           : undistort_normalized(d, camera_.dist);
        row[u] =
            n ? cv::Vec2f(static_cast<float>(n->x), static_cast<float>(n->y)) : cv::Vec2f(nan, nan);
      }
    }
  });
  // The field of view in normalized coordinates (its extremes lie on the image border).
  double x0 = 0;
  double x1 = 0;
  double y0 = 0;
  double y1 = 0;
  auto extend = [&](int u, int v) {
    const cv::Vec2f& ray = rays_.at<cv::Vec2f>(v, u);
    if (!std::isfinite(ray[0]) || !std::isfinite(ray[1])) return;
    x0 = std::min(x0, static_cast<double>(ray[0]));
    x1 = std::max(x1, static_cast<double>(ray[0]));
    y0 = std::min(y0, static_cast<double>(ray[1]));
    y1 = std::max(y1, static_cast<double>(ray[1]));
  };
  for (int u = 0; u < w; ++u) {
    extend(u, 0);
    extend(u, h - 1);
  }
  for (int v = 0; v < h; ++v) {
    extend(0, v);
    extend(w - 1, v);
  }
  const double mx = 0.1 * (x1 - x0);
  const double my = 0.1 * (y1 - y0);
  ray_bounds_ = cv::Rect2d(x0 - mx, y0 - my, x1 - x0 + 2 * mx, y1 - y0 + 2 * my);
}

cv::Mat SyntheticCamera::canvas(const cv::Scalar& background, int type) const {
  return cv::Mat(rays_.rows, rays_.cols, type, background);
}

namespace {

// Bilinear sample of an 8-bit picture at (x, y) in remap's convention (pixel centres at
// integers), edges replicated. False when the point is outside the picture.
template <int kChannels>
bool sample(const cv::Mat& img, float x, float y, unsigned char* out) {
  if (!(x >= -0.5f && y >= -0.5f && x <= static_cast<float>(img.cols) - 0.5f &&
        y <= static_cast<float>(img.rows) - 0.5f)) {
    return false;
  }
  const float fx = std::floor(x);
  const float fy = std::floor(y);
  const float ax = x - fx;
  const float ay = y - fy;
  const int x0 = std::clamp(static_cast<int>(fx), 0, img.cols - 1);
  const int y0 = std::clamp(static_cast<int>(fy), 0, img.rows - 1);
  const int x1 = std::min(static_cast<int>(fx) + 1, img.cols - 1);
  const int y1 = std::min(static_cast<int>(fy) + 1, img.rows - 1);
  const auto* r0 = img.ptr<unsigned char>(y0);
  const auto* r1 = img.ptr<unsigned char>(y1);
  for (int c = 0; c < kChannels; ++c) {
    const float top = static_cast<float>(r0[x0 * kChannels + c]) * (1 - ax) +
                      static_cast<float>(r0[x1 * kChannels + c]) * ax;
    const float bottom = static_cast<float>(r1[x0 * kChannels + c]) * (1 - ax) +
                         static_cast<float>(r1[x1 * kChannels + c]) * ax;
    out[c] = cv::saturate_cast<unsigned char>(top * (1 - ay) + bottom * ay);
  }
  return true;
}

}  // namespace

void SyntheticCamera::draw_plane(cv::Mat& canvas, const PlanarTexture& texture,
                                 const Pose& plane_to_camera) const {
  CV_Assert(canvas.size() == rays_.size() && canvas.depth() == CV_8U &&
            (canvas.channels() == 1 || canvas.channels() == 3));
  const cv::Matx33d r = rotation_of(plane_to_camera);
  const cv::Vec3d& t = plane_to_camera.tvec;
  // Plane (X, Y, 1) → ray (x, y, 1) up to scale is H = [r1 r2 t]; rays map back through H⁻¹,
  // then the texture's affine gives picture coordinates (remap convention: centres at ints).
  const cv::Matx33d hom(r(0, 0), r(0, 1), t[0], r(1, 0), r(1, 1), t[1], r(2, 0), r(2, 1), t[2]);
  const cv::Matx33d inv = hom.inv();
  const cv::Matx23d& a = texture.plane_to_px;
  const cv::Matx33d to_px =
      cv::Matx33d(a(0, 0), a(0, 1), a(0, 2) - 0.5, a(1, 0), a(1, 1), a(1, 2) - 0.5, 0, 0, 1) * inv;
  // Levels in the canvas's channel count.
  std::vector<cv::Mat> levels =
      texture.levels.empty() ? std::vector<cv::Mat>{texture.image} : texture.levels;
  for (auto& level : levels) {
    if (level.channels() == canvas.channels()) continue;
    cv::Mat converted;
    cv::cvtColor(level, converted,
                 canvas.channels() == 3 ? cv::COLOR_GRAY2BGR : cv::COLOR_BGR2GRAY);
    level = converted;
  }
  std::vector<cv::Vec2f> level_scale;
  for (const auto& level : levels) {
    level_scale.emplace_back(
        static_cast<float>(level.cols) / static_cast<float>(texture.image.cols),
        static_cast<float>(level.rows) / static_cast<float>(texture.image.rows));
  }
  const int max_level = static_cast<int>(levels.size()) - 1;
  const int channels = canvas.channels();
  // Ray spacing of neighbouring canvas pixels (ignoring distortion: only picks the mip level).
  const double ray_step_x = 1.0 / (camera_.fx() * ss_);
  const double ray_step_y = 1.0 / (camera_.fy() * ss_);
  // Only the canvas region the picture can cover: project its outline (through the lens).
  cv::Rect region(0, 0, rays_.cols, rays_.rows);
  {
    const cv::Matx33d to_plane =
        cv::Matx33d(a(0, 0), a(0, 1), a(0, 2), a(1, 0), a(1, 1), a(1, 2), 0, 0, 1).inv();
    const double tw = texture.image.cols;
    const double th = texture.image.rows;
    std::vector<cv::Point2d> outline;
    bool behind = false;
    constexpr int kPerEdge = 32;
    for (int i = 0; i < 4 * kPerEdge && !behind; ++i) {
      const double f = static_cast<double>(i % kPerEdge) / kPerEdge;
      const int edge = i / kPerEdge;
      const cv::Point2d q = edge == 0   ? cv::Point2d(f * tw, 0)
                            : edge == 1 ? cv::Point2d(tw, f * th)
                            : edge == 2 ? cv::Point2d(tw - f * tw, th)
                                        : cv::Point2d(0, th - f * th);
      const cv::Vec3d plane = to_plane * cv::Vec3d(q.x, q.y, 1);
      const cv::Vec3d cam = r * cv::Vec3d(plane[0], plane[1], 0) + t;
      if (cam[2] <= 1e-9) {
        behind = true;
        break;
      }
      const cv::Point2d n(cam[0] / cam[2], cam[1] / cam[2]);
      if (!ray_bounds_.contains(n)) {
        behind = true;  // outside the field of view: the lens polynomial may fold it back in
        break;
      }
      const cv::Point2d px = normalized_to_pixel(camera_, n);
      outline.emplace_back((px.x + 0.5) * ss_ - 0.5, (px.y + 0.5) * ss_ - 0.5);
    }
    if (!behind && !outline.empty()) {
      double x0 = outline[0].x;
      double x1 = x0;
      double y0 = outline[0].y;
      double y1 = y0;
      for (const auto& p : outline) {
        x0 = std::min(x0, p.x);
        x1 = std::max(x1, p.x);
        y0 = std::min(y0, p.y);
        y1 = std::max(y1, p.y);
      }
      // Generous margin: lens distortion bends the edges between the samples.
      const double m = 0.05 * std::max(x1 - x0, y1 - y0) + 4 * ss_;
      const cv::Rect box(cv::Point(static_cast<int>(std::floor(std::max(-1.0, x0 - m))),
                                   static_cast<int>(std::floor(std::max(-1.0, y0 - m)))),
                         cv::Point(static_cast<int>(std::ceil(std::min(1e6, x1 + m))),
                                   static_cast<int>(std::ceil(std::min(1e6, y1 + m)))));
      region &= box;
    }
  }
  if (region.area() <= 0) return;
  cv::parallel_for_(cv::Range(region.y, region.y + region.height), [&](const cv::Range& range) {
    for (int v = range.start; v < range.end; ++v) {
      const auto* ray = rays_.ptr<cv::Vec2f>(v);
      auto* out = canvas.ptr<unsigned char>(v);
      for (int u = region.x; u < region.x + region.width; ++u) {
        const double x = ray[u][0];
        const double y = ray[u][1];
        const double pw = inv(2, 0) * x + inv(2, 1) * y + inv(2, 2);
        const double w = to_px(2, 0) * x + to_px(2, 1) * y + to_px(2, 2);
        if (!(pw > 0) || !(std::abs(w) > 0)) continue;  // behind the camera, or a NaN ray
        const double px = (to_px(0, 0) * x + to_px(0, 1) * y + to_px(0, 2)) / w;
        const double py = (to_px(1, 0) * x + to_px(1, 1) * y + to_px(1, 2)) / w;
        // Texels per canvas pixel from the homography's derivative (larger direction).
        const double dxx = (to_px(0, 0) - px * to_px(2, 0)) / w * ray_step_x;
        const double dyx = (to_px(1, 0) - py * to_px(2, 0)) / w * ray_step_x;
        const double dxy = (to_px(0, 1) - px * to_px(2, 1)) / w * ray_step_y;
        const double dyy = (to_px(1, 1) - py * to_px(2, 1)) / w * ray_step_y;
        double footprint = std::sqrt(std::max(dxx * dxx + dyx * dyx, dxy * dxy + dyy * dyy));
        int level = 0;
        while (footprint >= 2.0 && level < max_level) {
          footprint *= 0.5;
          ++level;
        }
        const cv::Point2f p(static_cast<float>(px), static_cast<float>(py));
        const cv::Vec2f s = level_scale[static_cast<std::size_t>(level)];
        const float lx = (p.x + 0.5f) * s[0] - 0.5f;
        const float ly = (p.y + 0.5f) * s[1] - 0.5f;
        const cv::Mat& img = levels[static_cast<std::size_t>(level)];
        if (channels == 1) {
          sample<1>(img, lx, ly, out + u);
        } else {
          sample<3>(img, lx, ly, out + 3 * u);
        }
      }
    }
  });
}

cv::Mat SyntheticCamera::finish(const cv::Mat& canvas, const FinishOptions& options) const {
  cv::Mat out;
  if (ss_ > 1) {
    cv::resize(canvas, out, camera_.image_size, 0, 0, cv::INTER_AREA);
  } else {
    out = canvas.clone();
  }
  if (options.blur_sigma_px > 0) {
    cv::GaussianBlur(out, out, cv::Size(0, 0), options.blur_sigma_px);
  }
  if (options.noise_sigma > 0) {
    cv::Mat noise(out.size(), CV_MAKETYPE(CV_32F, out.channels()));
    cv::RNG rng(options.seed);
    rng.fill(noise, cv::RNG::NORMAL, 0.0, options.noise_sigma);
    cv::Mat f;
    out.convertTo(f, CV_32F);
    f += noise;
    f.convertTo(out, canvas.depth());  // saturating
  }
  return out;
}

cv::Mat SyntheticCamera::render(const PlanarTexture& texture, const Pose& plane_to_camera,
                                const FinishOptions& options, int background) const {
  cv::Mat c = canvas(cv::Scalar::all(background), texture.image.type());
  draw_plane(c, texture, plane_to_camera);
  return finish(c, options);
}

Pose look_at(const cv::Vec3d& eye, const cv::Vec3d& target, const cv::Vec3d& up) {
  const cv::Vec3d z = cv::normalize(target - eye);
  const cv::Vec3d x = cv::normalize(z.cross(up));
  const cv::Vec3d y = z.cross(x);
  const cv::Matx33d r(x[0], x[1], x[2], y[0], y[1], y[2], z[0], z[1], z[2]);
  Pose pose;
  cv::Rodrigues(r, pose.rvec);
  pose.tvec = -(r * eye);
  return pose;
}

std::vector<Pose> calibration_poses(const Intrinsics& camera, const PatternSpec& spec, int count,
                                    std::uint64_t seed, double max_tilt_deg) {
  cv::RNG rng(seed);
  const cv::Size2d size = board_size_mm(spec);
  const cv::Point2d outer = board_outer_corner_mm(spec);
  const cv::Point3d centre(outer.x + size.width / 2, outer.y + size.height / 2, 0);
  const std::vector<cv::Point3d> outline{{outer.x, outer.y, 0},
                                         {outer.x + size.width, outer.y, 0},
                                         {outer.x + size.width, outer.y + size.height, 0},
                                         {outer.x, outer.y + size.height, 0}};
  const double w = camera.image_size.width;
  const double h = camera.image_size.height;
  const double margin = 0.03 * w;
  std::vector<Pose> poses;
  for (int attempt = 0; attempt < 200 * count && static_cast<int>(poses.size()) < count;
       ++attempt) {
    // Tilt of up to max_tilt_deg in a random direction (what a player does; beyond ~45 degrees
    // corner detectors start to fail).
    const double tilt = rng.uniform(0.0, max_tilt_deg * CV_PI / 180.0);
    const double direction = rng.uniform(0.0, 2 * CV_PI);
    const double rx = tilt * std::sin(direction);
    const double ry = tilt * std::cos(direction);
    const double rz = rng.uniform(-0.25, 0.25);
    cv::Matx33d rmx;
    cv::Matx33d rmy;
    cv::Matx33d rmz;
    cv::Rodrigues(cv::Vec3d(rx, 0, 0), rmx);
    cv::Rodrigues(cv::Vec3d(0, ry, 0), rmy);
    cv::Rodrigues(cv::Vec3d(0, 0, rz), rmz);
    const cv::Matx33d r = rmz * rmx * rmy;
    const double fill = rng.uniform(0.30, 0.65);  // board width / image width
    const double distance = camera.fx() * size.width / (fill * w);
    const cv::Point2d target(rng.uniform(0.25 * w, 0.75 * w), rng.uniform(0.25 * h, 0.75 * h));
    const auto n = pixel_to_normalized(camera, target);
    if (!n) continue;
    const cv::Vec3d ray = cv::normalize(cv::Vec3d(n->x, n->y, 1.0));
    Pose pose;
    cv::Rodrigues(r, pose.rvec);
    pose.tvec = ray * distance - r * cv::Vec3d(centre);
    bool inside = true;
    for (const auto& p : outline) {
      const cv::Vec3d pc = r * cv::Vec3d(p) + pose.tvec;
      if (pc[2] <= 0) inside = false;
      const cv::Point2d px = project_point(camera, pose, p);
      inside = inside && px.x > margin && px.y > margin && px.x < w - margin && px.y < h - margin;
    }
    if (inside) poses.push_back(pose);
  }
  return poses;
}

BoardView project_board(const Intrinsics& camera, const PatternSpec& spec, const Pose& pose,
                        const std::string& name) {
  BoardView view;
  view.name = name;
  view.image_size = camera.image_size;
  view.board_mm = spec.kind == PatternKind::kCharuco ? make_charuco_board(spec)->chessboardCorners
                                                     : board_corners_mm(spec);
  for (std::size_t i = 0; i < view.board_mm.size(); ++i) {
    view.corner_ids.push_back(static_cast<int>(i));
    view.image_px.emplace_back(project_point(camera, pose, cv::Point3d(view.board_mm[i])));
  }
  return view;
}

void jitter_corners(BoardView& view, double rms_px, cv::RNG& rng) {
  const double sigma = rms_px / std::sqrt(2.0);
  for (auto& p : view.image_px) {
    p.x += static_cast<float>(rng.gaussian(sigma));
    p.y += static_cast<float>(rng.gaussian(sigma));
  }
}

Intrinsics example_webcam_1080p() {
  Intrinsics cam;
  cam.image_size = {1920, 1080};
  cam.camera_matrix = cv::Matx33d(1000, 0, 963.5, 0, 1000, 535.8, 0, 0, 1);
  cam.dist = {-0.12, 0.08, 0.0008, -0.0005, -0.02};
  return cam;
}

}  // namespace duels::calib
