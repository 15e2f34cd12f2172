// Marker mode per frame: our whole pipeline (detect + sub-pixel corners + table mapping +
// tracking + measuring) against plain cv::aruco::detectMarkers on the same synthetic frames of
// the demo scene, at 1280x720 and 1920x1080, on one core. Google Benchmark times both; the
// custom main then prints the per-frame medians of both from one interleaved run and the ratio.
#include <benchmark/benchmark.h>

#include <opencv2/aruco.hpp>
#include <opencv2/imgproc.hpp>

#include <cstdio>
#include <map>
#include <string>

#include "vision/pipeline.hpp"
#include "vision/timing.hpp"

namespace {

using duels::vision::ScaledScene;

// Rendered once per size for the whole run.
const ScaledScene& scene_at(int width) {
  static std::map<int, ScaledScene> cache;
  auto it = cache.find(width);
  if (it == cache.end()) {
    it = cache
             .emplace(width,
                      duels::vision::render_scaled(
                          duels::vision::load_named_scene("demo", DUELS_ASSETS_DIR), width, 10))
             .first;
  }
  return it->second;
}

void BM_Pipeline(benchmark::State& state) {
  cv::setNumThreads(1);
  const ScaledScene& s = scene_at(static_cast<int>(state.range(0)));
  duels::vision::Pipeline pipeline(s.plane, s.map);
  std::size_t i = 0;
  std::int64_t n = 0;
  for (auto _ : state) {
    const auto r = pipeline.process(s.frames[i], n, static_cast<double>(n) * 0.1);
    benchmark::DoNotOptimize(r.state.bases.size());
    i = (i + 1) % s.frames.size();
    ++n;
  }
}

void BM_PlainDetectMarkers(benchmark::State& state) {
  cv::setNumThreads(1);
  const ScaledScene& s = scene_at(static_cast<int>(state.range(0)));
  auto dict = cv::aruco::getPredefinedDictionary(cv::aruco::DICT_4X4_50);
  auto params = cv::aruco::DetectorParameters::create();
  std::size_t i = 0;
  for (auto _ : state) {
    cv::Mat gray;
    cv::cvtColor(s.frames[i], gray, cv::COLOR_BGR2GRAY);
    std::vector<std::vector<cv::Point2f>> corners;
    std::vector<int> ids;
    cv::aruco::detectMarkers(gray, dict, corners, ids, params);
    benchmark::DoNotOptimize(ids.size());
    i = (i + 1) % s.frames.size();
  }
}

BENCHMARK(BM_Pipeline)->Arg(1280)->Arg(1920)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_PlainDetectMarkers)->Arg(1280)->Arg(1920)->Unit(benchmark::kMillisecond);

}  // namespace

int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  benchmark::RunSpecifiedBenchmarks();
  for (int width : {1280, 1920}) {
    const ScaledScene& s = scene_at(width);
    const auto t = duels::vision::time_pipeline(s.frames, s.plane, s.map, 5);
    std::printf(
        "%dx%d: pipeline median %.2f ms, detectMarkers median %.2f ms, ratio %.2f (%d frames)\n",
        t.size.width, t.size.height, t.pipeline_ms, t.detect_markers_ms, t.ratio(), t.frames);
  }
  benchmark::Shutdown();
  return 0;
}
