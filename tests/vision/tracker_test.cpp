// The tracker on scripted observation sequences: settling, moving without lag, occlusion with
// age, loss, reappearance with the old identity, no teleporting, and measurements from settled
// bases only.
#include <gtest/gtest.h>

#include "vision/tracker.hpp"

namespace duels::vision {
namespace {

BaseObservation at(int id, double x, double y) {
  BaseObservation o;
  o.marker_id = id;
  o.centre_in = {x, y};
  o.radius_in = 1;
  return o;
}

TEST(Tracker, SettlesAfterThreeStillFramesAndAveragesNoise) {
  Tracker t;
  cv::RNG rng(5);
  std::vector<TrackedBase> out;
  for (int i = 0; i < 30; ++i) {
    out = t.update({at(1, 10 + rng.gaussian(0.02), 20 + rng.gaussian(0.02))}, i * 0.1);
    if (i < 2) {
      EXPECT_EQ(out[0].state, BaseState::kMoving) << i;
    }
  }
  EXPECT_EQ(out[0].state, BaseState::kSettled);
  EXPECT_NEAR(out[0].centre_in.x, 10, 0.015);
  EXPECT_NEAR(out[0].centre_in.y, 20, 0.015);
}

TEST(Tracker, FollowsADeliberateMoveWithoutLag) {
  Tracker t;
  for (int i = 0; i < 5; ++i)
    t.update({at(1, 10, 20)}, i * 0.1);
  for (int i = 1; i <= 10; ++i) {
    const double x = 10 + 0.5 * i;
    const auto out = t.update({at(1, x, 20)}, (4 + i) * 0.1);
    EXPECT_EQ(out[0].state, BaseState::kMoving) << i;
    EXPECT_NEAR(out[0].centre_in.x, x, 1e-9) << i;  // the newest position, not an average
  }
  std::vector<TrackedBase> out;
  for (int i = 0; i < 3; ++i)
    out = t.update({at(1, 15, 20)}, (15 + i) * 0.1);
  EXPECT_EQ(out[0].state, BaseState::kSettled);
  EXPECT_NEAR(out[0].centre_in.x, 15, 1e-9);
}

TEST(Tracker, OccludedKeepsPositionWithAgeThenLostThenReappearsWithIdentity) {
  TrackerOptions o;
  o.lost_after_s = 1.0;
  Tracker t(o);
  t.name(1, "Razor");
  for (int i = 0; i < 4; ++i)
    t.update({at(1, 10, 20)}, i * 0.1);
  auto out = t.update({}, 0.6);
  EXPECT_EQ(out[0].state, BaseState::kOccluded);
  EXPECT_TRUE(out[0].stale());
  EXPECT_NEAR(out[0].age_s, 0.3, 1e-9);
  EXPECT_DOUBLE_EQ(out[0].centre_in.x, 10);
  out = t.update({}, 1.5);
  EXPECT_EQ(out[0].state, BaseState::kLost);
  out = t.update({at(1, 30, 40)}, 1.6);  // moved while hidden: same identity, new place
  EXPECT_EQ(out[0].figure, "Razor");
  EXPECT_EQ(out[0].state, BaseState::kMoving);
  EXPECT_DOUBLE_EQ(out[0].centre_in.x, 30);
  EXPECT_DOUBLE_EQ(out[0].age_s, 0);
}

TEST(Tracker, OneFrameJumpIsNotBelievedTwoAre) {
  Tracker t;
  for (int i = 0; i < 4; ++i)
    t.update({at(1, 10, 20)}, i * 0.1);
  auto out = t.update({at(1, 50, 50)}, 0.4);  // 50 inches in 0.1 s: a false detection
  EXPECT_DOUBLE_EQ(out[0].centre_in.x, 10);
  out = t.update({at(1, 10, 20)}, 0.5);
  EXPECT_DOUBLE_EQ(out[0].centre_in.x, 10);
  EXPECT_EQ(out[0].state, BaseState::kSettled);
  t.update({at(1, 50, 50)}, 0.6);
  out = t.update({at(1, 50, 50)}, 0.7);  // confirmed
  EXPECT_DOUBLE_EQ(out[0].centre_in.x, 50);
}

TEST(Measure, OnlySettledBasesAreMeasuredAndOthersBlock) {
  std::vector<TrackedBase> bases(4);
  const char* names[] = {"A", "B", "C", "D"};
  const double xs[] = {10, 20, 15, 40};
  for (int i = 0; i < 4; ++i) {
    bases[i].figure = names[i];
    bases[i].centre_in = {xs[i], 10};
    bases[i].radius_in = 1;
    bases[i].state = BaseState::kSettled;
  }
  bases[3].state = BaseState::kOccluded;
  const TableState s = measure_table(7, 0.7, bases);
  ASSERT_EQ(s.pairs.size(), 3u);  // A-B, A-C, B-C
  ASSERT_EQ(s.not_measured.size(), 1u);
  for (const auto& p : s.pairs) {
    if (p.a == "A" && p.b == "B") {
      EXPECT_NEAR(p.gap_in, 8, 1e-12);
      EXPECT_FALSE(p.line_of_fire);  // C stands between them
      ASSERT_EQ(p.blockers.size(), 1u);
      EXPECT_EQ(p.blockers[0], "C");
    }
  }
}

// A base the camera sees but cannot name stands on the table all the same: it blocks the line
// of fire between two bases as a named one does, and is listed, not measured.
TEST(Measure, AnUnnamedBaseBlocksLinesOfFire) {
  std::vector<TrackedBase> bases(2);
  bases[0].figure = "A";
  bases[0].centre_in = {10, 10};
  bases[1].figure = "B";
  bases[1].centre_in = {30, 10};
  for (auto& b : bases) {
    b.radius_in = 1;
    b.state = BaseState::kSettled;
  }
  const TableState clear = measure_table(7, 0.7, bases);
  ASSERT_EQ(clear.pairs.size(), 1u);
  EXPECT_TRUE(clear.pairs[0].line_of_fire);
  UnnamedBase u;
  u.centre_in = {20, 10};
  u.radius_in = 1;
  const TableState s = measure_table(7, 0.7, bases, {u});
  ASSERT_EQ(s.pairs.size(), 1u);
  EXPECT_FALSE(s.pairs[0].line_of_fire);
  ASSERT_EQ(s.pairs[0].blockers.size(), 1u);
  EXPECT_EQ(s.pairs[0].blockers[0], "unnamed base (20.0, 10.0)");
  ASSERT_EQ(s.unnamed.size(), 1u);
  EXPECT_TRUE(s.not_measured.empty());
  // Off the line, it blocks nothing.
  u.centre_in = {20, 14};
  EXPECT_TRUE(measure_table(7, 0.7, bases, {u}).pairs[0].line_of_fire);
}

}  // namespace
}  // namespace duels::vision
