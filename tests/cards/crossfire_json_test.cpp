// Crossfire JSON forms and sessions: every command round-trips with its "type", states
// round-trip and hash stably, bad input is refused in words, and the session's undo/redo goes
// through the recorder before it acts.
#include <gtest/gtest.h>

#include "cards/crossfire/json.hpp"
#include "cards/crossfire/rules.hpp"
#include "cards/crossfire/session.hpp"

namespace duels::cards::crossfire {
namespace {

std::vector<Command> one_of_each() {
  return {Configure{"extraction", {"emt-gig"}, true},
          AddRunner{"Rob", "Human", {"decker", "face"}, 5, 3, 4, 7, 12},
          StartGame{"Rob"},
          DrawCrossfire{"Chummers", true, false, 5, "Humans +1"},
          BeginRound{},
          Flip{{"Lone Star Trooper=5,black,green attack:2", "Wall=9"}},
          Pull{"Wall"},
          MoveObstacle{"Wall", "Jim", true},
          ModifyObstacle{"Wall", -1, true, false},
          HealObstacle{"Wall", 0},
          PlayCard{"Fireball", "Gregory", "spell", "blue+2+levels:3", "Wall", {"A", "B"}},
          PlaceCard{"Fireball", 0, "B", {"A"}},
          ApplyDamage{},
          DirectDamage{"Wall", "levels:1", "Jim"},
          TakeDamage{2, {"Wall"}},
          Hurt{{"all"}, 2},
          Heal{"Client", 1},
          Draw{"Rob", 2},
          DiscardCards{"Rob", 1},
          GainNuyen{"Rob", -2},
          Buy{"Guiding Spirit", 3, true},
          Cycle{},
          Pass{},
          EndTurn{},
          Override{"/runners/0/nuyen", 7}};
}

TEST(CrossfireJson, EveryCommandRoundTrips) {
  const auto cmds = one_of_each();
  ASSERT_EQ(cmds.size(), std::variant_size_v<Command>);
  for (const Command& c : cmds) {
    const nlohmann::json j = c;
    ASSERT_TRUE(j.contains("type")) << j.dump();
    EXPECT_EQ(j["type"], command_type(c));
    auto back = parse_command(j);
    ASSERT_TRUE(back) << back.error();
    EXPECT_EQ(*back, c) << j.dump();
  }
}

TEST(CrossfireJson, MissingFieldsTakeDefaultsAndBadInputIsRefused) {
  auto c = parse_command(nlohmann::json{{"type", "take_damage"}});
  ASSERT_TRUE(c);
  EXPECT_EQ(std::get<TakeDamage>(*c), TakeDamage{});
  auto unknown = parse_command(nlohmann::json{{"type", "fly"}});
  ASSERT_FALSE(unknown);
  EXPECT_NE(unknown.error().find("unknown command type 'fly'"), std::string::npos);
  EXPECT_FALSE(parse_command(nlohmann::json::array()));
  EXPECT_FALSE(parse_command(nlohmann::json{{"type", "hurt"}, {"amount", "lots"}}));
}

/// A game in progress with obstacles, played cards, an event and a pending partial.
State busy_state() {
  State s;
  const std::vector<Command> cmds = {
      Configure{"crossfire", {"bring-it-on"}, false},
      AddRunner{"Cal", "Dwarf", {"black", "blue"}, 5, 5, 2, 7, 30},
      AddRunner{"Rob", "Elf", {"green", "red"}, 4, 5, 4, 7, 0},
      StartGame{"Cal"},
      Flip{{"Deckhead=2,green,1,red faces:Cal attack:1 on:attacks", "Out of Ammo=black,3 hard"}},
      BeginRound{},
      BeginRound{},
  };
  for (const Command& c : cmds) {
    auto r = crossfire::apply(s, c);
    if (!r) continue;  // the second BeginRound is refused: fine
    s = r->state;
  }
  auto r = crossfire::apply(s, PlayCard{"Mana", "", "spell", "blue", "Deckhead", {}});
  EXPECT_TRUE(r) << (r ? "" : r.error().reason);
  return r ? r->state : s;
}

TEST(CrossfireJson, StateRoundTripsAndHashesStably) {
  const State s = busy_state();
  ASSERT_EQ(s.phase, Phase::Turn);
  const nlohmann::json j = s;
  auto back = parse_state(j);
  ASSERT_TRUE(back) << back.error();
  EXPECT_EQ(*back, s);
  EXPECT_EQ(state_hash(*back), state_hash(s));
  EXPECT_EQ(state_hash_hex(s).size(), 16U);
  State other = s;
  other.runners[0].nuyen += 1;
  EXPECT_NE(state_hash(other), state_hash(s));
}

TEST(CrossfireJson, OverrideChecksTheResult) {
  const State s = busy_state();
  auto ok = override_field(s, "/runners/1/nuyen", 9);
  ASSERT_TRUE(ok) << ok.error();
  EXPECT_EQ(ok->runners[1].nuyen, 9);
  EXPECT_FALSE(override_field(s, "/runners/1/nuyen", -1));
  EXPECT_FALSE(override_field(s, "/obstacles/0/card", "not an obstacle"));
  EXPECT_FALSE(override_field(s, "nonsense", 1));
  auto card = override_field(s, "/obstacles/0/card", "Deckhead=2,green,1,red@2 attack:3");
  ASSERT_TRUE(card) << card.error();
  EXPECT_EQ(card->obstacles[0].card.cleared, 2);
}

/// Records what the session asks for, and can refuse.
class FakeRecorder : public SessionRecorder {
 public:
  void record_command(const Command& c) override {
    if (fail) throw std::runtime_error("disk full");
    log.push_back(command_type(c));
  }
  void record_undo() override { log.emplace_back("undo"); }
  void record_redo() override { log.emplace_back("redo"); }
  std::vector<std::string> log;
  bool fail = false;
};

TEST(CrossfireJson, SessionUndoRedoGoThroughTheRecorder) {
  Session session;
  FakeRecorder rec;
  session.set_recorder(&rec);
  ASSERT_TRUE(session.submit(Configure{"crossfire", {}, false}));
  ASSERT_TRUE(session.submit(AddRunner{"A", "Human", {"black", "blue"}, 5, 5, 4, 7, 0}));
  EXPECT_FALSE(session.submit(StartGame{}));  // refused: not journaled
  ASSERT_TRUE(session.submit(AddRunner{"B", "Human", {"green", "red"}, 5, 5, 4, 7, 0}));
  ASSERT_TRUE(session.submit(StartGame{}));
  EXPECT_EQ(session.state().phase, Phase::RoundStart);
  EXPECT_TRUE(session.undo());
  EXPECT_EQ(session.state().phase, Phase::Setup);
  EXPECT_TRUE(session.redo());
  EXPECT_EQ(session.state().phase, Phase::RoundStart);
  EXPECT_EQ(rec.log, (std::vector<std::string>{"configure", "add_runner", "add_runner",
                                               "start_game", "undo", "redo"}));
  rec.fail = true;
  EXPECT_THROW((void)session.submit(Flip{{"Wall=9"}}), std::runtime_error);
  EXPECT_TRUE(session.state().obstacles.empty());  // unchanged when the record fails
  // Restore replays a log.
  Session again;
  EXPECT_TRUE(again.restore(session.log(), {}));
  EXPECT_EQ(again.state(), session.state());
}

}  // namespace
}  // namespace duels::cards::crossfire
