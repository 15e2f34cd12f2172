#include "vision/timing.hpp"

#include <opencv2/aruco.hpp>
#include <opencv2/imgproc.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>

#include "calib/pattern.hpp"
#include "vision/render.hpp"

namespace duels::vision {
namespace {

double median(std::vector<double> v) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

template <class F>
double time_ms(F&& f) {
  const auto t0 = std::chrono::steady_clock::now();
  f();
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

}  // namespace

PipelineTiming time_pipeline(const std::vector<cv::Mat>& frames, const calib::TablePlane& plane,
                             const BaseMap& map, int repeats, const DetectorOptions& detector) {
  const int threads = cv::getNumThreads();
  cv::setNumThreads(1);
  PipelineTiming t;
  t.frames = static_cast<int>(frames.size());
  if (!frames.empty()) t.size = frames[0].size();
  Pipeline pipeline(plane, map, detector);
  const auto dict = calib::dictionary_by_name(map.dictionary);
  const auto params = cv::aruco::DetectorParameters::create();
  std::vector<double> ours;
  std::vector<double> plain;
  std::int64_t n = 0;
  for (int r = 0; r < repeats; ++r) {
    for (const auto& image : frames) {
      // Alternate so both see the same cache state.
      plain.push_back(time_ms([&] {
        cv::Mat gray;
        if (image.channels() == 3) {
          cv::cvtColor(image, gray, cv::COLOR_BGR2GRAY);
        } else {
          gray = image;
        }
        std::vector<std::vector<cv::Point2f>> corners;
        std::vector<int> ids;
        cv::aruco::detectMarkers(gray, dict, corners, ids, params);
      }));
      ours.push_back(time_ms([&] {
        const auto result = pipeline.process(image, n, static_cast<double>(n) * 0.1);
        (void)result;
      }));
      ++n;
    }
  }
  t.pipeline_ms = median(ours);
  t.detect_markers_ms = median(plain);
  cv::setNumThreads(threads);
  return t;
}

ScaledScene render_scaled(SceneSpec spec, int width, int step) {
  const double k = width / static_cast<double>(spec.camera.image_size.width);
  spec.camera.image_size = {width,
                            static_cast<int>(std::lround(spec.camera.image_size.height * k))};
  for (int r = 0; r < 2; ++r) {
    for (int c = 0; c < 3; ++c)
      spec.camera.camera_matrix(r, c) *= k;
  }
  spec.look.supersample = 1;
  SceneRenderer renderer(spec);
  ScaledScene out;
  for (int i = 0; i < spec.frame_count(); i += std::max(1, step))
    out.frames.push_back(renderer.render(i));
  out.plane = renderer.plane();
  out.map = base_map_from_scene(spec);
  return out;
}

}  // namespace duels::vision
