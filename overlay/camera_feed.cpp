#include "overlay/camera_feed.hpp"

#include <array>
#include <chrono>
#include <opencv2/imgproc.hpp>
#include <optional>
#include <vector>

#include "calib/camera_file.hpp"
#include "common/error.hpp"
#include "vision/pipeline.hpp"
#include "vision/render.hpp"
#include "vision/scene.hpp"
#include "vision/source.hpp"

namespace duels::overlay {

namespace {

using Clock = std::chrono::steady_clock;

double ms_since(Clock::time_point t0) {
  return std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
}

}  // namespace

std::vector<TrackedBasePosition> vision_positions(const vision::TableState& table) {
  std::vector<TrackedBasePosition> out;
  for (const auto& b : table.bases) {
    if (b.figure.empty() || b.state == vision::BaseState::kLost) continue;
    double trust = 1.0;
    if (b.state == vision::BaseState::kMoving) trust = 0.75;
    if (b.state == vision::BaseState::kOccluded) trust = 0.4;
    out.push_back({b.figure, Vec2{b.centre_in.x, b.centre_in.y}, trust});
  }
  return out;
}

std::vector<Disc> unnamed_discs(const vision::TableState& table) {
  std::vector<Disc> out;
  for (const auto& u : table.unnamed)
    out.push_back({Vec2{u.centre_in.x, u.centre_in.y}, u.radius_in});
  return out;
}

bool on_unnamed_base(const vision::UnnamedBase& base, cv::Point2d at) {
  return cv::norm(at - base.centre_in) <= 1.2 * base.radius_in;
}

CameraFeed::CameraFeed(CameraFeedOptions options) : options_(std::move(options)) {
  auto first = std::make_shared<CameraSnapshot>();
  first->source_name = options_.source;
  latest_ = first;
  thread_ = std::thread([this] { run(); });
}

CameraFeed::~CameraFeed() {
  stop();
}

void CameraFeed::stop() {
  stop_ = true;
  if (thread_.joinable()) thread_.join();
}

std::shared_ptr<const CameraSnapshot> CameraFeed::snapshot() const {
  std::lock_guard lock(mutex_);
  return latest_;
}

std::vector<vision::MatchSpot> match_spots(const GameState& state,
                                           const PositionOverrides& overrides) {
  std::vector<vision::MatchSpot> out;
  for (std::size_t i = 0; i < state.figures.size(); ++i) {
    const FigureState& f = state.figures[i];
    if (f.eliminated || !f.position) continue;
    const auto moved = overrides.find(static_cast<FigureId>(i));
    const Point at = moved != overrides.end() ? moved->second : *f.position;
    out.push_back({f.def.name, {at.x, at.y}});
  }
  return out;
}

void CameraFeed::set_match_spots(std::vector<vision::MatchSpot> spots) {
  std::lock_guard lock(mutex_);
  match_spots_ = std::move(spots);
}

void CameraFeed::name_base(cv::Point2d near_in, std::string figure) {
  std::lock_guard lock(mutex_);
  name_requests_.emplace_back(near_in, std::move(figure));
}

void CameraFeed::publish(std::shared_ptr<const CameraSnapshot> s) {
  std::lock_guard lock(mutex_);
  latest_ = std::move(s);
}

void CameraFeed::run() {
  auto with = [&](auto&& change) {
    auto s = std::make_shared<CameraSnapshot>(*snapshot());
    change(*s);
    publish(std::move(s));
  };
  std::unique_ptr<vision::Source> source;
  std::shared_ptr<vision::SceneRenderer> renderer;
  std::optional<vision::Pipeline> pipeline;
  double scene_fps = 0;
  try {
    const vision::SourceSpec spec = vision::parse_source_spec(options_.source);
    vision::SourceOptions so;
    so.loop = true;
    calib::TablePlane plane;
    vision::BaseMap map;
    // The table's own markers, where no ring is looked for: a synthetic scene's corner markers,
    // or where the calibration registered them (as `duels track` does).
    std::vector<std::array<cv::Point2d, 4>> table_markers;
    if (spec.kind == vision::SourceKind::kSynthetic) {
      vision::SceneSpec scene = vision::load_named_scene(spec.path, options_.assets_dir);
      if (options_.stream_fps > 0) scene.fps = options_.stream_fps;  // sample the script finer
      renderer = std::make_shared<vision::SceneRenderer>(scene);
      plane = renderer->plane();
      // The scene's own bases, unless a base map is given (as `duels track` does): a map that
      // leaves a base out shows it unnamed.
      map = options_.base_map.empty() ? vision::base_map_from_scene(scene)
                                      : vision::load_base_map(options_.base_map);
      table_markers = vision::table_markers_of(vision::scene_corner_markers(scene));
      scene_fps = scene.fps;
      const int frames = std::max(1, scene.frame_count());
      auto recorded = std::make_shared<std::vector<cv::Mat>>();
      for (int i = 0; i < std::min(options_.prerender_frames, frames) && !stop_; ++i)
        recorded->push_back(renderer->render(i));
      // Frames rendered live repaint only what moved since the previous one (the demo camera).
      auto live = std::make_shared<vision::LiveRenderer>(renderer);
      source = vision::open_generator(
          "synthetic " + scene.name,
          [live, recorded, frames, fps = scene_fps](std::int64_t index, vision::Frame& frame) {
            if (recorded->empty()) {
              frame.image = live->render(index % frames);  // the scene loops
            } else {
              frame.image = (*recorded)[static_cast<std::size_t>(
                  index % static_cast<std::int64_t>(recorded->size()))];
            }
            frame.index = index;
            frame.time_s = static_cast<double>(index) / std::max(fps, 1e-6);
            return true;
          });
    } else {
      if (options_.calib_file.empty())
        throw DataException({options_.source, 0, "--calib",
                             "a calibration file with the table registration for this camera"});
      if (options_.base_map.empty())
        throw DataException(
            {options_.source, 0, "--bases", "a base map file (which marker is which figure)"});
      // Read once: the plane and the table markers.
      const calib::CameraFile calibration = calib::read_camera_file(options_.calib_file);
      plane = vision::plane_from_calibration(calibration, options_.calib_file);
      table_markers = vision::table_markers_from_calibration(calibration);
      map = vision::load_base_map(options_.base_map);
      switch (spec.kind) {
        case vision::SourceKind::kCamera:
          source = vision::open_camera(spec.camera_index, so);
          break;
        case vision::SourceKind::kStream:
          source = vision::open_stream(spec.path, so);
          break;
        case vision::SourceKind::kVideo:
          source = vision::open_video(spec.path, so);
          break;
        case vision::SourceKind::kFolder:
          source = vision::open_folder(spec.path, so);
          break;
        case vision::SourceKind::kSynthetic:
          break;
      }
    }
    {
      vision::RingIdentityOptions rings;
      rings.table_markers_in = table_markers;
      pipeline.emplace(plane, map, vision::DetectorOptions{}, vision::TrackerOptions{},
                       vision::SecondLookOptions{}, rings);
    }
    std::vector<std::string> ring_figures;
    for (const auto& b : map.bases) {
      if (b.ring) ring_figures.push_back(b.figure);
    }
    with([&](CameraSnapshot& s) {
      s.plane = plane;
      s.source_name = source->name();
      s.ring_figures = std::move(ring_figures);
    });
  } catch (const std::exception& e) {
    with([&](CameraSnapshot& s) { s.error = e.what(); });
    return;
  }

  const auto started = Clock::now();
  auto next_due = started;
  std::int64_t frames = 0;
  vision::Frame frame;
  while (!stop_) {
    const auto t0 = Clock::now();
    vision::ReadStatus status = vision::ReadStatus::kEnd;
    try {
      status = source->read(frame);
    } catch (const std::exception& e) {
      with([&](CameraSnapshot& s) {
        s.connected = false;
        s.problem = e.what();
      });
      status = vision::ReadStatus::kRetry;
    }
    if (status == vision::ReadStatus::kEnd) {
      with([&](CameraSnapshot& s) {
        s.ended = true;
        s.connected = false;
      });
      return;
    }
    if (status == vision::ReadStatus::kRetry) {
      with([&](CameraSnapshot& s) {
        s.connected = false;
        s.problem = source->stats().last_problem;
        s.reconnects = source->stats().reconnects;
      });
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
      continue;
    }
    const double capture_ms = ms_since(t0);
    const auto t1 = Clock::now();
    // The names the player gave since the last frame.
    std::vector<std::pair<cv::Point2d, std::string>> requests;
    {
      std::lock_guard lock(mutex_);
      requests.swap(name_requests_);
    }
    std::optional<std::vector<vision::MatchSpot>> spots;
    {
      std::lock_guard lock(mutex_);
      spots.swap(match_spots_);
    }
    if (spots) pipeline->set_match_spots(*spots);
    for (const auto& [at, figure] : requests) {
      const auto named = pipeline->name_near(at, figure);
      with([&](CameraSnapshot& s) { s.naming_problem = named ? "" : named.error(); });
    }
    try {
      vision::PipelineResult r = pipeline->process(frame.image, frame.index, frame.time_s);
      auto s = std::make_shared<CameraSnapshot>(*snapshot());
      s->vision_ms = ms_since(t1);
      s->capture_ms = capture_ms;
      s->frame = frame.index;
      s->time_s = frame.time_s;
      s->table = std::move(r.state);
      s->connected = true;
      s->problem.clear();
      s->reconnects = source->stats().reconnects;
      int width = options_.max_picture_width_px;
      if (const int shown = display_width_.load(); shown > 0) width = std::min(width, shown);
      const double k = std::min(1.0, static_cast<double>(width) / std::max(1, frame.image.cols));
      if (k < 1.0) {
        const cv::Size size(std::max(1, width),
                            std::max(1, static_cast<int>(std::lround(frame.image.rows * k))));
        cv::resize(frame.image, s->picture, size, 0, 0, cv::INTER_AREA);
      } else {
        s->picture = frame.image.clone();
      }
      if (s->picture.channels() == 1) cv::cvtColor(s->picture, s->picture, cv::COLOR_GRAY2BGR);
      s->picture_scale = k;
      ++frames;
      const double elapsed = std::chrono::duration<double>(Clock::now() - started).count();
      s->frames_per_s = elapsed > 0 ? static_cast<double>(frames) / elapsed : 0;
      publish(std::move(s));
    } catch (const std::exception& e) {
      with([&](CameraSnapshot& s) { s.problem = e.what(); });
    }
    if (renderer && options_.realtime && scene_fps > 0) {
      next_due += std::chrono::microseconds(static_cast<std::int64_t>(1e6 / scene_fps));
      if (next_due < Clock::now()) next_due = Clock::now();  // slower than the scene: no backlog
      std::this_thread::sleep_until(next_due);
    }
  }
}

}  // namespace duels::overlay
