#pragma once
/// @file What a cheap webcam does to a picture, applied to rendered frames by code that knows
/// nothing of the renderer (so no kindness of our own renderer flatters a result): optical blur
/// (Gaussian and defocus disc), uneven light (vignetting and a linear gradient), sensor noise
/// (shot noise growing with brightness plus read noise) and JPEG compression at a quality. Every
/// random draw is seeded: the same frame, options and seed give the same bytes.

#include <opencv2/core.hpp>

#include <cstdint>
#include <string>

namespace duels::vision {

/// A webcam's degradations, in the order they are applied (optics, light, sensor, encoder).
struct Degradation {
  double blur_sigma_px = 0;        ///< Gaussian optical blur, pixels (0 = none)
  double defocus_radius_px = 0;    ///< defocus: convolution with a disc of this radius (0 = none)
  double vignetting = 0;           ///< brightness lost in the image corners (0.3 = 30 % darker)
  double gradient = 0;             ///< linear light gradient: ±this share across the frame
  double gradient_angle_deg = 30;  ///< direction in which the light grows
  double read_noise = 0;           ///< Gaussian noise, grey levels, independent of brightness
  double shot_noise = 0;           ///< noise at full white, grey levels (scales with √brightness)
  /// A real camera's own processing (issue 51): the optics blur light, not the encoded values,
  /// so with `linear_light` the picture is decoded from sRGB before the blur, the light and the
  /// noise and encoded again after (a blurred black-and-white edge is lighter than its average
  /// of sRGB values); `bayer` samples one colour a pixel through an RGGB mosaic and demosaics it
  /// again (colour fringes on sharp edges); `sharpen` is the camera's unsharp mask, this much
  /// of the detail added back (a light halo beside a dark edge and a dark one beside a light).
  bool linear_light = false;
  bool bayer = false;
  double sharpen = 0;             ///< 0 = none; webcams 0.3–1
  double sharpen_sigma_px = 1.0;  ///< the unsharp mask's radius
  int jpeg_quality = 0;           ///< JPEG round trip at this quality (1..100; 0 = none)
  std::uint64_t seed = 1;         ///< with the frame number, seeds the noise
};

/// The typical USB webcam stream of issue 15: 1 px blur, sensor noise, JPEG 70, uneven light.
Degradation typical_webcam();
/// The same webcam with a camera's own processing (issue 51): blur in linear light, a Bayer
/// mosaic demosaiced, a sharpening halo (0.6), then JPEG 70.
Degradation processing_webcam();

/// `image` (8-bit, 1 or 3 channels) as the camera would deliver it. `frame` varies the noise
/// from frame to frame. Throws DataException for out-of-range options.
cv::Mat degrade(const cv::Mat& image, const Degradation& d, std::int64_t frame = 0);

/// "blur 1.0 px, noise 2+4, JPEG 70, vignetting 30 %, gradient 20 %" (for reports).
std::string describe(const Degradation& d);

}  // namespace duels::vision
