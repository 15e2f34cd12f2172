// Corner detection per 1080p frame: calib::detect_board beside the plain OpenCV calls a
// calibration program would make (findChessboardCorners + cornerSubPix as in OpenCV's
// calibration sample, findChessboardCornersSB, detectMarkers + interpolateCornersCharuco),
// on the same rendered frames, in one run. Prints the time ratios at the end.
#include <benchmark/benchmark.h>

#include <cstdio>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include <opencv2/aruco/charuco.hpp>
#include <opencv2/calib3d.hpp>
#include <opencv2/imgproc.hpp>

#include "calib/detect.hpp"
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

PatternSpec chessboard() {
  PatternSpec s;
  s.cols = 9;
  s.rows = 6;
  s.square_mm = 25;
  return s;
}

PatternSpec charuco() {
  PatternSpec s;
  s.kind = PatternKind::kCharuco;
  s.cols = 7;
  s.rows = 5;
  s.square_mm = 30;
  s.marker_mm = 22;
  s.dictionary = "DICT_5X5_100";
  return s;
}

// The frames: rendered once (seeded), grey, 1920x1080.
struct Frames {
  cv::Mat chessboard;
  cv::Mat charuco;
  cv::Mat empty;
};

const Frames& frames() {
  static const Frames f = [] {
    Frames out;
    const Intrinsics cam = example_webcam_1080p();
    const SyntheticCamera synth(cam, 2);
    out.chessboard =
        synth.render(board_texture(chessboard(), 4.0),
                     calibration_poses(cam, chessboard(), 1, 5, 30).at(0), {0.6, 2, 1});
    out.charuco = synth.render(board_texture(charuco(), 4.0),
                               calibration_poses(cam, charuco(), 1, 6, 30).at(0), {0.6, 2, 2});
    cv::Mat bg(1080, 1920, CV_8UC1, cv::Scalar(150));
    cv::RNG(3).fill(bg, cv::RNG::NORMAL, 150, 6);
    out.empty = bg;
    return out;
  }();
  return f;
}

void ours_chessboard(benchmark::State& state) {
  for (auto _ : state) {
    auto v = detect_board(frames().chessboard, chessboard());
    if (!v) state.SkipWithError("not found");
    benchmark::DoNotOptimize(v);
  }
}

void opencv_chessboard(benchmark::State& state) {
  for (auto _ : state) {
    std::vector<cv::Point2f> corners;
    const bool found = cv::findChessboardCorners(
        frames().chessboard, {9, 6}, corners,
        cv::CALIB_CB_ADAPTIVE_THRESH | cv::CALIB_CB_NORMALIZE_IMAGE | cv::CALIB_CB_FAST_CHECK);
    if (!found) state.SkipWithError("not found");
    cv::cornerSubPix(frames().chessboard, corners, {11, 11}, {-1, -1},
                     {cv::TermCriteria::EPS + cv::TermCriteria::COUNT, 30, 0.0001});
    benchmark::DoNotOptimize(corners.data());
  }
}

void opencv_chessboard_sb(benchmark::State& state) {
  for (auto _ : state) {
    std::vector<cv::Point2f> corners;
    if (!cv::findChessboardCornersSB(frames().chessboard, {9, 6}, corners)) {
      state.SkipWithError("not found");
    }
    benchmark::DoNotOptimize(corners.data());
  }
}

void ours_no_board(benchmark::State& state) {
  DetectOptions live;
  live.thorough = false;
  for (auto _ : state)
    benchmark::DoNotOptimize(detect_board(frames().empty, chessboard(), live));
}

void opencv_no_board(benchmark::State& state) {
  for (auto _ : state) {
    std::vector<cv::Point2f> corners;
    benchmark::DoNotOptimize(cv::findChessboardCorners(
        frames().empty, {9, 6}, corners,
        cv::CALIB_CB_ADAPTIVE_THRESH | cv::CALIB_CB_NORMALIZE_IMAGE | cv::CALIB_CB_FAST_CHECK));
  }
}

void ours_charuco(benchmark::State& state) {
  for (auto _ : state) {
    auto v = detect_board(frames().charuco, charuco());
    if (!v) state.SkipWithError("not found");
    benchmark::DoNotOptimize(v);
  }
}

void opencv_charuco(benchmark::State& state) {
  const auto board = make_charuco_board(charuco());
  for (auto _ : state) {
    std::vector<std::vector<cv::Point2f>> marker_corners;
    std::vector<int> ids;
    cv::aruco::detectMarkers(frames().charuco, board->dictionary, marker_corners, ids);
    std::vector<cv::Point2f> corners;
    std::vector<int> corner_ids;
    cv::aruco::interpolateCornersCharuco(marker_corners, ids, frames().charuco, board, corners,
                                         corner_ids);
    if (corner_ids.empty()) state.SkipWithError("not found");
    benchmark::DoNotOptimize(corners.data());
  }
}

BENCHMARK(ours_chessboard)->Unit(benchmark::kMillisecond);
BENCHMARK(opencv_chessboard)->Unit(benchmark::kMillisecond);
BENCHMARK(opencv_chessboard_sb)->Unit(benchmark::kMillisecond);
BENCHMARK(ours_no_board)->Unit(benchmark::kMillisecond);
BENCHMARK(opencv_no_board)->Unit(benchmark::kMillisecond);
BENCHMARK(ours_charuco)->Unit(benchmark::kMillisecond);
BENCHMARK(opencv_charuco)->Unit(benchmark::kMillisecond);

}  // namespace

int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  frames();  // render before timing
  duels::calib::bench::RatioReporter reporter;
  benchmark::RunSpecifiedBenchmarks(&reporter);
  reporter.print_ratios({{"ours_chessboard", "opencv_chessboard"},
                         {"ours_chessboard", "opencv_chessboard_sb"},
                         {"ours_no_board", "opencv_no_board"},
                         {"ours_charuco", "opencv_charuco"}});
  benchmark::Shutdown();
  return 0;
}
