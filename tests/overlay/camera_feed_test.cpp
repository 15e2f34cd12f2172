// The window's camera feed (overlay/camera_feed.hpp) without a window: what its vision thread
// makes of a synthetic scene.
#include "overlay/camera_feed.hpp"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

#include "fixtures.hpp"

namespace duels::overlay {
namespace {

// A scene like demo_rings, standing still: Razor's base over the corner marker at (2.5, 2.5),
// Gridlock's in the open.
std::string rings_scene(const testing::TempDir& dir) {
  const auto base = [](const char* id, const char* figure, int marker, double x, double y) {
    return fmt::format(
        "  - {{id: {}, figure: {}, marker: {}, target: ring2, diameter: 2.0, height: 0.75,\n"
        "     figure_height: 4.5, colour: [40, 50, 190], path: [{{t: 0, x: {}, y: {}}}]}}\n",
        id, figure, marker, x, y);
  };
  const std::string path = dir.file("rings_on_marker.yaml");
  std::ofstream(path) << R"(schema_version: 1
name: rings_on_marker
seed: 7
fps: 10
duration: 2
table: {width: 60, depth: 60, felt_grey: 105, corner_markers: 4}
camera: {width: 1920, height: 1080, fx: 1000, distance: 51.2, elevation: 45, azimuth: 0,
         target: [30, 24], dist: [-0.12, 0.08, 0.0008, -0.0005, -0.02]}
look: {supersample: 1, noise: 2.0, blur: 0.5, motion_blur: false, exposure: 0.02, lighting: 0.25}
dictionary: DICT_4X4_50
bases:
)" << base("razor", "Razor", 0, 2.5, 2.5)
                      << base("gridlock", "Gridlock", 1, 40, 30);
  return path;
}

// The feed's ring pipeline looks for no ring on the scene's own corner markers, as `duels track`
// does (it knew them only from a calibration file, which a synthetic scene has none of): a base
// standing on one is not reported, the one in the open is.
TEST(CameraFeed, LooksForNoRingOnASyntheticScenesCornerMarkers) {
  testing::TempDir dir;
  CameraFeedOptions o;
  o.source = "synthetic:" + rings_scene(dir);
  o.realtime = false;
  o.prerender_frames = 4;
  CameraFeed feed(o);
  const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(120);
  auto s = feed.snapshot();
  while (s->frame < 8 && s->error.empty() && std::chrono::steady_clock::now() < until) {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    s = feed.snapshot();
  }
  feed.stop();
  ASSERT_TRUE(s->error.empty()) << s->error;
  ASSERT_GE(s->frame, 8);
  bool razor = false;
  bool gridlock = false;
  for (const auto& b : s->table.bases) {
    if (b.stale()) continue;
    razor = razor || b.marker_id == 0;
    gridlock = gridlock || b.marker_id == 1;
  }
  EXPECT_TRUE(gridlock);
  EXPECT_FALSE(razor);
}

// The still ring scene read with a base map that gives Gridlock code 5 (its ring carries 1).
CameraFeedOptions wrong_code_rings(const testing::TempDir& dir) {
  CameraFeedOptions o;
  o.source = "synthetic:" + rings_scene(dir);
  o.base_map = testing::ring_base_map(dir.file("wrong_code.yaml"), {{0, "Razor"}, {5, "Gridlock"}});
  o.realtime = false;
  o.prerender_frames = 4;
  return o;
}

// The player names a ring the feed cannot name (name_base): Gridlock's ring carries code 1, the
// map says 5. Named where it stands, it is followed as Gridlock; a figure the map lacks is
// refused, and the snapshot says why.
TEST(CameraFeed, NamesARingThePlayerNames) {
  testing::TempDir dir;
  CameraFeed feed(wrong_code_rings(dir));
  const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(120);
  const auto wait = [&](auto done) {
    auto s = feed.snapshot();
    while (!done(*s) && s->error.empty() && std::chrono::steady_clock::now() < until) {
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
      s = feed.snapshot();
    }
    return s;
  };
  const auto gridlock = [](const CameraSnapshot& s) {
    return std::any_of(s.table.bases.begin(), s.table.bases.end(), [](const auto& b) {
      return b.figure == "Gridlock" && !b.stale() && std::abs(b.centre_in.x - 40) < 0.1 &&
             std::abs(b.centre_in.y - 30) < 0.1;
    });
  };
  auto s = wait([](const CameraSnapshot& x) { return !x.table.unnamed.empty(); });
  ASSERT_TRUE(s->error.empty()) << s->error;
  ASSERT_EQ(s->table.unnamed.size(), 1U);
  EXPECT_FALSE(gridlock(*s));
  EXPECT_EQ(s->ring_figures, (std::vector<std::string>{"Razor", "Gridlock"}));
  feed.name_base({41, 29}, "Nobody");
  s = wait([](const CameraSnapshot& x) { return !x.naming_problem.empty(); });
  EXPECT_NE(s->naming_problem.find("Nobody"), std::string::npos) << s->naming_problem;
  feed.name_base(s->table.unnamed.empty() ? cv::Point2d(40, 30) : s->table.unnamed[0].centre_in,
                 "Gridlock");
  s = wait([&](const CameraSnapshot& x) { return gridlock(x) && x.table.unnamed.empty(); });
  feed.stop();
  EXPECT_TRUE(gridlock(*s));
  EXPECT_TRUE(s->table.unnamed.empty());
  EXPECT_TRUE(s->naming_problem.empty()) << s->naming_problem;
}

// The match's spots for the camera (the camera's memory, issue 51): every figure on the table at
// its journaled place, or where a player dragged it; none for a figure eliminated or not placed.
TEST(CameraFeed, MatchSpotsAreTheFiguresOnTheTable) {
  GameState state;
  for (const char* name : {"Razor", "Gridlock", "Hex", "Ghost"}) {
    FigureState f;
    f.def.name = name;
    state.figures.push_back(f);
  }
  state.figures[0].position = Point{18, 12};
  state.figures[1].position = Point{40, 30};
  state.figures[2].position = Point{10, 50};
  state.figures[2].eliminated = true;
  const auto spots = match_spots(state, {{1, Point{41, 29}}});
  ASSERT_EQ(spots.size(), 2U);
  EXPECT_EQ(spots[0].figure, "Razor");
  EXPECT_EQ(spots[0].centre_in, cv::Point2d(18, 12));
  EXPECT_EQ(spots[1].figure, "Gridlock");
  EXPECT_EQ(spots[1].centre_in, cv::Point2d(41, 29));
}

// Told where the match has Gridlock, the feed names the ring there Gridlock though its code says
// another base (the map's 5, the ring's 1).
TEST(CameraFeed, TheMatchsSpotNamesARingItsCodeDoesNot) {
  testing::TempDir dir;
  CameraFeed feed(wrong_code_rings(dir));
  feed.set_match_spots({{"Gridlock", {40, 30}}});
  const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(120);
  const auto gridlock = [](const CameraSnapshot& s) {
    return std::any_of(s.table.bases.begin(), s.table.bases.end(), [](const auto& b) {
      return b.figure == "Gridlock" && !b.stale() && std::abs(b.centre_in.x - 40) < 0.1 &&
             std::abs(b.centre_in.y - 30) < 0.1;
    });
  };
  auto s = feed.snapshot();
  while (!gridlock(*s) && s->error.empty() && std::chrono::steady_clock::now() < until) {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    s = feed.snapshot();
  }
  feed.stop();
  ASSERT_TRUE(s->error.empty()) << s->error;
  EXPECT_TRUE(gridlock(*s));
  EXPECT_TRUE(s->table.unnamed.empty());
}

}  // namespace
}  // namespace duels::overlay
