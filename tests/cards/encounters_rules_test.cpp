// The Encounters tracker: scenarios T-E2, T-E4…T-E6 and T-E9…T-E15 driven through apply().
#include <gtest/gtest.h>

#include "cards/encounters/rules.hpp"

namespace duels::cards::encounters {
namespace {

/// Applies a command that must be legal.
State must(const State& s, const Command& c) {
  auto r = encounters::apply(s, c);
  EXPECT_TRUE(r) << (r ? "" : r.error().reason);
  return r ? r->state : s;
}

/// Applies commands that must all be legal.
State must(State s, std::initializer_list<Command> cmds) {
  for (const Command& c : cmds)
    s = must(s, c);
  return s;
}

/// The reason a command is refused ("" when it is legal).
std::string refused(const State& s, const Command& c) {
  auto why = why_illegal(s, c);
  return why ? why->reason : std::string();
}

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

/// A started game: players in order, each with a 2¥ starter, `first` starts.
State game(std::vector<std::string> names, int nuyen = 0) {
  State s;
  for (const auto& n : names)
    s = must(s, AddPlayer{n, "Corp " + n, 1, true, nuyen});
  for (const auto& n : names)
    s = must(s, DealStarter{n, n + "'s Runner: +1"});
  return must(s, StartGame{names.front()});
}

/// Locks the given dice (indices into Run::dice) plainly.
Defeat lock(std::vector<int> dice) {
  return Defeat{{std::move(dice)}, {}};
}

// T-E2: Spirit of Air (2 bonus ¥) defeated in Column 3 scores 3 + 2 = 5¥.
TEST(EncountersRules, TE2BonusNuyen) {
  encounters::Run run;
  run.tableau.push_back(Defeated{*parse_encounter("Spirit of Air: 4 bonus 2 spirit"), 3, 0});
  EXPECT_EQ(tableau_value(run), 5);

  // Through the engine: escalate twice, then beat Spirit of Air in column 3.
  State s = game({"Alice", "Bob"});
  for (int col = 1; col <= 2; ++col) {
    s = must(s, {Flip{"Big: 21"}, Roll{{6, 6, 6, 1, 1, 1}}, lock({0, 1, 2, 3, 4, 5}), Escalate{}});
  }
  EXPECT_EQ(s.run.column, 3);
  const int before = tableau_value(s.run);
  EXPECT_EQ(before, 3);
  s = must(s, {Flip{"Spirit of Air: 4 bonus 2 spirit"}, Roll{{4, 1, 1, 1, 1, 1}}, lock({0})});
  EXPECT_EQ(tableau_value(s.run) - before, 5);
  s = must(s, Score{});
  EXPECT_EQ(s.players[0].nuyen, 8);
  EXPECT_EQ(s.active, 1);
}

// T-E4: starting-runner legality.
TEST(EncountersRules, TE4StartingRunner) {
  State s;
  s = must(s, AddPlayer{"Alice", "Horizon", 1, true, 0});
  EXPECT_TRUE(contains(refused(s, DealStarter{"Alice", "Pricey: +1; cost 3"}), "exactly 2¥"));
  EXPECT_TRUE(contains(refused(s, DealStarter{"Alice", "Osi: lift"}), "Osi"));
  EXPECT_TRUE(contains(refused(s, DealStarter{"Alice", "Tulio: lift"}), "Tulio"));
  s = must(s, DealStarter{"Alice", "Generic: +1"});
  ASSERT_EQ(s.players[0].runners.size(), 1U);
  EXPECT_EQ(s.players[0].runners[0].card.name, "Generic");
}

// T-E5: Horizon Group uses its own ability; one opponent still may, a second may not.
TEST(EncountersRules, TE5HorizonGroup) {
  State s;
  s = must(s, {AddPlayer{"Alice", "Horizon Group", 1, true, 5},
               AddPlayer{"Bob", "Aztechnology", 1, true, 5},
               AddPlayer{"Carol", "Renraku", 1, true, 5}, DealStarter{"Alice", "A: +1"},
               DealStarter{"Bob", "B: +1"}, DealStarter{"Carol", "C: +1"}, StartGame{"Alice"}});
  s = must(s, UseMegacorp{"Alice"});
  EXPECT_EQ(s.megacorp_used_against_active, -1);
  EXPECT_EQ(s.players[0].nuyen, 4);
  s = must(s, UseMegacorp{"Bob"});
  EXPECT_EQ(s.megacorp_used_against_active, 1);
  EXPECT_TRUE(contains(refused(s, UseMegacorp{"Carol"}), "one opponent per turn"));
  // The lock resets next turn.
  s = must(s, {Flip{"E: 30"}, Roll{{1, 1, 1, 1, 1, 1}}, Fail{}});
  EXPECT_EQ(s.active, 1);
  EXPECT_EQ(s.megacorp_used_against_active, -1);
  s = must(s, UseMegacorp{"Carol"});
  EXPECT_EQ(s.megacorp_used_against_active, 2);
}

/// Column 1: three Encounters; column 2: two, one with a 1¥ bonus (T-E6).
State te6_tableau() {
  State s = game({"Alice", "Bob"});
  return must(s, {Flip{"E1: 12"}, Roll{{6, 6, 1, 1, 1, 1}}, lock({0, 1}),      //
                  Flip{"E2: 2"}, Roll{{1, 1, 5, 5}}, lock({2, 3}),             //
                  Flip{"E3: 10"}, Roll{{5, 5}}, lock({4, 5}), Escalate{},      //
                  Flip{"E4: 6 bonus 1"}, Roll{{6, 1, 1, 1, 1, 1}}, lock({0}),  //
                  Flip{"E5: 2"}, Roll{{1, 1, 3, 3, 3}}, lock({1, 2})});
}

// T-E6: column scoring, and a failure that pays nothing and offers the Datasteal.
TEST(EncountersRules, TE6ColumnScoring) {
  State s = te6_tableau();
  EXPECT_EQ(tableau_value(s.run), 8);
  State scored = must(s, Score{});
  EXPECT_EQ(scored.players[0].nuyen, 8);

  State failed = must(s, {Flip{"E6: 30"}, Roll{{1, 1, 1}}, Fail{}});
  EXPECT_EQ(failed.players[0].nuyen, 0);
  EXPECT_EQ(failed.phase, Phase::BurnChoice);
  failed = must(failed, DeclineBurn{});
  EXPECT_EQ(failed.active, 1);
  EXPECT_EQ(failed.phase, Phase::DatastealChoice);
  EXPECT_EQ(tableau_value(failed.run), 8);
  // Bob steals: the failed E6 is discarded, the 3 unlocked dice roll in column 2.
  State stolen = must(failed, Datasteal{});
  EXPECT_FALSE(stolen.run.current.has_value());
  EXPECT_EQ(unlocked_dice(stolen.run), 3);
  stolen = must(stolen, {Flip{"E7: 3"}, Roll{{3, 1, 1}}, lock({3}), Score{}});
  EXPECT_EQ(stolen.players[1].nuyen, 8 + 2);
  EXPECT_EQ(stolen.players[0].nuyen, 0);
}

// T-E7 in the engine: no plain subset → fail is allowed; a plain match must be taken.
TEST(EncountersRules, TE7FailOnlyWithoutAPlainMatch) {
  State s = game({"Alice", "Bob"});
  s = must(s, {Flip{"E: 4"}, Roll{{6, 5, 2, 6, 5, 6}}});
  EXPECT_EQ(refused(s, Fail{}), "");
  State t = game({"Alice", "Bob"});
  t = must(t, {Flip{"E: 4"}, Roll{{6, 5, 2, 2, 5, 6}}});
  EXPECT_TRUE(contains(refused(t, Fail{}), "without any card"));
  EXPECT_TRUE(contains(refused(t, lock({0})), "make 6"));
  t = must(t, lock({2, 3}));
  EXPECT_EQ(unlocked_dice(t.run), 4);
}

// T-E9: hiring.
TEST(EncountersRules, TE9Hire) {
  State poor = game({"Alice", "Bob"}, 1);
  poor = must(poor, Flip{"E: 5"});
  EXPECT_TRUE(contains(refused(poor, Hire{"X: +1", true}), "at least 2¥"));

  State two = game({"Alice", "Bob"}, 2);
  two = must(two, Flip{"E: 5"});
  EXPECT_TRUE(contains(refused(two, Hire{"Cheap: +1", false}), "must be hired"));
  two = must(two, Hire{"Cheap: +1", true});
  EXPECT_EQ(two.players[0].nuyen, 0);
  EXPECT_EQ(two.players[0].runners.size(), 2U);

  State five = game({"Alice", "Bob"}, 5);
  five = must(five, {Flip{"E: 5"}, Hire{"Dear: +2; cost 4", false}});
  EXPECT_EQ(five.players[0].nuyen, 5);
  EXPECT_TRUE(contains(refused(five, Hire{"Other: +1", true}), "one hire attempt"));
  five = must(five, {Roll{{5, 1, 1, 1, 1, 1}}, lock({0}), Flip{"F: 2"}});
  five = must(five, Hire{"Other: +1", true});
  EXPECT_EQ(five.players[0].nuyen, 3);

  // Cannot afford: only a discard.
  State broke = game({"Alice", "Bob"}, 3);
  broke = must(broke, Flip{"E: 5"});
  EXPECT_TRUE(contains(refused(broke, Hire{"Dear: +2; cost 4", true}), "only discard"));

  // A sixth normal Shadowrunner forces a discard; Special Shadowrunners do not count.
  State full = game({"Alice", "Bob"}, 20);
  for (int i = 0; i < 4; ++i) {
    full = must(full, {Flip{"E: 1"}, Hire{"R" + std::to_string(i) + ": +1", true},
                       Roll{std::vector<int>(static_cast<std::size_t>(6 - i), 1)}, lock({i})});
  }
  EXPECT_EQ(full.players[0].runners.size(), 5U);
  full = must(full, {Flip{"E: 1"}, Hire{"Sixth: +1", true}});
  EXPECT_TRUE(full.must_discard);
  EXPECT_TRUE(contains(refused(full, Roll{{1, 1}}), "discard one first"));
  full = must(full, DiscardRunner{"R0"});
  EXPECT_FALSE(full.must_discard);
  EXPECT_EQ(full.players[0].runners.size(), 5U);

  State specials = game({"Alice", "Bob"}, 20);
  specials = must(specials,
                  Override{"/players/0/specials", {"Contacts: special +1", "Yakuza: special +1"}});
  for (int i = 0; i < 4; ++i) {
    specials =
        must(specials, {Flip{"E: 1"}, Hire{"R" + std::to_string(i) + ": +1", true},
                        Roll{std::vector<int>(static_cast<std::size_t>(6 - i), 1)}, lock({i})});
  }
  EXPECT_FALSE(specials.must_discard);
  EXPECT_EQ(specials.players[0].specials.size(), 2U);
}

TEST(EncountersRules, HireNeedsCardsInTheDeckOrDiscard) {
  State s = game({"Alice", "Bob"}, 10);
  s = must(s, {SetDecks{30, 0, 0, 0}, Flip{"E: 5"}});
  EXPECT_TRUE(contains(refused(s, Hire{"X: +1", true}), "both empty"));
  s = must(s, SetDecks{30, 0, 0, 2});
  s = must(s, Hire{"X: +1", true});
  EXPECT_EQ(s.decks.runner_deck, 1);  // the discard became the deck, one drawn
  EXPECT_EQ(s.decks.runner_discard, 0);
}

// T-E10: retaining.
TEST(EncountersRules, TE10Retain) {
  State s = game({"Alice", "Bob"}, 4);
  const DefeatStep plus{"Alice's Runner", false, 0, 0, 6};
  s = must(s, {Flip{"E: 6"}, Roll{{5, 2, 2, 2, 2, 2}}, Defeat{{{0}}, {plus}}});
  ASSERT_EQ(s.run.pending_retain.size(), 1U);
  s = must(s, Retain{"Alice's Runner"});
  EXPECT_EQ(s.players[0].nuyen, 1);
  EXPECT_EQ(s.players[0].runners.size(), 1U);
  // Not retained: discarded by the next action.
  State t = game({"Alice", "Bob"}, 4);
  t = must(t, {Flip{"E: 6"}, Roll{{5, 2, 2, 2, 2, 2}}, Defeat{{{0}}, {plus}}, Flip{"F: 4"}});
  EXPECT_TRUE(t.players[0].runners.empty());
  EXPECT_EQ(t.decks.runner_discard, 1);

  // Red icon: no retain offered, discarded at once.
  State red = game({"Alice", "Bob"}, 4);
  red = must(red, Override{"/players/0/runners/0/card", "Red: +1; red"});
  red = must(red, {Flip{"E: 6"}, Roll{{5, 2, 2, 2, 2, 2}},
                   Defeat{{{0}}, {DefeatStep{"Red", false, 0, 0, 6}}}});
  EXPECT_TRUE(red.run.pending_retain.empty());
  EXPECT_TRUE(red.players[0].runners.empty());
  EXPECT_NE(refused(red, Retain{"Red"}), "");

  // Purple icon: kept for free.
  State purple = game({"Alice", "Bob"}, 4);
  purple = must(purple, Override{"/players/0/runners/0/card", "Violet: +1; purple"});
  purple = must(purple, {Flip{"E: 6"}, Roll{{5, 2, 2, 2, 2, 2}},
                         Defeat{{{0}}, {DefeatStep{"Violet", false, 0, 0, 6}}}, Flip{"F: 4"}});
  EXPECT_EQ(purple.players[0].nuyen, 4);
  EXPECT_EQ(purple.players[0].runners.size(), 1U);
  // Each ability once per Encounter, but a kept card is usable again on the next one.
  purple =
      must(purple, {Roll{{3, 1, 1, 1, 1}}, Defeat{{{1}}, {DefeatStep{"Violet", false, 0, 1, 4}}}});
}

TEST(EncountersRules, AbilityOncePerEncounter) {
  State s = game({"Alice", "Bob"}, 4);
  s = must(s, {Flip{"E: 6"}, Roll{{4, 2, 2, 2, 2, 2}}});
  const DefeatStep plus{"Alice's Runner", false, 0, 0, 5};
  const DefeatStep again{"Alice's Runner", false, 0, 0, 6};
  EXPECT_TRUE(contains(refused(s, Defeat{{{0}}, {plus, again}}), "once per Encounter"));
}

// T-E11: District rotation.
TEST(EncountersRules, TE11DistrictRotation) {
  const std::vector<std::string> stand = {"A", "B", "C", "D"};
  EXPECT_EQ(rotate_districts(stand, 2).order, (std::vector<std::string>{"C", "D", "A", "B"}));
  EXPECT_FALSE(rotate_districts(stand, 2).shuffle);
  EXPECT_TRUE(rotate_districts(stand, 5).shuffle);
  EXPECT_EQ(rotate_districts(stand, 0).order, stand);

  State s = game({"Alice", "Bob"});
  s = must(s, SetDistricts{stand});
  s = must(s, {Flip{"E1: 2 rotate"}, Roll{{2, 1, 3, 3, 3, 3}}, lock({0}), Flip{"E2: 1 rotate"},
               Roll{{1, 3, 3, 3, 3}}, lock({1}), Score{}});
  EXPECT_EQ(s.districts, (std::vector<std::string>{"C", "D", "A", "B"}));
  EXPECT_EQ(s.district_this_turn, "");  // Bob has not flipped yet
  s = must(s, Flip{"E3: 40 rotate 5"});
  EXPECT_EQ(s.district_this_turn, "C");
  // A failed Encounter's icons count too; five or more ask for a shuffle.
  s = must(s, {Roll{{2, 2, 2, 2, 2, 2}}, Fail{}});
  EXPECT_TRUE(s.districts_need_shuffle);
  s = must(s, SetDistricts{{"D", "A", "C", "B"}});
  EXPECT_FALSE(s.districts_need_shuffle);
}

// The District is frozen at turn start; ignoring and changing it.
TEST(EncountersRules, DistrictIgnoreAndChange) {
  State s = game({"Alice", "Bob"});
  s = must(s, SetDistricts{{"A", "B", "C"}});
  s = must(s, Override{"/players/0/runners", nlohmann::json::array({
                                                 {{"card", "One: +1"}, {"face_up", true}},
                                                 {{"card", "Two: +1"}, {"face_up", true}},
                                             })});
  s = must(s, {IgnoreDistrict{"One"}, ChangeDistrict{"Two", "C"}});
  EXPECT_EQ(s.districts.front(), "C");
  EXPECT_TRUE(s.district_ignored);
  EXPECT_EQ(s.players[0].runners.size(), 1U);
  EXPECT_FALSE(s.players[0].runners[0].face_up);
  EXPECT_NE(refused(s, IgnoreDistrict{"One"}), "");
  s = must(s, Flip{"E: 30"});
  EXPECT_EQ(s.district_this_turn, "");  // ignored
  // Face-down runners cannot be used; at the player's next turn they flip back up.
  s = must(s, {Roll{{1, 1, 1, 1, 1, 1}}, Fail{}});
  EXPECT_EQ(s.active, 1);
  s = must(s, {Flip{"E: 30"}, Roll{{1, 1, 1, 1, 1, 1}}, Fail{}});
  EXPECT_EQ(s.active, 0);
  EXPECT_TRUE(s.players[0].runners[0].face_up);
}

/// Fails the current player's run with a hopeless Encounter (value 40).
State fail_now(State s, const std::string& rotate = "") {
  s = must(s, Flip{"Hopeless: 40" + rotate});
  s = must(s, Roll{std::vector<int>(static_cast<std::size_t>(unlocked_dice(s.run)), 1)});
  return must(s, Fail{});
}

// T-E12: a Datasteal goes around the table once; deferred rotation counts every icon.
TEST(EncountersRules, TE12DatastealLoop) {
  for (bool p3_adds : {false, true}) {
    State s = game({"P1", "P2", "P3", "P4"});
    s = must(s, SetDistricts{{"A", "B", "C", "D", "E"}});
    s = must(s, {Flip{"E1: 2 rotate"}, Roll{{2, 1, 3, 3, 3, 3}}, lock({0}), Flip{"E2: 1"},
                 Roll{{1, 3, 3, 3, 3}}, lock({1})});
    s = fail_now(s, " rotate");
    s = must(s, DeclineBurn{});
    for (int player = 1; player <= 3; ++player) {
      ASSERT_EQ(s.active, player);
      ASSERT_EQ(s.phase, Phase::DatastealChoice);
      EXPECT_EQ(s.districts.front(), "A");  // no rotation during the chain
      s = must(s, Datasteal{});
      if (player == 2 && p3_adds) {
        s = must(s, {Flip{"E3: 3"}, Roll{{3, 1, 1, 1}}, lock({2})});
        EXPECT_EQ(s.run.tableau.size(), 3U);
      }
      s = fail_now(s, player == 3 ? "" : " rotate");
      if (player < 3) s = must(s, DeclineBurn{});
    }
    // Back at P1: the tableau is gone, P1 starts fresh in column 1.
    EXPECT_EQ(s.active, 0);
    EXPECT_EQ(s.phase, Phase::TurnStart);
    EXPECT_TRUE(s.run.tableau.empty());
    EXPECT_EQ(s.run.column, 1);
    EXPECT_EQ(unlocked_dice(s.run), 6);
    // Icons: E1, P1's failed card, P2's and P3's failed cards = 4 rotations.
    EXPECT_EQ(s.districts, (std::vector<std::string>{"E", "A", "B", "C", "D"}));
  }
}

TEST(EncountersRules, TwoPlayersGetExactlyOneDatasteal) {
  State s = game({"P1", "P2"});
  s = must(s, {Flip{"E1: 2"}, Roll{{2, 1, 3, 3, 3, 3}}, lock({0})});
  s = fail_now(s);
  s = must(s, {DeclineBurn{}, Datasteal{}});
  s = fail_now(s);
  EXPECT_EQ(s.active, 0);
  EXPECT_EQ(s.phase, Phase::TurnStart);
  EXPECT_TRUE(s.run.tableau.empty());
}

TEST(EncountersRules, FreshStartRotatesBeforeTheDistrictFreezes) {
  State s = game({"P1", "P2"});
  s = must(s, SetDistricts{{"A", "B", "C"}});
  s = must(s, {Flip{"E1: 2 rotate"}, Roll{{2, 1, 3, 3, 3, 3}}, lock({0})});
  s = fail_now(s);
  s = must(s, {DeclineBurn{}, FreshStart{}});
  EXPECT_EQ(s.districts.front(), "B");
  s = must(s, Flip{"E: 3"});
  EXPECT_EQ(s.district_this_turn, "B");
}

// T-E13: Burn the Run.
TEST(EncountersRules, TE13BurnTheRun) {
  State s = game({"P1", "P2"});
  s = must(s, {Flip{"Contacts: 2 special +1"}, Roll{{2, 1, 3, 3, 3, 3}}, lock({0})});
  ASSERT_EQ(s.players[0].specials.size(), 1U);
  s = fail_now(s);
  ASSERT_EQ(s.phase, Phase::BurnChoice);
  EXPECT_TRUE(contains(refused(s, Burn{"Contacts"}), "Special Shadowrunner"));
  s = must(s, Burn{"P1's Runner"});
  EXPECT_TRUE(s.players[0].runners.empty());
  EXPECT_TRUE(s.run.pending_retain.empty());
  EXPECT_EQ(s.active, 1);
  EXPECT_EQ(s.phase, Phase::TurnStart);  // no Datasteal offered
  EXPECT_TRUE(s.run.tableau.empty());
  EXPECT_NE(refused(s, Datasteal{}), "");
  // The Special Shadowrunner stays with P1.
  EXPECT_EQ(s.players[0].specials.size(), 1U);
}

// T-E14: escalation with a bonus die needs all seven locked; the bonus die then goes away.
TEST(EncountersRules, TE14EscalationWithBonusDice) {
  State s = game({"Alice", "Bob"});
  s = must(s,
           {Flip{"E: 21"}, AddBonusDice{1}, Roll{{6, 6, 6, 1, 1, 1, 2}}, lock({0, 1, 2, 3, 4, 5})});
  EXPECT_EQ(s.run.dice.size(), 7U);
  EXPECT_TRUE(contains(refused(s, Escalate{}), "1 still unlocked"));
  s = must(s, {Flip{"F: 2"}, Roll{{2}}, lock({6}), Escalate{}});
  EXPECT_EQ(s.run.dice.size(), 6U);
  for (const RunDie& d : s.run.dice) {
    EXPECT_FALSE(d.bonus);
    EXPECT_FALSE(d.locked);
  }
  EXPECT_EQ(s.run.column, 2);
  s = must(s, Flip{"G: 3"});
  EXPECT_NE(refused(s, Roll{{1, 1, 1, 1, 1, 1, 1}}), "");
  s = must(s, Roll{{3, 1, 1, 1, 1, 1}});
}

// T-E15: solo.
TEST(EncountersRules, TE15Solo) {
  const auto solo = [](int limit, int nuyen) {
    State s;
    s = must(s, {Configure{20, true, limit, false}, AddPlayer{"Solo", "", 0, true, nuyen},
                 DealStarter{"Solo", "Starter: +1"}, StartGame{"Solo"}});
    return s;
  };
  State s = solo(12, 19);
  for (int turn = 1; turn <= 12; ++turn) {
    ASSERT_EQ(s.turn_number, turn);
    s = fail_now(s);
  }
  EXPECT_EQ(s.phase, Phase::GameOver);
  EXPECT_TRUE(s.solo_lost);
  EXPECT_EQ(s.winner, -1);

  State win = solo(12, 18);
  for (int turn = 1; turn <= 8; ++turn)
    win = fail_now(win);
  win = must(win, {Flip{"A: 1"}, Roll{{1, 2, 3, 4, 5, 6}}, lock({0}), Flip{"B: 2"},
                   Roll{{2, 3, 4, 5, 6}}, lock({1}), Score{}});
  EXPECT_EQ(win.turn_number, 9);
  EXPECT_EQ(win.winner, 0);
  EXPECT_EQ(win.phase, Phase::GameOver);

  State hard = solo(10, 0);
  for (int turn = 1; turn <= 10; ++turn)
    hard = fail_now(hard);
  EXPECT_TRUE(hard.solo_lost);
  EXPECT_TRUE(contains(refused(hard, Flip{"E: 3"}), "game is over"));
  // No Megacorporations in solo.
  EXPECT_NE(refused(solo(12, 5), UseMegacorp{"Solo"}), "");
}

TEST(EncountersRules, VictoryIsImmediate) {
  State s = game({"Alice", "Bob"}, 29);
  s = must(s, {Flip{"E: 3"}, Roll{{3, 1, 1, 1, 1, 1}}, lock({0}), Score{}});
  EXPECT_EQ(s.winner, 0);
  EXPECT_EQ(s.phase, Phase::GameOver);
  EXPECT_TRUE(contains(refused(s, Flip{"E: 3"}), "Alice won"));
}

TEST(EncountersRules, EncounterWithoutValueIsHandedOut) {
  State s = game({"Alice", "Bob"});
  s = must(s, Flip{"Data Worm: -", {"Bob"}});
  EXPECT_EQ(s.phase, Phase::MustFlip);
  EXPECT_EQ(s.players[1].tokens, (std::vector<std::string>{"Data Worm"}));
  EXPECT_NE(refused(s, Score{}), "");
  s = must(s, Flip{"E: 3"});
  EXPECT_EQ(s.phase, Phase::Encounter);
}

TEST(EncountersRules, VampireAndLiftThroughTheEngine) {
  State s = game({"Alice", "Bob"});
  s = must(s, {Flip{"Vampire: 5 twice paracritter"}, Roll{{5, 2, 3, 1, 6, 6}}});
  EXPECT_TRUE(contains(refused(s, lock({0})), "twice"));
  s = must(s, Defeat{{{0}, {1, 2}}, {}});
  EXPECT_EQ(unlocked_dice(s.run), 3);

  State f = game({"Alice", "Bob"}, 3);  // 3¥: Poppyseeds can be Retained
  f = must(f, Override{"/players/0/runners", nlohmann::json::array({
                                                 {{"card", "Poppyseeds: magic: +2"}},
                                                 {{"card", "Tulio: lift; cost 3"}},
                                             })});
  f = must(f, {Flip{"Spirit of Fire: 6 no-runners magic"}, Roll{{2, 2, 5, 5, 5, 5}}});
  const DefeatStep poppy{"Poppyseeds", false, 0, 1, 4};
  EXPECT_TRUE(contains(refused(f, Defeat{{{0, 1}}, {poppy}}), "No-Shadowrunners"));
  // The finder's way converts into a legal Defeat.
  auto sq = match_query(f);
  ASSERT_TRUE(sq);
  auto found = find_matches(sq->query);
  ASSERT_TRUE(found);
  ASSERT_FALSE(found->solutions.empty());
  EXPECT_FALSE(found->plain_match);
  f = must(f, defeat_command(*sq, found->solutions.front()));
  ASSERT_EQ(f.players[0].runners.size(), 1U);  // Tulio discarded, Poppyseeds awaits retain
  EXPECT_EQ(f.players[0].runners[0].card.name, "Poppyseeds");
  EXPECT_EQ(f.run.pending_retain, (std::vector<std::string>{"Poppyseeds"}));
}

TEST(EncountersRules, SpecialShadowrunnerIsWonAndSpent) {
  State s = game({"Alice", "Bob"});
  s = must(s, {Flip{"Contacts: 2 special +1"}, Roll{{2, 1, 3, 3, 3, 3}}, lock({0}), Flip{"E: 5"},
               Roll{{4, 3, 3, 3, 3}}});
  ASSERT_EQ(s.players[0].specials.size(), 1U);
  s = must(s, Defeat{{{1}}, {DefeatStep{"Contacts", true, 0, 1, 5}}});
  EXPECT_TRUE(s.players[0].specials.empty());
  EXPECT_EQ(s.decks.encounter_discard, 1);
  // It still scores in its column.
  EXPECT_EQ(tableau_value(s.run), 2);
}

TEST(EncountersRules, OverrideSetsAnyFieldAndRefusesNonsense) {
  State s = game({"Alice", "Bob"});
  s = must(s, Override{"/players/1/nuyen", 7});
  EXPECT_EQ(s.players[1].nuyen, 7);
  EXPECT_TRUE(contains(refused(s, Override{"/players/5/nuyen", 1}), "no tracked field"));
  EXPECT_TRUE(contains(refused(s, Override{"/players/1/nuyen", -3}), "negative"));
  EXPECT_NE(refused(s, Override{"/players/1/nuyen", "lots"}), "");
  EXPECT_NE(refused(s, Override{"players", 1}), "");
  EXPECT_NE(refused(s, Override{"/phase", "dancing"}), "");
}

TEST(EncountersRules, RejectionsLeaveTheStateAlone) {
  const State s = game({"Alice", "Bob"});
  auto r = encounters::apply(s, Score{});
  ASSERT_FALSE(r);
  EXPECT_TRUE(contains(r.error().reason, "score"));
}

}  // namespace
}  // namespace duels::cards::encounters
