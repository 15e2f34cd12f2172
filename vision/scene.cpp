#include "vision/scene.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "calib/synthetic.hpp"
#include "common/yaml_read.hpp"

namespace duels::vision {
namespace {

// Reads an optional [a, b, …] list of `count` numbers; records an error when malformed.
std::optional<std::vector<double>> numbers(FieldReader& r, const YAML::Node& map,
                                           const std::string& key, const std::string& path,
                                           std::size_t min_count, std::size_t max_count,
                                           bool required) {
  const YAML::Node node = map.IsMap() ? map[key] : YAML::Node();
  const std::string field = join_path(path, key);
  if (!node.IsDefined() || node.IsNull()) {
    if (required) r.error(node, field, "a list of numbers (it is missing)", map);
    return std::nullopt;
  }
  const std::string expected =
      min_count == max_count ? fmt::format("a list of {} numbers", min_count)
                             : fmt::format("a list of {} to {} numbers", min_count, max_count);
  if (!node.IsSequence() || node.size() < min_count || node.size() > max_count) {
    r.error(node, field, expected, map);
    return std::nullopt;
  }
  std::vector<double> out;
  for (const auto& item : node) {
    double v = 0;
    if (!item.IsScalar() || !YAML::convert<double>::decode(item, v) || !std::isfinite(v)) {
      r.error(item, field, expected, map);
      return std::nullopt;
    }
    out.push_back(v);
  }
  return out;
}

std::optional<bool> boolean(FieldReader& r, const YAML::Node& map, const std::string& key,
                            const std::string& path) {
  const YAML::Node node = map.IsMap() ? map[key] : YAML::Node();
  if (!node.IsDefined() || node.IsNull()) return std::nullopt;
  bool v = false;
  if (!node.IsScalar() || !YAML::convert<bool>::decode(node, v)) {
    r.error(node, join_path(path, key), "true or false", map);
    return std::nullopt;
  }
  return v;
}

}  // namespace

int SceneSpec::frame_count() const {
  return std::max(1, static_cast<int>(std::floor(duration_s * fps + 1e-9)));
}

calib::MarkerLayout scene_corner_markers(const SceneSpec& spec) {
  if (spec.corner_marker_side_in <= 0) return calib::MarkerLayout{spec.dictionary, {}};
  return calib::corner_marker_layout(spec.table, spec.corner_marker_side_in, 0.5, spec.dictionary,
                                     0);
}

BasePose base_pose_at(const SceneBaseSpec& base, double t_s) {
  if (base.path.empty()) return {};
  const auto& p = base.path;
  if (t_s <= p.front().t_s) return {{p.front().x_in, p.front().y_in}, p.front().angle_deg};
  for (std::size_t i = 1; i < p.size(); ++i) {
    if (t_s <= p[i].t_s) {
      const double span = p[i].t_s - p[i - 1].t_s;
      const double f = span > 0 ? (t_s - p[i - 1].t_s) / span : 1.0;
      return {{p[i - 1].x_in + f * (p[i].x_in - p[i - 1].x_in),
               p[i - 1].y_in + f * (p[i].y_in - p[i - 1].y_in)},
              p[i - 1].angle_deg + f * (p[i].angle_deg - p[i - 1].angle_deg)};
    }
  }
  return {{p.back().x_in, p.back().y_in}, p.back().angle_deg};
}

namespace {
constexpr std::array<std::pair<DieColour, const char*>, 6> kDieColours{{
    {DieColour::kWhite, "white"},
    {DieColour::kYellow, "yellow"},
    {DieColour::kBlue, "blue"},
    {DieColour::kGreen, "green"},
    {DieColour::kBlack, "black"},
    {DieColour::kRed, "red"},
}};
}  // namespace

std::optional<DieColour> die_colour_by_name(const std::string& name) {
  for (const auto& [c, n] : kDieColours) {
    if (name == n) return c;
  }
  return std::nullopt;
}

const char* die_colour_name(DieColour colour) {
  for (const auto& [c, n] : kDieColours) {
    if (c == colour) return n;
  }
  return "white";
}

RingStyle ring_style_of(BaseTargetKind kind) {
  return kind == BaseTargetKind::kRing2 ? RingStyle::kTwoBand : RingStyle::kOneBand;
}

std::optional<FigureFootprint> figure_footprint(const SceneBaseSpec& base) {
  if (base.figure_height_in <= 0) return std::nullopt;
  const double r = base.diameter_in / 2;
  const double body = base.figure_radius_in > 0 ? base.figure_radius_in
                                                : std::clamp(0.18 * base.diameter_in, 0.2, 0.6);
  // Standing at the back, 0.05" in from the rim (never past the centre on a tiny base).
  return FigureFootprint{{0, -std::max(0.0, r - body - 0.05)}, body};
}

std::optional<MarkerPlacementProblem> marker_placement_problem(const SceneBaseSpec& base) {
  const double r = base.diameter_in / 2;
  const double h = base.marker_side_in / 2;
  const cv::Point2d o = base.marker_offset_in;
  if (base.figure_radius_in > r - 0.05 + 1e-9) {
    return MarkerPlacementProblem{
        "figure_radius", fmt::format("a figure radius that fits on a {:g}\" base (at most {:g}\")",
                                     base.diameter_in, r - 0.05)};
  }
  // The square's farthest corner from the base centre must lie on the top.
  if (std::hypot(std::abs(o.x) + h, std::abs(o.y) + h) > r + 1e-9) {
    const bool offset_blamed = std::hypot(o.x, o.y) > 1e-9 && h * std::sqrt(2.0) <= r;
    return MarkerPlacementProblem{
        offset_blamed ? "marker_offset" : "marker_side",
        fmt::format(
            "a marker (side {:g}\", offset [{:g}, {:g}]) that fits on the {:g}\" base's top",
            base.marker_side_in, o.x, o.y, base.diameter_in)};
  }
  if (auto f = figure_footprint(base)) {
    // Distance from the figure's footprint disc to the marker square.
    const double dx = std::max(0.0, std::abs(f->centre_in.x - o.x) - h);
    const double dy = std::max(0.0, std::abs(f->centre_in.y - o.y) - h);
    if (std::hypot(dx, dy) < f->radius_in - 1e-9) {
      const double need = f->centre_in.y + f->radius_in + h;  // offset that just clears, x = 0
      return MarkerPlacementProblem{
          "marker_offset",
          fmt::format("a marker clear of the figure standing at the back of the base (its body "
                      "reaches {:g}\" from the centre; with x = 0 the offset's y must be at least "
                      "{:.2f}\"; or set figure_radius or figure_height: 0)",
                      f->radius_in - f->centre_in.y, need)};
    }
  }
  return std::nullopt;
}

calib::Pose camera_pose_over_table(cv::Point2d target_in, double distance_in, double elevation_deg,
                                   double azimuth_deg) {
  const double el = elevation_deg * CV_PI / 180;
  const double az = azimuth_deg * CV_PI / 180;
  // Azimuth 0: the camera stands behind the player's edge (−y) looking toward +y.
  const cv::Vec3d back(std::sin(az), -std::cos(az), 0);
  const cv::Vec3d target(target_in.x, target_in.y, 0);
  const cv::Vec3d eye =
      target + distance_in * (std::cos(el) * back + cv::Vec3d(0, 0, std::sin(el)));
  // With "up" = +z the far edge of the table is at the top of the image.
  return calib::look_at(eye, target, cv::Vec3d(0, 0, 1));
}

SceneSpec parse_scene_spec(const std::string& text, const std::string& file) {
  const YAML::Node root = parse_yaml_text(text, file);
  FieldReader r(file);
  SceneSpec s;
  s.name = std::filesystem::path(file).stem().string();
  if (!r.expect_map(root, "",
                    {"schema_version", "name", "seed", "fps", "duration", "table", "camera", "look",
                     "dictionary", "bases", "hands"})) {
    r.throw_if_errors();
  }
  r.schema_version(root, kSceneSchemaVersion);
  if (auto v = r.text(root, "name", "", false)) s.name = *v;
  if (auto v = r.integer(root, "seed", "", false, 0, 2147483647))
    s.seed = static_cast<std::uint64_t>(*v);
  if (auto v = r.number(root, "fps", "", false, 0.1, 240)) s.fps = *v;
  if (auto v = r.number(root, "duration", "", false, 0, 3600)) s.duration_s = *v;
  if (auto v = r.text(root, "dictionary", "", false)) {
    if (!calib::dictionary_by_name(*v)) {
      r.error(root["dictionary"], "dictionary", "an ArUco dictionary name such as DICT_4X4_50",
              root);
    } else {
      s.dictionary = *v;
    }
  }
  const YAML::Node table = r.mapping(root, "table", "", true);
  if (table.IsMap() &&
      r.expect_map(table, "table", {"width", "depth", "felt_grey", "corner_markers"})) {
    if (auto v = r.number(table, "width", "table", true, 6, 240)) s.table.width_in = *v;
    if (auto v = r.number(table, "depth", "table", true, 6, 240)) s.table.depth_in = *v;
    if (auto v = r.integer(table, "felt_grey", "table", false, 0, 255)) s.look.felt_grey = *v;
    if (auto v = r.number(table, "corner_markers", "table", false, 0, 12))
      s.corner_marker_side_in = *v;
  }
  const YAML::Node cam = r.mapping(root, "camera", "", true);
  if (cam.IsMap() && r.expect_map(cam, "camera",
                                  {"width", "height", "fx", "fy", "cx", "cy", "dist", "distance",
                                   "elevation", "azimuth", "target"})) {
    const int w = r.integer(cam, "width", "camera", true, 64, 8192).value_or(1920);
    const int h = r.integer(cam, "height", "camera", true, 64, 8192).value_or(1080);
    const double fx = r.number(cam, "fx", "camera", true, 10, 1e5).value_or(1000);
    const double fy = r.number(cam, "fy", "camera", false, 10, 1e5).value_or(fx);
    const double cx = r.number(cam, "cx", "camera", false, 0, w).value_or((w - 1) / 2.0);
    const double cy = r.number(cam, "cy", "camera", false, 0, h).value_or((h - 1) / 2.0);
    s.camera.image_size = {w, h};
    s.camera.camera_matrix = cv::Matx33d(fx, 0, cx, 0, fy, cy, 0, 0, 1);
    if (auto d = numbers(r, cam, "dist", "camera", 4, 5, false)) {
      for (double k : *d) {
        if (std::abs(k) > 2)
          r.error(cam["dist"], "camera.dist", "distortion coefficients within ±2", cam);
      }
      s.camera.dist = *d;
    }
    const double distance = r.number(cam, "distance", "camera", true, 5, 1000).value_or(51);
    const double elevation = r.number(cam, "elevation", "camera", false, 10, 90).value_or(45);
    const double azimuth = r.number(cam, "azimuth", "camera", false, -360, 360).value_or(0);
    cv::Point2d target(s.table.width_in / 2, s.table.depth_in / 2);
    if (auto t = numbers(r, cam, "target", "camera", 2, 2, false)) target = {(*t)[0], (*t)[1]};
    // Looking straight down, "up" is undefined: nudge the elevation below 90.
    s.table_to_camera =
        camera_pose_over_table(target, distance, std::min(elevation, 89.9), azimuth);
  }
  const YAML::Node look = r.mapping(root, "look", "", false);
  if (look.IsMap() && r.expect_map(look, "look",
                                   {"supersample", "noise", "blur", "motion_blur", "exposure",
                                    "lighting", "lamp"})) {
    if (auto v = r.integer(look, "supersample", "look", false, 1, 4)) s.look.supersample = *v;
    if (auto v = r.number(look, "noise", "look", false, 0, 50)) s.look.noise_sigma = *v;
    if (auto v = r.number(look, "blur", "look", false, 0, 10)) s.look.blur_sigma_px = *v;
    if (auto v = boolean(r, look, "motion_blur", "look")) s.look.motion_blur = *v;
    if (auto v = r.number(look, "exposure", "look", false, 0, 1)) s.look.exposure_s = *v;
    if (auto v = r.number(look, "lighting", "look", false, 0, 0.9)) s.look.lighting = *v;
    const YAML::Node lamp = r.mapping(look, "lamp", "look", false);
    if (look["lamp"].IsDefined() && !look["lamp"].IsNull() && lamp.IsMap() &&
        r.expect_map(lamp, "look.lamp", {"at", "radius", "strength", "ambient"})) {
      Lamp& l = s.look.lamp;
      l.on = true;
      if (auto a = numbers(r, lamp, "at", "look.lamp", 3, 3, true)) {
        l.at_in = {(*a)[0], (*a)[1], (*a)[2]};
        if (l.at_in.z < 2) {
          r.error(lamp["at"], "look.lamp.at", "a lamp at least 2\" above the table (z)", lamp);
        }
      }
      if (auto v = r.number(lamp, "radius", "look.lamp", false, 0, 24)) l.radius_in = *v;
      if (auto v = r.number(lamp, "strength", "look.lamp", false, 0, 3)) l.strength = *v;
      if (auto v = r.number(lamp, "ambient", "look.lamp", false, 0, 1.5)) l.ambient = *v;
    }
  }
  const YAML::Node bases = r.sequence(root, "bases", "", true);
  for (std::size_t i = 0; i < bases.size(); ++i) {
    const YAML::Node b = bases[i];
    const std::string path = index_path("bases", i);
    if (!r.expect_map(b, path,
                      {"id", "figure", "marker", "target", "diameter", "height", "marker_side",
                       "marker_offset", "figure_height", "figure_radius", "figure_style", "colour",
                       "path", "dice"})) {
      continue;
    }
    SceneBaseSpec base;
    base.id = r.text(b, "id", path, true).value_or("");
    base.figure = r.text(b, "figure", path, false).value_or("");
    base.marker_id = r.integer(b, "marker", path, true, 0, 999).value_or(0);
    if (auto t = r.text(b, "target", path, false)) {
      if (*t == "ring") {
        base.target = BaseTargetKind::kRing;
      } else if (*t == "ring2") {
        base.target = BaseTargetKind::kRing2;
      } else if (*t != "square") {
        r.error(b["target"], join_path(path, "target"), "square, ring or ring2", b);
      }
    }
    base.diameter_in = r.number(b, "diameter", path, false, 0.5, 12).value_or(2.0);
    base.height_in = r.number(b, "height", path, false, 0, 6).value_or(0.75);
    base.marker_side_in = r.number(b, "marker_side", path, false, 0.2, 12).value_or(1.0);
    base.figure_height_in = r.number(b, "figure_height", path, false, 0, 24).value_or(4.5);
    base.figure_radius_in = r.number(b, "figure_radius", path, false, 0, 6).value_or(0);
    if (auto o = numbers(r, b, "marker_offset", path, 2, 2, false)) {
      base.marker_offset_in = {(*o)[0], (*o)[1]};
    } else if (auto f = figure_footprint(base)) {
      // Not given: the marker sits just in front of the figure (centred when there is room).
      base.marker_offset_in = {
          0, std::max(0.0, f->centre_in.y + f->radius_in + base.marker_side_in / 2 + 0.01)};
    }
    if (auto c = numbers(r, b, "colour", path, 3, 3, false))
      base.colour = cv::Scalar((*c)[0], (*c)[1], (*c)[2]);
    if (auto st = r.text(b, "figure_style", path, false)) {
      if (*st == "posed") {
        base.figure_style = FigureStyle::kPosed;
        base.figure_variant = static_cast<std::uint32_t>(i);
      } else if (*st != "rough") {
        r.error(b["figure_style"], join_path(path, "figure_style"), "rough or posed", b);
      }
    }
    const YAML::Node dice = r.sequence(b, "dice", path, false);
    for (std::size_t k = 0; k < dice.size(); ++k) {
      const YAML::Node d = dice[k];
      const std::string dpath = index_path(join_path(path, "dice"), k);
      if (!r.expect_map(d, dpath,
                        {"at", "sides", "size", "yaw", "colour", "face", "t_on", "t_off"}))
        continue;
      DieSpec die;
      if (auto a = numbers(r, d, "at", dpath, 2, 2, true)) die.at_in = {(*a)[0], (*a)[1]};
      if (auto v = r.integer(d, "sides", dpath, false, 4, 12)) {
        if (*v != 4 && *v != 6 && *v != 8 && *v != 10 && *v != 12) {
          r.error(d["sides"], join_path(dpath, "sides"), "4, 6, 8, 10 or 12", d);
        }
        die.sides = *v;
      }
      if (auto v = r.number(d, "size", dpath, false, 0.2, 2)) die.size_in = *v;
      if (auto v = r.number(d, "yaw", dpath, false, -3600, 3600)) die.yaw_deg = *v;
      if (auto v = r.text(d, "colour", dpath, false)) {
        if (auto c = die_colour_by_name(*v)) {
          die.colour = *c;
        } else {
          r.error(d["colour"], join_path(dpath, "colour"),
                  "a die colour: white, yellow, blue, green, black or red", d);
        }
      }
      if (auto v = r.integer(d, "face", dpath, false, 1, 12)) {
        if (*v > die.sides)
          r.error(d["face"], join_path(dpath, "face"), "a face from 1 to the die's sides", d);
        die.face = *v;
      }
      if (auto v = r.number(d, "t_on", dpath, false, 0, 3600)) die.t_on_s = *v;
      if (auto v = r.number(d, "t_off", dpath, false, 0, 3600)) die.t_off_s = *v;
      if (die.t_off_s <= die.t_on_s)
        r.error(d["t_off"], join_path(dpath, "t_off"), "a time after t_on", d);
      if (std::hypot(die.at_in.x, die.at_in.y) > base.diameter_in / 2) {
        r.error(d["at"], join_path(dpath, "at"),
                fmt::format("a place on the base's top (within {:g}\" of its centre)",
                            base.diameter_in / 2),
                d);
      }
      base.dice.push_back(die);
    }
    if (auto problem = marker_placement_problem(base)) {
      const YAML::Node at = b[problem->field].IsDefined() ? b[problem->field] : b;
      r.error(at, join_path(path, problem->field), problem->expected, b);
    }
    const YAML::Node keys = r.sequence(b, "path", path, true);
    Keyframe last;
    for (std::size_t k = 0; k < keys.size(); ++k) {
      const YAML::Node kf = keys[k];
      const std::string kpath = index_path(join_path(path, "path"), k);
      if (!r.expect_map(kf, kpath, {"t", "x", "y", "angle"})) continue;
      Keyframe f = last;
      f.t_s = r.number(kf, "t", kpath, true, 0, 3600).value_or(0);
      f.x_in = r.number(kf, "x", kpath, k == 0, -1000, 1000).value_or(last.x_in);
      f.y_in = r.number(kf, "y", kpath, k == 0, -1000, 1000).value_or(last.y_in);
      f.angle_deg = r.number(kf, "angle", kpath, false, -3600, 3600).value_or(last.angle_deg);
      if (k > 0 && f.t_s < last.t_s)
        r.error(kf["t"], join_path(kpath, "t"), "times in increasing order", kf);
      base.path.push_back(f);
      last = f;
    }
    if (s.corner_marker_side_in > 0 && base.marker_id < 4 &&
        base.target == BaseTargetKind::kSquare) {
      r.error(b["marker"], join_path(path, "marker"),
              "a marker id from 4 up (0-3 are the table's corner markers)", b);
    }
    for (const auto& other : s.bases) {
      if (other.id == base.id)
        r.error(b["id"], join_path(path, "id"), "an id no other base has", b);
      if (other.marker_id == base.marker_id) {
        r.error(b["marker"], join_path(path, "marker"), "a marker id no other base has", b);
      }
    }
    s.bases.push_back(std::move(base));
  }
  const YAML::Node hands = r.sequence(root, "hands", "", false);
  for (std::size_t i = 0; i < hands.size(); ++i) {
    const YAML::Node h = hands[i];
    const std::string path = index_path("hands", i);
    if (!r.expect_map(h, path, {"t0", "t1", "from", "to", "height", "radius"})) continue;
    HandSweep hand;
    hand.t0_s = r.number(h, "t0", path, true, 0, 3600).value_or(0);
    hand.t1_s = r.number(h, "t1", path, true, 0, 3600).value_or(1);
    if (hand.t1_s <= hand.t0_s) r.error(h["t1"], join_path(path, "t1"), "a time after t0", h);
    if (auto p = numbers(r, h, "from", path, 2, 2, true)) hand.from_in = {(*p)[0], (*p)[1]};
    if (auto p = numbers(r, h, "to", path, 2, 2, true)) hand.to_in = {(*p)[0], (*p)[1]};
    hand.height_in = r.number(h, "height", path, false, 0.5, 30).value_or(4);
    hand.radius_in = r.number(h, "radius", path, false, 0.3, 6).value_or(1.6);
    s.hands.push_back(hand);
  }
  r.throw_if_errors();
  return s;
}

SceneSpec load_scene_spec(const std::string& path) {
  return parse_scene_spec(read_text_file(path, "a readable scene file"), path);
}

SceneSpec load_named_scene(const std::string& name_or_path, const std::string& assets_dir) {
  const bool is_file = name_or_path.find('/') != std::string::npos ||
                       name_or_path.ends_with(".yaml") || name_or_path.ends_with(".yml");
  if (is_file) return load_scene_spec(name_or_path);
  return load_scene_spec(assets_dir + "/scenes/" + name_or_path + ".yaml");
}

}  // namespace duels::vision
