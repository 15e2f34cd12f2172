#pragma once
/// @file Where frames come from at the I/O edge: a folder of photos, a video file, a camera.
/// Problems become DataExceptions naming the file and what was expected.

#include <opencv2/core.hpp>

#include <memory>
#include <string>
#include <vector>

#include "calib/detect.hpp"

namespace duels::calib {

/// Image files in a folder (.jpg .jpeg .png .bmp .tif .tiff), sorted by name. Throws when the
/// folder is missing or holds no images.
std::vector<std::string> list_images(const std::string& dir);

/// The picture at `path` (cv::IMREAD_* `flags`), or a DataException naming the file and `field`
/// in words: no file, not a picture, damaged, or larger than a picture can be (a header that
/// claims 100000 × 100000 pixels is refused, never an OpenCV assertion).
cv::Mat read_image(const std::string& path, int flags, const std::string& field);

/// A photo in which no board was found, and why.
struct Miss {
  std::string name;
  std::string reason;
};

/// The boards found in a folder of photos.
struct FolderDetections {
  cv::Size image_size;           ///< the folder's resolution (the size most photos have)
  std::vector<BoardView> views;  ///< boards found in photos of that size
  std::vector<Miss> misses;      ///< photos of that size without a board, and why
  std::vector<Miss> skipped;     ///< files not decodable, or of another size, and why
};

/// Loads every image of the folder and looks for the board. A file OpenCV cannot decode, or a
/// photo of another size than most (calibration is per resolution), is skipped with its reason.
/// Throws when the folder is missing, has no image files, or none of them can be decoded.
FolderDetections detect_in_folder(const std::string& dir, const PatternSpec& spec,
                                  const DetectOptions& options = {});

/// Frames from a video file or a camera (OpenCV videoio), grey or colour as delivered.
class FrameSource {
 public:
  /// Opens a video file; throws when it cannot be read.
  static FrameSource video(const std::string& path);
  /// Opens camera number `index`; throws when there is no such camera.
  static FrameSource camera(int index);

  FrameSource(FrameSource&&) noexcept;
  FrameSource& operator=(FrameSource&&) noexcept;
  ~FrameSource();

  /// The next frame; false at the end of a video or when the camera stops.
  bool read(cv::Mat& frame);
  /// Frames per second reported by the source (30 when unknown).
  [[nodiscard]] double fps() const;
  [[nodiscard]] const std::string& name() const { return name_; }

 private:
  FrameSource();
  struct Impl;
  std::unique_ptr<Impl> impl_;
  std::string name_;
};

}  // namespace duels::calib
