#pragma once
/// @file The base ring: a printed target round the outer edge of a base's top, found from any
/// side and read as an ellipse. From the rim inwards:
///
///   radius 0.80 R … R     white rim: its outer edge against the dark base side or the felt is
///                         the locator — sampled along rays at sub-pixel precision and fitted as
///                         a circle in table inches at the top's height (the table pose makes
///                         the ellipse a circle again), never a centroid;
///   radius 0.45 R … 0.80 R  twelve sectors, black or white: the code (sector 0 starts at the
///                         facing direction, counter-clockwise), read whatever the rotation;
///   inside 0.45 R         left free for the figure's feet and the dials.
///
/// The two-band ring (`target: ring2`, issue 15's second version) splits the code band at
/// 0.625 R into an outer and an inner band of 12 sectors each: two cells a sector, 24 in all.
/// A figure standing on its base hides about half of the code; its codes are chosen to differ
/// within any half of the ring at every rotation, so the visible half names the base.
///
/// One-band codes are binary necklaces of 12 sectors: codes 0–8 differ pairwise in at least 4
/// sectors under every rotation, codes 0–17 in at least 3, all in at least 2; only the codes of the
/// bases in play are compared. Number your bases from 0 to keep them far apart. A code
/// seen weakly is accumulated over frames while its base stands still (vision/pipeline.cpp).

#include <opencv2/core.hpp>

#include <algorithm>
#include <array>
#include <optional>
#include <vector>

#include "calib/printable.hpp"
#include "calib/table.hpp"
#include "common/error.hpp"

