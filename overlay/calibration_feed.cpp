#include "overlay/calibration_feed.hpp"

#include <fmt/format.h>

#include <chrono>
#include <ctime>
#include <opencv2/imgproc.hpp>
#include <optional>

#include "calib/detect.hpp"
#include "calib/image_source.hpp"
#include "calib/synthetic.hpp"

namespace duels::overlay {

namespace {

using Clock = std::chrono::steady_clock;

// The 1080p example webcam scaled to 640×360 (same field of view and distortion): small
// enough that rendering, detecting and recalibrating keep up with 30 frames a second.
calib::Intrinsics small_webcam() {
  calib::Intrinsics cam = calib::example_webcam_1080p();
  const double s = 640.0 / cam.image_size.width;
  for (int c = 0; c < 3; ++c) {
    cam.camera_matrix(0, c) *= s;
    cam.camera_matrix(1, c) *= s;
  }
  cam.image_size = {640, 360};
  return cam;
}

// Where frames come from: a synthetic board in seeded poses, or a camera / video.
class FrameFeed {
 public:
  virtual ~FrameFeed() = default;
  virtual bool next(cv::Mat& grey) = 0;
  [[nodiscard]] virtual std::string name() const = 0;
};

class SyntheticFeed final : public FrameFeed {
 public:
  SyntheticFeed(const calib::PatternSpec& spec, std::uint64_t seed, int hold)
      : camera_(small_webcam(), 2),
        texture_(calib::board_texture(spec, 4.0)),
        poses_(calib::calibration_poses(camera_.intrinsics(), spec, 60, seed)),
        seed_(seed),
        hold_(std::max(1, hold)) {}
  bool next(cv::Mat& grey) override {
    const auto pose = static_cast<std::size_t>(frame_ / hold_);
    if (pose >= poses_.size()) return false;
    calib::FinishOptions finish;
    finish.seed = seed_ * 1000003 + static_cast<std::uint64_t>(frame_);
    grey = camera_.render(texture_, poses_[pose], finish);
    if (grey.channels() != 1) cv::cvtColor(grey, grey, cv::COLOR_BGR2GRAY);
    ++frame_;
    return true;
  }
  [[nodiscard]] std::string name() const override {
    return fmt::format("synthetic 9\u00d76 board, seed {} (640\u00d7360)", seed_);
  }

 private:
  calib::SyntheticCamera camera_;
  calib::PlanarTexture texture_;
  std::vector<calib::Pose> poses_;
  std::uint64_t seed_;
  int hold_;
  std::int64_t frame_ = 0;
};

class CaptureFeed final : public FrameFeed {
 public:
  explicit CaptureFeed(const std::string& spec)
      : source_(spec.rfind("cam:", 0) == 0 ? calib::FrameSource::camera(std::stoi(spec.substr(4)))
                                           : calib::FrameSource::video(spec)) {}
  bool next(cv::Mat& grey) override {
    cv::Mat frame;
    if (!source_.read(frame)) return false;
    if (frame.channels() == 3) {
      cv::cvtColor(frame, grey, cv::COLOR_BGR2GRAY);
    } else {
      grey = frame;
    }
    return true;
  }
  [[nodiscard]] std::string name() const override { return source_.name(); }

