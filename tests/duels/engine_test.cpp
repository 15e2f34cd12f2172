// The engine in play: set-up order, rounds, the combat order A–M, elimination and victory.
// Spec §6 worked checks 3, 7, 8, 9 and 10 are repeated here through apply().
#include "duels/engine.hpp"

#include <gtest/gtest.h>

#include "dice/notation.hpp"
#include "dice/roller.hpp"

namespace duels {
namespace {

using dice::Colour;

Dial dial(std::initializer_list<DialPosition> p) {
  return Dial{std::vector<DialPosition>(p)};
}

FigureDef make_figure(const std::string& name, const char* dice_text) {
  FigureDef f;
  f.name = name;
  f.points = 40;
  f.base_diameter_in = 2;
  f.starting_dice = *dice::parse_pool(dice_text);
  f.damage_bonus = {{Colour::Yellow, 1}};
  // Head 6,5,4(hole),3 ; Weapon 7,6(yellow shield),5(hole),4 ; Body 9,8,7(hole),6(hole)
  f.dials[0] = dial({{6}, {5}, {4, {}, 1}, {3}});
  f.dials[1] = dial({{7}, {6, Colour::Yellow, 0}, {5, {}, 1}, {4}});
  f.dials[2] = dial({{9}, {8}, {7, {}, 1}, {6, {}, 1}});
  f.tape.tracks = {{Colour::Yellow, 0, 4}, {Colour::Blue, 0, 12}, {Colour::Green, 0, 24}};
  return f;
}

GearDef gear(const std::string& id, int points, const char* dice_text,
             std::vector<Colour> shields) {
  GearDef g{id, id, points, {}, std::move(shields), true};
  if (dice_text != nullptr) g.dice = *dice::parse_pool(dice_text);
  return g;
}

MatchSetup two_figures() {
  MatchSetup s;
  s.teams.push_back(
      {"Red",
       {{make_figure("Ann", "white:d6 yellow:d8 blue:d6:ace green:d8:ace red:d6 black:d6:ace"),
         {gear("vest", 4, "white:d8", {Colour::Yellow})},
         Point{10, 10}}}});
  s.teams.push_back(
      {"Blue",
       {{make_figure("Bob", "white:d6 yellow:d6 blue:d8 green:d6:ace"),
         {gear("deck", 5, "black:d8", {}), gear("jacket", 3, nullptr, {Colour::Blue})},
         Point{10, 70}}}});
  s.table.bounds = {80, 80};  // Ann and Bob stand 60" apart
  return s;
}

// Applies and expects success.
std::vector<Event> ok(GameState& s, const Command& c) {
  auto r = apply(s, c);
  EXPECT_TRUE(r) << command_name(c) << ": " << (r ? "" : r.error().reason);
  return r ? *r : std::vector<Event>{};
}

Rejection rejected(GameState& s, const Command& c) {
  const GameState before = s;
  auto r = apply(s, c);
  EXPECT_FALSE(r) << command_name(c) << " was accepted";
  EXPECT_EQ(s, before) << "a rejected command changed the state";
  return r ? Rejection{} : r.error();
}

// A started match: Red is alpha, figures pre-placed, all dice on bases; Red may put down one
// terrain piece.
GameState started(MatchSetup setup = two_figures(), std::optional<Shape> terrain = std::nullopt) {
  GameState s = *new_game(setup);
  ok(s, RollForAlpha{{{0, {6, 5}}, {1, {2, 3}}}});
  if (terrain) ok(s, PlaceTerrain{0, "crate", terrain});
  ok(s, PassTerrain{s.placing});
  if (s.phase == Phase::PlaceTerrain) ok(s, PassTerrain{s.placing});
  EXPECT_EQ(s.phase, Phase::ChooseDice);
  for (FigureId f = 0; f < static_cast<FigureId>(s.figures.size()); ++f) {
    auto cup = s.figures[static_cast<std::size_t>(f)].dice_in(DieZone::Cup);
    if (cup.size() > 6) cup.resize(6);
    ok(s, ChooseDice{f, cup});
  }
  EXPECT_EQ(s.phase, Phase::Turns);
  return s;
}

// A gap measured by hand (the line of fire still comes from the positions).
Measurement at(double gap) {
  Measurement m{gap, 2.0, true, {}};
  m.manual = true;
  return m;
}

TEST(Setup, DialsAtGreenArrowAndPoolInCup) {
  GameState s = *new_game(two_figures());
  for (const auto& f : s.figures) {
    EXPECT_EQ(f.dial, (std::array<int, 3>{0, 0, 0}));
    for (const auto& d : f.dice)
      EXPECT_EQ(d.zone, DieZone::Cup);
  }
  EXPECT_EQ(s.figures[0].dice.size(), 7U);  // six starting + the vest's white d8
  EXPECT_EQ(s.figures[0].dice.back().die.origin, "vest");
}

TEST(Setup, GearOverTwelvePointsRejected) {
  MatchSetup m = two_figures();
  m.teams[0].figures[0].gear.push_back(gear("big", 9, nullptr, {}));
  auto r = new_game(m);
  ASSERT_FALSE(r);
  EXPECT_NE(r.error().reason.find("13 points of gear"), std::string::npos) << r.error().reason;
}

TEST(Setup, AlphaTiesRerollOnlyAmongTheTied) {
  MatchSetup m = two_figures();
  m.teams.push_back({"Green", {{make_figure("Cy", "white:d6"), {}, Point{70, 40}}}});
  GameState s = *new_game(m);
  ok(s, RollForAlpha{{{0, {6, 5}}, {1, {5, 6}}, {2, {1, 1}}}});
  EXPECT_EQ(s.phase, Phase::AlphaRoll);
  EXPECT_EQ(s.alpha_contenders, (std::vector<TeamId>{0, 1}));
  auto r = rejected(s, RollForAlpha{{{0, {1, 2}}, {1, {3, 4}}, {2, {6, 6}}}});
  EXPECT_NE(r.reason.find("Red, Blue"), std::string::npos) << r.reason;
  ok(s, RollForAlpha{{{0, {1, 2}}, {1, {3, 4}}}});
  EXPECT_EQ(s.alpha, 1);
  EXPECT_EQ(s.phase, Phase::PlaceTerrain);
  EXPECT_EQ(s.placing, 1);
}

TEST(Setup, TerrainAndFiguresPlaceInTurnFromAlpha) {
  MatchSetup m = two_figures();
  for (auto& t : m.teams)
    t.figures[0].position.reset();
  GameState s = *new_game(m);
  ok(s, RollForAlpha{{{0, {1, 1}}, {1, {6, 6}}}});
  EXPECT_EQ(s.placing, 1);
  rejected(s, PlaceTerrain{0, "crate", Shape::make_rect({40, 40}, 4, 4)});
  ok(s, PlaceTerrain{1, "crate", Shape::make_rect({40, 40}, 4, 4)});
  ok(s, PlaceTerrain{0, "wall", Shape::make_rect({60, 40}, 1, 8)});
  ok(s, PlaceTerrain{1, "car", Shape::make_rect({20, 40}, 6, 3)});
  ok(s, PassTerrain{0});
  EXPECT_EQ(s.phase, Phase::PlaceFigures);
  EXPECT_EQ(s.placing, 1);
  ok(s, PlaceFigure{1, Point{30, 5}});
  // Ann must be 48" from Bob's base edge: centre distance ≥ 48 + 2.
  auto r = rejected(s, PlaceFigure{0, Point{30, 50}});
  EXPECT_EQ(r.code, RejectCode::PlacementTooClose);
  EXPECT_NE(r.reason.find("48.0\""), std::string::npos) << r.reason;
  ok(s, PlaceFigure{0, Point{30, 55.5}});
  EXPECT_EQ(s.phase, Phase::ChooseDice);
  EXPECT_EQ(s.round, 1);
}

TEST(Round, AtMostSixDiceFromTheCup) {
  GameState s = *new_game(two_figures());
  ok(s, RollForAlpha{{{0, {6, 5}}, {1, {2, 3}}}});
  ok(s, PassTerrain{0});
  ok(s, PassTerrain{1});
  auto r = rejected(s, ChooseDice{0, {0, 1, 2, 3, 4, 5, 6}});
  EXPECT_EQ(r.code, RejectCode::TooManyDice);
  ok(s, ChooseDice{0, {0, 1, 2}});
  rejected(s, ChooseDice{0, {3}});  // only once per round
  EXPECT_EQ(s.phase, Phase::ChooseDice);
  ok(s, ChooseDice{1, {}});
  EXPECT_EQ(s.phase, Phase::Turns);
  EXPECT_EQ(s.active_team, 0);
}

TEST(Turn, MoveUsesHeadPlusWhiteDice) {
  GameState s = started();
  // Ann: Head 6; white d6 is die 0.
  auto r = rejected(s, Move{0, {}, std::nullopt, Point{10, 16.5}});
  EXPECT_EQ(r.code, RejectCode::TooFar);
  r = rejected(s, Move{0, {{1, 4}}, 8, Point{10, 18}});  // yellow can't move
  EXPECT_EQ(r.code, RejectCode::IllegalColour);
  ok(s, Move{0, {{0, 3}}, 9, Point{10, 19}});
  EXPECT_EQ(s.figures[0].dice[0].zone, DieZone::Cup);
  EXPECT_EQ(s.figures[0].position, (Point{10, 19}));
  r = rejected(s, Move{0, {}, 1, std::nullopt});
  EXPECT_EQ(r.code, RejectCode::AlreadyMoved);
}

TEST(Turn, OtherTeamCannotActAndRejectionLeavesStateAlone) {
  GameState s = started();
  auto r = rejected(s, Move{1, {}, 1, std::nullopt});
  EXPECT_EQ(r.code, RejectCode::NotYourTurn);
  EXPECT_NE(r.reason.find("Red's turn"), std::string::npos);
}

TEST(Attack, ColoursMustReachTheTarget) {
  GameState s = started();
  // Ann's dice: 0 white d6, 1 yellow d8, 2 blue d6 ace, 3 green d8 ace, 4 red d6, 5 black d6 ace
  auto r = rejected(s, DeclareAttack{0, 1, at(14.2), {2}});
  EXPECT_EQ(r.code, RejectCode::OutOfRange);
  EXPECT_EQ(r.reason,
            "blue dice can't attack at 14.20\": the blue track ends at 12.00\" on the tape, so it "
            "reaches 12.00\" at most");
  r = rejected(s, DeclareAttack{0, 1, at(5), {0}});
  EXPECT_NE(r.reason.find("white dice can't attack"), std::string::npos);
  ok(s, DeclareAttack{0, 1, at(5), {2, 4}});  // blue + red joining: legal
}

TEST(Attack, Check10_WildDieAloneWithoutItsTrackIsRejected) {
  GameState s = started();
  auto r = rejected(s, DeclareAttack{0, 1, at(5), {4}});
  EXPECT_EQ(r.code, RejectCode::IllegalColour);
  EXPECT_NE(r.reason.find("red dice can't be rolled alone"), std::string::npos) << r.reason;
  EXPECT_NE(r.reason.find("Ann's tape has no red track"), std::string::npos) << r.reason;
}

TEST(Attack, WildAloneAllowedWithOwnTrackInRange) {
  MatchSetup m = two_figures();
  m.teams[0].figures[0].figure.tape.tracks.push_back({Colour::Red, 0, 10});
  GameState s = started(m);
  EXPECT_FALSE(apply(s, DeclareAttack{0, 1, at(11), {4}}));
  ok(s, DeclareAttack{0, 1, at(5), {4}});
}

TEST(Attack, NoLineOfFireNoAttack) {
  GameState s = started(two_figures(), Shape::make_rect({10, 40}, 12, 2));  // across the gap
  auto r = rejected(s, DeclareAttack{0, 1, Measurement{5, 2, false, {"crate"}}, {1}});
  EXPECT_EQ(r.code, RejectCode::NoLineOfFire);
  EXPECT_EQ(r.reason, "Ann has no line of fire to Bob (blocked by crate)");
  r = rejected(s, DeclareAttack{0, 1, at(5), {1}});  // a hand-measured gap does not see through
  EXPECT_EQ(r.code, RejectCode::NoLineOfFire);
}

TEST(Attack, FullSequenceHitShieldsBonusAndDamage) {
  GameState s = started();
  ok(s, DeclareAttack{0, 1, at(3), {1, 2}});  // yellow d8, blue d6:ace
  EXPECT_EQ(s.figures[0].attacks, 1);
  ok(s, ChooseDodge{{0}});  // Bob: white d6
  // yellow 6, blue 3 → Weapon 7 + 9 = 16 vs Body 9 + 2 = 11: hit. Bob's jacket blocks the blue.
  ok(s, RollAttack{{6, 3}, {2}, std::nullopt});
  ASSERT_TRUE(s.attack);
  EXPECT_EQ(s.attack->stage, AttackStage::Damage);
  EXPECT_EQ(s.attack->result.clicks, 2);  // yellow die + yellow bonus
  for (DieId id : {1, 2})
    EXPECT_EQ(s.figures[0].dice[static_cast<std::size_t>(id)].zone, DieZone::Cup);
  EXPECT_EQ(s.figures[1].dice[0].zone, DieZone::Cup);
  rejected(s, EndTurn{0});  // the attack must finish first
  ok(s, AssignDamage{DialKind::Weapon});
  EXPECT_EQ(s.figures[1].dial[1], 2);
  EXPECT_EQ(s.figures[1].value(DialKind::Weapon), 5);
  EXPECT_FALSE(s.attack);
}

TEST(Attack, Check3_AllBadKarmaMissesAndDiceGoToCup) {
  GameState s = started();
  ok(s, DeclareAttack{0, 1, at(3), {1, 2}});
  ok(s, ChooseDodge{{}});
  auto ev = ok(s, RollAttack{{4, 4}, {}, std::nullopt});
  EXPECT_FALSE(s.attack);
  EXPECT_EQ(s.figures[1].dial, (std::array<int, 3>{0, 0, 0}));
  EXPECT_EQ(s.figures[0].dice[1].zone, DieZone::Cup);
  EXPECT_EQ(s.figures[0].dice[2].zone, DieZone::Cup);
  bool miss = false;
  for (const auto& e : ev)
    miss = miss || e.kind == "miss";
  EXPECT_TRUE(miss);
}

TEST(Attack, Check7_BlueAceStunsTheTargetsBase) {
  GameState s = started();
  ok(s, DeclareAttack{0, 1, at(3), {2, 1}});
  ok(s, ChooseDodge{{}});
  ok(s, RollAttack{{1, 8}, {}, std::nullopt});  // blue ace, yellow 8
  for (const auto& d : s.figures[1].dice)
    EXPECT_NE(d.zone, DieZone::Base);
}

TEST(Attack, Check8_BlackAceTakesGearAndItsDiceForGood) {
  GameState s = started();
  ok(s, DeclareAttack{0, 1, at(3), {1, 5}});  // yellow d8 + black d6:ace (joins)
  ok(s, ChooseDodge{{}});
  ok(s, RollAttack{{7, 1}, {}, std::nullopt});
  ASSERT_TRUE(s.attack);
  EXPECT_EQ(s.attack->stage, AttackStage::RemoveGear);
  auto r = rejected(s, RemoveGear{"sword"});
  EXPECT_NE(r.reason.find("deck, jacket"), std::string::npos) << r.reason;
  ok(s, RemoveGear{"deck"});
  const auto& bob = s.figures[1];
  EXPECT_TRUE(bob.gear[0].removed);
  for (const auto& d : bob.dice) {
    if (d.die.origin == "deck") {
      EXPECT_EQ(d.zone, DieZone::Removed);
    }
  }
  EXPECT_EQ(s.attack->stage, AttackStage::Damage);
  EXPECT_EQ(bob.points(), 40 + 3);
}

TEST(Attack, GreenAceCalledShotLetsTheAttackerChoose) {
  GameState s = started();
  ok(s, DeclareAttack{0, 1, at(3), {3, 1}});
  ok(s, ChooseDodge{{}});
  ok(s, RollAttack{{1, 5}, {}, std::nullopt});
  ASSERT_TRUE(s.attack);
  EXPECT_TRUE(s.attack->attacker_assigns);
  EXPECT_NE(prompt(s).find("Ann: assign"), std::string::npos) << prompt(s);
}

TEST(Attack, TwoAttacksThenNoMore) {
  GameState s = started();
  ok(s, DeclareAttack{0, 1, at(3), {1}});
  ok(s, ChooseDodge{{}});
  ok(s, RollAttack{{1}, {}, std::nullopt});  // 7+1 = 8 < 9 miss
  ok(s, DeclareAttack{0, 1, at(3), {2}});
  ok(s, ChooseDodge{{}});
  ok(s, RollAttack{{2}, {}, std::nullopt});
  auto r = rejected(s, DeclareAttack{0, 1, at(3), {3}});
  EXPECT_EQ(r.code, RejectCode::NoAttacksLeft);
  ok(s, Move{0, {}, 2, Point{10, 12}});  // move after attacking: turn ends on its own
  EXPECT_TRUE(s.figures[0].turn_done);
  EXPECT_EQ(s.active_team, 1);
}

TEST(Round, EndOfRoundReturnsDiceAndAlphaPasses) {
  GameState s = started();
  ok(s, EndTurn{0});
  EXPECT_EQ(s.active_team, 1);
  ok(s, EndTurn{1});
  EXPECT_EQ(s.round, 2);
  EXPECT_EQ(s.alpha, 1);
  EXPECT_EQ(s.phase, Phase::ChooseDice);
  for (const auto& f : s.figures) {
    for (const auto& d : f.dice)
      EXPECT_NE(d.zone, DieZone::Base);
  }
}

TEST(Elimination, Check9_ThreeHolesAcrossDialsEliminate) {
  FigureState f;
  f.def = make_figure("X", "white:d6");
  f.dial = {2, 2, 0};
  EXPECT_EQ(f.bullet_holes(), 2);
  f.dial = {2, 2, 2};
  EXPECT_EQ(f.bullet_holes(), 3);
}

TEST(Victory, LastTeamStandingWins) {
  GameState s = started();
  s.figures[1].dial = {2, 2, 0};  // two holes already
  ok(s, DeclareAttack{0, 1, at(3), {1}});
  ok(s, ChooseDodge{{}});
  ok(s, RollAttack{{8}, {}, std::nullopt});  // 15 vs 9 → hit, 1 + 1 bonus
  ok(s, AssignDamage{DialKind::Body});       // Body 0 → 2: a hole → three holes
  EXPECT_TRUE(s.figures[1].eliminated);
  EXPECT_EQ(s.phase, Phase::GameOver);
  EXPECT_EQ(s.winner, 0);
}

TEST(Victory, LowestTeamHasTwoTurnsToCatchUp) {
  MatchSetup m = two_figures();
  m.teams[1].figures.push_back({make_figure("Cat", "white:d6 yellow:d6"), {}, Point{40, 70}});
  m.teams[0].figures.push_back({make_figure("Dan", "white:d6 yellow:d6"), {}, Point{40, 10}});
  GameState s = started(m);
  // Red (alpha) eliminates Bob: Blue drops to 40 (Cat) vs Red 84 → Blue counts down.
  // Figures: Red = Ann 0, Dan 1; Blue = Bob 2, Cat 3.
  s.figures[2].dial = {2, 2, 0};
  ok(s, DeclareAttack{0, 2, at(3), {1}});
  ok(s, ChooseDodge{{}});
  ok(s, RollAttack{{8}, {}, std::nullopt});
  ok(s, AssignDamage{DialKind::Body});
  ASSERT_EQ(s.countdowns.size(), 1U);
  EXPECT_EQ(s.countdowns[0].team, 1);
  auto end_round = [&] {
    for (FigureId f : s.team_figures(s.active_team, true)) {
      if (!s.figures[static_cast<std::size_t>(f)].turn_done) ok(s, EndTurn{f});
    }
  };
  end_round();  // Red's turn ends
  end_round();  // Blue's first turn
  EXPECT_EQ(s.countdowns[0].turns_left, 1);
  // Round 2: choose dice, Blue is alpha now.
  for (FigureId f = 0; f < static_cast<FigureId>(s.figures.size()); ++f) {
    if (!s.figures[static_cast<std::size_t>(f)].eliminated) ok(s, ChooseDice{f, {}});
  }
  EXPECT_EQ(s.active_team, 1);
  end_round();  // Blue's second turn, still behind → Blue loses
  EXPECT_TRUE(s.teams[1].lost);
  EXPECT_EQ(s.winner, 0);
}

TEST(Engine, SameCommandsSameHash) {
  GameState a = started();
  GameState b = started();
  EXPECT_EQ(state_hash(a), state_hash(b));
  ok(a, Move{0, {}, 3, Point{10, 13}});
  EXPECT_NE(state_hash(a), state_hash(b));
  ok(b, Move{0, {}, 3, Point{10, 13}});
  EXPECT_EQ(state_hash(a), state_hash(b));
}

}  // namespace
}  // namespace duels