namespace duels::vision {

/// How coloured each pixel of a BGR frame is: its largest channel less its smallest (8-bit). The
/// ring is printed black on white; a die or a figure's paint over it shows colour.
cv::Mat ring_chroma(const cv::Mat& bgr);

/// Sectors of a ring code.
inline constexpr int kRingSectors = 12;
/// Radii of the ring's bands, share of the base radius.
inline constexpr double kRingRimInner = 0.80;
inline constexpr double kRingCodeInner = 0.45;
/// The two-band ring's split between its outer and inner code band.
inline constexpr double kRingBandSplit = 0.625;

/// Which ring: the first one (`target: ring`, one band of 12 sectors) or the two-band ring
/// (`target: ring2`, the same 12 sectors split into an outer and an inner band, so every
/// sector carries two cells). Both have the same white rim; the two-band ring's codes are
/// chosen so that any half of the ring tells them apart (see ring.cpp).
enum class RingStyle { kOneBand = 1, kTwoBand = 2 };
/// Code bands of a style (1 or 2).
int ring_bands(RingStyle style);

/// How many ring codes there are (ids 0 … count−1).
int ring_code_count(RingStyle style = RingStyle::kOneBand);
/// The sectors of code `id` (true = black), sector 0 at the facing direction,
/// counter-clockwise. Nothing for an id without a code.
std::optional<std::array<bool, kRingSectors>> ring_code(int id);
/// The cells of code `id`: [band][sector], band 0 the outer (or only) band, band 1 the inner
/// one (all white on a one-band ring). Nothing for an id without a code.
using RingCells = std::array<std::array<bool, kRingSectors>, 2>;
std::optional<RingCells> ring_cells(int id, RingStyle style);

/// The shade of the ring sticker at a point of the base's top, base frame (+y = facing),
/// inches: 0 = black, 1 = white, nothing = not printed (inside the code band).
std::optional<double> ring_shade(int id, double radius_in, cv::Point2d local_in,
                                 RingStyle style = RingStyle::kOneBand);

/// A ring seen in one frame.
struct RingSighting {
  cv::Point2d centre_in;       ///< table inches (the circle fitted to the rim)
  double radius_in = 0;        ///< the base radius searched for
  double fit_rms_in = 0;       ///< RMS of the rim points about the circle
  int rim_points = 0;          ///< rim points kept by the fit (of kRingRays)
  double contrast = 0;         ///< grey levels between the rim and what lies outside it
  bool loose = false;          ///< the rim passed only the looser fit test (may sit ~0.1" off)
  double white = 0;            ///< the rim's white, grey levels (the upper quartile round it)
  std::vector<float> code;     ///< kRingCodeSamples samples round each code band (outer band
                               ///< first): +1 black, −1 white
  std::vector<float> weight;   ///< their reliability (0 = hidden or unreadable)
  bool beside_marker = false;  ///< fitted from a candidate beside a corner marker (one that must
                               ///< fit tightly): not reported until its code names it (Pipeline)
};

inline constexpr int kRingRays = 48;
/// Rim points (of kRingRays) a loosely fitted ring must keep: most of its rim…
inline constexpr int kLooseRimRays = 34;
/// …or, from a half ring's candidate (a neighbour's figure hides the rest), over half of it.
inline constexpr int kLooseHalfRimRays = 28;
inline constexpr int kRingCodeSamples = 8 * kRingSectors;

/// A base's rim fitted in one frame: the outer edge of a light top (a ring's white rim, or a
/// plain light top) against the darker side or felt beyond it.
struct RimFit {
  cv::Point2d centre_in;      ///< table inches, the circle fitted to the rim points kept
  double radius_in = 0;       ///< the base radius searched for
  double free_radius_in = 0;  ///< the radius when fitted freely (the last free pass), less
                              ///< the blur's shift (edge_bias_px)
  double fit_rms_in = 0;      ///< RMS of the rim points kept about the circle (seen through
                              ///< the blur: its radius grown by edge_bias_px)
  double edge_bias_px = 0;    ///< how far blur moved the rim's edge outward, pixels
  int rim_points = 0;         ///< rim points kept (of kRingRays)
  double contrast = 0;        ///< grey levels between the top and what lies outside it
  double pixel_in = 0;        ///< a pixel's size at the base, inches (RMS of the two axes)
  std::vector<int> ray_ok;    ///< per ray: 1 when its rim point was kept
};
/// Fits the rim of a base (radius `radius_in`, top `top_height_in` above the table) near
/// `guess_in`: the strongest light → dark step outward along kRingRays rays from the guess, sampled
/// at sub-pixel precision in the picture and fitted as a circle in table inches at the top's height
/// (free radius first, trimmed, then the known radius grown by one blur shift in pixels,
/// edge_bias_px), so points where a figure hides the rim are left out; a fit that is not tight is
/// tried again with the known radius from the start, and that one is taken when it is tight (or the
/// first found nothing). `wide`: the guess may be half a radius off. Nothing when fewer than half
/// the rays keep a rim point, the contrast is under 12 grey levels, the fit's RMS is over 0.06 R or
/// 0.6 pixel, or the centre lies far from the guess. Shared by the ring finder and markerless mode.
/// `reached`, when given, gets the centre the fit converged to whenever enough rim points lay on
/// one circle, even when a later test failed. `beside_paper`: the base may stand beside a corner
/// marker's white paper, where the rim has no edge: rays whose step from the rim to what lies
/// outside it is under 0.3 of the median ray's are left out.
std::optional<RimFit> fit_base_rim(const calib::TablePlane& plane, const cv::Mat& gray,
                                   cv::Point2d guess_in, double radius_in, double top_height_in,
                                   bool wide = false, cv::Point2d* reached = nullptr,
                                   bool beside_paper = false);
/// The RMS of a tight rim fit: 0.045 R, or 0.3 pixel where a pixel is larger.
[[nodiscard]] double tight_rim_rms(const RimFit& fit);
/// A tight rim fit: its RMS at most tight_rim_rms.
[[nodiscard]] bool tight_rim_fit(const RimFit& fit);
/// The lower bound of a whole top's freely fitted size, in base radii, unless told otherwise.
inline constexpr double kWholeRimMinFreeRadius = 0.975;
/// A looser fit that still looks like a whole top: its rim on `min_rays` of the kRingRays rays
/// or more, and its own size when fitted freely (`min_free_radius`–1.045 R, give or take 0.3
/// pixel). The ring finder and markerless mode accept a loose fit only so.
[[nodiscard]] bool whole_rim_fit(const RimFit& fit, int min_rays,
                                 double min_free_radius = kWholeRimMinFreeRadius);

/// The best code among `candidates` for accumulated samples, with its rotation.
struct RingDecode {
  int id = -1;
  double score = 0;       ///< agreement, −1 … 1
  double margin = 0;      ///< over the next-best code
  double facing_deg = 0;  ///< table direction of sector 0's start
};
RingDecode decode_ring(const std::vector<float>& code, const std::vector<float>& weight,
                       const std::vector<int>& candidates, RingStyle style = RingStyle::kOneBand);

/// How well accumulated code evidence fits one code, at its best rotation.
struct RingAgreement {
  int id = -1;
  double score = -1;      ///< agreement, −1 … 1 (share of the evidence that agrees, signed)
  double sectors = 0;     ///< agreeing minus disagreeing evidence, in clearly seen cells (a
                          ///< sector of a two-band ring has two)
  double facing_deg = 0;  ///< table direction of sector 0's start
};
/// The agreement of every candidate code with `code_sum` (Σ weight·sample over `frames`
/// frames) and `weight_sum` (Σ weight), in the order of `candidates` (ids without a code are
/// left out).
std::vector<RingAgreement> ring_agreements(const std::vector<float>& code_sum,
                                           const std::vector<float>& weight_sum, int frames,
                                           const std::vector<int>& candidates,
                                           RingStyle style = RingStyle::kOneBand);
/// The black among a ring's readings (`code_sum` over `frames` frames, as ring_agreements
/// takes it): the evidence of the samples that read black, in clearly seen cells a frame.
/// Every code has black cells (a two-band code in every half of its ring); a fit on a corner
/// marker's white paper, or on bare table, reads none.
double ring_black_cells(const std::vector<float>& code_sum, int frames);

/// A top view of the table at one height (a base's top), `px_per_in` pixels an inch, reaching
/// `margin_px` pixels past each edge of the table so that a filter near an edge reads what lies
/// beyond it (cut at the edges, the view read black there, and a rim's matched filter put false
/// candidates all along them). Shared by the ring finder and markerless mode.
struct TableTopView {
  TableTopView() = default;
  TableTopView(const calib::TablePlane& plane, double px_per_in, double height_in,
               double margin_in);
  double px_per_in = 0;
  int margin_px = 0;
  double depth_in = 0;
  cv::Mat map_x;  ///< picture pixel of each top-view pixel (-1: not in front of the camera)
  cv::Mat map_y;
  /// The top view of a grey picture (beyond the picture, its edge pixels repeated).
  [[nodiscard]] cv::Mat look(const cv::Mat& gray) const;
  /// The table point of top-view pixel (u + du, v + dv).
  [[nodiscard]] cv::Point2d to_table(int u, int v, double du = 0, double dv = 0) const {
    return {(u - margin_px + 0.5 + du) / px_per_in,
            depth_in - (v - margin_px + 0.5 + dv) / px_per_in};
  }
  /// The first (and, from the far side, the last) top-view row and column on the table, and
  /// at least one pixel in from the view's edge.
  [[nodiscard]] int first_on_table() const { return std::max(1, margin_px); }
  /// A score over the view made lower than any other where no base's centre can be: off the
  /// table and inside `regions` (polygons, table inches). A peak's test against it is not
  /// hidden by a response there.
  [[nodiscard]] cv::Mat mask_where_no_centre(
      const cv::Mat& score, const std::vector<std::vector<cv::Point2f>>& regions) const;
};

/// A light rim's matched filter in a top view with `radius_px` pixels to a base's radius: the
/// mean over the annulus from `inner_from` to `inner_to` radii less the mean over 1.05–1.35
/// radii just outside the rim. Shared by the ring finder and markerless mode.
[[nodiscard]] cv::Mat rim_matched_filter(double radius_px, double inner_from, double inner_to);

/// The rim's matched filter's first angular harmonic: `rim_filter` (rim_matched_filter) times
/// the cosine and the sine of each tap's direction from the middle. The response of a ring
/// seen round only part of its rim: see RingFinder::find.
[[nodiscard]] std::vector<cv::Mat> half_ring_filters(const cv::Mat& rim_filter);

/// True when the table point `at` lies inside (or on) one of `regions` (polygons, table
/// inches), or closer than `reach_in` to one: the regions where no base is looked for
/// (vision/markers.hpp's marker_keep_out).
bool inside_any(const std::vector<std::vector<cv::Point2f>>& regions, cv::Point2d at,
                double reach_in = 0);

/// Correlations of images of one size with several kernels (odd sizes, anchored in the
/// middle), as cv::filter2D computes them with a zero border (BORDER_CONSTANT), through one
/// Fourier transform of the image shared by all the kernels (theirs are computed once, here).
class KernelBank {
 public:
  KernelBank() = default;
  KernelBank(cv::Size image_size, const std::vector<cv::Mat>& kernels);
  /// `image` (8-bit or float, one channel, of the bank's size) correlated with each kernel, in
  /// their order (CV_32F).
  [[nodiscard]] std::vector<cv::Mat> correlate(const cv::Mat& image) const;

