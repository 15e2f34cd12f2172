// Printable sheets: true scale (PDF points, PNG pHYs), check bars, parameters on the page, and
// the printed boards and markers are found by the detectors.
#include <gtest/gtest.h>

#include <opencv2/imgcodecs.hpp>
#include <opencv2/imgproc.hpp>

#include <fstream>
#include <iterator>
#include <regex>

#include "calib/detect.hpp"
#include "calib/printable.hpp"
#include "calib/table.hpp"
#include "calib/units.hpp"
#include "common/error.hpp"
#include "fixtures.hpp"
#include "temp_dir.hpp"

namespace duels::calib {
namespace {

const Paper kLetter = *paper_by_name("letter");

// The 9x6 chessboard with 20 mm squares: 200 x 140 mm, fits a letter page turned.
PatternSpec board_20mm() {
  PatternSpec spec = testing::chessboard_9x6();
  spec.square_mm = 20;
  return spec;
}

TEST(Printable, PaperSizes) {
  EXPECT_DOUBLE_EQ(kLetter.width_in, 8.5);
  const Paper a4 = *paper_by_name("A4");
  EXPECT_NEAR(a4.width_in * kMmPerInch, 210, 1e-9);
  EXPECT_NEAR(a4.height_in * kMmPerInch, 297, 1e-9);
  EXPECT_FALSE(paper_by_name("napkin"));
}

TEST(Printable, BoardSheetHasCheckBarAndParameters) {
  const auto sheet = board_sheet(board_20mm(), kLetter);
  ASSERT_TRUE(sheet) << sheet.error();
  EXPECT_DOUBLE_EQ(sheet->check_bar_in.width, 1.0);
  std::string all;
  for (const auto& t : sheet->text)
    all += t.text + "\n";
  EXPECT_NE(all.find("9x6 inner corners"), std::string::npos) << all;
  EXPECT_NE(all.find("20 mm squares"), std::string::npos) << all;
  EXPECT_NE(all.find("quarter turn"), std::string::npos) << all;
  EXPECT_NE(all.find("1 inch"), std::string::npos) << all;
  EXPECT_NE(all.find("--cols 9 --rows 6 --square 20mm"), std::string::npos) << all;
  // 35 black squares of exactly 20 mm, plus the two check bars.
  int squares = 0;
  for (const auto& r : sheet->black_in) {
    if (std::abs(r.width * kMmPerInch - 20) < 1e-9 && std::abs(r.height * kMmPerInch - 20) < 1e-9) {
      ++squares;
    }
  }
  EXPECT_EQ(squares, 35);
}

TEST(Printable, PdfIsTrueScale) {
  const auto sheet = board_sheet(board_20mm(), kLetter);
  ASSERT_TRUE(sheet);
  const std::string pdf = pdf_document({*sheet}, "test");
  EXPECT_EQ(pdf.rfind("%PDF-", 0), 0u);
  EXPECT_NE(pdf.find("/MediaBox [0 0 612.0000 792.0000]"), std::string::npos);
  EXPECT_NE(pdf.find("/PrintScaling /None"), std::string::npos);
  // The check bar is a 72 pt (1 inch) wide rectangle.
  EXPECT_NE(pdf.find("36.0000 "), std::string::npos);
  const std::regex bar(R"(36\.0000 [0-9.]+ 72\.0000 7\.2000 re)");
  EXPECT_TRUE(std::regex_search(pdf, bar));
  // A 20 mm square is 56.6929 pt.
  EXPECT_NE(pdf.find(" 56.6929 56.6929 re"), std::string::npos);
  EXPECT_NE(pdf.find("(1 inch) Tj"), std::string::npos);
  // The cross-reference table points at the objects.
  const auto xref = pdf.find("xref\n");
  ASSERT_NE(xref, std::string::npos);
  const auto startxref = pdf.find("startxref\n");
  EXPECT_EQ(std::stoul(pdf.substr(startxref + 10)), xref);
  // Every entry of the cross-reference table points at its object.
  std::size_t entry = pdf.find("0000000000 65535 f \n") + 20;
  for (int object = 1; pdf.compare(entry + 11, 5, "00000") == 0; ++object, entry += 20) {
    const std::string header = std::to_string(object) + " 0 obj\n";
    EXPECT_EQ(pdf.compare(std::stoul(pdf.substr(entry, 10)), header.size(), header), 0)
        << "object " << object;
  }
}

TEST(Printable, PngCarriesItsDpiAndTheBarIsOneInch) {
  const auto sheet = board_sheet(board_20mm(), kLetter);
  ASSERT_TRUE(sheet);
  const cv::Mat page = rasterize(*sheet, 300);
  EXPECT_EQ(page.size(), cv::Size(2550, 3300));
  const auto png = png_with_dpi(page, 300);
  const auto dpi = png_dpi(png);
  ASSERT_TRUE(dpi);
  EXPECT_NEAR(*dpi, 300, 0.01);
  const cv::Mat decoded = cv::imdecode(png, cv::IMREAD_GRAYSCALE);
  ASSERT_EQ(decoded.size(), page.size());
  // Measure the bar: the black run through its middle row is 300 px long.
  const int row = static_cast<int>((sheet->check_bar_in.y + sheet->check_bar_in.height / 2) * 300);
  const int x0 = static_cast<int>(sheet->check_bar_in.x * 300) - 5;
  int x = x0;
  while (decoded.at<unsigned char>(row, x) >= 128)
    ++x;
  int run = 0;
  while (decoded.at<unsigned char>(row, x + run) < 128)
    ++run;
  EXPECT_EQ(run, 300);
}

TEST(Printable, PrintedChessboardIsDetectedAtTheRightScale) {
  const auto sheet = board_sheet(board_20mm(), kLetter);
  ASSERT_TRUE(sheet);
  const cv::Mat page = rasterize(*sheet, 100);
  const auto view = detect_board(page, board_20mm());
  ASSERT_TRUE(view) << view.error();
  // Edges are rounded to whole pixels, so average over a row of 8 squares.
  const double spacing = cv::norm(view->image_px[8] - view->image_px[0]) / 8;
  EXPECT_NEAR(spacing, 20 / kMmPerInch * 100, 0.2);
}

TEST(Printable, PrintedCharucoBoardIsDetected) {
  const auto fitted = fit_board_to_paper(testing::charuco_7x5(), *paper_by_name("a4"));
  ASSERT_TRUE(fitted);
  const auto sheet = board_sheet(*fitted, *paper_by_name("a4"));
  ASSERT_TRUE(sheet) << sheet.error();
  const auto view = detect_board(rasterize(*sheet, 100), *fitted);
  ASSERT_TRUE(view) << view.error();
  EXPECT_EQ(view->corner_ids.size(), 24u);
}

TEST(Printable, MarkerSheetsAreDetectedWithTheirIds) {
  const auto ids = parse_id_list("0-11");
  ASSERT_TRUE(ids);
  const auto sheets = marker_sheets("DICT_4X4_50", *ids, 1.5, kLetter);
  ASSERT_TRUE(sheets) << sheets.error();
  ASSERT_EQ(sheets->size(), 1u);  // 4 x 4 fit on a letter page
  const cv::Mat page = rasterize(sheets->front(), 100);
  const auto found = detect_markers(page, "DICT_4X4_50");
  ASSERT_TRUE(found);
  std::vector<int> got = found->ids;
  std::sort(got.begin(), got.end());
  EXPECT_EQ(got, *ids);
  for (const auto& c : found->corners_px)
    EXPECT_NEAR(cv::norm(c[1] - c[0]), 150, 1.5);
}

TEST(Printable, ManyBigMarkersTakeSeveralPages) {
  const auto sheets = marker_sheets("DICT_4X4_50", {0, 1, 2, 3}, 5.0, kLetter);
  ASSERT_TRUE(sheets) << sheets.error();
  EXPECT_EQ(sheets->size(), 4u);  // one 5" marker per letter page
  EXPECT_NE(sheets->at(1).text[1].text.find("page 2 of 4"), std::string::npos)
      << sheets->at(1).text[1].text;
}

TEST(Printable, TooBigIsRefusedWithAHint) {
  PatternSpec spec = testing::chessboard_9x6();
  spec.square_mm = 40;
  const auto sheet = board_sheet(spec, kLetter);
  ASSERT_FALSE(sheet);
  EXPECT_NE(sheet.error().find("largest square that fits: 21 mm"), std::string::npos)
      << sheet.error();
  const auto markers = marker_sheets("DICT_4X4_50", {0}, 9.0, kLetter);
  ASSERT_FALSE(markers);
  EXPECT_NE(markers.error().find("does not fit"), std::string::npos);
  EXPECT_FALSE(marker_sheets("DICT_4X4_50", {50}, 1.0, kLetter));
  EXPECT_FALSE(marker_sheets("DICT_NOPE", {1}, 1.0, kLetter));
}

TEST(Printable, IdLists) {
  EXPECT_EQ(parse_id_list("0-3,7,10-11"), (std::vector<int>{0, 1, 2, 3, 7, 10, 11}));
  EXPECT_EQ(parse_id_list("5"), (std::vector<int>{5}));
  for (const char* bad : {"", "3-1", "a", "1,,2", "1,", "-2"})
    EXPECT_FALSE(parse_id_list(bad)) << bad;
}

TEST(Printable, WritesPdfAndPngPages) {
  testing::TempDir dir;
  const auto sheets = marker_sheets("DICT_4X4_50", {0, 1}, 5.0, kLetter).value();
  const auto pdf = write_sheets(dir.file("corners.pdf"), sheets, 300, "corners");
  EXPECT_EQ(pdf.size(), 1u);
  const auto pngs = write_sheets(dir.file("corners.png"), sheets, 150, "corners");
  ASSERT_EQ(pngs.size(), 2u);
  EXPECT_EQ(pngs[1], dir.file("corners-2.png"));
  std::ifstream in(pngs[1], std::ios::binary);
  const std::vector<unsigned char> bytes((std::istreambuf_iterator<char>(in)),
                                         std::istreambuf_iterator<char>());
  EXPECT_NEAR(png_dpi(bytes).value_or(0), 150, 0.02);  // pHYs stores whole pixels per metre
  EXPECT_EQ(dir.count(), 3);
}

TEST(Printable, BadOutputNameWritesNothing) {
  testing::TempDir dir;
  const auto sheets = marker_sheets("DICT_4X4_50", {0}, 1.0, kLetter).value();
  EXPECT_THROW(write_sheets(dir.file("corners.svg"), sheets, 300, "x"), DataException);
  EXPECT_THROW(write_sheets(dir.file("missing/corners.pdf"), sheets, 300, "x"), DataException);
  EXPECT_THROW(write_sheets(dir.file("c.png"), sheets, 10, "x"), DataException);
  EXPECT_EQ(dir.count(), 0);
}

}  // namespace
}  // namespace duels::calib
