// `duels track --source cam:0|FILE|DIR|URL|synthetic:demo [--calib FILE] [--bases MAP.yaml]
// [--name FIGURE@X,Y …] [--match JOURNAL] | --markerless [--diameter D] [--name …]` — every base
// in table inches, frame by frame, with gaps and lines of fire between settled bases.
#include <fmt/format.h>

#include <array>
#include <filesystem>
#include <iostream>
#include <nlohmann/json.hpp>
#include <optional>
#include <sstream>
#include <thread>

#include "app/command.hpp"
#include "calib/camera_file.hpp"
#include "common/error.hpp"
#if DUELS_WITH_MATCH
#include "match/duels_match.hpp"
#endif
#include "vision/markerless.hpp"
#include "vision/naming.hpp"
#include "vision/pipeline.hpp"
#include "vision/render.hpp"
#include "vision/source.hpp"

namespace duels::app {
namespace {

nlohmann::json state_json(const vision::TableState& s,
                          const std::vector<vision::WaitingName>& waiting) {
  nlohmann::json j;
  j["frame"] = s.frame;
  j["time_s"] = s.time_s;
  j["bases"] = nlohmann::json::array();
  for (const auto& b : s.bases) {
    j["bases"].push_back({{"figure", b.figure},
                          {"marker", b.marker_id},
                          {"centre_in", {b.centre_in.x, b.centre_in.y}},
                          {"radius_in", b.radius_in},
                          {"angle_deg", b.angle_deg},
                          {"confidence", b.confidence},
                          {"state", vision::to_string(b.state)},
                          {"stale", b.stale()},
                          {"age_s", b.age_s},
                          {"last_seen_s", b.last_seen_s}});
  }
  j["pairs"] = nlohmann::json::array();
  for (const auto& p : s.pairs) {
    j["pairs"].push_back({{"a", p.a},
                          {"b", p.b},
                          {"gap_in", p.gap_in},
                          {"line_of_fire", p.line_of_fire},
                          {"blockers", p.blockers}});
  }
  j["not_measured"] = s.not_measured;
  j["unnamed"] = nlohmann::json::array();
  for (const auto& u : s.unnamed) {
    j["unnamed"].push_back({{"centre_in", {u.centre_in.x, u.centre_in.y}},
                            {"radius_in", u.radius_in},
                            {"frames", u.frames}});
  }
  j["waiting_names"] = nlohmann::json::array();
  for (const auto& w : waiting) {
    j["waiting_names"].push_back({{"figure", w.figure}, {"near_in", {w.near_in.x, w.near_in.y}}});
  }
  return j;
}

void print_text(const vision::TableState& s, const std::vector<vision::WaitingName>& waiting) {
  std::cout << fmt::format("frame {} t={:.2f}s\n", s.frame, s.time_s);
  for (const auto& b : s.bases) {
    std::cout << fmt::format("  {:<12} ({:6.2f}, {:6.2f}) in  {}{}\n", b.figure, b.centre_in.x,
                             b.centre_in.y, vision::to_string(b.state),
                             b.stale() ? fmt::format(" (stale {:.1f}s)", b.age_s) : "");
  }
  for (const auto& u : s.unnamed) {
    std::cout << fmt::format(
        "  {:<12} ({:6.2f}, {:6.2f}) in  a base not named: its code unread, or not in the map\n",
        "(unnamed)", u.centre_in.x, u.centre_in.y);
  }
  for (const auto& w : waiting) {
    std::cout << fmt::format(
        "  {:<12} ({:6.2f}, {:6.2f}) in  name waiting: no base seen there yet\n", w.figure,
        w.near_in.x, w.near_in.y);
  }
  for (const auto& p : s.pairs) {
    std::cout << fmt::format("  {} - {}: gap {:.2f} in, line of fire {}\n", p.a, p.b, p.gap_in,
                             p.line_of_fire ? "clear" : "blocked");
  }
}

#if DUELS_WITH_MATCH
// Where a match journal has its figures' bases (placed or moved there, not eliminated).
std::vector<vision::MatchSpot> journal_spots(const std::string& path) {
  const match::Replay r = match::replay(match::read_journal(path));
  std::vector<vision::MatchSpot> out;
  for (const auto& f : r.state.figures) {
    if (!f.eliminated && f.position) out.push_back({f.def.name, {f.position->x, f.position->y}});
  }
  return out;
}
#endif

// A match journal followed while tracking: read again whenever it changes (the console or the
// window appends to it), its figures' places handed to the pipeline.
class JournalWatch {
 public:
  explicit JournalWatch(std::string path) : path_(std::move(path)) {}
  // The spots when the journal changed since the last call (a damaged or half-written journal
  // keeps the last good ones, with a word on standard error once).
  std::optional<std::vector<vision::MatchSpot>> changed() {
#if DUELS_WITH_MATCH
    std::error_code ec;
    const auto size = std::filesystem::file_size(path_, ec);
    const auto when = std::filesystem::last_write_time(path_, ec);
    if (ec || (seen_ && size == size_ && when == when_)) return std::nullopt;
    seen_ = true;
    size_ = size;
    when_ = when;
    try {
      return journal_spots(path_);
    } catch (const std::exception& e) {
      std::cerr << "--match: " << e.what() << " (the last places read are kept)\n";
      return std::nullopt;
    }
#else
    return std::nullopt;
#endif
  }