 private:
  cv::Size image_size_;
  cv::Size dft_size_;
  std::vector<cv::Mat> spectra_;
};

/// Where a ring was seen lately: RingFinder::find measures a ring there even when the top view
/// misses it.
struct RingHint {
  cv::Point2d at;      ///< table inches, where it was fitted last
  bool named = false;  ///< named, and standing still there for a few frames: when its rim
                       ///< fails a whole ring's fit, it may fit loosely round only part of its
                       ///< turn (kLooseHalfRimRays) as long as the fit stays where it stood
};

/// Finds the rings of bases of one size (diameter, top height) in a frame: candidates in a top
/// view of the table at the top's height, then the rim fitted in the picture itself.
class RingFinder {
 public:
  RingFinder(const calib::TablePlane& plane, double diameter_in, double top_height_in,
             RingStyle style = RingStyle::kOneBand);
  /// Every ring seen in a grey frame. `hints` are where rings were seen lately (looked at even
  /// when the top view misses them).
  /// At most 2·`expected` + 8 top-view candidates are measured (the strongest), then up to 8
  /// beside a corner marker (their rings must fit tightly), up to 8 half rings (a loose fit
  /// keeps kLooseHalfRimRays), the hints, and last the top-view candidates whose ring looks
  /// lopsided, once more as half rings (not again between searches).
  /// `search` false: no search of the whole table: the hints and the candidates of the last
  /// search are measured again (for the two-band ring, and for candidates that must fit
  /// tightly, only those that held a ring).
  /// `exclude`: table regions (polygons, inches) where no ring can be — the table's corner
  /// markers, whose black and white corners look like pieces of a rim; no candidate there
  /// is measured. Of two rings fitted closer than 0.9 of a diameter (bases do not overlap),
  /// one within `hint_within_in` of a hint (where a ring stood still) is kept, else the
  /// better fit.
  /// `chroma`, when given (8-bit, the frame's size: each pixel's largest channel less its
  /// smallest, see ring_chroma), shows what covers the print: code cells seen coloured (a die, a
  /// figure's paint) are left unread, not read as black or white.
  [[nodiscard]] std::vector<RingSighting> find(
      const cv::Mat& gray, const std::vector<RingHint>& hints = {}, int expected = 20,
      bool search = true, const std::vector<std::vector<cv::Point2f>>& exclude = {},
      double hint_within_in = 0.15, const cv::Mat& chroma = cv::Mat()) const;
  /// The rim fit and code samples around a guessed centre (nothing when no ring is there).
  /// `wide`: the guess may be half a radius off (a top-view candidate), search farther.
  /// `reached`, `beside_paper`: as for fit_base_rim. `loose_rays`: the rim points a loose fit
  /// must keep (of kRingRays; fewer for a half ring's candidate).
  [[nodiscard]] std::optional<RingSighting> measure(const cv::Mat& gray, cv::Point2d guess_in,
                                                    bool wide = false,
                                                    cv::Point2d* reached = nullptr,
                                                    int loose_rays = kLooseRimRays,
                                                    bool beside_paper = false,
                                                    const cv::Mat& chroma = cv::Mat()) const;
  [[nodiscard]] double diameter_in() const { return 2 * radius_; }
  [[nodiscard]] double top_height_in() const { return height_; }
  [[nodiscard]] RingStyle style() const { return style_; }

