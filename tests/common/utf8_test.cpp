// The one UTF-8 check: every malformed form is caught at its first byte, every valid one passes.
#include "common/utf8.hpp"

#include <gtest/gtest.h>

#include <string>

namespace duels {
namespace {

TEST(Utf8, WellFormedTextPasses) {
  EXPECT_TRUE(valid_utf8(""));
  EXPECT_TRUE(valid_utf8("Razor moves 7\""));
  EXPECT_TRUE(valid_utf8("3\xC2\xA5 retain"));  // ¥ (2 bytes)
  EXPECT_TRUE(
      valid_utf8("\xE2\x80\x9C"
                 "quoted"));                    // “ (3 bytes)
  EXPECT_TRUE(valid_utf8("\xF0\x9F\x8E\xB2"));  // U+1F3B2, a die (4 bytes)
  EXPECT_TRUE(valid_utf8("\xF4\x8F\xBF\xBF"));  // U+10FFFF, the last code point
  EXPECT_TRUE(valid_utf8("\xED\x9F\xBF"));      // U+D7FF, just below the surrogates
}

TEST(Utf8, EachMalformedFormIsFoundAtItsFirstByte) {
  EXPECT_EQ(first_bad_utf8("ab\x80"), 2U);            // a continuation byte first
  EXPECT_EQ(first_bad_utf8("a\xC0\xAF"), 1U);         // overlong '/' (2 bytes)
  EXPECT_EQ(first_bad_utf8("\xE0\x80\xAF"), 0U);      // overlong (3 bytes)
  EXPECT_EQ(first_bad_utf8("\xF0\x80\x80\xAF"), 0U);  // overlong (4 bytes)
  EXPECT_EQ(first_bad_utf8("xy\xED\xA0\x80"), 2U);    // a surrogate, U+D800
  EXPECT_EQ(first_bad_utf8("\xF4\x90\x80\x80"), 0U);  // past U+10FFFF
  EXPECT_EQ(first_bad_utf8("\xF5\x80\x80\x80"), 0U);  // a lead byte no code point has
  EXPECT_EQ(first_bad_utf8("ok \xE2\x82"), 3U);       // cut short at the end
  EXPECT_EQ(first_bad_utf8("\xC3"
                           "a"),
            0U);  // a lead byte without its follower
  EXPECT_EQ(first_bad_utf8(std::string("\xC3\xA9\xFF", 3)), 2U);
}

}  // namespace
}  // namespace duels
