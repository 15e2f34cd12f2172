#include "calib/image_source.hpp"

#include <fmt/format.h>

#include <opencv2/core/utils/logger.hpp>
#include <opencv2/imgcodecs.hpp>
#include <opencv2/videoio.hpp>

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <filesystem>
#include <tuple>

#include "calib/videoio.hpp"
#include "common/error.hpp"
#include "common/regular_file.hpp"

namespace duels::calib {

namespace fs = std::filesystem;

cv::Mat read_image(const std::string& path, int flags, const std::string& field) {
  if (const auto kind = non_regular_file(path))
    throw DataException(
        {path, 0, field,
         fmt::format("a picture file (this is {}; only regular files are read)", *kind)});
  std::error_code ec;
  if (!fs::is_regular_file(path, ec))
    throw DataException({path, 0, field, "a picture file (there is no such file)"});
  cv::Mat image;
  try {
    image = cv::imread(path, flags);
  } catch (const cv::Exception&) {
    throw DataException({path, 0, field,
                         "a picture of at most a gigapixel that can be decoded (this one claims "
                         "to be larger, or is damaged)"});
  }
  if (image.empty())
    throw DataException({path, 0, field, "a picture (PNG, JPEG…) that can be decoded"});
  return image;
}

std::vector<std::string> list_images(const std::string& dir) {
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) {
    throw DataException({dir, 0, "--images", "a folder of calibration photos (no such folder)"});
  }
  std::vector<std::string> files;
  for (const auto& entry : fs::directory_iterator(dir, ec)) {
    if (!entry.is_regular_file()) continue;
    std::string ext = entry.path().extension().string();
    for (auto& c : ext)
      c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    if (ext == ".jpg" || ext == ".jpeg" || ext == ".png" || ext == ".bmp" || ext == ".tif" ||
        ext == ".tiff") {
      files.push_back(entry.path().string());
    }
  }
  if (files.empty()) {
    throw DataException(
        {dir, 0, "--images",
         "a folder with photos of the board (.jpg, .png, .bmp, .tif): it has none"});
  }
  std::sort(files.begin(), files.end());
  return files;
}

FolderDetections detect_in_folder(const std::string& dir, const PatternSpec& spec,
                                  const DetectOptions& options) {
  // Every photo is read and searched once; which resolution the folder is at is decided at the
  // end (the size most photos have), and photos of another size are set aside with the reason,
  // as are files OpenCV cannot decode. Calibration is per resolution, so they can't be used,
  // but one stray file must not stop the rest from calibrating (plain OpenCV calibrates them).
  struct Seen {
    std::string name;
    cv::Size size;
    Expected<BoardView, std::string> view;
  };
  std::vector<Seen> seen;
  FolderDetections out;
  const auto files = list_images(dir);
  for (const auto& path : files) {
    const std::string name = fs::path(path).filename().string();
    cv::Mat image;
    try {
      image = cv::imread(path, cv::IMREAD_GRAYSCALE);
    } catch (const cv::Exception&) {
      image.release();
    }
    if (image.empty()) {
      out.skipped.push_back({name, "not an image OpenCV can decode (damaged or not a picture)"});
      continue;
    }
    auto view = detect_board(image, spec, options);
    if (view) view->name = name;
    seen.push_back({name, image.size(), std::move(view)});
  }
  if (seen.empty()) {
    throw DataException(
        {dir, 0, "--images",
         fmt::format("photos OpenCV can decode: none of the {} image files could be read "
                     "({}: {})",
                     files.size(), out.skipped.front().name, out.skipped.front().reason)});
  }
  // The folder's resolution: the size most photos have (ties: the one with more boards found,
  // then the first seen).
  struct Count {
    cv::Size size;
    int photos = 0;
    int boards = 0;
  };
  std::vector<Count> counts;
  for (const Seen& s : seen) {
    auto it = std::find_if(counts.begin(), counts.end(),
                           [&](const Count& c) { return c.size == s.size; });
    if (it == counts.end()) it = counts.insert(counts.end(), Count{s.size});
    ++it->photos;
    it->boards += s.view ? 1 : 0;
  }
  const Count best =
      *std::max_element(counts.begin(), counts.end(), [](const Count& a, const Count& b) {
        return std::tie(a.photos, a.boards) < std::tie(b.photos, b.boards);
      });
  out.image_size = best.size;
  for (Seen& s : seen) {
    if (s.size != best.size) {
      out.skipped.push_back(
          {s.name, fmt::format("{}x{}, not {}x{} like the other {} photos (calibration is per "
                               "resolution: one camera at one setting)",
                               s.size.width, s.size.height, best.size.width, best.size.height,
                               best.photos)});
    } else if (s.view) {
      out.views.push_back(std::move(s.view).value());
    } else {
      out.misses.push_back({s.name, s.view.error()});
    }
  }
  return out;
}

// Hides OpenCV's videoio from the header.
struct FrameSource::Impl {
  cv::VideoCapture capture;
};

FrameSource::FrameSource() : impl_(std::make_unique<Impl>()) {}
FrameSource::FrameSource(FrameSource&&) noexcept = default;
FrameSource& FrameSource::operator=(FrameSource&&) noexcept = default;
FrameSource::~FrameSource() = default;

FrameSource FrameSource::video(const std::string& path) {
  std::error_code ec;
  if (!fs::is_regular_file(path, ec)) throw DataException({path, 0, "--video", "a video file"});
  FrameSource s;
  s.name_ = path;
  if (!open_media_capture(s.impl_->capture, path)) {
    throw DataException({path, 0, "--video", "a video OpenCV can decode"});
  }
  return s;
}

FrameSource FrameSource::camera(int index) {
  // videoio's own warnings on a failed open (V4L2, GStreamer) repeat what the error below
  // says; OPENCV_LOG_LEVEL still shows them.
  if (std::getenv("OPENCV_LOG_LEVEL") == nullptr) {
    cv::utils::logging::setLogLevel(cv::utils::logging::LOG_LEVEL_ERROR);
  }
  FrameSource s;
  s.name_ = fmt::format("camera {}", index);
  if (!open_camera_capture(s.impl_->capture, index)) {
    throw DataException({s.name_, 0, "--camera", "a connected camera (it could not be opened)"});
  }
  return s;
}

bool FrameSource::read(cv::Mat& frame) {
  return impl_->capture.read(frame) && !frame.empty();
}

double FrameSource::fps() const {
  const double f = impl_->capture.get(cv::CAP_PROP_FPS);
  return f > 1 && f < 1000 ? f : 30.0;
}

}  // namespace duels::calib
