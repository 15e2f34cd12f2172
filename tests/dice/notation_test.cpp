#include "dice/notation.hpp"

#include <gtest/gtest.h>

#include "dice/roller.hpp"

namespace duels::dice {
namespace {

TEST(Notation, ParsesSingleDie) {
  auto pool = parse_pool("yellow:d8");
  ASSERT_TRUE(pool);
  ASSERT_EQ(pool->size(), 1U);
  EXPECT_EQ((*pool)[0], (Die{8, Colour::Yellow, false, ""}));
}

TEST(Notation, ParsesAceAndCount) {
  auto pool = parse_pool("yellow:d6:ace  2xwhite:d6");
  ASSERT_TRUE(pool);
  ASSERT_EQ(pool->size(), 3U);
  EXPECT_TRUE((*pool)[0].ace);
  EXPECT_EQ((*pool)[1], (Die{6, Colour::White, false, ""}));
  EXPECT_EQ((*pool)[2], (Die{6, Colour::White, false, ""}));
}

TEST(Notation, ParsesRolls) {
  auto rolls = parse_rolls("yellow:d8=5 yellow:d6:ace=ace 2xwhite:d6=3,6");
  ASSERT_TRUE(rolls);
  ASSERT_EQ(rolls->size(), 4U);
  EXPECT_EQ((*rolls)[0].face, 5);
  EXPECT_TRUE((*rolls)[1].is_ace());
  EXPECT_EQ((*rolls)[1].value(), 0);
  EXPECT_EQ((*rolls)[2].face, 3);
  EXPECT_EQ((*rolls)[3].face, 6);
}

TEST(Notation, CaseInsensitiveColour) {
  auto pool = parse_pool("Blue:D10");
  ASSERT_TRUE(pool);
  EXPECT_EQ((*pool)[0].colour, Colour::Blue);
  EXPECT_EQ((*pool)[0].sides, 10);
}

struct BadCase {
  const char* text;
  bool rolled;
  std::size_t position;
  const char* expected_fragment;
};

class BadNotation : public ::testing::TestWithParam<BadCase> {};

TEST_P(BadNotation, PointsAtTheBadToken) {
  const BadCase& c = GetParam();
  std::string error;
  std::size_t position = 0;
  if (c.rolled) {
    auto r = parse_rolls(c.text);
    ASSERT_FALSE(r) << c.text;
    error = r.error().message();
    position = r.error().position;
  } else {
    auto r = parse_pool(c.text);
    ASSERT_FALSE(r) << c.text;
    error = r.error().message();
    position = r.error().position;
  }
  EXPECT_EQ(position, c.position) << error;
  EXPECT_NE(error.find(c.expected_fragment), std::string::npos) << error;
  EXPECT_NE(error.find('^'), std::string::npos) << error;
}

INSTANTIATE_TEST_SUITE_P(Cases, BadNotation,
                         ::testing::Values(BadCase{"purple:d6", false, 0, "a colour"},
                                           BadCase{"yellow:d8 blue:d7", false, 15,
                                                   "d4, d6, d8, d10 or d12"},
                                           BadCase{"yellow:d6:acer", false, 10, "'ace' or nothing"},
                                           BadCase{"yellow", false, 0, "a die like"},
                                           BadCase{"yellow:d8=9", true, 10, "from 1 to 8"},
                                           BadCase{"yellow:d8=ace", true, 10, "needs an ace die"},
                                           BadCase{"yellow:d6:ace=1", true, 14, "'ace'"},
                                           BadCase{"2xwhite:d6=3", true, 11, "2 results"},
                                           BadCase{"yellow:d8", true, 0, "rolled result"},
                                           BadCase{"yellow:d8=4", false, 9, "without results"},
                                           BadCase{"0xwhite:d6", false, 0, "count from 1 to 99"}));

TEST(Notation, EmptyIsAnError) {
  EXPECT_FALSE(parse_pool("   "));
  EXPECT_FALSE(parse_rolls(""));
}

TEST(Notation, RoundTripsThroughText) {
  Roller roller(11);
  const auto pool = *parse_pool("2xwhite:d6 yellow:d8:ace blue:d10 green:d12 black:d4 red:d6:ace");
  EXPECT_EQ(*parse_pool(to_notation(pool)), pool);
  for (int i = 0; i < 200; ++i) {
    const auto rolls = roller.roll(pool);
    auto back = parse_rolls(to_notation(rolls));
    ASSERT_TRUE(back) << to_notation(rolls);
    EXPECT_EQ(*back, rolls);
  }
}

TEST(Notation, NeverCrashesOnRandomText) {
  Rng rng(99);
  const std::string alphabet = "yellowbluegrnackrdwhit:d0123456789=,xace \t";
  for (int i = 0; i < 20000; ++i) {
    std::string s;
    const int len = rng.uniform(30) - 1;
    for (int k = 0; k < len; ++k)
      s += alphabet[static_cast<std::size_t>(rng.uniform(static_cast<int>(alphabet.size())) - 1)];
    auto a = parse_pool(s);
    auto b = parse_rolls(s);
    if (!a) {
      EXPECT_FALSE(a.error().message().empty());
    }
    if (!b) {
      EXPECT_FALSE(b.error().message().empty());
    }
  }
}

}  // namespace
}  // namespace duels::dice

namespace duels::dice {
namespace {

// Found by the fuzzer: 182 identical dice printed as "182xwhite:d12:ace" did not parse back.
TEST(Notation, LargeGroupsStayWithinTheCountLimit) {
  const auto pool = parse_pool("91xwhite:d12:ace 91xwhite:d12:ace");
  ASSERT_TRUE(pool);
  ASSERT_EQ(pool->size(), 182U);
  const auto back = parse_pool(to_notation(*pool));
  ASSERT_TRUE(back) << to_notation(*pool);
  EXPECT_EQ(*back, *pool);
}

}  // namespace
}  // namespace duels::dice
