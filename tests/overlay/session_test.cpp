// The overlay's state and actions, driven headless: every command goes through the journal, the
// wizard's odds are the advisor's, undo / jump / play-on work on the journal, the opponent only
// decides for its teams.
#include "overlay/session.hpp"

#include <gtest/gtest.h>

#include "dice/notation.hpp"
#include "duels/odds.hpp"
#include "fixtures.hpp"
#include "session_fixtures.hpp"

namespace duels::overlay {
namespace {

using testing::TempDir;

using testing::AtFirstTurn;
using testing::headless;

TEST(Session, TheAttackCandidatesAreTheLegalDiceAtThisRange) {
  AtFirstTurn t;
  Session& s = *t.s;
  s.select(0);
  s.set_target(1, false);
  ASSERT_EQ(s.attacker(), 0);
  ASSERT_EQ(s.attack_target(), 1);
  // On Razor's base: white d6, yellow d8 ace (its track ends at 4"), blue d8, blue d10 ace,
  // green d6, blue d10 ace (smartgun link). At 10": the blues and the green.
  EXPECT_EQ(s.attack_candidates(), (std::vector<DieId>{3, 4, 5, 6}));
}

TEST(Session, AdviceIsTheExactOddsOfEachSubsetAgainstTheBestDodge) {
  AtFirstTurn t;
  Session& s = *t.s;
  s.select(0);
  s.set_target(1, false);
  const auto advice = s.attack_advice();
  ASSERT_TRUE(advice);
  ASSERT_EQ(advice->attacks.size(), 15U);  // every non-empty subset of four dice is legal
  const GameState& st = s.state();
  const auto cand = s.attack_candidates();
  const FigureState& razor = st.figures[0];
  const FigureState& hex = st.figures[1];
  // Hex's dodge dice on the base: white d6, white d8, yellow d6, red d6 ace, red d8.
  std::vector<DieId> dodge_ids;
  for (DieId id : hex.dice_in(DieZone::Base)) {
    const auto c = hex.dice[static_cast<std::size_t>(id)].die.colour;
    if (c == dice::Colour::White || c == dice::Colour::Yellow || dice::is_wild(c))
      dodge_ids.push_back(id);
  }
  double previous = 1e9;
  for (const auto& a : advice->attacks) {
    OddsQuery q{razor.value(DialKind::Weapon), hex.value(DialKind::Body), {}, {}, hex.shields(),
                razor.def.damage_bonus};
    for (int i : a.attack.dice)
      q.attack.push_back(
          razor.dice[static_cast<std::size_t>(cand[static_cast<std::size_t>(i)])].die);
    for (int i : a.best_dodge.dice)
      q.dodge.push_back(
          hex.dice[static_cast<std::size_t>(dodge_ids[static_cast<std::size_t>(i)])].die);
    EXPECT_EQ(attack_odds(q).hit, a.attack.odds.hit);
    EXPECT_NEAR(attack_odds(q).expected_clicks(), a.attack.odds.expected_clicks(), 1e-12);
    EXPECT_LE(a.attack.odds.expected_clicks(), previous + 1e-12);  // best first
    previous = a.attack.odds.expected_clicks();
  }
}

TEST(Session, AWholeAttackIsJournaledStepByStep) {
  AtFirstTurn t;
  Session& s = *t.s;
  s.select(0);
  s.set_target(1, true);
  s.toggle_attack_die(3);  // blue d8
  s.toggle_attack_die(5);  // green d6
  s.toggle_attack_die(0);  // a white die can't attack: ignored
  EXPECT_EQ(s.wizard.attack_pick, (std::vector<DieId>{3, 5}));
  s.declare_attack();
  ASSERT_TRUE(s.state().attack) << s.status().text;
  EXPECT_EQ(s.state().attack->stage, AttackStage::Dodge);
  EXPECT_TRUE(s.wizard.attack_pick.empty());

  const auto dodges = s.dodge_advice();
  ASSERT_TRUE(dodges);
  ASSERT_FALSE(dodges->dodges.empty());
  for (std::size_t i = 1; i < dodges->dodges.size(); ++i) {
    EXPECT_LE(dodges->dodges[i - 1].odds.expected_clicks(),
              dodges->dodges[i].odds.expected_clicks() + 1e-12);
  }
  s.choose_dodge(true);
  ASSERT_EQ(s.state().attack->stage, AttackStage::Roll);

  s.wizard.attack_typed = {"7", "9"};  // 9 is not a face of a d6
  s.apply_typed_roll();
  EXPECT_TRUE(s.status().error);
  EXPECT_NE(s.status().text.find("'9'"), std::string::npos) << s.status().text;
  ASSERT_EQ(s.state().attack->stage, AttackStage::Roll);

  s.wizard.attack_typed = {"7", "5"};
  const auto [in, preview] = preview_roll(s.state(), {7, 5}, {}, std::nullopt);
  s.apply_typed_roll();
  ASSERT_TRUE(s.state().attack) << s.status().text;
  ASSERT_EQ(s.state().attack->stage, AttackStage::Damage);
  const AttackResult& r = s.state().attack->result;
  EXPECT_EQ(r, preview);
  EXPECT_TRUE(r.hit);                           // 6 + 7 + 5 = 18 against Body 8
  EXPECT_EQ(r.blocked, (std::vector<int>{1}));  // Spirit Ward's green shield
  EXPECT_EQ(r.clicks, 1);
  s.assign_damage(DialKind::Body);
  EXPECT_FALSE(s.state().attack);
  EXPECT_EQ(s.state().figures[1].dial[2], 1);

  // The journal has it all, and replays to the same state.
  const auto replayed = match::replay(match::read_journal(s.journal_path()));
  EXPECT_EQ(state_hash(replayed.state), state_hash(s.state()));
  ASSERT_GE(replayed.steps.size(), 4U);
  const auto& last4 = std::vector<match::MatchStep>(replayed.steps.end() - 4, replayed.steps.end());
  EXPECT_TRUE(std::holds_alternative<DeclareAttack>(last4[0].command));
  EXPECT_EQ(std::get<DeclareAttack>(last4[0].command).dice, (std::vector<DieId>{3, 5}));
  EXPECT_NEAR(std::get<DeclareAttack>(last4[0].command).measurement.gap_in, 10, 1e-6);
  EXPECT_TRUE(std::get<ChooseDodge>(last4[1].command).dice.empty());
  EXPECT_EQ(std::get<RollAttack>(last4[2].command).attack_faces, (std::vector<int>{7, 5}));
  EXPECT_EQ(std::get<AssignDamage>(last4[3].command).dial, DialKind::Body);
}

// Plays an attack with the virtual dice; returns the faces rolled.
std::vector<int> virtual_attack(Session& s) {
  s.select(0);
  s.set_target(1, true);
  s.wizard.attack_pick = {3, 4, 5};
  s.declare_attack();
  s.choose_dodge(true);
  s.start_virtual_roll();
  s.tick(10);
  if (s.wizard.rolling && s.wizard.rolling->settled) s.apply_settled_roll();
  const auto& h = s.history().steps;
  for (auto it = h.rbegin(); it != h.rend(); ++it) {
    if (const auto* r = std::get_if<RollAttack>(&it->command)) return r->attack_faces;
  }
  return {};
}

TEST(Session, VirtualRollsAreReproducibleFromTheSeed) {
  AtFirstTurn a;
  AtFirstTurn b;
  const auto fa = virtual_attack(*a.s);
  const auto fb = virtual_attack(*b.s);
  ASSERT_EQ(fa.size(), 3U);
  EXPECT_EQ(fa, fb);
  EXPECT_TRUE(fa[0] >= 1 && fa[0] <= 8);
  EXPECT_TRUE(fa[1] >= 1 && fa[1] <= 10);
  EXPECT_TRUE(fa[2] >= 1 && fa[2] <= 6);
}

TEST(Session, TheRollWaitsForTheAnimation) {
  SessionOptions o = headless();
  o.roll_animation_s = 0.5;
  AtFirstTurn t(o);
  Session& s = *t.s;
  s.select(0);
  s.set_target(1, true);
  s.wizard.attack_pick = {3};
  s.declare_attack();
  s.choose_dodge(true);
  s.tick(100.0);
  s.start_virtual_roll();
  s.tick(100.2);
  EXPECT_EQ(s.state().attack->stage, AttackStage::Roll);  // still rolling
  s.tick(100.6);
  EXPECT_TRUE(!s.state().attack || s.state().attack->stage != AttackStage::Roll);
}

TEST(Session, UndoJumpAndPlayOnFromHere) {
  AtFirstTurn t;
  Session& s = *t.s;
  s.select(0);
  s.set_target(1, true);
  s.wizard.attack_pick = {3};
  s.declare_attack();
  const std::uint64_t declared = s.history().last_seq;
  s.choose_dodge(true);
  const std::uint64_t dodged = s.history().last_seq;
  const std::uint64_t hash_dodged = state_hash(s.state());

  s.undo();
  EXPECT_EQ(s.state().attack->stage, AttackStage::Dodge);
  s.redo();
  EXPECT_EQ(state_hash(s.state()), hash_dodged);

  s.jump_to(declared);
  EXPECT_FALSE(s.live());
  EXPECT_EQ(s.state().attack->stage, AttackStage::Dodge);
  EXPECT_FALSE(s.play(ChooseDodge{}));  // the past is read-only
  EXPECT_TRUE(s.status().error);
  s.go_live();
  EXPECT_TRUE(s.live());
  EXPECT_EQ(state_hash(s.state()), hash_dodged);

  s.jump_to(declared);
  s.play_on_from_here();
  EXPECT_TRUE(s.live());
  EXPECT_EQ(s.history().steps.back().seq, declared);
  EXPECT_EQ(s.state().attack->stage, AttackStage::Dodge);
  EXPECT_GT(s.history().last_seq, dodged);  // the undo is journaled, nothing erased
}

TEST(Session, TheOpponentDecidesOnlyForItsTeams) {
  SessionOptions o = headless();
  o.ai_teams = {false, true};
  AtFirstTurn t(o);
  Session& s = *t.s;
  EXPECT_FALSE(s.ai_step(false));  // Razor's turn: the human's
  s.select(0);
  s.set_target(1, true);
  s.wizard.attack_pick = {3};
  s.declare_attack();
  EXPECT_EQ(deciding_team(s.state()), 1);
  EXPECT_TRUE(s.ai_step(false));  // Hex's dodge: the opponent's
  EXPECT_EQ(s.state().attack->stage, AttackStage::Roll);
  EXPECT_FALSE(s.ai_step(false));  // the roll is the attacker's
  EXPECT_TRUE(s.ai_step(true));    // unless asked to decide for anyone
}

TEST(Session, AutoRunPlaysTheOpponentsTurnsOnItsOwn) {
  SessionOptions o = headless();
  o.ai_teams = {true, true};
  o.auto_run = true;
  o.step_delay_s = 0;
  AtFirstTurn t(o);
  Session& s = *t.s;
  const auto before = s.history().steps.size();
  for (int i = 0; i < 40; ++i)
    s.tick(i);
  EXPECT_GT(s.history().steps.size(), before + 5);
}

TEST(Session, DiceAtRoundStartOneClickPerDie) {
  AtFirstTurn t(headless(), false);
  Session& s = *t.s;
  ASSERT_EQ(s.state().phase, Phase::ChooseDice);
  for (DieId d = 0; d < 8; ++d)
    s.toggle_plan_die(0, d);
  EXPECT_EQ(s.dice_plan[0].size(), 6U);  // at most six
  s.toggle_plan_die(0, 0);               // a second click puts it back
  EXPECT_EQ(s.dice_plan[0], (std::vector<DieId>{1, 2, 3, 4, 5}));
  s.confirm_dice(0);
  EXPECT_TRUE(s.state().figures[0].chose_dice);
  EXPECT_EQ(s.state().figures[0].dice_in(DieZone::Base), (std::vector<DieId>{1, 2, 3, 4, 5}));
  EXPECT_EQ(s.dice_plan.count(0), 0U);
}

TEST(Session, MovingStaysInsideTheReachableRegion) {
  AtFirstTurn t;
  Session& s = *t.s;
  s.begin_move(0);
  ASSERT_TRUE(s.move.active);
  EXPECT_EQ(s.move_allowance_in(), 7);
  const ReachResult* r = s.reach();
  ASSERT_NE(r, nullptr);
  EXPECT_TRUE(r->contains({20, 35}));
  EXPECT_FALSE(r->contains({20, 45}));
  s.move_to({20, 45});  // 15" away
  EXPECT_TRUE(s.status().error);
  EXPECT_FALSE(s.state().figures[0].moved);
  s.move_to({20, 35});
  ASSERT_TRUE(s.state().figures[0].moved) << s.status().text;
  EXPECT_EQ(*s.state().figures[0].position, (Point{20, 35}));
  const auto* m = std::get_if<Move>(&s.history().steps.back().command);
  ASSERT_NE(m, nullptr);
  ASSERT_TRUE(m->distance_in);
  EXPECT_NEAR(*m->distance_in, 5, 1e-9);
  EXPECT_FALSE(s.move.active);
}

TEST(Session, ManualOverridesAreJournaledAndComeBack) {
  TempDir dir;
  const std::string path = dir.file("m.jsonl");
  {
    auto m = match::DuelsMatch::create(path, testing::razor_vs_hex(), 7);
    testing::play_to_first_turn(m);
    Session s(std::move(m), testing::crate_layout(), headless());
    s.override_position(1, {20, 40});
    EXPECT_EQ(s.table().base_of(1)->source, PositionSource::Manual);
    EXPECT_NEAR(s.measure(0, 1).centre_gap_in, 8, 1e-9);
  }
  Session again(match::DuelsMatch::resume(path), testing::crate_layout(), headless());
  ASSERT_EQ(again.table().base_of(1)->source, PositionSource::Manual);
  EXPECT_EQ(again.table().base_of(1)->disc.centre, (Vec2{20, 40}));
  again.clear_override(1);
  EXPECT_EQ(again.table().base_of(1)->disc.centre, (Vec2{32, 30}));
}

TEST(Session, TheDiceRollerHasTheExactDistribution) {
  AtFirstTurn t;
  Session& s = *t.s;
  s.roller.pool_text = "2xwhite:d6";
  s.refresh_roller();
  ASSERT_TRUE(s.roller.distribution);
  EXPECT_EQ(s.roller.distribution->total, 36U);
  EXPECT_EQ(s.roller.distribution->count(7), 6U);
  s.roll_pool();
  ASSERT_EQ(s.roller.history.size(), 1U);
  const auto& e = s.roller.history.front();
  EXPECT_EQ(e.total, e.rolls[0].value() + e.rolls[1].value());
  s.roller.pool_text = "2xwhite:d7";
  s.refresh_roller();
  EXPECT_FALSE(s.roller.distribution);
  EXPECT_NE(s.roller.error.find("d7"), std::string::npos);
  s.roll_pool();
  EXPECT_EQ(s.roller.history.size(), 1U);
}

TEST(Session, TypedFaces) {
  const dice::Die d8{8, dice::Colour::Blue, false, ""};
  const dice::Die ace6{6, dice::Colour::Yellow, true, ""};
  EXPECT_EQ(parse_face("8", d8), 8);
  EXPECT_EQ(parse_face(" 1 ", d8), 1);
  EXPECT_FALSE(parse_face("9", d8));
  EXPECT_FALSE(parse_face("ace", d8));
  EXPECT_EQ(parse_face("ACE", ace6), 1);
  EXPECT_FALSE(parse_face("1", ace6));  // an ace die has no 1
  EXPECT_FALSE(parse_face("", d8));
  EXPECT_FALSE(parse_face("3x", d8));
}

}  // namespace
}  // namespace duels::overlay