 private:
  std::string path_;
  bool seen_ = false;
  std::uintmax_t size_ = 0;
  std::filesystem::file_time_type when_;
};

void add_track(CLI::App& root) {
  auto* cmd = root.add_subcommand(
      "track", "Track every base on the table in inches (one JSON line per frame with --json)");
  struct Opts {
    std::string source;
    std::string calib;
    std::string bases;
    std::optional<int> frames;
    std::optional<int> retries;
    bool loop = false;
    bool aruco3 = false;
    bool json = false;
    bool markerless = false;
    double diameter = 2.0;
    double top_height = 0.75;
    std::vector<std::string> names;
    std::string match;
  };
  auto opts = std::make_shared<Opts>();
  cmd->add_option("--source", opts->source,
                  "cam:N, a video file, a folder of images, a stream URL, or synthetic:NAME|FILE")
      ->required();
  cmd->add_flag("--markerless", opts->markerless,
                "find bases by the rims of their light tops instead of by their markers (a "
                "fallback: name each base with --name; see docs/camera.md)");
  cmd->add_option("--diameter", opts->diameter, "markerless: the bases' diameter in inches")
      ->check(CLI::Range(0.5, 12.0))
      ->capture_default_str();
  cmd->add_option("--top-height", opts->top_height,
                  "markerless: height of the base tops above the table in inches")
      ->check(CLI::Range(0.0, 6.0))
      ->capture_default_str();
  cmd->add_option("--name", opts->names,
                  "FIGURE@X,Y names the base at table point X,Y (within its radius; a rougher "
                  "point: the base seen nearest it within 3\", after a second): markerless, each "
                  "base; with rings, a ring the camera cannot name; repeat for each figure (listed "
                  "as waiting until a base takes it)");
#if DUELS_WITH_MATCH
  cmd->add_option("--match", opts->match,
                  "a match journal (JOURNAL.jsonl): a ring where the match has a figure keeps its "
                  "name whatever dice lie on it, and a figure moved is named by the spot it left; "
                  "read again whenever it changes")
      ->check(CLI::ExistingFile);
#endif
  cmd->add_option("--calib", opts->calib,
                  "calibration file with a table registration (synthetic sources default to "
                  "the scene's exact camera)");
  cmd->add_option("--bases", opts->bases,
                  "marker → base map (YAML; synthetic sources default to the scene's bases)");
  cmd->add_option("--frames", opts->frames, "stop after N frames")->check(CLI::PositiveNumber);
  cmd->add_option("--retries", opts->retries,
                  "cameras/streams: attempts to open before giving up (default: 5 with --frames, "
                  "else keep trying, so a camera plugged in late is picked up)")
      ->check(CLI::PositiveNumber);
  cmd->add_flag("--loop", opts->loop, "start videos and folders again at their end");
  cmd->add_flag("--aruco3", opts->aruco3, "use OpenCV's faster ArUco3 detection");
  cmd->add_flag("--json", opts->json, "one JSON line per frame");
  cmd->callback([opts] {
    const vision::SourceSpec spec = vision::parse_source_spec(opts->source);
    vision::SourceOptions source_options;
    source_options.loop = opts->loop;
    // With --frames the run is meant to end: a camera that never opens must not hang it.
    if (opts->retries) {
      source_options.retry_attempts = *opts->retries;
    } else if (opts->frames) {
      source_options.retry_attempts = 5;
    }
    std::unique_ptr<vision::Source> source;
    std::unique_ptr<vision::SceneRenderer> renderer;
    std::optional<calib::TablePlane> plane;
    std::optional<vision::BaseMap> map;
    // The calibration, read once: the table plane, and the table's markers (where no base or
    // ring is looked for).
    std::optional<calib::CameraFile> calibration;
    if (!opts->calib.empty()) {
      calibration = calib::read_camera_file(opts->calib);
      plane = vision::plane_from_calibration(*calibration, opts->calib);
    }
    if (!opts->bases.empty()) map = vision::load_base_map(opts->bases);
    switch (spec.kind) {
      case vision::SourceKind::kSynthetic: {
        renderer = std::make_unique<vision::SceneRenderer>(
            vision::load_named_scene(spec.path.empty() ? "demo" : spec.path, assets_dir()));
        const auto* r = renderer.get();
        const int count = r->spec().frame_count();
        const bool loop = opts->loop;
        source = vision::open_generator("synthetic " + r->spec().name,
                                        [r, count, loop](std::int64_t i, vision::Frame& f) {
                                          if (i >= count && !loop) return false;
                                          f.image = r->render(i % count);
                                          f.time_s = static_cast<double>(i) / r->spec().fps;
                                          return true;
                                        });
        if (!plane) plane = renderer->plane();
        if (!map) map = vision::base_map_from_scene(renderer->spec());
        break;
      }
      case vision::SourceKind::kCamera:
        source = vision::open_camera(spec.camera_index, source_options);
        break;
      case vision::SourceKind::kStream:
        source = vision::open_stream(spec.path, source_options);
        break;
      case vision::SourceKind::kVideo:
        source = vision::open_video(spec.path, source_options);
        break;
      case vision::SourceKind::kFolder:
        source = vision::open_folder(spec.path, source_options);
        break;
    }
    if (!plane) throw UsageError("--calib FILE is needed for a camera, video, folder or stream");
    if (!map && !opts->markerless) {
      throw UsageError(
          "--bases MAP.yaml is needed for a camera, video, folder or stream (or --markerless)");
    }
    std::optional<vision::MarkerlessPipeline> markerless;
    std::optional<vision::Pipeline> pipeline;
    // The table's own markers (where no base or ring is looked for): as the calibration
    // registered them, or as the synthetic scene drew them.
    std::vector<std::array<cv::Point2d, 4>> table_markers;
    if (calibration) {
      table_markers = vision::table_markers_from_calibration(*calibration);
    } else if (renderer) {
      table_markers = vision::table_markers_of(vision::scene_corner_markers(renderer->spec()));
    }
    // --name FIGURE@X,Y: the figure and the table point.
    std::vector<std::pair<std::string, cv::Point2d>> names;
    for (const auto& n : opts->names) {
      const auto at = n.rfind('@');
      double x = 0;
      double y = 0;
      char comma = 0;
      std::istringstream in(at == std::string::npos ? "" : n.substr(at + 1));
      if (at == std::string::npos || at == 0 || !(in >> x >> comma >> y) || comma != ',' ||
          !(in >> std::ws).eof()) {
        throw UsageError(fmt::format("--name '{}': expected FIGURE@X,Y, e.g. Razor@12,10", n));
      }
      // A point farther than a name reaches off the table can name no base: a typo, told now
      // rather than waited on for ever.
      const calib::TableGeometry& table = plane->table();
      constexpr double kReachIn = vision::kNameReachIn;
      if (!(x >= -kReachIn && x <= table.width_in + kReachIn && y >= -kReachIn &&
            y <= table.depth_in + kReachIn)) {
        throw UsageError(fmt::format(
            "--name '{}': ({}, {}) is off the table: it is {} x {} in, (0, 0) at the near-left "
            "corner",
            n, x, y, table.width_in, table.depth_in));
      }
      names.emplace_back(n.substr(0, at), cv::Point2d(x, y));
    }
    if (opts->markerless) {
      vision::DiscOptions discs;
      discs.radius_in = opts->diameter / 2;
      discs.top_height_in = opts->top_height;
      discs.table_markers_in = table_markers;
      markerless.emplace(*plane, discs);
      for (const auto& [figure, at] : names)
        markerless->name_near(at, figure);
    } else {
      vision::DetectorOptions detector;
      detector.aruco3 = opts->aruco3;
      vision::RingIdentityOptions rings;
      rings.table_markers_in = table_markers;
      pipeline.emplace(*plane, *map, detector, vision::TrackerOptions{},
                       vision::SecondLookOptions{}, rings);
      // A ring the camera cannot name (its code hidden, or another than the map's), named by
      // where it stands.
      for (const auto& [figure, at] : names) {
        if (auto named = pipeline->name_near(at, figure); !named)
          throw UsageError(fmt::format("--name {}@{},{}: {}", figure, at.x, at.y, named.error()));
      }
    }
    if (!opts->match.empty() && markerless)
      throw UsageError("--match needs coded rings on the bases: markerless mode has no codes");
    std::optional<JournalWatch> journal;
    if (!opts->match.empty()) {
      journal.emplace(opts->match);
#if DUELS_WITH_MATCH
      // Read now, so that a journal that cannot be read stops the run before any frame.
      (void)journal_spots(opts->match);
#endif
    }
    int done = 0;
    int retries = 0;
    std::string last_problem;
    while (!opts->frames || done < *opts->frames) {
      vision::Frame frame;
      const vision::ReadStatus status = source->read(frame);
      if (status == vision::ReadStatus::kEnd) break;
      if (status == vision::ReadStatus::kRetry) {
        const auto& problem = source->stats().last_problem;
        if (problem != last_problem) std::cerr << problem << "\n";
        last_problem = problem;
        ++retries;
        std::this_thread::sleep_for(std::chrono::milliseconds(200));
        continue;
      }
      if (journal) {
        if (auto spots = journal->changed()) pipeline->set_match_spots(*spots);
      }
      const vision::TableState state =
          markerless ? markerless->process(frame.image, frame.index, frame.time_s)
                     : pipeline->process(frame.image, frame.index, frame.time_s).state;
      const std::vector<vision::WaitingName> waiting =
          markerless ? markerless->waiting_names() : pipeline->waiting_names();
      if (opts->json) {
        std::cout << state_json(state, waiting).dump() << "\n";
      } else {
        print_text(state, waiting);
      }
      ++done;
    }
    const auto& stats = source->stats();
    if (stats.gave_up && done == 0) {
      throw DataException({source->name(), 0, "--source",
                           fmt::format("a camera or stream that opens ({})", stats.last_problem)});
    }
    if (stats.gave_up) std::cerr << stats.last_problem << "\n";
    if (stats.decode_failures > 0 || stats.reconnects > 0) {
      std::cerr << fmt::format("{}: {} frames, {} undecodable (skipped), {} reconnects\n",
                               source->name(), stats.delivered, stats.decode_failures,
                               stats.reconnects);
    }
  });
}

}  // namespace

DUELS_COMMAND(71, add_track);

}  // namespace duels::app
