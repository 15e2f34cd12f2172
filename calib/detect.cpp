#include "calib/detect.hpp"

#include <fmt/format.h>

#include <opencv2/aruco.hpp>
#include <opencv2/aruco/charuco.hpp>
#include <opencv2/calib3d.hpp>
#include <opencv2/features2d.hpp>
#include <opencv2/imgproc.hpp>

#include <algorithm>
#include <cmath>
#include <limits>

namespace duels::calib {

cv::Mat to_gray(const cv::Mat& image) {
  if (image.channels() == 1) return image;
  cv::Mat gray;
  cv::cvtColor(image, gray, image.channels() == 4 ? cv::COLOR_BGRA2GRAY : cv::COLOR_BGR2GRAY);
  return gray;
}

void refine_corners(const cv::Mat& gray, std::vector<cv::Point2f>& corners,
                    double min_corner_spacing_px) {
  if (corners.empty()) return;
  // The search window must stay inside one square around the corner: half the spacing at most.
  const int half = std::clamp(static_cast<int>(min_corner_spacing_px * 0.4), 2, 12);
  cv::cornerSubPix(gray, corners, cv::Size(half, half), cv::Size(-1, -1),
                   cv::TermCriteria(cv::TermCriteria::EPS + cv::TermCriteria::COUNT, 40, 0.001));
}

double min_corner_spacing_px(const BoardView& view, const PatternSpec& spec) {
  const int across = inner_corners(spec).width;
  double best = std::numeric_limits<double>::max();
  for (std::size_t i = 0; i < view.image_px.size(); ++i) {
    for (std::size_t j = i + 1; j < view.image_px.size(); ++j) {
      const int a = view.corner_ids[i];
      const int b = view.corner_ids[j];
      const bool neighbours =
          (a / across == b / across && std::abs(a - b) == 1) || std::abs(a - b) == across;
      if (neighbours) best = std::min(best, cv::norm(view.image_px[i] - view.image_px[j]));
    }
  }
  return best == std::numeric_limits<double>::max() ? 10.0 : best;
}

namespace {

// Mean grey of a 3x3 patch; -1 outside the image.
double patch_mean(const cv::Mat& gray, cv::Point2f at) {
  const cv::Rect r(static_cast<int>(std::lround(at.x)) - 1, static_cast<int>(std::lround(at.y)) - 1,
                   3, 3);
  if ((r & cv::Rect(0, 0, gray.cols, gray.rows)) != r) return -1;
  return cv::mean(gray(r))[0];
}

// OpenCV may return the corners mirrored or turned 180 degrees. Puts them in the order of the
// printed board: rows run down, corner 0 next to the black outer square (see draw_board), so
// every view of the board numbers its corners the same way (needed to put a board on the table).
void canonical_chessboard_order(const cv::Mat& gray, cv::Size pattern,
                                std::vector<cv::Point2f>& c) {
  const int cols = pattern.width;
  const int rows = pattern.height;
  auto at = [&](int r, int col) -> cv::Point2f& {
    return c[static_cast<std::size_t>(r * cols + col)];
  };
  const cv::Point2f ax = at(0, 1) - at(0, 0);
  const cv::Point2f ay = at(1, 0) - at(0, 0);
  if (ax.x * ay.y - ax.y * ay.x < 0) {  // mirrored: seen from the front x→right means y→down
    for (int r = 0; r < rows; ++r) {
      for (int col = 0; col < cols / 2; ++col)
        std::swap(at(r, col), at(r, cols - 1 - col));
    }
  }
  // The two outer corner squares have different colours only when rows + cols is odd.
  if ((rows + cols) % 2 == 0) return;
  const cv::Point2f o = at(0, 0);
  const cv::Point2f dx = (at(0, 1) - o) * 0.5f;
  const cv::Point2f dy = (at(1, 0) - o) * 0.5f;
  const double diag_out = patch_mean(gray, o - dx - dy);
  const double diag_in = patch_mean(gray, o + dx + dy);
  const double off_a = patch_mean(gray, o + dx - dy);
  const double off_b = patch_mean(gray, o - dx + dy);
  if (diag_out < 0 || diag_in < 0 || off_a < 0 || off_b < 0) return;
  if (diag_out + diag_in > off_a + off_b) std::reverse(c.begin(), c.end());
}

// True when the checker pattern goes on past the detected grid on some side: the board is
// bigger than the pattern asked for (the sector detector happily finds a 8x6 grid inside a
// 9x6 board). One and a half squares outside the grid a correct board shows its margin or the
// background; a bigger board shows squares of the board's own black and white, in exactly the
// colours the checker pattern predicts there (striped clothes do not).
}  // namespace

bool checker_continues_beyond(const cv::Mat& gray, cv::Size pattern,
                              const std::vector<cv::Point2f>& c) {
  const int cols = pattern.width;
  const int rows = pattern.height;
  auto at = [&](int r, int col) { return c[static_cast<std::size_t>(r * cols + col)]; };
  // The black and white levels, from the inner squares (square (r, col) lies between corner
  // rows r, r+1 and columns col, col+1; squares of equal (r + col) parity share a colour).
  double sum[2] = {0, 0};
  int count[2] = {0, 0};
  for (int r = 0; r + 1 < rows; ++r) {
    for (int col = 0; col + 1 < cols; ++col) {
      const double v = patch_mean(gray, (at(r, col) + at(r + 1, col + 1)) * 0.5f);
      if (v < 0) continue;
      sum[(r + col) % 2] += v;
      ++count[(r + col) % 2];
    }
  }
  if (count[0] == 0 || count[1] == 0) return false;
  const double even = sum[0] / count[0];
  const double odd = sum[1] / count[1];
  const int dark_parity = even < odd ? 0 : 1;
  const double black = std::min(even, odd);
  const double white = std::max(even, odd);
  const double tolerance = 0.3 * (white - black);
  if (white - black < 20) return false;
  // Does the square with parity `parity` look exactly as a continued board would show it?
  auto matches = [&](cv::Point2f p, int parity) {
    const double v = patch_mean(gray, p);
    if (v < 0) return false;
    const bool should_be_dark = ((parity % 2) + 2) % 2 == dark_parity;
    return should_be_dark ? v < black + tolerance : v > white - tolerance;
  };
  auto side = [&](int n, auto sample) {
    int hits = 0;
    for (int i = 0; i < n; ++i)
      hits += sample(i) ? 1 : 0;
    return n >= 3 && hits >= 0.8 * n;
  };
  const bool top = side(cols - 1, [&](int col) {
    const cv::Point2f e = (at(0, col) + at(0, col + 1)) * 0.5f;
    const cv::Point2f in = (at(1, col) + at(1, col + 1)) * 0.5f;
    return matches(e + (e - in) * 1.5f, -2 + col);
  });
  const bool bottom = side(cols - 1, [&](int col) {
    const cv::Point2f e = (at(rows - 1, col) + at(rows - 1, col + 1)) * 0.5f;
    const cv::Point2f in = (at(rows - 2, col) + at(rows - 2, col + 1)) * 0.5f;
    return matches(e + (e - in) * 1.5f, rows + col);
  });
  const bool left = side(rows - 1, [&](int r) {
    const cv::Point2f e = (at(r, 0) + at(r + 1, 0)) * 0.5f;
    const cv::Point2f in = (at(r, 1) + at(r + 1, 1)) * 0.5f;
    return matches(e + (e - in) * 1.5f, r - 2);
  });
  const bool right = side(rows - 1, [&](int r) {
    const cv::Point2f e = (at(r, cols - 1) + at(r + 1, cols - 1)) * 0.5f;
    const cv::Point2f in = (at(r, cols - 2) + at(r + 1, cols - 2)) * 0.5f;
    return matches(e + (e - in) * 1.5f, r + cols);
  });
  return top || bottom || left || right;
}

namespace {

Expected<BoardView, std::string> detect_chessboard(const cv::Mat& gray, const PatternSpec& spec,
                                                   const DetectOptions& options) {
  const cv::Size pattern = inner_corners(spec);
  cv::Mat search = gray;
  double scale = 1.0;
  if (options.search_width_px > 0 && gray.cols > options.search_width_px) {
    scale = static_cast<double>(options.search_width_px) / gray.cols;
    cv::resize(gray, search, cv::Size(), scale, scale, cv::INTER_AREA);
  }
  // Sensor noise in flat areas turns into thousands of speckle "quads" after the adaptive
  // threshold, and the quad grouping then takes seconds; a light blur removes them. Only the
  // search image is blurred: corners are refined on the original.
  cv::GaussianBlur(search, search, cv::Size(0, 0), 1.0);
  std::vector<cv::Point2f> corners;
  bool found = cv::findChessboardCorners(
      search, pattern, corners,
      cv::CALIB_CB_ADAPTIVE_THRESH | cv::CALIB_CB_NORMALIZE_IMAGE | cv::CALIB_CB_FAST_CHECK);
  if (!found && options.thorough) {
    // The sector-based detector copes better with blur and uneven light, but is slower.
    found = cv::findChessboardCornersSB(search, pattern, corners, cv::CALIB_CB_NORMALIZE_IMAGE);
  }
  if (!found || corners.size() != static_cast<std::size_t>(pattern.area())) {
    return fmt::format(
        "no chessboard of {}x{} inner corners found (is the whole board in view, and are "
        "--cols/--rows the inner corners where four squares meet?)",
        pattern.width, pattern.height);
  }
  if (scale != 1.0) {
    // Pixel centres sit at integer coordinates at both sizes.
    for (auto& p : corners) {
      p.x = static_cast<float>((p.x + 0.5) / scale - 0.5);
      p.y = static_cast<float>((p.y + 0.5) / scale - 0.5);
    }
  }
  BoardView view;
  view.image_size = gray.size();
  view.image_px = std::move(corners);
  view.board_mm = board_corners_mm(spec);
  view.corner_ids.resize(view.image_px.size());
  for (std::size_t i = 0; i < view.corner_ids.size(); ++i)
    view.corner_ids[i] = static_cast<int>(i);
  refine_corners(gray, view.image_px, min_corner_spacing_px(view, spec));
  if (checker_continues_beyond(gray, pattern, view.image_px)) {
    return fmt::format(
        "the chessboard in view has more than {}x{} inner corners (count the "
        "inner corners where four squares meet, along each side)",
        pattern.width, pattern.height);
  }
  canonical_chessboard_order(gray, pattern, view.image_px);
  return view;
}

Expected<BoardView, std::string> detect_charuco(const cv::Mat& gray, const PatternSpec& spec,
                                                const DetectOptions& options) {
  const auto board = make_charuco_board(spec);
  if (!board) return fmt::format("unknown ArUco dictionary '{}'", spec.dictionary);
  auto params = cv::aruco::DetectorParameters::create();
  // interpolateCornersCharuco refines the chessboard corners itself; marker corners need not be.
  params->cornerRefinementMethod = cv::aruco::CORNER_REFINE_NONE;
  std::vector<std::vector<cv::Point2f>> marker_corners;
  std::vector<std::vector<cv::Point2f>> rejected;
  std::vector<int> marker_ids;
  cv::aruco::detectMarkers(gray, board->dictionary, marker_corners, marker_ids, params, rejected);
  if (marker_ids.empty()) {
    return fmt::format("no ArUco markers of {} found (is it a ChArUco board of that dictionary?)",
                       spec.dictionary);
  }
  cv::aruco::refineDetectedMarkers(gray, board, marker_corners, marker_ids, rejected);
  std::vector<cv::Point2f> corners;
  std::vector<int> ids;
  cv::aruco::interpolateCornersCharuco(marker_corners, marker_ids, gray, board, corners, ids);
  if (static_cast<int>(ids.size()) < options.min_charuco_corners) {
    return fmt::format(
        "only {} ChArUco corners found ({} needed; {} markers seen: is the board "
        "{}x{} squares?)",
        ids.size(), options.min_charuco_corners, marker_ids.size(), spec.cols, spec.rows);
  }
  if (cv::aruco::testCharucoCornersCollinear(board, ids)) {
    return std::string("the ChArUco corners found all lie on one line: show more of the board");
  }
  BoardView view;
  view.image_size = gray.size();
  view.image_px = std::move(corners);
  view.corner_ids = std::move(ids);
  view.board_mm.reserve(view.corner_ids.size());
  for (int id : view.corner_ids) {
    view.board_mm.push_back(board->chessboardCorners[static_cast<std::size_t>(id)]);
  }
  // OpenCV refines with a window that can reach the markers in the white squares, which pulls
  // corners off by a fraction of a pixel. Refine again inside the white gap around the corner.
  const double gap_fraction = (spec.square_mm - spec.marker_mm) / (2 * spec.square_mm);
  const double spacing = min_corner_spacing_px(view, spec);
  const int half = std::clamp(static_cast<int>(spacing * gap_fraction * 0.8), 2, 12);
  cv::cornerSubPix(gray, view.image_px, cv::Size(half, half), cv::Size(-1, -1),
                   cv::TermCriteria(cv::TermCriteria::EPS + cv::TermCriteria::COUNT, 40, 0.001));
  return view;
}

// findCirclesGrid happily finds a 6x6 grid inside a 7x6 one. Where a bigger board would have
// its next row or column of circles (mapped through the homography of the grid found), look for
// blobs: most of a side's places taken means the grid goes on.
bool circles_continue_beyond(const cv::Mat& gray, const PatternSpec& spec,
                             const std::vector<cv::Point2f>& centres,
                             cv::SimpleBlobDetector& blobs) {
  const cv::Size n = inner_corners(spec);
  const auto board = board_corners_mm(spec);
  std::vector<cv::Point2f> plane;
  for (const auto& p : board)
    plane.emplace_back(p.x, p.y);
  const cv::Mat h = cv::findHomography(plane, centres);
  if (h.empty()) return false;
  std::vector<cv::KeyPoint> keypoints;
  blobs.detect(gray, keypoints);
  // Half the smallest distance between found neighbours: a blob that close to a predicted
  // place is a circle there.
  double spacing = std::numeric_limits<double>::max();
  for (std::size_t i = 0; i + 1 < centres.size(); ++i) {
    for (std::size_t j = i + 1; j < centres.size(); ++j)
      spacing = std::min(spacing, static_cast<double>(cv::norm(centres[i] - centres[j])));
  }
  const double near = 0.35 * spacing;
  const double s = spec.square_mm;
  const bool asymmetric = spec.kind == PatternKind::kAsymmetricCircles;
  auto taken = [&](const std::vector<cv::Point2f>& places) {
    std::vector<cv::Point2f> image;
    cv::perspectiveTransform(places, image, h);
    int hits = 0;
    for (const auto& q : image) {
      for (const auto& k : keypoints) {
        if (cv::norm(k.pt - q) < near) {
          ++hits;
          break;
        }
      }
    }
    return places.size() >= 3 && hits >= 0.8 * static_cast<double>(places.size());
  };
  // Board x of circle c in row r (any integers, also outside the grid).
  auto x_of = [&](int r, int c) {
    return static_cast<float>((asymmetric ? 2 * c + ((r % 2) + 2) % 2 : c) * s);
  };
  std::vector<cv::Point2f> top, bottom, left, right;
  for (int c = 0; c < n.width; ++c) {
    top.emplace_back(x_of(-1, c), static_cast<float>(-s));
    bottom.emplace_back(x_of(n.height, c), static_cast<float>(n.height * s));
  }
  for (int r = 0; r < n.height; ++r) {
    left.emplace_back(x_of(r, -1), static_cast<float>(r * s));
    right.emplace_back(x_of(r, n.width), static_cast<float>(r * s));
  }
  return taken(top) || taken(bottom) || taken(left) || taken(right);
}

// Circle grids: OpenCV's findCirclesGrid on blobs found at full resolution (the blob centres are
// the grid points; no corner refinement applies). The default blob detector drops blobs over
// 5000 px², which a near board at 1080p exceeds, so the limits follow the image size.
Expected<BoardView, std::string> detect_circles(const cv::Mat& gray, const PatternSpec& spec,
                                                const DetectOptions& options) {
  const cv::Size pattern = inner_corners(spec);
  const bool asymmetric = spec.kind == PatternKind::kAsymmetricCircles;
  cv::SimpleBlobDetector::Params params;
  params.minArea = 9;
  params.maxArea = static_cast<float>(gray.total()) * 0.05f;
  params.minCircularity = 0.6f;  // circles seen at a slant are ellipses
  params.minDistBetweenBlobs = 3;
  const auto blobs = cv::SimpleBlobDetector::create(params);
  const int grid = asymmetric ? cv::CALIB_CB_ASYMMETRIC_GRID : cv::CALIB_CB_SYMMETRIC_GRID;
  std::vector<cv::Point2f> centres;
  bool found = false;
  try {
    found = cv::findCirclesGrid(gray, pattern, centres, grid, blobs);
    if (!found && options.thorough) {
      centres.clear();
      found = cv::findCirclesGrid(gray, pattern, centres, grid | cv::CALIB_CB_CLUSTERING, blobs);
    }
  } catch (const cv::Exception&) {
    found = false;
  }
  if (!found || centres.size() != static_cast<std::size_t>(pattern.area())) {
    return fmt::format(
        "no {} grid of {}x{} circles found (is the whole grid in view, and are --cols the "
        "circles in one row and --rows the rows?)",
        asymmetric ? "asymmetric" : "symmetric", pattern.width, pattern.height);
  }
  if (circles_continue_beyond(gray, spec, centres, *blobs)) {
    return fmt::format(
        "the circle grid in view has more than {}x{} circles (--cols counts the circles of one "
        "row, --rows the rows)",
        pattern.width, pattern.height);
  }
  if (!asymmetric) {
    // Seen from the front, x runs right when y runs down: undo a mirrored numbering.
    auto at = [&](int r, int c) -> cv::Point2f& {
      return centres[static_cast<std::size_t>(r * pattern.width + c)];
    };
    const cv::Point2f ax = at(0, 1) - at(0, 0);
    const cv::Point2f ay = at(1, 0) - at(0, 0);
    if (ax.x * ay.y - ax.y * ay.x < 0) {
      for (int r = 0; r < pattern.height; ++r) {
        for (int c = 0; c < pattern.width / 2; ++c)
          std::swap(at(r, c), at(r, pattern.width - 1 - c));
      }
    }
  }
  BoardView view;
  view.image_size = gray.size();
  view.image_px = std::move(centres);
  view.board_mm = board_corners_mm(spec);
  view.corner_ids.resize(view.image_px.size());
  for (std::size_t i = 0; i < view.corner_ids.size(); ++i)
    view.corner_ids[i] = static_cast<int>(i);
  return view;
}

}  // namespace

Expected<BoardView, std::string> detect_board(const cv::Mat& image, const PatternSpec& spec,
                                              const DetectOptions& options) {
  if (image.empty()) return std::string("the image is empty");
  if (image.depth() != CV_8U) return std::string("the image is not 8-bit");
  if (const auto bad = validate(spec)) return *bad;
  const cv::Mat gray = to_gray(image);
  switch (spec.kind) {
    case PatternKind::kChessboard:
      return detect_chessboard(gray, spec, options);
    case PatternKind::kCharuco:
      return detect_charuco(gray, spec, options);
    case PatternKind::kCircles:
    case PatternKind::kAsymmetricCircles:
      return detect_circles(gray, spec, options);
  }
  return std::string("unknown board kind");
}

}  // namespace duels::calib
