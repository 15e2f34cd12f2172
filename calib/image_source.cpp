#include "calib/image_source.hpp"

#include <fmt/format.h>

#include <opencv2/imgcodecs.hpp>
#include <opencv2/videoio.hpp>

#include <algorithm>
#include <cctype>
#include <filesystem>

#include "common/error.hpp"

namespace duels::calib {

namespace fs = std::filesystem;

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
  FolderDetections out;
  std::string first;
  for (const auto& path : list_images(dir)) {
    const cv::Mat image = cv::imread(path, cv::IMREAD_GRAYSCALE);
    const std::string name = fs::path(path).filename().string();
    if (image.empty()) throw DataException({path, 0, "", "a readable image file"});
    if (out.image_size.area() == 0) {
      out.image_size = image.size();
      first = name;
    } else if (image.size() != out.image_size) {
      throw DataException(
          {path, 0, "",
           fmt::format("an image of {}x{} like {} (it is {}x{}; use one camera at one resolution)",
                       out.image_size.width, out.image_size.height, first, image.cols,
                       image.rows)});
    }
    auto view = detect_board(image, spec, options);
    if (view) {
      view->name = name;
      out.views.push_back(std::move(view).value());
    } else {
      out.misses.push_back({name, view.error()});
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
  if (!s.impl_->capture.open(path) || !s.impl_->capture.isOpened()) {
    throw DataException({path, 0, "--video", "a video OpenCV can decode"});
  }
  return s;
}

FrameSource FrameSource::camera(int index) {
  FrameSource s;
  s.name_ = fmt::format("camera {}", index);
  if (!s.impl_->capture.open(index) || !s.impl_->capture.isOpened()) {
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
