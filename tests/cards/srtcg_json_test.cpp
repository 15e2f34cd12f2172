// JSON forms for the journal, the stable state hash, the manual override, undo = replay without
// the last command, the play console, and the notation round trip.
#include <gtest/gtest.h>

#include "cards/srtcg/console.hpp"
#include "cards/srtcg/json.hpp"
#include "cards/srtcg/rules.hpp"
#include "cards/srtcg/session.hpp"

namespace duels::cards::srtcg {
namespace {

using nlohmann::json;

/// One of every command, with non-default fields.
std::vector<Command> every_command() {
  return {AddPlayer{"Alice", 65, 7},
          Configure{70, true},
          StartGame{"Alice"},
          BadShuffle{"Bob"},
          NextPhase{},
          PlaceObjective{"Data Steal: rep 25"},
          RevealObjective{"Data Steal: rep 25"},
          Payday{true, 2},
          Heal{"Sam"},
          Repair{"Rigger", "Crawler"},
          Deploy{"Sam: 6/4; Stealth"},
          DeployCard{"Club Vortex", "location", 3, 1, 2},
          PlaySpecial{"Bob", "Bad Lunch", 1},
          PlayChallenge{"Bob", "Dog: 2/2; sleaze Stealth 1", true},
          AttachGear{"Sam", "Predator: weapon; +3/+0", true},
          SwapGear{"Sam", "Tank", "Predator"},
          UseGear{"Mage", "Bolt"},
          Recon{"Scout"},
          PumpRunner{"Troll", 3},
          PumpChallenge{2},
          Biotech{"Doc", {"Sam", "Tank"}},
          Activate{"Rigger", "Crawler"},
          StartRun{"Bob", {"Sam", "Tank"}, {"Mortar"}},
          StackOrder{{"Carol", "Bob"}},
          Reveal{"Dog: 2/2", true},
          Sleaze{},
          Fight{{BurstRoll{"Sam", 5}}, {SplitEntry{"Tank", 3}}},
          Beat{},
          Stopped{},
          Continue{},
          PullOut{},
          TakeObjective{},
          Intercept{"Bob", {"Guard"}, {"Sam"}, {"Guard"}},
          Damage{"Sam", 4, true, "Tank", 2},
          Kill{"Sam", true},
          TrashGear{"Sam", "Predator"},
          Draw{"Bob", 2},
          Discard{"Alice", 3},
          Nuyen{"Alice", -2},
          Reputation{"Alice", -5},
          Override{"/players/0/credstick", 9}};
}

TEST(SrtcgJson, EveryCommandRoundTrips) {
  const auto cmds = every_command();
  EXPECT_EQ(cmds.size(), std::variant_size_v<Command>);
  std::set<std::string> types;
  for (const Command& c : cmds) {
    const json j = c;
    ASSERT_TRUE(j.contains("type")) << j.dump();
    types.insert(j["type"].get<std::string>());
    auto back = parse_command(j);
    ASSERT_TRUE(back) << back.error();
    EXPECT_EQ(*back, c) << j.dump();
    EXPECT_EQ(command_type(c), j["type"].get<std::string>());
  }
  EXPECT_EQ(types.size(), cmds.size());  // every type distinct
}

TEST(SrtcgJson, BadCommandsAreRefusedInWords) {
  EXPECT_FALSE(parse_command(json::array()));
  EXPECT_NE(parse_command(json{{"type", "teleport"}}).error().find("unknown command type"),
            std::string::npos);
  EXPECT_FALSE(parse_command(json{{"type", "pump"}, {"times", "many"}}));
  // Missing fields take their defaults (older journals keep loading).
  auto pump = parse_command(json{{"type", "pump"}, {"runner", "Troll"}});
  ASSERT_TRUE(pump);
  EXPECT_EQ(std::get<PumpRunner>(*pump).times, 1);
}

/// A game with a run in progress: enough state to exercise every part of the JSON.
State busy_state() {
  Session s;
  for (const Command& c : std::vector<Command>{
           AddPlayer{"Alice", 60, 6}, AddPlayer{"Bob", 60, 6}, StartGame{"Alice"},
           PlaceObjective{"Alice's Job: rep 30"}, NextPhase{}, NextPhase{}, NextPhase{},
           Override{"/players/0/credstick", 40}, Deploy{"Rigger: 2/4; Piloting 2; rigger; cost 4"},
           AttachGear{"Rigger", "Crawler: drone; 3/3 A1; cost 2"},
           Deploy{"Sam: 6/4; Stealth; Fame; cost 5"}}) {
    auto r = s.submit(c);
    EXPECT_TRUE(r) << (r ? "" : r.error().reason);
  }
  return s.state();
}

// Text that the journal's JSON cannot hold is refused, not stored.
TEST(SrtcgJson, InvalidUtf8IsRefused) {
  auto r = srtcg::apply(State{}, AddPlayer{"Al\xBCice", 60, 6});
  ASSERT_FALSE(r);
  EXPECT_NE(r.error().reason.find("UTF-8"), std::string::npos);
  EXPECT_TRUE(srtcg::apply(State{}, AddPlayer{"Zoë", 60, 6}));
}

TEST(SrtcgJson, StateRoundTripsAndHashIsStable) {
  const State s = busy_state();
  const json j = s;
  auto back = parse_state(j);
  ASSERT_TRUE(back) << back.error();
  EXPECT_EQ(*back, s);
  EXPECT_EQ(state_hash(*back), state_hash(s));
  EXPECT_EQ(state_hash_hex(s).size(), 16U);
  State other = s;
  other.players[0].credstick += 1;
  EXPECT_NE(state_hash(other), state_hash(s));
}

TEST(SrtcgJson, OverrideChecksPathsAndInvariants) {
  const State s = busy_state();
  auto ok = override_field(s, "/players/1/reputation", 12);
  ASSERT_TRUE(ok) << ok.error();
  EXPECT_EQ(ok->players[1].reputation, 12);
  EXPECT_FALSE(override_field(s, "/players/9/credstick", 1));
  EXPECT_FALSE(override_field(s, "/players/0/credstick", -3));
  EXPECT_FALSE(override_field(s, "/active", 7));
  EXPECT_FALSE(override_field(s, "not a pointer", 1));
  EXPECT_FALSE(override_field(s, "/phase", "lunch"));
  // Card fields are reachable too (card text beats the rules).
  auto armor = override_field(s, "/players/0/runners/1/card/armor/flat", 2);
  ASSERT_TRUE(armor) << armor.error();
  EXPECT_EQ(armor->players[0].runners[1].card.armor.flat, 2);
}

TEST(SrtcgJson, SessionUndoIsReplayWithoutTheLast) {
  Session s;
  ASSERT_TRUE(s.submit(AddPlayer{"Alice", 60, 6}));
  ASSERT_TRUE(s.submit(AddPlayer{"Bob", 60, 6}));
  ASSERT_TRUE(s.submit(StartGame{"Bob"}));
  const State before = s.state();
  ASSERT_TRUE(s.submit(PlaceObjective{""}));
  EXPECT_FALSE(s.submit(PlaceObjective{""}));  // refused: not logged
  EXPECT_EQ(s.log().size(), 4U);
  ASSERT_TRUE(s.undo());
  EXPECT_EQ(s.state(), before);
  ASSERT_TRUE(s.redo());
  EXPECT_TRUE(s.state().players[1].objective.has_value());
  EXPECT_FALSE(s.redo());
  // Restoring from a log gives the same state.
  Session again;
  ASSERT_TRUE(again.restore(s.log(), {}));
  EXPECT_EQ(again.state(), s.state());
}

/// Records what the session journals.
class Recorder : public SessionRecorder {
 public:
  void record_command(const Command& c) override { entries.push_back(command_type(c)); }
  void record_undo() override { entries.emplace_back("undo"); }
  void record_redo() override { entries.emplace_back("redo"); }
  std::vector<std::string> entries;
};

TEST(SrtcgJson, RecorderSeesEveryChangeAndNoRefusal) {
  Session s;
  Recorder rec;
  s.set_recorder(&rec);
  ASSERT_TRUE(s.submit(AddPlayer{"Alice", 60, 6}));
  EXPECT_FALSE(s.submit(StartGame{"Nobody"}));
  ASSERT_TRUE(s.undo());
  ASSERT_TRUE(s.redo());
  EXPECT_EQ(rec.entries, (std::vector<std::string>{"add_player", "undo", "redo"}));
}

// The console drives a whole turn and a run, with undo.
TEST(SrtcgJson, ConsolePlaysARun) {
  Console c(7);
  const std::vector<std::string> script = {
      "player Alice",
      "player Bob",
      "start Bob",
      "place Bob's Job: rep 25",
      "next",
      "next",
      "next",
      "challenge Bob Dog: 2/2; sleaze Stealth 1",
      "next",
      "next",
      "discard 1",
      "next",
      "place Alice's Job: rep 30",
      "next",
      "payday",
      "next",
      "next",
      "deploy Sam: 6/4; Stealth; cost 3",
      "deploy Tank: 3/5 A1; cost 3",
      "next",
      "next",
      "next",
      "next",
      "next",
      "next",
      "next",
      "set /players/1/hand 7",
      "next",
      "next",
      "next",
      "next",
      "next",
      "next",
  };
  for (const auto& line : script) {
    const auto reply = c.handle(line);
    EXPECT_TRUE(reply.ok) << line << ": " << reply.text;
  }
  // Alice's second turn, Shadowrun phase. Bob's Objective was revealed on his turn.
  const State& s = c.session().state();
  ASSERT_EQ(s.phase, Phase::Shadowrun) << render(s);
  ASSERT_EQ(s.active, 0);
  EXPECT_TRUE(c.handle("run Bob -> Sam, Tank").ok);
  EXPECT_NE(c.handle("combat").text.find("Team damage 9 vs Body 2: beaten"), std::string::npos);
  const auto sleaze = c.handle("sleaze");
  EXPECT_TRUE(sleaze.ok) << sleaze.text;
  EXPECT_NE(sleaze.text.find("sleazed"), std::string::npos);
  EXPECT_TRUE(c.handle("continue").ok);
  const auto take = c.handle("take");
  EXPECT_TRUE(take.ok) << take.text;
  EXPECT_EQ(c.session().state().players[0].reputation, 25);
  EXPECT_TRUE(c.handle("undo").ok);
  EXPECT_EQ(c.session().state().players[0].reputation, 0);
  EXPECT_FALSE(c.handle("fight split Sam=x").ok);
  EXPECT_FALSE(c.handle("teleport").ok);
  EXPECT_TRUE(c.handle("quit").quit);
}

// Notation round trip: canonical text parses back to the same card.
TEST(SrtcgJson, NotationRoundTrips) {
  for (const char* spec : {"Tin Man: 5/5 A1; Firearms 2; Athletics; Stamina; Fame 2; cost 8/2; "
                           "prime; cyborg; pump 1 +1/+1",
                           "6/4", "3/3 A1 A+1 +2/-1; dmg 2; pumped 1; burst 4; ap; protect; drone",
                           "Kid: 2/2; keyword street-kid"}) {
    auto c = parse_runner(spec);
    ASSERT_TRUE(c) << c.error().message();
    auto again = parse_runner(to_notation(*c));
    ASSERT_TRUE(again) << to_notation(*c) << ": " << again.error().message();
    EXPECT_EQ(*again, *c) << to_notation(*c);
  }
  for (const char* spec : {"Hellish Traffic: -; sleaze Piloting 3; ends-run; street",
                           "Ork Bouncer: 4/5 A1; sleaze Social 2; pump 2 +2/+0; personnel; ap"}) {
    auto c = parse_challenge(spec);
    ASSERT_TRUE(c) << c.error().message();
    auto again = parse_challenge(to_notation(*c));
    ASSERT_TRUE(again) << to_notation(*c);
    EXPECT_EQ(*again, *c);
  }
  for (const char* spec : {"Data Heist: rep 25; requires Decking 2; no-indoor; 3/4 A1"}) {
    auto c = parse_objective(spec);
    ASSERT_TRUE(c) << c.error().message();
    auto again = parse_objective(to_notation(*c));
    ASSERT_TRUE(again) << to_notation(*c);
    EXPECT_EQ(*again, *c);
  }
  for (const char* spec :
       {"Skillsoft: cyberware; Athletics +1; essence 1; cost 2", "Crawler: drone; 2/3 A1; cost 2",
        "AK: weapon; +2/+0; burst 1; silenced"}) {
    auto c = parse_gear(spec);
    ASSERT_TRUE(c) << c.error().message();
    auto again = parse_gear(to_notation(*c));
    ASSERT_TRUE(again) << to_notation(*c);
    EXPECT_EQ(*again, *c);
  }
}

}  // namespace
}  // namespace duels::cards::srtcg
