// `duels bench vision [--source …]` — per-frame medians of the whole marker-mode pipeline and of
// plain cv::aruco::detectMarkers on the same frames, at 1280x720 and 1920x1080, with the ratio.
// `duels bench coverage [--target square|ring|ring2|markerless]` — bases found by depth third,
// errors and speed on degraded webcam-like scenes (vision/coverage.hpp).
// `duels bench evening` — an evening of play (dice put on every round, figures moved, hands, a
// lamp) with and without the match's memory, scored in every frame (vision/evening.hpp).
#include <fmt/format.h>

#include <iostream>
#include <nlohmann/json.hpp>
#include <utility>

#include "app/command.hpp"
#include "calib/pattern.hpp"
#include "vision/coverage.hpp"
#include "vision/evening.hpp"
#include "vision/timing.hpp"

namespace duels::app {
namespace {

// "3-6" → {3, 6}; a UsageError naming `option` otherwise.
std::pair<int, int> dice_range(const std::string& text, const char* option) {
  const auto dash = text.find('-');
  int lo = -1;
  int hi = -1;
  try {
    lo = std::stoi(text.substr(0, dash));
    hi = dash == std::string::npos ? lo : std::stoi(text.substr(dash + 1));
  } catch (const std::exception&) {
    lo = -1;
  }
  if (lo < 0 || hi < lo || hi > 6) {
    throw UsageError(
        fmt::format("{} is MIN-MAX dice on each base (0 to 6, e.g. 3-6), not '{}'", option, text));
  }
  return {lo, hi};
}

void add_coverage(CLI::App& bench) {
  auto* cmd = bench.add_subcommand(
      "coverage",
      "Bases found by depth third, centre/gap errors and speed on degraded webcam-like scenes");
  struct Opts {
    std::string target = "ring2";
    std::string only;
    int seeds = 2;
    int first_seed = 1;
    int frames = 10;
    std::string dictionary = "DICT_4X4_50";
    std::string refine = "subpix";
    bool json = false;
    std::string dice;
    bool posed = false;
    bool lamp = false;
    std::string save;
    bool explain = false;
    std::string images;
    bool povray_render = false;
    bool processing = false;
  };
  auto opts = std::make_shared<Opts>();
  cmd->add_flag("--processing", opts->processing,
                "add a camera's own processing to the damage: blur in linear light, a Bayer "
                "mosaic demosaiced, a sharpening halo (vision/degrade.hpp)");
  cmd->add_option("--images", opts->images,
                  "take each table's picture from this image set instead of our renderer (the "
                  "physically based set rendered by POV-Ray: tests/data/povray), checked "
                  "against its truth file, then degraded as ours are");
  cmd->add_flag("--povray-render", opts->povray_render,
                "render the pictures the --images folder lacks with POV-Ray first (the povray "
                "program; about 20 s a table on two cores)");
  cmd->add_option("--dice", opts->dice,
                  "MIN-MAX dice on every base's top (e.g. 3-6: as the rules put them there "
                  "every round), d6-d12 in the rulebook's colours, over the ring");
  cmd->add_flag("--posed", opts->posed,
                "figures of a real one's shape: arms and a weapon over the rim, light flat "
                "hats and shoulders, capes");
  cmd->add_flag("--lamp", opts->lamp,
                "a lamp 30-45 degrees above the table at one side, casting soft shadows");
  cmd->add_option("--save", opts->save,
                  "write each table's first frame (degraded, as the pipeline sees it) to this "
                  "folder as a PNG");
  cmd->add_flag("--explain", opts->explain,
                "tell every base reported off its place, every false ring and every base not "
                "named at the last frame, with its frame and place (on standard error)");
  cmd->add_option("--target", opts->target,
                  "what the bases carry: square (ArUco), ring (one code band) or ring2 (two); "
                  "markerless: square-marker bases found by their round tops (markerless mode)")
      ->capture_default_str();
  cmd->add_option("--only", opts->only, "run only the scenarios whose name contains this");
  cmd->add_option("--seeds", opts->seeds, "seeded tables per scenario")
      ->check(CLI::Range(1, 50))
      ->capture_default_str();
  cmd->add_option("--first-seed", opts->first_seed,
                  "the first seed (another set of tables to check a change on: e.g. 17 with "
                  "--seeds 16 gives tables none of 1-16 are)")
      ->check(CLI::Range(1, 10000))
      ->capture_default_str();
  cmd->add_option("--frames", opts->frames,
                  "still frames per table: a base counts when named at its place in each of "
                  "the last 5 (one search cycle); errors are scored at the last")
      ->check(CLI::Range(1, 100))
      ->capture_default_str();
  cmd->add_option("--dictionary", opts->dictionary,
                  "square markers' family, e.g. DICT_4X4_50 or DICT_APRILTAG_36h11")
      ->capture_default_str();
  cmd->add_option("--refine", opts->refine,
                  "square markers' corner refinement: subpix (ours) or apriltag (OpenCV's)")
      ->capture_default_str();
  cmd->add_flag("--json", opts->json, "print JSON");
  cmd->callback([opts] {
    vision::BaseTargetKind target{};
    if (opts->target == "square" || opts->target == "markerless") {
      target = vision::BaseTargetKind::kSquare;
    } else if (opts->target == "ring") {
      target = vision::BaseTargetKind::kRing;
    } else if (opts->target == "ring2") {
      target = vision::BaseTargetKind::kRing2;
    } else {
      throw UsageError(
          fmt::format("--target is square, ring, ring2 or markerless, not '{}'", opts->target));
    }
    if (opts->refine != "subpix" && opts->refine != "apriltag")
      throw UsageError(fmt::format("--refine is subpix or apriltag, not '{}'", opts->refine));
    const auto dictionary = calib::dictionary_by_name(opts->dictionary);
    if (!dictionary) {
      throw UsageError(
          fmt::format("--dictionary: unknown marker family '{}' (try DICT_4X4_50, "
                      "DICT_APRILTAG_16h5, DICT_APRILTAG_36h11)",
                      opts->dictionary));
    }
    const auto [dice_min, dice_max] =
        opts->dice.empty() ? std::pair{0, 0} : dice_range(opts->dice, "--dice");
    if (opts->povray_render && opts->images.empty())
      throw UsageError("--povray-render needs --images DIR: the folder the pictures go to");
    nlohmann::json j = nlohmann::json::array();
    if (!opts->json && opts->processing)
      std::cout << "damage: each scenario's, with a camera's own processing (linear-light blur, "
                   "Bayer mosaic, sharpening)\n";
    if (!opts->json && !opts->images.empty())
      std::cout << fmt::format("pictures: the image set in {} (not our renderer)\n", opts->images);
    if (!opts->json) {
      std::cout << fmt::format(
          "{:<32} {:>7} {:>7} {:>7} {:>6} {:>6} {:>8} {:>15} {:>15} {:>4} {:>4} {:>14}\n",
          "scenario", "near", "middle", "far", "found", "last", "located", "centre p50/p95",
          "gap p50/p95", ">1in", "ids", "ms ours/plain");
    }
    for (auto sc : vision::standard_coverage_scenarios(target)) {
      if (!opts->only.empty() && sc.name.find(opts->only) == std::string::npos) continue;
      sc.seeds = opts->seeds;
      sc.first_seed = opts->first_seed;
      sc.frames = opts->frames;
      sc.dictionary = opts->dictionary;
      sc.refine_apriltag = opts->refine == "apriltag";
      sc.markerless = opts->target == "markerless";
      sc.dice_min = dice_min;
      sc.dice_max = dice_max;
      sc.posed = opts->posed;
      sc.lamp = opts->lamp;
      sc.save_dir = opts->save;
      sc.image_set = opts->images;
      if (opts->processing) {
        sc.degradation.linear_light = true;
        sc.degradation.bayer = true;
        sc.degradation.sharpen = vision::processing_webcam().sharpen;
      }
      sc.povray_render = opts->povray_render;
      if (opts->explain) sc.explain = &std::cerr;
      if (dice_max > 0) sc.name += fmt::format(" dice{}-{}", dice_min, dice_max);
      if (sc.posed) sc.name += " posed";
      if (sc.lamp) sc.name += " lamp";
      const auto r = vision::run_coverage(sc);
      // Named in every frame of the last search cycle, by third; "last": at the last frame.
      const auto third = [&](std::size_t k) {
        return fmt::format("{}/{}", r.every_frame[k], r.all[k]);
      };
      if (opts->json) {
        j.push_back({{"scenario", r.name},
                     {"dice", {dice_min, dice_max}},
                     {"posed", sc.posed},
                     {"lamp", sc.lamp},
                     {"degradation", vision::describe(sc.degradation)},
                     {"every_frame", r.every_frame},
                     {"found", r.found},
                     {"all", r.all},
                     {"located", r.located},
                     {"half_hidden", r.half_hidden},
                     {"centre_p50_in", r.centre_p50_in},
                     {"centre_p95_in", r.centre_p95_in},
                     {"gap_p50_in", r.gap_p50_in},
                     {"gap_p95_in", r.gap_p95_in},
                     {"off_by_1in", r.off_by_1in},
                     {"identity_switches", r.identity_switches},
                     {"unnamed", r.unnamed},
                     {"false_rings", r.false_rings},
                     {"pipeline_median_ms", r.pipeline_ms},
                     {"detect_markers_median_ms", r.detect_markers_ms}});
      } else {
        const int hidden = r.half_hidden[0] + r.half_hidden[1] + r.half_hidden[2];
        const auto share = [&](int n) { return r.all_total() ? 100.0 * n / r.all_total() : 0.0; };
        std::cout << fmt::format(
            "{:<32} {:>7} {:>7} {:>7} {:>4.0f} % {:>4.0f} % {:>6.0f} % {:>6.3f}/{:<7.3f} "
            "{:>6.3f}/{:<7.3f} {:>4} {:>4} {:>6.2f}/{:<6.2f}{}{}{}\n",
            r.name, third(0), third(1), third(2), share(r.every_frame_total()),
            share(r.found_total()), share(r.located[0] + r.located[1] + r.located[2]),
            r.centre_p50_in, r.centre_p95_in, r.gap_p50_in, r.gap_p95_in, r.off_by_1in,
            r.identity_switches, r.pipeline_ms, r.detect_markers_ms,
            r.unnamed ? fmt::format(" +{} unnamed", r.unnamed) : "",
            r.false_rings ? fmt::format(" +{} false rings", r.false_rings) : "",
            hidden ? fmt::format(" ({} half hidden)", hidden) : "");
        std::cout.flush();
      }
    }
    if (opts->json) {
      std::cout
          << nlohmann::json{{"target", opts->target}, {"one_core", true}, {"results", j}}.dump()
          << "\n";
    }
  });
}

void add_evening(CLI::App& bench) {
  auto* cmd = bench.add_subcommand(
      "evening",
      "An evening of play as the camera sees it: dice put on every base each round, one figure "
      "moved at a time, hands, a lamp; with the match's memory, scored in every frame");
  struct Opts {
    std::string only = "720p 70deg";
    int seeds = 2;
    int first_seed = 1;
    int rounds = 2;
    int moves = 4;
    std::string dice = "3-6";
    bool rough = false;
    bool no_lamp = false;
    bool no_hands = false;
    bool no_match = false;
    bool explain = false;
    std::string save;
    bool json = false;
  };
  auto opts = std::make_shared<Opts>();
  cmd->add_option("--save", opts->save,
                  "write every frame with a wrong name or a false ring to this folder as a PNG");
  cmd->add_option("--only", opts->only,
                  "the cameras whose scenario name contains this (\"\" for all five of "
                  "`duels bench coverage`)")
      ->capture_default_str();
  cmd->add_option("--seeds", opts->seeds, "tables per camera")
      ->check(CLI::Range(1, 50))
      ->capture_default_str();
  cmd->add_option("--first-seed", opts->first_seed, "the first table's seed")
      ->check(CLI::Range(1, 10000))
      ->capture_default_str();
  cmd->add_option("--rounds", opts->rounds, "rounds played on each table")
      ->check(CLI::Range(1, 10))
      ->capture_default_str();
  cmd->add_option("--moves", opts->moves, "figures moved in each round, one after another")
      ->check(CLI::Range(0, 16))
      ->capture_default_str();
  cmd->add_option("--dice", opts->dice, "MIN-MAX dice put on every base at a round's start")
      ->capture_default_str();
  cmd->add_flag("--rough-figures", opts->rough,
                "capsule figures instead of figures of a real one's shape");
  cmd->add_flag("--no-lamp", opts->no_lamp, "no lamp at the table's side");
  cmd->add_flag("--no-hands", opts->no_hands, "no hand over the table or the moved figures");
  cmd->add_flag("--no-match", opts->no_match,
                "the camera alone: the pipeline is not told where the match has its figures");
  cmd->add_flag("--explain", opts->explain,
                "tell every wrong name and every false ring, with its frame (on standard error)");
  cmd->add_flag("--json", opts->json, "print JSON");
  cmd->callback([opts] {
    const auto [dice_min, dice_max] = dice_range(opts->dice, "--dice");
    nlohmann::json j = nlohmann::json::array();
    if (!opts->json) {
      std::cout << fmt::format("{:<32} {:>6} {:>5} {:>7} {:>8} {:>7} {:>7} {:>6} {:>6} {:>6}\n",
                               "scenario", "tables", "moves", "right", "in sight", "hidden",
                               "worst", "wrong", "false", "ms");
    }
    for (auto sc : vision::standard_coverage_scenarios(vision::BaseTargetKind::kRing2)) {
      if (!opts->only.empty() && sc.name.find(opts->only) == std::string::npos) continue;
      vision::EveningScenario ev;
      sc.seeds = opts->seeds;
      sc.first_seed = opts->first_seed;
      sc.dice_min = dice_min;
      sc.dice_max = dice_max;
      sc.posed = !opts->rough;
      sc.lamp = !opts->no_lamp;
      ev.table = sc;
      ev.rounds = opts->rounds;
      ev.moves_per_round = opts->moves;
      ev.hands = !opts->no_hands;
      ev.match = !opts->no_match;
      if (opts->explain) ev.explain = &std::cerr;
      ev.save_dir = opts->save;
      const auto r = vision::run_evening(ev);
      if (opts->json) {
        j.push_back({{"scenario", r.name},
                     {"tables", r.tables},
                     {"frames", r.frames},
                     {"moves", r.moves},
                     {"scored", r.scored},
                     {"right", r.right},
                     {"in_sight", r.in_sight},
                     {"right_in_sight", r.right_in_sight},
                     {"hidden_right", r.hidden_right},
                     {"worst_frame", r.worst_frame},
                     {"wrong", r.wrong},
                     {"wrong_bases", r.wrong_bases},
                     {"false_rings", r.false_rings},
                     {"pipeline_median_ms", r.pipeline_ms}});
      } else {
        std::cout << fmt::format(
            "{:<32} {:>6} {:>5} {:>6.2f}% {:>7.2f}% {:>6.2f}% {:>6.1f}% {:>6} {:>6} {:>6.2f}\n",
            r.name, r.tables, r.moves, 100 * r.right_share(), 100 * r.right_in_sight_share(),
            r.scored ? 100.0 * static_cast<double>(r.hidden_right) / static_cast<double>(r.scored)
                     : 0.0,
            100 * r.worst_frame, r.wrong, r.false_rings, r.pipeline_ms);
        std::cout.flush();
      }
    }
    if (opts->json) {
      std::cout << nlohmann::json{{"match", !opts->no_match},
                                  {"dice", {dice_min, dice_max}},
                                  {"posed", !opts->rough},
                                  {"lamp", !opts->no_lamp},
                                  {"hands", !opts->no_hands},
                                  {"one_core", true},
                                  {"results", j}}
                       .dump()
                << "\n";
    }
  });
}

void add_bench(CLI::App& root) {
  auto* bench = root.add_subcommand("bench", "Benchmarks of the live parts, in one run each");
  bench->require_subcommand(1);
  auto* cmd = bench->add_subcommand(
      "vision", "Marker-mode pipeline vs plain cv::aruco::detectMarkers, one core");
  struct Opts {
    std::string source = "synthetic:demo";
    int repeats = 3;
    bool aruco3 = false;
    bool json = false;
  };
  auto opts = std::make_shared<Opts>();
  cmd->add_option("--source", opts->source,
                  "synthetic:NAME|FILE.yaml — the scene rendered at both resolutions")
      ->capture_default_str();
  cmd->add_option("--repeats", opts->repeats, "times each frame is processed")
      ->check(CLI::Range(1, 100))
      ->capture_default_str();
  cmd->add_flag("--aruco3", opts->aruco3, "our pipeline with OpenCV's ArUco3 detection");
  cmd->add_flag("--json", opts->json, "print JSON");
  cmd->callback([opts] {
    if (opts->source.rfind("synthetic:", 0) != 0) {
      throw UsageError(
          "--source must be synthetic:NAME or synthetic:FILE.yaml (the frames are rendered at "
          "1280x720 and 1920x1080 from the scene)");
    }
    const auto spec = vision::load_named_scene(opts->source.substr(10), assets_dir());
    vision::DetectorOptions detector;
    detector.aruco3 = opts->aruco3;
    nlohmann::json j = nlohmann::json::array();
    for (int width : {1280, 1920}) {
      const auto scene = vision::render_scaled(spec, width, 6);
      const auto t =
          vision::time_pipeline(scene.frames, scene.plane, scene.map, opts->repeats, detector);
      if (opts->json) {
        j.push_back({{"width", t.size.width},
                     {"height", t.size.height},
                     {"frames", t.frames},
                     {"pipeline_median_ms", t.pipeline_ms},
                     {"detect_markers_median_ms", t.detect_markers_ms},
                     {"ratio", t.ratio()}});
      } else {
        std::cout << fmt::format(
            "{}x{}: pipeline {:.2f} ms, plain detectMarkers {:.2f} ms per frame (medians of {} "
            "frames x {}), ratio {:.2f}\n",
            t.size.width, t.size.height, t.pipeline_ms, t.detect_markers_ms, t.frames,
            opts->repeats, t.ratio());
      }
    }
    if (opts->json)
      std::cout << nlohmann::json{{"scene", spec.name}, {"one_core", true}, {"results", j}}.dump()
                << "\n";
  });
  add_coverage(*bench);
  add_evening(*bench);
}

}  // namespace

DUELS_COMMAND(73, add_bench);

}  // namespace duels::app
