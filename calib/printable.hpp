#pragma once
/// @file Printable sheets: calibration boards and ArUco markers at true scale, each with a
/// 1-inch check bar and its parameters printed on it. Written as vector PDF (exact size, no
/// library needed) or as PNG with the DPI stored in its pHYs chunk.

#include <opencv2/core.hpp>

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "calib/pattern.hpp"
#include "common/error.hpp"

namespace duels::calib {

/// A paper size, inches.
struct Paper {
  std::string name;
  double width_in = 0;
  double height_in = 0;
};

/// "letter", "a4", "a3", "legal", "tabloid" (case-insensitive).
std::optional<Paper> paper_by_name(std::string_view name);

/// A line of text on a sheet: baseline start measured from the page's top-left, inches.
struct SheetText {
  cv::Point2d at_in;
  double size_pt = 10;
  std::string text;  ///< ASCII
};

/// One printed page as black rectangles and text (inches from the top-left, y down). Both
/// the PDF and the PNG writers draw from this, so they agree.
struct Sheet {
  Paper paper;
  std::vector<cv::Rect2d> black_in;
  std::vector<std::vector<cv::Point2d>> black_polygons_in;  ///< filled polygons (ring targets)
  std::vector<SheetText> text;
  cv::Rect2d check_bar_in;  ///< the 1-inch check bar (also in black_in)
};

/// Page margin used by the sheet layouts (most printers cannot print closer to the edge).
inline constexpr double kSheetMarginIn = 0.5;

/// The largest whole-millimetre square with which the board fits on the paper (ChArUco
/// markers are then 3/4 of it, rounded down to 0.5 mm). Nothing when even 5 mm is too big.
std::optional<PatternSpec> fit_board_to_paper(PatternSpec spec, const Paper& paper);

/// A sheet with the board centred under a header (title, parameters, check bars).
/// Error when the board does not fit the paper.
Expected<Sheet, std::string> board_sheet(const PatternSpec& spec, const Paper& paper);

/// Sheets with the markers laid out in a grid (as many pages as needed), each labelled with
/// its id. Errors: unknown dictionary, an id it does not have, a marker larger than the page.
Expected<std::vector<Sheet>, std::string> marker_sheets(const std::string& dictionary,
                                                        const std::vector<int>& ids, double side_in,
                                                        const Paper& paper);

/// "0-3,7,10-11" → {0,1,2,3,7,10,11}; nothing when malformed or reversed.
std::optional<std::vector<int>> parse_id_list(std::string_view text);

/// The sheets as a PDF document (vector: every rectangle exact, Helvetica text).
std::string pdf_document(const std::vector<Sheet>& sheets, const std::string& title);

/// A sheet as an 8-bit grey image at `dpi` (edges rounded to whole pixels).
cv::Mat rasterize(const Sheet& sheet, double dpi);

/// PNG bytes of an image with a pHYs chunk saying `dpi` (stored as pixels per metre).
std::vector<unsigned char> png_with_dpi(const cv::Mat& image, double dpi);

/// The DPI stored in a PNG's pHYs chunk, or nothing when it has none.
std::optional<double> png_dpi(const std::vector<unsigned char>& png);

/// Writes the sheets to `path`: .pdf = one document; .png = one file per sheet (name.png,
/// name-2.png, …) at `dpi`. All files or none. Returns the files written. Throws
/// DataException (unknown extension, unwritable path).
std::vector<std::string> write_sheets(const std::string& path, const std::vector<Sheet>& sheets,
                                      double dpi, const std::string& title);

}  // namespace duels::calib
