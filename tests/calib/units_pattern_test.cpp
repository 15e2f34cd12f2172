// Lengths with units, pattern specs and the drawn boards.
#include <gtest/gtest.h>

#include <opencv2/aruco.hpp>
#include <opencv2/imgproc.hpp>

#include "calib/pattern.hpp"
#include "calib/units.hpp"
#include "fixtures.hpp"

namespace duels::calib {
namespace {

TEST(Units, LengthsWithUnits) {
  // A length as typed and its value.
  struct Case {
    const char* text;
    double mm;
  };
  for (const Case& c : {Case{"25mm", 25}, Case{"2.5cm", 25}, Case{"0.025m", 25}, Case{"1in", 25.4},
                        Case{"1.5 in", 38.1}, Case{"2\"", 50.8}, Case{" 30MM ", 30}}) {
    const auto mm = parse_length_mm(c.text);
    ASSERT_TRUE(mm) << c.text;
    EXPECT_NEAR(*mm, c.mm, 1e-9) << c.text;
  }
}

TEST(Units, BadLengthsAreRefused) {
  for (const char* text : {"25", "mm", "-3mm", "0mm", "25 furlongs", "", "1.2.3mm", "nanmm"}) {
    EXPECT_FALSE(parse_length_mm(text)) << text;
  }
}

TEST(Units, NumberPairs) {
  EXPECT_EQ(parse_number_pair("30,12.5"), std::make_pair(30.0, 12.5));
  EXPECT_EQ(parse_number_pair("60x48"), std::make_pair(60.0, 48.0));
  EXPECT_FALSE(parse_number_pair("60"));
  EXPECT_FALSE(parse_number_pair("a,b"));
}

TEST(Pattern, ValidationSaysWhatIsWrong) {
  PatternSpec spec = testing::chessboard_9x6();
  EXPECT_FALSE(validate(spec));
  spec.cols = 2;
  ASSERT_TRUE(validate(spec));
  EXPECT_NE(validate(spec)->find("inner corners"), std::string::npos);
  PatternSpec charuco = testing::charuco_7x5();
  EXPECT_FALSE(validate(charuco));
  charuco.marker_mm = 35;
  EXPECT_NE(validate(charuco)->find("smaller than the square"), std::string::npos);
  charuco.marker_mm = 20;
  charuco.dictionary = "DICT_9X9_1";
  EXPECT_NE(validate(charuco)->find("unknown ArUco dictionary"), std::string::npos);
  charuco.dictionary = "DICT_4X4_50";
  charuco.cols = 12;
  charuco.rows = 12;  // 72 markers > 50
  EXPECT_NE(validate(charuco)->find("needs 72 markers"), std::string::npos);
}

TEST(Pattern, KindNamesRoundTrip) {
  EXPECT_EQ(parse_pattern_kind("ChArUco"), PatternKind::kCharuco);
  EXPECT_EQ(parse_pattern_kind(to_string(PatternKind::kChessboard)), PatternKind::kChessboard);
  EXPECT_EQ(parse_pattern_kind("circles"), PatternKind::kCircles);
  EXPECT_FALSE(parse_pattern_kind("hexagons"));
}

TEST(Pattern, CharucoCornersMatchOpenCvBoard) {
  const PatternSpec spec = testing::charuco_7x5();
  const auto board = make_charuco_board(spec);
  const auto ours = board_corners_mm(spec);
  ASSERT_EQ(ours.size(), board->chessboardCorners.size());
  for (std::size_t i = 0; i < ours.size(); ++i) {
    EXPECT_NEAR(cv::norm(ours[i] - board->chessboardCorners[i]), 0.0, 1e-4) << i;
  }
}

// Our drawing of a ChArUco board is OpenCV's own (same squares, same markers in place).
TEST(Pattern, DrawnCharucoBoardEqualsOpenCvDrawing) {
  const PatternSpec spec = testing::charuco_7x5();
  const BoardPicture pic = draw_board(spec, 2.0, 0.0);  // 60 px squares, 44 px markers
  cv::Mat reference;
  make_charuco_board(spec)->draw(pic.image.size(), reference, 0, 1);
  ASSERT_EQ(reference.size(), pic.image.size());
  // OpenCV resamples its markers, so edges differ by a pixel or two; a wrong cell (7x7 px)
  // would survive a 5x5 box blur at nearly full contrast, an edge shift would not.
  cv::Mat a;
  cv::Mat b;
  cv::blur(reference, a, cv::Size(5, 5));
  cv::blur(pic.image, b, cv::Size(5, 5));
  EXPECT_LT(cv::norm(a, b, cv::NORM_INF), 160) << "boards differ";
}

TEST(Pattern, ChessboardPictureHasTheRightSquares) {
  const PatternSpec spec = testing::chessboard_9x6();
  const BoardPicture pic = draw_board(spec, 2.0, 10.0);
  EXPECT_EQ(pic.image.cols, (250 + 20) * 2);
  EXPECT_EQ(pic.image.rows, (175 + 20) * 2);
  // First inner corner (board origin) is 10 mm margin + 25 mm from the picture's corner.
  const cv::Vec2d origin = pic.board_mm_to_px * cv::Vec3d(0, 0, 1);
  EXPECT_DOUBLE_EQ(origin[0], 70.0);
  EXPECT_DOUBLE_EQ(origin[1], 70.0);
  EXPECT_EQ(pic.image.at<unsigned char>(21, 21), 0);    // top-left square is black
  EXPECT_EQ(pic.image.at<unsigned char>(21, 71), 255);  // its right neighbour white
  EXPECT_EQ(pic.image.at<unsigned char>(5, 5), 255);    // margin
  EXPECT_EQ(board_black_rects_mm(spec).size(), 35u);    // 10x7 squares, half black
}

TEST(Pattern, MarkerCellsMatchOpenCvMarker) {
  const auto dict = dictionary_by_name("DICT_4X4_50");
  ASSERT_TRUE(dict);
  for (int id : {0, 7, 49}) {
    cv::Mat reference;
    cv::aruco::drawMarker(dict, id, 6, reference, 1);
    cv::Mat ours(6, 6, CV_8UC1, cv::Scalar(255));
    for (const auto& r : marker_black_rects(*dict, id, 6, {0, 0})) {
      ours(cv::Rect(static_cast<int>(r.x), static_cast<int>(r.y), static_cast<int>(r.width),
                    static_cast<int>(r.height)))
          .setTo(0);
    }
    EXPECT_EQ(cv::norm(reference, ours, cv::NORM_INF), 0.0) << "id " << id;
  }
  EXPECT_TRUE(marker_black_rects(*dict, 50, 1, {0, 0}).empty());
}

}  // namespace
}  // namespace duels::calib
