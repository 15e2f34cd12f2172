#pragma once
/// @file Which OpenCV videoio back ends open the program's cameras, videos and streams.
///
/// OpenCV's default (CAP_ANY) tries every back end in turn, gPhoto2 included: opening a camera
/// that is not there then probes USB for still cameras, which is slow and leaks inside
/// libgphoto2 (AddressSanitizer sees it). A webcam on Linux is a V4L2 device (/dev/videoN); a
/// video file or a network stream is FFmpeg's (GStreamer as the second try).

#include <opencv2/videoio.hpp>

#include <string>

namespace duels::calib {

/// Opens camera number `index` with the platform's camera back end (V4L2 on Linux).
inline bool open_camera_capture(cv::VideoCapture& capture, int index) {
#ifdef __linux__
  return capture.open(index, cv::CAP_V4L2) && capture.isOpened();
#else
  return capture.open(index) && capture.isOpened();
#endif
}

/// Opens a video file or a stream URL with FFmpeg, else GStreamer.
inline bool open_media_capture(cv::VideoCapture& capture, const std::string& path_or_url) {
  for (const int api : {cv::CAP_FFMPEG, cv::CAP_GSTREAMER}) {
    if (capture.open(path_or_url, api) && capture.isOpened()) return true;
  }
  return false;
}

}  // namespace duels::calib
