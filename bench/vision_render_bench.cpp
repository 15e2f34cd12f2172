// The demo camera: the exact scene renderer (every frame painted whole, what `duels demo` did
// before) against the live renderer (only what changed since the previous frame is repainted),
// on the demo scene at 1920x1080, the frames in order as the window asks for them. Both walk the
// scene's whole 12-second script (still, walking, a hand sweep). Wall time on all cores, as the
// window's camera thread runs; the custom main prints frames per second of both and the ratio.
#include <benchmark/benchmark.h>

#include <chrono>
#include <cstdio>
#include <memory>

#include "vision/render.hpp"
#include "vision/scene.hpp"

namespace {

std::shared_ptr<const duels::vision::SceneRenderer> demo() {
  static auto scene = std::make_shared<const duels::vision::SceneRenderer>(
      duels::vision::load_named_scene("demo", DUELS_ASSETS_DIR));
  return scene;
}

void BM_ExactRenderer(benchmark::State& state) {
  const auto scene = demo();
  const int frames = scene->spec().frame_count();
  std::int64_t i = 0;
  for (auto _ : state) {
    benchmark::DoNotOptimize(scene->render(i % frames).data);
    ++i;
  }
}

void BM_LiveRenderer(benchmark::State& state) {
  const auto scene = demo();
  duels::vision::LiveRenderer live(scene);
  const int frames = scene->spec().frame_count();
  std::int64_t i = 0;
  for (auto _ : state) {
    benchmark::DoNotOptimize(live.render(i % frames).data);
    ++i;
  }
}

BENCHMARK(BM_ExactRenderer)->Unit(benchmark::kMillisecond)->UseRealTime()->MinTime(3);
BENCHMARK(BM_LiveRenderer)->Unit(benchmark::kMillisecond)->UseRealTime()->MinTime(3);

// One pass over the whole script with each renderer, interleaved frame by frame so both see the
// same machine load: frames per second of both and the ratio.
void whole_script() {
  using Clock = std::chrono::steady_clock;
  const auto scene = demo();
  duels::vision::LiveRenderer live(scene);
  const int frames = scene->spec().frame_count();
  double exact_s = 0;
  double live_s = 0;
  for (int i = 0; i < frames; ++i) {
    auto t0 = Clock::now();
    benchmark::DoNotOptimize(scene->render(i).data);
    auto t1 = Clock::now();
    benchmark::DoNotOptimize(live.render(i).data);
    auto t2 = Clock::now();
    exact_s += std::chrono::duration<double>(t1 - t0).count();
    live_s += std::chrono::duration<double>(t2 - t1).count();
  }
  std::printf(
      "demo scene 1920x1080, %d frames: exact renderer %.1f frames/s, live renderer %.1f "
      "frames/s, ratio %.1fx\n",
      frames, frames / exact_s, frames / live_s, exact_s / live_s);
}

}  // namespace

int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  whole_script();
  return 0;
}
