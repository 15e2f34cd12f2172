#include "vision/source.hpp"

#include <fmt/format.h>

#include <opencv2/core/utils/logger.hpp>
#include <opencv2/imgcodecs.hpp>
#include <opencv2/videoio.hpp>

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <thread>
#include <vector>

#include "calib/videoio.hpp"
#include "common/atomic_file.hpp"
#include "common/error.hpp"

namespace duels::vision {
namespace {

namespace fs = std::filesystem;

// OpenCV's videoio logs on every failed open — a V4L2 warning for a camera, for a stream an
// error from each backend it tries (GStreamer, image sequence) and FFmpeg's own line — so a
// source retried twice a second would flood the terminal. Our own message says what went wrong,
// once. A user who wants OpenCV's and FFmpeg's words sets OPENCV_LOG_LEVEL (and
// OPENCV_FFMPEG_LOGLEVEL).
void quiet_videoio_warnings() {
  if (std::getenv("OPENCV_LOG_LEVEL") == nullptr) {
    cv::utils::logging::setLogLevel(cv::utils::logging::LOG_LEVEL_SILENT);
  }
  if (std::getenv("OPENCV_FFMPEG_LOGLEVEL") == nullptr &&
      std::getenv("OPENCV_FFMPEG_DEBUG") == nullptr) {
    ::setenv("OPENCV_FFMPEG_LOGLEVEL", "-8", 0);  // AV_LOG_QUIET, read when FFmpeg starts
  }
}

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

// A live device or stream: reopened whenever it stops delivering frames.
class LiveSource final : public Source {
 public:
  LiveSource(std::string name, std::function<bool(cv::VideoCapture&)> opener, SourceOptions options)
      : name_(std::move(name)),
        opener_(std::move(opener)),
        options_(options),
        start_(std::chrono::steady_clock::now()) {
    quiet_videoio_warnings();
  }

  ReadStatus read(Frame& frame) override {
    if (!capture_.isOpened()) {
      if (attempts_ > 0) {
        if (options_.retry_attempts > 0 && attempts_ >= options_.retry_attempts) {
          stats_.last_problem =
              fmt::format("{}: gave up after {} attempts to open it", name_, attempts_);
          stats_.gave_up = true;
          return ReadStatus::kEnd;
        }
        std::this_thread::sleep_for(std::chrono::duration<double>(options_.retry_wait_s));
        ++stats_.reconnects;
      }
      ++attempts_;
      if (!opener_(capture_) || !capture_.isOpened()) {
        stats_.last_problem = fmt::format("{}: could not be opened (retrying)", name_);
        return ReadStatus::kRetry;
      }
    }
    cv::Mat image;
    if (!capture_.read(image) || image.empty()) {
      stats_.last_problem = fmt::format("{}: stopped delivering frames (reconnecting)", name_);
      capture_.release();
      return ReadStatus::kRetry;
    }
    attempts_ = 1;
    frame.image = image;
    frame.index = stats_.delivered++;
    frame.time_s = seconds_since(start_);
    return ReadStatus::kFrame;
  }
  [[nodiscard]] std::string name() const override { return name_; }

 private:
  std::string name_;
  std::function<bool(cv::VideoCapture&)> opener_;
  SourceOptions options_;
  cv::VideoCapture capture_;
  int attempts_ = 0;
  std::chrono::steady_clock::time_point start_;
};

class VideoSource final : public Source {
 public:
  VideoSource(std::string path, SourceOptions options) : path_(std::move(path)), options_(options) {
    std::error_code ec;
    if (!fs::is_regular_file(path_, ec)) {
      throw DataException({path_, 0, "--source", "a video file (no such file)"});
    }
    if (!calib::open_media_capture(capture_, path_)) {
      throw DataException({path_, 0, "--source", "a video OpenCV can decode"});
    }
    const double fps = capture_.get(cv::CAP_PROP_FPS);
    fps_ = fps > 1 && fps < 1000 ? fps : 30.0;
  }

