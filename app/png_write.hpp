#pragma once
/// @file Writing RGB pictures as PNG files without an image library (stored deflate blocks:
/// larger files, no dependency). Used until the app links an image codec.

#include <string>

#include "duels/geometry_raster.hpp"

namespace duels::app {

/// Writes `image` to `path` as an 8-bit RGB PNG. Throws DataException when it cannot.
void write_png(const std::string& path, const RgbImage& image);

}  // namespace duels::app
