// Issue #52, "nothing lost, round two", end to end through the real `duels` binary: one test per
// row of the table, each written to fail before its fix.
#include <gtest/gtest.h>

#include <string>

#include "files.hpp"
#include "reliability_support.hpp"
#include "test_paths.hpp"

namespace {

using namespace duels_reliability;

// Row 1: a terrain piece of radius 0.0000001" was accepted and played on, and every later open
// of the journal refused it; `match repair` then cut the whole evening after event 1.
TEST(Row52, ATerrainPieceTheJournalCannotReadIsRefusedWhereItIsTyped) {
  Sandbox box("tiny_terrain");
  const std::string j = box.file("m.jsonl");
  ASSERT_EQ(run(box.env, "match new --figures Razor,Bulldozer --seed 3 --journal " + j).code, 0);
  spit(box.file("s.txt"), "alpha 6+5 2+3\nterrain Rock circle 30 30 0.0000001\n");
  Outcome r = run(box.env, "match play " + j + " --script " + box.file("s.txt"));
  EXPECT_EQ(r.code, 3) << r.out;
  EXPECT_TRUE(has(r.out, "s.txt:2")) << r.out;
  EXPECT_TRUE(has(r.out, "radius must be from 1e-06 to 1000 inches")) << r.out;
  // The smallest radius it takes is one the journal reads back: the match goes on.
  spit(box.file("s.txt"), "terrain Rock circle 30 30 0.000001\npass\npass\n");
  r = run(box.env, "match play " + j + " --script " + box.file("s.txt"));
  EXPECT_EQ(r.code, 0) << r.out;
  r = run(box.env, "match show " + j);
  EXPECT_EQ(r.code, 0) << r.out;
  EXPECT_TRUE(has(r.out, "event 4")) << r.out;
}

}  // namespace
