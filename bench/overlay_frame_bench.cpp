// Frame time of the overlay window with 8 bases on a table with terrain: the selected figure's
// tape rings, the line of fire to a hovered target and the shaded reachable region all drawn.
// Baseline in the same run: a bare Dear ImGui frame (same window, no panels). Needs a display:
//   xvfb-run -a -s "-screen 0 1600x1000x24" ./build/bin/overlay_frame_bench
// Also times the per-frame session work (table view and all measurements) headless.
#include <benchmark/benchmark.h>
#include <fmt/format.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>

#include "duels/assets.hpp"
#include "overlay/gui.hpp"

namespace {

using namespace duels;
namespace fs = std::filesystem;

const AssetLibrary& library() {
  static const AssetLibrary lib = load_asset_library(DUELS_ASSETS_DIR);
  return lib;
}

// Two teams of four sample figures facing each other across the demo table's terrain.
MatchSetup eight_bases() {
  MatchSetup s;
  s.options.enforce_placement_distance = false;
  const char* names[] = {"Razor", "Hex", "Gridlock", "Bulldozer"};
  for (int t = 0; t < 2; ++t) {
    TeamSetup team{t == 0 ? "Blue Side" : "Orange Side", {}};
    for (int i = 0; i < 4; ++i) {
      FigureSetup f;
      f.figure = *library().find_figure(names[i]);
      f.position = Point{8.0 + 12.0 * i + (t == 0 ? 0 : 5), t == 0 ? 6.0 + 2 * i : 50.0 - 3 * i};
      team.figures.push_back(std::move(f));
    }
    s.teams.push_back(std::move(team));
  }
  return s;
}

overlay::TableLayout demo_terrain() {
  const Scene scene = load_scene_file(std::string(DUELS_ASSETS_DIR) + "/scenes/demo_table.yaml",
                                      [](std::string_view n) { return library().find_figure(n); });
  return overlay::layout_from_scene(scene);
}

// A match at the first turn with all four terrain pieces down.
std::string prepare(const fs::path& dir) {
  const std::string path = (dir / "bench.jsonl").string();
  fs::remove(path);
  fs::remove(overlay::PositionLog::path_for(path));
  auto m = match::DuelsMatch::create(path, eight_bases(), 3);
  auto ok = [&](const Command& c) {
    if (auto r = m.play(c); !r) throw std::runtime_error(r.error().reason);
  };
  ok(RollForAlpha{{{0, {6, 6}}, {1, {1, 1}}}});
  ok(PlaceTerrain{0, "crate"});
  ok(PlaceTerrain{1, "pillar"});
  ok(PlaceTerrain{0, "wall"});
  ok(PlaceTerrain{1, "rubble"});
  for (FigureId f = 0; f < 8; ++f)
    ok(ChooseDice{f, {0, 1, 2, 3, 4, 5}});
  return path;
}

// Per frame, the session rebuilds the table view after a change and measures what is shown.
void BM_SessionMeasuresAllPairs(benchmark::State& state) {
  const auto view_state = [] {
    GameState g = *new_game(eight_bases());
    for (const char* id : {"crate", "pillar", "wall", "rubble"})
      g.terrain.push_back({id, 0});
    return g;
  }();
  const overlay::TableLayout layout = demo_terrain();
  for (auto _ : state) {
    const overlay::TableView v = overlay::make_table_view(view_state, layout, {});
    for (FigureId a = 0; a < 4; ++a) {
      for (FigureId t = 4; t < 8; ++t)
        benchmark::DoNotOptimize(overlay::measure_attack(v, view_state, a, t));
    }
  }
}
BENCHMARK(BM_SessionMeasuresAllPairs)->Unit(benchmark::kMicrosecond);

double median_after_warmup(const overlay::GuiResult& r, std::size_t warmup) {
  overlay::GuiResult tail;
  tail.frame_ms.assign(
      r.frame_ms.begin() + static_cast<std::ptrdiff_t>(std::min(warmup, r.frame_ms.size())),
      r.frame_ms.end());
  return tail.median_frame_ms();
}

void frame_report() {
  if (!overlay::display_advertised()) {
    std::cout << "\nNo display: the window's frame time was not measured (run under xvfb-run).\n";
    return;
  }
  const fs::path dir = fs::temp_directory_path() / "duels-overlay-bench";
  fs::create_directories(dir / "config");
  setenv("XDG_CONFIG_HOME", (dir / "config").c_str(), 1);
  constexpr int kFrames = 420;
  // Select, target, start a move, then keep the mouse on a target until the frames are done.
  auto script_for = [&](int frames) {
    const std::string path = (dir / fmt::format("bench{}.ui", frames)).string();
    std::ofstream(path) << "click-base Razor\nhover-base Gridlock\nwait 5\nkey m\n"
                        << "hover-base Hex\nwait " << frames << "\n";
    return path;
  };
  auto run = [&](bool bare, bool finish, bool camera = false) {
    const int frames = camera ? 2 * kFrames : kFrames;  // the first ones wait for the stream
    overlay::GuiOptions g;
    g.match_path = prepare(dir);
    g.layout = demo_terrain();
    g.ui_script = bare ? std::string() : script_for(frames);
    g.frames = frames;
    g.scale = 1;
    g.reset_layout = true;
    g.finish_each_frame = finish;
    g.bare = bare;
    g.session.threaded_odds = true;
#if DUELS_OVERLAY_CAMERA
    if (camera) {
      overlay::CameraFeedOptions cam;
      // 1920x1080 with the eight bases of this match, tracked on the vision thread. The frames
      // are rendered once and played back at 30 frames/s like a webcam's (rendering a synthetic
      // frame costs hundreds of milliseconds of both cores; capturing a webcam's, nothing).
      cam.source = "synthetic:bench8";
      cam.assets_dir = DUELS_ASSETS_DIR;
      cam.prerender_frames = 10;
      cam.stream_fps = 30;
      cam.realtime = true;
      g.camera = cam;
    }
#else
    (void)camera;
#endif
    return overlay::run_gui(std::move(g));
  };
  try {
    const overlay::GuiResult ours = run(false, true);
    const overlay::GuiResult ours_cpu = run(false, false);
    const overlay::GuiResult bare = run(true, true);
    const double ours_ms = median_after_warmup(ours, 30);
    const double cpu_ms = median_after_warmup(ours_cpu, 30);
    const double bare_ms = median_after_warmup(bare, 30);
    std::cout << fmt::format(
        "\nOverlay window, 1600x1000, 8 bases, 4 terrain pieces, tape rings + line of fire + "
        "reachable region drawn ({} frames each, medians after 30 warm-up frames):\n"
        "  frame built and drawn, GPU finished (glFinish): {:.2f} ms   (budget 16 ms)\n"
        "  frame built and submitted (CPU side only):      {:.2f} ms\n"
        "  bare Dear ImGui frame, same window, glFinish:   {:.2f} ms   (ratio {:.1f}x)\n"
        "  last frame: {} draw calls, {} vertices; renderer: {}\n",
        kFrames, ours_ms, cpu_ms, bare_ms, bare_ms > 0 ? ours_ms / bare_ms : 0.0,
        ours.last_draw_calls, ours.last_vertices, ours.renderer);
    if (!ours.script_error.empty()) std::cout << "  (script: " << ours.script_error << ")\n";
#if DUELS_OVERLAY_CAMERA
    // Timed from 30 frames after the first camera picture (the stream is rendered first).
    auto warmup = [](const overlay::GuiResult& r) {
      return static_cast<std::size_t>(std::max(0, r.camera_live_from_frame) + 30);
    };
    const overlay::GuiResult cam = run(false, true, true);
    const overlay::GuiResult cam_cpu = run(false, false, true);
    if (cam.camera) {
      std::cout << fmt::format(
          "With the camera view on a 1080p synthetic stream of the 8 bases at 30 frames/s "
          "(vision on its own thread):\n"
          "  frame built and drawn, GPU finished (glFinish): {:.2f} ms\n"
          "  frame built and submitted (CPU side only):      {:.2f} ms\n"
          "  vision thread: {:.2f} frames/s (last frame: {:.0f} ms capture, {:.1f} ms vision), "
          "{} frames{}\n",
          median_after_warmup(cam, warmup(cam)), median_after_warmup(cam_cpu, warmup(cam_cpu)),
          cam.camera->frames_per_s, cam.camera->capture_ms, cam.camera->vision_ms,
          cam.camera->frame + 1, cam.camera->error.empty() ? "" : " (" + cam.camera->error + ")");
    }
#endif
  } catch (const overlay::GuiUnavailable& e) {
    std::cout << "\nNo window: " << e.what() << "\n";
  }
}

}  // namespace

int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  frame_report();
  return 0;
}
