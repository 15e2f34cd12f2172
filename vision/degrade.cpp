#include "vision/degrade.hpp"

#include <fmt/format.h>

#include <opencv2/imgcodecs.hpp>
#include <opencv2/imgproc.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <vector>

#include "common/error.hpp"

namespace duels::vision {
namespace {

void check(bool ok, const char* field, const char* expected) {
  if (!ok) throw DataException({"<degradation>", 0, field, expected});
}

// A normalized disc kernel of `radius` pixels, anti-aliased at its rim (4×4 samples per pixel).
cv::Mat disc_kernel(double radius) {
  const int half = static_cast<int>(std::ceil(radius));
  cv::Mat k(2 * half + 1, 2 * half + 1, CV_32F, cv::Scalar(0));
  for (int y = -half; y <= half; ++y) {
    for (int x = -half; x <= half; ++x) {
      int inside = 0;
      for (int sy = 0; sy < 4; ++sy) {
        for (int sx = 0; sx < 4; ++sx) {
          const double px = x + (sx + 0.5) / 4 - 0.5;
          const double py = y + (sy + 0.5) / 4 - 0.5;
          inside += px * px + py * py <= radius * radius;
        }
      }
      k.at<float>(y + half, x + half) = static_cast<float>(inside) / 16.f;
    }
  }
  return k / cv::sum(k)[0];
}

double to_linear(double v) {
  v /= 255;
  return v <= 0.04045 ? v / 12.92 : std::pow((v + 0.055) / 1.055, 2.4);
}

double to_srgb(double v) {
  v = std::clamp(v, 0.0, 1.0);
  return 255 * (v <= 0.0031308 ? 12.92 * v : 1.055 * std::pow(v, 1 / 2.4) - 0.055);
}

// 8-bit sRGB values (as floats) to linear light scaled to 0–255, and back, per element.
void decode_srgb(cv::Mat& f) {
  std::array<float, 256> lut{};
  for (int k = 0; k < 256; ++k)
    lut[static_cast<std::size_t>(k)] = static_cast<float>(255 * to_linear(k));
  cv::Mat flat = f.reshape(1);  // a view of every channel's values
  flat.forEach<float>([&](float& v, const int*) {
    v = lut[static_cast<std::size_t>(std::clamp(static_cast<int>(std::lround(v)), 0, 255))];
  });
}

void encode_srgb(cv::Mat& f) {
  cv::Mat flat = f.reshape(1);
  flat.forEach<float>([](float& v, const int*) { v = static_cast<float>(to_srgb(v / 255.0)); });
}

// One colour a pixel through an RGGB mosaic, then OpenCV's demosaicing.
cv::Mat through_bayer(const cv::Mat& bgr) {
  cv::Mat raw(bgr.size(), CV_8UC1);
  for (int v = 0; v < bgr.rows; ++v) {
    const auto* in = bgr.ptr<cv::Vec3b>(v);
    auto* out = raw.ptr<unsigned char>(v);
    for (int u = 0; u < bgr.cols; ++u) {
      // R at even row, even column; B at odd, odd; G elsewhere.
      const int ch = (v % 2 == 0 && u % 2 == 0) ? 2 : (v % 2 == 1 && u % 2 == 1) ? 0 : 1;
      out[u] = in[u][ch];
    }
  }
  cv::Mat back;
  // OpenCV names a Bayer pattern by its second row's first two pixels: RGGB is "BG".
  cv::cvtColor(raw, back, cv::COLOR_BayerBG2BGR);
  return back;
}

}  // namespace

Degradation processing_webcam() {
  Degradation d = typical_webcam();
  d.linear_light = true;
  d.bayer = true;
  d.sharpen = 0.6;
  return d;
}

Degradation typical_webcam() {
  Degradation d;
  d.blur_sigma_px = 1.0;
  d.vignetting = 0.3;
  d.gradient = 0.2;
  d.read_noise = 2.0;
  d.shot_noise = 4.0;
  d.jpeg_quality = 70;
  return d;
}

cv::Mat degrade(const cv::Mat& image, const Degradation& d, std::int64_t frame) {
  check(
      !image.empty() && image.depth() == CV_8U && (image.channels() == 1 || image.channels() == 3),
      "image", "an 8-bit grey or BGR picture");
  check(d.blur_sigma_px >= 0 && d.blur_sigma_px <= 20, "blur_sigma_px", "0 to 20 pixels");
  check(d.defocus_radius_px >= 0 && d.defocus_radius_px <= 20, "defocus_radius_px",
        "0 to 20 pixels");
  check(d.vignetting >= 0 && d.vignetting < 1, "vignetting", "a share from 0 up to (not) 1");
  check(d.gradient >= 0 && d.gradient < 1, "gradient", "a share from 0 up to (not) 1");
  check(d.read_noise >= 0 && d.shot_noise >= 0, "noise", "noise levels of 0 or more");
  check(d.jpeg_quality >= 0 && d.jpeg_quality <= 100, "jpeg_quality", "0 (none) or 1 to 100");
  check(d.sharpen >= 0 && d.sharpen <= 3, "sharpen", "0 (none) to 3");
  check(d.sharpen_sigma_px > 0 && d.sharpen_sigma_px <= 10, "sharpen_sigma_px",
        "over 0, up to 10 pixels");
  cv::Mat f;
  image.convertTo(f, CV_32F);
  if (d.linear_light) decode_srgb(f);
  // Optics: defocus then the lens's own blur.
  if (d.defocus_radius_px > 0.25) cv::filter2D(f, f, -1, disc_kernel(d.defocus_radius_px));
  if (d.blur_sigma_px > 0) cv::GaussianBlur(f, f, cv::Size(0, 0), d.blur_sigma_px);
  // Light: cos⁴-like vignetting and a linear gradient, as one gain per pixel.
  if (d.vignetting > 0 || d.gradient > 0) {
    cv::Mat gain(f.size(), CV_32F);
    const double a = d.gradient_angle_deg * CV_PI / 180;
    const double half_diag = 0.5 * std::hypot(f.cols, f.rows);
    for (int v = 0; v < f.rows; ++v) {
      auto* g = gain.ptr<float>(v);
      for (int u = 0; u < f.cols; ++u) {
        const double x = u + 0.5 - f.cols / 2.0;
        const double y = v + 0.5 - f.rows / 2.0;
        const double r2 = (x * x + y * y) / (half_diag * half_diag);  // 1 at the corners
        const double vig = 1 - d.vignetting * r2;
        const double grad = 1 + d.gradient * (x * std::cos(a) + y * std::sin(a)) / half_diag;
        g[u] = static_cast<float>(vig * grad);
      }
    }
    if (f.channels() == 3) cv::cvtColor(gain, gain, cv::COLOR_GRAY2BGR);
    f = f.mul(gain);
  }
  // Sensor: shot noise (variance proportional to the signal) plus read noise.
  if (d.read_noise > 0 || d.shot_noise > 0) {
    cv::RNG rng(d.seed * 0x9E3779B97F4A7C15ULL + static_cast<std::uint64_t>(frame) * 7919ULL + 1);
    cv::Mat n(f.size(), f.type());
    rng.fill(n, cv::RNG::NORMAL, 0.0, 1.0);
    cv::Mat sigma;
    if (d.shot_noise > 0) {
      cv::Mat level = cv::max(f, 0.0) / 255.0;
      cv::sqrt(level, sigma);
      sigma = sigma * d.shot_noise;
      cv::Mat var = sigma.mul(sigma) + d.read_noise * d.read_noise;
      cv::sqrt(var, sigma);
    } else {
      sigma = cv::Mat(f.size(), f.type(), cv::Scalar::all(d.read_noise));
    }
    f += n.mul(sigma);
  }
  if (d.linear_light) encode_srgb(f);
  cv::Mat out;
  f.convertTo(out, CV_8U);
  // The camera's processing: the mosaic, then sharpening of what it gives.
  if (d.bayer && out.channels() == 3) out = through_bayer(out);
  if (d.sharpen > 0) {
    cv::Mat g;
    out.convertTo(g, CV_32F);
    cv::Mat soft;
    cv::GaussianBlur(g, soft, cv::Size(0, 0), d.sharpen_sigma_px);
    g += d.sharpen * (g - soft);
    g.convertTo(out, CV_8U);
  }
  if (d.jpeg_quality > 0) {
    std::vector<unsigned char> bytes;
    cv::imencode(".jpg", out, bytes, {cv::IMWRITE_JPEG_QUALITY, d.jpeg_quality});
    out = cv::imdecode(bytes, image.channels() == 3 ? cv::IMREAD_COLOR : cv::IMREAD_GRAYSCALE);
  }
  return out;
}

std::string describe(const Degradation& d) {
  std::string s = fmt::format("blur {:.1f} px", d.blur_sigma_px);
  if (d.defocus_radius_px > 0) s += fmt::format(", defocus {:.1f} px", d.defocus_radius_px);
  if (d.read_noise > 0 || d.shot_noise > 0)
    s += fmt::format(", noise {:g}+{:g}", d.read_noise, d.shot_noise);
  if (d.linear_light) s += ", linear light";
  if (d.bayer) s += ", Bayer";
  if (d.sharpen > 0) s += fmt::format(", sharpen {:g}", d.sharpen);
  if (d.jpeg_quality > 0) s += fmt::format(", JPEG {}", d.jpeg_quality);
  if (d.vignetting > 0) s += fmt::format(", vignetting {:.0f} %", 100 * d.vignetting);
  if (d.gradient > 0) s += fmt::format(", gradient {:.0f} %", 100 * d.gradient);
  return s;
}

}  // namespace duels::vision
