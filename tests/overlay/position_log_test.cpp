// Manual position overrides: journaled beside the match, reopened, and overruled by later moves.
#include "overlay/position_log.hpp"

#include <gtest/gtest.h>

#include "fixtures.hpp"

namespace duels::overlay {
namespace {

using testing::TempDir;

TEST(PositionLog, RecordsAreReadBackAfterReopening) {
  TempDir dir;
  const std::string journal = dir.file("m.jsonl");
  EXPECT_EQ(PositionLog::path_for(journal), dir.file("m.positions.jsonl"));
  {
    PositionLog log = PositionLog::open(journal);
    EXPECT_TRUE(log.entries().empty());
    EXPECT_FALSE(std::filesystem::exists(log.path()));  // created on the first record
    log.record({1, Point{12.5, 40}, 7});
    log.record({0, std::nullopt, 9});
  }
  const PositionLog again = PositionLog::open(journal);
  ASSERT_EQ(again.entries().size(), 2U);
  EXPECT_EQ(again.entries()[0], (PositionEntry{1, Point{12.5, 40}, 7}));
  EXPECT_EQ(again.entries()[1], (PositionEntry{0, std::nullopt, 9}));
}

TEST(PositionLog, AMatchJournalIsNotAPositionLog) {
  TempDir dir;
  const std::string journal = dir.file("m.jsonl");
  // A match journal written where the position log would be.
  match::DuelsMatch::create(PositionLog::path_for(journal), testing::razor_vs_hex(), 1);
  EXPECT_THROW(PositionLog::open(journal), DataException);
}

match::MatchStep step(std::uint64_t seq, Command c) {
  return {seq, std::move(c), {}};
}

TEST(PositionLog, EffectiveOverridesFollowTheViewedEventAndLaterMoves) {
  const std::vector<PositionEntry> entries = {
      {0, Point{5, 5}, 3},    // Razor put by hand after event 3
      {1, Point{40, 40}, 4},  // Hex after event 4
      {1, Point{41, 41}, 6},  // Hex again after event 6
      {0, std::nullopt, 10},  // Razor handed back after event 10
  };
  const std::vector<match::MatchStep> steps = {
      step(5, Move{1, {}, 3, Point{30, 30}}),  // Hex moves in the match after its first override
      step(8, Move{0, {}, 2, std::nullopt}),   // a move without a position changes nothing
  };
  EXPECT_TRUE(effective_overrides(entries, steps, 2).empty());
  auto at4 = effective_overrides(entries, steps, 4);
  ASSERT_EQ(at4.size(), 2U);
  EXPECT_EQ(at4[1], (Point{40, 40}));
  auto at5 = effective_overrides(entries, steps, 5);
  EXPECT_EQ(at5.count(1), 0U);  // the match moved Hex after the override
  EXPECT_EQ(at5.count(0), 1U);
  auto at9 = effective_overrides(entries, steps, 9);
  EXPECT_EQ(at9[1], (Point{41, 41}));
  EXPECT_EQ(at9[0], (Point{5, 5}));
  auto at10 = effective_overrides(entries, steps, 10);
  EXPECT_EQ(at10.count(0), 0U);
  EXPECT_EQ(at10.count(1), 1U);
}

}  // namespace
}  // namespace duels::overlay
