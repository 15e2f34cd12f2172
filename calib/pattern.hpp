#pragma once
/// @file Calibration patterns: what a player holds up to the camera (chessboard, ChArUco, or a
/// symmetric or asymmetric grid of circles).

#include <opencv2/aruco.hpp>
#include <opencv2/aruco/charuco.hpp>
#include <opencv2/core.hpp>

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace duels::calib {

/// The kinds of boards calib can find.
enum class PatternKind { kChessboard, kCharuco, kCircles, kAsymmetricCircles };

/// One calibration board, as printed. Chessboards count INNER corners (a 9×6 board has 10×7
/// squares); ChArUco boards count SQUARES (a 5×7 board has 4×6 inner corners); circle grids
/// count CIRCLES per row (cols) and rows, as OpenCV's findCirclesGrid does. Lengths in mm.
struct PatternSpec {
  PatternKind kind = PatternKind::kChessboard;
  int cols = 9;  ///< chessboard: inner corners across; ChArUco: squares across; circles: per row
  int rows = 6;  ///< chessboard: inner corners down; ChArUco: squares down; circles: rows
  /// Side of one square. Circle grids: the distance between neighbouring circle centres in a
  /// row (symmetric), or between rows (asymmetric: OpenCV's convention, centres of row i at
  /// x = (2j + i mod 2)·s, y = i·s).
  double square_mm = 25.0;
  double marker_mm = 0.0;  ///< ChArUco only: side of the ArUco marker inside a white square
  std::string dictionary = "DICT_5X5_100";  ///< ChArUco only: ArUco dictionary name
};

/// "chessboard" / "charuco" / "circles" / "acircles".
std::string to_string(PatternKind kind);
/// True for the two circle grids.
bool is_circle_grid(PatternKind kind);
/// Diameter of the printed circles of a circle grid (mm): half the nearest-neighbour spacing.
double circle_diameter_mm(const PatternSpec& spec);
/// Parses "chessboard", "charuco", "circles" (also "symmetric-circles") or "acircles" (also
/// "asymmetric-circles"), case-insensitive.
std::optional<PatternKind> parse_pattern_kind(std::string_view text);

/// What is wrong with a spec, in words, or nothing when it is usable.
std::optional<std::string> validate(const PatternSpec& spec);

/// One-line description printed on sheets and stored in calibration files, e.g.
/// "chessboard 9x6 inner corners, 25 mm squares".
std::string describe(const PatternSpec& spec);

/// Number of inner (chessboard) corners across and down; circle grids: circles per row, rows.
cv::Size inner_corners(const PatternSpec& spec);

/// Board corner positions in the board frame (mm; x across, y down, z = 0; origin at the first
/// inner corner or circle centre), indexed by corner id (row-major).
std::vector<cv::Point3f> board_corners_mm(const PatternSpec& spec);

/// Outer size of the printed board (all squares), mm.
cv::Size2d board_size_mm(const PatternSpec& spec);

/// An OpenCV predefined ArUco dictionary by its name (e.g. "DICT_4X4_50"); null when unknown.
cv::Ptr<cv::aruco::Dictionary> dictionary_by_name(std::string_view name);
/// Every dictionary name dictionary_by_name knows, for error messages.
std::vector<std::string> dictionary_names();

/// OpenCV's ChArUco board for a ChArUco spec (units: mm).
cv::Ptr<cv::aruco::CharucoBoard> make_charuco_board(const PatternSpec& spec);

/// The black parts of the printed board, as rectangles in the board frame (mm, y down).
/// Shared by the raster drawing, the PDF sheets and the synthetic renderer. Circles come as
/// horizontal strips at most 0.1 mm high, symmetric about each centre.
std::vector<cv::Rect2d> board_black_rects_mm(const PatternSpec& spec);

/// The black cells of ArUco marker `id` drawn `side` wide with its top-left corner at
/// `top_left` (any length unit, y down), one-cell black border included. Adjacent cells in a
/// row are merged. Empty when the id is not in the dictionary.
std::vector<cv::Rect2d> marker_black_rects(const cv::aruco::Dictionary& dictionary, int id,
                                           double side, cv::Point2d top_left);

/// A board drawn as a black/white picture, and where the board frame sits on it.
struct BoardPicture {
  cv::Mat image;               ///< 8-bit grey, 0 = black, 255 = white
  cv::Matx23d board_mm_to_px;  ///< board point (mm) → picture coordinates (pixel edges at k)
};

/// Draws the board at `px_per_mm` with a white margin of `margin_mm` all round. Cell edges are
/// rounded to whole pixels (exact when square_mm * px_per_mm is whole). Picture coordinates put
/// the outer corner of pixel (0,0) at (0,0), so pixel i covers [i, i+1).
BoardPicture draw_board(const PatternSpec& spec, double px_per_mm, double margin_mm);

/// Board-frame position (mm) of the outer top-left corner of the printed squares: (-s,-s) for a
/// chessboard or a circle grid (origin at the first inner corner or circle), (0,0) for ChArUco
/// (OpenCV's origin).
cv::Point2d board_outer_corner_mm(const PatternSpec& spec);

}  // namespace duels::calib
