#include "duels/tape.hpp"

#include <gtest/gtest.h>

namespace duels {
namespace {

using dice::Colour;

TEST(Tape, ClosedFormUsable) {
  const Track blue{Colour::Blue, 0, 12};
  EXPECT_TRUE(track_usable(blue, 12.0, 2.0));
  EXPECT_FALSE(track_usable(blue, 12.01, 2.0));
  const Track green{Colour::Green, 1.5, 24};
  // Needs o ≥ 1.5 inside a 2" chord and o + gap ≤ 24 → gap ≤ 22.5.
  EXPECT_TRUE(track_usable(green, 22.5, 2.0));
  EXPECT_FALSE(track_usable(green, 22.6, 2.0));
  // A track starting beyond the attacker's chord never touches its base.
  EXPECT_FALSE(track_usable(green, 5, 1.0));
}

TEST(Tape, GapRangeMatchesUsable) {
  const Track t{Colour::Yellow, 0.5, 6};
  const auto range = usable_gap_range(t, 2.0);
  ASSERT_TRUE(range);
  EXPECT_DOUBLE_EQ(range->max_in, 5.5);
  for (double gap = 0; gap < 10; gap += 0.25) {
    EXPECT_EQ(track_usable(t, gap, 2.0), gap <= range->max_in) << gap;
  }
}

TEST(Tape, UsableColoursInTapeOrder) {
  Tape tape{{{Colour::Yellow, 0, 3}, {Colour::Blue, 0, 12}, {Colour::Green, 6, 30}}};
  EXPECT_EQ(usable_colours(tape, 2, 2), (std::vector<Colour>{Colour::Yellow, Colour::Blue}));
  EXPECT_EQ(usable_colours(tape, 11, 8), (std::vector<Colour>{Colour::Blue, Colour::Green}));
}

}  // namespace
}  // namespace duels
