#pragma once
/// @file Finding a calibration board in one image, with sub-pixel corners.

#include <opencv2/core.hpp>

#include <string>
#include <vector>

#include "calib/pattern.hpp"
#include "common/error.hpp"

namespace duels::calib {

/// The corners of one board seen in one image: image positions matched to board positions.
/// Partial ChArUco views carry only the corners that were found (ids say which).
struct BoardView {
  std::string name;                   ///< where it came from: file name or "frame 42"
  cv::Size image_size;                ///< size of the image it was found in
  std::vector<cv::Point2f> image_px;  ///< corner positions in the image (sub-pixel)
  std::vector<cv::Point3f> board_mm;  ///< the same corners on the board (mm, z = 0)
  std::vector<int> corner_ids;        ///< row-major corner index on the board
};

/// Tuning of detect_board. The defaults suit webcam frames up to 1080p.
struct DetectOptions {
  /// Images wider than this are searched at reduced size, then refined at full size. Makes
  /// 1080p frames several times faster without losing sub-pixel accuracy.
  int search_width_px = 960;
  /// Chessboard: when the fast detector fails, also try OpenCV's sector-based one (better on
  /// blurred or unevenly lit photos, ~10x slower). On for photo folders, off for live video.
  bool thorough = true;
  /// ChArUco: the fewest corners a view must have to be usable.
  int min_charuco_corners = 8;
};

/// Finds the board. The error says why not ("no chessboard of 9x6 inner corners found",
/// "only 5 ChArUco corners"), in words a player can act on.
Expected<BoardView, std::string> detect_board(const cv::Mat& image, const PatternSpec& spec,
                                              const DetectOptions& options = {});

/// Refines corners in place with cv::cornerSubPix, using a window that fits between corners.
void refine_corners(const cv::Mat& gray, std::vector<cv::Point2f>& corners,
                    double min_corner_spacing_px);

/// Smallest distance between neighbouring corners of a detected grid (for window sizes).
double min_corner_spacing_px(const BoardView& view, const PatternSpec& spec);

/// True when a chessboard's squares go on past the grid of `inner` corners (row-major) on some
/// side: the board in view is bigger than the pattern asked for. Looks 1.5 squares outside
/// each side for squares in exactly the colours a continued board would have there.
bool checker_continues_beyond(const cv::Mat& gray, cv::Size inner,
                              const std::vector<cv::Point2f>& corners);

/// Converts any 8-bit image to grey (no copy when it already is).
cv::Mat to_gray(const cv::Mat& image);

}  // namespace duels::calib
