#include "dice/distribution.hpp"

#include <gtest/gtest.h>

namespace duels::dice {
namespace {

TEST(Distribution, TwoD6) {
  const auto d = sum_of({{6, Colour::White, false, ""}, {6, Colour::White, false, ""}});
  EXPECT_EQ(d.total, 36U);
  EXPECT_EQ(d.min(), 2);
  EXPECT_EQ(d.max(), 12);
  EXPECT_EQ(d.count(7), 6U);
  EXPECT_EQ(d.count(2), 1U);
  EXPECT_EQ(d.count_at_most(4), 6U);
  EXPECT_DOUBLE_EQ(d.mean(), 7.0);
}

TEST(Distribution, AceCountsZero) {
  const auto d = die_value({6, Colour::Blue, true, ""});
  EXPECT_EQ(d.total, 6U);
  EXPECT_EQ(d.count(0), 1U);
  EXPECT_EQ(d.count(1), 0U);
  EXPECT_EQ(d.count(6), 1U);
  EXPECT_DOUBLE_EQ(d.mean(), 20.0 / 6.0);
}

TEST(Distribution, MatchesBruteForce) {
  const std::vector<Die> dice = {
      {4, Colour::White, false, ""}, {8, Colour::Yellow, true, ""}, {12, Colour::Red, false, ""}};
  const auto d = sum_of(dice);
  std::map<int, std::uint64_t> brute;
  for (int a = 1; a <= 4; ++a)
    for (int b = 1; b <= 8; ++b)
      for (int c = 1; c <= 12; ++c)
        ++brute[a + (b == 1 ? 0 : b) + c];
  for (const auto& [v, n] : brute)
    EXPECT_EQ(d.count(v), n) << v;
  EXPECT_EQ(d.total, 4U * 8U * 12U);
}

TEST(Distribution, FractionIsReduced) {
  EXPECT_EQ(fraction_string(6, 36), "1/6");
  EXPECT_EQ(fraction_string(0, 36), "0/1");
}

}  // namespace
}  // namespace duels::dice