namespace duels {
namespace {

// Property: random commands (mostly illegal) never change the state when rejected, and the state
// stays consistent (dice in exactly one zone, dials within range).
TEST(Engine, RandomCommandsRejectedWithoutSideEffects) {
  dice::Rng rng(31337);
  for (int game = 0; game < 40; ++game) {
    GameState s = *new_game(two_figures());
    for (int i = 0; i < 400; ++i) {
      auto pick = [&](int n) { return rng.uniform(n) - 1; };
      std::vector<DieId> dice;
      for (int k = pick(4); k > 0; --k)
        dice.push_back(pick(9));
      Command c;
      switch (pick(12)) {
        case 0:
          c = RollForAlpha{
              {{0, {rng.uniform(6), rng.uniform(6)}}, {1, {rng.uniform(6), rng.uniform(6)}}}};
          break;
        case 1:
          c = PassTerrain{pick(2)};
          break;
        case 2:
          c = PlaceTerrain{pick(3), "t" + std::to_string(pick(3))};
          break;
        case 3:
          c = ChooseDice{pick(3), dice};
          break;
        case 4:
          c = Move{pick(3), {}, static_cast<double>(pick(12)), std::nullopt};
          break;
        case 5:
          c = DeclareAttack{pick(2), pick(3),
                            Measurement{static_cast<double>(pick(30)), 2, pick(5) > 0, {}}, dice};
          break;
        case 6:
          c = ChooseDodge{dice};
          break;
        case 7:
          c = RollAttack{{rng.uniform(8), rng.uniform(8)}, {rng.uniform(6)}, std::nullopt};
          break;
        case 8:
          c = RemoveGear{pick(2) == 0 ? "deck" : "nothing"};
          break;
        case 9:
          c = AssignDamage{static_cast<DialKind>(pick(3))};
          break;
        case 10:
          c = EndTurn{pick(3)};
          break;
        default:
          c = RollAttack{{rng.uniform(8)}, {}, std::nullopt};
          break;
      }
      const GameState before = s;
      auto r = duels::apply(s, c);
      if (!r) {
        ASSERT_EQ(s, before) << command_name(c)
                             << " was rejected but changed the state: " << r.error().reason;
      }
      for (const auto& f : s.figures) {
        for (int k = 0; k < 3; ++k) {
          ASSERT_LT(f.dial[static_cast<std::size_t>(k)],
                    static_cast<int>(f.def.dials[static_cast<std::size_t>(k)].positions.size()));
        }
      }
    }
  }
}

}  // namespace
}  // namespace duels
