#include "cards/encounters/rules.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>

#include "cards/common/text.hpp"
#include "cards/encounters/json.hpp"
#include "cards/encounters/odds.hpp"

namespace duels::cards::encounters {

using cards::emit;
using text::same_name;

const char* phase_name(Phase phase) {
  switch (phase) {
    case Phase::Setup:
      return "setup";
    case Phase::DatastealChoice:
      return "choose Datasteal or a fresh start";
    case Phase::TurnStart:
      return "turn start";
    case Phase::MustFlip:
      return "flip the next Encounter";
    case Phase::Encounter:
      return "Encounter revealed: hire or roll";
    case Phase::Rolled:
      return "dice rolled: defeat or fail";
    case Phase::Between:
      return "score, push or escalate";
    case Phase::BurnChoice:
      return "burn the run or not";
    case Phase::GameOver:
      return "game over";
  }
  return "?";
}

namespace {

using Events = std::vector<Event>;
using Result = std::optional<Rejection>;

constexpr int kRetainCost = 3;
constexpr int kMinHireNuyen = 2;
constexpr int kRunnerLimit = 5;
constexpr int kStandardDice = 6;

Result reject(std::string why) {
  return Rejection{std::move(why)};
}

int runner_index(const Player& p, const std::string& name) {
  for (std::size_t i = 0; i < p.runners.size(); ++i) {
    if (same_name(p.runners[i].card.name, name)) return static_cast<int>(i);
  }
  return -1;
}

int special_index(const Player& p, const std::string& name) {
  for (std::size_t i = 0; i < p.specials.size(); ++i) {
    if (same_name(p.specials[i].name, name)) return static_cast<int>(i);
  }
  return -1;
}

int district_index(const State& s, const std::string& name) {
  for (std::size_t i = 0; i < s.districts.size(); ++i) {
    if (same_name(s.districts[i], name)) return static_cast<int>(i);
  }
  return -1;
}

std::string ability_key(const std::string& runner, int ability) {
  return fmt::format("{}#{}", runner, ability);
}

std::vector<RunDie> fresh_dice() {
  return std::vector<RunDie>(kStandardDice);
}

Player& active_player(State& s) {
  return s.players[static_cast<std::size_t>(s.active)];
}

std::string no_runner_hint(const Player& p) {
  std::vector<std::string> names;
  for (const Runner& r : p.runners)
    names.push_back(r.card.name);
  return names.empty() ? std::string(" (you hold none)")
                       : fmt::format(" (you hold: {})", fmt::join(names, ", "));
}

/// Takes one card from a tracked deck, reshuffling the discard in when the deck is empty.
Result draw(int& deck, int& discard, const char* what, Events& ev) {
  if (deck < 0) return std::nullopt;  // not tracked
  if (deck == 0) {
    if (discard == 0) {
      return reject(fmt::format("no {} cards left: the deck and the discard are both empty", what));
    }
    deck = discard;
    discard = 0;
    emit(ev, "reshuffled", fmt::format("The {} discard is shuffled into a new deck", what));
  }
  --deck;
  return std::nullopt;
}

void discard_runner(State& s, Player& p, int idx, Events& ev, const std::string& why) {
  const std::string name = p.runners[static_cast<std::size_t>(idx)].card.name;
  p.runners.erase(p.runners.begin() + idx);
  ++s.decks.runner_discard;
  emit(ev, "runner_discarded", fmt::format("{} discards {} ({})", p.name, name, why));
}

void rotate_now(State& s, Events& ev) {
  const int n = s.pending_district_icons;
  s.pending_district_icons = 0;
  if (n == 0) return;
  const Rotation r = rotate_districts(s.districts, n);
  if (r.shuffle) {
    s.districts_need_shuffle = true;
    emit(ev, "districts_shuffle",
         fmt::format("{} Rotate-District icons: shuffle all Districts, then enter the new order",
                     n));
    return;
  }
  s.districts = r.order;
  emit(ev, "districts_rotated",
       s.districts.empty()
           ? fmt::format("{} Rotate-District icon{}: rotate the front District to the back {} "
                         "time{}",
                         n, n == 1 ? "" : "s", n, n == 1 ? "" : "s")
           : fmt::format("Districts rotate {} time{}: {} is now in front", n, n == 1 ? "" : "s",
                         s.districts.front()));
}

/// Discards the tableau (and a failed Encounter), recovers the dice, rotates if due.
void sweep(State& s, Events& ev, const std::string& why) {
  int discarded = s.run.current ? 1 : 0;
  for (const Defeated& d : s.run.tableau)
    discarded += d.card.special_plus > 0 ? 0 : 1;
  s.decks.encounter_discard += discarded;
  if (!s.run.tableau.empty()) {
    emit(ev, "tableau_discarded",
         fmt::format("The tableau is discarded ({}): {} Encounter{}", why, s.run.tableau.size(),
                     s.run.tableau.size() == 1 ? "" : "s"));
  }
  s.run.tableau.clear();
  s.run.current.reset();
  s.run.dice = fresh_dice();
  s.run.column = 1;
  s.run.origin = -1;
  s.run.chain.clear();
  rotate_now(s, ev);
}

void begin_turn(State& s, int player, Phase phase, Events& ev) {
  s.active = player;
  ++s.turn_number;
  Player& p = active_player(s);
  int flipped = 0;
  for (Runner& r : p.runners) {
    if (!r.face_up) {
      r.face_up = true;
      ++flipped;
    }
  }
  s.megacorp_used_against_active = -1;
  s.district_frozen = false;
  s.district_ignored = false;
  s.district_changed = false;
  s.district_this_turn.clear();
  s.ignores_left = 1;
  s.run.defeated_this_turn = 0;
  s.run.hired_this_encounter = false;
  s.run.used_abilities.clear();
  s.phase = phase;
  emit(ev, "turn",
       fmt::format("Turn {}: {}'s run{}", s.turn_number, p.name,
                   flipped ? fmt::format(" ({} Shadowrunner{} flipped face up)", flipped,
                                         flipped == 1 ? "" : "s")
                           : ""));
  if (phase == Phase::DatastealChoice) {
    emit(ev, "datasteal_offered",
         fmt::format("{} may Datasteal ({} Encounters worth {}¥ locked) or start fresh", p.name,
                     s.run.tableau.size(), tableau_value(s.run)));
  }
}

/// Ends the active player's turn and starts the next one (or ends a solo game).
void end_turn(State& s, Events& ev) {
  if (s.settings.solo && s.winner < 0 && s.turn_number >= s.settings.turn_limit) {
    s.phase = Phase::GameOver;
    s.solo_lost = true;
    emit(ev, "solo_lost",
         fmt::format("Turn {} was the last: {}¥ of {}¥ — the solo game is lost", s.turn_number,
                     active_player(s).nuyen, s.settings.target_nuyen));
    return;
  }
  const int next = (s.active + 1) % static_cast<int>(s.players.size());
  bool alive = !s.run.tableau.empty();
  if (alive && next == s.run.origin) {
    sweep(s, ev,
          fmt::format("the Datasteal went around the table back to {}",
                      s.players[static_cast<std::size_t>(next)].name));
    alive = false;
  }
  begin_turn(s, next, alive ? Phase::DatastealChoice : Phase::TurnStart, ev);
}

bool check_win(State& s, Events& ev) {
  const Player& p = active_player(s);
  const int amount = s.settings.cumulative ? p.earned_nuyen : p.nuyen;
  if (amount < s.settings.target_nuyen) return false;
  s.winner = s.active;
  s.phase = Phase::GameOver;
  emit(
      ev, "won",
      fmt::format("{} reaches {}¥ (target {}¥) and wins{}", p.name, amount, s.settings.target_nuyen,
                  s.settings.solo ? fmt::format(" on turn {}", s.turn_number) : std::string()));
  return true;
}

/// Discards the runners whose retain decision was not taken.
void flush_pending_retain(State& s, Events& ev) {
  if (s.run.pending_retain.empty()) return;
  Player& p = active_player(s);
  for (const std::string& name : s.run.pending_retain) {
    const int idx = runner_index(p, name);
    if (idx >= 0) discard_runner(s, p, idx, ev, "used and not Retained");
  }
  s.run.pending_retain.clear();
}

std::string phase_hint(const State& s) {
  return fmt::format("now: {}", phase_name(s.phase));
}

// ---- Setup ------------------------------------------------------------------------------

Result on(State& s, const AddPlayer& c, Events& ev) {
  if (s.phase != Phase::Setup) return reject("players join during setup only");
  if (c.name.empty()) return reject("a player needs a name");
  if (player_index(s, c.name) >= 0) return reject(fmt::format("{} is already playing", c.name));
  if (s.players.size() >= 8) return reject("Encounters is for 1 to 8 players");
  if (c.megacorp_cost < 0 || c.nuyen < 0) return reject("costs and Nuyen cannot be negative");
  Player p;
  p.name = c.name;
  p.nuyen = c.nuyen;
  p.megacorp = Megacorp{c.megacorp, c.megacorp_cost, c.megacorp_self};
  s.players.push_back(std::move(p));
  emit(ev, "player_added",
       c.megacorp.empty()
           ? fmt::format("{} joins", c.name)
           : fmt::format("{} joins with {} (ability {}¥)", c.name, c.megacorp, c.megacorp_cost));
  return std::nullopt;
}

Result on(State& s, const Configure& c, Events& ev) {
  if (s.phase != Phase::Setup) return reject("settings change during setup only");
  if (c.solo) {
    if (c.turn_limit != 12 && c.turn_limit != 10) {
      return reject(
          fmt::format("the solo turn limit is 12 (or 10 for the hard mode), not {}", c.turn_limit));
    }
  } else if (c.target_nuyen != 20 && c.target_nuyen != 30 && c.target_nuyen != 40) {
    return reject("the victory threshold is 20, 30 or 40 Nuyen");
  }
  s.settings = Settings{c.solo ? 20 : c.target_nuyen, c.solo, c.turn_limit, c.cumulative};
  emit(ev, "configured",
       c.solo ? fmt::format("Solo: reach 20¥ within {} turns", c.turn_limit)
              : fmt::format("First to {}¥ wins{}", s.settings.target_nuyen,
                            c.cumulative ? " (counting Nuyen earned)" : ""));
  return std::nullopt;
}

Result on(State& s, const SetDistricts& c, Events& ev) {
  for (std::size_t i = 0; i < c.order.size(); ++i) {
    if (c.order[i].empty()) return reject("a District needs a name");
    for (std::size_t j = 0; j < i; ++j) {
      if (same_name(c.order[i], c.order[j])) {
        return reject(fmt::format("District {} is listed twice", c.order[i]));
      }
    }
  }
  s.districts = c.order;
  s.districts_need_shuffle = false;
  emit(ev, "districts",
       s.districts.empty()
           ? std::string("Districts not tracked")
           : fmt::format("Districts, front first: {}", fmt::join(s.districts, ", ")));
  return std::nullopt;
}

Result on(State& s, const SetDecks& c, Events& ev) {
  if (c.encounter_deck < -1 || c.runner_deck < -1 || c.encounter_discard < 0 ||
      c.runner_discard < 0) {
    return reject("card counts cannot be negative (-1 means a deck is not tracked)");
  }
  s.decks = Decks{c.encounter_deck, c.encounter_discard, c.runner_deck, c.runner_discard};
  emit(ev, "decks", "Deck counts set");
  return std::nullopt;
}

Result on(State& s, const DealStarter& c, Events& ev) {
  if (s.phase != Phase::Setup) return reject("starting Shadowrunners are dealt during setup");
  const int pi = player_index(s, c.player);
  if (pi < 0) return reject(fmt::format("no player named {}", c.player));
  auto card = parse_runner(c.runner);
  if (!card) return reject(card.error().message());
  if (auto problem = starter_problem(*card)) return reject(*problem);
  Player& p = s.players[static_cast<std::size_t>(pi)];
  if (!p.runners.empty()) {
    return reject(fmt::format("{} already has a starting Shadowrunner", p.name));
  }
  if (auto r = draw(s.decks.runner_deck, s.decks.runner_discard, "Shadowrunner", ev)) return r;
  if (card->name.empty()) card->name = "Starter";
  p.runners.push_back(Runner{*card, true});
  emit(ev, "starter", fmt::format("{} starts with {}", p.name, card->name));
  return std::nullopt;
}

Result on(State& s, const StartGame& c, Events& ev) {
  if (s.phase != Phase::Setup) return reject("the game has already started");
  if (s.players.empty()) return reject("add a player first");
  if (s.settings.solo && s.players.size() != 1) return reject("solo mode is for one player");
  if (!s.settings.solo && s.players.size() < 2) {
    return reject("one player plays the solo mode: configure solo first");
  }
  for (const Player& p : s.players) {
    if (p.runners.empty()) {
      return reject(fmt::format("{} has no starting Shadowrunner yet", p.name));
    }
  }
  int first = 0;
  if (!c.first_player.empty()) {
    first = player_index(s, c.first_player);
    if (first < 0) return reject(fmt::format("no player named {}", c.first_player));
  }
  s.run = Run{};
  s.run.dice = fresh_dice();
  emit(ev, "started",
       fmt::format("{} takes the six dice", s.players[static_cast<std::size_t>(first)].name));
  begin_turn(s, first, Phase::TurnStart, ev);
  return std::nullopt;
}

// ---- Turn start ---------------------------------------------------------------------------

Result on(State& s, const IgnoreDistrict& c, Events& ev) {
  const bool at_start = s.phase == Phase::TurnStart && !s.district_frozen;
  if (!at_start && !(s.ignores_left > 0 && s.district_frozen)) {
    return reject(
        "a Shadowrunner is turned face down to ignore the District at the start of the "
        "turn, before anything else (or just after a card changes your District)");
  }
  if (s.ignores_left <= 0) return reject("you already ignore the District this turn");
  Player& p = active_player(s);
  const int idx = runner_index(p, c.runner);
  if (idx < 0)
    return reject(fmt::format("no Shadowrunner named {}{}", c.runner, no_runner_hint(p)));
  Runner& r = p.runners[static_cast<std::size_t>(idx)];
  if (!r.face_up) return reject(fmt::format("{} is already face down", r.card.name));
  r.face_up = false;
  --s.ignores_left;
  s.district_ignored = true;
  if (s.district_frozen) s.district_this_turn.clear();
  emit(
      ev, "district_ignored",
      fmt::format("{} turns {} face down and ignores the District this turn", p.name, r.card.name));
  return std::nullopt;
}

Result on(State& s, const ChangeDistrict& c, Events& ev) {
  if (s.phase != Phase::TurnStart || s.district_frozen) {
    return reject("the District is changed at the start of the turn, before anything else");
  }
  if (s.district_changed) return reject("you already changed the District this turn");
  Player& p = active_player(s);
  const int idx = runner_index(p, c.runner);
  if (idx < 0)
    return reject(fmt::format("no Shadowrunner named {}{}", c.runner, no_runner_hint(p)));
  const int d = district_index(s, c.district);
  if (d < 0) {
    return reject(s.districts.empty() ? std::string("enter the Districts first (set_districts)")
                                      : fmt::format("no District named {} (standing: {})",
                                                    c.district, fmt::join(s.districts, ", ")));
  }
  const std::string district = s.districts[static_cast<std::size_t>(d)];
  s.districts.erase(s.districts.begin() + d);
  s.districts.insert(s.districts.begin(), district);
  s.district_changed = true;
  discard_runner(s, p, idx, ev, "to change the District; it cannot be Retained");
  emit(ev, "district_changed", fmt::format("{} is now the front District", district));
  return std::nullopt;
}

Result on(State& s, const MidTurnDistrict& c, Events& ev) {
  if (s.phase != Phase::MustFlip && s.phase != Phase::Encounter && s.phase != Phase::Rolled &&
      s.phase != Phase::Between) {
    return reject("a mid-turn District change happens during a run");
  }
  const int d = district_index(s, c.district);
  if (d < 0) return reject(fmt::format("no District named {}", c.district));
  const std::string district = s.districts[static_cast<std::size_t>(d)];
  s.districts.erase(s.districts.begin() + d);
  s.districts.insert(s.districts.begin(), district);
  s.district_this_turn = district;
  s.district_ignored = false;
  s.ignores_left = 1;
  emit(ev, "district_changed",
       fmt::format("{}'s District is now {}; they may turn a Shadowrunner face down to ignore it",
                   active_player(s).name, district));
  return std::nullopt;
}

// ---- The run ------------------------------------------------------------------------------

Result on(State& s, const Flip& c, Events& ev) {
  if (s.phase != Phase::TurnStart && s.phase != Phase::MustFlip && s.phase != Phase::Between) {
    return reject(
        fmt::format("an Encounter is flipped at the start of a run, or to push after a "
                    "defeat ({})",
                    phase_hint(s)));
  }
  if (s.phase == Phase::Between && unlocked_dice(s.run) == 0) {
    return reject("every die is locked: escalate to the next column, or score");
  }
  auto card = parse_encounter(c.encounter);
  if (!card) return reject(card.error().message());
  if (auto r = draw(s.decks.encounter_deck, s.decks.encounter_discard, "Encounter", ev)) return r;
  Player& p = active_player(s);
  if (!s.district_frozen) {
    s.district_frozen = true;
    s.district_this_turn = s.district_ignored || s.districts.empty() ? "" : s.districts.front();
    if (!s.district_this_turn.empty()) {
      emit(ev, "district",
           fmt::format("{}'s District this turn: {}", p.name, s.district_this_turn));
    }
  }
  s.ignores_left = 0;
  s.pending_district_icons += card->rotate_icons;
  const std::string name = card->name.empty() ? std::string("the Encounter") : card->name;
  if (!card->value) {
    std::vector<std::string> holders = c.holders;
    if (holders.empty()) holders.push_back(p.name);
    for (const std::string& h : holders) {
      const int hi = player_index(s, h);
      if (hi < 0) return reject(fmt::format("no player named {}", h));
      s.players[static_cast<std::size_t>(hi)].tokens.push_back(name);
    }
    s.phase = Phase::MustFlip;
    emit(ev, "token",
         fmt::format("{} has no Encounter Value: it goes to {}; flip the next Encounter", name,
                     fmt::join(holders, ", ")));
    return std::nullopt;
  }
  if (!c.holders.empty()) return reject("only an Encounter without a value is handed to players");
  s.seen_values.push_back(*card->value);
  for (RunDie& d : s.run.dice) {
    if (!d.locked) d.face = 0;
  }
  s.run.current = *card;
  s.run.hired_this_encounter = false;
  s.run.used_abilities.clear();
  s.phase = Phase::Encounter;
  emit(ev, "flipped",
       fmt::format("{} flips {} (value {}) in column {}; {} dice to roll", p.name,
                   to_notation(*card), *card->value, s.run.column, unlocked_dice(s.run)));
  return std::nullopt;
}

Result on(State& s, const Hire& c, Events& ev) {
  if (s.phase != Phase::Encounter) {
    return reject(
        fmt::format("hiring happens after an Encounter is revealed and before the roll "
                    "against it ({})",
                    phase_hint(s)));
  }
  if (s.run.hired_this_encounter) {
    return reject("one hire attempt per Encounter: beat this one and flip the next to hire again");
  }
  Player& p = active_player(s);
  if (p.nuyen < kMinHireNuyen) {
    return reject(fmt::format("hiring needs at least 2¥ (you have {}¥)", p.nuyen));
  }
  auto card = parse_runner(c.runner);
  if (!card) return reject(card.error().message());
  if (card->special) return reject("Special Shadowrunners come from Encounters, not hires");
  if (card->hire_cost == 2 && !c.pay) return reject("a 2¥ Shadowrunner must be hired and paid for");
  if (c.pay && card->hire_cost > p.nuyen) {
    return reject(fmt::format("{} costs {}¥ and you have {}¥: you can only discard it",
                              card->name.empty() ? "this Shadowrunner" : card->name,
                              card->hire_cost, p.nuyen));
  }
  if (auto r = draw(s.decks.runner_deck, s.decks.runner_discard, "Shadowrunner", ev)) return r;
  if (card->name.empty()) {
    for (int n = 1;; ++n) {
      const std::string candidate = fmt::format("Runner {}", n);
      if (runner_index(p, candidate) < 0) {
        card->name = candidate;
        break;
      }
    }
  }
  s.run.hired_this_encounter = true;
  if (!c.pay) {
    ++s.decks.runner_discard;
    emit(ev, "hire_declined",
         fmt::format("{} discards {} ({}¥) instead of hiring; no other hire until the next "
                     "Encounter",
                     p.name, card->name, card->hire_cost));
    return std::nullopt;
  }
  if (runner_index(p, card->name) >= 0) {
    return reject(
        fmt::format("you already hold a Shadowrunner named {}: give this one another "
                    "name",
                    card->name));
  }
  p.nuyen -= card->hire_cost;
  p.runners.push_back(Runner{*card, true});
  emit(ev, "hired",
       fmt::format("{} hires {} for {}¥ ({}¥ left)", p.name, card->name, card->hire_cost, p.nuyen));
  if (static_cast<int>(p.runners.size()) > kRunnerLimit) {
    s.must_discard = true;
    emit(ev, "over_limit",
         fmt::format("{} holds {} Shadowrunners: discard one now (the limit is 5)", p.name,
                     p.runners.size()));
  }
  return std::nullopt;
}

Result on(State& s, const DiscardRunner& c, Events& ev) {
  if (!s.must_discard) {
    return reject("a Shadowrunner is discarded this way only when a hire makes six");
  }
  Player& p = active_player(s);
  const int idx = runner_index(p, c.runner);
  if (idx < 0)
    return reject(fmt::format("no Shadowrunner named {}{}", c.runner, no_runner_hint(p)));
  discard_runner(s, p, idx, ev, "over the limit of five");
  s.must_discard = false;
  return std::nullopt;
}

Result on(State& s, const AddBonusDice& c, Events& ev) {
  if (s.phase != Phase::TurnStart && s.phase != Phase::MustFlip && s.phase != Phase::Encounter &&
      s.phase != Phase::Between) {
    return reject("bonus dice join before a roll");
  }
  if (c.count < 1) return reject("add at least one bonus die");
  if (static_cast<int>(s.run.dice.size()) + c.count > kMaxDice) {
    return reject("at most 8 dice in play (6 plus 2 bonus dice)");
  }
  for (int i = 0; i < c.count; ++i)
    s.run.dice.push_back(RunDie{0, false, -1, true});
  emit(ev, "bonus_dice", fmt::format("{} bonus di{} added", c.count, c.count == 1 ? "e" : "ce"));
  return std::nullopt;
}

Result on(State& s, const Roll& c, Events& ev) {
  if (s.phase != Phase::Encounter) {
    return reject(
        fmt::format("the dice are rolled once an Encounter is revealed ({})", phase_hint(s)));
  }
  const int unlocked = unlocked_dice(s.run);
  if (static_cast<int>(c.faces.size()) != unlocked) {
    return reject(
        fmt::format("roll {} dice (the unlocked ones), not {}", unlocked, c.faces.size()));
  }
  for (int f : c.faces) {
    if (f < 1 || f > 6) return reject(fmt::format("a die shows 1 to 6, not {}", f));
  }
  std::size_t k = 0;
  for (RunDie& d : s.run.dice) {
    if (!d.locked) d.face = c.faces[k++];
  }
  s.phase = Phase::Rolled;
  // The faces with their fixed slots (1-6, bonus dice after), as `lock` addresses them.
  std::vector<std::string> slots;
  for (std::size_t i = 0; i < s.run.dice.size(); ++i) {
    if (!s.run.dice[i].locked) slots.push_back(fmt::format("#{}={}", i + 1, s.run.dice[i].face));
  }
  emit(ev, "rolled", fmt::format("{} rolls {}", active_player(s).name, fmt::join(slots, " ")));
  return std::nullopt;
}

Result on(State& s, const Defeat& c, Events& ev) {
  if (s.phase != Phase::Rolled || !s.run.current || !s.run.current->value) {
    return reject(fmt::format("roll against an Encounter first ({})", phase_hint(s)));
  }
  const EncounterCard& enc = *s.run.current;
  const int value = *enc.value;
  const std::size_t want_groups = enc.twice ? 2 : 1;
  if (c.groups.size() != want_groups) {
    return reject(enc.twice ? "this Encounter must be defeated twice with the same roll: give two "
                              "sets of dice"
                            : "give one set of dice to lock");
  }
  std::vector<bool> in_group(s.run.dice.size(), false);
  for (const auto& g : c.groups) {
    if (g.empty()) return reject("a set of dice to lock cannot be empty");
    for (int d : g) {
      if (d < 0 || d >= static_cast<int>(s.run.dice.size())) {
        return reject(fmt::format("there is no die {}", d + 1));
      }
      if (s.run.dice[static_cast<std::size_t>(d)].locked) {
        return reject(fmt::format("die {} is already locked", d + 1));
      }
      if (in_group[static_cast<std::size_t>(d)]) {
        return reject(fmt::format("die {} is used twice (a die is never split)", d + 1));
      }
      in_group[static_cast<std::size_t>(d)] = true;
    }
  }
  Player& p = active_player(s);
  std::vector<int> values;
  for (const RunDie& d : s.run.dice)
    values.push_back(d.face);
  std::vector<std::string> step_keys;
  std::vector<std::string> wild_dice;  // "ability@die" of the wild steps so far
  int lift_runner = -1;
  std::string lift_name;
  std::vector<std::string> runners_used;
  std::vector<std::string> specials_used;
  for (const DefeatStep& st : c.steps) {
    const RunnerCard* card = nullptr;
    int idx = -1;
    if (st.special) {
      idx = special_index(p, st.card);
      if (idx < 0) return reject(fmt::format("you hold no Special Shadowrunner named {}", st.card));
      card = &p.specials[static_cast<std::size_t>(idx)];
    } else {
      idx = runner_index(p, st.card);
      if (idx < 0)
        return reject(fmt::format("no Shadowrunner named {}{}", st.card, no_runner_hint(p)));
      if (!p.runners[static_cast<std::size_t>(idx)].face_up) {
        return reject(fmt::format("{} is face down this turn", st.card));
      }
      card = &p.runners[static_cast<std::size_t>(idx)].card;
    }
    if (st.ability < 0 || st.ability >= static_cast<int>(card->abilities.size())) {
      return reject(fmt::format("{} has no ability number {}", card->name, st.ability + 1));
    }
    const Ability& a = card->abilities[static_cast<std::size_t>(st.ability)];
    const std::string key = ability_key((st.special ? "special:" : "") + card->name, st.ability);
    // "All rolled 4s & 6s are wild": one use of a wild ability covers every die that shows a
    // listed face, so it may change several dice of this Defeat (each die once).
    const std::string die_key = fmt::format("{}@{}", key, st.die);
    const bool every_die = a.kind == AbilityKind::Wild;
    if (every_die && std::find(wild_dice.begin(), wild_dice.end(), die_key) != wild_dice.end()) {
      return reject(fmt::format("{}'s '{}' changes die {} once (it covers every die, each once)",
                                card->name, to_notation(a), st.die + 1));
    }
    if (std::find(s.run.used_abilities.begin(), s.run.used_abilities.end(), key) !=
            s.run.used_abilities.end() ||
        (!every_die && std::find(step_keys.begin(), step_keys.end(), key) != step_keys.end())) {
      return reject(
          fmt::format("{}'s '{}' was already used against this Encounter (each "
                      "ability once per Encounter)",
                      card->name, to_notation(a)));
    }
    if (std::find(step_keys.begin(), step_keys.end(), key) == step_keys.end())
      step_keys.push_back(key);
    if (every_die) wild_dice.push_back(die_key);
    auto& used_list = st.special ? specials_used : runners_used;
    if (std::find(used_list.begin(), used_list.end(), card->name) == used_list.end()) {
      used_list.push_back(card->name);
    }
    if (a.kind == AbilityKind::Lift) {
      if (!enc.no_runners) {
        return reject("nothing to lift: this Encounter has no No-Shadowrunners icon");
      }
      lift_runner = idx;
      lift_name = card->name;
      continue;
    }
    if (!st.special && enc.no_runners && lift_runner < 0) {
      return reject(
          fmt::format("{} shows the No-Shadowrunners icon: no Shadowrunner may be used "
                      "against it (discard Tulio, Corium or Osi to lift it)",
                      enc.name.empty() ? "this Encounter" : enc.name));
    }
    if (!st.special && idx == lift_runner) {
      return reject(fmt::format("{} was discarded to lift the icon", card->name));
    }
    if (!keyword_matches(a, enc.keywords)) {
      return reject(fmt::format("{}'s '{}' needs the {} keyword on the Encounter", card->name,
                                to_notation(a), a.keyword));
    }
    if (st.die < 0 || st.die >= static_cast<int>(values.size()) ||
        !in_group[static_cast<std::size_t>(st.die)]) {
      return reject(fmt::format("{}'s '{}' must change one of the dice being locked", card->name,
                                to_notation(a)));
    }
    const int from = values[static_cast<std::size_t>(st.die)];
    if (st.to < 1 || st.to > 6 || (ability_targets(a, from) & (1U << st.to)) == 0) {
      return reject(
          fmt::format("{}'s '{}' cannot turn die {} from {} into {} (values stay 1 to "
                      "6; wild needs one of its faces)",
                      card->name, to_notation(a), st.die + 1, from, st.to));
    }
    values[static_cast<std::size_t>(st.die)] = st.to;
  }
  std::vector<std::string> sums;
  for (const auto& g : c.groups) {
    int sum = 0;
    std::vector<std::string> parts;
    for (int d : g) {
      sum += values[static_cast<std::size_t>(d)];
      parts.push_back(std::to_string(values[static_cast<std::size_t>(d)]));
    }
    if (sum != value) {
      return reject(
          fmt::format("those dice make {} ({}), not {}", sum, fmt::join(parts, "+"), value));
    }
    sums.push_back(fmt::format("{}", fmt::join(parts, "+")));
  }
  // Legal: lock the dice and settle the cards.
  const int slot = static_cast<int>(s.run.tableau.size());
  for (const auto& g : c.groups) {
    for (int d : g) {
      RunDie& die = s.run.dice[static_cast<std::size_t>(d)];
      die.face = values[static_cast<std::size_t>(d)];
      die.locked = true;
      die.locked_on = slot;
    }
  }
  if (s.run.tableau.empty()) s.run.origin = s.active;
  if (std::find(s.run.chain.begin(), s.run.chain.end(), s.active) == s.run.chain.end()) {
    s.run.chain.push_back(s.active);
  }
  s.run.tableau.push_back(Defeated{enc, s.run.column, s.active});
  ++s.run.defeated_this_turn;
  for (const std::string& k : step_keys)
    s.run.used_abilities.push_back(k);
  const std::string enc_name = enc.name.empty() ? std::string("the Encounter") : enc.name;
  emit(ev, "defeated",
       fmt::format("{} defeats {} in column {} with {}", p.name, enc_name, s.run.column,
                   fmt::join(sums, " and ")));
  for (const std::string& name : specials_used) {
    p.specials.erase(p.specials.begin() + special_index(p, name));
    ++s.decks.encounter_discard;
    emit(ev, "special_used",
         fmt::format("Special Shadowrunner {} goes to the Encounter discard", name));
  }
  for (const std::string& name : runners_used) {
    const int idx = runner_index(p, name);
    if (name == lift_name) {
      discard_runner(s, p, idx, ev, "discarded to lift the No-Shadowrunners icon");
      continue;
    }
    switch (p.runners[static_cast<std::size_t>(idx)].card.retain) {
      case RetainMode::Always:
        emit(ev, "retained", fmt::format("{} is Retained free (purple icon)", name));
        break;
      case RetainMode::Never:
        discard_runner(s, p, idx, ev, "red icon: cannot be Retained");
        break;
      case RetainMode::Normal:
        if (p.nuyen < kRetainCost) {
          // Nothing to offer: Retaining costs 3¥ and there is no later chance to pay.
          discard_runner(s, p, idx, ev,
                         fmt::format("Retaining costs 3¥ and {} has {}¥", p.name, p.nuyen));
          break;
        }
        s.run.pending_retain.push_back(name);
        emit(ev, "retain_offered",
             fmt::format("Retain {} for 3¥? ({} has {}¥)", name, p.name, p.nuyen));
        break;
    }
  }
  if (enc.special_plus > 0) {
    RunnerCard special;
    special.name = enc.name.empty() ? std::string("Special") : enc.name;
    for (int n = 2; special_index(p, special.name) >= 0; ++n) {
      special.name = fmt::format("{} {}", enc.name.empty() ? "Special" : enc.name, n);
    }
    special.special = true;
    Ability plus;
    plus.amount = enc.special_plus;
    special.abilities.push_back(plus);
    p.specials.push_back(special);
    emit(ev, "special_won",
         fmt::format("{} becomes {}'s Special Shadowrunner (+{} to any die)", special.name, p.name,
                     enc.special_plus));
  }
  s.run.current.reset();
  s.phase = Phase::Between;
  if (unlocked_dice(s.run) == 0) {
    emit(ev, "all_locked",
         fmt::format("All dice locked: escalate to column {} or score {}¥", s.run.column + 1,
                     tableau_value(s.run)));
  }
  return std::nullopt;
}

Result on(State& s, const Fail& /*c*/, Events& ev) {
  if (s.phase != Phase::Rolled || !s.run.current) {
    return reject(fmt::format("you fail only against a rolled Encounter ({})", phase_hint(s)));
  }
  // A match that needs no card must be taken; declining cards is always allowed.
  MatchQuery plain;
  for (const RunDie& d : s.run.dice) {
    if (!d.locked) plain.dice.push_back(d.face);
  }
  plain.value = *s.run.current->value;
  plain.twice = s.run.current->twice;
  plain.max_solutions = 1;
  if (auto r = find_matches(plain); r && !r->solutions.empty()) {
    std::vector<std::string> faces;
    for (int v : r->solutions.front().faces)
      faces.push_back(std::to_string(v));
    return reject(fmt::format("the dice already make {} without any card ({}): lock them",
                              plain.value, fmt::join(faces, "+")));
  }
  Player& p = active_player(s);
  emit(ev, "failed",
       fmt::format("{} fails against {}: no Nuyen from this run", p.name,
                   s.run.current->name.empty() ? "the Encounter" : s.run.current->name));
  const int next = (s.active + 1) % static_cast<int>(s.players.size());
  if (s.run.tableau.empty() || s.settings.solo || s.players.size() < 2 || next == s.run.origin) {
    sweep(s, ev, s.run.tableau.empty() ? "nothing locked" : "no one left to Datasteal");
    end_turn(s, ev);
    return std::nullopt;
  }
  if (p.runners.empty()) {
    // Burning the Run discards a Shadowrunner: with none there is nothing to offer.
    emit(ev, "no_burn",
         fmt::format("{} holds no Shadowrunner to Burn the Run with: the Datasteal is open",
                     p.name));
    end_turn(s, ev);
    return std::nullopt;
  }
  s.phase = Phase::BurnChoice;
  emit(ev, "burn_offered",
       fmt::format("{} may discard a Shadowrunner to Burn the Run (blocks the Datasteal of {}¥)",
                   p.name, tableau_value(s.run)));
  return std::nullopt;
}

Result on(State& s, const Retain& c, Events& ev) {
  Player& p = active_player(s);
  const auto it = std::find_if(s.run.pending_retain.begin(), s.run.pending_retain.end(),
                               [&](const std::string& n) { return same_name(n, c.runner); });
  if (it == s.run.pending_retain.end()) {
    const int idx = runner_index(p, c.runner);
    if (idx >= 0 && p.runners[static_cast<std::size_t>(idx)].card.retain == RetainMode::Never) {
      return reject(fmt::format("{} has the red icon: it can never be Retained", c.runner));
    }
    if (idx >= 0 && p.runners[static_cast<std::size_t>(idx)].card.retain == RetainMode::Always) {
      return reject(fmt::format("{} has the purple icon: it is Retained free already", c.runner));
    }
    return reject(
        fmt::format("{} was not just used: only a Shadowrunner just used can be "
                    "Retained",
                    c.runner));
  }
  if (p.nuyen < kRetainCost) {
    return reject(fmt::format("retaining costs 3¥ and {} has {}¥", p.name, p.nuyen));
  }
  p.nuyen -= kRetainCost;
  emit(ev, "retained", fmt::format("{} pays 3¥ to Retain {} ({}¥ left)", p.name, *it, p.nuyen));
  s.run.pending_retain.erase(it);
  return std::nullopt;
}

Result on(State& s, const Score& /*c*/, Events& ev) {
  if (s.phase != Phase::Between || s.run.current || s.run.defeated_this_turn == 0) {
    return reject(
        fmt::format("you score after defeating every revealed Encounter, before "
                    "flipping the next ({})",
                    phase_hint(s)));
  }
  Player& p = active_player(s);
  const int amount = tableau_value(s.run);
  p.nuyen += amount;
  p.earned_nuyen += amount;
  emit(ev, "scored",
       fmt::format("{} scores {}¥ for {} Encounter{} ({}¥ now)", p.name, amount,
                   s.run.tableau.size(), s.run.tableau.size() == 1 ? "" : "s", p.nuyen));
  for (const Defeated& d : s.run.tableau) {
    s.decks.encounter_discard += d.card.special_plus > 0 ? 0 : 1;
  }
  s.run.tableau.clear();
  sweep(s, ev, "scored");
  if (check_win(s, ev)) return std::nullopt;
  end_turn(s, ev);
  return std::nullopt;
}

Result on(State& s, const Escalate& /*c*/, Events& ev) {
  if (s.phase != Phase::Between) {
    return reject(
        fmt::format("escalate after a defeat that locks the last die ({})", phase_hint(s)));
  }
  const int open = unlocked_dice(s.run);
  if (open > 0) {
    return reject(
        fmt::format("escalation needs every die locked, bonus dice included ({} still "
                    "unlocked)",
                    open));
  }
  ++s.run.column;
  s.run.dice = fresh_dice();
  emit(ev, "escalated",
       fmt::format("Escalation: six dice recovered (bonus dice set aside); the next Encounter "
                   "starts column {}",
                   s.run.column));
  return std::nullopt;
}

Result on(State& s, const Burn& c, Events& ev) {
  if (s.phase != Phase::BurnChoice) {
    return reject("you Burn the Run just after failing with Encounters locked");
  }
  Player& p = active_player(s);
  if (special_index(p, c.runner) >= 0 && runner_index(p, c.runner) < 0) {
    return reject("a Special Shadowrunner cannot be used to Burn the Run");
  }
  const int idx = runner_index(p, c.runner);
  if (idx < 0)
    return reject(fmt::format("no Shadowrunner named {}{}", c.runner, no_runner_hint(p)));
  discard_runner(s, p, idx, ev, "to Burn the Run; it cannot be Retained");
  sweep(s, ev, "the run is burned");
  end_turn(s, ev);
  return std::nullopt;
}

Result on(State& s, const DeclineBurn& /*c*/, Events& ev) {
  if (s.phase != Phase::BurnChoice) return reject("there is no run to burn now");
  end_turn(s, ev);
  return std::nullopt;
}

Result on(State& s, const Datasteal& /*c*/, Events& ev) {
  if (s.phase != Phase::DatastealChoice) return reject("there is no failed run to steal now");
  if (s.run.current) {
    ++s.decks.encounter_discard;
    s.run.current.reset();
  }
  std::erase_if(s.run.dice, [](const RunDie& d) { return d.bonus && !d.locked; });
  for (RunDie& d : s.run.dice) {
    if (!d.locked) d.face = 0;
  }
  s.run.chain.push_back(s.active);
  s.phase = Phase::TurnStart;
  emit(
      ev, "datasteal",
      fmt::format("{} attempts a Datasteal: column {}, {} dice to roll, {}¥ locked",
                  active_player(s).name, s.run.column, unlocked_dice(s.run), tableau_value(s.run)));
  return std::nullopt;
}

Result on(State& s, const FreshStart& /*c*/, Events& ev) {
  if (s.phase != Phase::DatastealChoice) return reject("there is no failed run to discard now");
  sweep(s, ev, fmt::format("{} starts fresh", active_player(s).name));
  s.phase = Phase::TurnStart;
  return std::nullopt;
}

Result on(State& s, const UseMegacorp& c, Events& ev) {
  if (s.settings.solo) return reject("solo games use no Megacorporations");
  if (s.phase == Phase::Setup || s.phase == Phase::BurnChoice) {
    return reject("Megacorporation abilities are used during a player's turn");
  }
  const int pi = player_index(s, c.player);
  if (pi < 0) return reject(fmt::format("no player named {}", c.player));
  Player& user = s.players[static_cast<std::size_t>(pi)];
  if (user.megacorp.name.empty())
    return reject(fmt::format("{} has no Megacorporation", user.name));
  if (pi == s.active) {
    if (!user.megacorp.can_target_self) {
      return reject(fmt::format("{} cannot be used on its own player's turn", user.megacorp.name));
    }
  } else if (s.megacorp_used_against_active >= 0) {
    return reject(
        fmt::format("{} already used a Megacorporation against {} this turn (one "
                    "opponent per turn)",
                    s.players[static_cast<std::size_t>(s.megacorp_used_against_active)].name,
                    active_player(s).name));
  }
  if (user.nuyen < user.megacorp.ability_cost) {
    return reject(fmt::format("{} costs {}¥ and {} has {}¥", user.megacorp.name,
                              user.megacorp.ability_cost, user.name, user.nuyen));
  }
  user.nuyen -= user.megacorp.ability_cost;
  if (pi != s.active) s.megacorp_used_against_active = pi;
  emit(ev, "megacorp",
       pi == s.active ? fmt::format("{} uses {} on their own turn ({}¥)", user.name,
                                    user.megacorp.name, user.megacorp.ability_cost)
                      : fmt::format("{} uses {} against {} ({}¥)", user.name, user.megacorp.name,
                                    active_player(s).name, user.megacorp.ability_cost));
  return std::nullopt;
}

Result on(State& s, const Override& c, Events& ev) {
  auto changed = override_field(s, c.path, c.value);
  if (!changed) return reject(changed.error());
  s = std::move(*changed);
  emit(ev, "override", fmt::format("Manual override: {} = {}", c.path, c.value.dump()));
  return std::nullopt;
}

template <class T>
constexpr bool flushes_retain() {
  return !std::is_same_v<T, Retain> && !std::is_same_v<T, Override> &&
         !std::is_same_v<T, UseMegacorp> && !std::is_same_v<T, SetDistricts> &&
         !std::is_same_v<T, SetDecks>;
}

}  // namespace

Expected<Applied, Rejection> apply(const State& state, const Command& command) {
  Applied out{state, {}};
  State& s = out.state;
  const Result result = std::visit(
      [&](const auto& c) -> Result {
        using T = std::decay_t<decltype(c)>;
        if constexpr (!std::is_same_v<T, Override>) {
          if (s.phase == Phase::GameOver) {
            return reject(s.winner >= 0
                              ? fmt::format("the game is over: {} won",
                                            s.players[static_cast<std::size_t>(s.winner)].name)
                              : std::string("the game is over"));
          }
          if (s.must_discard && !std::is_same_v<T, DiscardRunner>) {
            return reject(
                fmt::format("{} holds 6 Shadowrunners: discard one first", active_player(s).name));
          }
        }
        if constexpr (flushes_retain<T>()) {
          if (s.phase != Phase::Setup) flush_pending_retain(s, out.events);
        }
        return on(s, c, out.events);
      },
      command);
  if (result) return *result;
  return out;
}

DUELS_CARDS_RULES_DEFINE(State, Command, Rejection, encounters)

int tableau_value(const Run& run) {
  int total = 0;
  for (const Defeated& d : run.tableau)
    total += d.column + d.card.bonus_nuyen;
  return total;
}

int unlocked_dice(const Run& run) {
  return static_cast<int>(
      std::count_if(run.dice.begin(), run.dice.end(), [](const RunDie& d) { return !d.locked; }));
}

Rotation rotate_districts(const std::vector<std::string>& order, int icons) {
  Rotation r{order, false};
  if (icons >= 5) {
    r.shuffle = true;
    return r;
  }
  if (icons <= 0 || order.empty()) return r;
  for (int i = 0; i < icons; ++i)
    std::rotate(r.order.begin(), r.order.begin() + 1, r.order.end());
  return r;
}

Expected<StateQuery, Rejection> match_query(const State& s) {
  if (s.phase != Phase::Rolled || !s.run.current || !s.run.current->value) {
    return Rejection{"there is no rolled Encounter to match"};
  }
  StateQuery sq;
  MatchQuery& q = sq.query;
  for (std::size_t i = 0; i < s.run.dice.size(); ++i) {
    if (s.run.dice[i].locked) continue;
    q.dice.push_back(s.run.dice[i].face);
    sq.die_index.push_back(static_cast<int>(i));
  }
  const EncounterCard& enc = *s.run.current;
  q.value = *enc.value;
  q.keywords = enc.keywords;
  q.no_runners = enc.no_runners;
  q.twice = enc.twice;
  const Player& p = s.players[static_cast<std::size_t>(s.active)];
  const auto used_mask = [&](const std::string& key_name, std::size_t n) {
    std::uint32_t mask = 0;
    for (std::size_t j = 0; j < n; ++j) {
      const std::string key = ability_key(key_name, static_cast<int>(j));
      if (std::find(s.run.used_abilities.begin(), s.run.used_abilities.end(), key) !=
          s.run.used_abilities.end()) {
        mask |= 1U << j;
      }
    }
    return mask;
  };
  for (const Runner& r : p.runners) {
    q.cards.push_back(
        HandCard{r.card, used_mask(r.card.name, r.card.abilities.size()), !r.face_up});
    sq.special.push_back(false);
  }
  for (const RunnerCard& c : p.specials) {
    q.cards.push_back(HandCard{c, used_mask("special:" + c.name, c.abilities.size()), false});
    sq.special.push_back(true);
  }
  return sq;
}

Defeat defeat_command(const StateQuery& sq, const Solution& solution) {
  Defeat d;
  for (const auto& g : solution.groups) {
    std::vector<int> group;
    for (int qi : g)
      group.push_back(sq.die_index[static_cast<std::size_t>(qi)]);
    d.groups.push_back(std::move(group));
  }
  for (const Step& st : solution.steps) {
    DefeatStep ds;
    ds.card = sq.query.cards[static_cast<std::size_t>(st.card)].card.name;
    ds.special = sq.special[static_cast<std::size_t>(st.card)];
    ds.ability = st.ability;
    ds.die = st.die < 0 ? -1 : sq.die_index[static_cast<std::size_t>(st.die)];
    ds.to = st.to;
    d.steps.push_back(ds);
  }
  return d;
}

int player_index(const State& state, const std::string& name) {
  for (std::size_t i = 0; i < state.players.size(); ++i) {
    if (same_name(state.players[i].name, name)) return static_cast<int>(i);
  }
  return -1;
}

}  // namespace duels::cards::encounters
