// `duels detect --image FILE [--dict 6x6_250] [--json]` — the ArUco markers in one image.
#include <fmt/format.h>

#include <opencv2/imgcodecs.hpp>

#include <filesystem>
#include <iostream>
#include <nlohmann/json.hpp>

#include "app/command.hpp"
#include "calib/image_source.hpp"
#include "common/error.hpp"
#include "vision/markers.hpp"

namespace duels::app {
namespace {

void add_detect(CLI::App& root) {
  auto* cmd = root.add_subcommand("detect", "Find the ArUco markers in an image");
  struct Opts {
    std::string image;
    std::string dict = "6x6_250";
    bool aruco3 = false;
    bool json = false;
  };
  auto opts = std::make_shared<Opts>();
  cmd->add_option("--image", opts->image, "the image file")->required();
  cmd->add_option("--dict", opts->dict, "ArUco dictionary, e.g. 4x4_50, 5x5_100, 6x6_250")
      ->capture_default_str();
  cmd->add_flag("--aruco3", opts->aruco3, "use OpenCV's faster ArUco3 detection");
  cmd->add_flag("--json", opts->json, "print JSON");
  cmd->callback([opts] {
    const cv::Mat image = calib::read_image(opts->image, cv::IMREAD_GRAYSCALE, "--image");
    vision::DetectorOptions options;
    options.dictionary = opts->dict;
    options.aruco3 = opts->aruco3;
    const vision::MarkerDetector detector(options);
    const auto found = detector.detect(image);
    if (opts->json) {
      nlohmann::json j;
      j["image"] = opts->image;
      j["dictionary"] = detector.options().dictionary;
      j["width"] = image.cols;
      j["height"] = image.rows;
      j["markers"] = nlohmann::json::array();
      for (const auto& d : found) {
        nlohmann::json corners = nlohmann::json::array();
        for (const auto& c : d.corners_px)
          corners.push_back({c.x, c.y});
        j["markers"].push_back({{"id", d.marker_id}, {"corners", corners}});
      }
      std::cout << j.dump() << "\n";
      return;
    }
    std::cout << fmt::format("{}: {} markers ({}, {}x{})\n", opts->image, found.size(),
                             detector.options().dictionary, image.cols, image.rows);
    for (const auto& d : found) {
      std::cout << fmt::format("  id {:3d}  centre ({:.1f}, {:.1f}) px\n", d.marker_id,
                               d.centre_px.x, d.centre_px.y);
    }
  });
}

}  // namespace

DUELS_COMMAND(70, add_detect);

}  // namespace duels::app
