// JSON nested deeper than the limit is found without parsing it, brackets in strings aside.
#include "common/json_depth.hpp"

#include <gtest/gtest.h>

#include <string>

namespace duels {
namespace {

TEST(JsonDepth, CountsArraysAndObjectsInsideEachOther) {
  EXPECT_FALSE(json_deeper_than("{}", 1));
  EXPECT_TRUE(json_deeper_than("{\"a\":[1]}", 1));
  EXPECT_FALSE(json_deeper_than("{\"a\":[1]}", 2));
  EXPECT_FALSE(json_deeper_than("[[1],[2],[3],{\"x\":1}]", 2));  // siblings do not add up
  EXPECT_FALSE(json_deeper_than(std::string(64, '[') + std::string(64, ']')));
  EXPECT_TRUE(json_deeper_than(std::string(65, '[') + std::string(65, ']')));
  EXPECT_TRUE(json_deeper_than(std::string(100000, '[')));  // unclosed counts too
}

TEST(JsonDepth, BracketsInsideStringsDoNotCount) {
  EXPECT_FALSE(json_deeper_than("[\"" + std::string(1000, '[') + "\"]", 1));
  EXPECT_FALSE(json_deeper_than(R"(["a \" [[[[ b"])", 1));   // an escaped quote stays inside
  EXPECT_TRUE(json_deeper_than(R"(["a \\", [[[1]]]])", 3));  // an escaped backslash does not
}

}  // namespace
}  // namespace duels
