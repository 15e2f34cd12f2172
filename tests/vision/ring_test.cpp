// The base ring (vision/ring.hpp) and the webcam degradations (vision/degrade.hpp): the code
// book, reading codes at any rotation, the sheets, and — on small seeded degraded scenes —
// the found rate and error bounds of `duels bench coverage` (not timed; the full run is the
// bench).
#include <gtest/gtest.h>
#include <unistd.h>

#include <opencv2/imgproc.hpp>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <optional>
#include <string>

#include "calib/camera_file.hpp"
#include "calib/printable.hpp"
#include "calib/synthetic.hpp"
#include "tests/vision/coverage_goal.hpp"
#include "vision/coverage.hpp"
#include "vision/degrade.hpp"
#include "vision/markers.hpp"
#include "vision/pipeline.hpp"
#include "vision/render.hpp"
#include "vision/ring.hpp"

namespace duels::vision {
namespace {

// The smallest turn (degrees) that maps code `id` onto itself (360 for most codes).
double period_deg(int id) {
  const auto c = *ring_code(id);
  for (int k = 1; k < kRingSectors; ++k) {
    bool same = true;
    for (int i = 0; i < kRingSectors; ++i)
      same &= c[static_cast<std::size_t>(i)] == c[static_cast<std::size_t>((i + k) % kRingSectors)];
    if (same) return 360.0 * k / kRingSectors;
  }
  return 360.0;
}

// Facing error modulo the code's own symmetry.
double facing_error(double got, double want, double period) {
  const double e = std::fmod(std::abs(got - want), period);
  return std::min(e, period - e);
}

// Cells in which two-band codes a and b (b turned by k sectors) differ within the
// `window` sectors starting at `from`.
int two_band_diff(const RingCells& a, const RingCells& b, int k, int from, int window) {
  int diff = 0;
  for (int band = 0; band < 2; ++band) {
    for (int i = from; i < from + window; ++i) {
      const auto bi = static_cast<std::size_t>(band);
      diff += a[bi][static_cast<std::size_t>(i % kRingSectors)] !=
              b[bi][static_cast<std::size_t>((i + k) % kRingSectors)];
    }
  }
  return diff;
}

// The two-band book's promise (ring.cpp): codes differ within any half of the ring (6
// consecutive sectors) at every rotation — 0–4 in 3 cells, 0–18 in 2 — and within any 8
// consecutive sectors in 2 (codes 19–35 from every earlier code in 3); no code is a rotation
// of itself.
TEST(RingCode, TwoBandCodesDifferWithinAnyHalfOfTheRing) {
  constexpr auto two = RingStyle::kTwoBand;
  ASSERT_EQ(ring_code_count(two), 64);
  EXPECT_FALSE(ring_cells(-1, two));
  EXPECT_FALSE(ring_cells(64, two));
  const auto least = [&](int a, int b, int window) {
    int m = 99;
    const auto ca = *ring_cells(a, two);
    const auto cb = *ring_cells(b, two);
    for (int k = 0; k < kRingSectors; ++k) {
      for (int from = 0; from < kRingSectors; ++from)
        m = std::min(m, two_band_diff(ca, cb, k, from, window));
    }
    return m;
  };
  for (int a = 0; a < 64; ++a) {
    const auto ca = *ring_cells(a, two);
    for (int k = 1; k < kRingSectors; ++k)
      EXPECT_GT(two_band_diff(ca, ca, k, 0, kRingSectors), 0) << a << " turned " << k;
    for (int b = a + 1; b < 64; ++b) {
      EXPECT_GE(least(a, b, 8), b >= 19 && b < 36 ? 3 : 2) << a << " vs " << b;
      if (b < 19) {
        EXPECT_GE(least(a, b, 6), b < 5 ? 3 : 2) << a << " vs " << b;
      }
    }
  }
  // The shade: outer band outside the split, inner band inside it.
  const double r = 1.0;
  const auto cells = *ring_cells(3, two);
  const double a = 2 * CV_PI / kRingSectors * 0.5;  // middle of sector 0
  const auto at = [&](double rho) { return cv::Point2d(-rho * std::sin(a), rho * std::cos(a)); };
  EXPECT_EQ(ring_shade(3, r, at(0.7), two), cells[0][0] ? 0.0 : 1.0);
  EXPECT_EQ(ring_shade(3, r, at(0.55), two), cells[1][0] ? 0.0 : 1.0);
  EXPECT_EQ(ring_shade(3, r, at(0.9), two), 1.0);
  EXPECT_FALSE(ring_shade(3, r, at(0.3), two));
}

// A ring's black evidence (ring_black_cells), on which a ring is believed a ring at all: every
// two-band code has black cells in every half of its ring, every one-band code somewhere; a
// fit on white paper reads none. Counted in clearly seen cells a frame, as ring_agreements
// counts evidence.
TEST(RingCode, EveryCodeReadsBlackAndWhitePaperNone) {
  for (const RingStyle style : {RingStyle::kOneBand, RingStyle::kTwoBand}) {
    const std::size_t bands = style == RingStyle::kTwoBand ? 2 : 1;
    for (int id = 0; id < ring_code_count(style); ++id) {
      const RingCells cells = *ring_cells(id, style);
      const auto black_in = [&](std::size_t from, std::size_t sectors) {
        int n = 0;
        for (std::size_t band = 0; band < bands; ++band) {
          for (std::size_t k = 0; k < sectors; ++k)
            n += cells[band][(from + k) % kRingSectors];
        }
        return n;
      };
      const int black = black_in(0, kRingSectors);
      EXPECT_GE(black, 1) << id;
      if (style == RingStyle::kTwoBand) {
        for (std::size_t from = 0; from < kRingSectors; ++from)
          EXPECT_GE(black_in(from, kRingSectors / 2), 1) << id << " from sector " << from;
      }
      // Its samples read cleanly over two frames: its black cells, counted once a frame.
      constexpr std::size_t per = kRingCodeSamples / kRingSectors;
      std::vector<float> sum(bands * kRingCodeSamples);
      for (std::size_t j = 0; j < sum.size(); ++j)
        sum[j] = cells[j / kRingCodeSamples][j % kRingCodeSamples / per] ? 2.f : -2.f;
      EXPECT_NEAR(ring_black_cells(sum, 2), black / 0.85, 1e-4) << id;
    }
  }
  EXPECT_EQ(ring_black_cells(std::vector<float>(2 * kRingCodeSamples, -1.f), 1), 0.0);
}

TEST(RingCode, EnoughCodesAndAnyTwoDifferUnderEveryRotation) {
  ASSERT_GE(ring_code_count(), 40);
  for (int a = 0; a < ring_code_count(); ++a) {
    const auto ca = *ring_code(a);
    int black = 0;
    for (bool b : ca)
      black += b;
    EXPECT_GT(black, 0) << a;
    EXPECT_LT(black, kRingSectors) << a;
    for (int b = a + 1; b < ring_code_count(); ++b) {
      const auto cb = *ring_code(b);
      for (int k = 0; k < kRingSectors; ++k) {
        int diff = 0;
        for (int i = 0; i < kRingSectors; ++i)
          diff += ca[static_cast<std::size_t>(i)] !=
                  cb[static_cast<std::size_t>((i + k) % kRingSectors)];
        EXPECT_GE(diff, 2) << a << " vs " << b << " turned " << k;
      }
    }
  }
  EXPECT_FALSE(ring_code(-1));
  EXPECT_FALSE(ring_code(ring_code_count()));
}

TEST(RingCode, ShadeFollowsTheBands) {
  const double r = 1.0;
  EXPECT_EQ(ring_shade(7, r, {0, 0.9}), 1.0);  // rim: white
  EXPECT_FALSE(ring_shade(7, r, {0, 0.3}));    // the middle is not printed
  EXPECT_FALSE(ring_shade(7, r, {0, 1.05}));   // off the base
  const auto code = *ring_code(7);
  // Sector 0 starts at the front (+y) and runs counter-clockwise (toward −x).
  const double a = 2 * CV_PI / kRingSectors * 0.5;
  const cv::Point2d mid0(-0.6 * std::sin(a), 0.6 * std::cos(a));
  EXPECT_EQ(ring_shade(7, r, mid0), code[0] ? 0.0 : 1.0);
}

TEST(RingCode, DecodesEveryCodeAtAnyTurnWithSomeSectorsHidden) {
  // Codes 0-17 (at least 3 sectors apart) survive an eighth of the ring hidden plus noise.
  std::vector<int> all;
  for (int i = 0; i < 18; ++i)
    all.push_back(i);
  cv::RNG rng(5);
  for (int id : all) {
    const double turn = rng.uniform(0.0, 360.0);
    std::vector<float> code(kRingCodeSamples);
    std::vector<float> weight(kRingCodeSamples, 1.f);
    for (int j = 0; j < kRingCodeSamples; ++j) {
      const double a = 360.0 * (j + 0.5) / kRingCodeSamples;  // table angle of the sample
      double rel = std::fmod(a - turn + 720.0, 360.0);
      const int sector = static_cast<int>(rel / (360.0 / kRingSectors));
      code[static_cast<std::size_t>(j)] =
          (*ring_code(id))[static_cast<std::size_t>(sector)] ? 1.f : -1.f;
      code[static_cast<std::size_t>(j)] += static_cast<float>(rng.gaussian(0.3));
    }
    // A figure hides an eighth of the ring.
    const int from = rng.uniform(0, kRingCodeSamples);
    for (int j = 0; j < kRingCodeSamples / 8; ++j)
      weight[static_cast<std::size_t>((from + j) % kRingCodeSamples)] = 0.f;
    const RingDecode d = decode_ring(code, weight, all);
    EXPECT_EQ(d.id, id);
    EXPECT_GT(d.margin, 0.1) << id;
    EXPECT_LT(facing_error(d.facing_deg, turn, period_deg(id)), 2 * 360.0 / kRingCodeSamples + 1e-9)
        << id;
  }
}

TEST(KernelBank, CorrelatesAsFilter2DWithAZeroBorder) {
  cv::Mat image(57, 83, CV_8U);
  cv::RNG rng(7);
  rng.fill(image, cv::RNG::UNIFORM, 0, 256);
  cv::Mat lopsided(9, 9, CV_32F);  // no symmetry: a flipped or shifted result would show
  rng.fill(lopsided, cv::RNG::UNIFORM, -1.0, 1.0);
  const std::vector<cv::Mat> kernels = {rim_matched_filter(3.0, 0.72, 0.98), lopsided};
  const std::vector<cv::Mat> got = KernelBank(image.size(), kernels).correlate(image);
  ASSERT_EQ(got.size(), kernels.size());
  for (std::size_t k = 0; k < kernels.size(); ++k) {
    cv::Mat want;
    cv::filter2D(image, want, CV_32F, kernels[k], cv::Point(-1, -1), 0, cv::BORDER_CONSTANT);
    ASSERT_EQ(got[k].size(), image.size());
    EXPECT_LT(cv::norm(got[k], want, cv::NORM_INF), 1e-2) << "kernel " << k;
  }
}

TEST(HalfRingFilters, AHalfRingScoresAsTheWholeRing) {
  // A white ring on grey felt, whole and with its lower half painted over with the felt.
  const double r = 10;
  const auto ring = [&](bool half) {
    cv::Mat img(61, 61, CV_8U, cv::Scalar(60));
    cv::circle(img, {30, 30}, static_cast<int>(r), cv::Scalar(200), cv::FILLED);
    cv::circle(img, {30, 30}, static_cast<int>(0.7 * r), cv::Scalar(60), cv::FILLED);
    if (half) img(cv::Rect(0, 31, 61, 30)).setTo(60);
    return img;
  };
  const cv::Mat rim = rim_matched_filter(r, 0.72, 0.98);
  const std::vector<cv::Mat> h = half_ring_filters(rim);
  ASSERT_EQ(h.size(), 2U);
  const auto at_centre = [](const cv::Mat& img, const cv::Mat& k) {
    cv::Mat out;
    cv::filter2D(img, out, CV_32F, k, cv::Point(-1, -1), 0, cv::BORDER_REPLICATE);
    return static_cast<double>(out.at<float>(30, 30));
  };
  const double whole = at_centre(ring(false), rim);
  const cv::Mat half = ring(true);
  const double mean = at_centre(half, rim);
  const double harmonic = std::hypot(at_centre(half, h[0]), at_centre(half, h[1]));
  EXPECT_NEAR(mean, whole / 2, 0.1 * whole);
  EXPECT_LT(std::abs(at_centre(ring(false), h[0])), 0.02 * whole);  // a whole ring: none
  EXPECT_NEAR(mean + CV_PI / 2 * harmonic, whole, 0.1 * whole);
}

TEST(RingSheets, TrueScaleWithCutLinesAndCheckBar) {
  const auto sheets = ring_sheets({4, 5, 6}, {2.0, 2.5}, *calib::paper_by_name("letter"));
  ASSERT_TRUE(sheets) << sheets.error();
  ASSERT_EQ(sheets->size(), 1U);
  const auto& s = sheets->front();
  EXPECT_DOUBLE_EQ(s.check_bar_in.width, 1.0);
  EXPECT_GT(s.black_polygons_in.size(), 6U * 12);  // code sectors plus dashed cut lines
  // The printed outer cut line lies just outside a 2" base's rim.
  double far = 0;
  for (const auto& poly : s.black_polygons_in) {
    for (const auto& p : poly)
      far = std::max(far, p.y);
  }
  EXPECT_LT(far, s.paper.height_in);
  const cv::Mat img = calib::rasterize(s, 100);
  EXPECT_LT(cv::mean(img)[0], 250);
  EXPECT_FALSE(ring_sheets({ring_code_count()}, {2.0}, *calib::paper_by_name("letter")));
  // Two-band sheets: black cells in both bands, the same cut lines.
  const auto two = ring_sheets({0, 1}, {2.0}, *calib::paper_by_name("letter"), RingStyle::kTwoBand);
  ASSERT_TRUE(two);
  const auto one = ring_sheets({0, 1}, {2.0}, *calib::paper_by_name("letter"));
  ASSERT_TRUE(one);
  EXPECT_NE((*two)[0].black_polygons_in.size(), (*one)[0].black_polygons_in.size());
  EXPECT_FALSE(ring_sheets({64}, {2.0}, *calib::paper_by_name("letter"), RingStyle::kTwoBand));
  EXPECT_FALSE(ring_sheets({4}, {12.0}, *calib::paper_by_name("letter")));
}

TEST(BaseMapRing, ParsesTargetAndRejectsBadOnes) {
  const auto map = parse_base_map(
      "schema_version: 1\nbases:\n  - {marker: 5, figure: K, diameter: 2, marker_height: 0.75, "
      "target: ring}\n",
      "m.yaml");
  ASSERT_EQ(map.bases.size(), 1U);
  EXPECT_TRUE(map.bases[0].ring);
  EXPECT_EQ(map.bases[0].ring_style, RingStyle::kOneBand);  // the first ring, still read
  const auto two = parse_base_map(
      "schema_version: 1\nbases:\n  - {marker: 63, figure: K, diameter: 2, marker_height: 0.75, "
      "target: ring2}\n  - {marker: 0, figure: L, diameter: 2, marker_height: 0.75, "
      "target: ring2}\n",
      "m.yaml");
  // Ring codes start at 0 (only square markers 0-3 are the table's corner markers).
  ASSERT_EQ(two.bases.size(), 2U);
  EXPECT_TRUE(two.bases[0].ring);
  EXPECT_EQ(two.bases[0].ring_style, RingStyle::kTwoBand);
  EXPECT_THROW(parse_base_map("schema_version: 1\nbases:\n  - {marker: 64, figure: K, diameter: 2, "
                              "marker_height: 0.75, target: ring2}\n",
                              "m.yaml"),
               DataException);
  EXPECT_THROW(parse_base_map("schema_version: 1\nbases:\n  - {marker: 5, figure: K, diameter: 2, "
                              "marker_height: 0.75, target: hexagon}\n",
                              "m.yaml"),
               DataException);
  EXPECT_THROW(
      parse_base_map("schema_version: 1\nbases:\n  - {marker: 500, figure: K, diameter: 2, "
                     "marker_height: 0.75, target: ring}\n",
                     "m.yaml"),
      DataException);
}

TEST(Degrade, SeededAndSeparateFromTheRenderer) {
  cv::Mat img(120, 160, CV_8UC3, cv::Scalar(128, 128, 128));
  cv::rectangle(img, {40, 30, 60, 50}, cv::Scalar(250, 250, 250), cv::FILLED);
  const Degradation d = typical_webcam();
  const cv::Mat a = degrade(img, d, 3);
  const cv::Mat b = degrade(img, d, 3);
  const cv::Mat c = degrade(img, d, 4);
  EXPECT_EQ(cv::norm(a, b, cv::NORM_INF), 0);
  EXPECT_GT(cv::norm(a, c, cv::NORM_L1), 0);
  // Blur softens the square's edge; the gradient and vignetting darken one corner more.
  Degradation blur_only;
  blur_only.blur_sigma_px = 1.2;
  const cv::Mat s = degrade(img, blur_only);
  EXPECT_GT(s.at<cv::Vec3b>(30, 70)[0], 128);
  EXPECT_LT(s.at<cv::Vec3b>(30, 70)[0], 250);
  Degradation light;
  light.vignetting = 0.3;
  const cv::Mat l = degrade(img, light);
  EXPECT_LT(l.at<cv::Vec3b>(0, 0)[0], 100);
  EXPECT_EQ(l.at<cv::Vec3b>(60, 80)[0], img.at<cv::Vec3b>(60, 80)[0]);
  Degradation bad;
  bad.jpeg_quality = 101;
  EXPECT_THROW((void)degrade(img, bad), DataException);
  bad = {};
  bad.sharpen = -1;
  EXPECT_THROW((void)degrade(img, bad), DataException);
}

// A camera's own processing (issue 51): light is blurred, not its sRGB values; a mosaic leaves
// colour fringes on a sharp edge; sharpening leaves a halo on both sides of it.
TEST(Degrade, ACamerasProcessingBlursLightMosaicsAndSharpens) {
  cv::Mat img(40, 40, CV_8UC3, cv::Scalar::all(0));
  img(cv::Rect(20, 0, 20, 40)).setTo(cv::Scalar::all(255));
  // Blurred in linear light, the edge's middle is half the light: sRGB 188, not 128.
  Degradation plain;
  plain.blur_sigma_px = 3;
  Degradation linear = plain;
  linear.linear_light = true;
  const auto mid = [](const cv::Mat& m) {  // the two pixels either side of the edge
    return (m.at<cv::Vec3b>(20, 19)[1] + m.at<cv::Vec3b>(20, 20)[1]) / 2.0;
  };
  EXPECT_NEAR(mid(degrade(img, plain)), 127.5, 3);
  EXPECT_GT(mid(degrade(img, linear)), 127.5 + 30);
  // Flat colour goes through the mosaic unchanged; a coloured edge picks up other colours.
  cv::Mat flat(20, 20, CV_8UC3, cv::Scalar(40, 160, 90));
  Degradation mosaic;
  mosaic.bayer = true;
  EXPECT_LE(cv::norm(degrade(flat, mosaic)(cv::Rect(2, 2, 16, 16)), flat(cv::Rect(2, 2, 16, 16)),
                     cv::NORM_INF),
            1);
  // A grey edge: each colour is sampled on its own pixels, so beside the edge the demosaiced
  // channels disagree (a colour fringe) where the picture had none.
  cv::Mat edge(40, 40, CV_8UC3, cv::Scalar::all(0));
  edge(cv::Rect(21, 0, 19, 40)).setTo(cv::Scalar::all(255));
  const cv::Mat m = degrade(edge, mosaic);
  int fringe = 0;
  for (int v = 2; v < 38; ++v) {
    for (int u = 19; u <= 23; ++u) {
      const cv::Vec3b p = m.at<cv::Vec3b>(v, u);
      fringe = std::max({fringe, std::abs(p[0] - p[2]), std::abs(p[1] - p[2])});
    }
  }
  EXPECT_GE(fringe, 60);
  EXPECT_EQ(cv::norm(m(cv::Rect(0, 2, 17, 36)), cv::NORM_INF), 0);
  // Sharpening: past the edge the dark side dips under black's neighbour grey and the light
  // side rises over its own grey.
  cv::Mat grey(40, 40, CV_8UC3, cv::Scalar::all(60));
  grey(cv::Rect(20, 0, 20, 40)).setTo(cv::Scalar::all(180));
  Degradation soft;
  soft.blur_sigma_px = 1;
  Degradation sharp = soft;
  sharp.sharpen = 0.8;
  const cv::Mat a = degrade(grey, soft);
  const cv::Mat b = degrade(grey, sharp);
  EXPECT_LT(b.at<cv::Vec3b>(20, 18)[1], a.at<cv::Vec3b>(20, 18)[1] - 3);
  EXPECT_GT(b.at<cv::Vec3b>(20, 21)[1], a.at<cv::Vec3b>(20, 21)[1] + 3);
  EXPECT_GT(b.at<cv::Vec3b>(20, 22)[1], 180);
  EXPECT_LT(b.at<cv::Vec3b>(20, 17)[1], 60);
  EXPECT_NE(describe(processing_webcam()).find("Bayer"), std::string::npos);
}

// The seeded CI version of `duels bench coverage`: a 720p webcam scene with figures facing
// anywhere, packed groups, blur, noise, JPEG 70 and uneven light, and a lens off by 0.5 %.
CoverageScenario small_scenario(BaseTargetKind target) {
  CoverageScenario s;
  s.name = "ci 720p";
  s.size = {1280, 720};
  s.hfov_deg = 70;
  s.distance_in = 61;
  s.elevation_deg = 45;
  s.bases = 12;
  s.packed = 3;
  s.target = target;
  s.degradation.blur_sigma_px = 1.0;
  s.seeds = 1;
  s.frames = 4;
  return s;
}

TEST(Coverage, RingsLocatedAcrossTheTableWithinTheErrorBounds) {
  const CoverageResult r = run_coverage(small_scenario(BaseTargetKind::kRing));
  ASSERT_GE(r.all_total(), 10);
  // Rings are located in every third of the table's depth (measured when written: see
  // docs/base-targets.md; the goal of issue 15 is all of them).
  const int located = r.located[0] + r.located[1] + r.located[2];
  std::printf("located %d/%d/%d of %d/%d/%d, named %d\n", r.located[0], r.located[1], r.located[2],
              r.all[0], r.all[1], r.all[2], r.found_total());
  // (The whole table is searched every 5th frame, rings already followed are measured at
  // their place in between: one marginal ring of this scene flickers out at the last frame.)
  EXPECT_GE(located, r.all_total() - 4);
  for (std::size_t k = 0; k < 3; ++k)
    EXPECT_GE(r.located[k], 1) << "third " << k;
  // Named (identity read from the code): what the scene reaches today, at least; never a wrong
  // name, and the named ones within the error bounds.
  EXPECT_GE(r.found_total(), 6) << r.found_total() << "/" << r.all_total();
  expect_accuracy_goal(r);
}

// The bench's first scenario (720p webcam) with `kind` on the bases, 2 seeds; checks what must
// hold for every target (no wrong name, no switch, the error bounds) and gives the result.
CoverageResult first_coverage_scenario(BaseTargetKind kind) {
  const auto all = standard_coverage_scenarios(kind);
  EXPECT_FALSE(all.empty());
  if (all.empty()) return {};
  CoverageScenario sc = all.front();
  EXPECT_EQ(sc.size, cv::Size(1280, 720));
  sc.seeds = 2;
  const CoverageResult r = run_coverage(sc);
  std::printf("%s: located %d, named %d of %d\n", sc.name.c_str(),
              r.located[0] + r.located[1] + r.located[2], r.found_total(), r.all_total());
  expect_accuracy_goal(r);
  return r;
}

// The first scenario of `duels bench coverage` (2 seeds, 32 bases, 6 of them packed 0.3" apart,
// figures facing anywhere, blur 1 px, noise, JPEG 70, lens off by 0.5 %; 6 frames, the last
// one scored, where the bench runs 10 and counts the last 5):
// figures standing on their rings and rings partly hidden by neighbours once named bases
// wrongly here (2 bases, each more than 1" off). Never a wrong name; the named share is what
// the global naming reaches (16 of 32 when written), with some slack. Since a ring is named
// by exclusion only when the rings holding the other codes read them well, 13 (over 8 seeds
// of the bench's 5 scenarios the one-band ring names 343 of 640, against 346 before). 20 once
// the rim in front of a code sample is judged where it looks alike (414 of 640 over 8 seeds).
TEST(Coverage, RingsNeverNamedWronglyOnAWebcamTable) {
  const CoverageResult r = first_coverage_scenario(BaseTargetKind::kRing);
  EXPECT_GE(r.found_total(), 18) << r.found_total() << "/" << r.all_total();
  EXPECT_GE(r.located[0] + r.located[1] + r.located[2], 22);
}

// The two-band ring (`target: ring2`) on the same bench scenario: its codes differ within
// any half of the ring, so a ring half hidden by its figure is still named. Measured when
// written: 27 of 32 named (the one-band ring: 15), 30 located, no wrong name; 29 of 32 (far
// third 4 of 4) once the table's corner markers are masked from the calibration's layout and
// a ring needs 1 cell of evidence, not 2.5; 32 of 32 once the rim in front of a code sample
// is judged against the rim where it looks alike (as narrow, beside a cell as dark). A
// regression of the code book, the two-band reading, the rim fit, the corner-marker mask or
// the naming fails here.
TEST(Coverage, TwoBandRingsNamedFromHalfTheRingNeverWrongly) {
  const CoverageResult r = first_coverage_scenario(BaseTargetKind::kRing2);
  EXPECT_GE(r.found_total(), 31) << r.found_total() << "/" << r.all_total();
  EXPECT_GE(r.found[0], 13) << "near third";
  EXPECT_GE(r.found[1], 10) << "middle third";
  EXPECT_GE(r.found[2], 3) << "far third";
  EXPECT_GE(r.located[0] + r.located[1] + r.located[2], 28);
}

// The first of the bench's scenarios whose name contains `name` (nothing, and a failure, when
// none does).
std::optional<CoverageScenario> bench_scenario(const std::string& name,
                                               BaseTargetKind target = BaseTargetKind::kRing2) {
  for (const CoverageScenario& sc : standard_coverage_scenarios(target)) {
    if (sc.name.find(name) != std::string::npos) return sc;
  }
  ADD_FAILURE() << "no scenario " << name;
  return std::nullopt;
}

// One table (`seed`) of the bench's scenario `name`, two-band rings, watched for `frames`.
std::optional<CoverageScenario> bench_table(const std::string& name, int seed, int frames) {
  std::optional<CoverageScenario> sc = bench_scenario(name);
  if (sc) {
    sc->first_seed = seed;
    sc->seeds = 1;
    sc->frames = frames;
  }
  return sc;
}

// The bench's scenario `name` (two-band rings), seeds first … first + count − 1.
CoverageResult bench_seeds(const std::string& name, int first, int count,
                           BaseTargetKind target = BaseTargetKind::kRing2) {
  std::optional<CoverageScenario> sc = bench_scenario(name, target);
  if (!sc) return {};
  sc->first_seed = first;
  sc->seeds = count;
  const CoverageResult r = run_coverage(*sc);
  std::printf("%s seeds %d-%d: located %d, named %d of %d\n", sc->name.c_str(), first,
              first + count - 1, r.located[0] + r.located[1] + r.located[2], r.found_total(),
              r.all_total());
  if (count > 1) {
    expect_accuracy_goal(r);
  } else {
    // One table's centre p95 is its worst base or two, where the goal's p95 is over the
    // bench's hundreds (and the tests of several tables): a far ring 40 % hidden may be named
    // 0.18" off. Its median is held to half the goal's p95 instead.
    EXPECT_LE(r.centre_p50_in, 0.05);
    expect_gap_and_identity_goal(r);
  }
  return r;
}

// One table of a scenario on which every base must be named (within the accuracy goal).
void names_every_base(const std::string& scenario, int seed) {
  const CoverageResult r = bench_seeds(scenario, seed, 1);
  EXPECT_EQ(r.found_total(), r.all_total());
}

// The flat, far 720p camera, where blur (1.2 px) widens the far rings' narrow white rim: its
// strongest edge lies about 0.4 px outside the true one, which in inches is twice as much
// across the table's depth, so the rim read as an ellipse 4–9 % too large and failed the fit's
// checks. Fitted as the known circle grown by a blur shift in pixels, 60 of these 64 rings are
// located (55 before). The same blur greys the narrow rim across the depth and the rim beside a
// black cell: judged against the rim's best white, they hid nearly every code sample of a far
// ring whose figure stood behind it (47 named). Judged against the rim where it looks alike,
// 52 are named; with the bands read by fitting the blurred profile along each radius, 57.
TEST(Coverage, BlurredFarRimsAreLocated) {
  const CoverageResult r = bench_seeds("720p 60deg", 1, 4);
  EXPECT_GE(r.located[0] + r.located[1] + r.located[2], 59);
  EXPECT_GE(r.found_total(), 55) << r.found_total() << "/" << r.all_total();
}

// Seed 21 of the 720p 60° scenario: a far ring fitted loosely, 0.1" off, read its code samples
// beside their cells and fitted the code of a ring hidden at the table's far edge, which it
// was named with. A loosely fitted ring's readings count less.
TEST(Coverage, NoLooselyFittedRingTakesAHiddenRingsCode) {
  bench_seeds("720p 60deg", 21, 1);
}

// Seed 36 of the 720p 60° scenario: a far ring 26 pixels wide read a third of its visible
// cells white where they are black (cells 1–2 pixels deep, sampled in their middle, read the
// white rim and the white cell beside them), fitted another ring's code better than its own,
// and the two rings swapped names from the first frame. The bands are now read by fitting the
// blurred profile along each radius.
TEST(Coverage, FarCellsAreReadThroughTheBlurAndNoRingsSwapNames) {
  bench_seeds("720p 60deg", 36, 1);
}

// Seed 10 of the 720p 60° scenario: far base 11, 91 % of its ring in view and fitted in every
// frame, was never named. Across the table's depth its white rim is under a pixel deep, and
// the blur greyed it between a black cell and the base's dark side: the rim in front of the
// code read as if a figure stood there, and nearly every code sample (the line through it away
// from the camera crosses that rim) was distrusted — under 2 cells of evidence a frame, every
// code alike. The rim is now read through the blur as the bands are (the blurred profile along
// each radius): its own code 6.8 cells against 5.4 for the next, named from the second frame,
// 15 of 16 (14 before).
TEST(Coverage, ANarrowRimIsReadThroughTheBlur) {
  const CoverageResult r = bench_seeds("720p 60deg", 10, 1);
  EXPECT_GE(r.found_total(), 15) << r.found_total() << "/" << r.all_total();
}

// Seed 15 of the 720p 60° scenario: base 11, a far ring 65 % in view whose figure hides the rim
// behind it, fitted a little small when fitted freely (under 0.975 R) from its first candidate
// and was fitted from another, where its samples read its code barely better than code 6 (2.3
// against 2.1 cells); base 6 (41 % in view) reads 11 about as well as its own (0.87 against
// 0.93 cells) and so waited for base 11 to be named. A two-band ring's loose fit may now be down to
// 0.93 R: base 11 is fitted from its first candidate, reads 11 clearly (4.1 against 3.5), and both
// are named: 15 of 16 named in each of the last 5 frames, 13 before.
TEST(Coverage, ARingWhoseFigureHidesItsBackRimIsFittedWhereItStands) {
  const CoverageResult r = bench_seeds("720p 60deg", 15, 1);
  EXPECT_GE(r.found_total(), 15) << r.found_total() << "/" << r.all_total();
}

// Seed 14 of the 1080p 60° scenario: base 15, a far ring 81 % in view, its figure's foot on the
// back of its base. On 11 of its 48 rays the rim point is the code band's edge against the
// figure, 0.23-0.28 R inside the rim: fitted freely first, the circle gave way to them (0.91 R,
// about 0.12" off, RMS over the loose limit) and was located in some frames only. A fit that is
// not tight is now tried again with the known radius from the start, pulled less by that arc:
// all 16 named in each of the last 5 frames, 15 before.
TEST(Coverage, ARimFitTriesTheKnownRadiusFirstWhenAFigureFootPullsItIn) {
  names_every_base("1080p 60deg", 14);
}

// Seed 29 of the 720p 60° scenario: a ring seen in one frame only, fitted loosely, read
// another base's code and was named with it for that frame. Such a ring is named once it is
// seen again (or at once by three times the usual margin, below).
TEST(Coverage, ALooselyFittedRingSeenOnceIsNotNamed) {
  bench_seeds("720p 60deg", 29, 1);
}

// Seed 5 of the 720p 60° scenario: a far ring, half hidden by its figure, was first fitted
// (loosely) at the last search frame, its code clear of every other by 2 sectors of evidence.
// It waited a frame for its name: 15 of 16 named at the scored frame. A ring seen once is now
// named at once when its code stands out by three times the usual margin: 16 of 16.
TEST(Coverage, ALooseRingSeenOnceIsNamedWhenItsCodeIsClear) {
  names_every_base("720p 60deg", 5);
}

// Seed 2 of the 720p 60° scenario with first (one-band) rings: far rings whose band is 1-2
// pixels deep read the white rim and the unprinted middle into their black cells. Read by
// fitting the blurred profile along each radius, as the two-band ring is: 11 of 16 named,
// 8 before.
TEST(Coverage, OneBandCellsAreReadThroughTheBlur) {
  const CoverageResult r = bench_seeds("720p 60deg", 2, 1, BaseTargetKind::kRing);
  EXPECT_GE(r.found_total(), 11);
}

// Seed 2 of the 720p 60° scenario: a far ring whose rim is 1.4" from the table's left edge. The
// top view ended at the table's edges and read black beyond them, so the rim's filter put some
// 30 false candidates along the edges, stronger than this ring's: it ranked 43rd of the 40
// measured. The top view now reaches past the edges (the ring ranks 21st of 26): all 16 named.
TEST(Coverage, ARingByTheTablesEdgeIsLookedFor) {
  names_every_base("720p 60deg", 2);
}

// Seed 6 of the 720p 60° scenario: a ring whose top-view candidate lay 0.05" off failed the rim
// fit at the scored frame (its last search). The known radius seen through the blur is now
// fitted twice, the rim points trimmed about it in between: the ring is fitted (loosely) and
// named, 16 of 16 (15 with one fit).
TEST(Coverage, TheBlurredRimIsFittedTwice) {
  names_every_base("720p 60deg", 6);
}

// Seed 10 of the 720p 70° scenario: a far ring whose top-view candidate lay 0.05" off failed
// the fit from there at the scored frame, and fitted well from where that fit went. A fit that
// converged but failed is tried once more from its own centre: all 16 bases are named, 15
// without. (Seed 6 showed it first; there the rule no longer changes the count since the top
// view reaches past the table's edges.)
TEST(Coverage, AFitThatWentNearARingIsTriedAgainFromThere) {
  names_every_base("720p 70deg", 10);
}

// Seed 4 of the flat 1080p scenario: a base standing 0.3" from a corner marker, its edge on the
// marker's white paper, was never looked for: no ring was looked for within a quarter of the
// marker's side beyond the marker (its paper). Now only where a base would stand on the black
// square: all 16 named.
TEST(Coverage, ABaseOnACornerMarkersPaperIsLookedFor) {
  names_every_base("1080p 60deg", 4);
}

// Seed 4 of the 720p 70° scenario: a base 0.3" from a corner marker (its rim beside the marker's
// white paper) had no candidate: the paper's edge scored higher within 0.8 of a radius and hid
// its peak, then was itself left out (no ring is looked for on a corner marker). A response
// where no base's centre can be now hides no peak: all 16 named (15 before).
TEST(Coverage, ARingBesideACornerMarkerKeepsItsCandidate) {
  names_every_base("720p 70deg", 4);
}

// Seed 6 of the 720p 70° scenario: a packed base's ring, half hidden and fitted loosely in every
// frame, was lost at the last frame (a search of the table): the search's candidate on it failed,
// and the ring's last centre was not measured, as it lay within half a radius of that candidate.
// A ring's last centre is now measured whenever no ring was fitted there: all 16 named (15
// before).
TEST(Coverage, ARingFittedLooselyIsNotLostAtASearch) {
  names_every_base("720p 70deg", 6);
}

// Seed 11 of the flat 1080p camera: a ring at the far right, its near half hidden by a
// neighbour's figure, scored nothing in the rim's matched filter and was never looked at; the
// code it carries was then free, and a packed ring whose visible quarter fitted that code as
// well as its own stayed unnamed. Half rings are looked for by the filter's first angular
// harmonic: all 16 named (14 before).
TEST(Coverage, AHalfHiddenRingIsFound) {
  names_every_base("1080p 60deg", 11);
}

// Seed 4 of the flat, far 720p camera: a far ring with nine tenths of its code in view was
// located in every frame but never named. Through the blur its outer band's black cells read
// light grey (the white rim beside them), its white cells fully white, and every code fitted it
// alike (agreement 0.6). Each band is read against its own black: all 16 named (15 before).
TEST(Coverage, AFarRingsBandsAreReadAgainstTheirOwnBlack) {
  names_every_base("720p 60deg", 4);
}

// Seed 3 of the flat 1080p camera: a far ring whose figure hides all but a third of a sector
// of its code was located in every frame and never named, though the other 15 rings were named
// and seen and its code was the one left. It is named by elimination: all 16 named (15 before).
TEST(Coverage, TheLastRingIsNamedByElimination) {
  names_every_base("1080p 60deg", 3);
}

// Seed 11 of the 720p 70° scenario: a packed base's ring, standing still and named, was not
// fitted in one frame, and a false ring fitted 1.4" beside it was followed as the same ring,
// named, 1.3" from the truth. A ring over a ring that stood still a moment ago is not believed.
TEST(Coverage, NoFalseRingTakesTheNameOfARingStandingStill) {
  bench_seeds("720p 70deg", 11, 1);
}

// Seed 11 of the 720p 60° scenario: a far ring read through the blur fitted code 1 best (but
// too poorly to be named with it), and pushed the ring truly carrying 1, whose visible quarter
// fitted four codes alike, onto code 9 by exclusion. Exclusion is believed only when the rings
// holding the other codes read them well.
TEST(Coverage, NoRingNamedByExclusionFromAMisreadRing) {
  bench_seeds("720p 60deg", 11, 1);
}

// Seed 12 of the 720p 75° camera: a far ring with a third of its code in view, its near half
// hidden by a neighbour's figure, fitted only loosely from its half ring's candidate, which had
// to fit tightly. Such candidates now fit as any other: all 16 named (15 before).
TEST(Coverage, AHalfRingFittedLooselyIsNamed) {
  names_every_base("720p 75deg", 12);
}

// Seed 13 of the 720p 70° camera: a far ring, its near half hidden by a neighbour's figure,
// fitted loosely from its half ring's candidate with 31-32 of its 48 rim points, short of the
// 34 a loose fit must keep. A half ring's loose fit keeps 28, and a loose two-band ring's
// readings count in proportion to its looseness (below): 15 of 16 named (14 before; the 16th
// shows a quarter of its code band).
TEST(Coverage, AHalfRingsLooseFitKeepsLessOfItsRim) {
  const CoverageResult r = bench_seeds("720p 70deg", 13, 1);
  EXPECT_GE(r.found_total(), 15);
}

// Seed 10 of the flat 1080p camera: a packed ring in the middle third, fitted loosely in every
// frame, read its code with weights cut by the square of its looseness and stayed short of the
// evidence to be named. A two-band ring's loose readings are cut in proportion: 15 of 16 named
// (14 before). Once a two-band ring's loose fit could be a little small (0.93 R), it fitted
// loosely from its candidate where it fits tightly from where that fit went, and was lost
// again (14 of 16) until a loose fit was tried from there too.
TEST(Coverage, ALooseTwoBandRingsReadingsCountInProportion) {
  const CoverageResult r = bench_seeds("1080p 60deg", 10, 1);
  EXPECT_GE(r.found_total(), 15);
}

// Seed 15 of the 720p 70° camera: two far bases behind their neighbours' figures (0.36 and 0.56
// of their code band in view) were located and left unnamed. A candidate whose half-ring
// response is twice its score or more is measured once more, last, as a half ring (a loose fit
// keeps 28 rim points): 16 of 16 named (14 before). Issue 51's rules for tables in play cost
// two of them again (the colour rule one: a far ring's code samples next to its neighbours'
// painted figures read coloured through the JPEG's halved colour resolution; 15 without it):
// 14 of 16, none wrongly. A wrong name with dice on the bases is the worse fault.
TEST(Coverage, ALopsidedRingIsMeasuredAgainAsAHalfRing) {
  const CoverageResult r = bench_seeds("720p 70deg", 15, 1);
  EXPECT_GE(r.found_total(), 14);
  EXPECT_EQ(r.off_by_1in, 0);
}

// Seed 11 of the 720p 75° camera: once half rings' candidates could fit loosely, a false ring
// fitted in the gap between three packed bases, on their figures' heads and poles, read code 1
// better than any other (agreement 0.75) and took it from the ring carrying it, which was named
// 4: two bases 30" off. Its "white" read 0.6 of its neighbours' rims; a ring under 0.65 of the
// white of the rings fitted tightly round it is dropped.
TEST(Coverage, NoRingFittedOnFiguresTakesAName) {
  bench_seeds("720p 75deg", 11, 1);
}

// "Named in every frame" counts a base only when it was named at its place in each of the last
// `steady_frames` frames. Table 1 of the 720p 70° camera over 10 frames: the last frame names
// all 16 bases; one of them is not named in every one of the ten frames, so all ten frames
// name 15 (14 before a two-band ring's loose fit could be a little small, 0.93 R, and was
// tried again from where it went). (This test used table 13, whose bases 3 and 5 were named
// only from the fourth frame on; since the rim is read through the blur they are named from
// the first, and that table's counts no longer differ.)
TEST(Coverage, NamedInEveryFrameCountsOnlyBasesNamedInEachFrame) {
  std::optional<CoverageScenario> sc = bench_table("720p 70deg", 1, 10);
  ASSERT_TRUE(sc);
  const auto run = [&](int steady) {
    sc->steady_frames = steady;
    const CoverageResult r = run_coverage(*sc);
    std::printf("the last %d frames: named in each %d, at the last %d of %d\n", steady,
                r.every_frame_total(), r.found_total(), r.all_total());
    return r;
  };
  const CoverageResult last = run(1);
  EXPECT_EQ(last.every_frame, last.found);
  EXPECT_EQ(last.found_total(), 16);
  const CoverageResult all = run(10);
  EXPECT_EQ(all.found, last.found);
  EXPECT_EQ(all.every_frame_total(), 15);
}

// Every base of the table named at its place in each of the scenario's last `steady_frames`
// frames, none more than 1" off in any frame, no identity switch, no unnamed ring where no base
// stands in any frame.
void expect_every_base_named_in_every_frame(const CoverageScenario& sc) {
  const CoverageResult r = run_coverage(sc);
  std::printf(
      "%s table %d: named in each of the last %d frames %d of %d, more than 1\" off in "
      "any frame %d, false rings %d\n",
      sc.name.c_str(), sc.first_seed, sc.steady_frames, r.every_frame_total(), r.all_total(),
      r.off_by_1in, r.false_rings);
  EXPECT_EQ(r.off_by_1in, 0);
  EXPECT_EQ(r.identity_switches, 0);
  EXPECT_EQ(r.false_rings, 0);
  EXPECT_EQ(r.every_frame_total(), r.all_total());
}

// A base reported more than 1" from its place counts in whatever frame it happens, not only at
// the last. Table 1 of the 1080p 65° camera: at the third frame a false ring fitted loosely
// beside the packed group of bases 3, 4 and 5 (more rim points than base 3's own ring, twice
// as spread) overlapped base 3's ring and won, taking its name 1.3" off; at the fourth frame
// base 3's ring was back. A ring fitted where a ring was seen a moment ago now stands first.
// Every base named in each of the last 3 of 4 frames (base 3, 29 % of its ring in view, reads
// no code and is named by exclusion from its second frame), none off in any of the 4.
TEST(Coverage, ARingSeenAMomentAgoKeepsItsPlaceBesideALooserFalseRing) {
  std::optional<CoverageScenario> sc = bench_table("1080p 65deg", 1, 4);
  ASSERT_TRUE(sc);
  sc->steady_frames = 3;
  expect_every_base_named_in_every_frame(*sc);
}

// Table 44 of the 720p 75° camera: base 3's ring, between two figures, fails a whole ring's
// fit (figures' edges among its rim points), and its half ring's peak lay within half a radius
// of that candidate, so it was never measured; a false ring 1.4" beside it read base 3's code
// and took its name at the search frames. A half ring's peak beside a candidate is now measured
// after the others: every base named in each of the last 5 of 10 frames, none off.
TEST(Coverage, AHalfRingBesideAFailedCandidateIsMeasured) {
  std::optional<CoverageScenario> sc = bench_table("720p 75deg", 44, 10);
  ASSERT_TRUE(sc);
  expect_every_base_named_in_every_frame(*sc);
}

// A named ring standing still whose rim fails a whole ring's loose fit (its own figure hides
// the rim behind it) may fit loosely round part of its turn where it stood. Table 5 of the flat
// 720p camera: its far base 3 was lost in one frame of the last 5 (15 of 16 named in every
// frame before); table 16: base 4, 91 % of its ring in view, lost in one (14 of 16 before; its
// base 9, on a corner marker's paper, is never located).
TEST(Coverage, ANamedRingStandingStillIsFittedWhereItStood) {
  std::optional<CoverageScenario> sc = bench_table("720p 60deg", 5, 10);
  ASSERT_TRUE(sc);
  expect_every_base_named_in_every_frame(*sc);
  sc->first_seed = 16;
  const CoverageResult r = run_coverage(*sc);
  EXPECT_EQ(r.every_frame_total(), 15);
  EXPECT_EQ(r.off_by_1in, 0);
  EXPECT_EQ(r.identity_switches, 0);
}

// Table `table` of the bench's camera `name` watched for 3 seconds (30 frames): no base more
// than 1" off in any frame, no switch, at least `named` named in each of the last 5.
void expect_none_off_over_3_seconds(const std::string& name, int table, int named) {
  std::optional<CoverageScenario> sc = bench_table(name, table, 30);
  ASSERT_TRUE(sc);
  const CoverageResult r = run_coverage(*sc);
  std::printf(
      "%s table %d: named in each of the last 5 of 30 frames %d of %d, more than 1\" "
      "off %d, false rings %d\n",
      name.c_str(), table, r.every_frame_total(), r.all_total(), r.off_by_1in, r.false_rings);
  EXPECT_EQ(r.off_by_1in, 0);
  EXPECT_EQ(r.false_rings, 0);
  EXPECT_EQ(r.identity_switches, 0);
  EXPECT_GE(r.every_frame_total(), named);
}

// Table 13 of the 720p 70° camera watched for 3 seconds (30 frames): in frames 20, 25 and 27 a
// false ring fitted on the figures of a packed group (25-26 of 48 rim points), 3.7" behind
// hidden base 4, read nothing that told one code from another and was named 4 by exclusion,
// 3.7" off. A ring reading no code is now named by exclusion only once its rim held a whole
// ring's points or it was fitted in two frames one after the other.
TEST(Coverage, ARingThatReadsNoCodeIsNamedByExclusionOnlyOnceBelieved) {
  expect_none_off_over_3_seconds("720p 70deg", 13, 14);
}

// Table 16 of the flat 1080p camera: base 9 stands on the far-left corner marker's white paper
// (82 % of its ring in view), where its rim has no edge. Its only candidate is a half ring's peak
// within 1.5 radii of the marker, which was left out (the paper's corner looks like half a ring);
// measured now as beside a marker (tight fit, the rays that find no step against the paper left
// out), all 16 are named in each of the last 5 frames, 15 before.
TEST(Coverage, ABaseOnACornerMarkersPaperIsNamed) {
  names_every_base("1080p 60deg", 16);
}

// Table 15 of the flat 720p camera watched for 3 seconds (30 frames): a ring fitted on the
// far-right corner marker's paper, where no base stands, gathered evidence for the code of base 6
// (never located) and was named 6 from the 11th frame, 40" off. A ring first fitted beside a
// corner marker is now named only by the margin of a ring seen once, and not reported unnamed.
TEST(Coverage, ARingOnAMarkersPaperIsNamedOnlyByAClearMargin) {
  expect_none_off_over_3_seconds("720p 60deg", 15, 14);
}

// Table 18 of the flat 1080p camera watched for 3 seconds (30 frames): a fit on the far-right
// corner marker's paper (7 cells of white read, no black) was reported as an unnamed base at the
// search frames 21 and 25. Every code has black cells: a ring whose readings hold no black is
// not reported.
TEST(Coverage, ARingThatReadsNoBlackIsNotReportedUnnamed) {
  expect_none_off_over_3_seconds("1080p 60deg", 18, 15);
}

// Table 34 of the 720p 75° camera watched for 3 seconds (30 frames): base 0 is never located,
// and a fit on the far-left corner marker's paper and the table's edge beside it, the one
// nameless ring, was named 0 by elimination at frame 28, 33" off. A ring first fitted beside a
// corner marker is named only by its code's clear margin, never by elimination.
TEST(Coverage, ARingBesideAMarkerIsNotNamedByElimination) {
  expect_none_off_over_3_seconds("720p 75deg", 34, 15);
}

// Table 10 of the flat 720p camera watched for 3 seconds (30 frames): base 12 stands behind
// base 11, its code band hidden mostly by its own figure; neither ring read a code of its own
// (base 11 does since its rim is read through the blur: ANarrowRimIsReadThroughTheBlur).
// From the 15th frame the two were named 12 and 11, both more than 1" off: base 12's cells,
// read through its figure, read against 12 (0.90 cells, its median 1.80), and that alone
// decided the pair. Two such rings are now named by exclusion only when each reads its own
// code at least as well as the other's.
TEST(Coverage, TwoRingsThatReadNoCodeAreNotPairedAgainstTheirReadings) {
  expect_none_off_over_3_seconds("720p 60deg", 10, 14);
}

// The far third is where the goal is hardest. For each camera of the bench, a table with 9 or
// 10 of its 16 bases in the far third (table 12; the 1080p 65° camera's table 12 puts only 8
// there, its table 13 puts 10): every base named in each of the last 5 of 10 frames, none more
// than 1" off in any frame, no identity switch. Measured so at 9fad0e0: 46 of 46 far bases.
struct FarTable {
  const char* scenario;
  int seed;
};

class FarTableTest : public ::testing::TestWithParam<FarTable> {};

TEST_P(FarTableTest, EveryBaseIsNamedInEveryFrame) {
  std::optional<CoverageScenario> sc = bench_table(GetParam().scenario, GetParam().seed, 10);
  ASSERT_TRUE(sc);
  expect_every_base_named_in_every_frame(*sc);
}

INSTANTIATE_TEST_SUITE_P(Coverage, FarTableTest,
                         ::testing::Values(FarTable{"720p 70deg", 12}, FarTable{"720p 60deg", 12},
                                           FarTable{"720p 75deg", 12}, FarTable{"1080p 65deg", 13},
                                           FarTable{"1080p 60deg", 12}),
                         [](const ::testing::TestParamInfo<FarTable>& table) {
                           std::string n = std::string(table.param.scenario) + "_table" +
                                           std::to_string(table.param.seed);
                           std::replace(n.begin(), n.end(), ' ', '_');
                           return n;
                         });

TEST(Coverage, SquareMarkersStillReadWhereTheyAreInView) {
  // Square markers stay supported: the same pipeline on the same kind of scene finds some.
  const CoverageResult r = run_coverage(small_scenario(BaseTargetKind::kSquare));
  EXPECT_GE(r.found_total(), 2);
  EXPECT_EQ(r.off_by_1in, 0);
  EXPECT_EQ(r.identity_switches, 0);
}

}  // namespace
}  // namespace duels::vision

