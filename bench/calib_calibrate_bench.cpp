// A full calibration of 20 views: calib::calibrate (OpenCV's calibrateCameraExtended + outlier
// check + the full covariance) beside a plain cv::calibrateCamera on the same corners, in one
// run. The corners are exact projections of a 9x6 board in 20 seeded poses (1080p webcam)
// with 0.3 px noise. Prints the time ratio at the end.
#include <benchmark/benchmark.h>

#include <cstdio>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include <opencv2/calib3d.hpp>

#include "calib/intrinsics.hpp"
#include "calib/synthetic.hpp"

// Prints like the console reporter and records each benchmark's real time (ns), so main()
// can print ours / OpenCV ratios after the run.
namespace duels::calib::bench {

class RatioReporter : public benchmark::ConsoleReporter {
 public:
  void ReportRuns(const std::vector<Run>& runs) override {
    for (const auto& r : runs) {
      if (r.run_type == Run::RT_Iteration) times_[r.benchmark_name()] = r.GetAdjustedRealTime();
    }
    ConsoleReporter::ReportRuns(runs);
  }
  /// Prints "ours vs baseline: x.xx times the time" for each pair found in the run.
  void print_ratios(const std::vector<std::pair<std::string, std::string>>& pairs) const {
    std::printf("\nours / plain OpenCV (time ratio, < 1 = ours faster):\n");
    for (const auto& [ours, base] : pairs) {
      const auto a = times_.find(ours);
      const auto b = times_.find(base);
      if (a == times_.end() || b == times_.end() || b->second <= 0) continue;
      std::printf("  %-34s / %-34s = %.2f\n", ours.c_str(), base.c_str(), a->second / b->second);
    }
  }

 private:
  std::map<std::string, double> times_;
};

}  // namespace duels::calib::bench

namespace {

using namespace duels::calib;

const std::vector<BoardView>& views() {
  static const std::vector<BoardView> v = [] {
    PatternSpec spec;
    const Intrinsics cam = example_webcam_1080p();
    cv::RNG rng(20);
    std::vector<BoardView> out;
    for (const auto& pose : calibration_poses(cam, spec, 20, 20)) {
      BoardView view = project_board(cam, spec, pose);
      jitter_corners(view, 0.3, rng);
      out.push_back(view);
    }
    return out;
  }();
  return v;
}

void ours_calibrate_20_views(benchmark::State& state) {
  for (auto _ : state) {
    auto r = calibrate(views());
    if (!r) state.SkipWithError("failed");
    benchmark::DoNotOptimize(r);
  }
}

void opencv_calibrate_camera_20_views(benchmark::State& state) {
  std::vector<std::vector<cv::Point3f>> object;
  std::vector<std::vector<cv::Point2f>> image;
  for (const auto& v : views()) {
    object.push_back(v.board_mm);
    image.push_back(v.image_px);
  }
  for (auto _ : state) {
    cv::Mat k;
    cv::Mat d;
    std::vector<cv::Mat> rvecs;
    std::vector<cv::Mat> tvecs;
    benchmark::DoNotOptimize(cv::calibrateCamera(object, image, {1920, 1080}, k, d, rvecs, tvecs));
  }
}

BENCHMARK(ours_calibrate_20_views)->Unit(benchmark::kMillisecond);
BENCHMARK(opencv_calibrate_camera_20_views)->Unit(benchmark::kMillisecond);

}  // namespace

int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  views();
  duels::calib::bench::RatioReporter reporter;
  benchmark::RunSpecifiedBenchmarks(&reporter);
  reporter.print_ratios({{"ours_calibrate_20_views", "opencv_calibrate_camera_20_views"}});
  benchmark::Shutdown();
  return 0;
}
