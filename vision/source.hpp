#pragma once
/// @file Where frames come from: a camera by index, a video file, a folder of images, a network
/// stream or a synthetic scene, all behind one interface with timestamps. Cameras and streams
/// that fail are reported and retried; videos end (or loop); undecodable frames are skipped and
/// counted, never fatal.

#include <opencv2/core.hpp>

#include <cstdint>
#include <functional>
#include <memory>
#include <string>

namespace duels::vision {

/// One frame: the picture (8-bit, grey or BGR), its number and its time in seconds since the
/// source started (the video's own clock for files, the scene clock for synthetic sources).
struct Frame {
  cv::Mat image;
  std::int64_t index = 0;
  double time_s = 0;
};

/// What a read produced.
enum class ReadStatus {
  kFrame,  ///< a frame was delivered
  kRetry,  ///< no frame now (camera lost, reconnecting): call again later
  kEnd,    ///< the source is finished (end of video / folder)
};

/// Counters every source keeps (reported by `duels track`).
struct SourceStats {
  std::int64_t delivered = 0;        ///< frames returned
  std::int64_t decode_failures = 0;  ///< frames or files that could not be decoded (skipped)
  std::int64_t reconnects = 0;       ///< times a camera or stream was reopened
  std::int64_t loops = 0;            ///< times a looping video or folder restarted
  std::string last_problem;          ///< the most recent failure, in words ("" = none)
  bool gave_up = false;  ///< a camera/stream ended after options.retry_attempts failed opens
};

/// The interface every frame source implements.
class Source {
 public:
  virtual ~Source() = default;
  /// Reads the next frame into `frame`.
  virtual ReadStatus read(Frame& frame) = 0;
  /// A human name ("camera 0", "video match.mkv", "synthetic demo").
  [[nodiscard]] virtual std::string name() const = 0;
  [[nodiscard]] const SourceStats& stats() const { return stats_; }

 protected:
  SourceStats stats_;
};

/// Options shared by the sources.
struct SourceOptions {
  bool loop = false;          ///< videos and folders start again at their end
  double folder_fps = 10.0;   ///< timestamps of folder frames (index / fps)
  int retry_attempts = 0;     ///< cameras/streams: reconnect attempts before kEnd (0 = forever)
  double retry_wait_s = 0.5;  ///< pause between reconnect attempts
};

/// A camera by index (OpenCV videoio). Opening failure is not fatal: read() returns kRetry and
/// tries again, so a camera plugged in late is picked up.
std::unique_ptr<Source> open_camera(int index, const SourceOptions& options = {});
/// A network stream (rtsp://, http://, …), with the same retry behaviour as a camera.
std::unique_ptr<Source> open_stream(const std::string& url, const SourceOptions& options = {});
/// A video file. Throws DataException when the file is missing or cannot be opened.
std::unique_ptr<Source> open_video(const std::string& path, const SourceOptions& options = {});
/// The images of a folder in name order (.png .jpg .jpeg .bmp .tif .tiff). Throws when the
/// folder is missing or has no images; unreadable images are skipped and counted, and read()
/// throws DataException when not one of them can be decoded.
std::unique_ptr<Source> open_folder(const std::string& dir, const SourceOptions& options = {});

/// Produces frame `index` of some generator (the synthetic scenes); nothing = end.
using FrameGenerator = std::function<bool(std::int64_t index, Frame& frame)>;
/// Wraps a generator as a source.
std::unique_ptr<Source> open_generator(std::string name, FrameGenerator generator);

/// The kind of a source specification as given to `--source`.
enum class SourceKind { kCamera, kStream, kVideo, kFolder, kSynthetic };

/// A parsed `--source` value: cam:N, synthetic:NAME|FILE.yaml, URL (scheme://…), folder, file.
struct SourceSpec {
  SourceKind kind = SourceKind::kCamera;
  int camera_index = 0;
  std::string path;  ///< URL, file, folder or scene name/file
};

/// Parses a `--source` value (no file access except telling folders from files).
/// Throws DataException for `cam:` without a number.
SourceSpec parse_source_spec(const std::string& text);

/// Writes frames to a video file (.mkv/.avi: lossless FFV1 when available, else MJPG) or to a
/// folder of numbered PNGs (any path without a video extension). Throws DataException when the
/// output cannot be created.
class FrameSink {
 public:
  FrameSink(const std::string& path, double fps);
  FrameSink(FrameSink&&) noexcept;
  FrameSink& operator=(FrameSink&&) noexcept;
  ~FrameSink();
  void write(const cv::Mat& frame);
  [[nodiscard]] bool is_video() const { return video_; }

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
  std::string path_;
  double fps_ = 10;
  bool video_ = false;
  std::int64_t count_ = 0;
};

}  // namespace duels::vision
