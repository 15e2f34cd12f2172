// The table picture: what is drawn where.
#include <gtest/gtest.h>

#include "duels/geometry_raster.hpp"

namespace duels {
namespace {

// Pixel of a table point at 10 px per inch on a table `depth` deep (row 0 is the far edge).
std::pair<int, int> pixel(Vec2 p, double depth) {
  return {static_cast<int>(p.x * 10), static_cast<int>((depth - p.y) * 10)};
}

TEST(TableRaster, DrawsTerrainBasesReachAndRings) {
  TableDrawing d;
  d.table = {40, 30};
  d.terrain = {{"crate", Shape::make_rect({10, 10}, 4, 4)},
               {"pillar", Shape::make_circle({30, 20}, 2)}};
  d.bases = {{"a", {{20, 15}, 1}, 1, true}, {"b", {{35, 5}, 1}, 2, false}};
  ReachResult reach = reachable_region({{20, 15}, 1}, 5, {d.table, {}, {}, {}});
  d.reach = &reach;
  d.rings = tape_range_rings({{20, 15}, 1}, {{dice::Colour::Blue, 0, 7}});
  const RgbImage img = draw_table(d, 10);
  ASSERT_EQ(img.width, 400);
  ASSERT_EQ(img.height, 300);
  auto at = [&](Vec2 p) {
    const auto [x, y] = pixel(p, 30);
    return img.at(x, y);
  };
  const Rgb table = at({2, 28});
  const Rgb terrain = at({10, 10});
  EXPECT_EQ(at({30, 20}), terrain);  // both terrain pieces share a colour
  EXPECT_NE(terrain, table);
  EXPECT_NE(at({23, 15}), table);         // shaded: reachable
  EXPECT_NE(at({23, 15}), at({20, 15}));  // the base sits on top of the shading
  EXPECT_NE(at({35, 5}), at({20, 15}));   // teams differ in colour
  EXPECT_EQ(at({28, 15}), die_colour_rgb(dice::Colour::Blue));  // ring at 1 + 7 = 8"
  EXPECT_EQ(at({20, 23}), die_colour_rgb(dice::Colour::Blue));
  EXPECT_EQ(at({29, 15}), table);
}

TEST(TableRaster, RangeRingsFollowTheTapeClosedForm) {
  // A track that starts beyond the chord never touches the attacker's base: no ring.
  const auto rings = tape_range_rings(
      {{0, 0}, 1},
      {{dice::Colour::Yellow, 0, 3}, {dice::Colour::Green, 2.5, 20}, {dice::Colour::Red, 1, 10}});
  ASSERT_EQ(rings.size(), 2u);
  EXPECT_DOUBLE_EQ(rings[0].radius_in, 1 + 3);
  EXPECT_DOUBLE_EQ(rings[1].radius_in, 1 + 9);  // usable up to to − from = 9
}

TEST(TableRaster, DrawsAPath) {
  TableDrawing d;
  d.table = {10, 10};
  d.path = {{1, 5}, {9, 5}};
  const RgbImage img = draw_table(d, 10);
  EXPECT_NE(img.at(50, 50), img.at(50, 20));
}

}  // namespace
}  // namespace duels