  ReadStatus read(Frame& frame) override {
    // A few undecodable frames in a row are skipped; a long run means the end.
    for (int tries = 0; tries < 50; ++tries) {
      cv::Mat image;
      if (capture_.grab()) {
        ++position_;
        if (capture_.retrieve(image) && !image.empty()) {
          frame.image = image;
          frame.index = stats_.delivered++;
          frame.time_s = time_offset_s_ + static_cast<double>(position_ - 1) / fps_;
          return ReadStatus::kFrame;
        }
        ++stats_.decode_failures;
        stats_.last_problem = fmt::format("{}: frame {} could not be decoded", path_, position_);
        continue;
      }
      if (!options_.loop || position_ == 0) return ReadStatus::kEnd;
      time_offset_s_ += static_cast<double>(position_) / fps_;
      position_ = 0;
      ++stats_.loops;
      capture_.release();
      if (!calib::open_media_capture(capture_, path_)) return ReadStatus::kEnd;
    }
    return ReadStatus::kEnd;
  }
  [[nodiscard]] std::string name() const override { return "video " + path_; }

 private:
  std::string path_;
  SourceOptions options_;
  cv::VideoCapture capture_;
  double fps_ = 30;
  std::int64_t position_ = 0;
  double time_offset_s_ = 0;
};

class FolderSource final : public Source {
 public:
  FolderSource(std::string dir, SourceOptions options) : dir_(std::move(dir)), options_(options) {
    std::error_code ec;
    if (!fs::is_directory(dir_, ec)) {
      throw DataException({dir_, 0, "--source", "a folder of images (no such folder)"});
    }
    for (const auto& entry : fs::directory_iterator(dir_, ec)) {
      if (!entry.is_regular_file()) continue;
      std::string ext = entry.path().extension().string();
      std::transform(ext.begin(), ext.end(), ext.begin(),
                     [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
      if (ext == ".png" || ext == ".jpg" || ext == ".jpeg" || ext == ".bmp" || ext == ".tif" ||
          ext == ".tiff") {
        files_.push_back(entry.path().string());
      }
    }
    if (files_.empty()) {
      throw DataException(
          {dir_, 0, "--source", "a folder with images (.png .jpg .bmp .tif): it has none"});
    }
    std::sort(files_.begin(), files_.end());
  }

  ReadStatus read(Frame& frame) override {
    std::size_t failures_in_row = 0;
    while (true) {
      if (next_ >= files_.size()) {
        if (!options_.loop || failures_in_row >= files_.size()) return ReadStatus::kEnd;
        next_ = 0;
        ++stats_.loops;
      }
      const std::size_t i = next_++;
      const std::int64_t slot = position_++;
      cv::Mat image;
      try {
        image = cv::imread(files_[i], cv::IMREAD_COLOR);
      } catch (const cv::Exception&) {
        image.release();
      }
      if (image.empty()) {
        ++stats_.decode_failures;
        ++failures_in_row;
        stats_.last_problem = fmt::format("{}: not a readable image (skipped)", files_[i]);
        if (stats_.delivered == 0 && stats_.decode_failures >= std::ssize(files_)) {
          // Not "0 frames, done": a folder where nothing decodes is a mistake to report.
          throw DataException(
              {dir_, 0, "--source",
               fmt::format("a folder with images OpenCV can decode (none of its {} image files "
                           "could be read, e.g. {})",
                           files_.size(), fs::path(files_[i]).filename().string())});
        }
        if (failures_in_row >= files_.size()) return ReadStatus::kEnd;
        continue;
      }
      frame.image = image;
      frame.index = stats_.delivered++;
      frame.time_s = static_cast<double>(slot) / options_.folder_fps;
      return ReadStatus::kFrame;
    }
  }
  [[nodiscard]] std::string name() const override { return "folder " + dir_; }

 private:
  std::string dir_;
  SourceOptions options_;
  std::vector<std::string> files_;
  std::size_t next_ = 0;
  std::int64_t position_ = 0;
};

class GeneratorSource final : public Source {
 public:
  GeneratorSource(std::string name, FrameGenerator generator)
      : name_(std::move(name)), generator_(std::move(generator)) {}
  ReadStatus read(Frame& frame) override {
    if (!generator_(next_, frame)) return ReadStatus::kEnd;
    frame.index = next_++;
    ++stats_.delivered;
    return ReadStatus::kFrame;
  }
  [[nodiscard]] std::string name() const override { return name_; }

 private:
  std::string name_;
  FrameGenerator generator_;
  std::int64_t next_ = 0;
};

}  // namespace

std::unique_ptr<Source> open_camera(int index, const SourceOptions& options) {
  return std::make_unique<LiveSource>(
      fmt::format("camera {}", index),
      [index](cv::VideoCapture& c) { return calib::open_camera_capture(c, index); }, options);
}

std::unique_ptr<Source> open_stream(const std::string& url, const SourceOptions& options) {
  return std::make_unique<LiveSource>(
      "stream " + url, [url](cv::VideoCapture& c) { return calib::open_media_capture(c, url); },
      options);
}

std::unique_ptr<Source> open_video(const std::string& path, const SourceOptions& options) {
  return std::make_unique<VideoSource>(path, options);
}

std::unique_ptr<Source> open_folder(const std::string& dir, const SourceOptions& options) {
  return std::make_unique<FolderSource>(dir, options);
}

std::unique_ptr<Source> open_generator(std::string name, FrameGenerator generator) {
  return std::make_unique<GeneratorSource>(std::move(name), std::move(generator));
}

SourceSpec parse_source_spec(const std::string& text) {
  SourceSpec spec;
  if (text.rfind("cam:", 0) == 0) {
    const std::string number = text.substr(4);
    int index = -1;
    try {
      std::size_t used = 0;
      index = std::stoi(number, &used);
      if (used != number.size()) index = -1;
    } catch (const std::exception&) {
      index = -1;
    }
    if (index < 0) {
      throw DataException({"<command line>", 0, "--source",
                           fmt::format("cam:N with a camera number, not '{}'", text)});
    }
    spec.kind = SourceKind::kCamera;
    spec.camera_index = index;
  } else if (text.rfind("synthetic:", 0) == 0) {
    spec.kind = SourceKind::kSynthetic;
    spec.path = text.substr(10);
  } else if (text.find("://") != std::string::npos) {
    spec.kind = SourceKind::kStream;
    spec.path = text;
  } else {
    std::error_code ec;
    spec.kind = fs::is_directory(text, ec) ? SourceKind::kFolder : SourceKind::kVideo;
    spec.path = text;
  }
  return spec;
}

struct FrameSink::Impl {
  cv::VideoWriter writer;
};

FrameSink::FrameSink(const std::string& path, double fps)
    : impl_(std::make_unique<Impl>()), path_(path), fps_(fps) {
  std::string ext = fs::path(path).extension().string();
  std::transform(ext.begin(), ext.end(), ext.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  video_ = ext == ".mkv" || ext == ".avi" || ext == ".mp4";
  std::error_code ec;
  if (!video_) {
    fs::create_directories(path, ec);
    if (!fs::is_directory(path, ec)) {
      throw DataException({path, 0, "--out", "a folder that can be created for the frames"});
    }
  }
}

FrameSink::FrameSink(FrameSink&&) noexcept = default;
FrameSink& FrameSink::operator=(FrameSink&&) noexcept = default;
FrameSink::~FrameSink() = default;

void FrameSink::write(const cv::Mat& frame) {
  if (!video_) {
    const std::string file = (fs::path(path_) / fmt::format("frame_{:05d}.png", count_)).string();
    std::vector<uchar> png;
    if (!cv::imencode(".png", frame, png))
      throw DataException({file, 0, "--out", "a picture OpenCV can encode as PNG"});
    write_file_atomically(file,
                          std::string_view(reinterpret_cast<const char*>(png.data()), png.size()));
    ++count_;
    return;
  }
  if (!impl_->writer.isOpened()) {
    const bool colour = frame.channels() == 3;
    for (const char* codec : {"FFV1", "MJPG"}) {
      const int fourcc = cv::VideoWriter::fourcc(codec[0], codec[1], codec[2], codec[3]);
      if (impl_->writer.open(path_, fourcc, fps_, frame.size(), colour)) break;
    }
    if (!impl_->writer.isOpened()) {
      throw DataException({path_, 0, "--out", "a video file OpenCV can write (FFV1 or MJPG)"});
    }
  }
  impl_->writer.write(frame);
  ++count_;
}

}  // namespace duels::vision
