// The card tables behind the card-game tabs, headless: lines go through each game's console,
// commands are journaled, a second table on the journal resumes it; and the positions the
// session takes from vision.
#include "overlay/card_games.hpp"

#include <gtest/gtest.h>

#include <stdexcept>

#include "fixtures.hpp"
#include "match/journal.hpp"
#if DUELS_OVERLAY_CAMERA
#include "overlay/camera_feed.hpp"
#endif

namespace duels::overlay {
namespace {

using testing::TempDir;

TEST(CardTables, EncountersLinesAreJournaledAndResumed) {
  TempDir dir;
  CardTableOptions o;
  o.journal = dir.file("enc.jsonl");
  o.seed = 17;
  std::string state_before;
  {
    auto t = open_card_table("Encounters", o);
    EXPECT_EQ(t->game(), "Encounters");
    EXPECT_TRUE(t->send("player Ann"));
    EXPECT_TRUE(t->send("player Bob"));
    EXPECT_FALSE(t->send("frobnicate"));  // not a command: refused, nothing journaled
    EXPECT_FALSE(t->transcript().back().ok);
    EXPECT_TRUE(t->transcript()[t->transcript().size() - 2].typed);
    EXPECT_EQ(t->commands(), 2U);
    state_before = t->state_text();
  }
  const auto contents = match::read_journal(o.journal);
  EXPECT_EQ(contents.header.kind, "encounters");
  EXPECT_EQ(contents.entries.size(), 2U);
  CardTableOptions again;
  again.journal = o.journal;  // no seed: the journal's is used
  auto t = open_card_table("encounters", again);
  EXPECT_EQ(t->commands(), 2U);
  EXPECT_EQ(t->state_text(), state_before);
  EXPECT_TRUE(t->send("undo"));
  EXPECT_EQ(t->commands(), 1U);
}

TEST(CardTables, EveryGameOpensAndAnUnknownOneIsRefused) {
  TempDir dir;
  for (const std::string& game : card_games()) {
    CardTableOptions o;
    o.journal = dir.file(game + ".jsonl");
    o.seed = 3;
    auto t = open_card_table(game, o);
    EXPECT_FALSE(t->help().empty()) << game;
    EXPECT_FALSE(t->quick_words().empty()) << game;
    EXPECT_EQ(t->commands(), 0U) << game;
    EXPECT_EQ(match::read_journal(o.journal).header.kind, game);
  }
  EXPECT_THROW(open_card_table("poker", {}), std::invalid_argument);
}

#if DUELS_OVERLAY_CAMERA
TEST(VisionPositions, SettledTrustedMovingLessOccludedBelowTheLineLostDropped) {
  vision::TableState t;
  auto base = [](std::string figure, vision::BaseState state, double x) {
    vision::TrackedBase b;
    b.figure = std::move(figure);
    b.state = state;
    b.centre_in = {x, 10};
    return b;
  };
  t.bases = {
      base("Razor", vision::BaseState::kSettled, 1), base("Hex", vision::BaseState::kMoving, 2),
      base("Gridlock", vision::BaseState::kOccluded, 3),
      base("Bulldozer", vision::BaseState::kLost, 4), base("", vision::BaseState::kSettled, 5)};
  const auto p = vision_positions(t);
  ASSERT_EQ(p.size(), 3U);
  EXPECT_EQ(p[0].figure, "Razor");
  EXPECT_EQ(p[0].confidence, 1.0);
  EXPECT_EQ(p[1].figure, "Hex");
  EXPECT_GE(p[1].confidence, 0.5);  // used by the table view
  EXPECT_LT(p[1].confidence, 1.0);
  EXPECT_EQ(p[2].figure, "Gridlock");
  EXPECT_LT(p[2].confidence, 0.5);  // kept, but the table view ignores it
  // The table view takes the trusted ones.
  TempDir dir;
  match::DuelsMatch m = match::DuelsMatch::create(dir.file("m.jsonl"), testing::razor_vs_hex(), 1);
  const TableView v = make_table_view(m.state(), {}, {}, p);
  ASSERT_NE(v.base_of(0), nullptr);
  EXPECT_EQ(v.base_of(0)->source, PositionSource::Vision);
  EXPECT_EQ(v.base_of(0)->disc.centre.x, 1);
  EXPECT_EQ(v.base_of(1)->source, PositionSource::Vision);
}
#endif

}  // namespace
}  // namespace duels::overlay
