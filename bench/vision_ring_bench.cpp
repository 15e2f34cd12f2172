// The base rings' rim fit and ring search, on one core, on the frames of `duels bench coverage`'s
// first two-band scenario (720p webcam, 70° HFOV, 61", 45°, blur 1 px, noise, JPEG 70, uneven
// light; seeds 1–4, 64 bases): `fit_base_rim` from a guess near each base (as when a ring is
// followed), from a guess half a radius off (a top-view candidate), and from table points where
// no base stands (a false candidate); then a whole search of the table (`RingFinder::find`)
// beside plain cv::aruco::detectMarkers on the same frames. The custom main prints the per-call
// times and the search's ratio to detectMarkers.
#include <benchmark/benchmark.h>

#include <opencv2/aruco.hpp>
#include <opencv2/imgproc.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <vector>

#include "bench/summary_reporter.hpp"
#include "calib/table.hpp"
#include "vision/coverage.hpp"
#include "vision/degrade.hpp"
#include "vision/ring.hpp"

namespace {

using duels::vision::CoverageScenario;

struct Frame {
  cv::Mat gray;
  duels::calib::TablePlane plane;
  std::vector<cv::Point2d> bases;  // true centres, inches
  std::vector<cv::Point2d> empty;  // table points with no base within 2.5 radii
};

struct Frames {
  std::vector<Frame> frames;
  double radius_in = 1;
  double height_in = 0.75;
};

// Rendered once for the whole run.
const Frames& frames() {
  static const Frames out = [] {
    Frames f;
    const CoverageScenario sc =
        duels::vision::standard_coverage_scenarios(duels::vision::BaseTargetKind::kRing2).front();
    f.radius_in = sc.diameter_in / 2;
    for (int seed = 1; seed <= 4; ++seed) {
      // The frames `duels bench coverage` scores: its own recipe, frame 0.
      const auto table = duels::vision::coverage_table(sc, seed);
      const auto& spec = table.spec;
      cv::Mat gray;
      cv::cvtColor(duels::vision::degrade(table.clean, table.degradation, 0), gray,
                   cv::COLOR_BGR2GRAY);
      Frame fr{
          gray, duels::calib::TablePlane(spec.camera, spec.table_to_camera, spec.table), {}, {}};
      for (const auto& b : table.truth.bases)
        fr.bases.push_back(b.centre_in);
      if (!spec.bases.empty()) f.height_in = spec.bases.front().height_in;
      cv::RNG rng(static_cast<std::uint64_t>(seed));
      while (fr.empty.size() < fr.bases.size()) {
        const cv::Point2d p(rng.uniform(4.0, 56.0), rng.uniform(4.0, 56.0));
        bool clear = true;
        for (const auto& b : fr.bases)
          clear = clear && cv::norm(p - b) > 2.5 * f.radius_in;
        if (clear) fr.empty.push_back(p);
      }
      f.frames.push_back(std::move(fr));
    }
    return f;
  }();
  return out;
}

// One fit_base_rim call per base (or empty point) of every frame per iteration; `offset`: the
// guess's distance from the point, in radii (its direction turns from base to base).
void run_fits(benchmark::State& state, bool on_bases, double offset, bool wide) {
  cv::setNumThreads(1);
  const Frames& f = frames();
  std::int64_t calls = 0;
  std::int64_t fitted = 0;
  for (auto _ : state) {
    for (const auto& fr : f.frames) {
      const auto& at = on_bases ? fr.bases : fr.empty;
      for (std::size_t i = 0; i < at.size(); ++i) {
        const double a = 2.399 * static_cast<double>(i);
        const cv::Point2d guess =
            at[i] + offset * f.radius_in * cv::Point2d(std::cos(a), std::sin(a));
        const auto fit =
            duels::vision::fit_base_rim(fr.plane, fr.gray, guess, f.radius_in, f.height_in, wide);
        fitted += fit.has_value();
        ++calls;
      }
    }
  }
  state.SetItemsProcessed(calls);
  state.counters["fitted_share"] = benchmark::Counter(
      static_cast<double>(fitted) / static_cast<double>(std::max<std::int64_t>(1, calls)));
  state.counters["us_per_call"] = benchmark::Counter(
      static_cast<double>(calls) * 1e-6, benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
}

void BM_FitBaseRim_Near(benchmark::State& state) {
  run_fits(state, true, 0.1, false);
}
void BM_FitBaseRim_Wide(benchmark::State& state) {
  run_fits(state, true, 0.3, true);
}
void BM_FitBaseRim_NoBase(benchmark::State& state) {
  run_fits(state, false, 0.0, true);
}

void BM_RingFind(benchmark::State& state) {
  cv::setNumThreads(1);
  const Frames& f = frames();
  std::vector<duels::vision::RingFinder> finders;
  for (const auto& fr : f.frames)
    finders.emplace_back(fr.plane, 2 * f.radius_in, f.height_in,
                         duels::vision::RingStyle::kTwoBand);
  std::size_t i = 0;
  for (auto _ : state) {
    const auto rings = finders[i].find(f.frames[i].gray, {}, 16);
    benchmark::DoNotOptimize(rings.size());
    i = (i + 1) % f.frames.size();
  }
}

void BM_PlainDetectMarkers(benchmark::State& state) {
  cv::setNumThreads(1);
  const Frames& f = frames();
  auto dict = cv::aruco::getPredefinedDictionary(cv::aruco::DICT_4X4_50);
  auto params = cv::aruco::DetectorParameters::create();
  std::size_t i = 0;
  for (auto _ : state) {
    std::vector<std::vector<cv::Point2f>> corners;
    std::vector<int> ids;
    cv::aruco::detectMarkers(f.frames[i].gray, dict, corners, ids, params);
    benchmark::DoNotOptimize(ids.size());
    i = (i + 1) % f.frames.size();
  }
}

BENCHMARK(BM_FitBaseRim_Near)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_FitBaseRim_Wide)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_FitBaseRim_NoBase)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_RingFind)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_PlainDetectMarkers)->Unit(benchmark::kMillisecond);

// The search's ratio to plain detectMarkers, printed after the table.
class RatioReporter : public duels::bench::SummaryReporter {
 public:
  void print_summary() const override {
    const double find = time("BM_RingFind");
    const double plain = time("BM_PlainDetectMarkers");
    if (find > 0 && plain > 0) {
      std::printf("720p: ring search %.2f ms a frame, detectMarkers %.2f ms, ratio %.2f\n", find,
                  plain, find / plain);
    }
  }
};

}  // namespace

int main(int argc, char** argv) {
  return duels::bench::run_with_summary<RatioReporter>(argc, argv);
}
