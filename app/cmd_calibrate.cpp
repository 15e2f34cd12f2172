// `duels calibrate` — camera intrinsics from photos, a video or a live camera;
// `duels calibrate table` — the table plane in inches; `duels calibrate map` — pixels <-> inches.
// A thin layer over calib/: parse flags, read inputs, call the library, print, write the file
// only when everything succeeded.
#include <fmt/format.h>

#include <opencv2/imgcodecs.hpp>

#include <algorithm>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>

#include "app/command.hpp"
#include "app/length_option.hpp"
#include "calib/camera_file.hpp"
#include "calib/coverage.hpp"
#include "calib/folder.hpp"
#include "calib/image_source.hpp"
#include "calib/layout_file.hpp"
#include "calib/live.hpp"
#include "calib/table.hpp"
#include "calib/table_tracker.hpp"
#include "calib/units.hpp"
#include "common/error.hpp"

namespace duels::app {
namespace {

// Board options shared by `calibrate` and `calibrate table --board`.
struct PatternOptions {
  std::string pattern = "chessboard";
  int cols = 0;
  int rows = 0;
  std::string square;
  std::string marker;
  std::string dict = "DICT_5X5_100";
};

void add_pattern_options(CLI::App* cmd, PatternOptions& o) {
  cmd->add_option("--pattern", o.pattern,
                  "chessboard, charuco, circles (symmetric grid) or acircles (asymmetric grid)")
      ->capture_default_str();
  cmd->add_option("--cols", o.cols,
                  "chessboard: inner corners across (where four squares meet); charuco: squares "
                  "across; circles/acircles: circles in one row");
  cmd->add_option("--rows", o.rows,
                  "chessboard: inner corners down; charuco: squares down; circles/acircles: rows");
  cmd->add_option("--square", o.square,
                  "square size with unit, e.g. 25mm or 1in; circles: centre spacing in a row; "
                  "acircles: spacing between rows (OpenCV's convention)");
  cmd->add_option("--marker", o.marker, "charuco: marker size with unit, e.g. 18mm");
  cmd->add_option("--dict", o.dict, "charuco: ArUco dictionary")->capture_default_str();
}

calib::PatternSpec pattern_from(const PatternOptions& o) {
  calib::PatternSpec spec;
  const auto kind = calib::parse_pattern_kind(o.pattern);
  if (!kind) {
    throw UsageError(
        fmt::format("--pattern is chessboard, charuco, circles or acircles, not '{}'", o.pattern));
  }
  spec.kind = *kind;
  if (o.cols <= 0 || o.rows <= 0) {
    switch (spec.kind) {
      case calib::PatternKind::kChessboard:
        throw UsageError("give the board's inner corners with --cols and --rows (e.g. 9 and 6)");
      case calib::PatternKind::kCharuco:
        throw UsageError("give the board's squares with --cols and --rows (e.g. 5 and 7)");
      case calib::PatternKind::kCircles:
      case calib::PatternKind::kAsymmetricCircles:
        throw UsageError(
            "give the circles in one row with --cols and the rows with --rows (e.g. 4 and 11)");
    }
  }
  spec.cols = o.cols;
  spec.rows = o.rows;
  if (o.square.empty()) {
    throw UsageError(calib::is_circle_grid(spec.kind)
                         ? "give the circle spacing with --square, e.g. 20mm"
                         : "give the square size with --square, e.g. 25mm");
  }
  spec.square_mm = length_mm(o.square, "--square");
  if (spec.kind == calib::PatternKind::kCharuco) {
    if (o.marker.empty()) throw UsageError("a ChArUco board needs --marker, e.g. 18mm");
    spec.marker_mm = length_mm(o.marker, "--marker");
    spec.dictionary = o.dict;
  }
  if (const auto bad = calib::validate(spec)) throw UsageError(*bad);
  return spec;
}

nlohmann::json matrix_json(const cv::Matx33d& k) {
  nlohmann::json a = nlohmann::json::array();
  for (int r = 0; r < 3; ++r) {
    for (int c = 0; c < 3; ++c)
      a.push_back(k(r, c));
  }
  return a;
}

// Darker characters for cells with more captured corners.
constexpr const char* kShades = " .:-=+*#";

std::string coverage_picture(const calib::CoverageMap& map) {
  std::string out;
  for (int r = 0; r < map.rows; ++r) {
    out += "    |";
    for (int c = 0; c < map.cols; ++c) {
      const int n = map.at(c, r);
      out += kShades[std::min(7, n == 0 ? 0 : 1 + n / 8)];
      out += kShades[std::min(7, n == 0 ? 0 : 1 + n / 8)];
    }
    out += "|\n";
  }
  return out;
}

// --- duels calibrate (intrinsics) --------------------------------------------------------

// Flags of `duels calibrate`.
struct CalibrateOptions {
  std::string images;
  std::string video;
  std::optional<int> camera;
  PatternOptions pattern;
  std::string out;
  bool json = false;
  int min_views = 0;
  double std_limit = 0.004;
  int still_frames = 8;
  int max_frames = 0;
};

// Feeds frames to the live calibrator until it is done or the source ends.
calib::CalibrationResult run_live(calib::FrameSource& source, const calib::PatternSpec& spec,
                                  const CalibrateOptions& o,
                                  std::vector<calib::DroppedView>& events) {
  cv::Mat frame;
  if (!source.read(frame)) {
    throw DataException({source.name(), 0, "", "frames (none could be read)"});
  }
  calib::LiveOptions live_options;
  live_options.std_limit = o.std_limit;
  live_options.still_frames = o.still_frames;
  if (o.min_views > 0) live_options.min_views = o.min_views;
  calib::LiveCalibrator live(frame.size(), live_options);
  std::string last_hint;
  int frames = 0;
  do {
    const calib::LiveStatus& s = calib::feed_frame(live, frame, spec);
    ++frames;
    if (!s.event.empty() || s.hint != last_hint) {
      const int width = 20;
      const int filled = static_cast<int>(s.progress * width + 0.5);
      std::cerr << fmt::format("[{:2}/{:2}] {}{} {:3.0f}%  {}{}\n", s.views_accepted,
                               s.views_needed, std::string(static_cast<std::size_t>(filled), '#'),
                               std::string(static_cast<std::size_t>(width - filled), '.'),
                               100 * s.progress, s.event.empty() ? "" : s.event + " | ", s.hint);
      last_hint = s.hint;
    }
    if (s.done) break;
    if (o.max_frames > 0 && frames >= o.max_frames) break;
  } while (source.read(frame));
  const calib::LiveStatus& s = live.status();
  std::cerr << "coverage of the image (views per cell):\n" << coverage_picture(s.coverage);
  if (s.done && s.calibration) return *s.calibration;
  const int needed = live.options().min_views;
  if (static_cast<int>(live.views().size()) < needed) {
    throw DataException({source.name(), 0, "",
                         fmt::format("the board held still in at least {} different places (only "
                                     "{} captured in {} frames)",
                                     needed, live.views().size(), frames)});
  }
  auto result = calib::calibrate(live.views());
  if (!result) throw DataException({source.name(), 0, "", result.error()});
  events.push_back({"(live)", "stopped before the standard deviations reached the limit"});
  return std::move(result).value();
}

void print_calibration(const calib::CameraFile& file, const calib::CalibrationResult& r,
                       const std::vector<calib::Miss>& misses,
                       const std::vector<calib::Miss>& skipped,
                       const std::vector<calib::DroppedView>& notes, const std::string& out,
                       bool json) {
  const calib::Intrinsics& k = r.intrinsics;
  if (json) {
    nlohmann::json j;
    j["rms"] = r.rms_px;
    j["camera_matrix"] = matrix_json(k.camera_matrix);
    j["dist"] = k.dist;
    j["views_used"] = r.view_names.size();
    j["views"] = r.view_names;
    j["per_view_rms"] = r.per_view_rms_px;
    j["image_size"] = {k.image_size.width, k.image_size.height};
    j["std_dev"] = {
        {"fx", r.std_dev[0]}, {"fy", r.std_dev[1]}, {"cx", r.std_dev[2]}, {"cy", r.std_dev[3]}};
    j["dropped"] = nlohmann::json::array();
    for (const auto& d : r.dropped)
      j["dropped"].push_back({{"name", d.name}, {"reason", d.reason}});
    j["no_board"] = nlohmann::json::array();
    for (const auto& m : misses)
      j["no_board"].push_back({{"name", m.name}, {"reason", m.reason}});
    j["skipped"] = nlohmann::json::array();
    for (const auto& m : skipped)
      j["skipped"].push_back({{"name", m.name}, {"reason", m.reason}});
    j["notes"] = nlohmann::json::array();
    for (const auto& n : notes)
      j["notes"].push_back(n.reason);
    j["pattern"] = file.pattern;
    j["out"] = out;
    std::cout << j.dump() << "\n";
    return;
  }
  std::cout << fmt::format("calibrated from {} views ({})\n", r.view_names.size(), file.pattern);
  std::cout << fmt::format(
      "  RMS reprojection error {:.3f} px{}\n", r.rms_px,
      r.rms_px <= 0.5 ? " (good: under 0.5 px)" : " (high: blurred photos or a bent board?)");
  std::cout << fmt::format("  fx {:.2f} ± {:.2f}   fy {:.2f} ± {:.2f} px\n", k.fx(), r.std_dev[0],
                           k.fy(), r.std_dev[1]);
  std::cout << fmt::format("  cx {:.2f} ± {:.2f}   cy {:.2f} ± {:.2f} px   ({}x{} image)\n", k.cx(),
                           r.std_dev[2], k.cy(), r.std_dev[3], k.image_size.width,
                           k.image_size.height);
  std::cout << fmt::format("  distortion k1 {:.4f} k2 {:.4f} p1 {:.5f} p2 {:.5f} k3 {:.4f}\n",
                           k.dist[0], k.dist[1], k.dist[2], k.dist[3], k.dist[4]);
  for (const auto& d : r.dropped)
    std::cout << fmt::format("  not used: {}: {}\n", d.name, d.reason);
  for (const auto& m : misses)
    std::cout << fmt::format("  no board: {}: {}\n", m.name, m.reason);
  for (const auto& m : skipped)
    std::cout << fmt::format("  skipped: {}: {}\n", m.name, m.reason);
  for (const auto& n : notes)
    std::cout << fmt::format("  note: {}\n", n.reason);
  std::cout << fmt::format("wrote {}\n", out);
}

// --- duels calibrate table ----------------------------------------------------------------

// Flags of `duels calibrate table`.
struct TableOptions {
  std::string camera_file;
  std::string image;
  std::string video;
  std::optional<int> camera;
  std::string layout;
  std::string marker_size = "5in";
  std::string marker_inset = "2in";
  std::string marker_dict = "DICT_4X4_50";
  int first_id = 0;
  std::string table = "60x60";
  bool board = false;
  PatternOptions pattern;
  std::string board_corner = "0,0";
  double board_angle = 0;
  std::string out;
  bool json = false;
  bool watch = false;
  int max_frames = 0;
  int samples = 200;
  std::string base_marker = "1in";
  std::string max_error = "0.5in";
};

calib::TableGeometry table_from(const std::string& text) {
  const auto wh = calib::parse_number_pair(text);
  if (!wh || wh->first <= 0 || wh->second <= 0 || wh->first > 1000 || wh->second > 1000) {
    throw UsageError(
        fmt::format("--table wants WIDTHxDEPTH in inches, e.g. 60x60, not '{}'", text));
  }
  return {wh->first, wh->second};
}

calib::MarkerLayout layout_from(const TableOptions& o, calib::TableGeometry& table) {
  if (!o.layout.empty()) {
    const calib::LayoutFile file = calib::read_marker_layout(o.layout);
    if (file.table) table = *file.table;
    return file.layout;
  }
  if (!calib::dictionary_by_name(o.marker_dict)) {
    throw UsageError(fmt::format("--dict: unknown ArUco dictionary '{}'", o.marker_dict));
  }
  return calib::corner_marker_layout(
      table, length_mm(o.marker_size, "--marker-size") / calib::kMmPerInch,
      length_mm(o.marker_inset, "--marker-inset") / calib::kMmPerInch, o.marker_dict, o.first_id);
}

void check_frame_size(const cv::Mat& frame, const calib::Intrinsics& cam, const std::string& name) {
  if (frame.size() != cam.image_size) {
    throw DataException(
        {name, 0, "",
         fmt::format("a {}x{} picture like the calibration (it is {}x{}; "
                     "calibrate at this resolution)",
                     cam.image_size.width, cam.image_size.height, frame.cols, frame.rows)});
  }
}

// A registration whose reprojection error is far above the lens calibration's (or, without one,
// above a few pixels) cannot come from good markers: almost always the marker size is wrong.
std::vector<std::string> registration_warnings(const calib::TableRecord& t, double lens_rms_px) {
  const double limit = lens_rms_px > 0 ? std::max(5 * lens_rms_px, 2.0) : 3.0;
  if (!(t.rms_px > limit)) return {};
  const std::string against =
      lens_rms_px > 0
          ? fmt::format("the lens calibration's {:.2f} px (at most {:.1f} px is expected)",
                        lens_rms_px, limit)
          : fmt::format("the {:.1f} px good markers give", limit);
  return {fmt::format(
      "the table registration's reprojection error ({:.1f} px RMS) is far above {}: the marker "
      "size (--marker-size, --marker-inset or the layout's size_in) is probably wrong; measure "
      "the printed black square and register again",
      t.rms_px, against)};
}

// The registration with its expected error; refused (nothing written) when that error makes
// the set-up useless for measuring, with the reason.
calib::TableRecord record_of(const calib::Registration& reg, const calib::CameraFile& file,
                             int samples, double max_error_in, const std::string& source) {
  calib::TableRecord t;
  t.table = reg.plane.table();
  t.table_to_camera = reg.plane.pose();
  t.method = reg.points.method;
  t.date = calib::now_iso8601();
  t.rms_px = reg.rms_px;
  t.points = reg.points;
  calib::AccuracyOptions options;
  options.samples = samples;
  t.accuracy = calib::estimate_accuracy(reg.plane, file.covariance, reg.points,
                                        calib::registration_noise_px(reg), options);
  if (const auto problem = calib::accuracy_problem(*t.accuracy, max_error_in)) {
    // Say why, when the registration itself shows it: a wrong marker size.
    std::string why = "a set-up that can measure the table: " + *problem;
    for (const auto& w : registration_warnings(t, file.rms_px))
      why += "; " + w;
    throw DataException({source, 0, "", why});
  }
  return t;
}

// Where the bases' markers can be read, as a small map in the terminal (far edge on top, every
// 4"): '#' read, '+' within 25 % of the limit, '.' too small, ' ' outside the picture.
void print_coverage(const calib::TableCoverage& map) {
  std::cout << fmt::format(
      "base markers ({:g} in) can be read on {:.0f}% of the table (near third {:.0f}%, middle "
      "{:.0f}%, far {:.0f}%)\n",
      map.target.side_in, 100 * map.readable_share, 100 * map.readable_by_third[0],
      100 * map.readable_by_third[1], 100 * map.readable_by_third[2]);
  for (int r = map.rows - 2; r >= 0; r -= 4) {
    std::string line = "    ";
    for (int c = 1; c < map.cols; c += 4) {
      const calib::TableCoverageCell& cell = map.at(c, r);
      static constexpr char kShade[] = {' ', '.', '+', '#'};  // in Readability's order
      line += kShade[static_cast<int>(calib::readability(cell, map.target))];
    }
    std::cout << line << "\n";
  }
  for (const auto& advice : map.advice)
    std::cout << "  " << advice << "\n";
}

// The markers of the layout the registration did not use ("" when it used them all or came
// from a board), e.g. "2 (far-right)".
std::string missing_markers(const calib::TableCorrespondences& points,
                            const calib::MarkerLayout* layout) {
  if (layout == nullptr || points.marker_ids.empty()) return "";
  static constexpr const char* kCorners[] = {"near-left", "near-right", "far-right", "far-left"};
  std::string out;
  for (std::size_t i = 0; i < layout->markers.size(); ++i) {
    const int id = layout->markers[i].id;
    if (std::find(points.marker_ids.begin(), points.marker_ids.end(), id) !=
        points.marker_ids.end()) {
      continue;
    }
    out += (out.empty() ? "" : ", ") + std::to_string(id);
    if (layout->markers.size() == 4) out += fmt::format(" ({})", kCorners[i]);
  }
  return out;
}

void print_table(const calib::TableRecord& t, const calib::TablePlane& plane, bool has_covariance,
                 const calib::MarkerLayout* layout, const std::string& out, bool json,
                 const calib::BaseTargetSpec& target, double lens_rms_px) {
  const cv::Point3d c = plane.camera_position_in();
  const calib::AccuracyReport& a = *t.accuracy;
  const calib::TableCoverage coverage = calib::table_coverage(plane, target, 1.0);
  const std::vector<std::string> warnings = registration_warnings(t, lens_rms_px);
  for (const auto& w : warnings)
    std::cerr << "warning: " << w << "\n";
  const std::string missing = missing_markers(t.points, layout);
  const std::size_t used = t.points.marker_ids.size();
  const std::size_t laid = layout == nullptr ? 0 : layout->markers.size();
  // An edge whose points are all out of view has no error to report.
  auto edge_in_view = [&](int row) {
    for (int col = 0; col < a.grid; ++col) {
      if (a.cell_draws[static_cast<std::size_t>(row * a.grid + col)] > 0) return true;
    }
    return false;
  };
  if (json) {
    nlohmann::json j;
    j["warnings"] = warnings;
    j["method"] = t.method;
    j["points"] = t.points.table_in.size();
    if (laid > 0 && used > 0) {
      j["markers_used"] = used;
      j["markers_in_layout"] = laid;
      if (!missing.empty()) j["markers_missing"] = missing;
    }
    j["rms_px"] = t.rms_px;
    j["table_in"] = {t.table.width_in, t.table.depth_in};
    j["camera_position_in"] = {c.x, c.y, c.z};
    j["camera_tilt_deg"] = plane.camera_tilt_deg();
    j["rvec"] = {t.table_to_camera.rvec[0], t.table_to_camera.rvec[1], t.table_to_camera.rvec[2]};
    j["tvec_in"] = {t.table_to_camera.tvec[0], t.table_to_camera.tvec[1],
                    t.table_to_camera.tvec[2]};
    // Cells out of view are null, never a 0 error.
    nlohmann::json cells = nlohmann::json::array();
    for (std::size_t k = 0; k < a.cell_rms_in.size(); ++k) {
      cells.push_back(a.cell_draws[k] > 0 ? nlohmann::json(a.cell_rms_in[k]) : nlohmann::json());
    }
    j["accuracy"] = {
        {"rms_in", a.rms_in},
        {"p95_in", a.p95_in},
        {"max_in", a.max_in},
        {"near_rms_in", edge_in_view(0) ? nlohmann::json(a.near_rms_in) : nullptr},
        {"far_rms_in", edge_in_view(a.grid - 1) ? nlohmann::json(a.far_rms_in) : nullptr},
        {"grid", a.grid},
        {"cell_rms_in", cells},
        {"visible_fraction", a.visible_fraction},
        {"samples", a.samples},
        {"intrinsics_uncertainty", has_covariance}};
    j["coverage"] = {{"base_marker_in", target.side_in},
                     {"min_px_per_cell", target.min_px_per_cell},
                     {"readable_share", coverage.readable_share},
                     {"in_view_share", coverage.in_view_share},
                     {"readable_by_third", coverage.readable_by_third},
                     {"marker_needed_in", coverage.side_needed_in},
                     {"advice", coverage.advice}};
    j["out"] = out;
    std::cout << j.dump() << "\n";
    return;
  }
  std::cout << fmt::format("table {}x{} in registered from {}: {} points, RMS {:.3f} px\n",
                           t.table.width_in, t.table.depth_in, t.method, t.points.table_in.size(),
                           t.rms_px);
  if (!missing.empty()) {
    std::cout << fmt::format(
        "note: only {} of the {} markers were used (not seen: {}); the pose rests on fewer "
        "points, so check the error below, or make every marker visible and register again\n",
        used, laid, missing);
  }
  std::cout << fmt::format(
      "camera {:.1f} in above the table, over ({:.1f}, {:.1f}), tilted {:.0f} "
      "degrees from straight down\n",
      c.z, c.x, c.y, plane.camera_tilt_deg());
  std::cout << fmt::format("expected measuring error (Monte Carlo, {} draws{}):\n", a.samples,
                           has_covariance ? ""
                                          : "; registration only: no intrinsics uncertainty "
                                            "in the file");
  std::cout << fmt::format("  RMS {:.3f} in   95% under {:.3f} in   worst {:.3f} in\n", a.rms_in,
                           a.p95_in, a.max_in);
  auto edge = [&](int row, double rms) {
    return edge_in_view(row) ? fmt::format("{:.3f} in", rms) : std::string("out of view");
  };
  std::cout << fmt::format("  near edge {}   far edge {}   ({:.0f}% of the table in view)\n",
                           edge(0, a.near_rms_in), edge(a.grid - 1, a.far_rms_in),
                           100 * a.visible_fraction);
  std::cout << "  map, RMS inches (far edge on top; ----- = out of the camera's view):\n";
  for (int r = a.grid - 1; r >= 0; r -= 2) {
    std::string line = "   ";
    for (int col = 0; col < a.grid; col += 2) {
      const auto k = static_cast<std::size_t>(r * a.grid + col);
      line += a.cell_draws[k] > 0 ? fmt::format(" {:.3f}", a.cell_rms_in[k]) : " -----";
    }
    std::cout << line << "\n";
  }
  print_coverage(coverage);
  std::cout << fmt::format("wrote {}\n", out);
}

calib::BaseTargetSpec base_target(const TableOptions& o) {
  calib::BaseTargetSpec target;
  target.side_in = length_mm(o.base_marker, "--base-marker") / calib::kMmPerInch;
  if (!(target.side_in >= 0.25 && target.side_in <= 12))
    throw UsageError("--base-marker: a side from 0.25in to 12in, e.g. 1in");
  return target;
}

void add_table(CLI::App* parent) {
  auto* cmd = parent->add_subcommand(
      "table",
      "Register the table plane from the four corner markers (or a board lying on the table) "
      "and report the expected error in inches");
  auto o = std::make_shared<TableOptions>();
  cmd->add_option("--camera-file", o->camera_file, "calibration file from `duels calibrate`")
      ->required();
  auto* image = cmd->add_option("--image", o->image, "photo of the table");
  auto* video = cmd->add_option("--video", o->video, "video of the table (markers only)");
  auto* camera = cmd->add_option("--camera", o->camera, "live camera number (markers only)");
  image->excludes(video)->excludes(camera);
  video->excludes(camera);
  cmd->add_option("--table", o->table, "playing area WIDTHxDEPTH in inches")->capture_default_str();
  cmd->add_option("--marker-size", o->marker_size, "corner markers: side of the black square")
      ->capture_default_str();
  cmd->add_option("--marker-inset", o->marker_inset,
                  "corner markers: from each table edge to the marker's black edge")
      ->capture_default_str();
  cmd->add_option("--marker-dict", o->marker_dict, "corner markers: ArUco dictionary")
      ->capture_default_str();
  cmd->add_option("--first-id", o->first_id,
                  "corner markers: id at the near-left corner (then near-right, far-right, "
                  "far-left)")
      ->capture_default_str();
  cmd->add_option("--layout", o->layout, "YAML file with other marker positions");
  auto* board = cmd->add_flag("--board", o->board, "register from a board lying on the table");
  add_pattern_options(cmd, o->pattern);
  cmd->add_option("--board-corner", o->board_corner,
                  "board: X,Y inches of the top-left corner of its printed squares")
      ->capture_default_str();
  cmd->add_option("--board-angle", o->board_angle,
                  "board: degrees turned counter-clockwise (0 = top edge away from you)");
  cmd->add_option("--base-marker", o->base_marker,
                  "side of the markers on the bases, for the coverage map (e.g. 1in, 25mm)")
      ->capture_default_str();
  cmd->add_option("--out", o->out, "file to write (default: the camera file itself)");
  cmd->add_flag("--json", o->json, "print JSON");
  cmd->add_flag("--watch", o->watch,
                "video/camera: keep checking; warn when the camera moved, re-register when still");
  cmd->add_option("--max-frames", o->max_frames, "video/camera: stop after this many frames");
  cmd->add_option("--samples", o->samples, "Monte-Carlo draws for the accuracy estimate")
      ->capture_default_str();
  cmd->add_option("--max-error", o->max_error,
                  "refuse a set-up whose expected error (95% of measurements) is larger")
      ->capture_default_str();
  board->excludes(video)->excludes(camera);
  cmd->callback([o] {
    const int sources =
        (o->image.empty() ? 0 : 1) + (o->video.empty() ? 0 : 1) + (o->camera ? 1 : 0);
    if (sources != 1) throw UsageError("give one of --image FILE, --video FILE or --camera N");
    if (o->samples < 10 || o->samples > 100000) throw UsageError("--samples: 10 to 100000");
    const calib::BaseTargetSpec target = base_target(*o);
    calib::CameraFile file = calib::read_camera_file(o->camera_file);
    const std::string out = o->out.empty() ? o->camera_file : o->out;
    calib::TableGeometry table = table_from(o->table);
    const bool has_cov = !file.covariance.empty();
    const double max_error_in = length_mm(o->max_error, "--max-error") / calib::kMmPerInch;
    if (!(max_error_in > 0)) throw UsageError("--max-error must be more than 0, e.g. 0.5in");
    if (!o->image.empty()) {
      const cv::Mat photo = calib::read_image(o->image, cv::IMREAD_COLOR, "--image");
      check_frame_size(photo, file.intrinsics, o->image);
      calib::TableCorrespondences points;
      std::optional<calib::MarkerLayout> layout;
      if (o->board) {
        const calib::PatternSpec spec = pattern_from(o->pattern);
        const auto corner = calib::parse_number_pair(o->board_corner);
        if (!corner) throw UsageError("--board-corner wants X,Y in inches, e.g. 20,30");
        auto view = calib::detect_board(photo, spec);
        if (!view)
          throw DataException(
              {o->image, 0, "--image", "a photo showing the board: " + view.error()});
        points = calib::board_correspondences(*view, spec,
                                              {{corner->first, corner->second}, o->board_angle});
      } else {
        layout = layout_from(*o, table);
        const auto found = calib::detect_markers(photo, layout->dictionary);
        if (!found) throw UsageError(found.error());
        points = calib::marker_correspondences(*found, *layout);
        if (points.table_in.size() < 8) {
          throw DataException(
              {o->image, 0, "--image",
               fmt::format("a photo showing at least 2 of the {} table markers ({}; found {})",
                           layout->markers.size(), layout->dictionary, points.method)});
        }
      }
      const auto reg = calib::register_table(file.intrinsics, points, table);
      if (!reg) throw DataException({o->image, 0, "--image", reg.error()});
      file.table = record_of(*reg, file, o->samples, max_error_in, o->image);
      calib::write_camera_file(out, file);
      print_table(*file.table, reg->plane, has_cov, layout ? &*layout : nullptr, out, o->json,
                  target, file.rms_px);
      return;
    }
    // Video or live camera: the tracker registers once the camera is still, and with --watch
    // keeps checking for bumps (every re-registration is written at once).
    const calib::MarkerLayout layout = layout_from(*o, table);
    auto source =
        o->camera ? calib::FrameSource::camera(*o->camera) : calib::FrameSource::video(o->video);
    calib::TableTracker tracker(file.intrinsics, layout, table);
    cv::Mat frame;
    int frames = 0;
    std::string last;
    bool written = false;
    while (source.read(frame)) {
      check_frame_size(frame, file.intrinsics, source.name());
      const auto found = calib::detect_markers(frame, layout.dictionary);
      if (!found) throw UsageError(found.error());
      const calib::TrackerStatus s = tracker.update(*found);
      ++frames;
      if (s.message != last) {
        std::cerr << fmt::format("frame {}: {}\n", frames, s.message);
        last = s.message;
      }
      if (s.relocked) {
        file.table = record_of(*tracker.reference(), file, o->samples, max_error_in, source.name());
        calib::write_camera_file(out, file);
        written = true;
        if (!o->watch) break;
      }
      if (o->max_frames > 0 && frames >= o->max_frames) break;
    }
    if (!written) {
      throw DataException({source.name(), 0, "",
                           fmt::format("frames where at least 3 table markers are seen with the "
                                       "camera still ({} frames read; last: {})",
                                       frames, last)});
    }
    print_table(*file.table, tracker.reference()->plane, has_cov, &layout, out, o->json, target,
                file.rms_px);
  });
}

// --- duels calibrate map -------------------------------------------------------------------

void add_map(CLI::App* parent) {
  auto* cmd = parent->add_subcommand(
      "map", "Convert image pixels to table inches (or back) with a registered calibration file");
  // Flags of `duels calibrate map`.
  struct Opts {
    std::string camera_file;
    std::vector<std::string> px;
    std::vector<std::string> inches;
    std::string height = "0in";
    bool json = false;
  };
  auto o = std::make_shared<Opts>();
  cmd->add_option("--camera-file", o->camera_file, "calibration file with a table registration")
      ->required();
  cmd->add_option("--px", o->px, "image point X,Y in pixels (repeatable)");
  cmd->add_option("--in", o->inches, "table point X,Y in inches (repeatable)");
  cmd->add_option("--height", o->height, "height of the points above the table, e.g. 1.5in")
      ->capture_default_str();
  cmd->add_flag("--json", o->json, "print JSON");
  cmd->callback([o] {
    if (o->px.empty() && o->inches.empty()) throw UsageError("give --px X,Y or --in X,Y");
    const calib::CameraFile file = calib::read_camera_file(o->camera_file);
    if (!file.table) {
      throw DataException({o->camera_file, 0, "table_rvec",
                           "a table registration (run `duels calibrate table` first)"});
    }
    double height_in = 0;
    if (o->height != "0in" && o->height != "0") {
      height_in = length_mm(o->height, "--height") / calib::kMmPerInch;
    }
    const calib::TablePlane plane(file.intrinsics, file.table->table_to_camera, file.table->table);
    nlohmann::json j = nlohmann::json::array();
    for (const auto& text : o->px) {
      const auto p = calib::parse_number_pair(text);
      if (!p) throw UsageError(fmt::format("--px wants X,Y, not '{}'", text));
      const auto t = plane.image_to_table({p->first, p->second}, height_in);
      if (o->json) {
        j.push_back({{"px", {p->first, p->second}},
                     {"in", t ? nlohmann::json{t->x, t->y} : nlohmann::json(nullptr)},
                     {"on_table", t && plane.on_table(*t)}});
      } else if (t) {
        std::cout << fmt::format("px {:.1f},{:.1f} -> {:.3f},{:.3f} in{}\n", p->first, p->second,
                                 t->x, t->y, plane.on_table(*t) ? "" : " (off the table)");
      } else {
        std::cout << fmt::format("px {:.1f},{:.1f} -> no table point (above the horizon)\n",
                                 p->first, p->second);
      }
    }
    for (const auto& text : o->inches) {
      const auto p = calib::parse_number_pair(text);
      if (!p) throw UsageError(fmt::format("--in wants X,Y, not '{}'", text));
      const auto px = plane.table_to_image({p->first, p->second, height_in});
      if (o->json) {
        j.push_back({{"in", {p->first, p->second}},
                     {"px", px ? nlohmann::json{px->x, px->y} : nlohmann::json(nullptr)}});
      } else if (px) {
        std::cout << fmt::format("{:.3f},{:.3f} in -> px {:.2f},{:.2f}\n", p->first, p->second,
                                 px->x, px->y);
      } else {
        std::cout << fmt::format("{:.3f},{:.3f} in -> behind the camera\n", p->first, p->second);
      }
    }
    if (o->json) std::cout << j.dump() << "\n";
  });
}

void add_calibrate_subcommands(CLI::App* parent) {
  add_table(parent);
  add_map(parent);
}

void add_calibrate(CLI::App& root) {
  auto* cmd = root.add_subcommand(
      "calibrate",
      "Calibrate the camera from photos, a video or a live camera: `duels calibrate --images DIR "
      "--pattern chessboard --cols 9 --rows 6 --square 25mm --out cam.yml`");
  auto o = std::make_shared<CalibrateOptions>();
  auto* images = cmd->add_option("--images", o->images, "folder of photos of the board");
  auto* video = cmd->add_option("--video", o->video, "video file of the board being moved");
  auto* camera = cmd->add_option("--camera", o->camera, "live camera number (0 = first)");
  images->excludes(video)->excludes(camera);
  video->excludes(camera);
  add_pattern_options(cmd, o->pattern);
  cmd->add_option("--out", o->out, "calibration file to write (OpenCV YAML)");
  cmd->add_flag("--json", o->json, "print JSON");
  cmd->add_option("--min-views", o->min_views, "fewest views to accept (default 4, live 8)");
  cmd->add_option("--std-limit", o->std_limit,
                  "live: stop when σ of fx, fy, cx, cy are below this fraction of f")
      ->capture_default_str();
  cmd->add_option("--still-frames", o->still_frames,
                  "live: frames the board must be still before a capture")
      ->capture_default_str();
  cmd->add_option("--max-frames", o->max_frames,
                  "live: stop after this many frames (0 = no limit)");
  add_calibrate_subcommands(cmd);
  cmd->callback([cmd, o] {
    if (!cmd->get_subcommands().empty()) return;  // `calibrate table` / `calibrate map`
    const int sources =
        (o->images.empty() ? 0 : 1) + (o->video.empty() ? 0 : 1) + (o->camera ? 1 : 0);
    if (sources != 1) throw UsageError("give one of --images DIR, --video FILE or --camera N");
    if (o->out.empty()) throw UsageError("give the file to write with --out, e.g. cam.yml");
    const calib::PatternSpec spec = pattern_from(o->pattern);
    calib::CalibrationResult result;
    std::vector<calib::Miss> misses;
    std::vector<calib::Miss> skipped;
    std::vector<calib::DroppedView> notes;
    if (!o->images.empty()) {
      calib::CalibrationOptions options;
      if (o->min_views > 0) options.min_views = o->min_views;
      auto folder = calib::calibrate_folder(o->images, spec, options);
      result = std::move(folder.result);
      misses = std::move(folder.detections.misses);
      skipped = std::move(folder.detections.skipped);
    } else {
      auto source =
          o->camera ? calib::FrameSource::camera(*o->camera) : calib::FrameSource::video(o->video);
      result = run_live(source, spec, *o, notes);
    }
    const calib::CameraFile file = calib::camera_file_from(result, spec, calib::now_iso8601());
    calib::write_camera_file(o->out, file);
    print_calibration(file, result, misses, skipped, notes, o->out, o->json);
  });
}

DUELS_COMMAND(60, add_calibrate);

}  // namespace
}  // namespace duels::app
