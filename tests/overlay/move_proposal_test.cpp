// Moves seen by the camera: a base that settles away from its journaled spot gets the move the
// engine would accept (or the engine's reason not), corrected by dragging, confirmed through the
// journal; an illegal physical move is flagged and never applied; jitter proposes nothing.
#include "overlay/move_proposal.hpp"

#include <gtest/gtest.h>

#include "fixtures.hpp"
#include "overlay/session.hpp"
#include "session_fixtures.hpp"

namespace duels::overlay {
namespace {

using testing::TempDir;

// Razor (Head 7, 2" base) at (20, 30), Hex at (32, 30), the crate (24..28, 42..46) down, dice
// chosen: Razor's turn. `pen`: an L of terrain closing off the table's corner (0..3, 0..3).
GameState first_turn(const TempDir& dir, bool pen = false) {
  auto m = match::DuelsMatch::create(dir.file("m.jsonl"), testing::razor_vs_hex(), 7);
  testing::play_to_first_turn(m, "crate", true);
  if (!pen) return m.state();
  // A new match with the pen as the Street Team's piece instead.
  auto p = match::DuelsMatch::create(dir.file("pen.jsonl"), testing::razor_vs_hex(), 7);
  auto ok = [&](const Command& c) {
    auto r = p.play(c);
    if (!r) throw std::runtime_error(r.error().reason);
  };
  ok(RollForAlpha{{{0, {6, 5}}, {1, {1, 2}}}});
  ok(PlaceTerrain{0, "pen", Shape::make_polygon({{3, 0}, {4, 0}, {4, 4}, {0, 4}, {0, 3}, {3, 3}})});
  ok(PassTerrain{1});
  ok(PassTerrain{0});
  ok(ChooseDice{0, testing::kRazorDice});
  ok(ChooseDice{1, testing::kHexDice});
  return p.state();
}

std::vector<TrackedBasePosition> seen(Vec2 razor, Vec2 hex = {32, 30}) {
  return {{"Razor", razor, 1.0}, {"Hex", hex, 1.0}};
}

// `frames` frames of the same positions.
void stand(MoveWatcher& w, const GameState& s, Vec2 razor, int frames, Vec2 hex = {32, 30}) {
  for (int i = 0; i < frames; ++i)
    w.observe(s, seen(razor, hex));
}

TEST(MoveProposal, JitterBelowTheThresholdProposesNothing) {
  TempDir dir;
  const GameState s = first_turn(dir);
  MoveWatcher w;
  // Tracking noise of ±0.2" around the journaled spot, for 40 frames.
  for (int i = 0; i < 40; ++i) {
    const double dx = (i % 3 - 1) * 0.2;
    const double dy = ((i / 3) % 3 - 1) * 0.2;
    w.observe(s, seen({20 + dx, 30 + dy}));
  }
  EXPECT_TRUE(w.proposals().empty());
}

TEST(MoveProposal, AProposalWaitsUntilTheBaseSettles) {
  TempDir dir;
  const GameState s = first_turn(dir);
  MoveWatcher w;  // settles after 5 frames within 0.25"
  stand(w, s, {20, 30}, 5);
  // Carried across the table, an inch a frame: no proposal while it moves.
  for (int i = 1; i <= 4; ++i)
    w.observe(s, seen({20.0 + i, 30}));
  EXPECT_TRUE(w.proposals().empty());
  // Put down at (24, 30): the fifth frame there (counting the one it arrived on) settles it.
  stand(w, s, {24, 30}, 3);
  EXPECT_TRUE(w.proposals().empty());
  const auto news = w.observe(s, seen({24.05, 30}));
  ASSERT_EQ(news, std::vector<FigureId>{0});
  ASSERT_NE(w.proposal(0), nullptr);
  EXPECT_FALSE(w.proposal(0)->moving);
  // Picked up again: the proposal waits (moving) until the base stands still.
  w.observe(s, seen({26, 31}));
  EXPECT_TRUE(w.proposal(0)->moving);
}

TEST(MoveProposal, ALegalMoveIsTheEnginesShortestPath) {
  TempDir dir;
  const GameState s = first_turn(dir);
  MoveWatcher w;
  stand(w, s, {24, 30}, 5);
  const MoveProposal* p = w.proposal(0);
  ASSERT_NE(p, nullptr);
  EXPECT_EQ(p->verdict, ProposalVerdict::Legal) << p->reason;
  EXPECT_TRUE(p->reason.empty());
  EXPECT_NEAR(p->length_in, 4.0, 1e-9);
  EXPECT_EQ(p->allowance_in, 7);
  ASSERT_GE(p->path.size(), 2U);
  EXPECT_NEAR(norm(p->path.front() - Vec2{20, 30}), 0, 1e-9);
  EXPECT_NEAR(norm(p->path.back() - Vec2{24, 30}), 0, 1e-9);
  ASSERT_TRUE(p->command.to);
  EXPECT_EQ(p->command.figure, 0);
  EXPECT_FALSE(p->command.distance_in);  // the table measures it, as `move Razor to 24 30`
  EXPECT_NEAR(p->command.to->x, 24, 1e-9);
  EXPECT_EQ(p->summary(), "Razor moved 4.00\" of 7\" to (24.0, 30.0): legal");
}

TEST(MoveProposal, EachRefusalHasItsVerdictAndTheEnginesReason) {
  TempDir dir;
  const GameState s = first_turn(dir);
  struct Case {
    Vec2 razor;
    ProposalVerdict verdict;
    std::string words;  // part of the engine's reason
  };
  const std::vector<Case> cases = {
      {{20, 40}, ProposalVerdict::TooFar, "can reach at most 7.0\""},
      {{31, 30}, ProposalVerdict::Overlaps, "overlap"},  // on Hex's base
      {{26, 36}, ProposalVerdict::TooFar, "can reach at most"},
      {{25, 43}, ProposalVerdict::Overlaps, "crate"},
      {{59.5, 30}, ProposalVerdict::OffTable, "(59.5, 30.0)"},
  };
  for (const Case& c : cases) {
    MoveWatcher w;
    stand(w, s, c.razor, 5);
    const MoveProposal* p = w.proposal(0);
    ASSERT_NE(p, nullptr) << c.razor.x << ", " << c.razor.y;
    EXPECT_EQ(p->verdict, c.verdict) << p->reason;
    EXPECT_NE(p->reason.find(c.words), std::string::npos) << p->reason;
    // The same words as the console's refusal of `move Razor to X Y`.
    const auto r = legal(s, Command{Move{0, {}, std::nullopt, Point{c.razor.x, c.razor.y}}});
    ASSERT_TRUE(r);
    EXPECT_EQ(p->reason, r->reason);
  }
  // Not its turn: Hex moved during Razor's turn.
  MoveWatcher w;
  stand(w, s, {20, 30}, 5, {30, 30});
  const MoveProposal* hex = w.proposal(1);
  ASSERT_NE(hex, nullptr);
  EXPECT_EQ(hex->verdict, ProposalVerdict::NotNow);
  EXPECT_FALSE(hex->reason.empty());
  EXPECT_LT(hex->length_in, 2.0 + 1e-9);  // the path is still measured: 2" straight
  EXPECT_GT(hex->length_in, 2.0 - 1e-9);
}

TEST(MoveProposal, AShutInSpotHasNoWay) {
  TempDir dir;
  const GameState s = first_turn(dir, true);
  MoveWatcher w;
  stand(w, s, {1.5, 1.5}, 5);
  const MoveProposal* p = w.proposal(0);
  ASSERT_NE(p, nullptr);
  EXPECT_EQ(p->verdict, ProposalVerdict::NoWay) << p->reason;
  EXPECT_NE(p->reason.find("no way"), std::string::npos) << p->reason;
  EXPECT_TRUE(p->path.empty());
}

TEST(MoveProposal, DraggingTheEndPointChecksItAgain) {
  TempDir dir;
  const GameState s = first_turn(dir);
  MoveWatcher w;
  stand(w, s, {20, 40}, 5);  // 10": too far for Head 7
  ASSERT_EQ(w.proposal(0)->verdict, ProposalVerdict::TooFar);
  ASSERT_TRUE(w.correct(s, 0, {20, 36.5}));
  const MoveProposal* p = w.proposal(0);
  EXPECT_TRUE(p->legal()) << p->reason;
  EXPECT_TRUE(p->corrected);
  EXPECT_NEAR(p->length_in, 6.5, 1e-9);
  EXPECT_NEAR(p->tracked.y, 40, 1e-9);  // the camera's spot is kept
  // More frames of the base standing there keep the correction.
  stand(w, s, {20, 40}, 10);
  EXPECT_TRUE(w.proposal(0)->corrected);
  EXPECT_NEAR(w.proposal(0)->to.y, 36.5, 1e-9);
  // Dragged onto the crate: refused again, with the reason.
  ASSERT_TRUE(w.correct(s, 0, {25, 43}));
  EXPECT_EQ(w.proposal(0)->verdict, ProposalVerdict::Overlaps);
  EXPECT_FALSE(w.correct(s, 1, {30, 30}));  // Hex has no proposal
}

TEST(MoveProposal, MovementDiceRolledLengthenTheAllowance) {
  TempDir dir;
  const GameState s = first_turn(dir);
  MoveWatcher w;
  stand(w, s, {20, 40}, 5);
  ASSERT_EQ(w.proposal(0)->verdict, ProposalVerdict::TooFar);
  // Razor's white d6 (die 0) rolled a 4: 11".
  const MoveRolls rolls{{0, {DieRoll{0, 4}}}};
  w.recheck(s, rolls);
  EXPECT_TRUE(w.proposal(0)->legal()) << w.proposal(0)->reason;
  EXPECT_EQ(w.proposal(0)->allowance_in, 11);
  EXPECT_EQ(w.proposal(0)->command.rolls, rolls.at(0));
}

TEST(MoveProposal, PuttingTheFigureBackClearsTheFlag) {
  TempDir dir;
  const GameState s = first_turn(dir);
  MoveWatcher w;
  stand(w, s, {20, 40}, 5);
  ASSERT_NE(w.proposal(0), nullptr);
  ASSERT_FALSE(w.proposal(0)->legal());
  // Carried back: still flagged while it moves…
  w.observe(s, seen({20, 35}));
  ASSERT_NE(w.proposal(0), nullptr);
  // …and gone once it stands at its journaled spot (within the noise).
  stand(w, s, {20.1, 30.1}, 5);
  EXPECT_TRUE(w.proposals().empty());
}

TEST(MoveProposal, LowConfidenceAndUnseenBasesKeepWhatWasProposed) {
  TempDir dir;
  const GameState s = first_turn(dir);
  MoveWatcher w;
  stand(w, s, {20, 40}, 5);
  ASSERT_NE(w.proposal(0), nullptr);
  // Occluded (confidence 0.4) at the journaled spot, then not seen at all: the flag stays.
  for (int i = 0; i < 10; ++i)
    w.observe(s, {{"Razor", {20, 30}, 0.4}});
  for (int i = 0; i < 10; ++i)
    w.observe(s, {});
  EXPECT_NE(w.proposal(0), nullptr);
}

// ---- through the session: the journal -----------------------------------------------------

// Razor's first turn with the camera watching: `frames` hands the session n sightings.
struct AtFirstTurn : testing::AtFirstTurn {
  void frames(Vec2 razor, int n, Vec2 hex = {32, 30}) {
    for (int i = 0; i < n; ++i)
      s->set_vision(seen(razor, hex));
  }
};

// The camera's unnamed bases reach the match's measurement: one between Razor and Hex blocks
// the line of fire; gone from the camera, it blocks nothing.
TEST(CameraMoves, AnUnnamedBaseTheCameraSeesBlocksTheLineOfFire) {
  AtFirstTurn t;
  Session& s = *t.s;
  s.set_vision(seen({20, 30}));
  EXPECT_TRUE(s.measure(0, 1).lof.clear);
  s.set_vision(seen({20, 30}), {{{26, 30}, 1.0}});
  const AttackMeasure& m = s.measure(0, 1);
  EXPECT_FALSE(m.lof.clear);
  EXPECT_EQ(m.blocker_ids, (std::vector<std::string>{"unnamed base (26.0, 30.0)"}));
  s.set_vision(seen({20, 30}));
  EXPECT_TRUE(s.measure(0, 1).lof.clear);
}

TEST(CameraMoves, ConfirmPlaysTheConsolesMoveAndUndoBringsTheProposalBack) {
  AtFirstTurn t;
  Session& s = *t.s;
  const auto seq0 = s.history().last_seq;
  t.frames({24, 30}, 5);
  ASSERT_EQ(s.proposals().size(), 1U);
  EXPECT_FALSE(s.status().error);
  EXPECT_NE(s.status().text.find("legal"), std::string::npos) << s.status().text;
  EXPECT_EQ(s.history().last_seq, seq0);  // nothing is applied by itself
  ASSERT_TRUE(s.confirm_proposal(0));
  EXPECT_EQ(s.history().last_seq, seq0 + 1);
  ASSERT_TRUE(s.state().figures[0].position);
  EXPECT_NEAR(s.state().figures[0].position->x, 24, 1e-9);
  EXPECT_TRUE(s.state().figures[0].moved);
  EXPECT_NE(s.status().text.find("Razor moves 4.0"), std::string::npos) << s.status().text;
  t.frames({24, 30}, 10);
  EXPECT_TRUE(s.proposals().empty());
  // Undo: the match has Razor at (20, 30) again while the base stands at (24, 30).
  s.undo();
  t.frames({24, 30}, 5);
  ASSERT_EQ(s.proposals().size(), 1U);
  EXPECT_TRUE(s.proposals().at(0).legal());
}

TEST(CameraMoves, AnIllegalMoveIsFlaggedAndNeverApplied) {
  AtFirstTurn t;
  Session& s = *t.s;
  const auto seq0 = s.history().last_seq;
  t.frames({20, 40}, 30);
  ASSERT_EQ(s.proposals().size(), 1U);
  EXPECT_TRUE(s.status().error);
  EXPECT_NE(s.status().text.find("NOT applied: put Razor back at (20.0, 30.0)"), std::string::npos)
      << s.status().text;
  EXPECT_FALSE(s.confirm_proposal(0));
  EXPECT_EQ(s.history().last_seq, seq0);
  EXPECT_NEAR(s.state().figures[0].position->y, 30, 1e-9);
  // Corrected by dragging to a legal spot, then confirmed there; the camera's spot is taken
  // as that one (no new flag while the base stays).
  s.correct_proposal(0, {20, 36});
  ASSERT_TRUE(s.proposals().at(0).legal());
  ASSERT_TRUE(s.confirm_proposal(0));
  EXPECT_EQ(s.history().last_seq, seq0 + 1);
  EXPECT_NEAR(s.state().figures[0].position->y, 36, 1e-9);
  t.frames({20, 40}, 10);
  EXPECT_TRUE(s.proposals().empty());
  // Moved again after its move: flagged (it has moved this turn).
  t.frames({20, 44}, 5);
  ASSERT_EQ(s.proposals().size(), 1U);
  EXPECT_EQ(s.proposals().at(0).verdict, ProposalVerdict::NotNow);
  EXPECT_FALSE(s.confirm_proposal(0));
  EXPECT_EQ(s.history().last_seq, seq0 + 1);
}

}  // namespace
}  // namespace duels::overlay
