#include "vision/ring.hpp"

#include <fmt/format.h>

#include <opencv2/imgproc.hpp>

#include <algorithm>
#include <bit>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <numeric>
#include <unordered_map>

namespace duels::vision {
namespace {

constexpr int kN = kRingSectors;
constexpr unsigned kAll = (1U << kN) - 1;

unsigned rotl(unsigned w, int k) {
  return ((w << k) | (w >> (kN - k))) & kAll;
}

int runs(unsigned w) {
  int n = 0;
  for (int i = 0; i < kN; ++i)
    n += ((w >> i) & 1U) != ((w >> ((i + 1) % kN)) & 1U);
  return n;
}

// The codebook: necklaces (smallest rotation as representative), built in layers so the first
// codes lie farthest apart: codes 0… differ from each other in at least 4 sectors under every
// rotation, then codes at least 3 apart join, then the rest at least 2 apart. Within a layer
// fewer black/white runs come first (wide features survive blur).
const std::vector<unsigned>& codebook() {
  static const std::vector<unsigned> book = [] {
    std::vector<unsigned> words;
    for (unsigned w = 1; w < kAll; ++w) {
      bool canonical = true;
      for (int k = 1; k < kN && canonical; ++k)
        canonical = rotl(w, k) >= w;
      if (canonical) words.push_back(w);
    }
    std::stable_sort(words.begin(), words.end(),
                     [](unsigned a, unsigned b) { return runs(a) < runs(b); });
    std::vector<unsigned> chosen;
    for (int distance : {4, 3, 2}) {
      for (unsigned w : words) {
        if (std::find(chosen.begin(), chosen.end(), w) != chosen.end()) continue;
        bool far_enough = true;
        for (unsigned c : chosen) {
          for (int k = 0; k < kN && far_enough; ++k)
            far_enough = std::popcount(rotl(w, k) ^ c) >= distance;
        }
        if (far_enough) chosen.push_back(w);
      }
    }
    return chosen;
  }();
  return book;
}

// The two-band codebook: {outer band, inner band}, bit i = sector i (1 = black). Chosen by a
// seeded greedy search over random pairs of 12-bit words (done once; the properties are
// checked by tests/vision/ring_test.cpp), in layers so the first codes lie
// farthest apart where it matters — in a half of the ring, because the figure and its
// neighbours hide much of the rest:
//   codes 0–4   differ in at least 3 cells in every 6 consecutive sectors (any half ring), at
//               every rotation of the other;
//   codes 0–18  in at least 2 cells in every half ring;
//   codes 19–35 from every earlier code in at least 3 cells in every 8 consecutive sectors;
//   codes 0–63  in at least 2 cells in every 8 consecutive sectors.
// No code equals a rotation of itself (its facing is always known).
constexpr std::array<std::array<unsigned, 2>, 64> kTwoBandBook = {
    {{0xf71, 0x357}, {0x02f, 0x857}, {0x568, 0x776}, {0xf2b, 0x800}, {0x131, 0x4cb}, {0x47d, 0x646},
     {0x436, 0x582}, {0x3a8, 0xef5}, {0x393, 0x4e3}, {0x7d8, 0xf58}, {0xd70, 0x429}, {0xdc5, 0x816},
     {0xcad, 0x377}, {0x174, 0xf0d}, {0xcbe, 0xdb1}, {0x6d1, 0x4a1}, {0x7da, 0x3f9}, {0x533, 0xffa},
     {0x0e1, 0x75c}, {0xcc3, 0x503}, {0xe48, 0x629}, {0x853, 0xa0f}, {0x196, 0x113}, {0x168, 0x8e8},
     {0x2c7, 0x911}, {0x7b5, 0x025}, {0x511, 0xa2a}, {0xfd7, 0xb0c}, {0xa74, 0x2ca}, {0xccd, 0xf80},
     {0x308, 0x1d6}, {0xcb3, 0x4fd}, {0x96f, 0x38d}, {0x093, 0x331}, {0xedd, 0xd64}, {0x81c, 0xfa2},
     {0x287, 0xe9b}, {0x045, 0x0e1}, {0xdb7, 0xb1d}, {0xfff, 0x5e0}, {0xdb9, 0x34d}, {0x82e, 0x6ba},
     {0x3b3, 0x93c}, {0x908, 0xcc8}, {0xa54, 0x735}, {0xdd1, 0xcf4}, {0x04c, 0x321}, {0x7eb, 0x26d},
     {0xe31, 0xdb0}, {0x3c3, 0x4f6}, {0x797, 0x246}, {0x1d8, 0xad2}, {0x604, 0x03f}, {0xf1c, 0x414},
     {0x765, 0x3b5}, {0x986, 0x721}, {0x4fc, 0x8c6}, {0xd25, 0x07e}, {0x84a, 0x00b}, {0x3fd, 0x7fb},
     {0xaf3, 0x963}, {0x9ad, 0x5af}, {0x570, 0xecf}, {0x57f, 0x755}}};

double bilinear(const cv::Mat& g, double x, double y) {
  if (x < 0 || y < 0 || x > g.cols - 1.001 || y > g.rows - 1.001) return -1;
  const int x0 = static_cast<int>(x);
  const int y0 = static_cast<int>(y);
  const double fx = x - x0;
  const double fy = y - y0;
  const unsigned char* r0 = g.ptr<unsigned char>(y0);
  const unsigned char* r1 = g.ptr<unsigned char>(y0 + 1);
  return (1 - fy) * ((1 - fx) * r0[x0] + fx * r0[x0 + 1]) +
         fy * ((1 - fx) * r1[x0] + fx * r1[x0 + 1]);
}

// Circle through points: algebraic (Kåsa) start, then Gauss-Newton on the geometric distance.
// With `fixed_r` > 0 only the centre is fitted.
bool fit_circle(const std::vector<cv::Point2d>& p, cv::Point2d& c, double& r, double fixed_r) {
  if (p.size() < 3) return false;
  if (fixed_r <= 0) {
    // Kåsa: 2x·a + 2y·b + k = x² + y² by least squares, about the points' mean (so the normal
    // equations stay well conditioned), solved as a 3×3 system.
    cv::Point2d m(0, 0);
    for (const auto& q : p)
      m += q;
    m *= 1.0 / static_cast<double>(p.size());
    cv::Matx33d ata = cv::Matx33d::zeros();
    cv::Vec3d atb(0, 0, 0);
    for (const auto& q : p) {
      const cv::Point2d d = q - m;
      const cv::Vec3d row(2 * d.x, 2 * d.y, 1);
      ata += row * row.t();
      atb += row * (d.x * d.x + d.y * d.y);
    }
    cv::Vec3d x;
    if (!cv::solve(ata, atb, x, cv::DECOMP_LU)) return false;
    c = m + cv::Point2d(x[0], x[1]);
    r = std::sqrt(std::max(0.0, x[2] + x[0] * x[0] + x[1] * x[1]));
  } else {
    r = fixed_r;
  }
  for (int it = 0; it < 10; ++it) {
    cv::Matx33d jtj = cv::Matx33d::zeros();
    cv::Vec3d jtr(0, 0, 0);
    for (const auto& q : p) {
      const cv::Point2d d = q - c;
      const double n = std::max(1e-9, std::sqrt(d.x * d.x + d.y * d.y));
      const double res = n - r;
      const cv::Vec3d j(-d.x / n, -d.y / n, fixed_r > 0 ? 0.0 : -1.0);
      jtj += j * j.t();
      jtr += j * res;
    }
    if (fixed_r > 0) jtj(2, 2) = 1;
    cv::Vec3d step;
    if (!cv::solve(jtj, -jtr, step, cv::DECOMP_CHOLESKY)) return false;
    c += cv::Point2d(step[0], step[1]);
    r += step[2];
    if (std::abs(step[0]) + std::abs(step[1]) + std::abs(step[2]) < 1e-7) break;
  }
  return std::isfinite(c.x) && std::isfinite(c.y) && r > 0;
}

// The rim as the circle of known radius `r0` seen through blur: blur moves the strongest step
// of a narrow white rim outward by about the same amount in pixels all round, which in table
// inches is more where a pixel is longer (across the table's depth, far from the camera).
// Fits the centre and that shift `bias_px`, point i lying at r0 + bias_px · in_per_px[i] from
// the centre. False when the fit fails or the shift is implausible (outside −0.5 … 1 pixel).
bool fit_blurred_circle(const std::vector<cv::Point2d>& p, const std::vector<double>& in_per_px,
                        double r0, cv::Point2d& c, double& bias_px) {
  if (p.size() < 3 || p.size() != in_per_px.size()) return false;
  cv::Point2d cb = c;
  double b = 0;
  for (int it = 0; it < 10; ++it) {
    cv::Matx33d jtj = cv::Matx33d::zeros();
    cv::Vec3d jtr(0, 0, 0);
    for (std::size_t i = 0; i < p.size(); ++i) {
      const cv::Point2d d = p[i] - cb;
      const double n = std::max(1e-9, std::sqrt(d.x * d.x + d.y * d.y));
      const double res = n - (r0 + b * in_per_px[i]);
      const cv::Vec3d j(-d.x / n, -d.y / n, -in_per_px[i]);
      jtj += j * j.t();
      jtr += j * res;
    }
    cv::Vec3d step;
    if (!cv::solve(jtj, -jtr, step, cv::DECOMP_CHOLESKY)) return false;
    cb += cv::Point2d(step[0], step[1]);
    b += step[2];
    if (std::abs(step[0]) + std::abs(step[1]) < 1e-7 && std::abs(step[2]) < 1e-5) break;
  }
  if (!std::isfinite(cb.x) || !std::isfinite(cb.y) || !std::isfinite(b) || b < -0.5 || b > 1.0)
    return false;
  c = cb;
  bias_px = b;
  return true;
}

}  // namespace

int ring_bands(RingStyle style) {
  return style == RingStyle::kTwoBand ? 2 : 1;
}

int ring_code_count(RingStyle style) {
  return style == RingStyle::kTwoBand ? static_cast<int>(kTwoBandBook.size())
                                      : static_cast<int>(codebook().size());
}

std::optional<RingCells> ring_cells(int id, RingStyle style) {
  if (id < 0 || id >= ring_code_count(style)) return std::nullopt;
  RingCells out{};
  for (int band = 0; band < ring_bands(style); ++band) {
    const unsigned w =
        style == RingStyle::kTwoBand
            ? kTwoBandBook[static_cast<std::size_t>(id)][static_cast<std::size_t>(band)]
            : codebook()[static_cast<std::size_t>(id)];
    for (int i = 0; i < kN; ++i)
      out[static_cast<std::size_t>(band)][static_cast<std::size_t>(i)] = ((w >> i) & 1U) != 0;
  }
  return out;
}

std::optional<std::array<bool, kRingSectors>> ring_code(int id) {
  if (id < 0 || id >= ring_code_count()) return std::nullopt;
  const unsigned w = codebook()[static_cast<std::size_t>(id)];
  std::array<bool, kRingSectors> out{};
  for (int i = 0; i < kN; ++i)
    out[static_cast<std::size_t>(i)] = ((w >> i) & 1U) != 0;
  return out;
}

std::optional<double> ring_shade(int id, double radius_in, cv::Point2d local, RingStyle style) {
  const double r = std::hypot(local.x, local.y);
  if (r > radius_in || r < kRingCodeInner * radius_in) return std::nullopt;
  if (r >= kRingRimInner * radius_in) return 1.0;
  const auto cells = ring_cells(id, style);
  if (!cells) return 1.0;
  double phi = std::atan2(-local.x, local.y);  // from the facing direction, counter-clockwise
  if (phi < 0) phi += 2 * CV_PI;
  const int sector = std::min(kN - 1, static_cast<int>(phi / (2 * CV_PI / kN)));
  const int band = style == RingStyle::kTwoBand && r < kRingBandSplit * radius_in ? 1 : 0;
  return (*cells)[static_cast<std::size_t>(band)][static_cast<std::size_t>(sector)] ? 0.0 : 1.0;
}

namespace {

// Samples near a sector boundary count less (the rotation is known only to a sample).
const std::array<double, kRingCodeSamples / kRingSectors>& within_sector() {
  static const auto w = [] {
    constexpr int per = kRingCodeSamples / kRingSectors;
    std::array<double, per> out{};
    for (int p = 0; p < per; ++p) {
      const double d = std::min(p + 0.5, per - p - 0.5) / (per / 2.0);  // 0 at edges … 1 mid
      out[static_cast<std::size_t>(p)] = std::min(1.0, 0.2 + 1.2 * d);
    }
    return out;
  }();
  return w;
}

}  // namespace

namespace {
// The evidence of one clearly seen cell a frame, in its samples' (RingAgreement::sectors).
constexpr double kCleanCell = 0.85;
}  // namespace

std::vector<RingAgreement> ring_agreements(const std::vector<float>& code_sum,
                                           const std::vector<float>& weight_sum, int frames,
                                           const std::vector<int>& candidates, RingStyle style) {
  constexpr int m = kRingCodeSamples;
  constexpr int per = m / kN;
  const int bands = ring_bands(style);
  std::vector<RingAgreement> out;
  if (static_cast<int>(code_sum.size()) != m * bands ||
      static_cast<int>(weight_sum.size()) != m * bands)
    return out;
  const auto& within = within_sector();
  // A sample's evidence is Σ weight·sample (a clean, fully weighted sample is ±1 a frame).
  // For every rotation (in steps of two samples) the evidence is first summed per cell (band
  // and sector), which does not depend on the code; each code is then a sum of 12 signed sums
  // per band.
  constexpr int shifts = m / 2;
  std::vector<std::array<std::array<double, kN>, 2>> signed_sum(shifts);
  std::array<double, shifts> abs_sum{};
  for (int k = 0; k < shifts; ++k) {
    const int t = 2 * k;
    for (int band = 0; band < bands; ++band) {
      for (int j = 0; j < m; ++j) {
        const int i = (j - t + m) % m;
        const double w = within[static_cast<std::size_t>(i % per)];
        const double e = code_sum[static_cast<std::size_t>(band * m + j)];
        signed_sum[static_cast<std::size_t>(k)][static_cast<std::size_t>(band)]
                  [static_cast<std::size_t>(i / per)] += w * e;
        abs_sum[static_cast<std::size_t>(k)] += w * std::abs(e);
      }
    }
  }
  for (int id : candidates) {
    const auto cells = ring_cells(id, style);
    if (!cells) continue;
    RingAgreement best;
    best.id = id;
    best.score = -2;
    for (int k = 0; k < shifts; ++k) {
      double sum = 0;
      for (int band = 0; band < bands; ++band) {
        const auto& bits = (*cells)[static_cast<std::size_t>(band)];
        const auto& ss = signed_sum[static_cast<std::size_t>(k)][static_cast<std::size_t>(band)];
        for (int q = 0; q < kN; ++q) {
          const double v = ss[static_cast<std::size_t>(q)];
          sum += bits[static_cast<std::size_t>(q)] ? v : -v;
        }
      }
      const double wsum = abs_sum[static_cast<std::size_t>(k)];
      const double sc = wsum > 0 ? sum / wsum : 0;
      if (sc > best.score) {
        best.score = sc;
        best.sectors = sum / (per * kCleanCell * std::max(1, frames));
        best.facing_deg = 360.0 * 2 * k / m;
      }
    }
    out.push_back(best);
  }
  return out;
}

double ring_black_cells(const std::vector<float>& code_sum, int frames) {
  constexpr int per = kRingCodeSamples / kRingSectors;
  double sum = 0;
  for (const float e : code_sum)
    sum += std::max(0.f, e);
  return sum / (per * kCleanCell * std::max(1, frames));
}

RingDecode decode_ring(const std::vector<float>& code, const std::vector<float>& weight,
                       const std::vector<int>& candidates, RingStyle style) {
  RingDecode best;
  best.score = -2;
  double second = -2;
  if (code.size() != weight.size()) return best;
  std::vector<float> sum(code.size());
  for (std::size_t j = 0; j < code.size(); ++j)
    sum[j] = weight[j] * code[j];
  for (const RingAgreement& a : ring_agreements(sum, weight, 1, candidates, style)) {
    if (a.score > best.score) {
      second = best.score;
      best.score = a.score;
      best.id = a.id;
      best.facing_deg = a.facing_deg;
    } else if (a.score > second) {
      second = a.score;
    }
  }
  best.margin = second > -2 ? best.score - second : best.score;
  return best;
}

RingFinder::RingFinder(const calib::TablePlane& plane, double diameter_in, double top_height_in,
                       RingStyle style)
    : plane_(plane), radius_(diameter_in / 2), height_(top_height_in), style_(style) {
  // Top view: about 4 pixels across the ring's radius, past the table's edges by the filter's
  // reach (measured: 2 more of 1280 two-band rings named than with a view cut at the edges).
  const double ppi = std::clamp(7.0 / radius_, 3.0, 14.0);
  top_ = TableTopView(plane_, ppi, height_, 1.4 * radius_);
  const cv::Mat rim = rim_matched_filter(radius_ * ppi, 0.72, 0.98);
  std::vector<cv::Mat> kernels = half_ring_filters(rim);
  kernels.insert(kernels.begin(), rim);
  filters_ = KernelBank(top_.map_x.size(), kernels);
}

KernelBank::KernelBank(cv::Size image_size, const std::vector<cv::Mat>& kernels)
    : image_size_(image_size) {
  // Zeros past the image for the widest kernel's reach: the circular correlation is then the
  // plain one.
  int reach_x = 0;
  int reach_y = 0;
  for (const cv::Mat& k : kernels) {
    reach_x = std::max(reach_x, k.cols / 2);
    reach_y = std::max(reach_y, k.rows / 2);
  }
  dft_size_ = cv::Size(cv::getOptimalDFTSize(image_size.width + reach_x),
                       cv::getOptimalDFTSize(image_size.height + reach_y));
  for (const cv::Mat& k : kernels) {
    const int kh = k.rows / 2;
    const int kw = k.cols / 2;
    cv::Mat wrapped = cv::Mat::zeros(dft_size_, CV_32F);
    for (int y = -kh; y <= kh; ++y) {
      for (int x = -kw; x <= kw; ++x) {
        wrapped.at<float>((y + dft_size_.height) % dft_size_.height,
                          (x + dft_size_.width) % dft_size_.width) = k.at<float>(y + kh, x + kw);
      }
    }
    cv::Mat spectrum;
    cv::dft(wrapped, spectrum);
    spectra_.push_back(spectrum);
  }
}

std::vector<cv::Mat> KernelBank::correlate(const cv::Mat& image) const {
  CV_Assert(image.size() == image_size_ && image.channels() == 1);
  cv::Mat padded = cv::Mat::zeros(dft_size_, CV_32F);
  image.convertTo(padded(cv::Rect(cv::Point(0, 0), image_size_)), CV_32F);
  cv::Mat spectrum;
  cv::dft(padded, spectrum, 0, image_size_.height);
  std::vector<cv::Mat> out;
  for (const cv::Mat& k : spectra_) {
    cv::Mat product;
    cv::mulSpectrums(spectrum, k, product, 0, true);
    cv::Mat back;
    cv::idft(product, back, cv::DFT_SCALE | cv::DFT_REAL_OUTPUT);
    out.push_back(back(cv::Rect(cv::Point(0, 0), image_size_)).clone());
  }
  return out;
}

std::vector<cv::Mat> half_ring_filters(const cv::Mat& rim_filter) {
  const int h = rim_filter.rows / 2;
  std::vector<cv::Mat> out = {cv::Mat::zeros(rim_filter.size(), CV_32F),
                              cv::Mat::zeros(rim_filter.size(), CV_32F)};
  for (int y = -h; y <= h; ++y) {
    for (int x = -h; x <= h; ++x) {
      const double r = std::hypot(x, y);
      if (r <= 0) continue;
      const float k = rim_filter.at<float>(y + h, x + h);
      out[0].at<float>(y + h, x + h) = static_cast<float>(k * (x / r));
      out[1].at<float>(y + h, x + h) = static_cast<float>(k * (y / r));
    }
  }
  return out;
}

cv::Mat rim_matched_filter(double radius_px, double inner_from, double inner_to) {
  const int half = static_cast<int>(std::ceil(1.35 * radius_px));
  cv::Mat kernel(2 * half + 1, 2 * half + 1, CV_32F, cv::Scalar(0));
  const auto inner = [&](double r) { return r >= inner_from && r <= inner_to; };
  const auto outer = [](double r) { return r >= 1.05 && r <= 1.35; };
  double pos = 0;
  double neg = 0;
  for (int y = -half; y <= half; ++y) {
    for (int x = -half; x <= half; ++x) {
      const double r = std::hypot(x, y) / radius_px;
      pos += inner(r);
      neg += outer(r);
    }
  }
  for (int y = -half; y <= half; ++y) {
    for (int x = -half; x <= half; ++x) {
      const double r = std::hypot(x, y) / radius_px;
      float& k = kernel.at<float>(y + half, x + half);
      if (inner(r)) k = static_cast<float>(1 / pos);
      if (outer(r)) k = static_cast<float>(-1 / neg);
    }
  }
  return kernel;
}

TableTopView::TableTopView(const calib::TablePlane& plane, double ppi, double height_in,
                           double margin_in)
    : px_per_in(ppi),
      margin_px(static_cast<int>(std::ceil(margin_in * ppi))),
      depth_in(plane.table().depth_in) {
  const auto& t = plane.table();
  const int w = static_cast<int>(std::lround(t.width_in * px_per_in)) + 2 * margin_px;
  const int h = static_cast<int>(std::lround(t.depth_in * px_per_in)) + 2 * margin_px;
  map_x.create(h, w, CV_32F);
  map_y.create(h, w, CV_32F);
  for (int v = 0; v < h; ++v) {
    for (int u = 0; u < w; ++u) {
      const cv::Point2d at = to_table(u, v);
      const auto px = plane.table_to_image({at.x, at.y, height_in});
      map_x.at<float>(v, u) = px ? static_cast<float>(px->x) : -1.f;
      map_y.at<float>(v, u) = px ? static_cast<float>(px->y) : -1.f;
    }
  }
}

cv::Mat TableTopView::mask_where_no_centre(
    const cv::Mat& score, const std::vector<std::vector<cv::Point2f>>& regions) const {
  cv::Mat out = score.clone();
  const float none = -std::numeric_limits<float>::max();
  const int lo = first_on_table();
  out.rowRange(0, lo).setTo(none);
  out.rowRange(out.rows - lo, out.rows).setTo(none);
  out.colRange(0, lo).setTo(none);
  out.colRange(out.cols - lo, out.cols).setTo(none);
  std::vector<std::vector<cv::Point>> polys;
  for (const auto& poly : regions) {
    std::vector<cv::Point> px;
    for (const auto& p : poly) {
      // to_table's inverse, in 1/16 pixel (fillPoly's shift of 4).
      const double u = p.x * px_per_in + margin_px - 0.5;
      const double v = (depth_in - p.y) * px_per_in + margin_px - 0.5;
      px.emplace_back(static_cast<int>(std::lround(u * 16)), static_cast<int>(std::lround(v * 16)));
    }
    polys.push_back(std::move(px));
  }
  if (!polys.empty()) cv::fillPoly(out, polys, cv::Scalar(none), cv::LINE_8, 4);
  return out;
}

cv::Mat TableTopView::look(const cv::Mat& gray) const {
  cv::Mat top;
  cv::remap(gray, top, map_x, map_y, cv::INTER_LINEAR, cv::BORDER_REPLICATE);
  return top;
}

namespace {

// Rim points found along the rays from a guess (fit_base_rim).
struct RimRays {
  std::vector<cv::Point2d> at;
  std::vector<int> ray;
  std::vector<double> in_per_px;  // a pixel's length along the ray, inches
  std::vector<double> inside_level;
  std::vector<double> outside_level;
};

// A robust circle fit of the rim points, five passes. Free radius first, trimmed twice: the
// radius must be the base's. Then the known radius seen through the blur, twice: the rim points
// are trimmed about that model and it is fitted once more. Measured: 7 more of 1280 two-band
// rings named with the second pass through the blur, none wrongly (`duels bench coverage
// --target ring2 --seeds 16`).
//
// `known_first`: the known radius in all five passes, plain (trimmed twice), then the free
// radius measured on the points kept so far, then through the blur. Where an arc of rim points
// lies inside the rim (a figure's foot on the back of its base: the step outward there is the
// code band against the figure), a free circle gives way to it, shrinks and moves off centre,
// and the trimming about it keeps the arc; a circle of the known size is pulled less.
std::optional<RimFit> solve_rim(const calib::TablePlane& plane, const RimRays& rays,
                                cv::Point2d guess, double R, double top_height_in, bool wide,
                                bool known_first, cv::Point2d* reached);

}  // namespace

std::optional<RimFit> fit_base_rim(const calib::TablePlane& plane, const cv::Mat& gray,
                                   cv::Point2d guess, double radius_in, double top_height_in,
                                   bool wide, cv::Point2d* reached, bool beside_paper) {
  const double R = radius_in;
  // Rays from the guess: the rim's outer edge is the strongest bright → dark step outwards
  // (inside it the steps outward are dark → bright: the middle to the code, black sectors to
  // the rim).
  constexpr int kKnots = 4;
  const double rho0 = (wide ? 0.5 : 0.62) * R;
  const double rho1 = (wide ? 1.45 : 1.38) * R;
  const double lo = (wide ? 0.58 : 0.82) * R;
  const double hi = (wide ? 1.32 : 1.2) * R;
  RimRays rays;
  std::vector<double> prof;  // grey levels along a ray
  for (int k = 0; k < kRingRays; ++k) {
    const double a = 2 * CV_PI * k / kRingRays;
    const cv::Point2d u(std::cos(a), std::sin(a));
    std::array<cv::Point2d, kKnots> knot;
    bool ok = true;
    for (int q = 0; q < kKnots && ok; ++q) {
      const double rho = rho0 + (rho1 - rho0) * q / (kKnots - 1);
      const auto px =
          plane.table_to_image({guess.x + rho * u.x, guess.y + rho * u.y, top_height_in});
      ok = px.has_value();
      if (ok) knot[static_cast<std::size_t>(q)] = *px;
    }
    if (!ok) continue;
    const double len_px = cv::norm(knot[kKnots - 1] - knot[0]);
    const int n = std::clamp(static_cast<int>(len_px / 0.35), 8, 200);
    prof.assign(static_cast<std::size_t>(n), 0.0);
    bool inside = true;
    for (int i = 0; i < n && inside; ++i) {
      const double f = static_cast<double>(i) / (n - 1) * (kKnots - 1);
      const int seg = std::min(kKnots - 2, static_cast<int>(f));
      const double g = f - seg;
      const cv::Point2d p = knot[static_cast<std::size_t>(seg)] * (1 - g) +
                            knot[static_cast<std::size_t>(seg) + 1] * g;
      prof[static_cast<std::size_t>(i)] = bilinear(gray, p.x, p.y);
      inside = prof[static_cast<std::size_t>(i)] >= 0;
    }
    if (!inside) continue;
    const double step = (rho1 - rho0) / (n - 1);
    // Derivative over ±1 sample; search the rim between 0.82 R and 1.2 R.
    int best = -1;
    double best_d = 0;
    for (int i = 1; i + 1 < n; ++i) {
      const double rho = rho0 + i * step;
      if (rho < lo || rho > hi) continue;
      const double d =
          prof[static_cast<std::size_t>(i + 1)] - prof[static_cast<std::size_t>(i - 1)];
      if (d < best_d) {
        best_d = d;
        best = i;
      }
    }
    if (best < 2 || best + 2 >= n) continue;
    const double dm =
        prof[static_cast<std::size_t>(best)] - prof[static_cast<std::size_t>(best - 2)];
    const double d0 = best_d;
    const double dp =
        prof[static_cast<std::size_t>(best + 2)] - prof[static_cast<std::size_t>(best)];
    const double den = dm - 2 * d0 + dp;
    const double off = std::abs(den) > 1e-9 ? std::clamp(0.5 * (dm - dp) / den, -0.5, 0.5) : 0.0;
    const double rho = rho0 + (best + off) * step;
    rays.at.push_back(guess + rho * u);
    rays.ray.push_back(k);
    rays.in_per_px.push_back((rho1 - rho0) / std::max(1e-6, len_px));
    const int in_i = std::max(0, best - static_cast<int>(0.08 * R / step) - 1);
    const int out_i = std::min(n - 1, best + static_cast<int>(0.08 * R / step) + 1);
    rays.inside_level.push_back(prof[static_cast<std::size_t>(in_i)]);
    rays.outside_level.push_back(prof[static_cast<std::size_t>(out_i)]);
  }
  // Beside a corner marker the rim may lie on the marker's white paper, where it has no edge:
  // a ray there takes whatever weak step it meets, and such points kept the rim of table 16's
  // base 9 (on the far-left marker's paper) just over the tight fit's RMS. A ray whose step
  // from the rim (just inside its edge) to what lies outside is under 0.3 of the median ray's
  // is left out there. Everywhere, it named fewer: a far ring's blurred rim needs its weak rays
  // (`duels bench coverage --target ring2`, flat cameras: 2-4 fewer of 512 at 0.2-0.35).
  if (beside_paper && rays.at.size() >= 8) {
    std::vector<double> step(rays.at.size());
    for (std::size_t i = 0; i < step.size(); ++i)
      step[i] = rays.inside_level[i] - rays.outside_level[i];
    std::vector<double> sorted = step;
    const auto mid = sorted.begin() + static_cast<long>(sorted.size() / 2);
    std::nth_element(sorted.begin(), mid, sorted.end());
    const double min_step = 0.3 * *mid;
    const auto compact = [&](auto& field) {
      std::size_t w = 0;
      for (std::size_t i = 0; i < step.size(); ++i)
        if (step[i] >= min_step) field[w++] = field[i];
      field.resize(w);
    };
    compact(rays.at);
    compact(rays.ray);
    compact(rays.in_per_px);
    compact(rays.inside_level);
    compact(rays.outside_level);
  }
  if (static_cast<int>(rays.at.size()) < kRingRays / 2) return std::nullopt;
  // A fit that is not tight is tried again with the known radius first (solve_rim): taken
  // when it is tight, or when the first found nothing. `reached` is where the fit taken went
  // (or, when neither was taken, the first that got so far).
  constexpr double kNone = std::numeric_limits<double>::quiet_NaN();
  cv::Point2d went(kNone, kNone);
  auto fit = solve_rim(plane, rays, guess, R, top_height_in, wide, /*known_first=*/false, &went);
  if (!fit || !tight_rim_fit(*fit)) {
    cv::Point2d known_went(kNone, kNone);
    auto known =
        solve_rim(plane, rays, guess, R, top_height_in, wide, /*known_first=*/true, &known_went);
    if (known && (!fit || tight_rim_fit(*known))) {
      fit = std::move(known);
      went = known_went;
    } else if (!fit && std::isnan(went.x)) {
      went = known_went;
    }
  }
  if (reached && !std::isnan(went.x)) *reached = went;
  return fit;
}

namespace {

std::optional<RimFit> solve_rim(const calib::TablePlane& plane, const RimRays& rays,
                                cv::Point2d guess, double R, double top_height_in, bool wide,
                                bool known_first, cv::Point2d* reached) {
  const auto& rim = rays.at;
  std::vector<char> keep(rim.size(), 1);
  cv::Point2d c = guess;
  double r = R;
  double free_r = 0;   // the radius fitted freely (last free pass)
  double bias_px = 0;  // the blur's outward shift of the rim (last pass)
  // The model's radius at rim point i.
  const auto radius_at = [&](std::size_t i) { return r + bias_px * rays.in_per_px[i]; };
  std::vector<cv::Point2d> pts;  // the rim points kept, and their pixel sizes
  std::vector<double> sizes;
  std::vector<double> res(rim.size());  // each point's distance from the model
  std::vector<double> sorted;
  for (int pass = 0; pass < 5; ++pass) {
    pts.clear();
    sizes.clear();
    for (std::size_t i = 0; i < rim.size(); ++i) {
      if (!keep[i]) continue;
      pts.push_back(rim[i]);
      sizes.push_back(rays.in_per_px[i]);
    }
    if (static_cast<int>(pts.size()) < kRingRays / 2) return std::nullopt;
    const bool free = !known_first && pass < 3;
    if (known_first && pass == 2) {  // the free radius, measured on the points kept so far
      cv::Point2d fc = c;
      double fr = R;
      if (fit_circle(pts, fc, fr, 0.0)) free_r = fr;
    }
    if (!fit_circle(pts, c, r, free ? 0.0 : R * 0.985)) return std::nullopt;
    if (free) free_r = r;
    if (free && (r < 0.85 * R || r > 1.1 * R)) {
      r = R * 0.985;
      if (!fit_circle(pts, c, r, r)) return std::nullopt;
    }
    if (!free && (!known_first || pass >= 3)) {
      // The known radius, seen through the blur (from the plain circle's centre).
      cv::Point2d cb = c;
      double b = 0;
      if (fit_blurred_circle(pts, sizes, r, cb, b)) {
        c = cb;
        bias_px = b;
      }
    }
    for (std::size_t i = 0; i < rim.size(); ++i)
      res[i] = std::abs(cv::norm(rim[i] - c) - radius_at(i));
    sorted.assign(res.begin(), res.end());
    std::nth_element(sorted.begin(), sorted.begin() + static_cast<long>(sorted.size() / 2),
                     sorted.end());
    const double tol = std::max(0.03 * R, 3.0 * sorted[sorted.size() / 2]);
    for (std::size_t i = 0; i < rim.size(); ++i)
      keep[i] = res[i] <= std::min(tol, 0.12 * R);
  }
  RimFit s;
  s.centre_in = c;
  s.radius_in = R;
  double ss = 0;
  double in_sum = 0;
  double out_sum = 0;
  double size_sum = 0;
  std::vector<int> ray_ok(kRingRays, 0);
  for (std::size_t i = 0; i < rim.size(); ++i) {
    if (!keep[i]) continue;
    const double e = cv::norm(rim[i] - c) - radius_at(i);
    ss += e * e;
    size_sum += rays.in_per_px[i];
    ++s.rim_points;
    in_sum += rays.inside_level[i];
    out_sum += rays.outside_level[i];
    ray_ok[static_cast<std::size_t>(rays.ray[i])] = 1;
  }
  if (s.rim_points < kRingRays / 2) return std::nullopt;
  s.fit_rms_in = std::sqrt(ss / s.rim_points);
  s.contrast = (in_sum - out_sum) / s.rim_points;
  // The size of a pixel here, inches (RMS over the ellipse's two axes): far from the camera a
  // sub-pixel rim fit is still several hundredths of an inch.
  double px_in = 0;
  {
    const auto x0 = plane.table_to_image({c.x - R, c.y, top_height_in});
    const auto x1 = plane.table_to_image({c.x + R, c.y, top_height_in});
    const auto y0 = plane.table_to_image({c.x, c.y - R, top_height_in});
    const auto y1 = plane.table_to_image({c.x, c.y + R, top_height_in});
    if (x0 && x1 && y0 && y1) {
      const double ax = 2 * R / std::max(1e-6, cv::norm(*x1 - *x0));
      const double ay = 2 * R / std::max(1e-6, cv::norm(*y1 - *y0));
      px_in = std::sqrt((ax * ax + ay * ay) / 2);
    }
  }
  const double loose_rms = std::max(0.06 * R, 0.6 * px_in);
  // A rim fitted loosely (RMS over 0.045 R or 0.3 px, up to 0.06 R or 0.6 px: a white rim
  // narrowed by a black cell inside it and blurred, or partly hidden, or far away) is kept only
  // when it looks like a whole ring: checked by the caller (RingFinder::measure).
  if (reached) *reached = c;
  if (s.contrast < 12 || s.fit_rms_in > loose_rms || cv::norm(c - guess) > (wide ? 0.6 : 0.3) * R)
    return std::nullopt;
  s.free_radius_in = free_r - bias_px * size_sum / s.rim_points;
  s.edge_bias_px = bias_px;
  s.pixel_in = px_in;
  s.ray_ok = std::move(ray_ok);
  return s;
}

}  // namespace

double tight_rim_rms(const RimFit& fit) {
  return std::max(0.045 * fit.radius_in, 0.3 * fit.pixel_in);
}

bool tight_rim_fit(const RimFit& fit) {
  return fit.fit_rms_in <= tight_rim_rms(fit);
}

bool whole_rim_fit(const RimFit& fit, int min_rays, double min_free_radius) {
  const double tol = 0.3 * fit.pixel_in;
  return fit.rim_points >= min_rays &&
         fit.free_radius_in >= min_free_radius * fit.radius_in - tol &&
         fit.free_radius_in <= 1.045 * fit.radius_in + tol;
}

namespace {

// A two-band ring's cells read through the blur. Along a sample's radius the picture is the
// blurred sum of five segments: the unprinted inside (to 0.45 R), the inner band, the outer
// band, the white rim (0.8–1 R) and what lies beyond it. A far ring's cells are 1–2 pixels
// deep, so a cell sampled in its middle reads its neighbours too: a black outer cell between
// the white rim and a white inner cell reads light grey. Twelve samples along each radius are
// fitted with the five levels (least squares, each segment's edges blurred by a Gaussian), and
// the two bands' levels replace their samples. The blur's sigma is the same round the ring:
// the one of 0.6–1.8 px that fits the ring best. The one-band ring is read the same way, its
// band the mean of the two halves (measured: `duels bench coverage --target ring`, 20 more of
// 3200 named over tables 1-8, 17-48, none wrongly, for about 0.5 ms a frame).
constexpr std::array<double, 12> kRadialAt = {0.30, 0.40, 0.475, 0.525, 0.575, 0.65,
                                              0.70, 0.75, 0.85,  0.90,  0.95,  1.10};
constexpr std::array<double, 6> kSegmentEdge = {
    -10, kRingCodeInner, kRingBandSplit, kRingRimInner, 1.0, 10};
constexpr int kSegments = 5;
constexpr int kRadial = static_cast<int>(kRadialAt.size());

struct RadialFit {
  std::array<std::array<double, kSegments>, kRadial> K{};  // sample k's share of segment g
  std::array<std::array<double, kRadial>, kSegments> M{};  // (KᵀK + λI)⁻¹ Kᵀ
};

// The fit for a blur of `sigma_r` (in base radii), cached by steps of 1 %.
const RadialFit& radial_fit(double sigma_r) {
  thread_local std::unordered_map<int, RadialFit> cache;
  const int key = static_cast<int>(std::lround(std::log(sigma_r) * 100));
  if (const auto it = cache.find(key); it != cache.end()) return it->second;
  const double q = std::exp(key / 100.0) * std::sqrt(2.0);
  RadialFit f;
  cv::Matx<double, kSegments, kSegments> A = cv::Matx<double, kSegments, kSegments>::eye() * 0.02;
  for (std::size_t k = 0; k < kRadialAt.size(); ++k) {
    const auto below = [&](double e) { return 0.5 * std::erfc(-(e - kRadialAt[k]) / q); };
    for (std::size_t g = 0; g < kSegments; ++g)
      f.K[k][g] = below(kSegmentEdge[g + 1]) - below(kSegmentEdge[g]);
    for (int g = 0; g < kSegments; ++g) {
      for (int h = 0; h < kSegments; ++h)
        A(g, h) += f.K[k][static_cast<std::size_t>(g)] * f.K[k][static_cast<std::size_t>(h)];
    }
  }
  const cv::Matx<double, kSegments, kSegments> Ai = A.inv(cv::DECOMP_CHOLESKY);
  for (int g = 0; g < kSegments; ++g) {
    for (std::size_t k = 0; k < kRadialAt.size(); ++k) {
      double v = 0;
      for (int h = 0; h < kSegments; ++h)
        v += Ai(g, h) * f.K[k][static_cast<std::size_t>(h)];
      f.M[static_cast<std::size_t>(g)][k] = v;
    }
  }
  return cache.emplace(key, f).first->second;
}

// `inner_px` / `rim_px`: each sample's point at 0.5 R and 0.9 R in the picture; `level`: the
// outer band's samples, then the inner band's (`bands` 1: the one band's), replaced where the
// radius lies in the picture; `rim`, when given: the white rim's sampled levels, replaced by its
// fitted level where the radius lies in the picture and the rim was sampled (not −1).
void unmix_bands(const cv::Mat& gray, const std::vector<std::optional<cv::Point2d>>& inner_px,
                 const std::vector<std::optional<cv::Point2d>>& rim_px, int bands,
                 std::vector<double>& level, std::vector<double>* rim) {
  const std::size_t m = inner_px.size();
  std::vector<std::array<double, kRadial>> ys(m);
  std::vector<double> px_per_r(m, 0);  // 0: not in the picture
  for (std::size_t j = 0; j < m; ++j) {
    if (!inner_px[j] || !rim_px[j]) continue;
    const cv::Point2d d = (*rim_px[j] - *inner_px[j]) / 0.4;  // the radius, pixels per R
    bool inside = true;
    for (std::size_t k = 0; k < kRadialAt.size() && inside; ++k) {
      const cv::Point2d q = *inner_px[j] + (kRadialAt[k] - 0.5) * d;
      ys[j][k] = bilinear(gray, q.x, q.y);
      inside = ys[j][k] >= 0;
    }
    if (inside) px_per_r[j] = cv::norm(d);
  }
  const auto solve = [&](std::size_t j, double sigma_px, std::array<double, kSegments>& x) {
    const RadialFit& f = radial_fit(sigma_px / px_per_r[j]);
    for (std::size_t g = 0; g < kSegments; ++g) {
      x[g] = 0;
      for (std::size_t k = 0; k < kRadialAt.size(); ++k)
        x[g] += f.M[g][k] * ys[j][k];
    }
    double residual = 0;
    for (std::size_t k = 0; k < kRadialAt.size(); ++k) {
      double e = ys[j][k];
      for (std::size_t g = 0; g < kSegments; ++g)
        e -= f.K[k][g] * x[g];
      residual += e * e;
    }
    return residual;
  };
  double sigma = 1.0;
  double best = std::numeric_limits<double>::infinity();
  std::array<double, kSegments> x{};
  for (double sg : {0.6, 0.9, 1.2, 1.5, 1.8}) {
    double residual = 0;
    for (std::size_t j = 0; j < m; j += 6) {
      if (px_per_r[j] > 0) residual += solve(j, sg, x);
    }
    if (residual < best) {
      best = residual;
      sigma = sg;
    }
  }
  for (std::size_t j = 0; j < m; ++j) {
    if (px_per_r[j] <= 0) continue;
    solve(j, sigma, x);
    if (rim && (*rim)[j] >= 0) (*rim)[j] = std::clamp(x[3], 0.0, 255.0);
    if (bands == 1) {  // both halves of its cells
      level[j] = std::clamp((x[1] + x[2]) / 2, 0.0, 255.0);
      continue;
    }
    level[j] = std::clamp(x[2], 0.0, 255.0);      // outer band
    level[m + j] = std::clamp(x[1], 0.0, 255.0);  // inner band
  }
}

}  // namespace

cv::Mat ring_chroma(const cv::Mat& bgr) {
  if (bgr.channels() != 3) return cv::Mat::zeros(bgr.size(), CV_8U);
  std::array<cv::Mat, 3> ch;
  cv::split(bgr, ch.data());
  cv::Mat hi = cv::max(cv::max(ch[0], ch[1]), ch[2]);
  cv::Mat lo = cv::min(cv::min(ch[0], ch[1]), ch[2]);
  return hi - lo;
}

std::optional<RingSighting> RingFinder::measure(const cv::Mat& gray, cv::Point2d guess, bool wide,
                                                cv::Point2d* reached, int loose_rays,
                                                bool beside_paper, const cv::Mat& chroma) const {
  const auto rim = fit_base_rim(plane_, gray, guess, radius_, height_, wide, reached, beside_paper);
  if (!rim) return std::nullopt;
  const double R = radius_;
  const cv::Point2d c = rim->centre_in;
  const std::vector<int>& ray_ok = rim->ray_ok;
  RingSighting s;
  s.centre_in = c;
  s.radius_in = R;
  s.fit_rms_in = rim->fit_rms_in;
  s.rim_points = rim->rim_points;
  s.contrast = rim->contrast;
  // The code band, sampled at three radii; white from the rim, black from the darkest code.
  // A two-band ring: each band sampled at three radii about its middle.
  constexpr int m = kRingCodeSamples;
  const int bands = ring_bands(style_);
  const std::array<std::array<double, 3>, 2> radii =
      bands == 2
          ? std::array<std::array<double, 3>, 2>{{{0.675, 0.7125, 0.75}, {0.5, 0.5375, 0.575}}}
          : std::array<std::array<double, 3>, 2>{{{0.6, 0.65, 0.7}, {0, 0, 0}}};
  const std::array<double, 2> band_mid = {bands == 2 ? 0.7125 : 0.65, 0.5375};
  std::vector<double> level(static_cast<std::size_t>(m * bands), -1);
  std::vector<double> rim_level(m, -1);
  // How coloured each code sample and rim sample is (the most of its points), when told.
  const bool colour = !chroma.empty();
  std::vector<double> tint(level.size(), 0);
  std::vector<double> rim_tint(m, 0);
  constexpr int kRimGroup = 4;
  std::vector<double> rim_px(m / kRimGroup, 0);  // the rim's width in the picture, pixels
  std::vector<double> white;
  std::vector<std::optional<cv::Point2d>> inner_px(m), rim_mid_px(m);
  for (int j = 0; j < m; ++j) {
    const double a = 2 * CV_PI * (j + 0.5) / m;
    const cv::Point2d u(std::cos(a), std::sin(a));
    for (int band = 0; band < bands; ++band) {
      double sum = 0;
      int cnt = 0;
      for (double f : radii[static_cast<std::size_t>(band)]) {
        const auto px = plane_.table_to_image({c.x + f * R * u.x, c.y + f * R * u.y, height_});
        if (band == 1 && f == radii[1][0]) inner_px[static_cast<std::size_t>(j)] = px;
        if (!px) continue;
        const double v = bilinear(gray, px->x, px->y);
        if (v < 0) continue;
        sum += v;
        ++cnt;
        if (colour) {
          auto& t = tint[static_cast<std::size_t>(band * m + j)];
          t = std::max(t, bilinear(chroma, px->x, px->y));
        }
      }
      if (cnt > 0) level[static_cast<std::size_t>(band * m + j)] = sum / cnt;
    }
    if (bands == 1)  // (a two-band ring's is its inner band's first sample)
      inner_px[static_cast<std::size_t>(j)] =
          plane_.table_to_image({c.x + 0.5 * R * u.x, c.y + 0.5 * R * u.y, height_});
    const auto pw = plane_.table_to_image({c.x + 0.9 * R * u.x, c.y + 0.9 * R * u.y, height_});
    rim_mid_px[static_cast<std::size_t>(j)] = pw;
    if (j % kRimGroup == 0) {  // the rim's width, once for each group of samples
      const double g = 2 * CV_PI * (j + kRimGroup / 2.0) / m;
      const cv::Point2d ug(std::cos(g), std::sin(g));
      const auto p_in =
          plane_.table_to_image({c.x + 0.8 * R * ug.x, c.y + 0.8 * R * ug.y, height_});
      const auto p_out = plane_.table_to_image({c.x + R * ug.x, c.y + R * ug.y, height_});
      if (p_in && p_out) rim_px[static_cast<std::size_t>(j / kRimGroup)] = cv::norm(*p_out - *p_in);
    }
    if (pw) {
      const double v = bilinear(gray, pw->x, pw->y);
      rim_level[static_cast<std::size_t>(j)] = v;
      if (v >= 0) white.push_back(v);
      if (colour)
        rim_tint[static_cast<std::size_t>(j)] = std::max(0.0, bilinear(chroma, pw->x, pw->y));
    }
  }
  // The rim is read through the blur too (the fit's rim level): across the table's depth a
  // far ring's white rim is under a pixel deep, and blurred between a black cell and the base's
  // dark side its middle reads about the middle grey, as if a figure stood in front of it, which
  // distrusted nearly every code sample of a ring seen whole (below). Measured (`duels bench
  // coverage --target ring2`): 1255 of 1280 named (1253), 2527 of 2560 on tables 17-48 (2524),
  // none wrongly. The one-band ring, whose codes lie closer, so named 92 more of 1280 but put
  // one base more than 1" off in a frame: it is read as before.
  unmix_bands(gray, inner_px, rim_mid_px, bands, level, bands == 2 ? &rim_level : nullptr);
  if (white.empty()) return std::nullopt;
  std::sort(white.begin(), white.end());
  const double w_level = white[white.size() * 3 / 4];
  s.white = w_level;
  std::vector<double> lv;
  for (double v : level) {
    if (v >= 0) lv.push_back(v);
  }
  if (lv.empty()) return std::nullopt;
  std::sort(lv.begin(), lv.end());
  const double b_level = lv[lv.size() / 24];  // under half a sector: the blackest sector
  const double half = (w_level - b_level) / 2;
  s.code.assign(level.size(), 0.f);
  s.weight.assign(level.size(), 0.f);
  // The loose fit must have most of its rim (34 of 48 rays), the base's own size when fitted
  // freely, and black in its code band (measured on the bench's first scenario: every true
  // ring passed, and none of the false ones — corners of the table's markers, mostly — that
  // the tight fit did not also pass). From a half ring's candidate 28 rays will do: far rings
  // half hidden by a neighbour's figure fitted loosely with 31-33. Measured (`duels bench
  // coverage --target ring2`) with the proportional weights below: 1 more of 1280 named, none
  // wrongly (28 rays alone located one more ring but named none).
  //
  // A two-band ring's loose fit may look a little small when fitted freely: its figure stands
  // on the back of the base, and where its foot meets the rim the strongest step outward is
  // the white code band against the figure, inside the rim. Far rings so fitted 0.89-0.97 R
  // (table 14 of the flat 1080p camera, 81 % of its ring in view, located in some frames only,
  // as it still is). Down to 0.93 R (from 0.975 R), with a loose fit tried again from where it
  // went (fit_candidates), measured (`duels bench coverage --target ring2`): 1257 of 1280 named
  // (1255; the flat 720p camera's far third 71 of 75, 69: on table 15 base 11 is fitted from
  // its first candidate and reads its code clearly, and base 6 is then named by exclusion),
  // 2529 of 2560 over tables 17-48 (2527), none wrongly, nor over 30 frames. 0.90 R named the
  // same. The one-band ring so named 2 fewer of 1280: it keeps kWholeRimMinFreeRadius.
  constexpr double kTwoBandMinFreeRadius = 0.93;
  s.loose = !tight_rim_fit(*rim);
  if (s.loose && (!whole_rim_fit(*rim, loose_rays,
                                 bands == 2 ? kTwoBandMinFreeRadius : kWholeRimMinFreeRadius) ||
                  b_level >= 0.45 * w_level))
    return std::nullopt;
  if (half < 8) return s;  // no readable code this frame, but the rim is there
  const double mid = (w_level + b_level) / 2;
  // Each band's black is its own. Through the blur a far ring's outer band, one or two pixels
  // deep between the white rim and the inner band, reads its black cells light grey (about a
  // third of the way from the inner band's black to the white): judged against the darkest
  // sample of the ring they were barely black while its white cells were fully white, which
  // favoured the codes with more white cells. A two-band ring's band whose blackest sector (its
  // darkest twelfth) is lighter than the ring's blackest is read between that and the white,
  // unless it spans under 0.3 of the ring's range (a band without black cells reads noise
  // then); the one-band ring's black is the ring's. Measured (`duels bench coverage --target
  // ring2`): 5 more of 1280 named over tables 1-16 (the flat 720p camera's far third 64 → 67
  // of 75), 8 more of 2560 over tables 17-48, none wrongly. Each band's own white named fewer
  // and wrongly (its lightest twelfth: 1249 of 1280, 1 base more than 1" off).
  std::array<double, 2> band_grey = {mid, mid};
  std::array<double, 2> band_half = {half, half};
  for (int band = 0; bands == 2 && band < bands; ++band) {
    std::vector<double> own;
    for (int j = 0; j < m; ++j) {
      const double v = level[static_cast<std::size_t>(band * m + j)];
      if (v >= 0) own.push_back(v);
    }
    if (own.size() < static_cast<std::size_t>(m / 2)) continue;
    std::nth_element(own.begin(), own.begin() + static_cast<long>(own.size() / 12), own.end());
    const double black = own[own.size() / 12];
    if (black > b_level && w_level - black >= 0.3 * (w_level - b_level)) {
      band_grey[static_cast<std::size_t>(band)] = (w_level + black) / 2;
      band_half[static_cast<std::size_t>(band)] = (w_level - black) / 2;
    }
  }
  // How white the rim is round the ring (1 = as white as the rim at its best where it looks
  // alike, 0 = dark). A far ring's rim is 1–2 pixels wide across the table's depth and twice
  // that along it, and the blur mixes it with the code cell inside it: a narrow rim, or one
  // beside a black cell, reads greyer, which is not a figure standing in front of it. So each
  // sample is judged against the rim where it is about as wide (within a fifth) and has a cell
  // of the same shade inside it, but never against less than 0.4 of the way from the middle
  // grey to the rim's best white (a figure is darker than that).
  std::vector<double> rim_white(m, 0.0);
  std::vector<double> alike;
  constexpr int kGroups = m / kRimGroup;
  for (int grp = 0; grp < kGroups; ++grp) {
    const double wg = rim_px[static_cast<std::size_t>(grp)];
    for (const bool dark : {false, true}) {
      const auto beside = [&](int k) { return (level[static_cast<std::size_t>(k)] < mid) == dark; };
      double ref = w_level;
      if (wg > 0) {
        alike.clear();
        for (int h = 0; h < kGroups; ++h) {
          const double wh = rim_px[static_cast<std::size_t>(h)];
          if (!(wh > 0 && wh <= 1.2 * wg && wg <= 1.2 * wh)) continue;
          for (int k = h * kRimGroup; k < (h + 1) * kRimGroup; ++k) {
            const double vk = rim_level[static_cast<std::size_t>(k)];
            if (beside(k) && vk >= 0) alike.push_back(vk);
          }
        }
        if (alike.size() >= static_cast<std::size_t>(m / 16)) {
          std::nth_element(alike.begin(), alike.begin() + alike.size() * 3 / 4, alike.end());
          ref = std::clamp(alike[alike.size() * 3 / 4], mid + 0.4 * (w_level - mid), w_level);
        }
      }
      for (int j = grp * kRimGroup; j < (grp + 1) * kRimGroup; ++j) {
        const double v = rim_level[static_cast<std::size_t>(j)];
        if (beside(j) && v >= 0)
          rim_white[static_cast<std::size_t>(j)] =
              std::clamp((v - mid) / (ref - mid) * 1.25 - 0.25, 0.0, 1.0);
      }
    }
  }
  // Colour covers the print: the ring is black on white paper, and a die (yellow, blue, green,
  // red) or a figure's paint over it shows colour. A code sample or rim sample more coloured than
  // the rim's median (the light's own tint) by kOccluderChroma is hidden: the rim there is not
  // white, the cell there is not read. Measured (issue 51, `duels bench coverage --target ring2
  // --seeds 8 --dice 3-6` and the rules below together): see docs/base-targets.md.
  constexpr double kOccluderChroma = 40;
  double tint_base = 0;
  if (colour) {
    std::vector<double> t;
    for (int j = 0; j < m; ++j) {
      if (rim_level[static_cast<std::size_t>(j)] >= 0)
        t.push_back(rim_tint[static_cast<std::size_t>(j)]);
    }
    if (!t.empty()) {
      std::nth_element(t.begin(), t.begin() + static_cast<long>(t.size() / 2), t.end());
      tint_base = t[t.size() / 2];
    }
    for (int j = 0; j < m; ++j) {
      if (rim_tint[static_cast<std::size_t>(j)] > tint_base + kOccluderChroma)
        rim_white[static_cast<std::size_t>(j)] = 0;
    }
  }
  // Whether something coloured lies on the code band (a die).
  bool coloured_band = false;
  for (std::size_t k = 0; colour && k < level.size(); ++k)
    coloured_band |= level[k] >= 0 && tint[k] > tint_base + kOccluderChroma;
  const auto rim_white_at = [&](double angle) {
    const double t = angle / (2 * CV_PI) * m - 0.5;
    const int k = static_cast<int>(std::lround(std::floor(t)));
    const double g = t - k;
    const auto at = [&](int i) { return rim_white[static_cast<std::size_t>(((i % m) + m) % m)]; };
    return (1 - g) * at(k) + g * at(k + 1);
  };
  // Whatever stands on or beside the base (its figure, a neighbour's figure) hides the code
  // along an upright strip of the picture, which on the base's top is the line through the
  // sample away from the camera's foot. The code sample is trusted only when the rim is white
  // where that line crosses it on both sides: a strip that covers the code covers the rim
  // behind it (a figure standing on the code band hides the code beyond its foot but not the
  // rim in front of it), or rises from a foot standing on the rim in front of it. This throws
  // away some good samples (in front of a figure standing on the far rim) but keeps the dark
  // body of a figure from being read as black sectors, which named bases wrongly.
  const cv::Point3d cam = plane_.camera_position_in();
  // A loosely fitted ring may be misplaced by a tenth of an inch, and its code samples then
  // fall beside their cells: its readings count less (by the square of how loose it is). A far
  // ring misplaced so once read as the code of a ring hidden at the table's far edge. A
  // two-band ring's readings count less in proportion to how loose it is: its code stays
  // apart within any half ring, and half-hidden packed rings, always fitted loosely, stayed
  // short of the evidence to be named. Measured (`duels bench coverage`): two-band rings, 1
  // more of 1280 named over tables 1-16 alone; with half rings' loose fits keeping 28 rays
  // (above), 2 more of 1280 and 2 more of 2560 over tables 17-48, none wrongly. The one-band
  // ring so named 1 more of 640 but put 2 bases more than 1" off.
  const double loose_w =
      s.loose ? std::pow(tight_rim_rms(*rim) / s.fit_rms_in, bands == 2 ? 1.0 : 2.0) : 1.0;
  for (int bj = 0; bj < m * bands; ++bj) {
    const int j = bj % m;
    const double f = band_mid[static_cast<std::size_t>(bj / m)];
    if (level[static_cast<std::size_t>(bj)] < 0) continue;
    // Code samples where the rim was hidden are not trusted (the figure stands there).
    const int ray = static_cast<int>(std::lround((j + 0.5) * kRingRays / m)) % kRingRays;
    const int ray2 = static_cast<int>((j + 0.5) * kRingRays / m) % kRingRays;
    const double vis =
        0.5 * (ray_ok[static_cast<std::size_t>(ray)] + ray_ok[static_cast<std::size_t>(ray2)]);
    const auto band = static_cast<std::size_t>(bj / m);
    s.code[static_cast<std::size_t>(bj)] = static_cast<float>(std::clamp(
        (band_grey[band] - level[static_cast<std::size_t>(bj)]) / band_half[band], -1.5, 1.5));
    // …nor where the rim itself is not white: something stands in front of the ring there.
    const double a = 2 * CV_PI * (j + 0.5) / m;
    const cv::Point2d p(f * R * std::cos(a), f * R * std::sin(a));  // from the centre
    cv::Point2d d(c.x + p.x - cam.x, c.y + p.y - cam.y);
    double clear = rim_white[static_cast<std::size_t>(j)];
    const double dn = std::hypot(d.x, d.y);
    if (dn > 1e-9) {
      d /= dn;
      // |p + s·d| = 0.9 R: s = −p·d ± sqrt((p·d)² − |p|² + (0.9 R)²).
      const double pd = p.dot(d);
      const double disc = pd * pd - p.dot(p) + 0.81 * R * R;
      if (disc > 0) {
        // A figure is darker than the white paper, so it can turn a white sector black but
        // not a black one white: white readings need only the rim in front of them clear.
        // Not so where dice lie on the ring (seen by the colour on its code band: a pool mixes
        // white and black dice with coloured ones): a white die turns a black cell white. There
        // white readings need both sides clear too. Measured (issue 51, `duels bench coverage
        // --target ring2 --seeds 4 --only "720p 70deg" --dice 3-6`): 7 bases named wrongly over
        // 4 tables without it, none with it; needing both sides on every ring swapped two bases
        // of table 11 of the 720p 75° camera without dice.
        const bool reads_white = !coloured_band && level[static_cast<std::size_t>(bj)] > mid;
        for (double sgn : {-1.0, 1.0}) {
          if (reads_white && sgn > 0) continue;
          const cv::Point2d q = p + (-pd + sgn * std::sqrt(disc)) * d;
          double qa = std::atan2(q.y, q.x);
          if (qa < 0) qa += 2 * CV_PI;
          clear = std::min(clear, rim_white_at(qa));
        }
      }
    }
    if (colour && tint[static_cast<std::size_t>(bj)] > tint_base + kOccluderChroma) clear = 0;
    s.weight[static_cast<std::size_t>(bj)] =
        static_cast<float>(vis * clear * std::min(1.0, half / 40) * loose_w);
  }
  return s;
}

bool inside_any(const std::vector<std::vector<cv::Point2f>>& regions, cv::Point2d at,
                double reach_in) {
  const cv::Point2f p(static_cast<float>(at.x), static_cast<float>(at.y));
  return std::any_of(regions.begin(), regions.end(), [&](const std::vector<cv::Point2f>& poly) {
    // Signed distance (positive inside) only when a reach asks for it.
    return reach_in > 0 ? cv::pointPolygonTest(poly, p, true) > -reach_in
                        : cv::pointPolygonTest(poly, p, false) >= 0;
  });
}

std::vector<RingFinder::Candidate> RingFinder::search_candidates(
    const cv::Mat& gray, int expected, const std::vector<std::vector<cv::Point2f>>& exclude,
    std::vector<Candidate>& lopsided) const {
  const auto excluded = [&](cv::Point2d at) { return inside_any(exclude, at); };
  std::vector<Candidate> cands;
  const cv::Mat top = top_.look(gray);
  // Matched filter of the rim: the white band just inside the rim minus the band just
  // outside it (zero mean, so flat felt scores nothing); then its first angular harmonic,
  // for half rings (below). One Fourier transform of the view serves the three.
  const std::vector<cv::Mat> responses = filters_.correlate(top);
  const cv::Mat& score = responses[0];
  // Local maxima over 0.8 of a base radius. Over a whole radius a ring beside a brighter
  // response (a neighbour, a figure's edge) lost its peak even when that response was no
  // peak itself (it lay within a radius of a stronger one), so no candidate was put on the
  // ring. Measured: 8 more of 1280 two-band rings named, still none wrongly
  // (`duels bench coverage --target ring2 --seeds 16`); 0.6 and 0.7 named one more but
  // put one base more than 1" off. Closer candidates are measured once: fit_candidates
  // skips those an accepted ring explains.
  //
  // A response where no base's centre can be (off the table, on the table's corner markers)
  // hides no peak: a base standing 0.3" from a corner marker, its rim beside the marker's
  // white paper, lost its candidate to the paper's edge, which is then left out. Such a peak
  // (one a higher response there would have hidden) must be a peak within 2 pixels as well,
  // not the slope up to that response, and its ring fitted tightly; these candidates are
  // measured after the others, at most 8 of them (as beside a marker: fit_candidates, and the
  // half rings below). Measured (`duels bench coverage --target
  // ring2 --seeds 16`): 5 more of 1280 named, 0 bases more than 1" off; without the two
  // conditions, false rings along the markers' paper took names (3 bases more than 1" off on
  // one camera) and crowded the far rings out of the candidates measured. Tables 17-48: no
  // change.
  cv::Mat dil;      // the peaks' test, without what lies where no centre can be
  cv::Mat dil_all;  // the same with it
  cv::Mat dil_near;
  const int nms = std::max(1, static_cast<int>(0.8 * radius_ * top_.px_per_in));
  const cv::Mat window =
      cv::getStructuringElement(cv::MORPH_RECT, cv::Size(2 * nms + 1, 2 * nms + 1));
  cv::dilate(top_.mask_where_no_centre(score, exclude), dil, window);
  cv::dilate(score, dil_all, window);
  cv::dilate(score, dil_near, cv::getStructuringElement(cv::MORPH_RECT, cv::Size(5, 5)));
  // Peaks on the table only (a base's centre is on it).
  const int lo = top_.first_on_table();
  for (int v = lo; v < score.rows - lo; ++v) {
    const float* sp = score.ptr<float>(v);
    const float* dp = dil.ptr<float>(v);
    const float* ap = dil_all.ptr<float>(v);
    const float* np = dil_near.ptr<float>(v);
    for (int u = lo; u < score.cols - lo; ++u) {
      if (sp[u] >= 20.f && sp[u] >= dp[u] && (sp[u] >= ap[u] || sp[u] >= np[u])) {
        // Sub-pixel peak (parabola through the neighbours in each direction).
        const auto peak = [](double m, double c0, double p) {
          const double den = m - 2 * c0 + p;
          return std::abs(den) > 1e-9 ? std::clamp(0.5 * (m - p) / den, -0.5, 0.5) : 0.0;
        };
        const double du = peak(sp[u - 1], sp[u], sp[u + 1]);
        const double dv = peak(score.at<float>(v - 1, u), sp[u], score.at<float>(v + 1, u));
        cands.push_back({.s = sp[u],
                         .at = top_.to_table(u, v, du, dv),
                         .tight_only = sp[u] < ap[u],
                         .px = {u, v}});
      }
    }
  }
  std::erase_if(cands, [&](const Candidate& c) { return excluded(c.at); });
  std::sort(cands.begin(), cands.end(),
            [](const Candidate& x, const Candidate& y) { return x.s > y.s; });
  std::vector<Candidate> shadowed;
  std::copy_if(cands.begin(), cands.end(), std::back_inserter(shadowed),
               [](const Candidate& c) { return c.tight_only; });
  std::erase_if(cands, [](const Candidate& c) { return c.tight_only; });
  const auto cap = static_cast<std::size_t>(2 * std::max(1, expected) + 8);
  if (cands.size() > cap) cands.resize(cap);
  if (shadowed.size() > 8) shadowed.resize(8);
  cands.insert(cands.end(), shadowed.begin(), shadowed.end());
  // Half a ring. In a packed group a neighbour's figure often hides the near half of a ring
  // behind it; the filter above averages the whole annulus and scores such a ring at or
  // below nothing. Where the rim's contrast C(θ) holds round half the ring only, the mean
  // of C is C/2 and its first angular harmonic (the mean of C·cos θ and of C·sin θ, a
  // vector) is C/π long: mean + π/2 · |harmonic| gives the half ring C, as the whole ring
  // its mean C (and a straight edge across the annulus nothing). Peaks of that, at 25 or
  // more, not within half a radius of a candidate above (those: below), nor within 1.5 radii
  // of a corner marker's keep-out (half a ring is what the marker paper's corner looks like;
  // those: last, below), are measured after the others, at most 8. Measured (`duels bench coverage
  // --target ring2`): 6 more of 1280 named over tables 1-16, 10 more of 2560 over tables 17-48,
  // none wrongly. Their rings fitted tightly at first: loose fits swapped two half-hidden rings'
  // names, a false ring on the figures of three packed bases having taken one of them. Since rings
  // are checked against their neighbours' white (find) loose fits pass as for any
  // candidate: 3 more of 1280 named and 1 more of 2560, none wrongly. The harmonic costs two
  // inverse transforms of the view at a search frame (one frame in 5).
  cv::Mat harmonic;
  cv::magnitude(responses[1], responses[2], harmonic);
  const cv::Mat half = score + harmonic * (CV_PI / 2);
  // A lopsided ring: a candidate whose half-ring response is twice its score or more shows
  // its rim round about half its turn (a neighbour's figure hides the rest), and its rim then
  // often fits only loosely with fewer than the 34 points a whole ring's loose fit keeps. It
  // is measured once more as a half ring (28 points), after every other candidate and the
  // hints: measured so first, its loose fit took the place of a tight one that a later
  // candidate or hint would have fitted on the same ring, whose code then read worse (3
  // names lost on table 11 of the flat 720p camera). Until the next search, such a ring is
  // measured from its last centre only (a hint: find), not again as a candidate (between
  // searches a candidate is measured under a whole ring's rules): that cost 0.3-0.5 ms a
  // frame at 720p and named 1 more of 2560 (tables 17-48). Measured (`duels bench
  // coverage --target ring2 --seeds 16`): 2 more of 1280 named (the 720p 70° camera's far
  // third), none wrongly; tables 17-48 (2526 of 2560) and the one-band ring (469 of 640) as
  // before.
  for (const Candidate& c : cands) {
    if (c.tight_only || c.px.x < 0) continue;
    const float h = half.at<float>(c.px);
    if (h >= 25.f && h >= 2 * c.s)
      lopsided.push_back({.s = h, .at = c.at, .half = true, .lopsided = true});
  }
  cv::Mat half_dil;
  cv::dilate(top_.mask_where_no_centre(half, exclude), half_dil, window);
  cv::Mat half_dil_near;
  cv::dilate(half, half_dil_near, cv::getStructuringElement(cv::MORPH_RECT, cv::Size(5, 5)));
  std::vector<Candidate> halves;
  std::vector<Candidate> known_halves;
  std::vector<Candidate> beside_marker;
  for (int v = lo; v < half.rows - lo; ++v) {
    const float* hp = half.ptr<float>(v);
    const float* dp = half_dil.ptr<float>(v);
    const float* np = half_dil_near.ptr<float>(v);
    for (int u = lo; u < half.cols - lo; ++u) {
      // A pixel that is neither kind of peak feeds neither list.
      if (hp[u] < 25.f || (hp[u] < dp[u] && hp[u] < np[u])) continue;
      const cv::Point2d at = top_.to_table(u, v);
      if (inside_any(exclude, at, 1.5 * radius_)) {
        if (hp[u] >= np[u] && !inside_any(exclude, at))
          beside_marker.push_back({.s = hp[u], .at = at, .tight_only = true, .half = true});
        continue;
      }
      if (hp[u] < dp[u]) continue;
      const bool known = std::any_of(cands.begin(), cands.end(), [&](const Candidate& c) {
        return cv::norm(c.at - at) < 0.5 * radius_;
      });
      (known ? known_halves : halves).push_back({.s = hp[u], .at = at, .half = true});
    }
  }
  std::sort(halves.begin(), halves.end(),
            [](const Candidate& x, const Candidate& y) { return x.s > y.s; });
  if (halves.size() > 8) halves.resize(8);
  cands.insert(cands.end(), halves.begin(), halves.end());
  // A peak within half a radius of a candidate above is measured too, after the other half
  // rings and outside their 8: where that candidate's ring fitted, the peak is skipped (a
  // ring is fitted there); where it failed (a whole ring's rules, 34 rim points, on a ring
  // half hidden), the half ring's rules (28) may still fit it. Measured (`duels bench
  // coverage --target ring2`): 2 more of 1280 named in every frame over tables 1-16 (the
  // flat 720p camera's far third 66 of 75), 3 more of 2560 over tables 17-48 (where a false
  // ring beside table 44's base 3 no longer takes its name 1.4" off), none wrongly; the
  // one-band ring as before (469 of 640). Counted within the 8, they crowded other half
  // rings out: 9 fewer of 1280.
  cands.insert(cands.end(), known_halves.begin(), known_halves.end());
  // A half ring's peak within 1.5 radii of a corner marker's keep-out (not on it) is measured
  // last, at most 8, a peak within 2 pixels (the paper's edge beside it can hide it within a
  // radius), as a candidate beside a marker: its ring must fit tightly, its rays are read as
  // beside paper (fit_base_rim), and it is not reported until its code names it (Pipeline).
  // Table 16's base 9, on the far-left marker's paper with 82 % of its ring in view, had no
  // other candidate. Measured (`duels bench coverage --target ring2 --seeds 16`): the flat
  // 1080p camera names it (its far third 73 of 75, was 72); tables 17-48 1 more of 2560; none
  // wrongly, no false ring. Reported unnamed, such fits along the markers' paper were 8 false
  // rings on tables 1-8; fitted loosely, 9 bases more than 1" off over tables 1-48.
  std::sort(beside_marker.begin(), beside_marker.end(),
            [](const Candidate& x, const Candidate& y) { return x.s > y.s; });
  if (beside_marker.size() > 8) beside_marker.resize(8);
  cands.insert(cands.end(), beside_marker.begin(), beside_marker.end());
  return cands;
}

std::vector<RingSighting> RingFinder::fit_candidates(const cv::Mat& gray,
                                                     const std::vector<Candidate>& cands,
                                                     bool search, double hint_within_in,
                                                     const cv::Mat& chroma) const {
  std::vector<RingSighting> fits;
  for (const auto& c : cands) {
    // Skip candidates on a ring already fitted (the same ring).
    const bool taken = std::any_of(fits.begin(), fits.end(), [&](const RingSighting& s) {
      return cv::norm(s.centre_in - c.at) < 0.5 * radius_;
    });
    if (taken) continue;
    // A fit that converged (most of its rim points on one circle) but failed a test from a
    // candidate a little off the ring is tried once more from where it went: the rays then
    // cross the rim squarely (measured: 3 more of 1280 two-band rings named and 5 more of 640
    // one-band ones, none wrongly). A loose fit is tried so too, and a tight fit from there
    // taken instead (its code reads with full weight): once a two-band ring's loose fit could be
    // a little small (measure), table 10's base 4 of the flat 1080p camera (23 % of its ring in
    // view) was fitted loosely from its candidate in frames where it fits tightly from the
    // point that fit went to, read its code 4 less well, and was no longer named. With the bound of
    // 0.975 R this alone names the same 1255 of 1280 (`duels bench coverage --target ring2`),
    // and the one-band ring the same 905. A second pass from the fitted centre when the first
    // started off (the rays then cross the rim squarely, too).
    // A candidate beside a corner marker (tight_only) is measured as beside its paper.
    const bool paper = c.tight_only;
    const auto fit = [&](int loose_rays) {
      cv::Point2d reached(std::numeric_limits<double>::quiet_NaN(), 0);
      auto s = measure(gray, c.at, false, &reached, loose_rays, paper, chroma);
      const double went = cv::norm(reached - c.at);
      if ((!s || s->loose) && went > 0.03 * radius_ && went < 0.3 * radius_) {
        auto from_reached = measure(gray, reached, false, nullptr, loose_rays, paper, chroma);
        if (from_reached && (!s || !from_reached->loose)) s = std::move(from_reached);
      }
      if (s && c.tight_only && s->loose) s.reset();
      if (s && cv::norm(s->centre_in - c.at) > 0.08 * radius_) {
        auto again = measure(gray, s->centre_in, false, nullptr, loose_rays, paper, chroma);
        if (again && !(c.tight_only && again->loose)) s = again;
      }
      return s;
    };
    auto s = fit(c.half ? kLooseHalfRimRays : kLooseRimRays);
    // A named ring standing still whose rim no longer passes a whole ring's loose fit (its own
    // figure hides the rim behind it: at 32 of 48 points its fit sat just above the tight fit's
    // RMS) may fit loosely round part of its turn (kLooseHalfRimRays), where it stood only. Base 4
    // of table 16 of the flat 720p camera, 91 % of its ring in view, was lost in 4 frames of 10 so.
    // Measured (`duels bench coverage --target ring2`): 2 more of 1280 named in every frame over
    // tables 1-16 (the flat 720p camera's far third 68 of 75), 3 more of 2560 over tables 17-48,
    // none wrongly over 10 frames or 30; the one-band ring as before (469 of 640). Any hint so (not
    // only a named ring's) located base 12 of table 10 of the flat 720p camera, hidden behind base
    // 11, in more frames, and the two swapped names.
    if (!s && c.named_hint) {
      s = fit(kLooseHalfRimRays);
      if (s && s->loose && cv::norm(s->centre_in - c.at) >= hint_within_in) s.reset();
    }
    // Until the next search, a two-band ring's candidates are measured again only where a ring
    // was fitted. Measuring every one of them every frame (a ring the noise hid then might
    // show) named 5 more of 3200 rings and took a third of each frame's time (`duels bench
    // coverage --target ring2`, seeds 1-8 and 17-48). A one-band ring carries half the bits
    // and is named over more frames: there the rule cost 13 of 640 names (`--target ring`).
    // A half ring's candidate, or one that must fit tightly (beside a corner marker), is
    // measured again only where it fitted, for either ring: the one-band ring then named 1
    // fewer of 640 with half rings than measuring all of them again, for a tenth of its
    // frame's time.
    if (search && !c.lopsided && (s || (style_ == RingStyle::kOneBand && !c.tight_only && !c.half)))
      searched_.emplace_back(c.at, c.tight_only);
    if (!s) continue;
    s->beside_marker = c.tight_only;
    fits.push_back(std::move(*s));
  }
  return fits;
}

namespace {

// A ring's white rim is printed paper, as white as its neighbours' under the same light. A
// ring fitted on the figures of packed bases (their heads and poles round a gap, with the
// rims below them) read its "white" from the figures: 0.56-0.59 of the median white of the
// rings fitted tightly within 8" of it (table 11 of the 720p 75° camera), where every true
// ring read 0.72 or more (`duels bench coverage --target ring2 --seeds 16`, every ring
// fitted in every frame, against the true rings fitted tightly round it). A ring under 0.65
// of its neighbours' white is dropped; a ring without a tight neighbour (one at least
// `overlap_in` away, within 8") is not judged.
void drop_rings_duller_than_their_neighbours(std::vector<RingSighting>& fits, double overlap_in) {
  constexpr double kNeighbourIn = 8.0;
  constexpr double kWhiteOfNeighbours = 0.65;
  std::vector<char> drop(fits.size(), 0);
  std::vector<double> near;
  for (std::size_t i = 0; i < fits.size(); ++i) {
    near.clear();
    for (std::size_t k = 0; k < fits.size(); ++k) {
      const double d = cv::norm(fits[k].centre_in - fits[i].centre_in);
      if (!fits[k].loose && d >= overlap_in && d <= kNeighbourIn) near.push_back(fits[k].white);
    }
    if (near.empty()) continue;
    const auto mid = near.begin() + static_cast<long>(near.size() / 2);
    std::nth_element(near.begin(), mid, near.end());
    drop[i] = fits[i].white < kWhiteOfNeighbours * *mid;
  }
  std::vector<RingSighting> kept;
  for (std::size_t i = 0; i < fits.size(); ++i) {
    if (!drop[i]) kept.push_back(std::move(fits[i]));
  }
  fits = std::move(kept);
}

// Two bases cannot overlap: of two rings closer than `overlap_in`, the better fit stands (more
// of its rim seen, closer to a circle). A false ring fitted where packed bases meet, or on one
// side of a real one, used to take the place of the real ring when its candidate came first.
// A ring fitted where a ring was seen lately (within `hint_within_in` of a hint) stands before
// one that was not: a base that was there a moment ago is still there. A false ring fitted
// loosely beside a packed group (its rim points more, but twice as spread) otherwise took the
// place of a ring seen for two frames, and its name with it, 1.3" off (table 1 of the 1080p
// 65° camera).
std::vector<RingSighting> keep_one_of_overlapping_rings(std::vector<RingSighting> fits,
                                                        const std::vector<RingHint>& hints,
                                                        double hint_within_in, double overlap_in,
                                                        double radius_in) {
  const auto quality = [&](const RingSighting& s) {
    return s.rim_points - 200.0 * s.fit_rms_in / radius_in;
  };
  std::vector<std::pair<bool, double>> rank(fits.size());
  for (std::size_t i = 0; i < fits.size(); ++i) {
    const bool continues = std::any_of(hints.begin(), hints.end(), [&](const RingHint& h) {
      return cv::norm(h.at - fits[i].centre_in) < hint_within_in;
    });
    rank[i] = {continues, quality(fits[i])};
  }
  std::vector<std::size_t> order(fits.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::stable_sort(order.begin(), order.end(),
                   [&](std::size_t x, std::size_t y) { return rank[x] > rank[y]; });
  std::vector<RingSighting> out;
  for (std::size_t i : order) {
    RingSighting& s = fits[i];
    const bool overlaps = std::any_of(out.begin(), out.end(), [&](const RingSighting& o) {
      return cv::norm(o.centre_in - s.centre_in) < overlap_in;
    });
    if (!overlaps) out.push_back(std::move(s));
  }
  return out;
}

}  // namespace

std::vector<RingSighting> RingFinder::find(const cv::Mat& gray, const std::vector<RingHint>& hints,
                                           int expected, bool search,
                                           const std::vector<std::vector<cv::Point2f>>& exclude,
                                           double hint_within_in, const cv::Mat& chroma) const {
  std::vector<Candidate> cands;
  std::vector<Candidate> lopsided;  // measured last, as half rings (search_candidates)
  if (search) {
    cands = search_candidates(gray, expected, exclude, lopsided);
    searched_.clear();
  } else {
    // Between searches, the places the last search found promising are looked at again.
    for (const auto& [at, tight_only] : searched_)
      cands.push_back({.s = -1.f, .at = at, .tight_only = tight_only});
  }
  // Where a ring was seen lately is measured from where it was fitted, after the candidates: a
  // candidate on it is skipped once its ring is fitted, but when the candidate's fit fails (it
  // started a little off, or must fit tightly) the ring's last centre may still pass. Measured
  // (`duels bench coverage --target ring2`): a ring fitted loosely in every frame and one beside
  // a corner marker were lost at a search frame, their places skipped as a candidate lay within
  // half a radius; measured there too, 3 more of 1280 named (seeds 1-16) and 2 more of 2560
  // (seeds 17-48), none wrongly.
  for (const RingHint& h : hints) {
    if (!inside_any(exclude, h.at)) cands.push_back({.s = 0.f, .at = h.at, .named_hint = h.named});
  }
  cands.insert(cands.end(), lopsided.begin(), lopsided.end());
  std::vector<RingSighting> fits = fit_candidates(gray, cands, search, hint_within_in, chroma);
  // Two bases' centres are never closer than 0.9 of a diameter (bases do not overlap).
  const double overlap_in = 1.8 * radius_;
  drop_rings_duller_than_their_neighbours(fits, overlap_in);
  return keep_one_of_overlapping_rings(std::move(fits), hints, hint_within_in, overlap_in, radius_);
}

namespace {

// An annular sector (inches, page frame: y down) as a polygon; angles counter-clockwise from
// the page's "up" (the front of the base), as seen from above.
std::vector<cv::Point2d> annular_sector(cv::Point2d c, double r0, double r1, double a0, double a1) {
  std::vector<cv::Point2d> poly;
  const int steps = std::max(4, static_cast<int>(std::ceil((a1 - a0) / (CV_PI / 48))));
  // Base frame (x right, y = front = page up): direction of angle a is (−sin a, cos a).
  const auto at = [&](double r, double a) {
    return cv::Point2d(c.x - r * std::sin(a), c.y - r * std::cos(a));
  };
  for (int i = 0; i <= steps; ++i)
    poly.push_back(at(r1, a0 + (a1 - a0) * i / steps));
  for (int i = steps; i >= 0; --i)
    poly.push_back(at(r0, a0 + (a1 - a0) * i / steps));
  return poly;
}

// A dashed circle of thin black dashes (a cut line).
void dashed_circle(std::vector<std::vector<cv::Point2d>>& out, cv::Point2d c, double r) {
  const double width = 0.008;  // about 0.2 mm
  const int dashes = std::max(12, static_cast<int>(2 * CV_PI * r / 0.08));
  for (int i = 0; i < dashes; ++i) {
    const double a0 = 2 * CV_PI * i / dashes;
    out.push_back(annular_sector(c, r - width / 2, r + width / 2, a0, a0 + CV_PI / dashes));
  }
}

}  // namespace

Expected<std::vector<calib::Sheet>, std::string> ring_sheets(
    const std::vector<int>& ids, const std::vector<double>& diameters_in, const calib::Paper& paper,
    RingStyle style) {
  const bool two = style == RingStyle::kTwoBand;
  for (int id : ids) {
    if (!ring_cells(id, style)) {
      return fmt::format("{} code {} does not exist (codes are 0 to {})", two ? "ring2" : "ring",
                         id, ring_code_count(style) - 1);
    }
  }
  std::vector<calib::Sheet> sheets;
  const double margin = calib::kSheetMarginIn;
  const double header = 1.45;
  calib::Sheet sheet;
  double x = margin;
  double y = 0;
  const auto new_sheet = [&] {
    if (!sheet.text.empty()) sheets.push_back(sheet);
    sheet = calib::Sheet{};
    sheet.paper = paper;
    double ty = margin + 0.17;
    sheet.text.push_back({{margin, ty}, 13, "Duels Companion - base rings"});
    ty += 0.19;
    sheet.text.push_back({{margin, ty},
                          9.5,
                          fmt::format("Print at 100% / actual size on {} paper, no 'fit to page'. "
                                      "Check the bars with a ruler: 1 inch and 50 mm.",
                                      paper.name)});
    ty += 0.19;
    sheet.text.push_back(
        {{margin, ty},
         9.5,
         "Cut on the dashed circles; stick the ring on the base's top, its edge on "
         "the rim, 'front' toward the figure's facing."});
    const double bar_y = ty + 0.14;
    sheet.check_bar_in = cv::Rect2d(margin, bar_y, 1.0, 0.1);
    sheet.black_in.push_back(sheet.check_bar_in);
    sheet.text.push_back({{margin + 1.1, bar_y + 0.1}, 9, "1 inch"});
    const double mm50 = 50.0 / 25.4;
    sheet.black_in.emplace_back(margin + 2.0, bar_y, mm50, 0.1);
    sheet.text.push_back({{margin + 2.0 + mm50 + 0.1, bar_y + 0.1}, 9, "50 mm"});
    x = margin;
    y = margin + header;
  };
  new_sheet();
  for (double d : diameters_in) {
    const double cell_w = d + 0.35;
    const double cell_h = d + 0.45;
    if (margin + cell_w > paper.width_in - margin ||
        margin + header + cell_h > paper.height_in - margin) {
      return fmt::format("a {:g}\" ring does not fit on {} paper", d, paper.name);
    }
    for (int id : ids) {
      if (x + cell_w > paper.width_in - margin) {
        x = margin;
        y += cell_h;
      }
      if (y + cell_h > paper.height_in - margin) new_sheet();
      const double r = d / 2;
      const cv::Point2d c(x + cell_w / 2, y + 0.3 + r);
      const auto cells = *ring_cells(id, style);
      for (int band = 0; band < ring_bands(style); ++band) {
        const double r0 = two && band == 0 ? kRingBandSplit : kRingCodeInner;
        const double r1 = two && band == 1 ? kRingBandSplit : kRingRimInner;
        for (int k = 0; k < kRingSectors; ++k) {
          if (!cells[static_cast<std::size_t>(band)][static_cast<std::size_t>(k)]) continue;
          const double a0 = 2 * CV_PI * k / kRingSectors;
          sheet.black_polygons_in.push_back(
              annular_sector(c, r0 * r, r1 * r, a0, a0 + 2 * CV_PI / kRingSectors));
        }
      }
      dashed_circle(sheet.black_polygons_in, c, r + 0.012);
      dashed_circle(sheet.black_polygons_in, c, kRingCodeInner * r - 0.012);
      sheet.text.push_back({{c.x - 0.45, y + 0.16},
                            7.5,
                            fmt::format("{} {}  {:g}in  front ^", two ? "ring2" : "ring", id, d)});
      x += cell_w;
    }
    // Each diameter starts a new row.
    x = margin;
    y += cell_h;
  }
  sheets.push_back(sheet);
  return sheets;
}

}  // namespace duels::vision
