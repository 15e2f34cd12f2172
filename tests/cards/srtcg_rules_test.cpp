// The SRTCG tracker: scenarios T-S1…T-S18 of the spec driven through apply(), plus a whole run.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <algorithm>

#include "cards/srtcg/json.hpp"
#include "cards/srtcg/rules.hpp"

namespace duels::cards::srtcg {
namespace {

/// Applies a command that must be legal.
State must(const State& s, const Command& c) {
  auto r = srtcg::apply(s, c);
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

/// A started game with these players; the first starts.
State game(const std::vector<std::string>& names) {
  State s;
  for (const auto& n : names)
    s = must(s, AddPlayer{n, 60, 6});
  return must(s, StartGame{names.front()});
}

/// Plays the active player's phases up to `target` (placing / revealing Objectives as needed).
State to_phase(State s, Phase target) {
  for (int guard = 0; guard < 20 && s.phase != target; ++guard) {
    Player& p = s.players[static_cast<std::size_t>(s.active)];
    if (s.phase == Phase::Objective && !p.objective) {
      s = must(s, PlaceObjective{fmt::format("{}'s Job: rep 30", p.name)});
      continue;
    }
    if (s.phase == Phase::End && p.hand > 7) {
      s = must(s, Discard{p.name, p.hand - 7});
      continue;
    }
    s = must(s, NextPhase{});
  }
  EXPECT_EQ(s.phase, target);
  return s;
}

/// Ends the active player's turn and plays the next one up to `target`.
State next_turn(State s, Phase target) {
  s = to_phase(s, Phase::End);
  const Player& p = s.players[static_cast<std::size_t>(s.active)];
  if (p.hand > 7) s = must(s, Discard{p.name, p.hand - 7});
  s = must(s, NextPhase{});
  return to_phase(s, target);
}

const Player& player(const State& s, int i) {
  return s.players[static_cast<std::size_t>(i)];
}

// T-S1: D6 with modifiers, floored at 1, no cap.
TEST(SrtcgRules, TS1DieModifiers) {
  EXPECT_EQ(d6_result(5, 4), 9);
  EXPECT_EQ(d6_result(5, -2), 3);
  EXPECT_EQ(d6_result(1, -2), 1);
  EXPECT_EQ(d6_result(6, 20), 26);
}

// T-S2: "2¥: +2/+2" bought twice costs 4¥ and gives +4/+4 until the end of the turn.
TEST(SrtcgRules, TS2Pump) {
  State s = to_phase(game({"Alice", "Bob"}), Phase::Legwork);
  s = must(s, Override{"/players/0/credstick", 20});
  s = must(s, Deploy{"Troll: 3/4; pump 2 +2/+2; cost 5"});
  s = must(s, PumpRunner{"Troll", 2});
  EXPECT_EQ(player(s, 0).credstick, 20 - 5 - 4);
  const Runner& r = player(s, 0).runners[0];
  EXPECT_EQ(r.pumps * r.card.pump.attack, 4);
  EXPECT_EQ(r.pumps * r.card.pump.body, 4);
  s = must(s, Override{"/players/0/hand", 3});
  s = next_turn(s, Phase::Objective);
  EXPECT_EQ(player(s, 0).runners[0].pumps, 0);  // reverted at end of turn
}

// T-S3: Tin Man 5/5 pumped to 10/10 survives 8 damage, then dies when the pump reverts.
TEST(SrtcgRules, TS3TinMan) {
  State s = to_phase(game({"Alice", "Bob"}), Phase::Legwork);
  s = must(s, Override{"/players/0/credstick", 20});
  s = must(s, {Deploy{"Tin Man: 5/5; pump 1 +1/+1; cyborg; cost 5"},
               AttachGear{"Tin Man", "Ares Predator: weapon; +3/+0; cost 2"}});
  s = must(s, PumpRunner{"Tin Man", 5});
  s = must(s, Damage{"Tin Man", 8, false, "", 0});
  ASSERT_EQ(player(s, 0).runners.size(), 1U);
  EXPECT_EQ(player(s, 0).runners[0].damage, 8);
  const int trash = player(s, 0).trash;
  s = to_phase(s, Phase::End);
  auto r = srtcg::apply(s, NextPhase{});
  ASSERT_TRUE(r);
  EXPECT_TRUE(player(r->state, 0).runners.empty());
  EXPECT_EQ(player(r->state, 0).trash, trash + 2);  // trashed with its gear
  bool said = false;
  for (const Event& e : r->events)
    said = said || (e.type == "died" && contains(e.text, "Tin Man"));
  EXPECT_TRUE(said);
}

// T-S5: armor: flat ratings do not stack (highest wins), additive ones add.
TEST(SrtcgRules, TS5ArmorStacking) {
  Runner r;
  r.card = *parse_runner("Street Sam: 4/4 A1");
  r.gear.push_back(HeldGear{*parse_gear("Bulldog: vehicle; A2")});
  EXPECT_EQ(effective_armor(r, true).value(), 2);
  Runner bare;
  bare.card = *parse_runner("Kid: 2/2");
  bare.gear.push_back(HeldGear{*parse_gear("Lined Coat: armor; A+1")});
  EXPECT_EQ(effective_armor(bare, true).value(), 1);
  Runner both;
  both.card = *parse_runner("Merc: 3/3 A1");
  both.gear.push_back(HeldGear{*parse_gear("Lined Coat: armor; A+1")});
  EXPECT_EQ(effective_armor(both, true).value(), 2);
  // The order of the two rules: highest flat first, then every additive (ambiguity 15).
  Runner mixed;
  mixed.card = *parse_runner("Merc: 3/3 A1");
  mixed.gear.push_back(HeldGear{*parse_gear("Lined Coat: armor; A+1")});
  mixed.gear.push_back(HeldGear{*parse_gear("Bulldog: vehicle; A2")});
  EXPECT_EQ(effective_armor(mixed, true).value(), 3);
  EXPECT_EQ(effective_armor(mixed, false).value(), 2);  // no vehicle indoors
}

// T-S6: Skillsoft: Athletics (+1): none → 1, 1 → 2, 2 → 3.
TEST(SrtcgRules, TS6Skillsoft) {
  const GearCard soft = *parse_gear("Skillsoft: cyberware; Athletics +1; essence 1");
  for (const auto& [spec, want] : std::vector<std::pair<std::string, int>>{
           {"A: 1/1", 1}, {"B: 1/1; Athletics", 2}, {"C: 1/1; Athletics 2", 3}}) {
    Runner r;
    r.card = *parse_runner(spec);
    r.gear.push_back(HeldGear{soft});
    EXPECT_EQ(effective_skills(r).at("Athletics"), want) << spec;
  }
}

// T-S7: Fame 2 on one runner or Fame 1 on two both add 2¥; a 4¥ start + 4 + 2 = 10¥.
TEST(SrtcgRules, TS7Fame) {
  Player one;
  one.runners.push_back(Runner{*parse_runner("Star: 3/3; Fame 2")});
  Player two;
  two.runners.push_back(Runner{*parse_runner("A: 3/3; Fame")});
  two.runners.push_back(Runner{*parse_runner("B: 3/3; Fame")});
  EXPECT_EQ(income(one), 6);
  EXPECT_EQ(income(two), 6);
  EXPECT_EQ(4 + income(one), 10);

  // Through the tracker: Alice's second Credstick phase pays 4 + 2.
  State s = to_phase(game({"Alice", "Bob"}), Phase::Legwork);
  EXPECT_EQ(player(s, 0).credstick, 8);  // 4 to start + 4 on the first turn
  s = must(s, Deploy{"Star: 3/3; Fame 2; cost 3"});
  s = next_turn(s, Phase::Objective);  // Bob
  s = next_turn(s, Phase::Credstick);  // Alice again
  const int before = player(s, 0).credstick;
  s = must(s, Payday{});
  EXPECT_EQ(player(s, 0).credstick, before + 6);
}

/// Alice runs on Bob's Objective (Bob's stack holds `challenges`, last faced first) with a
/// team deployed from `runners`.
State run_setup(const std::vector<std::string>& runners, const std::vector<std::string>& challenges,
                const std::string& objective = "Data Steal: rep 25") {
  State s = game({"Alice", "Bob"});
  s = must(s, PlaceObjective{"Alice's Job: rep 30"});
  s = next_turn(s, Phase::Objective);  // Bob's turn
  s = must(s, PlaceObjective{objective});
  s = to_phase(s, Phase::Legwork);
  s = must(s, Override{"/players/1/hand", 7});
  for (const auto& c : challenges)
    s = must(s, PlayChallenge{"Bob", c, false});
  s = next_turn(s, Phase::Legwork);  // Alice; Bob's Objective is revealed on Bob's next turn
  s = must(s, Override{"/players/0/credstick", 100});
  s = must(s, Override{"/players/0/hand", 20});
  for (const auto& r : runners)
    s = must(s, Deploy{r});
  // Bob reveals his Objective on his turn: play Bob's turn through, then Alice's to Shadowrun.
  s = next_turn(s, Phase::Legwork);
  s = next_turn(s, Phase::Shadowrun);
  EXPECT_TRUE(player(s, 1).objective->revealed);
  return s;
}

std::vector<std::string> names_of(const std::vector<std::string>& specs) {
  std::vector<std::string> out;
  for (const auto& spec : specs)
    out.push_back(parse_runner(spec)->name);
  return out;
}

// T-S8: Piloting 3 is not sleazed by 1 + 1 (alarm, no more sleazing), is sleazed by 1 + 2.
TEST(SrtcgRules, TS8PilotingSleaze) {
  const std::vector<std::string> weak = {"Wheels: 2/3; Piloting", "Driver: 2/3; Piloting"};
  State s =
      run_setup(weak, {"Roadblock: 3/3; sleaze Piloting 3", "Checkpoint: 1/9; sleaze Piloting 3"});
  s = must(s, StartRun{"Bob", names_of(weak), {}});
  EXPECT_EQ(s.run.step, RunStep::Face);
  s = must(s, Sleaze{});
  EXPECT_TRUE(s.run.alarm);
  EXPECT_TRUE(contains(refused(s, Sleaze{}), "alarm"));
  EXPECT_EQ(player(s, 1).objective->stacks[1].size(), 2U);

  const std::vector<std::string> strong = {"Wheels: 2/3; Piloting", "Ace: 2/3; Piloting 2"};
  State t = run_setup(strong,
                      {"Roadblock: 3/3; sleaze Piloting 3", "Checkpoint: 1/9; sleaze Piloting 3"});
  const int trash = player(t, 1).trash;
  t = must(t, StartRun{"Bob", names_of(strong), {}});
  t = must(t, Sleaze{});
  EXPECT_FALSE(t.run.alarm);
  EXPECT_EQ(t.run.step, RunStep::Decide);
  EXPECT_EQ(player(t, 1).objective->stacks[1].size(), 1U);
  EXPECT_EQ(player(t, 1).trash, trash + 1);
}

// Anti-social makes every Social sleaze fail.
TEST(SrtcgRules, AntiSocialFailsSocial) {
  const std::vector<std::string> team = {"Face: 2/3; Social 3", "Brute: 5/5; Anti-social"};
  State s = run_setup(team, {"Doorman: 1/9; sleaze Social 1"});
  s = must(s, StartRun{"Bob", names_of(team), {}});
  s = must(s, Sleaze{});
  EXPECT_TRUE(s.run.alarm);
}

// Set-up (C1, C2.2): the goal is at least 50; a Bad Shuffle only at the start, once each.
TEST(SrtcgRules, GoalAndBadShuffle) {
  State s = must(State{}, {AddPlayer{"Alice", 60, 6}, AddPlayer{"Bob", 60, 6}});
  EXPECT_TRUE(contains(refused(s, Configure{49, false}), "at least 50"));
  s = must(s, Configure{50, false});
  EXPECT_EQ(s.settings.goal, 50);
  s = must(s, StartGame{"Alice"});
  EXPECT_EQ(player(s, 0).hand, 7);
  EXPECT_EQ(player(s, 0).credstick, 4);
  s = must(s, BadShuffle{"Bob"});
  EXPECT_EQ(player(s, 1).hand, 7);
  EXPECT_EQ(player(s, 1).trash, 7);
  EXPECT_EQ(player(s, 1).draw_pile, 60 - 14);
  EXPECT_TRUE(contains(refused(s, BadShuffle{"Bob"}), "already"));
  s = must(s, PlaceObjective{"Alice's Job: rep 30"});
  s = must(s, NextPhase{});
  EXPECT_TRUE(contains(refused(s, BadShuffle{"Alice"}), "only at the start"));
}

// C2.5: only a revealed Objective can be run (revealed on its owner's next turn); at most 6
// unturned runners; one run a turn.
TEST(SrtcgRules, RunLimits) {
  State s = to_phase(game({"Alice", "Bob"}), Phase::Legwork);
  s = must(s, Override{"/players/0/credstick", 50});
  std::vector<std::string> seven;
  for (int i = 1; i <= 7; ++i) {
    seven.push_back(fmt::format("R{}", i));
    s = must(s, Deploy{fmt::format("R{}: 2/2; cost 1", i)});
  }
  s = to_phase(s, Phase::Shadowrun);
  EXPECT_TRUE(contains(refused(s, StartRun{"Alice", {"R1"}, {}}), "revealed"));
  s = next_turn(s, Phase::Objective);  // Bob
  s = next_turn(s, Phase::Shadowrun);  // Alice: her Objective is revealed now
  ASSERT_TRUE(player(s, 0).objective->revealed);
  EXPECT_TRUE(contains(refused(s, StartRun{"Alice", seven, {}}), "at most 6"));
  const std::vector<std::string> six(seven.begin(), seven.begin() + 6);
  s = must(s, StartRun{"Alice", six, {}});
  for (const auto& name : six) {
    const auto& runners = player(s, 0).runners;
    EXPECT_TRUE(std::any_of(runners.begin(), runners.end(), [&](const Runner& r) {
      return r.card.name == name && r.turned;
    })) << name;
  }
  s = must(s, PullOut{});
  EXPECT_FALSE(s.run.active);
  EXPECT_TRUE(contains(refused(s, StartRun{"Alice", {"R7"}, {}}), "one shadowrun per turn"));
}

// T-S9: Biotech 2 heals two present runners at once, once a turn; not a Cyborg.
TEST(SrtcgRules, TS9Biotech) {
  State s = to_phase(game({"Alice", "Bob"}), Phase::Legwork);
  s = must(s, Override{"/players/0/credstick", 50});
  s = must(s, {Deploy{"Doc: 1/3; Biotech 2"}, Deploy{"A: 3/5"}, Deploy{"B: 3/5"}, Deploy{"C: 3/5"},
               Deploy{"Chrome: 4/6; cyborg"}});
  for (const char* n : {"A", "B", "C", "Chrome"})
    s = must(s, Damage{n, 2, false, "", 0});
  EXPECT_TRUE(contains(refused(s, Biotech{"Doc", {"A", "B", "C"}}), "at most 2"));
  EXPECT_TRUE(contains(refused(s, Biotech{"Doc", {"A", "Chrome"}}), "Cyborg"));
  s = must(s, Biotech{"Doc", {"A", "B"}});
  EXPECT_EQ(player(s, 0).runners[1].damage, 0);
  EXPECT_EQ(player(s, 0).runners[2].damage, 0);
  EXPECT_EQ(player(s, 0).runners[3].damage, 2);
  EXPECT_TRUE(player(s, 0).runners[0].turned);
  EXPECT_TRUE(contains(refused(s, Biotech{"Doc", {"C"}}), "once per turn"));
}

// T-S10: Recon 2 looks at two Challenge cards this Legwork, not three.
TEST(SrtcgRules, TS10Recon) {
  State s = to_phase(game({"Alice", "Bob"}), Phase::Legwork);
  s = must(s, Deploy{"Scout: 2/2; Recon 2"});
  s = must(s, {Recon{"Scout"}, Recon{"Scout"}});
  EXPECT_TRUE(player(s, 0).runners[0].turned);
  EXPECT_TRUE(contains(refused(s, Recon{"Scout"}), "all used"));
}

// T-S12: a Prime Runner in play anywhere blocks another copy until it is gone.
TEST(SrtcgRules, TS12PrimeRunner) {
  State s = to_phase(game({"Alice", "Bob"}), Phase::Legwork);
  s = must(s, Deploy{"Lord Torgo: 6/6; prime; cost 4/1"});
  s = next_turn(s, Phase::Legwork);  // Bob
  s = must(s, Override{"/players/1/credstick", 20});
  EXPECT_TRUE(contains(refused(s, Deploy{"Lord Torgo: 6/6; prime; cost 4/1"}), "already in play"));
  s = must(s, Kill{"Alice:Lord Torgo", false});
  s = must(s, Deploy{"Lord Torgo: 6/6; prime; cost 4/1"});
  EXPECT_EQ(player(s, 1).runners.size(), 1U);
}

// T-S13: Hellish Traffic (no Threat Rating): a failed sleaze ends the run at once.
TEST(SrtcgRules, TS13HellishTraffic) {
  const std::vector<std::string> team = {"Walker: 3/3"};
  State s = run_setup(team, {"Guard Dog: 2/2; sleaze Stealth 1",
                             "Hellish Traffic: -; sleaze Piloting 3; ends-run; street"});
  s = must(s, StartRun{"Bob", names_of(team), {}});
  s = must(s, Sleaze{});
  EXPECT_FALSE(s.run.active);
  EXPECT_EQ(player(s, 1).objective->stacks[1].size(), 2U);  // both still there
  EXPECT_TRUE(contains(refused(s, Continue{}), "continue"));
}

// T-S14: Challenge limits per opponent on one Objective; bluffs count.
TEST(SrtcgRules, TS14ChallengeLimits) {
  for (const auto& [players, limit] : std::vector<std::pair<std::vector<std::string>, int>>{
           {{"A", "B"}, 3}, {{"A", "B", "C"}, 2}, {{"A", "B", "C", "D"}, 1}}) {
    State s = game(players);
    s = to_phase(s, Phase::Legwork);  // A has an Objective (placed this turn)
    s = must(s, Override{"/players/0/hand", 10});
    for (int k = 0; k < limit; ++k)
      s = must(s, PlayChallenge{"A", "", k % 2 == 1});
    EXPECT_TRUE(contains(refused(s, PlayChallenge{"A", "", true}), "limit"))
        << players.size() << " players";
    EXPECT_TRUE(contains(refused(s, PlayChallenge{"A", "Dog: 2/2", false}), "limit"));
  }
}

// T-S15: the negative-reputation lock.
TEST(SrtcgRules, TS15NegativeReputation) {
  int rep = 3;
  bool lock = false;
  const std::vector<std::pair<int, int>> steps = {{-5, -2}, {-4, -2}, {+2, 0},
                                                  {-3, 0},  {+1, 1},  {-3, -2}};
  const std::vector<bool> locks = {true, true, true, true, false, true};
  for (std::size_t i = 0; i < steps.size(); ++i) {
    apply_rep_change(rep, lock, steps[i].first);
    EXPECT_EQ(rep, steps[i].second) << "step " << i;
    EXPECT_EQ(lock, locks[i]) << "step " << i;
  }
  // Through the tracker.
  State s = game({"Alice", "Bob"});
  s = must(s, Reputation{"Alice", 3});
  for (const auto& [delta, want] : steps) {
    s = must(s, Reputation{"Alice", delta});
    EXPECT_EQ(player(s, 0).reputation, want);
  }
}

// T-S16: 9 cards are fine during the turn; the End phase needs 2 trashed.
TEST(SrtcgRules, TS16HandLimit) {
  State s = to_phase(game({"Alice", "Bob"}), Phase::Legwork);
  s = must(s, Draw{"Alice", 1});  // 8 after the Refresh draw
  EXPECT_EQ(player(s, 0).hand, 9);
  s = to_phase(s, Phase::End);
  EXPECT_TRUE(contains(refused(s, NextPhase{}), "trash 2"));
  s = must(s, Discard{"Alice", 2});
  s = must(s, NextPhase{});
  EXPECT_EQ(s.active, 1);
}

// T-S17: 1¥, a Prime Runner with upkeep 2, and "draw to 7": the runner is trashed.
TEST(SrtcgRules, TS17Upkeep) {
  State s = to_phase(game({"Alice", "Bob"}), Phase::Legwork);
  s = must(s, Deploy{"Lord Torgo: 6/6; prime; cost 4/2"});
  s = next_turn(s, Phase::Objective);  // Bob
  s = next_turn(s, Phase::Credstick);  // Alice
  s = must(s, Override{"/players/0/credstick", 1});
  s = must(s, Payday{true, 0});
  EXPECT_TRUE(player(s, 0).runners.empty());
  EXPECT_EQ(player(s, 0).credstick, 1);
  EXPECT_EQ(player(s, 0).hand, 7);
}

// T-S18: cyberware beyond Essence 6 kills the runner (after a confirmation); Mages are refused.
TEST(SrtcgRules, TS18Cyberware) {
  State s = to_phase(game({"Alice", "Bob"}), Phase::Legwork);
  s = must(s, Override{"/players/0/credstick", 50});
  s = must(s, Override{"/players/0/hand", 10});
  s = must(s, {Deploy{"Razor: 4/4"}, AttachGear{"Razor", "Wired: cyberware; +2/+0; essence 5"}});
  EXPECT_EQ(essence_used(player(s, 0).runners[0]), 5);
  const std::string why = refused(s, AttachGear{"Razor", "Spurs: cyberware; +1/+0; essence 2"});
  EXPECT_TRUE(contains(why, "Essence to 7")) << why;
  EXPECT_TRUE(contains(why, "confirm")) << why;
  s = must(s, AttachGear{"Razor", "Spurs: cyberware; +1/+0; essence 2", true});
  EXPECT_TRUE(player(s, 0).runners.empty());
  s = must(s, Deploy{"Mage: 2/3; Sorcery 2; mage"});
  EXPECT_TRUE(contains(refused(s, AttachGear{"Mage", "Eyes: cyberware; essence 1"}), "Mages"));
  s = must(s, Deploy{"Burnout: 2/3; Sorcery; mage; burned-out-mage"});
  s = must(s, AttachGear{"Burnout", "Eyes: cyberware; essence 1"});
}

// Gear limits: one Armor card, skill requirements, Spells per turn ≤ Sorcery.
TEST(SrtcgRules, GearLimits) {
  State s = to_phase(game({"Alice", "Bob"}), Phase::Legwork);
  s = must(s, Override{"/players/0/credstick", 50});
  s = must(s, Override{"/players/0/hand", 10});
  s = must(s, {Deploy{"Mage: 2/3; Sorcery"}, AttachGear{"Mage", "Vest: armor; A1"}});
  EXPECT_TRUE(contains(refused(s, AttachGear{"Mage", "Coat: armor; A+1"}), "one Armor"));
  EXPECT_TRUE(contains(refused(s, AttachGear{"Mage", "Deck: cyberdeck"}), "Decking"));
  s = must(s, {AttachGear{"Mage", "Bolt: spell"}, AttachGear{"Mage", "Heal: spell"}});
  s = must(s, UseGear{"Mage", "Bolt"});
  EXPECT_TRUE(contains(refused(s, UseGear{"Mage", "Heal"}), "Sorcery 1"));
}

// A whole run: sleaze, fight with the suggested split, take the Objective, win at the goal.
TEST(SrtcgRules, FullRunTakesObjectiveAndWins) {
  const std::vector<std::string> team = {"Sam: 6/4; Stealth", "Tank: 3/5 A1"};
  State s = run_setup(team, {"Sniper: 4/4 A1; sleaze Athletics 2", "Dog: 2/2; sleaze Stealth 1"});
  s = must(s, Override{"/players/0/reputation", 40});
  s = must(s, StartRun{"Bob", names_of(team), {}});
  s = must(s, Sleaze{});  // Dog: Stealth 1 ≥ 1
  EXPECT_EQ(s.run.step, RunStep::Decide);
  s = must(s, Continue{});
  EXPECT_EQ(s.run.step, RunStep::Face);
  s = must(s, Sleaze{});  // Sniper: no Athletics → alarm
  EXPECT_TRUE(s.run.alarm);
  auto fought = srtcg::apply(s, Fight{});
  ASSERT_TRUE(fought) << fought.error().reason;
  s = fought->state;
  // 6−1 + 3−1 = 7 ≥ 4: beaten. 4 damage: Tank's armor soaks 1 → Tank takes 3 of 5, Sam 0.
  EXPECT_EQ(s.run.step, RunStep::Decide);
  EXPECT_EQ(player(s, 0).runners.size(), 2U);
  s = must(s, Continue{});
  EXPECT_EQ(s.run.step, RunStep::Objective);
  s = must(s, TakeObjective{});
  EXPECT_EQ(player(s, 0).reputation, 65);
  EXPECT_EQ(s.phase, Phase::GameOver);
  EXPECT_EQ(s.winner, 0);
  EXPECT_FALSE(player(s, 1).objective.has_value());
}

// A Challenge not beaten still deals its damage, then goes back face down and the run ends.
TEST(SrtcgRules, NotBeatenStillDealsDamage) {
  const std::vector<std::string> team = {"Kid: 2/3"};
  State s = run_setup(team, {"Troll Bouncer: 3/9"});
  s = must(s, StartRun{"Bob", names_of(team), {}});
  s = must(s, Fight{});
  EXPECT_FALSE(s.run.active);
  EXPECT_TRUE(player(s, 0).runners.empty());  // 3 damage ≥ Body 3
  EXPECT_EQ(player(s, 1).objective->stacks[1].size(), 1U);
}

// A player's split is checked: no more than kills it, and every point must be given.
TEST(SrtcgRules, ManualSplitChecked) {
  const std::vector<std::string> team = {"A: 5/4", "B: 5/4"};
  State s = run_setup(team, {"Ganger: 5/5"});
  s = must(s, StartRun{"Bob", names_of(team), {}});
  EXPECT_TRUE(contains(refused(s, Fight{{}, {{"A", 5}}}), "at most 4"));
  EXPECT_TRUE(contains(refused(s, Fight{{}, {{"A", 2}, {"B", 2}}}), "every point"));
  s = must(s, Fight{{}, {{"A", 2}, {"B", 3}}});
  EXPECT_EQ(player(s, 0).runners[0].damage, 2);
  EXPECT_EQ(player(s, 0).runners[1].damage, 3);
}

// The Objective's owner may pick the order of stacks; bluffs are trashed when reached.
TEST(SrtcgRules, BluffsAndInterception) {
  const std::vector<std::string> team = {"Sam: 4/4"};
  State s = run_setup(team, {});
  s = must(s, StartRun{"Bob", names_of(team), {}});
  EXPECT_EQ(s.run.step, RunStep::Objective);
  s = must(s, Override{"/players/1/credstick", 20});
  auto r = srtcg::apply(s, Intercept{"Bob", {}, {}, {}});
  EXPECT_FALSE(r);
  // Bob has no runners: deploy one first (in the override-friendly way, as card text).
  s = must(s,
           Override{"/players/1/runners",
                    nlohmann::json::array({nlohmann::json(Runner{*parse_runner("Guard: 5/5")})})});
  s = must(s, Intercept{"Bob", {"Guard"}, {}, {}});
  EXPECT_FALSE(s.run.active);
  EXPECT_TRUE(player(s, 1).objective->intercepted);
  EXPECT_TRUE(player(s, 0).runners.empty());     // 5 ≥ 4
  EXPECT_EQ(player(s, 1).runners[0].damage, 4);  // 4 < 5
}

}  // namespace
}  // namespace duels::cards::srtcg