namespace duels::vision {
namespace {

// A close, steep 1080p view of `bases` bases carrying `target` (`packed` of them in groups),
// with no figures on them: nothing hides the rings.
SceneSpec close_up_scene(BaseTargetKind target, int bases, int packed, int seed) {
  CoverageScenario sc;
  sc.size = {1920, 1080};
  sc.hfov_deg = 60;
  sc.distance_in = 50;
  sc.elevation_deg = 70;
  sc.bases = bases;
  sc.packed = packed;
  sc.target = target;
  SceneSpec spec = coverage_scene(sc, seed);
  spec.bases.resize(std::min<std::size_t>(spec.bases.size(), static_cast<std::size_t>(bases)));
  for (auto& b : spec.bases)
    b.figure_height_in = 0;
  return spec;
}

// The renderer and the reader agree on the ring's layout: close, sharp, clean, every code
// read right at any facing, centres within a few hundredths of an inch.
void reads_rendered_rings_close_up(BaseTargetKind target) {
  SceneRenderer renderer(close_up_scene(target, 9, 3, 3));
  FrameTruth truth;
  const cv::Mat img = renderer.render(0, &truth);
  cv::Mat gray;
  cv::cvtColor(img, gray, cv::COLOR_BGR2GRAY);
  const RingStyle style = ring_style_of(target);
  RingFinder finder(renderer.plane(), 2.0, 0.75, style);
  const auto rings = finder.find(gray, {}, 9);
  std::vector<int> ids;
  for (const auto& t : truth.bases)
    ids.push_back(t.marker_id);
  int matched = 0;
  for (const auto& t : truth.bases) {
    for (const auto& s : rings) {
      if (cv::norm(s.centre_in - t.centre_in) > 0.5) continue;
      ++matched;
      EXPECT_LT(cv::norm(s.centre_in - t.centre_in), 0.03) << t.marker_id;
      const RingDecode d = decode_ring(s.code, s.weight, ids, style);
      EXPECT_EQ(d.id, t.marker_id) << "facing " << t.angle_deg;
      // (Two-band codes are never a rotation of themselves.)
      const double period = style == RingStyle::kTwoBand ? 360.0 : period_deg(t.marker_id);
      EXPECT_LT(facing_error(d.facing_deg, std::fmod(t.angle_deg + 720.0, 360.0), period), 10.0)
          << t.marker_id;
    }
  }
  EXPECT_EQ(matched, static_cast<int>(truth.bases.size()));
}

// No ring is looked for inside an excluded region (the table's corner markers): the same
// close-up scene with one base's place excluded finds all the others but not that one.
TEST(RingFinder, LooksForNoRingInsideAnExcludedRegion) {
  SceneRenderer renderer(close_up_scene(BaseTargetKind::kRing2, 6, 0, 4));
  FrameTruth truth;
  cv::Mat gray;
  cv::cvtColor(renderer.render(0, &truth), gray, cv::COLOR_BGR2GRAY);
  ASSERT_GE(truth.bases.size(), 3U);
  RingFinder finder(renderer.plane(), 2.0, 0.75, RingStyle::kTwoBand);
  const cv::Point2d c = truth.bases[0].centre_in;
  const std::vector<std::vector<cv::Point2f>> exclude = {
      {cv::Point2f(static_cast<float>(c.x - 1.5), static_cast<float>(c.y - 1.5)),
       cv::Point2f(static_cast<float>(c.x + 1.5), static_cast<float>(c.y - 1.5)),
       cv::Point2f(static_cast<float>(c.x + 1.5), static_cast<float>(c.y + 1.5)),
       cv::Point2f(static_cast<float>(c.x - 1.5), static_cast<float>(c.y + 1.5))}};
  const auto near = [&](const std::vector<RingSighting>& rings, cv::Point2d at) {
    return std::any_of(rings.begin(), rings.end(),
                       [&](const RingSighting& s) { return cv::norm(s.centre_in - at) < 0.25; });
  };
  const auto all = finder.find(gray, {}, 6);
  const auto some = finder.find(gray, {RingHint{.at = c}}, 6, true, exclude);  // not even as a hint
  EXPECT_TRUE(near(all, c));
  EXPECT_FALSE(near(some, c));
  for (std::size_t i = 1; i < truth.bases.size(); ++i)
    EXPECT_EQ(near(some, truth.bases[i].centre_in), near(all, truth.bases[i].centre_in)) << i;
}

// Where base `id` stands in a frame's truth (it must be there).
cv::Point2d truth_centre(const FrameTruth& truth, int id) {
  return std::find_if(truth.bases.begin(), truth.bases.end(),
                      [&](const auto& b) { return b.marker_id == id; })
      ->centre_in;
}

// Base `id` as the pipeline reports it, seen in this frame (not stale); nullptr when it is not.
const TrackedBase* reported(const TableState& s, int id) {
  for (const auto& b : s.bases) {
    if (b.marker_id == id && !b.stale()) return &b;
  }
  return nullptr;
}

// The close-up scene of six two-band rings (table 4), its first frame rendered.
struct CloseUpRings {
  SceneSpec spec = close_up_scene(BaseTargetKind::kRing2, 6, 0, 4);
  SceneRenderer renderer{spec};
  FrameTruth truth;
  cv::Mat img = renderer.render(0, &truth);
};

// The table's own markers, where the calibration put them, are masked from ring candidates
// in the pipeline (even a marker the camera sees only in part, which detection cannot find):
// a base standing where a table marker is said to be is not reported, the others are.
TEST(Pipeline, LooksForNoRingOnTheTableMarkersOfItsOptions) {
  CloseUpRings scene;
  const FrameTruth& truth = scene.truth;
  const cv::Mat& img = scene.img;
  ASSERT_GE(truth.bases.size(), 3U);
  const cv::Point2d c = truth.bases[0].centre_in;
  const auto ids_reported = [&](const RingIdentityOptions& rings) {
    Pipeline p(scene.renderer.plane(), base_map_from_scene(scene.spec), {}, {}, {}, rings);
    std::vector<int> ids;
    for (int f = 0; f < 3; ++f) {
      ids.clear();
      for (const auto& o : p.process(img, f, f / 10.0).observations)
        ids.push_back(o.marker_id);
    }
    std::sort(ids.begin(), ids.end());
    return ids;
  };
  RingIdentityOptions masked;
  calib::MarkerLayout layout;
  layout.markers.push_back({7, c, 1.0});  // a 1" table marker under base 0's centre
  masked.table_markers_in = table_markers_of(layout);
  const std::vector<int> all = ids_reported({});
  const std::vector<int> some = ids_reported(masked);
  EXPECT_EQ(all.size(), truth.bases.size());
  EXPECT_TRUE(std::find(all.begin(), all.end(), truth.bases[0].marker_id) != all.end());
  EXPECT_TRUE(std::find(some.begin(), some.end(), truth.bases[0].marker_id) == some.end());
  EXPECT_EQ(some.size() + 1, all.size());
}

// A ring the camera sees but cannot name is reported as an unnamed base where it stands: here
// a base whose code the map does not carry (a figure the player left out of bases.yaml).
// Bases the map names are not reported unnamed, nor is any ring when the map names them all.
TEST(Pipeline, ReportsARingItCannotNameAsAnUnnamedBase) {
  CloseUpRings scene;
  const SceneSpec& spec = scene.spec;
  const FrameTruth& truth = scene.truth;
  ASSERT_GE(truth.bases.size(), 3U);
  const auto last_state = [&](const BaseMap& map) {
    Pipeline p(scene.renderer.plane(), map, {}, {}, {}, {});
    TableState state;
    for (int f = 0; f < 4; ++f)
      state = p.process(scene.img, f, f / 10.0).state;
    return state;
  };
  BaseMap partial = base_map_from_scene(spec);
  const int left_out = partial.bases.front().marker_id;
  partial.bases.erase(partial.bases.begin());
  const TableState all = last_state(base_map_from_scene(spec));
  const TableState some = last_state(partial);
  EXPECT_TRUE(all.unnamed.empty());
  EXPECT_EQ(all.bases.size(), truth.bases.size());
  EXPECT_EQ(some.bases.size() + 1, truth.bases.size());
  ASSERT_EQ(some.unnamed.size(), 1U);
  const auto t = std::find_if(truth.bases.begin(), truth.bases.end(),
                              [&](const auto& b) { return b.marker_id == left_out; });
  ASSERT_NE(t, truth.bases.end());
  EXPECT_LT(cv::norm(some.unnamed[0].centre_in - t->centre_in), 0.05);
  EXPECT_DOUBLE_EQ(some.unnamed[0].radius_in, 1.0);
  EXPECT_DOUBLE_EQ(some.unnamed[0].top_height_in, 0.75);
  // Reported once settled: a ring fitted in a frame or two may be a fit on figures' edges.
  EXPECT_GE(some.unnamed[0].frames, RingIdentityOptions{}.settled_frames);
}

// The player names a ring the camera cannot name (`name_near`): here a base whose ring carries
// another code than the map says (a sticker from another sheet). Named by where it stands, it
// is reported under the map's id while followed; naming a ring that reads another base's code
// takes that name from the other ring. Figures not in the map, or on square markers, are
// refused with the reason.
TEST(Pipeline, APlayerNamesARingTheCameraCannotName) {
  CloseUpRings scene;
  const FrameTruth& truth = scene.truth;
  ASSERT_GE(truth.bases.size(), 3U);
  BaseMap map = base_map_from_scene(scene.spec);
  const int first = map.bases[0].marker_id;
  const int second = map.bases[1].marker_id;
  const std::string first_figure = map.bases[0].figure;
  const std::string third_figure = map.bases[2].figure;
  map.bases[0].marker_id = ring_code_count(RingStyle::kTwoBand) - 1;  // on no ring in view
  const int renamed = map.bases[0].marker_id;
  const auto truth_of = [&](int id) { return truth_centre(truth, id); };
  const auto run = [&](Pipeline& p, int from, int frames) {
    TableState state;
    for (int f = from; f < from + frames; ++f)
      state = p.process(scene.img, f, f / 10.0).state;
    return state;
  };
  {
    Pipeline p(scene.renderer.plane(), map, {}, {}, {}, {});
    const TableState before = run(p, 0, 3);
    EXPECT_EQ(reported(before, renamed), nullptr);
    ASSERT_EQ(before.unnamed.size(), 1U);
    // Named half an inch off where it stands, after it was seen.
    const auto id = p.name_near(truth_of(first) + cv::Point2d(0.4, -0.3), first_figure);
    ASSERT_TRUE(id.has_value());
    EXPECT_EQ(*id, renamed);
    const TableState after = run(p, 3, 3);
    const TrackedBase* b = reported(after, renamed);
    ASSERT_NE(b, nullptr);
    EXPECT_LT(cv::norm(b->centre_in - truth_of(first)), 0.05);
    EXPECT_EQ(b->figure, first_figure);
    EXPECT_TRUE(after.unnamed.empty());
    // Hidden for longer than the ring is followed (a hand over the table: frames without the
    // rings, 3.5 s), then back on the same spot: the player's name comes back.
    const cv::Mat hidden(scene.img.size(), scene.img.type(), cv::Scalar::all(90));
    p.process(hidden, 6, 0.6);
    const TableState gone = p.process(hidden, 7, 4.0).state;
    EXPECT_EQ(reported(gone, renamed), nullptr);
    TableState back;
    for (int f = 8; f < 11; ++f)
      back = p.process(scene.img, f, 4.0 + (f - 7) / 10.0).state;
    const TrackedBase* again = reported(back, renamed);
    ASSERT_NE(again, nullptr);
    EXPECT_LT(cv::norm(again->centre_in - truth_of(first)), 0.05);
    EXPECT_EQ(again->figure, first_figure);
    EXPECT_TRUE(back.unnamed.empty());
  }
  {
    // Named before the first frame; and the second base's ring named as the third's figure.
    Pipeline p(scene.renderer.plane(), map, {}, {}, {}, {});
    ASSERT_TRUE(p.name_near(truth_of(first), first_figure).has_value());
    ASSERT_TRUE(p.name_near(truth_of(second), third_figure).has_value());
    const TableState s = run(p, 0, 3);
    ASSERT_NE(reported(s, renamed), nullptr);
    const TrackedBase* third = reported(s, map.bases[2].marker_id);
    ASSERT_NE(third, nullptr);
    EXPECT_LT(cv::norm(third->centre_in - truth_of(second)), 0.05);
    // The ring that reads the third base's code gives the name up.
    ASSERT_EQ(s.unnamed.size(), 1U);
    EXPECT_LT(cv::norm(s.unnamed[0].centre_in - truth_of(map.bases[2].marker_id)), 0.05);
  }
  Pipeline p(scene.renderer.plane(), map, {}, {}, {}, {});
  const auto nobody = p.name_near({10, 10}, "Nobody");
  ASSERT_FALSE(nobody.has_value());
  EXPECT_NE(nobody.error().find("Nobody"), std::string::npos);
  EXPECT_NE(nobody.error().find("base map"), std::string::npos);
  BaseMap squares = map;
  squares.bases[1].ring = false;
  Pipeline q(scene.renderer.plane(), squares, {}, {}, {}, {});
  const auto square = q.name_near({10, 10}, squares.bases[1].figure);
  ASSERT_FALSE(square.has_value());
  EXPECT_NE(square.error().find("square marker"), std::string::npos);
}

// A name the player types goes at once only to a ring where it points (its centre within the
// ring's radius of the point); for a rougher point it waits a second, then goes to the ring
// seen nearest within 3". A name typed for a base the camera has not found yet (a figure just
// put down, here rendered only from the second frame on) does not go to the ring beside it,
// 2.3" away in a packed group, for good (the player's name outranks every code): until
// 2181e4c it did, at the first frame.
TEST(Pipeline, APlayersNameGoesAtOnceOnlyToARingWhereItPoints) {
  const SceneSpec spec = close_up_scene(BaseTargetKind::kRing2, 9, 3, 3);
  SceneRenderer renderer(spec);
  FrameTruth truth;
  const cv::Mat all = renderer.render(0, &truth);
  const auto truth_at = [&](int id) { return truth_centre(truth, id); };
  const auto nearest_other = [&](cv::Point2d at, int id) {
    double d = 1e9;
    for (const auto& b : truth.bases) {
      if (b.marker_id != id) d = std::min(d, cv::norm(b.centre_in - at));
    }
    return d;
  };
  // A: a base of the packed group (a neighbour within 3"); C: a base with none within 5".
  int a = -1;
  int c = -1;
  for (const auto& b : truth.bases) {
    const double d = nearest_other(b.centre_in, b.marker_id);
    if (a < 0 && d < 3.0) a = b.marker_id;
    if (c < 0 && d > 5.0) c = b.marker_id;
  }
  ASSERT_GE(a, 0);
  ASSERT_GE(c, 0);
  // Both carry codes the map does not hold (stickers from another sheet): only the player's
  // names can name them.
  BaseMap map = base_map_from_scene(spec);
  std::string a_figure;
  std::string c_figure;
  int a_id = -1;
  int c_id = -1;
  for (auto& b : map.bases) {
    if (b.marker_id == a) {
      a_figure = b.figure;
      b.marker_id = a_id = ring_code_count(RingStyle::kTwoBand) - 1;
    } else if (b.marker_id == c) {
      c_figure = b.figure;
      b.marker_id = c_id = ring_code_count(RingStyle::kTwoBand) - 2;
    }
  }
  ASSERT_FALSE(a_figure.empty());
  ASSERT_FALSE(c_figure.empty());
  SceneSpec without_a = spec;
  std::erase_if(without_a.bases, [&](const SceneBaseSpec& b) { return b.marker_id == a; });
  const cv::Mat before = SceneRenderer(without_a).render(0);
  Pipeline p(renderer.plane(), map, {}, {}, {}, {});
  ASSERT_TRUE(p.name_near(truth_at(a), a_figure).has_value());
  // C named 1.5" off towards the table's centre, no other base within 3" of that point.
  const cv::Point2d towards = cv::Point2d(30, 30) - truth_at(c);
  const cv::Point2d rough = truth_at(c) + 1.5 * towards / cv::norm(towards);
  ASSERT_GT(nearest_other(rough, c), 3.0);
  ASSERT_TRUE(p.name_near(rough, c_figure).has_value());
  for (int f = 0; f < 12; ++f) {
    const double t = f / 10.0;
    const TableState s = p.process(f == 0 ? before : all, f, t).state;
    const TrackedBase* ra = reported(s, a_id);
    const TrackedBase* rc = reported(s, c_id);
    // A new ring is looked for at the pipeline's next search of the whole table (frame 5).
    if (f >= 5) {
      ASSERT_NE(ra, nullptr) << "frame " << f;
    }
    if (ra) {
      EXPECT_LT(cv::norm(ra->centre_in - truth_at(a)), 0.05) << "frame " << f;
      EXPECT_EQ(ra->figure, a_figure);
    }
    if (t < 1.0 - 1e-9) {
      EXPECT_EQ(rc, nullptr) << "frame " << f;
    } else {
      ASSERT_NE(rc, nullptr) << "frame " << f;
      EXPECT_LT(cv::norm(rc->centre_in - truth_at(c)), 0.05) << "frame " << f;
    }
    // The names not given yet are told, where they were given.
    std::vector<std::string> waiting;
    for (const WaitingName& w : p.waiting_names()) {
      waiting.push_back(w.figure);
      EXPECT_EQ(w.near_in, w.figure == c_figure ? rough : truth_at(a)) << "frame " << f;
    }
    std::vector<std::string> expected;
    if (!ra) expected.push_back(a_figure);
    if (!rc) expected.push_back(c_figure);
    EXPECT_EQ(waiting, expected) << "frame " << f;
  }
}

// A calibration registered from table markers gives their squares back (each marker's four
// corners in turn); one registered from a board gives none.
TEST(Pipeline, TableMarkersComeFromAMarkerRegistration) {
  const auto path = std::filesystem::temp_directory_path() /
                    ("duels_ring_test_" + std::to_string(::getpid()) + ".yml");
  calib::CameraFile file;
  file.intrinsics = calib::example_webcam_1080p();
  calib::TableRecord t;
  t.table = {60, 60};
  t.table_to_camera = {{1.9, 0.1, -0.05}, {-30, 10, 50}};
  t.method = "markers 0,2 (DICT_4X4_50)";
  calib::MarkerLayout layout = calib::corner_marker_layout(t.table, 4.0, 0.5);
  layout.markers.erase(layout.markers.begin() + 1);  // marker 1 was not seen
  layout.markers.pop_back();                         // nor marker 3
  const auto quads = table_markers_of(layout);
  for (const auto& q : quads) {
    for (const auto& p : q) {
      t.points.table_in.emplace_back(p.x, p.y, 0);
      t.points.image_px.emplace_back(100, 100);
    }
  }
  t.points.method = t.method;
  file.table = t;
  calib::write_camera_file(path.string(), file);
  const auto read = table_markers_from_calibration(path.string());
  ASSERT_EQ(read.size(), 2U);
  for (std::size_t i = 0; i < 2; ++i) {
    for (std::size_t k = 0; k < 4; ++k)
      EXPECT_LT(cv::norm(read[i][k] - quads[i][k]), 1e-9) << i << " " << k;
  }
  EXPECT_NEAR(read[1][0].x, 55.5, 1e-9);  // marker 2, far right: its corner at (55.5, 59.5)
  EXPECT_NEAR(read[1][0].y, 59.5, 1e-9);
  file.table->method = "board (chessboard 9x6) at 10,10 in, 0 deg";
  file.table->points.method = file.table->method;
  calib::write_camera_file(path.string(), file);
  EXPECT_TRUE(table_markers_from_calibration(path.string()).empty());
  std::filesystem::remove(path);
}

TEST(RingFinder, ReadsRenderedRingsCloseUp) {
  reads_rendered_rings_close_up(BaseTargetKind::kRing);
}

TEST(RingFinder, ReadsRenderedTwoBandRingsCloseUp) {
  reads_rendered_rings_close_up(BaseTargetKind::kRing2);
}

}  // namespace
}  // namespace duels::vision