 private:
  calib::FrameSource source_;
};

std::unique_ptr<FrameFeed> open_feed(const CalibrationFeedOptions& o) {
  if (o.source == "synthetic" || o.source.rfind("synthetic:", 0) == 0) {
    std::uint64_t seed = 1;
    if (o.source.size() > 10) seed = std::stoull(o.source.substr(10));
    return std::make_unique<SyntheticFeed>(o.pattern, seed, o.hold_frames);
  }
  return std::make_unique<CaptureFeed>(o.source);
}

}  // namespace

double CalibrationSnapshot::rms_px() const {
  return status.calibration ? status.calibration->rms_px : 0;
}

CalibrationFeed::CalibrationFeed(CalibrationFeedOptions options)
    : options_(std::move(options)), latest_(std::make_shared<const CalibrationSnapshot>()) {
  auto first = std::make_shared<CalibrationSnapshot>();
  first->running = true;
  first->source = options_.source;
  latest_ = first;
  thread_ = std::thread([this] { run(); });
}

CalibrationFeed::~CalibrationFeed() {
  stop();
}

void CalibrationFeed::stop() {
  stop_ = true;
  if (thread_.joinable()) thread_.join();
}

std::shared_ptr<const CalibrationSnapshot> CalibrationFeed::snapshot() const {
  std::lock_guard lock(mutex_);
  return latest_;
}

void CalibrationFeed::publish(std::shared_ptr<const CalibrationSnapshot> s) {
  std::lock_guard lock(mutex_);
  latest_ = std::move(s);
}

void CalibrationFeed::run() {
  std::unique_ptr<FrameFeed> feed;
  auto fail = [&](const std::string& why) {
    auto s = std::make_shared<CalibrationSnapshot>(*snapshot());
    s->running = false;
    s->error = why;
    publish(std::move(s));
  };
  try {
    feed = open_feed(options_);
  } catch (const std::exception& e) {
    fail(e.what());
    return;
  }
  std::optional<calib::LiveCalibrator> live;
  const auto started = Clock::now();
  auto next_due = started;
  std::int64_t frame = 0;
  cv::Mat grey;
  try {
    while (!stop_ && frame < options_.max_frames && feed->next(grey)) {
      if (!live) live.emplace(grey.size(), options_.live);
      auto detected = calib::detect_board(grey, options_.pattern, calib::live_detect_options());
      std::optional<calib::BoardView> view;
      if (detected) {
        detected->name = fmt::format("frame {}", frame);
        view = std::move(*detected);
      }
      const calib::LiveStatus& status = live->feed(view);
      ++frame;
      auto s = std::make_shared<CalibrationSnapshot>();
      s->frame = frame;
      s->image = grey.clone();
      if (view) s->corners = view->image_px;
      s->status = status;
      s->source = feed->name();
      s->running = !status.done;
      const double elapsed = std::chrono::duration<double>(Clock::now() - started).count();
      s->frames_per_s = elapsed > 0 ? static_cast<double>(frame) / elapsed : 0;
      publish(std::move(s));
      if (status.done) return;
      if (options_.fps > 0) {
        next_due += std::chrono::microseconds(static_cast<std::int64_t>(1e6 / options_.fps));
        std::this_thread::sleep_until(next_due);
      }
    }
  } catch (const std::exception& e) {
    fail(e.what());
    return;
  }
  auto s = std::make_shared<CalibrationSnapshot>(*snapshot());
  s->running = false;
  if (frame == 0) s->error = "no frame could be read from " + feed->name();
  publish(std::move(s));
}

calib::Intrinsics synthetic_wizard_webcam() {
  return small_webcam();
}

calib::Pose synthetic_table_pose(const calib::TableGeometry& table) {
  // Behind the near edge, high, looking at the middle of the table.
  const cv::Vec3d target(table.width_in / 2, table.depth_in * 0.5, 0);
  const cv::Vec3d eye(table.width_in / 2, -0.2 * table.depth_in, 1.0 * table.depth_in);
  return calib::look_at(eye, target, cv::Vec3d(0, 0, 1));
}

TableRegistrationOutcome register_table_from_source(const std::string& source,
                                                    const calib::CalibrationResult& lens,
                                                    const TableSetupOptions& setup) {
  TableRegistrationOutcome out;
  const calib::MarkerLayout layout =
      calib::corner_marker_layout(setup.table, setup.marker_in, setup.inset_in);
  std::optional<calib::MarkerDetections> found;
  std::size_t best = 0;
  try {
    auto consider = [&](const cv::Mat& frame) {
      auto d = calib::detect_markers(frame, layout.dictionary);
      if (!d) throw std::runtime_error(d.error());
      const auto points = calib::marker_correspondences(*d, layout);
      if (points.table_in.size() > best) {
        best = points.table_in.size();
        found = std::move(*d);
      }
      return best >= 16;  // all four markers, four corners each
    };
    if (source == "synthetic" || source.rfind("synthetic:", 0) == 0) {
      const calib::SyntheticCamera camera(small_webcam(), 2);
      calib::FinishOptions finish;
      finish.seed = 77;
      cv::Mat frame = camera.render(calib::table_texture(setup.table, layout),
                                    synthetic_table_pose(setup.table), finish);
      consider(frame);
    } else {
      calib::FrameSource src = source.rfind("cam:", 0) == 0
                                   ? calib::FrameSource::camera(std::stoi(source.substr(4)))
                                   : calib::FrameSource::video(source);
      cv::Mat frame;
      for (int k = 0; k < setup.frames_to_try && src.read(frame); ++k) {
        if (consider(frame)) break;
      }
    }
  } catch (const std::exception& e) {
    out.error = e.what();
    return out;
  }
  if (!found || best < 4) {
    out.error = fmt::format(
        "the table's corner markers (ids 0-3, DICT_4X4_50) are not in view: print them with "
        "`duels print markers --ids 0-3 --size {:g}in` and tape one {:g}\" in from each corner",
        setup.marker_in, setup.inset_in);
    return out;
  }
  const auto points = calib::marker_correspondences(*found, layout);
  auto reg = calib::register_table(lens.intrinsics, points, setup.table);
  if (!reg) {
    out.error = reg.error();
    return out;
  }
  calib::AccuracyOptions acc;
  acc.samples = 100;
  out.accuracy = calib::estimate_accuracy(reg->plane, lens.covariance, reg->points,
                                          calib::registration_noise_px(*reg), acc);
  out.coverage = calib::table_coverage(reg->plane, setup.base_target, 1.0);
  out.registration = std::move(*reg);
  if (best < 16) {
    out.error =
        fmt::format("registered from {} of the 16 marker corners: a marker is hidden", best);
  }
  return out;
}

calib::CameraFile wizard_camera_file(const calib::CalibrationResult& lens,
                                     const calib::PatternSpec& pattern,
                                     const TableRegistrationOutcome* table) {
  const std::time_t now = std::time(nullptr);
  std::tm local{};
  localtime_r(&now, &local);
  char date[32];
  std::strftime(date, sizeof date, "%Y-%m-%dT%H:%M:%S", &local);
  calib::CameraFile file = calib::camera_file_from(lens, pattern, date);
  if (table != nullptr && table->registration) {
    const calib::Registration& r = *table->registration;
    calib::TableRecord rec;
    rec.table = r.plane.table();
    rec.table_to_camera = r.plane.pose();
    rec.method = r.points.method;
    rec.date = date;
    rec.rms_px = r.rms_px;
    rec.points = r.points;
    rec.accuracy = table->accuracy;
    file.table = rec;
  }
  return file;
}

}  // namespace duels::overlay
