// The Crossfire tracker driven through apply(): the book's turns and the derived scenarios
// (T-C1…T-C6, T-C10…T-C13, T-C17…T-C19, T-C21…T-C25), setup checks and the step order.
#include <gtest/gtest.h>

#include "cards/crossfire/rules.hpp"

namespace duels::cards::crossfire {
namespace {

/// Applies a command that must be legal.
State must(const State& s, const Command& c) {
  auto r = crossfire::apply(s, c);
  EXPECT_TRUE(r) << (r ? "" : r.error().reason);
  return r ? r->state : s;
}

State must(State s, std::initializer_list<Command> cmds) {
  for (const Command& c : cmds)
    s = must(s, c);
  return s;
}

/// The events of a command that must be legal.
std::vector<Event> events(const State& s, const Command& c) {
  auto r = crossfire::apply(s, c);
  EXPECT_TRUE(r) << (r ? "" : r.error().reason);
  return r ? r->events : std::vector<Event>{};
}

/// The reason a command is refused ("" when it is legal).
std::string refused(const State& s, const Command& c) {
  auto why = why_illegal(s, c);
  return why ? why->reason : std::string();
}

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

/// True when some event has this type and its text contains `part`.
bool has(const std::vector<Event>& ev, const std::string& type, const std::string& part = "") {
  return std::any_of(ev.begin(), ev.end(),
                     [&](const Event& e) { return e.type == type && contains(e.text, part); });
}

const Runner& runner(const State& s, const std::string& name) {
  return s.runners[static_cast<std::size_t>(runner_index(s, name))];
}

const Obstacle* find(const State& s, const std::string& name) {
  const int i = obstacle_index(s, name);
  return i < 0 ? nullptr : &s.obstacles[static_cast<std::size_t>(i)];
}

/// A started game: runners (name, roles) in seat order with 5 HP, 5¥ and 4 cards.
State game(const std::string& mission,
           std::vector<std::pair<std::string, std::vector<std::string>>> who,
           std::vector<std::string> bonuses = {}, const std::string& starting = "") {
  State s = must(State{}, Configure{mission, std::move(bonuses), false});
  for (const auto& [name, roles] : who)
    s = must(s, AddRunner{name, "Human", roles, 5, 5, 4, 7, 0});
  return must(s, StartGame{starting});
}

State four(const std::string& mission = "crossfire", std::vector<std::string> bonuses = {}) {
  return game(mission, {{"R0", {"black"}}, {"R1", {"blue"}}, {"R2", {"green"}}, {"R3", {"red"}}},
              std::move(bonuses));
}

/// Damage step, attack step and end of turn with nothing played.
State pass_turn(State s) {
  return must(s, {ApplyDamage{}, TakeDamage{}, EndTurn{}});
}

// ---- setup -----------------------------------------------------------------------------------

// T-C13: a Human Decker draws 4 of the 7-card starting deck, leaving 3.
TEST(CrossfireRules, TC13StartingHand) {
  State s = must(State{}, Configure{"crossfire", {}, false});
  s = must(s, AddRunner{"Rob", "Human", {"decker"}, 5, 3, 4, 7, 0});
  s = must(s, AddRunner{"Cal", "Dwarf", {"street-samurai", "mage", "face"}, 5, 5, 2, 7, 0});
  s = must(s, StartGame{"Cal"});
  EXPECT_EQ(runner(s, "Rob").hand, 4);
  EXPECT_EQ(runner(s, "Rob").deck, 3);
  EXPECT_EQ(runner(s, "Rob").nuyen, 3);
  EXPECT_EQ(runner(s, "Cal").nuyen, 6);  // more than one role: +1 starting nuyen
  EXPECT_EQ(s.starting, 1);
  EXPECT_EQ(s.phase, Phase::RoundStart);
}

TEST(CrossfireRules, RolesMustCoverTheTeam) {
  State s = must(State{}, Configure{"crossfire", {}, false});
  s = must(s, AddRunner{"A", "Human", {"black", "blue"}, 5, 5, 4, 7, 0});
  s = must(s, AddRunner{"B", "Human", {"green"}, 5, 5, 4, 7, 0});
  EXPECT_TRUE(contains(refused(s, StartGame{}), "exactly one runner"));
  EXPECT_TRUE(contains(refused(s, AddRunner{"A", "Human", {"red"}, 5, 5, 4, 7, 0}), "already"));
  EXPECT_TRUE(contains(refused(s, AddRunner{"C", "Human", {"purple"}, 5, 5, 4, 7, 0}), "role"));
  State solo = must(State{}, Configure{"crossfire", {}, false});
  solo = must(solo, AddRunner{"A", "Human", {"black", "blue", "green", "red"}, 5, 5, 4, 7, 0});
  EXPECT_TRUE(contains(refused(solo, StartGame{}), "2 to 4"));
  EXPECT_TRUE(
      contains(refused(State{}, Configure{"crossfire", {"minions-unending"}, false}), "dragon"));
}

// ---- the Crossfire deck ------------------------------------------------------------------------

// T-C17: with 3 runners the first Crossfire card comes in round 2, at level 0.
TEST(CrossfireRules, TC17FirstDrawWithThreeRunners) {
  State s = game("crossfire", {{"A", {"black", "blue"}}, {"B", {"green"}}, {"C", {"red"}}});
  s = must(s, Flip{{"Wall=9 faces:A", "Wall 2=9 faces:B"}});
  EXPECT_TRUE(contains(refused(s, DrawCrossfire{"Early", false, false, 0, ""}), "round 1"));
  s = must(s, BeginRound{});
  for (int t = 0; t < 3; ++t)
    s = pass_turn(s);
  EXPECT_EQ(s.round, 2);
  EXPECT_TRUE(contains(refused(s, BeginRound{}), "due"));
  const auto ev = events(s, DrawCrossfire{"First", false, false, 0, ""});
  EXPECT_TRUE(has(ev, "crossfire", "First"));
  s = must(s, DrawCrossfire{"First", false, false, 0, ""});
  EXPECT_EQ(crossfire_level(s), 0);
  EXPECT_EQ(s.decks.crossfire, 49);
  EXPECT_TRUE(
      contains(refused(s, DrawCrossfire{"Second", false, false, 0, ""}), "start of a round"));
}

// T-C10: Chummers revealed with 5 cards in the discard: its 5+ part applies; a Human is placed
// facing the runner of its colour and every Human gets attack +1.
TEST(CrossfireRules, TC10Threshold) {
  State s = four("custom");
  s = must(s, Override{"/decks/crossfire_discard", 5});
  const auto ev = events(s, DrawCrossfire{"Chummers", true, false, 5, "Humans +1 attack"});
  EXPECT_TRUE(has(ev, "crossfire", "level 5 ≥ 5+: its extra effect APPLIES"));
  s = must(s, DrawCrossfire{"Chummers", true, false, 5, "Humans +1 attack"});
  s = must(s, Flip{{"Street Punk=2 colour:green type:Human attack:1"}});
  ASSERT_NE(find(s, "Street Punk"), nullptr);
  EXPECT_EQ(find(s, "Street Punk")->facing, 2);  // R2 holds the green role
  s = must(s, ModifyObstacle{"Street Punk", 1, false, false});
  EXPECT_EQ(incoming(s)[2].packet, 2);
  // Below the threshold the extra part does not apply.
  State low = four("custom");
  low = must(low, Override{"/decks/crossfire_discard", 4});
  EXPECT_TRUE(has(events(low, DrawCrossfire{"Chummers", true, false, 5, ""}), "crossfire",
                  "does not apply"));
}

// T-C11: Top Shelf's timebomb with an empty discard checks level 0: no damage.
TEST(CrossfireRules, TC11TimebombWithEmptyDiscard) {
  State s = four();
  s = must(s, Flip{{"Wall=9 faces:R0", "Wall 2=9 faces:R1"}});
  s = must(s, DrawCrossfire{"Top Shelf", false, true, 1, "runners take 2 damage"});
  for (int t = 0; t < 4; ++t)
    s = pass_turn(s);
  ASSERT_EQ(s.phase, Phase::RoundStart);
  const auto ev = events(s, DrawCrossfire{"Next", false, false, 0, ""});
  EXPECT_TRUE(has(ev, "timebomb", "checks level 0"));
  EXPECT_TRUE(has(ev, "timebomb", "does not fire"));
  s = must(s, DrawCrossfire{"Next", false, false, 0, ""});
  EXPECT_EQ(crossfire_level(s), 1);
}

// T-C24: the board cleared at the end of R1's turn sends the event to the bottom (level stays 2,
// no timebomb); without the clear, the next round discards it (level 3, timebomb at level 2).
TEST(CrossfireRules, TC24RemovalVersusDiscard) {
  State s = four("crossfire", {"danger-zone", "danger-zone"});
  EXPECT_EQ(crossfire_level(s), 2);
  s = must(s, Flip{{"Last One=1 faces:R1 nuyen:1", "Wall=9 faces:R3"}});
  s = must(s, DrawCrossfire{"Tick Tock", false, true, 1, ""});
  // Without the clear: the event is discarded at the next round start.
  State kept = s;
  for (int t = 0; t < 4; ++t)
    kept = pass_turn(kept);
  const auto ev = events(kept, DrawCrossfire{"Next", false, false, 0, ""});
  EXPECT_TRUE(has(ev, "timebomb", "checks level 2"));
  EXPECT_TRUE(has(ev, "timebomb", "FIRES"));
  EXPECT_EQ(crossfire_level(must(kept, DrawCrossfire{"Next", false, false, 0, ""})), 3);

  // With the clear: R1 defeats the last obstacles (Wall by direct damage first).
  s = pass_turn(s);  // R0
  s = must(s, DirectDamage{"Wall", "9", ""});
  s = must(s, PlayCard{"Quick Shot", "", "weapon", "black", "Last One", {}});
  s = must(s, {ApplyDamage{}, TakeDamage{}});
  const int deck_before = s.decks.crossfire;
  const auto end = events(s, EndTurn{});
  EXPECT_TRUE(has(end, "event_removed", "BOTTOM"));
  EXPECT_FALSE(has(end, "timebomb"));
  s = must(s, EndTurn{});
  EXPECT_EQ(crossfire_level(s), 2);
  EXPECT_EQ(s.decks.crossfire, deck_before + 1);
  EXPECT_FALSE(s.active_event);
}

// ---- damage ------------------------------------------------------------------------------------

// T-C1: Lone Star Trooper cleared over two turns; the C2 point before C1 does nothing.
TEST(CrossfireRules, TC1LoneStarTrooperOverTwoTurns) {
  State s = four("custom");
  s = must(s, DrawCrossfire{"Quiet", false, false, 0, ""});
  s = must(s, Flip{{"Lone Star Trooper=5,black,green faces:R1 attack:1 on:attacks"}});
  s = must(s, PlayCard{"Big Hit", "", "weapon", "4black+red", "Lone Star Trooper", {}});
  s = must(s, ApplyDamage{});
  EXPECT_EQ(find(s, "Lone Star Trooper")->card.cleared, 1);
  s = must(s, {TakeDamage{}, EndTurn{}});
  // R1 (Jim): the green first does nothing; then black, then green.
  State wrong = must(s, PlayCard{"Mark", "", "hacking", "green", "Lone Star Trooper", {}});
  wrong = must(wrong, ApplyDamage{});
  EXPECT_EQ(find(wrong, "Lone Star Trooper")->card.cleared, 1);
  s = must(s, PlayCard{"Quick Shot", "", "weapon", "black", "Lone Star Trooper", {}});
  s = must(s, PlayCard{"Mark", "", "hacking", "green", "Lone Star Trooper", {}});
  const auto ev = events(s, ApplyDamage{});
  EXPECT_TRUE(has(ev, "defeated", "Lone Star Trooper"));
  // Its "when it attacks" ability (it also attacks the Street Samurai) is reminded.
  EXPECT_TRUE(has(events(wrong, TakeDamage{}), "reminder", "when it attacks"));
}

// T-C2: Security Chief (5¥) defeated on R0's turn with 4 runners pays 2,1,1,1.
TEST(CrossfireRules, TC2Payout) {
  State s = four("custom");
  s = must(s, DrawCrossfire{"Quiet", false, false, 0, ""});
  s = must(s, Flip{{"Security Chief=2 faces:R2 nuyen:5", "Wall=9 faces:R3"}});
  s = must(s, PlayCard{"Quick Shot", "", "weapon", "black+1", "Security Chief", {}});
  s = must(s, ApplyDamage{});
  EXPECT_EQ(runner(s, "R0").nuyen, 7);
  EXPECT_EQ(runner(s, "R1").nuyen, 6);
  EXPECT_EQ(runner(s, "R2").nuyen, 6);
  EXPECT_EQ(runner(s, "R3").nuyen, 6);
  EXPECT_EQ(s.decks.normal_discard, 1);
}

// T-C3: Lightning Mage falls to four cards of three runners; each card goes to its owner's
// discard; while it was in play nobody could be healed.
TEST(CrossfireRules, TC3CardsGoToTheirOwners) {
  State s = game("custom",
                 {{"Rob", {"green"}}, {"Jim", {"red"}}, {"Gregory", {"blue"}}, {"Cal", {"black"}}});
  s = must(s, DrawCrossfire{"Quiet", false, false, 0, ""});
  s = must(s, Flip{{"Lightning Mage=3,blue,blue,1 colour:blue noheal faces:Rob attack:2 nuyen:5"}});
  s = must(s, Hurt{{"Jim"}, 1});
  EXPECT_TRUE(contains(refused(s, Heal{"Jim", 1}), "can't be healed"));
  s = must(s, PlayCard{"Coordinated Attack", "Rob", "", "green+1", "Lightning Mage", {}});
  s = must(s, PlayCard{"Guiding Spirit", "Jim", "spell", "blue+1", "Lightning Mage", {}});
  s = must(s, PlayCard{"Clairvoyance", "Gregory", "spell", "blue", "Lightning Mage", {}});
  s = must(s, PlayCard{"Street Smarts", "Rob", "skill", "red", "Lightning Mage", {}});
  const auto ev = events(s, ApplyDamage{});
  EXPECT_TRUE(has(ev, "damage",
                  "level 1 (any 3) ← Coordinated Attack 1 green + 1 colourless, "
                  "Guiding Spirit 1 colourless"));
  EXPECT_TRUE(has(ev, "defeated", "Lightning Mage"));
  s = must(s, ApplyDamage{});
  EXPECT_EQ(runner(s, "Rob").discard, 2);
  EXPECT_EQ(runner(s, "Jim").discard, 1);
  EXPECT_EQ(runner(s, "Gregory").discard, 1);
  EXPECT_EQ(runner(s, "Rob").hand, 2);
  EXPECT_EQ(runner(s, "Gregory").hand, 3);
  EXPECT_TRUE(refused(s, Heal{"Jim", 1}).empty());  // gone: healing works again
}

// T-C4 + T-C5: Jay's turn; the Whip moves a third obstacle from Jim to Jay, which can't attack.
TEST(CrossfireRules, TC4TC5JaysTurn) {
  State s =
      game("custom", {{"Jay", {"blue"}}, {"Jim", {"red"}}, {"Rob", {"green"}}, {"Cal", {"black"}}});
  s = must(s, DrawCrossfire{"Quiet", false, false, 0, ""});
  s = must(s, Flip{{"Gargoyle=6,6,black,black faces:Jay attack:2 nuyen:2 on:defeated",
                    "Astral Shiver=3,blue,blue faces:Jay attack:1 nuyen:3",
                    "Thug=9 faces:Jim attack:3"}});
  s = must(s, Draw{"Jay", 1});  // five cards to play
  s = must(
      s, PlayCard{
             "Lightning Bolt", "", "spell", "levels:2:consecutive+obstacle-only", "Gargoyle", {}});
  s = must(s, PlayCard{"Quick Shot", "", "weapon", "black", "Gargoyle", {}});
  s = must(s, PlayCard{"Monofilament Whip", "", "weapon", "black", "Gargoyle", {}});
  s = must(s, MoveObstacle{"Thug", "Jay", true});
  s = must(s, PlayCard{"Stunbolt", "", "spell", "blue+3", "Astral Shiver", {}});
  // X was fixed at 3 when Stunbolt resolved: later changes to Jay's deck don't alter it.
  s = must(s, Override{"/runners/0/deck", 1});
  ASSERT_EQ(s.played.back().bundle.points.colourless, 3);
  s = must(s, PlayCard{"Mana", "", "spell", "blue", "Astral Shiver", {}});
  const auto ev = events(s, ApplyDamage{});
  EXPECT_TRUE(has(ev, "defeated", "Gargoyle is DEFEATED: resolve its DEFEATED: ability now"));
  EXPECT_TRUE(has(ev, "defeated", "Astral Shiver"));
  EXPECT_TRUE(has(ev, "payout", "2¥ paid out from Jay: Jay +1, Jim +1"));
  EXPECT_TRUE(has(ev, "payout", "3¥ paid out from Jay: Jay +1, Jim +1, Rob +1"));
  s = must(s, ApplyDamage{});
  // The Gargoyle's DEFEATED prompt: the chosen runner takes 1.
  s = must(s, Hurt{{"Rob"}, 1});
  EXPECT_EQ(runner(s, "Rob").hp, 4);
  // The Thug moved to Jay can't attack this turn.
  s = must(s, TakeDamage{});
  EXPECT_EQ(runner(s, "Jay").hp, 5);
}

// T-C6: Cal's first turn (Dwarf Street Samurai: 5 HP, 5¥, hand {Mana, Quick Shot}).
TEST(CrossfireRules, TC6CalsFirstTurn) {
  State s = must(State{}, Configure{"custom", {}, false});
  s = must(s, AddRunner{"Cal", "Dwarf", {"street-samurai"}, 5, 5, 2, 7, 0});
  s = must(s, AddRunner{"Rob", "Elf", {"decker"}, 5, 5, 4, 7, 0});
  s = must(s, AddRunner{"Jay", "Human", {"mage"}, 5, 5, 4, 7, 0});
  s = must(s, AddRunner{"Jim", "Human", {"face"}, 5, 5, 4, 7, 0});
  s = must(s, StartGame{"Cal"});
  s = must(s, DrawCrossfire{"Quiet", false, false, 0, ""});
  s = must(s, Flip{{"Deckhead=2,green,1,red faces:Cal attack:1", "Out of Ammo=black,3 faces:Rob"}});
  // Counter-check: Mana beside Out of Ammo too would be partial on "any 3" and wasted.
  State both = must(s, PlayCard{"Quick Shot", "", "weapon", "black", "Out of Ammo", {}});
  both = must(both, PlayCard{"Mana", "", "spell", "blue", "Out of Ammo", {}});
  EXPECT_TRUE(has(events(both, ApplyDamage{}), "wasted", "partial"));
  both = must(both, {ApplyDamage{}, TakeDamage{}, EndTurn{}});
  EXPECT_EQ(find(both, "Out of Ammo")->partial.total(), 0);  // erased at end of turn

  s = must(s, PlayCard{"Quick Shot", "", "weapon", "black", "Out of Ammo", {}});
  s = must(s, ApplyDamage{});
  EXPECT_EQ(find(s, "Out of Ammo")->card.cleared, 1);
  s = must(s, TakeDamage{});
  EXPECT_EQ(runner(s, "Cal").hp, 4);
  EXPECT_EQ(runner(s, "Cal").hand, 3);  // 1 left, drew 2
  const int market = s.decks.market;
  s = must(s, Buy{"Covering Fire", 5, false});
  EXPECT_EQ(runner(s, "Cal").nuyen, 0);
  EXPECT_EQ(runner(s, "Cal").hand, 4);
  EXPECT_EQ(s.decks.market, market - 1);
  EXPECT_EQ(s.decks.market_slots, 6);
}

// T-C12: two attack-2 obstacles against a 3 HP runner: one packet of 4, staggered not critical.
TEST(CrossfireRules, TC12OnePacket) {
  State s = four("custom");
  s = must(s, {DrawCrossfire{"Quiet", false, false, 0, ""},
               Flip{{"A=9 faces:R0 attack:2", "B=9 faces:R0 attack:2"}}, Hurt{{"R0"}, 2}});
  s = must(s, {ApplyDamage{}, TakeDamage{}});
  EXPECT_EQ(runner(s, "R0").hp, 0);
  EXPECT_TRUE(runner(s, "R0").staggered);
  EXPECT_FALSE(runner(s, "R0").critical);
}

// T-C18: the staggered life cycle.
TEST(CrossfireRules, TC18StaggeredLifeCycle) {
  State s = four("custom");
  s = must(
      s, {DrawCrossfire{"Quiet", false, false, 0, ""}, Flip{{"Wall=9 faces:R2"}}, Hurt{{"R1"}, 4}});
  EXPECT_EQ(runner(s, "R1").hp, 1);
  s = must(s, Hurt{{"R1"}, 3});
  EXPECT_TRUE(runner(s, "R1").staggered);
  EXPECT_EQ(runner(s, "R1").hp, 0);
  EXPECT_EQ(runner(s, "R1").hand, 0);
  EXPECT_EQ(runner(s, "R1").deck, 7);  // hand, deck and discard merged

  // Healed 1 on a teammate's turn: HP 1, draws 2 at once, no longer staggered.
  State healed = must(s, Heal{"R1", 1});
  EXPECT_EQ(runner(healed, "R1").hp, 1);
  EXPECT_FALSE(runner(healed, "R1").staggered);
  EXPECT_EQ(runner(healed, "R1").hand, 2);

  // Their own turn: draw 1 at the start, no draw 2, no buying.
  State own = pass_turn(s);
  EXPECT_EQ(own.current, 1);
  EXPECT_EQ(runner(own, "R1").hand, 1);
  own = must(own, {ApplyDamage{}, TakeDamage{}});
  EXPECT_EQ(runner(own, "R1").hand, 1);
  EXPECT_TRUE(contains(refused(own, Buy{"Anything", 0, false}), "staggered"));

  // Taking 1 while staggered: critical, and the abort follows.
  State crit = must(s, Hurt{{"R1"}, 1});
  EXPECT_TRUE(runner(crit, "R1").critical);
  EXPECT_TRUE(crit.abort_pending);
}

// T-C19: R2 goes critical on R2's turn: the abort round is R3, R0, R1; obstacles facing R2 turn
// to the current runner; R0 standing at the end → successful abort, 1 Karma each.
TEST(CrossfireRules, TC19AbortRound) {
  State s = four();
  s = must(s, {Flip{{"Goon=9 faces:R2", "Wall=9 faces:R0"}},
               DrawCrossfire{"Quiet", false, false, 0, ""}});
  s = pass_turn(pass_turn(s));
  ASSERT_EQ(s.current, 2);
  s = must(s, {Hurt{{"R2"}, 5}, Hurt{{"R2"}, 1}});
  EXPECT_TRUE(runner(s, "R2").critical);
  s = must(s, {ApplyDamage{}, TakeDamage{}});
  const auto ev = events(s, EndTurn{});
  EXPECT_TRUE(has(ev, "abort_round"));
  EXPECT_TRUE(has(ev, "event_removed"));
  EXPECT_TRUE(has(ev, "moved", "Goon turns from R2 to face R3"));
  s = must(s, EndTurn{});
  EXPECT_EQ(s.current, 3);
  EXPECT_FALSE(s.active_event);
  s = pass_turn(s);
  EXPECT_EQ(s.current, 0);
  EXPECT_EQ(find(s, "Goon")->facing, 3);  // R3 is fine: Goon stays
  s = pass_turn(s);
  EXPECT_EQ(s.current, 1);
  EXPECT_TRUE(contains(refused(s, EndTurn{}), "finish the turn"));
  s = must(s, {ApplyDamage{}, TakeDamage{}});
  const auto end = events(s, EndTurn{});
  EXPECT_TRUE(has(end, "game_over", "Successful ABORT"));
  EXPECT_TRUE(has(end, "karma", "Karma for R0: 1"));
  s = must(s, EndTurn{});
  EXPECT_EQ(s.result, Result::Abort);

  // Critical during the Crossfire draw: the abort round starts with the starting runner.
  State draw = four();
  draw = must(draw, {Flip{{"Wall=9 faces:R0"}}, Hurt{{"R2"}, 5}, Hurt{{"R2"}, 1}});
  EXPECT_TRUE(draw.aborting);
  EXPECT_EQ(draw.phase, Phase::Turn);
  EXPECT_EQ(draw.current, 0);
}

// T-C21: Extraction with 3 runners; an obstacle worth 4¥ falls on the Client's turn: S, L1, L2.
TEST(CrossfireRules, TC21ExtractionPayout) {
  State s = game("extraction", {{"S", {"black", "blue"}}, {"L1", {"green"}}, {"L2", {"red"}}});
  ASSERT_EQ(runner_count(s), 3);
  EXPECT_TRUE(s.runners[0].client);  // on the starting runner's right
  EXPECT_EQ(s.starting, 1);
  s = must(s, Flip{{"Guard=2 nuyen:4", "Guard 2=9", "Guard 3=9"}});
  EXPECT_EQ(find(s, "Guard")->facing, 0);  // obstacles face the Client
  s = must(s, DrawCrossfire{"Quiet", false, false, 0, ""});
  for (int t = 0; t < 3; ++t)
    s = pass_turn(s);
  ASSERT_TRUE(s.runners[static_cast<std::size_t>(s.current)].client);
  s = must(s, PlayCard{"Quick Shot", "S", "weapon", "black+1", "Guard", {}});
  const int s_before = runner(s, "S").nuyen;
  s = must(s, ApplyDamage{});
  EXPECT_EQ(runner(s, "S").nuyen - s_before, 2);
  EXPECT_EQ(runner(s, "L1").nuyen, 6);
  EXPECT_EQ(runner(s, "L2").nuyen, 6);
  EXPECT_EQ(runner(s, "Client").nuyen, 0);
}

// T-C22: Extraction step 3 with 4 runners: everyone heals 1 (the Client too), 1 Hard + 2 Normal
// to flip, the Scene ends; Elite Response Team makes it 2 Hard + 2 Normal.
TEST(CrossfireRules, TC22ExtractionStep3) {
  for (const bool elite : {false, true}) {
    State s = four("extraction", elite ? std::vector<std::string>{"elite-response-team"}
                                       : std::vector<std::string>{});
    EXPECT_EQ(s.progress, 1);
    s = must(s, Flip{{"A=9", "B=9", "C=9", "D=9"}});
    s = must(s, {DrawCrossfire{"Quiet", false, false, 0, ""}, Hurt{{"R0", "Client"}, 2}});
    for (int t = 0; t < 5; ++t)
      s = pass_turn(s);  // R0..R3 and the Client
    EXPECT_EQ(s.progress, 2);
    EXPECT_EQ(runner(s, "R1").hand, 4 + 1);  // kept 4 (no draw 2 above 3), 1 from the track
    s = must(s, DrawCrossfire{"Quiet 2", false, false, 0, ""});
    for (int t = 0; t < 5; ++t)
      s = pass_turn(s);
    EXPECT_EQ(s.progress, 3);
    EXPECT_EQ(runner(s, "R0").hp, 4);
    EXPECT_EQ(runner(s, "Client").hp, 4);
    auto f = flip_forecast(s);
    ASSERT_TRUE(f);
    EXPECT_EQ(f->hard, elite ? 2 : 1);
    EXPECT_EQ(f->normal, 2);
    EXPECT_EQ(s.scene, 2);
  }
}

// T-C23: the Black Market restocks from its discard, then runs out of stock.
TEST(CrossfireRules, TC23BlackMarketRestock) {
  State s = four("custom");
  s = must(s, {DrawCrossfire{"Quiet", false, false, 0, ""}, Flip{{"Wall=9 faces:R3"}},
               ApplyDamage{}, TakeDamage{}});
  s = must(s, {Override{"/decks/market", 0}, Override{"/decks/market_discard", 4}});
  const auto ev = events(s, Buy{"Mana", 1, false});
  EXPECT_TRUE(has(ev, "market", "shuffled"));
  s = must(s, Buy{"Mana", 1, false});
  EXPECT_EQ(s.decks.market, 3);
  EXPECT_EQ(s.decks.market_discard, 0);
  EXPECT_EQ(s.decks.market_slots, 6);
  s = must(s, Override{"/decks/market", 0});
  s = must(s, Buy{"Mark", 1, false});
  EXPECT_EQ(s.decks.market_slots, 5);
  EXPECT_TRUE(s.decks.out_of_stock);
  EXPECT_TRUE(contains(refused(s, Buy{"Mark", 1, false}), "out of stock"));
}

// T-C25: Lightning Mage with level 1 cleared; Fireball's box alone clears level 2 only, and no
// partial damage is kept after the turn.
TEST(CrossfireRules, TC25NoSkippingTheBlueLevel) {
  State s = four("custom");
  s = must(s, {DrawCrossfire{"Quiet", false, false, 0, ""},
               Flip{{"Lightning Mage=3,blue,blue,1 colour:blue faces:R1"}},
               DirectDamage{"Lightning Mage", "3", ""}});
  EXPECT_EQ(find(s, "Lightning Mage")->card.cleared, 1);
  s = must(s, PlayCard{"Fireball", "", "spell", "blue+2", "Lightning Mage", {}});
  s = must(s, ApplyDamage{});
  EXPECT_EQ(find(s, "Lightning Mage")->card.cleared, 2);
  s = must(s, {TakeDamage{}, EndTurn{}});
  EXPECT_EQ(find(s, "Lightning Mage")->card.cleared, 2);
  EXPECT_TRUE(find(s, "Lightning Mage")->partial.empty());
}

// ---- missions --------------------------------------------------------------------------------

TEST(CrossfireRules, CrossfireSceneEndAndBuyRound) {
  State s = four();
  s = must(s, Flip{{"Only=1 faces:R1"}});
  s = must(s, DrawCrossfire{"Quiet", false, false, 0, ""});
  s = must(s, Hurt{{"R3"}, 2});
  s = must(s, PlayCard{"Quick Shot", "", "weapon", "black", "Only", {}});
  s = must(s, {ApplyDamage{}, TakeDamage{}});
  const auto ev = events(s, EndTurn{});
  EXPECT_TRUE(has(ev, "scene_end", "Scene 1 ends"));
  EXPECT_TRUE(has(ev, "buy_round", "R1 first"));  // left of the defeater (R0)
  s = must(s, EndTurn{});
  EXPECT_EQ(s.phase, Phase::SceneEnd);
  EXPECT_EQ(runner(s, "R3").hp, 4);  // healed 1
  s = must(s, {Pass{}, Pass{}, Pass{}});
  const auto last = events(s, Buy{"Mana", 1, false});
  EXPECT_TRUE(has(last, "scene", "A new Scene begins. Scene 2"));
  s = must(s, Buy{"Mana", 1, false});
  EXPECT_EQ(s.phase, Phase::Turn);
  EXPECT_EQ(s.current, 1);  // the turn goes on with the first buyer
  EXPECT_EQ(s.scene, 2);
  EXPECT_TRUE(s.flip_pending);
  auto f = flip_forecast(s);
  ASSERT_TRUE(f);
  EXPECT_EQ(f->total, 5);
}

TEST(CrossfireRules, DragonAspectsAndWin) {
  State s = four("dragon");
  s = must(s, Flip{{"Covert Hacking=2green|6 boss type:Covert nuyen:0",
                    "Covert Skill=2red|6 boss type:Covert", "Minion=9"}});
  EXPECT_EQ(find(s, "Covert Hacking")->facing, 3);  // the starting runner's right
  EXPECT_EQ(find(s, "Minion")->facing, 0);          // left of the Dragon's runner
  EXPECT_TRUE(contains(refused(s, DrawCrossfire{"x", false, false, 0, ""}), "round 1"));
  s = must(s, BeginRound{});
  s = must(s, PlayCard{"Bolt", "", "spell", "levels:2:consecutive+obstacle-only", "", {}});
  EXPECT_TRUE(contains(refused(s, PlaceCard{"Bolt", -1, "Covert Hacking", {}}), "boss"));
  s = must(s, PlayCard{"Mark", "", "hacking", "2green", "Covert Hacking", {}});
  s = must(s, {ApplyDamage{}, TakeDamage{}});
  EXPECT_EQ(s.aspects_defeated, 1);
  s = must(s, EndTurn{});
  EXPECT_EQ(s.phase, Phase::SceneEnd);
  s = must(s, Override{"/aspects_defeated", 3});
  s = must(s, {Pass{}, Pass{}, Pass{}, Pass{}});
  s = must(s, PlayCard{"Street Smarts", "", "skill", "6", "Covert Skill", {}});
  const auto ev = events(s, ApplyDamage{});
  EXPECT_TRUE(has(ev, "game_over", "WINS"));
  EXPECT_TRUE(has(ev, "karma", "Karma for R0: 7"));
}

TEST(CrossfireRules, StepsAreInOrder) {
  State s = four("custom");
  s = must(s, {DrawCrossfire{"Quiet", false, false, 0, ""}, Flip{{"Wall=9 faces:R3"}}});
  EXPECT_TRUE(contains(refused(s, TakeDamage{}), "take damage step"));
  EXPECT_TRUE(contains(refused(s, EndTurn{}), "finish the turn"));
  EXPECT_TRUE(contains(refused(s, Buy{"x", 0, false}), "draw & buy"));
  s = must(s, PlayCard{"Mana", "", "spell", "blue", "", {}});
  s = must(s, {ApplyDamage{}, TakeDamage{}});
  EXPECT_TRUE(refused(s, Buy{"Lightning Bolt", 3, true}).empty());  // a Spell was played
  EXPECT_TRUE(contains(refused(s, PlayCard{"Late", "", "", "1", "", {}}), "play step"));
}

TEST(CrossfireRules, RequiresSpell) {
  State s = four("custom");
  s = must(s, {DrawCrossfire{"Quiet", false, false, 0, ""}, Flip{{"Wall=9 faces:R3"}},
               ApplyDamage{}, TakeDamage{}});
  EXPECT_TRUE(contains(refused(s, Buy{"Guiding Spirit", 3, true}), "REQUIRES SPELL"));
}

TEST(CrossfireRules, OverrideIsCheckedAndReplayIsDeterministic) {
  State s = four("custom");
  EXPECT_TRUE(contains(refused(s, Override{"/runners/0/hp", 99}), "HP"));
  EXPECT_TRUE(contains(refused(s, Override{"/no/such", 1}), "no tracked field"));
  const std::vector<Command> cmds = {DrawCrossfire{"Quiet", false, false, 0, ""},
                                     Flip{{"Wall=3 faces:R1 attack:1 nuyen:2"}},
                                     PlayCard{"Mana", "", "spell", "blue+2", "Wall", {}},
                                     ApplyDamage{},
                                     TakeDamage{},
                                     EndTurn{}};
  const Replay a = replay(s, cmds);
  const Replay b = replay(s, cmds);
  ASSERT_FALSE(a.rejected_at);
  EXPECT_EQ(a.state, b.state);
  EXPECT_EQ(a.events, b.events);
}

}  // namespace
}  // namespace duels::cards::crossfire
