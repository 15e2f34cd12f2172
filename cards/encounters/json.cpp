#include "cards/encounters/json.hpp"

#include "cards/common/command_json.hpp"
#include "cards/common/state_json.hpp"

#include <fmt/format.h>

#include <stdexcept>

namespace duels::cards::encounters {

using nlohmann::json;

// ---- Cards as notation ----------------------------------------------------------------------

void to_json(json& j, const RunnerCard& c) {
  j = to_notation(c);
}

void from_json(const json& j, RunnerCard& c) {
  auto parsed = parse_runner(j.get<std::string>());
  if (!parsed) throw std::invalid_argument(parsed.error().message());
  c = *parsed;
}

void to_json(json& j, const EncounterCard& c) {
  j = to_notation(c);
}

void from_json(const json& j, EncounterCard& c) {
  auto parsed = parse_encounter(j.get<std::string>());
  if (!parsed) throw std::invalid_argument(parsed.error().message());
  c = *parsed;
}

// ---- Commands -----------------------------------------------------------------------------

void to_json(json& nlohmann_json_j, const DefeatStep& nlohmann_json_t) {
  nlohmann_json_j = json::object();
  NLOHMANN_JSON_EXPAND(NLOHMANN_JSON_PASTE(DUELS_CARDS_JSON_TO, card, special, ability, die, to))
}

void from_json(const json& nlohmann_json_j, DefeatStep& nlohmann_json_t) {
  const DefeatStep nlohmann_json_default_obj{};
  NLOHMANN_JSON_EXPAND(NLOHMANN_JSON_PASTE(DUELS_CARDS_JSON_FROM, card, special, ability, die, to))
}

DUELS_CARDS_COMMAND_JSON(AddPlayer, name, megacorp, megacorp_cost, megacorp_self, nuyen)
DUELS_CARDS_COMMAND_JSON(Configure, target_nuyen, solo, turn_limit, cumulative)
DUELS_CARDS_COMMAND_JSON(SetDistricts, order)
DUELS_CARDS_COMMAND_JSON(SetDecks, encounter_deck, encounter_discard, runner_deck, runner_discard)
DUELS_CARDS_COMMAND_JSON(DealStarter, player, runner)
DUELS_CARDS_COMMAND_JSON(StartGame, first_player)
DUELS_CARDS_COMMAND_JSON(IgnoreDistrict, runner)
DUELS_CARDS_COMMAND_JSON(ChangeDistrict, runner, district)
DUELS_CARDS_COMMAND_JSON(MidTurnDistrict, district)
DUELS_CARDS_COMMAND_JSON(Flip, encounter, holders)
DUELS_CARDS_COMMAND_JSON(Hire, runner, pay)
DUELS_CARDS_COMMAND_JSON(DiscardRunner, runner)
DUELS_CARDS_COMMAND_JSON(AddBonusDice, count)
DUELS_CARDS_COMMAND_JSON(Roll, faces)
DUELS_CARDS_COMMAND_JSON(Defeat, groups, steps)
DUELS_CARDS_EMPTY_COMMAND_JSON(Fail)
DUELS_CARDS_COMMAND_JSON(Retain, runner)
DUELS_CARDS_EMPTY_COMMAND_JSON(Score)
DUELS_CARDS_EMPTY_COMMAND_JSON(Escalate)
DUELS_CARDS_COMMAND_JSON(Burn, runner)
DUELS_CARDS_EMPTY_COMMAND_JSON(DeclineBurn)
DUELS_CARDS_EMPTY_COMMAND_JSON(Datasteal)
DUELS_CARDS_EMPTY_COMMAND_JSON(FreshStart)
DUELS_CARDS_COMMAND_JSON(UseMegacorp, player)
DUELS_CARDS_COMMAND_JSON(Override, path, value)

DUELS_CARDS_GAME_JSON(Command, Event)

// ---- State ----------------------------------------------------------------------------------

namespace {

constexpr std::pair<Phase, const char*> kPhaseNames[] = {
    {Phase::Setup, "setup"},          {Phase::DatastealChoice, "datasteal_choice"},
    {Phase::TurnStart, "turn_start"}, {Phase::MustFlip, "must_flip"},
    {Phase::Encounter, "encounter"},  {Phase::Rolled, "rolled"},
    {Phase::Between, "between"},      {Phase::BurnChoice, "burn_choice"},
    {Phase::GameOver, "game_over"},
};

}  // namespace

void to_json(json& j, const Phase& p) {
  for (const auto& [phase, name] : kPhaseNames) {
    if (phase == p) j = name;
  }
}

void from_json(const json& j, Phase& p) {
  const std::string name = j.get<std::string>();
  for (const auto& [phase, n] : kPhaseNames) {
    if (name == n) {
      p = phase;
      return;
    }
  }
  throw std::invalid_argument(fmt::format("unknown phase '{}'", name));
}

NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(Settings, target_nuyen, solo, turn_limit,
                                                cumulative)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(Megacorp, name, ability_cost, can_target_self)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(Runner, card, face_up)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(Player, name, nuyen, earned_nuyen, megacorp,
                                                runners, specials, tokens)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(Defeated, card, column, defeated_by)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(RunDie, face, locked, locked_on, bonus)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(Decks, encounter_deck, encounter_discard,
                                                runner_deck, runner_discard)

void to_json(json& j, const Run& r) {
  j = json{{"tableau", r.tableau},
           {"column", r.column},
           {"current", r.current ? json(*r.current) : json(nullptr)},
           {"dice", r.dice},
           {"hired_this_encounter", r.hired_this_encounter},
           {"used_abilities", r.used_abilities},
           {"pending_retain", r.pending_retain},
           {"origin", r.origin},
           {"chain", r.chain},
           {"defeated_this_turn", r.defeated_this_turn}};
}

void from_json(const json& j, Run& r) {
  const Run d{};
  r.tableau = j.value("tableau", d.tableau);
  r.column = j.value("column", d.column);
  r.current.reset();
  if (j.contains("current") && !j["current"].is_null())
    r.current = j["current"].get<EncounterCard>();
  r.dice = j.value("dice", d.dice);
  r.hired_this_encounter = j.value("hired_this_encounter", d.hired_this_encounter);
  r.used_abilities = j.value("used_abilities", d.used_abilities);
  r.pending_retain = j.value("pending_retain", d.pending_retain);
  r.origin = j.value("origin", d.origin);
  r.chain = j.value("chain", d.chain);
  r.defeated_this_turn = j.value("defeated_this_turn", d.defeated_this_turn);
}

namespace {

void state_to(json& nlohmann_json_j, const State& nlohmann_json_t) {
  NLOHMANN_JSON_EXPAND(NLOHMANN_JSON_PASTE(
      DUELS_CARDS_JSON_TO, settings, players, active, phase, turn_number, districts,
      districts_need_shuffle, district_this_turn, district_frozen, district_ignored, ignores_left,
      district_changed, pending_district_icons, megacorp_used_against_active, decks, run,
      must_discard, winner, solo_lost, seen_values))
}

void state_from(const json& nlohmann_json_j, State& nlohmann_json_t) {
  const State nlohmann_json_default_obj{};
  NLOHMANN_JSON_EXPAND(NLOHMANN_JSON_PASTE(
      DUELS_CARDS_JSON_FROM, settings, players, active, phase, turn_number, districts,
      districts_need_shuffle, district_this_turn, district_frozen, district_ignored, ignores_left,
      district_changed, pending_district_icons, megacorp_used_against_active, decks, run,
      must_discard, winner, solo_lost, seen_values))
}

/// Invariants every state keeps, so a bad override is refused rather than stored.
std::optional<std::string> invalid_state(const State& s) {
  const int n = static_cast<int>(s.players.size());
  const auto player_ref_ok = [n](int i) { return i == -1 || (i >= 0 && i < n); };
  if (n > 8) return "at most 8 players";
  if (n == 0 && s.phase != Phase::Setup) return "players in a game under way (the list is empty)";
  if (n > 0 && (s.active < 0 || s.active >= n)) return "the active player must be a seat";
  if (n == 0 && s.active != 0) return "the active player 0 while there are no players";
  if (!player_ref_ok(s.winner) || !player_ref_ok(s.megacorp_used_against_active) ||
      !player_ref_ok(s.run.origin)) {
    return "player references must be seats (or -1)";
  }
  for (const Player& p : s.players) {
    if (p.nuyen < 0) return fmt::format("{} cannot hold negative Nuyen", p.name);
    if (p.runners.size() > 6) return fmt::format("{} holds too many Shadowrunners", p.name);
  }
  if (s.run.dice.size() > 8) return "at most 8 dice";
  for (const RunDie& d : s.run.dice) {
    if (d.face < 0 || d.face > 6) return "a die shows 1 to 6 (0 before a roll)";
    if (d.locked && (d.locked_on < 0 || d.locked_on >= static_cast<int>(s.run.tableau.size()))) {
      return "a locked die must sit on a defeated Encounter";
    }
  }
  if (s.run.column < 1) return "columns start at 1";
  for (const Defeated& d : s.run.tableau) {
    if (d.column < 1 || !player_ref_ok(d.defeated_by)) return "a defeated Encounter is malformed";
  }
  if (s.pending_district_icons < 0) return "icon counts cannot be negative";
  return std::nullopt;
}

}  // namespace

DUELS_CARDS_STATE_OBJECT_JSON(State, state_to, state_from)
DUELS_CARDS_STATE_JSON(Command, State, invalid_state, "/players/0/nuyen")

json match_result_json(const MatchResult& r, const MatchQuery& q) {
  const auto name = [&](int card) { return q.cards[static_cast<std::size_t>(card)].card.name; };
  const auto one_based = [](std::vector<int> v) {
    for (int& x : v)
      ++x;
    return v;
  };
  json solutions = json::array();
  for (const Solution& s : r.solutions) {
    json steps = json::array();
    for (const Step& st : s.steps) {
      const Ability& a = q.cards[static_cast<std::size_t>(st.card)]
                             .card.abilities[static_cast<std::size_t>(st.ability)];
      json j = {{"card", name(st.card)}, {"ability", to_notation(a)}};
      if (st.die >= 0) {
        j["die"] = st.die + 1;
        j["from"] = st.from;
        j["to"] = st.to;
      } else {
        j["lift"] = true;
      }
      steps.push_back(j);
    }
    json cards = json::array();
    for (const CardUse& c : s.cards) {
      cards.push_back({{"card", name(c.card)},
                       {"fate", fate_text(c.fate)},
                       {"retain_cost", c.fate == CardFate::RetainFor3 ? 3 : 0}});
    }
    json groups = json::array();
    for (const auto& g : s.groups)
      groups.push_back(one_based(g));
    solutions.push_back({{"dice", one_based(s.dice)},
                         {"groups", groups},
                         {"faces", s.faces},
                         {"values", s.values},
                         {"steps", steps},
                         {"cards", cards},
                         {"dice_left", s.dice_left},
                         {"escalation", s.dice_left == 0},
                         {"retain_cost", s.retain_cost_nuyen},
                         {"cards_lost", s.cards_lost},
                         {"text", describe(s, q)}});
  }
  json unavailable = json::array();
  for (const Unavailable& u : r.unavailable) {
    const RunnerCard& c = q.cards[static_cast<std::size_t>(u.card)].card;
    unavailable.push_back(
        {{"card", c.name},
         {"ability", to_notation(c.abilities[static_cast<std::size_t>(u.ability)])},
         {"reason", u.reason}});
  }
  return json{{"plain_match", r.plain_match}, {"found", r.found},
              {"truncated", r.truncated},     {"lock_sizes", r.lock_sizes},
              {"solutions", solutions},       {"unavailable", unavailable}};
}

}  // namespace duels::cards::encounters
