// Journal records read back: numbers that do not fit the field are refused, never wrapped.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "common/error.hpp"
#include "duels/record.hpp"

namespace duels {
namespace {

using nlohmann::json;

std::string refusal(const json& j) {
  try {
    (void)command_from_json(j);
  } catch (const DataException& e) {
    return e.error().field + ": " + e.error().expected;
  }
  return "accepted";
}

// A roll of 2^32 + 3 was read as 3 (nlohmann's get<int> wraps), then checked as a die face.
TEST(Record, RollsAnIntCannotHoldAreRefused) {
  const json move = json::parse(R"({"type": "move", "figure": 0, "rolls": [[0, 4294967299]]})");
  EXPECT_EQ(refusal(move), "command.rolls: [die, face] pairs");
  const json alpha = json::parse(R"({"type": "roll_for_alpha", "rolls": {"0": [4294967299, 2]}})");
  EXPECT_EQ(refusal(alpha), "command.rolls.0: two d6 results");

  const Command ok =
      command_from_json(json::parse(R"({"type": "move", "figure": 0, "rolls": [[0, 3]]})"));
  ASSERT_TRUE(std::holds_alternative<Move>(ok));
  ASSERT_EQ(std::get<Move>(ok).rolls.size(), 1U);
  EXPECT_EQ(std::get<Move>(ok).rolls[0].face, 3);
}

}  // namespace
}  // namespace duels
