// `duels bench vision [--source …]` — per-frame medians of the whole marker-mode pipeline and of
// plain cv::aruco::detectMarkers on the same frames, at 1280x720 and 1920x1080, with the ratio.
#include <fmt/format.h>

#include <iostream>
#include <nlohmann/json.hpp>

#include "app/command.hpp"
#include "vision/timing.hpp"

namespace duels::app {
namespace {

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
}

}  // namespace

DUELS_COMMAND(73, add_bench);

}  // namespace duels::app
