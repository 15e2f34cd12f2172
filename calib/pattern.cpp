#include "calib/pattern.hpp"

#include <fmt/format.h>

#include <opencv2/imgproc.hpp>

#include <algorithm>
#include <array>
#include <cctype>
#include <cmath>
#include <utility>

#include "calib/units.hpp"

namespace duels::calib {

namespace {

// An OpenCV predefined dictionary and the name players type for it.
struct NamedDictionary {
  const char* name;
  cv::aruco::PREDEFINED_DICTIONARY_NAME id;
};

constexpr std::array<NamedDictionary, 21> kDictionaries{{
    {"DICT_4X4_50", cv::aruco::DICT_4X4_50},
    {"DICT_4X4_100", cv::aruco::DICT_4X4_100},
    {"DICT_4X4_250", cv::aruco::DICT_4X4_250},
    {"DICT_4X4_1000", cv::aruco::DICT_4X4_1000},
    {"DICT_5X5_50", cv::aruco::DICT_5X5_50},
    {"DICT_5X5_100", cv::aruco::DICT_5X5_100},
    {"DICT_5X5_250", cv::aruco::DICT_5X5_250},
    {"DICT_5X5_1000", cv::aruco::DICT_5X5_1000},
    {"DICT_6X6_50", cv::aruco::DICT_6X6_50},
    {"DICT_6X6_100", cv::aruco::DICT_6X6_100},
    {"DICT_6X6_250", cv::aruco::DICT_6X6_250},
    {"DICT_6X6_1000", cv::aruco::DICT_6X6_1000},
    {"DICT_7X7_50", cv::aruco::DICT_7X7_50},
    {"DICT_7X7_100", cv::aruco::DICT_7X7_100},
    {"DICT_7X7_250", cv::aruco::DICT_7X7_250},
    {"DICT_7X7_1000", cv::aruco::DICT_7X7_1000},
    {"DICT_ARUCO_ORIGINAL", cv::aruco::DICT_ARUCO_ORIGINAL},
    {"DICT_APRILTAG_16h5", cv::aruco::DICT_APRILTAG_16h5},
    {"DICT_APRILTAG_25h9", cv::aruco::DICT_APRILTAG_25h9},
    {"DICT_APRILTAG_36h10", cv::aruco::DICT_APRILTAG_36h10},
    {"DICT_APRILTAG_36h11", cv::aruco::DICT_APRILTAG_36h11},
}};

std::string upper(std::string_view s) {
  std::string out(s);
  for (auto& c : out)
    c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return out;
}

}  // namespace

std::string to_string(PatternKind kind) {
  switch (kind) {
    case PatternKind::kChessboard:
      return "chessboard";
    case PatternKind::kCharuco:
      return "charuco";
    case PatternKind::kCircles:
      return "circles";
    case PatternKind::kAsymmetricCircles:
      return "acircles";
  }
  return "chessboard";
}

bool is_circle_grid(PatternKind kind) {
  return kind == PatternKind::kCircles || kind == PatternKind::kAsymmetricCircles;
}

double circle_diameter_mm(const PatternSpec& spec) {
  // Nearest neighbours: s apart in a symmetric grid, s·√2 apart (diagonally) in an asymmetric one.
  return spec.kind == PatternKind::kAsymmetricCircles ? spec.square_mm * std::sqrt(2.0) / 2
                                                      : spec.square_mm / 2;
}

std::optional<PatternKind> parse_pattern_kind(std::string_view text) {
  const std::string t = upper(text);
  if (t == "CHESSBOARD") return PatternKind::kChessboard;
  if (t == "CHARUCO") return PatternKind::kCharuco;
  if (t == "CIRCLES" || t == "SYMMETRIC-CIRCLES") return PatternKind::kCircles;
  if (t == "ACIRCLES" || t == "ASYMMETRIC-CIRCLES") return PatternKind::kAsymmetricCircles;
  return std::nullopt;
}

cv::Ptr<cv::aruco::Dictionary> dictionary_by_name(std::string_view name) {
  const std::string wanted = upper(name);
  for (const auto& d : kDictionaries) {
    if (upper(d.name) == wanted) return cv::aruco::getPredefinedDictionary(d.id);
  }
  return nullptr;
}

std::vector<std::string> dictionary_names() {
  std::vector<std::string> names;
  for (const auto& d : kDictionaries)
    names.emplace_back(d.name);
  return names;
}

std::optional<std::string> validate(const PatternSpec& spec) {
  if (spec.kind == PatternKind::kChessboard) {
    if (spec.cols < 3 || spec.rows < 3 || spec.cols > 40 || spec.rows > 40) {
      return fmt::format(
          "a chessboard needs 3 to 40 inner corners each way (got {}x{}; count the corners "
          "where four squares meet, not the squares)",
          spec.cols, spec.rows);
    }
  } else if (is_circle_grid(spec.kind)) {
    if (spec.cols < 3 || spec.rows < 3 || spec.cols > 40 || spec.rows > 40) {
      return fmt::format(
          "a circle grid needs 3 to 40 circles in a row and 3 to 40 rows (got {}x{}; an "
          "asymmetric grid counts the circles of one row, e.g. 4x11)",
          spec.cols, spec.rows);
    }
  } else {
    if (spec.cols < 3 || spec.rows < 3 || spec.cols > 40 || spec.rows > 40) {
      return fmt::format("a ChArUco board needs 3 to 40 squares each way (got {}x{})", spec.cols,
                         spec.rows);
    }
    if (!(spec.marker_mm > 0) || spec.marker_mm >= spec.square_mm) {
      return fmt::format(
          "the ChArUco marker size must be positive and smaller than the square "
          "({} given for {} squares)",
          format_mm(spec.marker_mm), format_mm(spec.square_mm));
    }
    const auto dict = dictionary_by_name(spec.dictionary);
    if (!dict) {
      return fmt::format(
          "unknown ArUco dictionary '{}' (try DICT_4X4_50, DICT_5X5_100, "
          "DICT_6X6_250)",
          spec.dictionary);
    }
    const int markers = (spec.cols * spec.rows) / 2;
    if (markers > dict->bytesList.rows) {
      return fmt::format("a {}x{} ChArUco board needs {} markers but {} has only {}", spec.cols,
                         spec.rows, markers, spec.dictionary, dict->bytesList.rows);
    }
  }
  if (!(spec.square_mm > 0) || spec.square_mm > 1000) {
    return fmt::format("the square size must be between 0 and 1 m (got {})",
                       format_mm(spec.square_mm));
  }
  return std::nullopt;
}

std::string describe(const PatternSpec& spec) {
  if (spec.kind == PatternKind::kCircles) {
    return fmt::format("circles {}x{} symmetric grid, centres {} apart", spec.cols, spec.rows,
                       format_mm(spec.square_mm));
  }
  if (spec.kind == PatternKind::kAsymmetricCircles) {
    return fmt::format("acircles {}x{} asymmetric grid, rows {} apart ({} along a row)", spec.cols,
                       spec.rows, format_mm(spec.square_mm), format_mm(2 * spec.square_mm));
  }
  if (spec.kind == PatternKind::kChessboard) {
    return fmt::format("chessboard {}x{} inner corners ({}x{} squares), {} squares", spec.cols,
                       spec.rows, spec.cols + 1, spec.rows + 1, format_mm(spec.square_mm));
  }
  return fmt::format("charuco {}x{} squares, {} squares, {} markers, {}", spec.cols, spec.rows,
                     format_mm(spec.square_mm), format_mm(spec.marker_mm), spec.dictionary);
}

cv::Size inner_corners(const PatternSpec& spec) {
  if (spec.kind != PatternKind::kCharuco) return {spec.cols, spec.rows};
  return {spec.cols - 1, spec.rows - 1};
}

std::vector<cv::Point3f> board_corners_mm(const PatternSpec& spec) {
  const cv::Size n = inner_corners(spec);
  const cv::Point2d origin = spec.kind == PatternKind::kCharuco
                                 ? cv::Point2d(spec.square_mm, spec.square_mm)
                                 : cv::Point2d(0, 0);
  const bool asymmetric = spec.kind == PatternKind::kAsymmetricCircles;
  std::vector<cv::Point3f> pts;
  pts.reserve(static_cast<std::size_t>(n.area()));
  for (int r = 0; r < n.height; ++r) {
    for (int c = 0; c < n.width; ++c) {
      const int x = asymmetric ? 2 * c + r % 2 : c;
      pts.emplace_back(static_cast<float>(origin.x + x * spec.square_mm),
                       static_cast<float>(origin.y + r * spec.square_mm), 0.0f);
    }
  }
  return pts;
}

cv::Size2d board_size_mm(const PatternSpec& spec) {
  const cv::Size n = inner_corners(spec);
  // An asymmetric grid's rows are 2s wide per circle, the odd rows shifted by s.
  const int across = spec.kind == PatternKind::kAsymmetricCircles ? 2 * n.width : n.width + 1;
  return {across * spec.square_mm, (n.height + 1) * spec.square_mm};
}

cv::Point2d board_outer_corner_mm(const PatternSpec& spec) {
  if (spec.kind == PatternKind::kCharuco) return {0, 0};
  return {-spec.square_mm, -spec.square_mm};
}

cv::Ptr<cv::aruco::CharucoBoard> make_charuco_board(const PatternSpec& spec) {
  const auto dict = dictionary_by_name(spec.dictionary);
  if (!dict) return nullptr;
  return cv::aruco::CharucoBoard::create(spec.cols, spec.rows, static_cast<float>(spec.square_mm),
                                         static_cast<float>(spec.marker_mm), dict);
}

std::vector<cv::Rect2d> marker_black_rects(const cv::aruco::Dictionary& dictionary, int id,
                                           double side, cv::Point2d top_left) {
  std::vector<cv::Rect2d> rects;
  if (id < 0 || id >= dictionary.bytesList.rows) return rects;
  const int bits_n = dictionary.markerSize;
  const cv::Mat bits =
      cv::aruco::Dictionary::getBitsFromByteList(dictionary.bytesList.rowRange(id, id + 1), bits_n);
  const int cells = bits_n + 2;
  const double cell = side / cells;
  for (int r = 0; r < cells; ++r) {
    int run_start = -1;
    for (int c = 0; c <= cells; ++c) {
      bool black = false;
      if (c < cells) {
        const bool border = r == 0 || c == 0 || r == cells - 1 || c == cells - 1;
        black = border || bits.at<unsigned char>(r - 1, c - 1) == 0;
      }
      if (black && run_start < 0) run_start = c;
      if (!black && run_start >= 0) {
        rects.emplace_back(top_left.x + run_start * cell, top_left.y + r * cell,
                           (c - run_start) * cell, cell);
        run_start = -1;
      }
    }
  }
  return rects;
}

std::vector<cv::Rect2d> board_black_rects_mm(const PatternSpec& spec) {
  std::vector<cv::Rect2d> rects;
  const double s = spec.square_mm;
  const cv::Point2d o = board_outer_corner_mm(spec);
  const cv::Size n = inner_corners(spec);
  const int squares_x = n.width + 1;
  const int squares_y = n.height + 1;
  if (is_circle_grid(spec.kind)) {
    const double radius = circle_diameter_mm(spec) / 2;
    const int strips = std::max(8, static_cast<int>(std::ceil(2 * radius / 0.1)));
    const double h = 2 * radius / strips;
    for (const cv::Point3f& c : board_corners_mm(spec)) {
      for (int k = 0; k < strips; ++k) {
        // Each strip as wide as the circle at the strip's middle: symmetric about the centre.
        const double y = -radius + (k + 0.5) * h;
        const double half = std::sqrt(std::max(0.0, radius * radius - y * y));
        rects.emplace_back(c.x - half, c.y - radius + k * h, 2 * half, h);
      }
    }
    return rects;
  }
  if (spec.kind == PatternKind::kChessboard) {
    for (int r = 0; r < squares_y; ++r) {
      for (int c = 0; c < squares_x; ++c) {
        if ((r + c) % 2 == 0) rects.emplace_back(o.x + c * s, o.y + r * s, s, s);
      }
    }
    return rects;
  }
  const auto board = make_charuco_board(spec);
  if (!board) return rects;
  // A square is white when a marker sits in it; the markers come from OpenCV's own board so
  // ids and positions match what interpolateCornersCharuco expects.
  std::vector<char> white(static_cast<std::size_t>(squares_x * squares_y), 0);
  for (std::size_t m = 0; m < board->objPoints.size(); ++m) {
    const auto& q = board->objPoints[m];
    const double cx = (q[0].x + q[2].x) / 2.0;
    const double cy = (q[0].y + q[2].y) / 2.0;
    const int c = static_cast<int>(std::floor((cx - o.x) / s));
    const int r = static_cast<int>(std::floor((cy - o.y) / s));
    if (c >= 0 && c < squares_x && r >= 0 && r < squares_y) {
      white[static_cast<std::size_t>(r * squares_x + c)] = 1;
    }
    const double min_x = std::min({q[0].x, q[1].x, q[2].x, q[3].x});
    const double min_y = std::min({q[0].y, q[1].y, q[2].y, q[3].y});
    // OpenCV 4.6 uses y down: corner 0 (the marker picture's top-left) is the minimum.
    const auto cells =
        marker_black_rects(*board->dictionary, board->ids[m], spec.marker_mm, {min_x, min_y});
    rects.insert(rects.end(), cells.begin(), cells.end());
  }
  for (int r = 0; r < squares_y; ++r) {
    for (int c = 0; c < squares_x; ++c) {
      if (white[static_cast<std::size_t>(r * squares_x + c)] == 0) {
        rects.emplace_back(o.x + c * s, o.y + r * s, s, s);
      }
    }
  }
  return rects;
}

BoardPicture draw_board(const PatternSpec& spec, double px_per_mm, double margin_mm) {
  const cv::Size2d size = board_size_mm(spec);
  const cv::Point2d o = board_outer_corner_mm(spec);
  const cv::Point2d start = o - cv::Point2d(margin_mm, margin_mm);
  const int w = static_cast<int>(std::lround((size.width + 2 * margin_mm) * px_per_mm));
  const int h = static_cast<int>(std::lround((size.height + 2 * margin_mm) * px_per_mm));
  BoardPicture pic;
  pic.image = cv::Mat(h, w, CV_8UC1, cv::Scalar(255));
  pic.board_mm_to_px = cv::Matx23d(px_per_mm, 0, -start.x * px_per_mm,  //
                                   0, px_per_mm, -start.y * px_per_mm);
  if (is_circle_grid(spec.kind)) {
    // Round circles (anti-aliased, centres to 1/256 px): pixel i covers [i, i+1), so a centre
    // at picture coordinate u is drawn at pixel position u - 0.5.
    constexpr int kShift = 8;
    const double one = 1 << kShift;
    const double radius_px = circle_diameter_mm(spec) / 2 * px_per_mm;
    for (const cv::Point3f& c : board_corners_mm(spec)) {
      const double u = (c.x - start.x) * px_per_mm - 0.5;
      const double v = (c.y - start.y) * px_per_mm - 0.5;
      cv::circle(
          pic.image,
          cv::Point(static_cast<int>(std::lround(u * one)), static_cast<int>(std::lround(v * one))),
          static_cast<int>(std::lround(radius_px * one)), cv::Scalar(0), cv::FILLED, cv::LINE_AA,
          kShift);
    }
    return pic;
  }
  for (const auto& r : board_black_rects_mm(spec)) {
    const int x0 = static_cast<int>(std::lround((r.x - start.x) * px_per_mm));
    const int y0 = static_cast<int>(std::lround((r.y - start.y) * px_per_mm));
    const int x1 = static_cast<int>(std::lround((r.x + r.width - start.x) * px_per_mm));
    const int y1 = static_cast<int>(std::lround((r.y + r.height - start.y) * px_per_mm));
    const cv::Rect cell = cv::Rect(x0, y0, x1 - x0, y1 - y0) & cv::Rect(0, 0, w, h);
    if (cell.area() > 0) pic.image(cell).setTo(0);
  }
  return pic;
}

}  // namespace duels::calib
