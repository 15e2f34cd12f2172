#include "vision/coverage.hpp"

#include <fmt/format.h>

#include <opencv2/aruco.hpp>
#include <opencv2/imgcodecs.hpp>
#include <opencv2/imgproc.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstddef>
#include <filesystem>
#include <map>
#include <optional>
#include <ostream>
#include <set>

#include "calib/pattern.hpp"
#include "calib/synthetic.hpp"
#include "calib/table.hpp"
#include "common/error.hpp"
#include "vision/markerless.hpp"
#include "vision/pipeline.hpp"
#include "vision/povray.hpp"
#include "vision/render.hpp"

namespace duels::vision {
namespace {

double percentile(std::vector<double> v, double q) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  const double pos = q * static_cast<double>(v.size() - 1);
  const auto i = static_cast<std::size_t>(pos);
  const double f = pos - static_cast<double>(i);
  return i + 1 < v.size() ? v[i] * (1 - f) + v[i + 1] * f : v[i];
}

double median(std::vector<double> v) {
  return percentile(std::move(v), 0.5);
}

template <class F>
double time_ms(F&& f) {
  const auto t0 = std::chrono::steady_clock::now();
  f();
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

constexpr double kCornerMarkerIn = 4.0;

// A webcam of the scenario: pinhole of the given horizontal field of view, mild barrel
// distortion (calib's example webcam's coefficients, which are size-free).
calib::Intrinsics webcam(cv::Size size, double hfov_deg) {
  calib::Intrinsics cam = calib::example_webcam_1080p();
  const double f = size.width / 2.0 / std::tan(hfov_deg * CV_PI / 360);
  cam.image_size = size;
  cam.camera_matrix =
      cv::Matx33d(f, 0, (size.width - 1) / 2.0, 0, f, (size.height - 1) / 2.0, 0, 0, 1);
  return cam;
}

// The camera `distance` from the table's centre at `elevation`, behind the player's edge, aimed
// so the near and far edges lie equally far from the picture's middle.
calib::Pose aimed_camera(const calib::TableGeometry& table, double distance, double elevation_deg) {
  const double e = elevation_deg * CV_PI / 180;
  const double h = distance * std::sin(e);
  const double back = distance * std::cos(e);
  const double cy = table.depth_in / 2;
  const double cam_y = cy - back;
  const double near = std::atan2(h, 0 - cam_y);
  const double far = std::atan2(h, table.depth_in - cam_y);
  const double aim = (near + far) / 2;
  const cv::Vec3d eye(table.width_in / 2, cam_y, h);
  const cv::Vec3d target(table.width_in / 2, cam_y + h / std::tan(aim), 0);
  return calib::look_at(eye, target, cv::Vec3d(0, 0, 1));
}

}  // namespace

bool base_top_in_view(const calib::TablePlane& plane, cv::Point2d c, double r, double h) {
  const cv::Size s = plane.camera().image_size;
  for (int k = 0; k < 16; ++k) {
    const double a = 2 * CV_PI * k / 16;
    const auto px = plane.table_to_image({c.x + r * std::cos(a), c.y + r * std::sin(a), h});
    if (!px || px->x < 0.02 * s.width || px->x > 0.98 * s.width || px->y < 0.02 * s.height ||
        px->y > 0.98 * s.height) {
      return false;
    }
  }
  return true;
}

calib::TablePlane misjudged_plane(const SceneSpec& spec, double error, std::uint64_t seed) {
  calib::Intrinsics lens = spec.camera;
  const double k = 1 + (seed % 2 == 0 ? -error : error);
  lens.camera_matrix(0, 0) *= k;
  lens.camera_matrix(1, 1) *= k;
  if (error == 0) return {spec.camera, spec.table_to_camera, spec.table};
  const calib::MarkerLayout layout = scene_corner_markers(spec);
  calib::TableCorrespondences pts;
  pts.method = "corner markers (coverage bench)";
  const cv::Size s = spec.camera.image_size;
  for (const auto& m : layout.markers) {
    const double h = m.side_in / 2;
    for (const cv::Point2d d :
         {cv::Point2d(-h, h), cv::Point2d(h, h), cv::Point2d(h, -h), cv::Point2d(-h, -h)}) {
      const cv::Point3d p(m.centre_in.x + d.x, m.centre_in.y + d.y, 0);
      const cv::Point2d px = calib::project_point(spec.camera, spec.table_to_camera, p);
      if (px.x < 0 || px.y < 0 || px.x >= s.width || px.y >= s.height) continue;
      pts.table_in.push_back(p);
      pts.image_px.push_back(px);
    }
  }
  const auto reg = calib::register_table(lens, pts, spec.table);
  if (!reg) {
    throw DataException({spec.name, 0, "camera",
                         "a camera that sees the table's corner markers (" + reg.error() + ")"});
  }
  return reg->plane;
}

void put_dice_on(SceneBaseSpec& base, int count, cv::RNG& rng) {
  const double r = base.diameter_in / 2;
  const auto figure = figure_footprint(base);
  constexpr std::array<int, 6> kSides{6, 6, 8, 10, 12, 6};
  constexpr std::array<DieColour, 6> kColours{DieColour::kWhite, DieColour::kYellow,
                                              DieColour::kBlue,  DieColour::kGreen,
                                              DieColour::kBlack, DieColour::kRed};
  for (int placed = 0, attempt = 0; placed < count && attempt < 400; ++attempt) {
    DieSpec d;
    d.size_in = rng.uniform(0.55, 0.65);
    d.sides = kSides[static_cast<std::size_t>(rng.uniform(0, 6))];
    d.colour = kColours[static_cast<std::size_t>(rng.uniform(0, 6))];
    d.face = rng.uniform(1, d.sides + 1);
    d.yaw_deg = rng.uniform(0.0, 360.0);
    const double a = rng.uniform(0.0, 2 * CV_PI);
    const double rr = rng.uniform(0.25, r - 0.35 * d.size_in);
    d.at_in = {rr * std::cos(a), rr * std::sin(a)};
    if (figure && cv::norm(d.at_in - figure->centre_in) < figure->radius_in + 0.4 * d.size_in)
      continue;
    if (std::any_of(base.dice.begin(), base.dice.end(), [&](const DieSpec& o) {
          return cv::norm(o.at_in - d.at_in) < 0.5 * (o.size_in + d.size_in) * 1.05;
        })) {
      continue;
    }
    base.dice.push_back(d);
    ++placed;
  }
}

SceneSpec coverage_scene(const CoverageScenario& sc, std::uint64_t seed) {
  SceneSpec s;
  s.name = fmt::format("{} seed {}", sc.name, seed);
  s.seed = seed;
  s.fps = 10;
  s.duration_s = sc.frames / s.fps;
  s.corner_marker_side_in = kCornerMarkerIn;
  s.dictionary = sc.dictionary;
  s.camera = webcam(sc.size, sc.hfov_deg);
  s.table_to_camera = aimed_camera(s.table, sc.distance_in, sc.elevation_deg);
  // The renderer draws a clean picture; vision/degrade does all the damage.
  s.look.supersample = 2;
  s.look.noise_sigma = 0;
  s.look.blur_sigma_px = 0;
  s.look.motion_blur = false;
  s.look.lighting = 0;
  const calib::TablePlane plane(s.camera, s.table_to_camera, s.table);
  cv::RNG rng(seed * 2654435761ULL + 12345);
  const double r = sc.diameter_in / 2;
  const double height = 0.75;
  std::vector<cv::Point2d> centres;
  const auto clear_of = [&](cv::Point2d c, double gap) {
    for (const auto& o : centres) {
      if (cv::norm(c - o) < 2 * r + gap - 1e-9) return false;
    }
    for (double cx : {2.5, 57.5}) {
      for (double cy : {2.5, 57.5}) {
        if (std::abs(c.x - cx) < kCornerMarkerIn / 2 + r + 0.3 &&
            std::abs(c.y - cy) < kCornerMarkerIn / 2 + r + 0.3)
          return false;
      }
    }
    return c.x > r + 0.2 && c.y > r + 0.2 && c.x < s.table.width_in - r - 0.2 &&
           c.y < s.table.depth_in - r - 0.2 && base_top_in_view(plane, c, r, height);
  };
  // Packed groups: three bases 0.3" apart (a triangle), anywhere.
  int groups = sc.packed / 3;
  for (int attempt = 0; attempt < 5000 && groups > 0; ++attempt) {
    const cv::Point2d c(rng.uniform(4.0, 56.0), rng.uniform(4.0, 56.0));
    const double a0 = rng.uniform(0.0, 2 * CV_PI);
    const double rr = (2 * r + 0.3) / std::sqrt(3.0);
    std::vector<cv::Point2d> trio;
    for (int k = 0; k < 3; ++k) {
      const double a = a0 + 2 * CV_PI * k / 3;
      trio.push_back(c + rr * cv::Point2d(std::cos(a), std::sin(a)));
    }
    if (!std::all_of(trio.begin(), trio.end(), [&](cv::Point2d p) { return clear_of(p, 1.0); }))
      continue;
    centres.insert(centres.end(), trio.begin(), trio.end());
    --groups;
  }
  for (int attempt = 0; attempt < 20000 && static_cast<int>(centres.size()) < sc.bases; ++attempt) {
    const cv::Point2d c(rng.uniform(0.0, s.table.width_in), rng.uniform(0.0, s.table.depth_in));
    if (clear_of(c, 1.0)) centres.push_back(c);
  }
  // Rings are numbered from 0 (the codes farthest apart); square markers from 4 (0–3 are the
  // table's corner markers).
  int id = sc.target != BaseTargetKind::kSquare ? 0 : 4;
  for (const auto& c : centres) {
    SceneBaseSpec b;
    b.id = fmt::format("b{}", id);
    b.marker_id = id++;
    b.target = sc.target;
    b.diameter_in = sc.diameter_in;
    b.height_in = height;
    b.marker_side_in = 0.5 * sc.diameter_in;
    b.figure_height_in = 4.5;
    const auto foot = figure_footprint(b);
    b.marker_offset_in = {0, foot->centre_in.y + foot->radius_in + b.marker_side_in / 2 + 0.01};
    const double facing = sc.facing_spread_deg >= 360
                              ? rng.uniform(0.0, 360.0)
                              : -90 + rng.uniform(-0.5, 0.5) * sc.facing_spread_deg;
    b.colour = cv::Scalar(rng.uniform(20, 120), rng.uniform(20, 120), rng.uniform(20, 120));
    b.path.push_back({0, c.x, c.y, facing});
    if (sc.posed) {
      b.figure_style = FigureStyle::kPosed;
      b.figure_variant = static_cast<std::uint32_t>(rng.uniform(0, 1 << 30));
    }
    s.bases.push_back(b);
  }
  // Dice and the lamp are drawn after the bases, so a table's bases stand where they stand
  // without them.
  if (sc.dice_max > 0) {
    for (auto& b : s.bases)
      put_dice_on(b, rng.uniform(sc.dice_min, sc.dice_max + 1), rng);
  }
  if (sc.lamp) {
    // At one side, 30–45 degrees above the table's middle seen from there, 45–60" away.
    const double side = rng.uniform(0, 2) == 0 ? -1.0 : 1.0;
    const double el = rng.uniform(30.0, 45.0) * CV_PI / 180;
    const double far = rng.uniform(45.0, 60.0);
    const double along = rng.uniform(-15.0, 15.0);
    s.look.lamp.on = true;
    s.look.lamp.at_in = {s.table.width_in / 2 + side * far * std::cos(el),
                         s.table.depth_in / 2 + along, far * std::sin(el)};
  }
  return s;
}

std::string image_set_stem(const CoverageScenario& sc, int seed) {
  std::string stem = fmt::format("{}-seed{}", sc.name, seed);
  std::replace(stem.begin(), stem.end(), ' ', '_');
  return stem;
}

CoverageTable coverage_table(const CoverageScenario& sc, int seed) {
  CoverageTable out;
  out.spec = coverage_scene(sc, static_cast<std::uint64_t>(seed));
  SceneRenderer renderer(out.spec);
  if (sc.image_set.empty()) {
    out.clean = renderer.render(0, &out.truth);
  } else {
    const std::string stem = image_set_stem(sc, seed);
    if (sc.povray_render &&
        !std::filesystem::exists(std::filesystem::path(sc.image_set) / (stem + ".jpg")))
      render_with_povray(out.spec, sc.image_set, stem);
    out.clean = read_image_set_picture(out.spec, sc.image_set, stem);
    out.truth = renderer.truth_at(0, 0);
  }
  out.degradation = sc.degradation;
  out.degradation.seed = out.degradation.seed * 1000 + static_cast<std::uint64_t>(seed);
  return out;
}

CoverageResult run_coverage(const CoverageScenario& sc) {
  const int threads = cv::getNumThreads();
  cv::setNumThreads(1);
  CoverageResult out;
  out.name = sc.name;
  std::vector<double> centre_err;
  std::vector<double> gap_err;
  std::vector<double> ours_ms;
  std::vector<double> plain_ms;
  for (int seed = sc.first_seed; seed < sc.first_seed + sc.seeds; ++seed) {
    const CoverageTable table = coverage_table(sc, seed);
    const SceneSpec& spec = table.spec;
    const FrameTruth& truth = table.truth;
    const calib::TablePlane plane = misjudged_plane(spec, sc.lens_error, seed);
    DetectorOptions detector;
    detector.refine_apriltag = sc.refine_apriltag;
    // The table's corner markers where the calibration put them (as `duels calibrate table`
    // stores them): no ring is looked for there.
    RingIdentityOptions rings;
    rings.table_markers_in = table_markers_of(scene_corner_markers(spec));
    Pipeline pipeline(plane, base_map_from_scene(spec), detector, {}, {}, rings);
    // Markerless: every base named once by its true place at the first frame, as a player
    // would (`duels track --markerless --name b4@X,Y`); the name gives the truth's id back.
    std::optional<MarkerlessPipeline> markerless;
    std::map<std::string, int> id_of_name;
    if (sc.markerless) {
      DiscOptions discs;
      discs.radius_in = sc.diameter_in / 2;
      discs.top_height_in = spec.bases.empty() ? 0.75 : spec.bases.front().height_in;
      discs.table_markers_in = rings.table_markers_in;
      markerless.emplace(plane, discs);
      for (const auto& t : truth.bases) {
        const std::string name = fmt::format("b{}", t.marker_id);
        markerless->name_near(t.centre_in, name);
        id_of_name[name] = t.marker_id;
      }
    }
    const auto dict = calib::dictionary_by_name(spec.dictionary);
    const auto params = cv::aruco::DetectorParameters::create();
    if (sc.refine_apriltag) params->cornerRefinementMethod = cv::aruco::CORNER_REFINE_APRILTAG;
    std::map<int, cv::Point2d> where;
    for (const auto& t : truth.bases)
      where[t.marker_id] = t.centre_in;
    std::set<int> switched;
    // Bases reported (seen in that frame) more than 1" from their truth in any frame.
    std::set<int> off;
    std::ptrdiff_t false_rings = 0;  // unnamed rings where no base stands, frame by frame
    // Frames of the last `steady_frames` in which each base was named at its place.
    std::map<int, int> steady;
    const int steady_from = sc.frames - std::clamp(sc.steady_frames, 1, sc.frames);
    TableState last;
    std::vector<RingSighting> last_rings;
    for (int f = 0; f < sc.frames; ++f) {
      const cv::Mat frame = degrade(table.clean, table.degradation, f);
      if (f == 0 && !sc.save_dir.empty()) {
        const std::string file = sc.save_dir + "/" + image_set_stem(sc, seed) + ".png";
        if (!cv::imwrite(file, frame)) {
          throw DataException({file, 0, "--save", "a folder that exists and can be written"});
        }
      }
      plain_ms.push_back(time_ms([&] {
        cv::Mat gray;
        cv::cvtColor(frame, gray, cv::COLOR_BGR2GRAY);
        std::vector<std::vector<cv::Point2f>> corners;
        std::vector<int> ids;
        cv::aruco::detectMarkers(gray, dict, corners, ids, params);
      }));
      PipelineResult r;
      if (markerless) {
        ours_ms.push_back(time_ms([&] { r.state = markerless->process(frame, f, f / spec.fps); }));
        // Bases the player did not name (false discs) get ids no truth has.
        for (auto& b : r.state.bases) {
          const auto it = id_of_name.find(b.figure);
          b.marker_id = it != id_of_name.end() ? it->second : -1 - b.marker_id;
        }
        for (const auto& c : markerless->last_discs()) {
          RingSighting s;
          s.centre_in = c;
          r.rings.push_back(s);
        }
      } else {
        ours_ms.push_back(time_ms([&] { r = pipeline.process(frame, f, f / spec.fps); }));
      }
      for (const auto& b : r.state.bases) {
        if (b.stale() || !where.count(b.marker_id)) continue;
        if (cv::norm(b.centre_in - where[b.marker_id]) <= 1.0) {
          if (f >= steady_from) ++steady[b.marker_id];
          continue;
        }
        off.insert(b.marker_id);
        int on = -1;
        for (const auto& [other, c] : where) {
          if (other != b.marker_id && cv::norm(b.centre_in - c) <= 1.0) {
            switched.insert(b.marker_id);
            on = other;
          }
        }
        if (sc.explain) {
          *sc.explain << fmt::format(
              "seed {} frame {}: b{} reported at ({:.2f}, {:.2f}), {:.2f}\" from its place{}, "
              "pixel {}\n",
              seed, f, b.marker_id, b.centre_in.x, b.centre_in.y,
              cv::norm(b.centre_in - where[b.marker_id]),
              on >= 0 ? fmt::format(", on b{}'s", on) : "", [&] {
                const auto px = plane.table_to_image({b.centre_in.x, b.centre_in.y, 0.75});
                return px ? fmt::format("({:.0f}, {:.0f})", px->x, px->y) : std::string("-");
              }());
        }
      }
      for (const UnnamedBase& u : r.state.unnamed) {
        if (std::any_of(truth.bases.begin(), truth.bases.end(), [&](const BaseTruth& t) {
              return cv::norm(t.centre_in - u.centre_in) <= 1.0;
            })) {
          continue;
        }
        ++false_rings;
        if (sc.explain) {
          const auto px = plane.table_to_image({u.centre_in.x, u.centre_in.y, 0.75});
          *sc.explain << fmt::format("seed {} frame {}: false ring at ({:.2f}, {:.2f}), pixel {}\n",
                                     seed, f, u.centre_in.x, u.centre_in.y,
                                     px ? fmt::format("({:.0f}, {:.0f})", px->x, px->y) : "-");
        }
      }
      last = r.state;
      last_rings = r.rings;
    }
    out.identity_switches += static_cast<int>(switched.size());
    out.off_by_1in += static_cast<int>(off.size());
    out.false_rings += static_cast<int>(false_rings);
    out.unnamed += static_cast<int>(std::count_if(
        last.bases.begin(), last.bases.end(),
        [&](const TrackedBase& b) { return !b.stale() && !where.count(b.marker_id); }));
    std::vector<std::pair<cv::Point2d, cv::Point2d>> pairs;  // (reported, truth) of found bases
    for (const auto& t : truth.bases) {
      const int third =
          std::clamp(static_cast<int>(t.centre_in.y / (spec.table.depth_in / 3)), 0, 2);
      ++out.all[static_cast<std::size_t>(third)];
      if (steady[t.marker_id] == sc.frames - steady_from)
        ++out.every_frame[static_cast<std::size_t>(third)];
      if (t.ring_visible < 0.5) ++out.half_hidden[static_cast<std::size_t>(third)];
      if (std::any_of(last_rings.begin(), last_rings.end(), [&](const RingSighting& s) {
            return cv::norm(s.centre_in - t.centre_in) <= 0.25;
          })) {
        ++out.located[static_cast<std::size_t>(third)];
      }
      const auto it = std::find_if(last.bases.begin(), last.bases.end(), [&](const TrackedBase& b) {
        return b.marker_id == t.marker_id && !b.stale();
      });
      if (it == last.bases.end()) {
        if (sc.explain) {
          const bool fitted = std::any_of(
              last_rings.begin(), last_rings.end(),
              [&](const RingSighting& s) { return cv::norm(s.centre_in - t.centre_in) <= 0.25; });
          *sc.explain << fmt::format(
              "seed {}: b{} at ({:.2f}, {:.2f}) not named at the last frame ({}, {:.0f} % of its "
              "code band in view)\n",
              seed, t.marker_id, t.centre_in.x, t.centre_in.y,
              fitted ? "its rim fitted" : "its rim not fitted", 100 * t.ring_visible);
        }
        continue;
      }
      ++out.found[static_cast<std::size_t>(third)];
      const double e = cv::norm(it->centre_in - t.centre_in);
      centre_err.push_back(e);
      pairs.emplace_back(it->centre_in, t.centre_in);
    }
    for (std::size_t a = 0; a < pairs.size(); ++a) {
      for (std::size_t b = a + 1; b < pairs.size(); ++b) {
        const double est = cv::norm(pairs[a].first - pairs[b].first);
        const double tru = cv::norm(pairs[a].second - pairs[b].second);
        gap_err.push_back(
            std::abs(est - tru));  // the radii are known: gap error = centre-line error
      }
    }
  }
  out.centre_p50_in = percentile(centre_err, 0.5);
  out.centre_p95_in = percentile(centre_err, 0.95);
  out.gap_p50_in = percentile(gap_err, 0.5);
  out.gap_p95_in = percentile(gap_err, 0.95);
  out.pipeline_ms = median(ours_ms);
  out.detect_markers_ms = median(plain_ms);
  cv::setNumThreads(threads);
  return out;
}

std::vector<CoverageScenario> standard_coverage_scenarios(BaseTargetKind target) {
  std::vector<CoverageScenario> out;
  const auto add = [&](std::string name, cv::Size size, double hfov, double distance,
                       double elevation, double blur) {
    CoverageScenario s;
    s.name = std::move(name);
    s.size = size;
    s.hfov_deg = hfov;
    s.distance_in = distance;
    s.elevation_deg = elevation;
    s.target = target;
    s.degradation.blur_sigma_px = blur;
    out.push_back(s);
  };
  const cv::Size hd(1280, 720);
  const cv::Size fhd(1920, 1080);
  add("720p 70deg 61in 45deg blur1.0", hd, 70, 61, 45, 1.0);
  add("720p 60deg 75in 40deg blur1.2", hd, 60, 75, 40, 1.2);
  add("720p 75deg 55in 50deg blur1.2", hd, 75, 55, 50, 1.2);
  add("1080p 65deg 61in 45deg blur1.2", fhd, 65, 61, 45, 1.2);
  add("1080p 60deg 75in 35deg blur1.2", fhd, 60, 75, 35, 1.2);
  return out;
}

}  // namespace duels::vision
