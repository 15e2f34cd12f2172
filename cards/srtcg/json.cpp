#include "cards/srtcg/json.hpp"

#include "cards/common/command_json.hpp"
#include "cards/common/state_json.hpp"

#include <fmt/format.h>

#include <stdexcept>

namespace duels::cards::srtcg {

using nlohmann::json;

// ---- Commands -----------------------------------------------------------------------------

DUELS_CARDS_STRUCT_JSON(BurstRoll, runner, roll)
DUELS_CARDS_STRUCT_JSON(SplitEntry, target, points)

DUELS_CARDS_COMMAND_JSON(AddPlayer, name, deck, objectives)
DUELS_CARDS_COMMAND_JSON(Configure, goal, reshuffle_mid_turn)
DUELS_CARDS_COMMAND_JSON(StartGame, first_player)
DUELS_CARDS_COMMAND_JSON(BadShuffle, player)
DUELS_CARDS_EMPTY_COMMAND_JSON(NextPhase)
DUELS_CARDS_COMMAND_JSON(PlaceObjective, card)
DUELS_CARDS_COMMAND_JSON(RevealObjective, card)
DUELS_CARDS_COMMAND_JSON(Payday, draw_to_seven, card_income)
DUELS_CARDS_COMMAND_JSON(Heal, runner)
DUELS_CARDS_COMMAND_JSON(Repair, runner, gear)
DUELS_CARDS_COMMAND_JSON(Deploy, card)
DUELS_CARDS_COMMAND_JSON(DeployCard, name, kind, cost, upkeep, income)
DUELS_CARDS_COMMAND_JSON(PlaySpecial, player, name, cost)
DUELS_CARDS_COMMAND_JSON(PlayChallenge, target, card, bluff)
DUELS_CARDS_COMMAND_JSON(AttachGear, runner, card, confirm)
DUELS_CARDS_COMMAND_JSON(SwapGear, from, to, gear)
DUELS_CARDS_COMMAND_JSON(UseGear, runner, gear)
DUELS_CARDS_COMMAND_JSON(Recon, runner)
DUELS_CARDS_COMMAND_JSON(PumpRunner, runner, times)
DUELS_CARDS_COMMAND_JSON(PumpChallenge, times)
DUELS_CARDS_COMMAND_JSON(Biotech, healer, targets)
DUELS_CARDS_COMMAND_JSON(Activate, runner, gear)
DUELS_CARDS_COMMAND_JSON(StartRun, target, team, indirect)
DUELS_CARDS_COMMAND_JSON(StackOrder, players)
DUELS_CARDS_COMMAND_JSON(Reveal, card, bluff)
DUELS_CARDS_EMPTY_COMMAND_JSON(Sleaze)
DUELS_CARDS_COMMAND_JSON(Fight, bursts, split)
DUELS_CARDS_EMPTY_COMMAND_JSON(Beat)
DUELS_CARDS_EMPTY_COMMAND_JSON(Stopped)
DUELS_CARDS_EMPTY_COMMAND_JSON(Continue)
DUELS_CARDS_EMPTY_COMMAND_JSON(PullOut)
DUELS_CARDS_EMPTY_COMMAND_JSON(TakeObjective)
DUELS_CARDS_COMMAND_JSON(Intercept, player, runners, targets, extras)
DUELS_CARDS_COMMAND_JSON(Damage, runner, amount, armor_piercing, guard, guard_takes)
DUELS_CARDS_COMMAND_JSON(Kill, runner, frag)
DUELS_CARDS_COMMAND_JSON(TrashGear, runner, gear)
DUELS_CARDS_COMMAND_JSON(Draw, player, count)
DUELS_CARDS_COMMAND_JSON(Discard, player, count)
DUELS_CARDS_COMMAND_JSON(Nuyen, player, delta)
DUELS_CARDS_COMMAND_JSON(Reputation, player, delta)
DUELS_CARDS_COMMAND_JSON(Override, path, value)

DUELS_CARDS_GAME_JSON(Command, Event)

// ---- State ----------------------------------------------------------------------------------

namespace {

template <class T>
void opt_to(json& j, const char* key, const std::optional<T>& v) {
  if (v) {
    json inner;
    to_json(inner, *v);
    j[key] = inner;
  } else {
    j[key] = nullptr;
  }
}

template <class T>
void opt_from(const json& j, const char* key, std::optional<T>& v) {
  v.reset();
  if (j.contains(key) && !j[key].is_null()) {
    T inner{};
    from_json(j[key], inner);
    v = std::move(inner);
  }
}

template <class E, std::size_t N>
void enum_to(json& j, E value, const std::pair<E, const char*> (&names)[N]) {
  for (const auto& [e, name] : names) {
    if (e == value) j = name;
  }
}

template <class E, std::size_t N>
void enum_from(const json& j, E& value, const std::pair<E, const char*> (&names)[N],
               const char* what) {
  const std::string name = j.get<std::string>();
  for (const auto& [e, n] : names) {
    if (name == n) {
      value = e;
      return;
    }
  }
  throw std::invalid_argument(fmt::format("unknown {} '{}'", what, name));
}

constexpr std::pair<Phase, const char*> kPhaseNames[] = {
    {Phase::Setup, "setup"},     {Phase::Objective, "objective"}, {Phase::Credstick, "credstick"},
    {Phase::Refresh, "refresh"}, {Phase::Legwork, "legwork"},     {Phase::Shadowrun, "shadowrun"},
    {Phase::End, "end"},         {Phase::GameOver, "game_over"},
};
constexpr std::pair<RunStep, const char*> kStepNames[] = {
    {RunStep::Reveal, "reveal"},
    {RunStep::Face, "face"},
    {RunStep::Decide, "decide"},
    {RunStep::Objective, "objective"},
};
constexpr std::pair<Role, const char*> kRoleNames[] = {
    {Role::Runner, "runner"},         {Role::Drone, "drone"},       {Role::Spirit, "spirit"},
    {Role::Controller, "controller"}, {Role::Indirect, "indirect"},
};
constexpr std::pair<GearType, const char*> kGearNames[] = {
    {GearType::Accessory, "accessory"}, {GearType::Armor, "armor"},
    {GearType::Cyberware, "cyberware"}, {GearType::Cyberdeck, "cyberdeck"},
    {GearType::Drone, "drone"},         {GearType::Misc, "misc"},
    {GearType::Program, "program"},     {GearType::Spell, "spell"},
    {GearType::Spirit, "spirit"},       {GearType::Vehicle, "vehicle"},
    {GearType::Weapon, "weapon"},
};

}  // namespace

void to_json(json& j, const Phase& p) {
  enum_to(j, p, kPhaseNames);
}
void from_json(const json& j, Phase& p) {
  enum_from(j, p, kPhaseNames, "phase");
}
void to_json(json& j, const RunStep& p) {
  enum_to(j, p, kStepNames);
}
void from_json(const json& j, RunStep& p) {
  enum_from(j, p, kStepNames, "run step");
}
void to_json(json& j, const Role& p) {
  enum_to(j, p, kRoleNames);
}
void from_json(const json& j, Role& p) {
  enum_from(j, p, kRoleNames, "role");
}
void to_json(json& j, const GearType& p) {
  enum_to(j, p, kGearNames);
}
void from_json(const json& j, GearType& p) {
  enum_from(j, p, kGearNames, "gear type");
}

DUELS_CARDS_STRUCT_JSON(Threat, attack, body)
DUELS_CARDS_STRUCT_JSON(Armor, flat, add)
DUELS_CARDS_STRUCT_JSON(Pump, cost, attack, body)
DUELS_CARDS_STRUCT_JSON(RunnerCard, name, threat, mod, armor, skills, traits, keywords, cost,
                        upkeep, prime, unique, pump, damage, pumped, burst, armor_piercing, protect,
                        role)

void to_json(json& j, const ChallengeCard& c) {
  j = json{{"name", c.name},         {"mod", c.mod},
           {"armor", c.armor},       {"armor_piercing", c.armor_piercing},
           {"sleaze", c.sleaze},     {"ends_run", c.ends_run},
           {"keywords", c.keywords}, {"cost", c.cost},
           {"unique", c.unique},     {"pump", c.pump},
           {"pumped", c.pumped}};
  opt_to(j, "threat", c.threat);
}

void from_json(const json& j, ChallengeCard& c) {
  if (!j.is_object()) throw std::invalid_argument("a Challenge is a JSON object");
  const ChallengeCard d{};
  c.name = j.value("name", d.name);
  opt_from(j, "threat", c.threat);
  c.mod = j.value("mod", d.mod);
  c.armor = j.value("armor", d.armor);
  c.armor_piercing = j.value("armor_piercing", d.armor_piercing);
  c.sleaze = j.value("sleaze", d.sleaze);
  c.ends_run = j.value("ends_run", d.ends_run);
  c.keywords = j.value("keywords", d.keywords);
  c.cost = j.value("cost", d.cost);
  c.unique = j.value("unique", d.unique);
  c.pump = j.value("pump", d.pump);
  c.pumped = j.value("pumped", d.pumped);
}

void to_json(json& j, const ObjectiveCard& c) {
  j = json{{"name", c.name},
           {"rep", c.rep},
           {"mod", c.mod},
           {"armor", c.armor},
           {"armor_piercing", c.armor_piercing},
           {"requirements", c.requirements},
           {"keywords", c.keywords},
           {"unique", c.unique}};
  opt_to(j, "threat", c.threat);
}

void from_json(const json& j, ObjectiveCard& c) {
  if (!j.is_object()) throw std::invalid_argument("an Objective is a JSON object");
  const ObjectiveCard d{};
  c.name = j.value("name", d.name);
  c.rep = j.value("rep", d.rep);
  opt_from(j, "threat", c.threat);
  c.mod = j.value("mod", d.mod);
  c.armor = j.value("armor", d.armor);
  c.armor_piercing = j.value("armor_piercing", d.armor_piercing);
  c.requirements = j.value("requirements", d.requirements);
  c.keywords = j.value("keywords", d.keywords);
  c.unique = j.value("unique", d.unique);
}

void to_json(json& j, const GearCard& g) {
  j = json{{"name", g.name},
           {"type", g.type},
           {"mod", g.mod},
           {"armor", g.armor},
           {"essence", g.essence},
           {"needs", g.needs},
           {"bonus", g.bonus},
           {"burst_cost", g.burst_cost},
           {"indirect", g.indirect},
           {"silenced", g.silenced},
           {"armor_piercing", g.armor_piercing},
           {"keywords", g.keywords},
           {"cost", g.cost},
           {"upkeep", g.upkeep},
           {"unique", g.unique}};
  opt_to(j, "threat", g.threat);
}

void from_json(const json& j, GearCard& g) {
  if (!j.is_object()) throw std::invalid_argument("a Gear card is a JSON object");
  const GearCard d{};
  g.name = j.value("name", d.name);
  g.type = j.value("type", d.type);
  g.mod = j.value("mod", d.mod);
  opt_from(j, "threat", g.threat);
  g.armor = j.value("armor", d.armor);
  g.essence = j.value("essence", d.essence);
  g.needs = j.value("needs", d.needs);
  g.bonus = j.value("bonus", d.bonus);
  g.burst_cost = j.value("burst_cost", d.burst_cost);
  g.indirect = j.value("indirect", d.indirect);
  g.silenced = j.value("silenced", d.silenced);
  g.armor_piercing = j.value("armor_piercing", d.armor_piercing);
  g.keywords = j.value("keywords", d.keywords);
  g.cost = j.value("cost", d.cost);
  g.upkeep = j.value("upkeep", d.upkeep);
  g.unique = j.value("unique", d.unique);
}

DUELS_CARDS_STRUCT_JSON(HeldGear, card, turned, damage, active)
DUELS_CARDS_STRUCT_JSON(Runner, card, turned, damage, gear, pumps, healed, repaired, spells_used,
                        programs_used, biotech_used, recons_used)
DUELS_CARDS_STRUCT_JSON(SupportCard, name, kind, upkeep, income)

void to_json(json& j, const StackCard& c) {
  j = json{{"bluff", c.bluff}, {"pumps", c.pumps}};
  opt_to(j, "card", c.card);
}

void from_json(const json& j, StackCard& c) {
  if (!j.is_object()) throw std::invalid_argument("a stack card is a JSON object");
  c.bluff = j.value("bluff", false);
  c.pumps = j.value("pumps", 0);
  opt_from(j, "card", c.card);
}

void to_json(json& j, const Objective& o) {
  j = json{{"revealed", o.revealed},
           {"placed_turn", o.placed_turn},
           {"stacks", o.stacks},
           {"intercepted", o.intercepted}};
  opt_to(j, "card", o.card);
}

void from_json(const json& j, Objective& o) {
  if (!j.is_object()) throw std::invalid_argument("an Objective is a JSON object");
  const Objective d{};
  opt_from(j, "card", o.card);
  o.revealed = j.value("revealed", d.revealed);
  o.placed_turn = j.value("placed_turn", d.placed_turn);
  o.stacks = j.value("stacks", d.stacks);
  o.intercepted = j.value("intercepted", d.intercepted);
}

void to_json(json& j, const Player& p) {
  j = json{{"name", p.name},
           {"reputation", p.reputation},
           {"neg_lock", p.neg_lock},
           {"credstick", p.credstick},
           {"hand", p.hand},
           {"draw_pile", p.draw_pile},
           {"trash", p.trash},
           {"objective_pile", p.objective_pile},
           {"objectives_taken", p.objectives_taken},
           {"runners", p.runners},
           {"cards", p.cards},
           {"bad_shuffled", p.bad_shuffled}};
  opt_to(j, "objective", p.objective);
}

void from_json(const json& j, Player& p) {
  if (!j.is_object()) throw std::invalid_argument("a player is a JSON object");
  const Player d{};
  p.name = j.value("name", d.name);
  p.reputation = j.value("reputation", d.reputation);
  p.neg_lock = j.value("neg_lock", d.neg_lock);
  p.credstick = j.value("credstick", d.credstick);
  p.hand = j.value("hand", d.hand);
  p.draw_pile = j.value("draw_pile", d.draw_pile);
  p.trash = j.value("trash", d.trash);
  p.objective_pile = j.value("objective_pile", d.objective_pile);
  p.objectives_taken = j.value("objectives_taken", d.objectives_taken);
  opt_from(j, "objective", p.objective);
  p.runners = j.value("runners", d.runners);
  p.cards = j.value("cards", d.cards);
  p.bad_shuffled = j.value("bad_shuffled", d.bad_shuffled);
}

DUELS_CARDS_STRUCT_JSON(Run, active, owner, team, indirect, alarm, order, stack, step,
                        objective_beaten, faced)
DUELS_CARDS_STRUCT_JSON(Settings, goal, reshuffle_mid_turn)

namespace {

void state_to(json& nlohmann_json_j, const State& nlohmann_json_t) {
  NLOHMANN_JSON_EXPAND(NLOHMANN_JSON_PASTE(DUELS_CARDS_JSON_TO, settings, players, active, phase,
                                           turn, opening, paid, ran, run, winner))
}

void state_from(const json& nlohmann_json_j, State& nlohmann_json_t) {
  const State nlohmann_json_default_obj{};
  NLOHMANN_JSON_EXPAND(NLOHMANN_JSON_PASTE(DUELS_CARDS_JSON_FROM, settings, players, active, phase,
                                           turn, opening, paid, ran, run, winner))
}

/// Invariants every state keeps, so a bad override is refused rather than stored.
std::optional<std::string> invalid_state(const State& s) {
  const int n = static_cast<int>(s.players.size());
  if (n > 8) return "at most 8 players";
  if (n == 0 && s.phase != Phase::Setup) return "players in a game under way (the list is empty)";
  if (n > 0 && (s.active < 0 || s.active >= n)) return "the active player must be a seat";
  if (n == 0 && s.active != 0) return "the active player 0 while there are no players";
  if (s.winner < -1 || s.winner >= n) return "the winner must be a seat (or -1)";
  if (s.settings.goal < 1) return "the Reputation goal is at least 1";
  if (s.turn < 0) return "turns cannot be negative";
  for (const Player& p : s.players) {
    if (p.credstick < 0 || p.hand < 0 || p.draw_pile < 0 || p.trash < 0 || p.objective_pile < 0 ||
        p.objectives_taken < 0) {
      return fmt::format("{}: counts and nuyen cannot be negative", p.name);
    }
    for (const Runner& r : p.runners) {
      if (r.damage < 0 || r.pumps < 0)
        return fmt::format("{}: damage and pumps are ≥ 0", r.card.name);
      for (const HeldGear& g : r.gear) {
        if (g.damage < 0) return fmt::format("{}: damage is ≥ 0", g.card.name);
      }
    }
    if (p.objective && static_cast<int>(p.objective->stacks.size()) > n) {
      return "an Objective has a stack per player at most";
    }
  }
  if (s.run.active) {
    if (s.run.owner < 0 || s.run.owner >= n) return "the run's Objective owner must be a seat";
    if (!s.players[static_cast<std::size_t>(s.run.owner)].objective) {
      return "the run's Objective must be in play";
    }
    for (int o : s.run.order) {
      if (o < 0 || o >= n) return "the stack order names seats";
    }
    if (s.run.stack < 0 || s.run.stack > static_cast<int>(s.run.order.size())) {
      return "the current stack must be in the order";
    }
  }
  return std::nullopt;
}

}  // namespace

DUELS_CARDS_STATE_OBJECT_JSON(State, state_to, state_from)
DUELS_CARDS_STATE_JSON(Command, State, invalid_state, "/players/0/credstick")

}  // namespace duels::cards::srtcg
