#pragma once
/// @file A second, independent image source: the same scene files rendered by POV-Ray 3.7, a
/// ray tracer with area lights, soft shadows, specular plastic and anti-aliasing that knows
/// nothing of our renderer (issue 51, goal 4). Only the printed things are shared — the table's
/// corner markers and each base's ring sticker, as `duels print` makes them; the shapes of bases,
/// figures (our own constructive geometry, not vision/render's capsules) and dice (polyhedra cut
/// by planes, pips and engraved numbers) and all the light are POV-Ray's.
///
/// POV-Ray renders a pinhole picture in linear light (16-bit); `camera_picture` is the camera:
/// the lens's distortion applied by warping in linear light, an exposure that puts the felt at
/// its grey, then the sRGB tone curve to 8 bits. The pictures are rendered once
/// (`duels bench coverage --images DIR --povray-render`; POV-Ray is not needed to test) and kept
/// with a truth file each, so the test set cannot drift from the scenes that made it.

#include <opencv2/core.hpp>

#include <string>

#include "vision/scene.hpp"

namespace duels::vision {

/// The files a POV-Ray scene uses (written next to it by write_povray_scene).
struct PovrayScene {
  std::string pov_file;  ///< the scene in POV-Ray's language
  cv::Size render_size;  ///< the pinhole picture POV-Ray must render (wider than the camera's)
};

/// Writes `spec` at time 0 as `DIR/STEM.pov` with its textures (`DIR/STEM-table.png`,
/// `DIR/STEM-baseN.png`). Throws DataException when the scene's camera is not one POV-Ray's
/// pinhole can stand for (fx ≠ fy, or the principal point off the picture's middle).
PovrayScene write_povray_scene(const SceneSpec& spec, const std::string& dir,
                               const std::string& stem);

/// The camera's picture from POV-Ray's linear 16-bit pinhole render: the lens's distortion,
/// an exposure putting the median of the picture at `felt_grey` (sRGB), the sRGB tone curve.
cv::Mat camera_picture(const cv::Mat& linear16, const SceneSpec& spec);

/// Renders `spec` with the `povray` program into `DIR/STEM.jpg` (JPEG 95, the camera's
/// picture) and `DIR/STEM.json` (its truth: camera, table and bases). Throws DataException
/// naming what failed (POV-Ray missing, its log's last line). The scene, its textures and
/// POV-Ray's log are written to `DIR/STEM.work` and removed after, unless the environment
/// holds DUELS_KEEP_POVRAY_WORK (to look at or render again by hand).
void render_with_povray(const SceneSpec& spec, const std::string& dir, const std::string& stem);

/// The picture of `spec` from an image set: `DIR/STEM.jpg`, after checking that `DIR/STEM.json`
/// holds `spec`'s camera, table and bases (within 0.001"). A DataException names the file and
/// field that differ (the set was rendered from another scene: render it again).
cv::Mat read_image_set_picture(const SceneSpec& spec, const std::string& dir,
                               const std::string& stem);

}  // namespace duels::vision