 private:
  // A place to measure a ring from, and under which rules (RingFinder::find).
  struct Candidate {
    float s;
    cv::Point2d at;
    bool tight_only = false;  // its ring must fit tightly: a peak beside a higher response
                              // where no centre can be
    bool half = false;        // a half ring's peak: measured again only where it fitted
    bool lopsided = false;    // a top-view peak measured again as a half ring: not again
                              // between searches
    cv::Point px{-1, -1};     // a top-view peak's pixel
    bool named_hint = false;  // a named ring's last centre (RingHint::named)
  };
  // The search of the whole table in the top view, in the order they are measured: the
  // strongest peaks, those beside a corner marker, the half rings, and the half rings within
  // half a radius of a peak; `lopsided` gets the peaks to measure once more as half rings,
  // after the hints.
  std::vector<Candidate> search_candidates(const cv::Mat& gray, int expected,
                                           const std::vector<std::vector<cv::Point2f>>& exclude,
                                           std::vector<Candidate>& lopsided) const;
  // Each candidate's ring measured, in order, skipping those on a ring already fitted; at a
  // search frame, the places worth measuring again until the next search go to searched_.
  // Where a named hint's ordinary fit fails, it is fitted with a half ring's kLooseHalfRimRays
  // points, a loose fit kept only within `hint_within_in` of the hint.
  std::vector<RingSighting> fit_candidates(const cv::Mat& gray, const std::vector<Candidate>& cands,
                                           bool search, double hint_within_in,
                                           const cv::Mat& chroma) const;

  calib::TablePlane plane_;
  double radius_;
  double height_;
  RingStyle style_;
  TableTopView top_;    // where candidates are looked for
  KernelBank filters_;  // in the top view: the rim's matched filter, its first harmonic
  // The candidates of the last search, looked at again between searches (measuring them is
  // cheap; the search is not), each with whether its ring must fit tightly (a peak found only
  // as no response where no centre can be hides it, or a half ring: RingFinder::find).
  mutable std::vector<std::pair<cv::Point2d, bool>> searched_;
};

/// True-scale sheets of ring stickers: for every diameter, one sticker per id, each with a dashed
/// cut line just outside the rim and one just inside the code band (the middle is cut out for
/// the figure's feet and the dials), its id, size and which way is the front, under a header
/// with the 1-inch and 50 mm check bars. Errors: an id without a code, a sticker larger than
/// the page.
Expected<std::vector<calib::Sheet>, std::string> ring_sheets(
    const std::vector<int>& ids, const std::vector<double>& diameters_in, const calib::Paper& paper,
    RingStyle style = RingStyle::kOneBand);

}  // namespace duels::vision
