// `duels synth SCENE.yaml --out DIR|FILE.mkv --truth FILE.jsonl` — render a synthetic table scene.
#include <fmt/format.h>

#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "app/command.hpp"
#include "common/atomic_file.hpp"
#include "common/error.hpp"
#include "vision/render.hpp"
#include "vision/scene.hpp"
#include "vision/source.hpp"

namespace duels::app {
namespace {

nlohmann::json truth_json(const vision::FrameTruth& t) {
  nlohmann::json j;
  j["frame"] = t.index;
  j["time_s"] = t.time_s;
  j["hand_in_view"] = t.hand_in_view;
  j["bases"] = nlohmann::json::array();
  for (const auto& b : t.bases) {
    nlohmann::json corners = nlohmann::json::array();
    for (const auto& c : b.marker_corners_px)
      corners.push_back({c.x, c.y});
    j["bases"].push_back({{"id", b.id},
                          {"figure", b.figure},
                          {"marker", b.marker_id},
                          {"centre_in", {b.centre_in.x, b.centre_in.y}},
                          {"radius_in", b.radius_in},
                          {"angle_deg", b.angle_deg},
                          {"moving", b.moving},
                          {"marker_visible", b.marker_visible},
                          {"marker_corners_px", corners}});
  }
  return j;
}

void add_synth(CLI::App& root) {
  auto* cmd = root.add_subcommand(
      "synth", "Render a synthetic table scene (YAML) to frames with per-frame ground truth");
  struct Opts {
    std::string scene;
    std::string out;
    std::string truth;
    std::optional<int> frames;
    bool json = false;
  };
  auto opts = std::make_shared<Opts>();
  cmd->add_option("scene", opts->scene, "scene file, or a bundled scene name such as `demo`")
      ->required();
  cmd->add_option("--out", opts->out, "output: a folder of PNGs, or FILE.mkv / FILE.avi");
  cmd->add_option("--truth", opts->truth, "ground truth, one JSON line per frame");
  cmd->add_option("--frames", opts->frames, "render only the first N frames")
      ->check(CLI::PositiveNumber);
  cmd->add_flag("--json", opts->json, "print a JSON summary");
  cmd->callback([opts] {
    if (opts->out.empty() && opts->truth.empty()) {
      throw UsageError("give --out DIR|FILE.mkv and/or --truth FILE.jsonl");
    }
    vision::SceneRenderer renderer(vision::load_named_scene(opts->scene, assets_dir()));
    const auto& spec = renderer.spec();
    const int frames = std::min(spec.frame_count(), opts->frames.value_or(spec.frame_count()));
    std::optional<vision::FrameSink> sink;
    if (!opts->out.empty()) sink.emplace(opts->out, spec.fps);
    std::ostringstream truth;  // written atomically at the end
    for (int i = 0; i < frames; ++i) {
      vision::FrameTruth t;
      if (sink) {
        sink->write(renderer.render(i, &t));
      } else {
        t = renderer.truth_at(i, i / spec.fps);
      }
      if (!opts->truth.empty()) truth << truth_json(t).dump() << "\n";
    }
    if (!opts->truth.empty()) write_file_atomically(opts->truth, truth.str());
    if (opts->json) {
      std::cout << nlohmann::json{{"scene", spec.name},
                                  {"frames", frames},
                                  {"fps", spec.fps},
                                  {"width", spec.camera.image_size.width},
                                  {"height", spec.camera.image_size.height},
                                  {"out", opts->out},
                                  {"truth", opts->truth}}
                       .dump()
                << "\n";
    } else {
      std::cout << fmt::format("{}: {} frames {}x{} at {} fps{}{}\n", spec.name, frames,
                               spec.camera.image_size.width, spec.camera.image_size.height,
                               spec.fps, opts->out.empty() ? "" : " -> " + opts->out,
                               opts->truth.empty() ? "" : ", truth -> " + opts->truth);
    }
  });
}

}  // namespace

DUELS_COMMAND(72, add_synth);

}  // namespace duels::app
