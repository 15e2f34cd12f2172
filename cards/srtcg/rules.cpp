#include "cards/srtcg/rules.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <numeric>

#include "cards/common/text.hpp"
#include "cards/srtcg/json.hpp"

namespace duels::cards::srtcg {

using cards::emit;
using text::same_name;

const char* phase_name(Phase phase) {
  switch (phase) {
    case Phase::Setup:
      return "Setup";
    case Phase::Objective:
      return "Objective";
    case Phase::Credstick:
      return "Credstick";
    case Phase::Refresh:
      return "Refresh";
    case Phase::Legwork:
      return "Legwork";
    case Phase::Shadowrun:
      return "Shadowrun";
    case Phase::End:
      return "End";
    case Phase::GameOver:
      return "Game over";
  }
  return "?";
}

void apply_rep_change(int& reputation, bool& neg_lock, int delta) {
  if (delta < 0 && neg_lock) return;
  reputation += delta;
  if (reputation < 0) neg_lock = true;
  if (reputation > 0) neg_lock = false;
}

int challenge_limit(int players) {
  if (players <= 2) return 3;
  if (players == 3) return 2;
  return 1;
}

int d6_result(int roll, int modifier) {
  return std::max(1, roll + modifier);
}

int income(const Player& player, int card_income) {
  int total = 4 + card_income;
  for (const Runner& r : player.runners) {
    const auto it = r.card.traits.find("Fame");
    if (it != r.card.traits.end()) total += it->second;
  }
  for (const SupportCard& c : player.cards)
    total += c.income;
  return total;
}

Ratings effective_skills(const Runner& runner) {
  Ratings out = runner.card.skills;
  for (const HeldGear& g : runner.gear) {
    for (const auto& [skill, n] : g.card.bonus)
      out[skill] += n;
  }
  return out;
}

Armor effective_armor(const Runner& runner, bool vehicles) {
  Armor a = runner.card.armor;
  for (const HeldGear& g : runner.gear) {
    if (g.card.type == GearType::Drone || g.card.type == GearType::Spirit) continue;
    if (g.card.type == GearType::Vehicle && !vehicles) continue;
    a.flat = std::max(a.flat, g.card.armor.flat);
    a.add += g.card.armor.add;
  }
  return a;
}

int essence_used(const Runner& runner) {
  int total = 0;
  for (const HeldGear& g : runner.gear)
    total += g.card.type == GearType::Cyberware ? g.card.essence : 0;
  return total;
}

namespace {

bool has_keyword(const std::vector<std::string>& keywords, const std::string& k) {
  return std::find(keywords.begin(), keywords.end(), k) != keywords.end();
}

int rating(const Ratings& r, const std::string& name) {
  const auto it = r.find(name);
  return it == r.end() ? 0 : it->second;
}

/// The skills a gear type needs by itself (spec C2.9).
Ratings needed_skills(const GearCard& gear) {
  Ratings need = gear.needs;
  const auto at_least_one = [&](const char* skill) { need[skill] = std::max(need[skill], 1); };
  switch (gear.type) {
    case GearType::Spell:
      at_least_one("Sorcery");
      break;
    case GearType::Program:
    case GearType::Cyberdeck:
      at_least_one("Decking");
      break;
    case GearType::Drone:
      at_least_one("Piloting");
      break;
    case GearType::Spirit:
      at_least_one("Conjure");
      break;
    default:
      break;
  }
  return need;
}

}  // namespace

std::optional<std::string> gear_problem(const Runner& runner, const GearCard& gear) {
  const Ratings skills = effective_skills(runner);
  for (const auto& [skill, need] : needed_skills(gear)) {
    const int have = rating(skills, skill);
    if (have < need) {
      return have == 0 ? fmt::format("{} needs {} (the runner has none)",
                                     gear.name.empty() ? std::string("it") : gear.name,
                                     need == 1 ? skill : fmt::format("{} {}", skill, need))
                       : fmt::format("{} needs {} {} (the runner has {})",
                                     gear.name.empty() ? std::string("it") : gear.name, skill, need,
                                     have);
    }
  }
  const auto holds = [&](GearType t) {
    return std::any_of(runner.gear.begin(), runner.gear.end(),
                       [&](const HeldGear& g) { return g.card.type == t; });
  };
  if (gear.type == GearType::Armor && holds(GearType::Armor)) {
    return std::string("a runner holds only one Armor card");
  }
  if (gear.type == GearType::Cyberdeck && holds(GearType::Cyberdeck)) {
    return std::string("a Decker uses one Cyberdeck at a time");
  }
  if (gear.type == GearType::Cyberware &&
      (has_keyword(runner.card.keywords, "mage") || has_keyword(runner.card.keywords, "shaman")) &&
      !has_keyword(runner.card.keywords, "burned-out-mage")) {
    return std::string("Mages and Shamans cannot take cyberware (Burned-Out Mages can)");
  }
  return std::nullopt;
}

SleazeCheck sleaze_check(const std::vector<Ratings>& team_skills,
                         const std::vector<bool>& team_anti_social, const Ratings& requirement) {
  SleazeCheck out;
  if (requirement.empty()) {
    out.can_sleaze = false;
    return out;
  }
  bool anti = false;
  for (bool a : team_anti_social)
    anti = anti || a;
  out.met = true;
  for (const auto& [skill, need] : requirement) {
    SleazeLine line;
    line.skill = skill;
    line.need = need;
    for (const Ratings& r : team_skills)
      line.have += rating(r, skill);
    line.anti_social = anti && skill == "Social";
    line.met = line.have >= need && !line.anti_social;
    out.met = out.met && line.met;
    out.lines.push_back(line);
  }
  return out;
}

int player_index(const State& state, const std::string& name) {
  for (std::size_t i = 0; i < state.players.size(); ++i) {
    if (same_name(state.players[i].name, name)) return static_cast<int>(i);
  }
  return -1;
}

namespace {

using Events = std::vector<Event>;
using Result = std::optional<Rejection>;

constexpr int kHandLimit = 7;
constexpr int kStartHand = 7;
constexpr int kStartNuyen = 4;
constexpr int kMaxTeam = 6;
constexpr int kMaxEssence = 6;
constexpr int kMinGoal = 50;
constexpr int kMaxPlayers = 8;

Result reject(std::string why) {
  return Rejection{std::move(why)};
}

Player& active_player(State& s) {
  return s.players[static_cast<std::size_t>(s.active)];
}

/// A runner in play: player index and runner index.
struct Ref {
  int player = -1;
  int index = -1;
};

Runner& at(State& s, Ref r) {
  return s.players[static_cast<std::size_t>(r.player)].runners[static_cast<std::size_t>(r.index)];
}

int runner_index(const Player& p, const std::string& name) {
  for (std::size_t i = 0; i < p.runners.size(); ++i) {
    if (same_name(p.runners[i].card.name, name)) return static_cast<int>(i);
  }
  return -1;
}

std::string runner_names(const Player& p) {
  std::vector<std::string> names;
  for (const Runner& r : p.runners)
    names.push_back(r.card.name);
  return names.empty() ? std::string("none") : fmt::format("{}", fmt::join(names, ", "));
}

/// "Runner" (the active player's, else the only one of that name) or "Player:Runner".
Expected<Ref, Rejection> find_runner(const State& s, const std::string& ref) {
  const auto colon = ref.find(':');
  if (colon != std::string::npos) {
    const int p = player_index(s, ref.substr(0, colon));
    if (p < 0) return Rejection{fmt::format("no player named '{}'", ref.substr(0, colon))};
    std::string name = ref.substr(colon + 1);
    while (!name.empty() && name.front() == ' ')
      name.erase(name.begin());
    const int i = runner_index(s.players[static_cast<std::size_t>(p)], name);
    if (i < 0) {
      return Rejection{fmt::format("{} has no runner named '{}' (in play: {})",
                                   s.players[static_cast<std::size_t>(p)].name, name,
                                   runner_names(s.players[static_cast<std::size_t>(p)]))};
    }
    return Ref{p, i};
  }
  if (!s.players.empty()) {
    const int i = runner_index(s.players[static_cast<std::size_t>(s.active)], ref);
    if (i >= 0) return Ref{s.active, i};
  }
  Ref found;
  int count = 0;
  for (std::size_t p = 0; p < s.players.size(); ++p) {
    const int i = runner_index(s.players[p], ref);
    if (i >= 0) {
      found = Ref{static_cast<int>(p), i};
      ++count;
    }
  }
  if (count == 1) return found;
  if (count > 1)
    return Rejection{fmt::format("several players have a '{}': say Player:{}", ref, ref)};
  return Rejection{fmt::format("no runner named '{}' in play", ref)};
}

/// The active player's own runner.
Expected<Ref, Rejection> own_runner(const State& s, const std::string& ref) {
  auto r = find_runner(s, ref);
  if (!r) return r;
  if (r->player != s.active) {
    return Rejection{fmt::format("{} is {}'s runner, not the active player's", ref,
                                 s.players[static_cast<std::size_t>(r->player)].name)};
  }
  return r;
}

int gear_index(const Runner& r, const std::string& name) {
  for (std::size_t i = 0; i < r.gear.size(); ++i) {
    if (same_name(r.gear[i].card.name, name)) return static_cast<int>(i);
  }
  return -1;
}

Expected<int, Rejection> find_gear(const Runner& r, const std::string& name) {
  const int g = gear_index(r, name);
  if (g >= 0) return g;
  std::vector<std::string> names;
  for (const HeldGear& h : r.gear)
    names.push_back(h.card.name);
  return Rejection{fmt::format(
      "{} holds no '{}' (holds: {})", r.card.name, name,
      names.empty() ? std::string("nothing") : fmt::format("{}", fmt::join(names, ", ")))};
}

Expected<int, Rejection> find_player(const State& s, const std::string& name) {
  if (name.empty()) {
    if (s.players.empty()) return Rejection{"no players yet"};
    return s.active;
  }
  const int p = player_index(s, name);
  if (p < 0) return Rejection{fmt::format("no player named '{}'", name)};
  return p;
}

void check_win(State& s, Events& ev) {
  if (s.phase == Phase::GameOver || s.phase == Phase::Setup) return;
  for (std::size_t i = 0; i < s.players.size(); ++i) {
    if (s.players[i].reputation >= s.settings.goal) {
      s.phase = Phase::GameOver;
      s.winner = static_cast<int>(i);
      s.run = Run{};
      emit(ev, "won",
           fmt::format("{} reaches {} Reputation (goal {}) and wins", s.players[i].name,
                       s.players[i].reputation, s.settings.goal));
      return;
    }
  }
}

void change_rep(State& s, int player, int delta, Events& ev, const std::string& why) {
  Player& p = s.players[static_cast<std::size_t>(player)];
  const int before = p.reputation;
  const bool locked = p.neg_lock;
  apply_rep_change(p.reputation, p.neg_lock, delta);
  if (delta < 0 && locked) {
    emit(ev, "rep_ignored",
         fmt::format("{} loses no Reputation ({}): already below zero, the loss is ignored", p.name,
                     why));
  } else {
    emit(ev, "reputation",
         fmt::format("{} Reputation {} → {} ({}){}", p.name, before, p.reputation, why,
                     p.neg_lock ? " · negative lock on" : ""));
  }
  check_win(s, ev);
}

/// Takes cards from the draw pile into the hand; an empty pile mid-turn does nothing (with a
/// warning) unless the table reshuffles at once (spec C6.14).
void draw_cards(State& s, int player, int n, Events& ev) {
  Player& p = s.players[static_cast<std::size_t>(player)];
  int drawn = 0;
  for (int k = 0; k < n; ++k) {
    if (p.draw_pile == 0 && s.settings.reshuffle_mid_turn && p.trash > 0) {
      p.draw_pile = p.trash;
      p.trash = 0;
      emit(ev, "reshuffled", fmt::format("{} shuffles the trash into a new draw pile", p.name));
    }
    if (p.draw_pile == 0) {
      emit(ev, "empty_pile",
           fmt::format("{}'s draw pile is empty: no card drawn (the trash is reshuffled in the "
                       "End phase)",
                       p.name));
      break;
    }
    --p.draw_pile;
    ++p.hand;
    ++drawn;
  }
  if (drawn > 0) {
    emit(ev, "drew",
         fmt::format("{} draws {} card{} (hand {})", p.name, drawn, drawn == 1 ? "" : "s", p.hand));
  }
}

void remove_from_run(State& s, const std::string& name, int player) {
  if (player != s.active) return;
  const auto drop = [&](std::vector<std::string>& v) {
    v.erase(std::remove_if(v.begin(), v.end(),
                           [&](const std::string& n) { return same_name(n, name); }),
            v.end());
  };
  drop(s.run.team);
  drop(s.run.indirect);
}

void end_run(State& s, Events& ev, const std::string& why) {
  for (const std::string& name : s.run.team) {
    const int i = runner_index(active_player(s), name);
    if (i < 0) continue;
    for (HeldGear& g : active_player(s).runners[static_cast<std::size_t>(i)].gear)
      g.active = false;
  }
  s.run.active = false;
  emit(ev, "run_over", "The shadowrun is over: " + why);
}

/// Trashes (or frags) a runner with everything it holds.
void kill_runner(State& s, Ref ref, Events& ev, const std::string& why, bool frag = false) {
  Player& p = s.players[static_cast<std::size_t>(ref.player)];
  const Runner r = p.runners[static_cast<std::size_t>(ref.index)];
  const int gear = static_cast<int>(r.gear.size());
  p.trash += gear + (frag ? 0 : 1);
  p.runners.erase(p.runners.begin() + ref.index);
  remove_from_run(s, r.card.name, ref.player);
  emit(ev, frag ? "fragged" : "died",
       fmt::format("{} {} ({}){}", r.card.name, frag ? "is fragged" : "dies", why,
                   gear > 0
                       ? fmt::format(": trashed with {} gear card{}", gear, gear == 1 ? "" : "s")
                       : std::string()));
  if (s.run.active && ref.player == s.active && s.run.team.empty()) {
    end_run(s, ev, "no runner of the team is left");
  }
}

Objective* run_objective(State& s) {
  if (s.run.owner < 0 || s.run.owner >= static_cast<int>(s.players.size())) return nullptr;
  auto& o = s.players[static_cast<std::size_t>(s.run.owner)].objective;
  return o ? &*o : nullptr;
}

std::vector<StackCard>* current_stack(State& s) {
  Objective* o = run_objective(s);
  if (o == nullptr || s.run.stack >= static_cast<int>(s.run.order.size())) return nullptr;
  const int p = s.run.order[static_cast<std::size_t>(s.run.stack)];
  if (p < 0 || p >= static_cast<int>(o->stacks.size())) return nullptr;
  auto& st = o->stacks[static_cast<std::size_t>(p)];
  return st.empty() ? nullptr : &st;
}

int current_stack_owner(const State& s) {
  return s.run.stack < static_cast<int>(s.run.order.size())
             ? s.run.order[static_cast<std::size_t>(s.run.stack)]
             : -1;
}

/// Trashes the current stack card (sleazed, beaten or a bluff).
void trash_current(State& s) {
  auto* st = current_stack(s);
  if (st == nullptr) return;
  st->pop_back();
  ++s.players[static_cast<std::size_t>(current_stack_owner(s))].trash;
}

std::string card_label(const StackCard& c) {
  if (c.bluff) return "a bluff";
  if (!c.card) return "an unseen card";
  return c.card->name.empty() ? to_notation(*c.card) : c.card->name;
}

/// Goes to the next card the team must face (bluffs and Challenges made illegal by the
/// Objective are trashed on the way), or to the Objective.
void advance(State& s, Events& ev) {
  Objective* o = run_objective(s);
  while (o != nullptr && s.run.stack < static_cast<int>(s.run.order.size())) {
    auto* st = current_stack(s);
    if (st == nullptr) {
      ++s.run.stack;
      continue;
    }
    StackCard& top = st->back();
    const std::string owner = s.players[static_cast<std::size_t>(current_stack_owner(s))].name;
    if (!top.card && !top.bluff) {
      s.run.step = RunStep::Reveal;
      emit(ev, "reveal_needed", fmt::format("{} turns up the top card of their stack", owner));
      return;
    }
    if (top.bluff) {
      emit(ev, "bluff", fmt::format("{}'s card is a bluff: trashed", owner));
      trash_current(s);
      continue;
    }
    if (o->card) {
      bool illegal = false;
      for (const std::string& k : top.card->keywords)
        illegal = illegal || has_keyword(o->card->keywords, "no-" + k);
      if (illegal) {
        emit(ev, "bluff",
             fmt::format("{} cannot be played on {}: it stays as a bluff and is trashed",
                         card_label(top), o->card->name));
        trash_current(s);
        continue;
      }
    }
    s.run.step = RunStep::Face;
    const ChallengeCard& c = *top.card;
    emit(ev, "revealed",
         fmt::format("{}'s Challenge: {} ({}{})", owner, card_label(top),
                     threat_text(c.threat, c.armor),
                     c.sleaze.empty() ? std::string(", cannot be sleazed")
                                      : fmt::format(", sleaze {}", ratings_text(c.sleaze))));
    return;
  }
  s.run.step = RunStep::Objective;
  emit(ev, "at_objective", "Every Challenge is passed: take the Objective");
}

/// Ends the turn-scope pumps of every runner: one that survived only thanks to a pump dies.
void revert_pumps(State& s, Events& ev) {
  for (std::size_t p = 0; p < s.players.size(); ++p) {
    auto& runners = s.players[p].runners;
    for (std::size_t i = 0; i < runners.size();) {
      Runner& r = runners[i];
      if (r.pumps == 0) {
        ++i;
        continue;
      }
      const int pump_body = r.pumps * r.card.pump.body;
      r.pumps = 0;
      int body = r.card.threat.body + r.card.mod.body;
      for (const HeldGear& g : r.gear) {
        if (g.card.type != GearType::Drone && g.card.type != GearType::Spirit)
          body += g.card.mod.body;
      }
      if (pump_body > 0 && r.damage >= body) {
        kill_runner(
            s, Ref{static_cast<int>(p), static_cast<int>(i)}, ev,
            fmt::format("its pump reverts at end of turn: {} damage ≥ Body {}", r.damage, body));
        continue;
      }
      ++i;
    }
  }
  for (Player& pl : s.players) {
    if (!pl.objective) continue;
    for (auto& st : pl.objective->stacks) {
      for (StackCard& c : st)
        c.pumps = 0;
    }
  }
}

void start_turn(State& s, int player, Events& ev) {
  s.active = player;
  ++s.turn;
  s.phase = Phase::Objective;
  s.paid = false;
  s.ran = false;
  s.run = Run{};
  for (Player& p : s.players) {
    for (Runner& r : p.runners) {
      r.healed = false;
      r.repaired = false;
      r.spells_used = 0;
      r.programs_used = 0;
      r.biotech_used = false;
      r.recons_used = 0;
    }
  }
  Player& p = active_player(s);
  emit(ev, "turn", fmt::format("Turn {}: {} · Objective phase", s.turn, p.name));
  if (p.objective && !p.objective->revealed && p.objective->placed_turn < s.turn) {
    if (p.objective->card) {
      p.objective->revealed = true;
      emit(ev, "objective_revealed",
           fmt::format("{}'s Objective is revealed: {}", p.name, to_notation(*p.objective->card)));
    } else {
      emit(ev, "reveal_objective",
           fmt::format("{} reveals their Objective: enter it (reveal …)", p.name));
    }
  }
}

/// Credstick phase: income or draw to 7, then every upkeep (unpaid cards are trashed).
void payday(State& s, const Payday& c, Events& ev) {
  Player& p = active_player(s);
  if (c.draw_to_seven) {
    const int want = std::max(0, kHandLimit - p.hand);
    emit(ev, "draw_to_seven", fmt::format("{} takes no income and draws up to 7", p.name));
    draw_cards(s, s.active, want, ev);
  } else {
    const int got = income(p, c.card_income);
    p.credstick += got;
    emit(ev, "income",
         fmt::format("{} collects {}¥ (4 + Fame + card income) → {}¥", p.name, got, p.credstick));
  }
  for (std::size_t i = 0; i < p.runners.size();) {
    const int up = p.runners[i].card.upkeep;
    if (up <= 0) {
      ++i;
      continue;
    }
    if (p.credstick >= up) {
      p.credstick -= up;
      emit(ev, "upkeep",
           fmt::format("{} pays {}¥ upkeep for {} → {}¥", p.name, up, p.runners[i].card.name,
                       p.credstick));
      ++i;
    } else {
      kill_runner(s, Ref{s.active, static_cast<int>(i)}, ev,
                  fmt::format("its {}¥ upkeep cannot be paid from {}¥", up, p.credstick));
    }
  }
  for (Runner& r : p.runners) {
    for (std::size_t g = 0; g < r.gear.size();) {
      const int up = r.gear[g].card.upkeep;
      if (up <= 0) {
        ++g;
      } else if (p.credstick >= up) {
        p.credstick -= up;
        emit(ev, "upkeep",
             fmt::format("{} pays {}¥ upkeep for {}", p.name, up, r.gear[g].card.name));
        ++g;
      } else {
        emit(ev, "trashed",
             fmt::format("{}'s {} is trashed: its {}¥ upkeep cannot be paid", r.card.name,
                         r.gear[g].card.name, up));
        r.gear.erase(r.gear.begin() + static_cast<std::ptrdiff_t>(g));
        ++p.trash;
      }
    }
  }
  for (std::size_t i = 0; i < p.cards.size();) {
    const int up = p.cards[i].upkeep;
    if (up <= 0) {
      ++i;
    } else if (p.credstick >= up) {
      p.credstick -= up;
      emit(ev, "upkeep", fmt::format("{} pays {}¥ upkeep for {}", p.name, up, p.cards[i].name));
      ++i;
    } else {
      emit(ev, "trashed",
           fmt::format("{} is trashed: its {}¥ upkeep cannot be paid", p.cards[i].name, up));
      p.cards.erase(p.cards.begin() + static_cast<std::ptrdiff_t>(i));
      ++p.trash;
    }
  }
  s.paid = true;
}

/// Each team member of a combat, where it lives, and the weapon used.
struct Member {
  Combatant c;
  int runner = -1;  ///< index in the active player's runners
  int gear = -1;    ///< drone/spirit: its index in the runner's gear
  bool silent = false;
};

/// The best weapon a runner can use in this combat (one per combat); with `burst`, the best
/// one with Burst Fire.
int best_weapon(const Runner& r, bool burst, bool indirect_only) {
  int best = -1;
  for (std::size_t g = 0; g < r.gear.size(); ++g) {
    const GearCard& w = r.gear[g].card;
    if (w.type != GearType::Weapon) continue;
    if (burst && w.burst_cost < 0) continue;
    if (indirect_only && !w.indirect) continue;
    if (best < 0 || w.mod.attack > r.gear[static_cast<std::size_t>(best)].card.mod.attack) {
      best = static_cast<int>(g);
    }
  }
  return best;
}

/// The vehicle a runner takes (one per run; none against an Indoor opponent).
int best_vehicle(const Runner& r) {
  int best = -1;
  for (std::size_t g = 0; g < r.gear.size(); ++g) {
    if (r.gear[g].card.type != GearType::Vehicle) continue;
    if (best < 0 ||
        r.gear[g].card.mod.attack > r.gear[static_cast<std::size_t>(best)].card.mod.attack) {
      best = static_cast<int>(g);
    }
  }
  return best;
}

Combatant runner_combatant(const Runner& r, bool indoor, int weapon) {
  Combatant c;
  c.name = r.card.name;
  c.attack = r.card.threat.attack + r.card.mod.attack + r.pumps * r.card.pump.attack;
  c.body = r.card.threat.body + r.card.mod.body + r.pumps * r.card.pump.body;
  c.pump_body = r.pumps * r.card.pump.body;
  const int vehicle = indoor ? -1 : best_vehicle(r);
  for (std::size_t g = 0; g < r.gear.size(); ++g) {
    const GearCard& gc = r.gear[g].card;
    switch (gc.type) {
      case GearType::Drone:
      case GearType::Spirit:
      case GearType::Spell:
      case GearType::Program:
        continue;
      case GearType::Weapon:
        if (static_cast<int>(g) != weapon) continue;
        break;
      case GearType::Vehicle:
        if (static_cast<int>(g) != vehicle) continue;
        break;
      default:
        break;
    }
    c.attack += gc.mod.attack;
    c.body += gc.mod.body;
    c.armor_piercing = c.armor_piercing || (gc.type == GearType::Weapon && gc.armor_piercing);
    c.value += gc.cost;
  }
  c.armor = effective_armor(r, !indoor).value();
  c.damage = r.damage;
  c.stamina = r.card.traits.count("Stamina") != 0;
  c.guard = r.card.traits.count("Guard") != 0;
  c.armor_piercing = c.armor_piercing || r.card.armor_piercing;
  c.value += r.card.cost;
  return c;
}

std::vector<Member> build_team(const State& s, bool indoor,
                               const std::vector<std::string>& bursting) {
  std::vector<Member> out;
  const Player& p = s.players[static_cast<std::size_t>(s.active)];
  for (const std::string& name : s.run.team) {
    const int i = runner_index(p, name);
    if (i < 0) continue;
    const Runner& r = p.runners[static_cast<std::size_t>(i)];
    const bool bursts = std::any_of(bursting.begin(), bursting.end(),
                                    [&](const std::string& b) { return same_name(b, name); });
    int weapon = bursts ? best_weapon(r, true, false) : -1;
    if (weapon < 0) weapon = best_weapon(r, false, false);
    Member m;
    m.c = runner_combatant(r, indoor, weapon);
    m.runner = i;
    m.silent = weapon >= 0 && r.gear[static_cast<std::size_t>(weapon)].card.silenced;
    std::vector<Member> drones;
    for (std::size_t g = 0; g < r.gear.size(); ++g) {
      const HeldGear& h = r.gear[g];
      if (!h.active || !h.card.threat) continue;
      Member d;
      d.c.name = h.card.name;
      d.c.role = h.card.type == GearType::Spirit ? Role::Spirit : Role::Drone;
      d.c.attack = h.card.threat->attack + h.card.mod.attack;
      d.c.body = h.card.threat->body + h.card.mod.body;
      d.c.armor = h.card.armor.value();
      d.c.damage = h.damage;
      d.c.armor_piercing = h.card.armor_piercing;
      d.c.value = h.card.cost;
      d.runner = i;
      d.gear = static_cast<int>(g);
      drones.push_back(d);
    }
    if (!drones.empty()) m.c.role = Role::Controller;
    out.push_back(m);
    out.insert(out.end(), drones.begin(), drones.end());
  }
  for (const std::string& name : s.run.indirect) {
    const int i = runner_index(p, name);
    if (i < 0) continue;
    const Runner& r = p.runners[static_cast<std::size_t>(i)];
    const int w = best_weapon(r, false, true);
    if (w < 0) continue;
    Member m;
    m.c.name = r.card.name;
    m.c.role = Role::Indirect;
    m.c.attack = r.gear[static_cast<std::size_t>(w)].card.mod.attack;
    m.c.body = 1;
    m.c.armor_piercing = r.gear[static_cast<std::size_t>(w)].card.armor_piercing;
    m.runner = i;
    m.silent = r.gear[static_cast<std::size_t>(w)].card.silenced;
    out.push_back(m);
  }
  return out;
}

}  // namespace

std::vector<Combatant> run_combatants(const State& state, bool indoor) {
  std::vector<Combatant> out;
  if (!state.run.active || state.players.empty()) return out;
  for (const Member& m : build_team(state, indoor, {}))
    out.push_back(m.c);
  return out;
}

namespace {

// ---- Command handlers ----------------------------------------------------------------------

Result on(State& s, const AddPlayer& c, Events& ev) {
  if (s.phase != Phase::Setup) return reject("players join before the game starts");
  if (c.name.empty() || c.name.find(':') != std::string::npos) {
    return reject("a player needs a name without ':'");
  }
  if (player_index(s, c.name) >= 0) return reject(fmt::format("{} is already playing", c.name));
  if (static_cast<int>(s.players.size()) >= kMaxPlayers) {
    return reject(fmt::format("at most {} players", kMaxPlayers));
  }
  if (c.deck < kStartHand || c.deck > 500) return reject("a deck holds 7 to 500 cards");
  if (c.objectives < 0 || c.objectives > 100) return reject("0 to 100 Objectives");
  Player p;
  p.name = c.name;
  p.draw_pile = c.deck;
  p.objective_pile = c.objectives;
  s.players.push_back(p);
  emit(ev, "player",
       fmt::format("{} joins ({} cards, {} Objectives)", c.name, c.deck, c.objectives));
  return std::nullopt;
}

Result on(State& s, const Configure& c, Events& ev) {
  if (s.phase != Phase::Setup) return reject("settings are agreed before the game starts");
  if (c.goal < kMinGoal) {
    return reject(
        fmt::format("the Reputation goal is at least {} (so that two Objectives are "
                    "needed); 60–75 for 2 players, 75–100 for 3 or more",
                    kMinGoal));
  }
  if (c.goal > 10000) return reject("a Reputation goal up to 10000");
  s.settings.goal = c.goal;
  s.settings.reshuffle_mid_turn = c.reshuffle_mid_turn;
  emit(ev, "configured", fmt::format("Reputation goal {}", c.goal));
  return std::nullopt;
}

Result on(State& s, const StartGame& c, Events& ev) {
  if (s.phase != Phase::Setup) return reject("the game has already started");
  if (s.players.empty()) return reject("add the players first");
  const int first = player_index(s, c.first_player);
  if (first < 0) return reject(fmt::format("no player named '{}'", c.first_player));
  for (Player& p : s.players) {
    p.draw_pile -= kStartHand;
    p.hand = kStartHand;
    p.credstick = kStartNuyen;
  }
  emit(ev, "started", "Everyone draws 7 cards and starts with 4¥");
  start_turn(s, first, ev);
  s.opening = true;
  return std::nullopt;
}

Result on(State& s, const BadShuffle& c, Events& ev) {
  if (!s.opening) return reject("a Bad Shuffle is declared only at the start, before play");
  auto p = find_player(s, c.player);
  if (!p) return p.error();
  Player& pl = s.players[static_cast<std::size_t>(*p)];
  if (pl.bad_shuffled) return reject(fmt::format("{} has already taken a Bad Shuffle", pl.name));
  if (pl.draw_pile < kStartHand) return reject("not enough cards left to draw a new hand");
  pl.trash += pl.hand;
  pl.hand = kStartHand;
  pl.draw_pile -= kStartHand;
  pl.bad_shuffled = true;
  emit(ev, "bad_shuffle",
       fmt::format("{} shows a hand without a Challenge, trashes it and draws 7 new cards (which "
                   "must be kept)",
                   pl.name));
  return std::nullopt;
}

Result on(State& s, const NextPhase&, Events& ev) {
  Player& p = active_player(s);
  s.opening = false;
  switch (s.phase) {
    case Phase::Setup:
    case Phase::GameOver:
      return reject("start the game first");
    case Phase::Objective:
      if (p.objective && !p.objective->revealed && p.objective->placed_turn < s.turn) {
        return reject("reveal the Objective placed last turn first (reveal CARD)");
      }
      if (!p.objective && p.objective_pile > 0) {
        return reject("place the top Objective face down first (place)");
      }
      s.phase = Phase::Credstick;
      emit(ev, "phase", "Credstick phase: income (or draw to 7), then upkeep");
      return std::nullopt;
    case Phase::Credstick:
      if (!s.paid) payday(s, Payday{}, ev);
      s.phase = Phase::Refresh;
      for (Runner& r : p.runners) {
        r.turned = false;
        for (HeldGear& g : r.gear)
          g.turned = false;
      }
      emit(ev, "phase", "Refresh phase: everything unturns; draw 1; heal by turning");
      draw_cards(s, s.active, 1, ev);
      return std::nullopt;
    case Phase::Refresh:
      s.phase = Phase::Legwork;
      emit(ev, "phase", "Legwork phase");
      return std::nullopt;
    case Phase::Legwork:
      s.phase = Phase::Shadowrun;
      emit(ev, "phase", "Shadowrun phase: at most one run");
      return std::nullopt;
    case Phase::Shadowrun:
      if (s.run.active) return reject("the run is still on: finish it or pull out");
      s.phase = Phase::End;
      emit(ev, "phase", "End phase: last Stingers; trash down to 7 cards");
      return std::nullopt;
    case Phase::End: {
      if (p.hand > kHandLimit) {
        return reject(fmt::format("{} holds {} cards: trash {} first (discard {})", p.name, p.hand,
                                  p.hand - kHandLimit, p.hand - kHandLimit));
      }
      revert_pumps(s, ev);
      if (p.draw_pile == 0 && p.trash > 0) {
        p.draw_pile = p.trash;
        p.trash = 0;
        emit(ev, "reshuffled",
             fmt::format("{}'s draw pile is empty: the trash becomes a new draw pile", p.name));
      }
      start_turn(s, (s.active + 1) % static_cast<int>(s.players.size()), ev);
      return std::nullopt;
    }
  }
  return std::nullopt;
}

Result on(State& s, const PlaceObjective& c, Events& ev) {
  if (s.phase != Phase::Objective) return reject("Objectives are placed in the Objective phase");
  Player& p = active_player(s);
  if (p.objective) return reject("only one Objective in play at a time");
  if (p.objective_pile <= 0) return reject("the Objective pile is empty");
  Objective o;
  if (!c.card.empty()) {
    auto card = parse_objective(c.card);
    if (!card) return reject(card.error().message());
    o.card = *card;
  }
  o.placed_turn = s.turn;
  o.stacks.resize(s.players.size());
  p.objective = o;
  --p.objective_pile;
  emit(ev, "objective_placed",
       fmt::format("{} places an Objective face down (revealed next turn)", p.name));
  return std::nullopt;
}

Result on(State& s, const RevealObjective& c, Events& ev) {
  Player& p = active_player(s);
  if (!p.objective) return reject("no Objective in play");
  if (p.objective->revealed) return reject("the Objective is already revealed");
  if (p.objective->placed_turn >= s.turn) {
    return reject("an Objective is revealed at the start of its owner's next turn");
  }
  auto card = parse_objective(c.card);
  if (!card) return reject(card.error().message());
  p.objective->card = *card;
  p.objective->revealed = true;
  emit(ev, "objective_revealed", fmt::format("{}'s Objective: {}", p.name, to_notation(*card)));
  return std::nullopt;
}

Result on(State& s, const Payday& c, Events& ev) {
  if (s.phase != Phase::Credstick) return reject("income comes in the Credstick phase");
  if (s.paid) return reject("this turn's Credstick phase is done");
  if (c.card_income < 0 || c.card_income > 100) return reject("card income from 0 to 100");
  payday(s, c, ev);
  return std::nullopt;
}

Result on(State& s, const Heal& c, Events& ev) {
  if (s.phase != Phase::Refresh) return reject("runners heal in the Refresh phase");
  auto ref = own_runner(s, c.runner);
  if (!ref) return ref.error();
  Runner& r = at(s, *ref);
  if (r.turned) return reject(fmt::format("{} is turned", r.card.name));
  if (r.damage == 0) return reject(fmt::format("{} has no damage", r.card.name));
  if (r.repaired) {
    return reject(
        fmt::format("{} repaired its gear this turn: it cannot also heal itself", r.card.name));
  }
  r.turned = true;
  r.healed = true;
  emit(ev, "healed", fmt::format("{} turns and heals {} damage", r.card.name, r.damage));
  r.damage = 0;
  return std::nullopt;
}

Result on(State& s, const Repair& c, Events& ev) {
  if (s.phase != Phase::Refresh) return reject("gear is repaired in the Refresh phase");
  auto ref = own_runner(s, c.runner);
  if (!ref) return ref.error();
  Runner& r = at(s, *ref);
  auto g = find_gear(r, c.gear);
  if (!g) return g.error();
  HeldGear& h = r.gear[static_cast<std::size_t>(*g)];
  if (!h.card.threat) return reject(fmt::format("{} has no Threat Rating", h.card.name));
  if (h.damage == 0) return reject(fmt::format("{} has no damage", h.card.name));
  if (r.turned || h.turned) return reject("the runner and the gear must both be unturned");
  if (r.healed) {
    return reject(
        fmt::format("{} healed itself this turn: it cannot also repair its gear", r.card.name));
  }
  r.turned = true;
  h.turned = true;
  r.repaired = true;
  h.damage = 0;
  emit(ev, "repaired", fmt::format("{} turns to repair {}", r.card.name, h.card.name));
  return std::nullopt;
}

Result pay(Player& p, int cost, const std::string& what) {
  if (cost < 0) return reject("costs are not negative");
  if (p.credstick < cost) {
    return reject(fmt::format("{} costs {}¥; {} has {}¥", what, cost, p.name, p.credstick));
  }
  p.credstick -= cost;
  return std::nullopt;
}

Result need_hand(const Player& p) {
  if (p.hand <= 0) return reject(fmt::format("{} has no card in hand", p.name));
  return std::nullopt;
}

Result legwork(const State& s) {
  if (s.phase != Phase::Legwork) return reject("that is done in the Legwork phase");
  return std::nullopt;
}

Result on(State& s, const Deploy& c, Events& ev) {
  if (auto r = legwork(s)) return r;
  auto card = parse_runner(c.card);
  if (!card) return reject(card.error().message());
  if (card->name.empty()) return reject("a deployed runner needs a name (NAME: A/B …)");
  Player& p = active_player(s);
  if (auto r = need_hand(p)) return r;
  if (card->prime) {
    for (const Player& other : s.players) {
      for (const Runner& r : other.runners) {
        if (r.card.prime && same_name(r.card.name, card->name)) {
          return reject(fmt::format(
              "{} is a Prime Runner already in play ({}'s): wait until it is trashed or fragged",
              card->name, other.name));
        }
      }
    }
  }
  if (auto r = pay(p, card->cost, card->name)) return r;
  RunnerCard printed = *card;
  printed.damage = printed.pumped = printed.burst = 0;
  printed.protect = false;
  printed.role = Role::Runner;
  std::string name = printed.name;
  for (int k = 2; runner_index(p, name) >= 0; ++k)
    name = fmt::format("{} #{}", printed.name, k);
  printed.name = name;
  Runner r;
  r.card = printed;
  p.runners.push_back(r);
  --p.hand;
  emit(ev, "deployed",
       fmt::format("{} deploys {} for {}¥ → {}¥", p.name, name, card->cost, p.credstick));
  return std::nullopt;
}

Result on(State& s, const DeployCard& c, Events& ev) {
  if (auto r = legwork(s)) return r;
  if (c.kind != "location" && c.kind != "contact" && c.kind != "special") {
    return reject("a card kind: location, contact or special");
  }
  if (c.name.empty()) return reject("the card needs a name");
  if (c.upkeep < 0 || c.income < 0) return reject("upkeep and income are not negative");
  Player& p = active_player(s);
  if (auto r = need_hand(p)) return r;
  if (auto r = pay(p, c.cost, c.name)) return r;
  p.cards.push_back(SupportCard{c.name, c.kind, c.upkeep, c.income});
  --p.hand;
  emit(ev, "deployed", fmt::format("{} deploys the {} {} for {}¥", p.name, c.kind, c.name, c.cost));
  return std::nullopt;
}

Result on(State& s, const PlaySpecial& c, Events& ev) {
  auto pi = find_player(s, c.player);
  if (!pi) return pi.error();
  Player& p = s.players[static_cast<std::size_t>(*pi)];
  if (auto r = need_hand(p)) return r;
  if (auto r = pay(p, c.cost, c.name.empty() ? std::string("the card") : c.name)) return r;
  --p.hand;
  ++p.trash;
  emit(ev, "special",
       fmt::format("{} plays {} ({}¥): apply its text", p.name,
                   c.name.empty() ? std::string("a Special") : c.name, c.cost));
  return std::nullopt;
}

Result on(State& s, const PlayChallenge& c, Events& ev) {
  if (auto r = legwork(s)) return r;
  auto t = find_player(s, c.target);
  if (!t) return t.error();
  Player& owner = s.players[static_cast<std::size_t>(*t)];
  if (!owner.objective) return reject(fmt::format("{} has no Objective in play", owner.name));
  Player& p = active_player(s);
  if (auto r = need_hand(p)) return r;
  StackCard card;
  card.bluff = c.bluff;
  if (!c.card.empty() && !c.bluff) {
    auto parsed = parse_challenge(c.card);
    if (!parsed) return reject(parsed.error().message());
    card.card = *parsed;
  }
  auto& stacks = owner.objective->stacks;
  if (stacks.size() < s.players.size()) stacks.resize(s.players.size());
  auto& mine = stacks[static_cast<std::size_t>(s.active)];
  const int limit = challenge_limit(static_cast<int>(s.players.size()));
  if (static_cast<int>(mine.size()) >= limit) {
    return reject(fmt::format(
        "{} already has {} card{} on {}'s Objective: with {} players the limit is {} each "
        "(bluffs count)",
        p.name, mine.size(), mine.size() == 1 ? "" : "s", owner.name, s.players.size(), limit));
  }
  if (card.card) {
    if (auto r = pay(p, card.card->cost, "the Challenge")) return r;
  }
  mine.push_back(card);
  --p.hand;
  emit(ev, "challenge_played",
       fmt::format("{} plays a card on {}'s Objective ({} of {})", p.name, owner.name, mine.size(),
                   limit));
  return std::nullopt;
}

Result on(State& s, const AttachGear& c, Events& ev) {
  if (auto r = legwork(s)) return r;
  auto ref = own_runner(s, c.runner);
  if (!ref) return ref.error();
  auto gear = parse_gear(c.card);
  if (!gear) return reject(gear.error().message());
  if (gear->name.empty()) return reject("the gear needs a name (NAME: type …)");
  Player& p = active_player(s);
  Runner& r = at(s, *ref);
  if (r.turned)
    return reject(fmt::format("gear goes on unturned runners; {} is turned", r.card.name));
  if (auto why = gear_problem(r, *gear)) return reject(*why);
  if (auto rr = need_hand(p)) return rr;
  const int essence = essence_used(r) + (gear->type == GearType::Cyberware ? gear->essence : 0);
  if (essence > kMaxEssence && !c.confirm) {
    return reject(fmt::format(
        "{} would bring {}'s Essence to {} (> 6): the runner would die, trashed with all its "
        "gear — repeat with confirm to do it anyway",
        gear->name, r.card.name, essence));
  }
  if (auto rr = pay(p, gear->cost, gear->name)) return rr;
  std::string name = gear->name;
  for (int k = 2; gear_index(r, name) >= 0; ++k)
    name = fmt::format("{} #{}", gear->name, k);
  gear->name = name;
  r.gear.push_back(HeldGear{*gear, false, 0, false});
  --p.hand;
  emit(ev, "gear", fmt::format("{} gets {} ({}¥)", r.card.name, name, gear->cost));
  if (essence > kMaxEssence) {
    kill_runner(s, *ref, ev, fmt::format("Essence {} > 6", essence));
  }
  return std::nullopt;
}

Result on(State& s, const SwapGear& c, Events& ev) {
  if (auto r = legwork(s)) return r;
  auto from = own_runner(s, c.from);
  if (!from) return from.error();
  auto to = own_runner(s, c.to);
  if (!to) return to.error();
  if (from->index == to->index) return reject("swap between two different runners");
  Runner& a = at(s, *from);
  Runner& b = at(s, *to);
  auto g = find_gear(a, c.gear);
  if (!g) return g.error();
  const HeldGear h = a.gear[static_cast<std::size_t>(*g)];
  if (h.card.type == GearType::Cyberware) return reject("cyberware can never be moved");
  if (a.turned || b.turned) return reject("both runners must be unturned (they turn to swap)");
  if (auto why = gear_problem(b, h.card)) return reject(fmt::format("{}: {}", b.card.name, *why));
  a.gear.erase(a.gear.begin() + *g);
  b.gear.push_back(h);
  a.turned = b.turned = true;
  emit(ev, "swapped",
       fmt::format("{} passes {} to {} (both turn)", a.card.name, h.card.name, b.card.name));
  return std::nullopt;
}

Result on(State& s, const UseGear& c, Events& ev) {
  if (s.phase != Phase::Legwork && s.phase != Phase::Shadowrun) {
    return reject("Spells and Programs are used in the Legwork or Shadowrun phase");
  }
  auto ref = own_runner(s, c.runner);
  if (!ref) return ref.error();
  Runner& r = at(s, *ref);
  auto g = find_gear(r, c.gear);
  if (!g) return g.error();
  HeldGear& h = r.gear[static_cast<std::size_t>(*g)];
  const Ratings skills = effective_skills(r);
  if (h.card.type == GearType::Spell) {
    if (r.spells_used >= rating(skills, "Sorcery")) {
      return reject(fmt::format("{} has used {} Spell{} this turn: Sorcery {} allows no more",
                                r.card.name, r.spells_used, r.spells_used == 1 ? "" : "s",
                                rating(skills, "Sorcery")));
    }
  } else if (h.card.type == GearType::Program) {
    if (r.programs_used >= rating(skills, "Decking")) {
      return reject(fmt::format("{} has used {} Program{} this turn: Decking {} allows no more",
                                r.card.name, r.programs_used, r.programs_used == 1 ? "" : "s",
                                rating(skills, "Decking")));
    }
  } else {
    return reject("only Spells and Programs are used this way (other gear works by itself)");
  }
  if (h.turned) return reject(fmt::format("{} is used once per turn (it is turned)", h.card.name));
  h.turned = true;
  if (h.card.type == GearType::Spell)
    ++r.spells_used;
  else
    ++r.programs_used;
  emit(ev, "used",
       fmt::format("{} uses {} (the card turns): apply its text", r.card.name, h.card.name));
  return std::nullopt;
}

Result on(State& s, const Recon& c, Events& ev) {
  if (auto r = legwork(s)) return r;
  auto ref = own_runner(s, c.runner);
  if (!ref) return ref.error();
  Runner& r = at(s, *ref);
  const int n = rating(r.card.traits, "Recon");
  if (n == 0) return reject(fmt::format("{} has no Recon", r.card.name));
  if (r.recons_used >= n) {
    return reject(fmt::format("{} has Recon {}: {} look{} this turn, all used", r.card.name, n, n,
                              n == 1 ? "" : "s"));
  }
  if (r.recons_used == 0) {
    if (r.turned)
      return reject(fmt::format("{} must be unturned to Recon (it turns)", r.card.name));
    r.turned = true;
  }
  ++r.recons_used;
  emit(ev, "recon",
       fmt::format("{} looks at a Challenge card (Recon {} of {})", r.card.name, r.recons_used, n));
  return std::nullopt;
}

Result on(State& s, const PumpRunner& c, Events& ev) {
  auto ref = find_runner(s, c.runner);
  if (!ref) return ref.error();
  if (c.times < 1 || c.times > 50) return reject("pump 1 to 50 times");
  Runner& r = at(s, *ref);
  if (r.card.pump.cost <= 0) return reject(fmt::format("{} cannot be pumped", r.card.name));
  Player& owner = s.players[static_cast<std::size_t>(ref->player)];
  if (auto rr = pay(owner, r.card.pump.cost * c.times, fmt::format("{} pumps", c.times))) return rr;
  r.pumps += c.times;
  const int body = r.card.threat.body + r.card.mod.body + r.pumps * r.card.pump.body - r.damage;
  emit(ev, "pumped",
       fmt::format("{} pumps {} ×{} ({}¥): +{}/+{} until end of turn{}", owner.name, r.card.name,
                   c.times, r.card.pump.cost * c.times, r.pumps * r.card.pump.attack,
                   r.pumps * r.card.pump.body,
                   body <= 0 ? " — its Body is 0 or below: it dies after dealing its damage" : ""));
  return std::nullopt;
}

Result on(State& s, const PumpChallenge& c, Events& ev) {
  if (!s.run.active || s.run.step != RunStep::Face) return reject("no Challenge is being faced");
  if (c.times < 1 || c.times > 50) return reject("pump 1 to 50 times");
  auto* st = current_stack(s);
  if (st == nullptr || !st->back().card) return reject("no Challenge is being faced");
  StackCard& card = st->back();
  if (card.card->pump.cost <= 0)
    return reject(fmt::format("{} cannot be pumped", card_label(card)));
  Player& owner = s.players[static_cast<std::size_t>(current_stack_owner(s))];
  if (auto r = pay(owner, card.card->pump.cost * c.times, fmt::format("{} pumps", c.times))) {
    return r;
  }
  card.pumps += c.times;
  emit(ev, "pumped", fmt::format("{} pumps {} ×{}", owner.name, card_label(card), c.times));
  return std::nullopt;
}

Result on(State& s, const Biotech& c, Events& ev) {
  auto ref = find_runner(s, c.healer);
  if (!ref) return ref.error();
  Runner& healer = at(s, *ref);
  const int n = rating(healer.card.traits, "Biotech");
  if (n == 0) return reject(fmt::format("{} has no Biotech", healer.card.name));
  if (healer.biotech_used) return reject("Biotech is used once per turn");
  if (c.targets.empty()) return reject("name the runners to heal");
  if (static_cast<int>(c.targets.size()) > n) {
    return reject(
        fmt::format("Biotech {} heals at most {} runner{} at once", n, n, n == 1 ? "" : "s"));
  }
  const bool on_run = s.run.active && ref->player == s.active &&
                      std::any_of(s.run.team.begin(), s.run.team.end(), [&](const std::string& t) {
                        return same_name(t, healer.card.name);
                      });
  if (on_run && s.run.step != RunStep::Decide && s.run.step != RunStep::Objective) {
    return reject("on a run, Biotech is used only between Challenges");
  }
  if (!on_run && healer.turned) {
    return reject(fmt::format("{} must be unturned (it turns to use Biotech)", healer.card.name));
  }
  std::vector<int> idx;
  for (const std::string& t : c.targets) {
    const int i = runner_index(s.players[static_cast<std::size_t>(ref->player)], t);
    if (i < 0) {
      return reject(
          fmt::format("'{}' is not a runner of {} (Biotech heals runners, not drones or "
                      "spirits)",
                      t, s.players[static_cast<std::size_t>(ref->player)].name));
    }
    const Runner& r =
        s.players[static_cast<std::size_t>(ref->player)].runners[static_cast<std::size_t>(i)];
    if (has_keyword(r.card.keywords, "cyborg")) {
      return reject(fmt::format("{} is a Cyborg: Biotech cannot heal it", r.card.name));
    }
    if (r.card.threat.body + r.card.mod.body - r.damage < 1) {
      return reject(fmt::format("{} needs a Body of at least 1", r.card.name));
    }
    const bool present =
        on_run ? std::any_of(s.run.team.begin(), s.run.team.end(),
                             [&](const std::string& m) { return same_name(m, r.card.name); })
               : (!r.turned || i == ref->index);
    if (!present) {
      return reject(fmt::format("{} is not present ({})", r.card.name,
                                on_run ? "not on the run" : "turned, not in the safehouse"));
    }
    if (std::find(idx.begin(), idx.end(), i) != idx.end()) return reject("each runner once");
    idx.push_back(i);
  }
  if (!on_run) healer.turned = true;
  healer.biotech_used = true;
  std::vector<std::string> names;
  for (int i : idx) {
    Runner& r =
        s.players[static_cast<std::size_t>(ref->player)].runners[static_cast<std::size_t>(i)];
    r.damage = 0;
    names.push_back(r.card.name);
  }
  emit(ev, "biotech",
       fmt::format("{} heals {} fully{}", healer.card.name, fmt::join(names, " and "),
                   on_run ? "" : " (turns)"));
  return std::nullopt;
}

Result on(State& s, const Activate& c, Events& ev) {
  if (!s.run.active) return reject("drones and spirits are activated on a run");
  auto ref = own_runner(s, c.runner);
  if (!ref) return ref.error();
  Runner& r = at(s, *ref);
  if (std::none_of(s.run.team.begin(), s.run.team.end(),
                   [&](const std::string& t) { return same_name(t, r.card.name); })) {
    return reject(fmt::format("{} is not on the run", r.card.name));
  }
  auto g = find_gear(r, c.gear);
  if (!g) return g.error();
  HeldGear& h = r.gear[static_cast<std::size_t>(*g)];
  if (h.card.type != GearType::Drone && h.card.type != GearType::Spirit) {
    return reject(fmt::format("{} is not a drone or a spirit", h.card.name));
  }
  if (h.active || h.turned) return reject(fmt::format("{} is already turned", h.card.name));
  if (!h.card.threat) return reject(fmt::format("{} has no Threat Rating", h.card.name));
  const char* skill = h.card.type == GearType::Drone ? "Piloting" : "Conjure";
  const int limit = rating(effective_skills(r), skill);
  const int in_use =
      static_cast<int>(std::count_if(r.gear.begin(), r.gear.end(), [&](const HeldGear& x) {
        return x.active && x.card.type == h.card.type;
      }));
  if (in_use >= limit) {
    return reject(fmt::format("{} {} allows {} active {}{}", skill, limit, limit,
                              h.card.type == GearType::Drone ? "drone" : "spirit",
                              limit == 1 ? "" : "s"));
  }
  h.active = true;
  h.turned = true;
  emit(ev, "activated",
       fmt::format("{} activates {}: it fights as a runner; {} adds no Attack", r.card.name,
                   h.card.name, r.card.name));
  return std::nullopt;
}

bool opponents_defend(const State& s, const Objective& o) {
  for (std::size_t p = 0; p < o.stacks.size(); ++p) {
    if (static_cast<int>(p) != s.active && !o.stacks[p].empty()) return true;
  }
  return false;
}

Result on(State& s, const StartRun& c, Events& ev) {
  if (s.phase != Phase::Shadowrun) return reject("runs are made in the Shadowrun phase");
  if (s.run.active) return reject("a run is already on");
  if (s.ran) return reject("at most one shadowrun per turn");
  auto t = find_player(s, c.target);
  if (!t) return t.error();
  Player& owner = s.players[static_cast<std::size_t>(*t)];
  if (!owner.objective) return reject(fmt::format("{} has no Objective in play", owner.name));
  if (!owner.objective->revealed) return reject("only a revealed Objective can be run");
  if (c.team.empty()) return reject("choose at least one runner");
  if (static_cast<int>(c.team.size()) > kMaxTeam) {
    return reject("at most 6 runners go on a run (drones and spirits do not count)");
  }
  Player& p = active_player(s);
  std::vector<int> team;
  std::vector<int> indirect;
  const auto pick = [&](const std::string& name, std::vector<int>& into) -> Result {
    const int i = runner_index(p, name);
    if (i < 0) return reject(fmt::format("{} has no runner named '{}'", p.name, name));
    if (p.runners[static_cast<std::size_t>(i)].turned) {
      return reject(fmt::format("{} is turned: only unturned runners can go", name));
    }
    if (std::find(team.begin(), team.end(), i) != team.end() ||
        std::find(indirect.begin(), indirect.end(), i) != indirect.end()) {
      return reject(fmt::format("{} is named twice", name));
    }
    into.push_back(i);
    return std::nullopt;
  };
  for (const auto& n : c.team) {
    if (auto r = pick(n, team)) return r;
  }
  for (const auto& n : c.indirect) {
    if (auto r = pick(n, indirect)) return r;
    if (best_weapon(p.runners[static_cast<std::size_t>(indirect.back())], false, true) < 0) {
      return reject(fmt::format("{} holds no Indirect Fire weapon", n));
    }
  }
  s.ran = true;
  s.run = Run{};
  s.run.active = true;
  s.run.owner = *t;
  for (int i : team) {
    p.runners[static_cast<std::size_t>(i)].turned = true;
    s.run.team.push_back(p.runners[static_cast<std::size_t>(i)].card.name);
  }
  for (int i : indirect) {
    p.runners[static_cast<std::size_t>(i)].turned = true;
    s.run.indirect.push_back(p.runners[static_cast<std::size_t>(i)].card.name);
  }
  const int n = static_cast<int>(s.players.size());
  for (int k = 0; k < n; ++k) {
    const int pl = (*t + k) % n;
    if (pl != s.active) s.run.order.push_back(pl);
  }
  emit(ev, "run",
       fmt::format("{} runs on {}'s Objective with {}", p.name, owner.name,
                   fmt::join(s.run.team, ", ")));
  if (!opponents_defend(s, *owner.objective) && !owner.objective->intercepted) {
    emit(ev, "undefended",
         "No opponent's Challenge guards it: the owner, then the others clockwise, may intercept");
  }
  advance(s, ev);
  return std::nullopt;
}

Result on(State& s, const StackOrder& c, Events& ev) {
  if (!s.run.active || s.run.faced > 0) {
    return reject("the stack order is chosen before the first Challenge is faced");
  }
  std::vector<int> order;
  for (const auto& name : c.players) {
    const int pl = player_index(s, name);
    if (pl < 0) return reject(fmt::format("no player named '{}'", name));
    if (std::find(s.run.order.begin(), s.run.order.end(), pl) == s.run.order.end()) {
      return reject(fmt::format("{}'s stack is not faced on this run", name));
    }
    if (std::find(order.begin(), order.end(), pl) != order.end()) {
      return reject(fmt::format("{} is named twice", name));
    }
    order.push_back(pl);
  }
  if (order.size() != s.run.order.size()) {
    return reject(fmt::format("name all {} stacks in order", s.run.order.size()));
  }
  s.run.order = order;
  s.run.stack = 0;
  std::vector<std::string> names;
  for (int pl : order)
    names.push_back(s.players[static_cast<std::size_t>(pl)].name);
  emit(ev, "stack_order", fmt::format("Stacks faced in this order: {}", fmt::join(names, ", ")));
  advance(s, ev);
  return std::nullopt;
}

Result on(State& s, const Reveal& c, Events& ev) {
  if (!s.run.active || s.run.step != RunStep::Reveal) return reject("no unseen card is reached");
  auto* st = current_stack(s);
  if (st == nullptr) return reject("no unseen card is reached");
  if (c.bluff) {
    st->back().bluff = true;
  } else {
    auto card = parse_challenge(c.card);
    if (!card) return reject(card.error().message());
    st->back().card = *card;
  }
  advance(s, ev);
  return std::nullopt;
}

Ratings team_ratings(const State& s, std::vector<bool>* anti) {
  Ratings total;
  const Player& p = s.players[static_cast<std::size_t>(s.active)];
  for (const std::string& n : s.run.team) {
    const int i = runner_index(p, n);
    if (i < 0) continue;
    const Runner& r = p.runners[static_cast<std::size_t>(i)];
    for (const auto& [skill, v] : effective_skills(r))
      total[skill] += v;
    if (anti != nullptr) anti->push_back(r.card.traits.count("Anti-social") != 0);
  }
  return total;
}

Result on(State& s, const Sleaze&, Events& ev) {
  if (!s.run.active || s.run.step != RunStep::Face) return reject("no Challenge is being faced");
  auto* st = current_stack(s);
  const ChallengeCard& card = *st->back().card;
  if (s.run.alarm) return reject("the alarm is on: no more sleazing this run");
  if (card.sleaze.empty())
    return reject(fmt::format("{} cannot be sleazed", card_label(st->back())));
  std::vector<bool> anti;
  const Ratings team = team_ratings(s, &anti);
  const SleazeCheck check = sleaze_check({team}, anti, card.sleaze);
  std::vector<std::string> lines;
  for (const SleazeLine& l : check.lines) {
    lines.push_back(l.anti_social ? fmt::format("{} fails (Anti-social)", l.skill)
                                  : fmt::format("{} {}/{}", l.skill, l.have, l.need));
  }
  ++s.run.faced;
  if (check.met) {
    emit(ev, "sleazed",
         fmt::format("{} is sleazed ({}): trashed; continue or pull out", card_label(st->back()),
                     fmt::join(lines, ", ")));
    trash_current(s);
    s.run.step = RunStep::Decide;
    return std::nullopt;
  }
  s.run.alarm = true;
  emit(ev, "alarm",
       fmt::format("Sleaze failed ({}): the alarm is on for the rest of the run",
                   fmt::join(lines, ", ")));
  if (!card.threat) {
    if (card.ends_run) {
      end_run(s, ev,
              fmt::format("{} ends the run; it goes back face down", card_label(st->back())));
    } else {
      emit(ev, "text", "It has no Threat Rating: follow its text (beat or stopped)");
    }
  } else {
    emit(ev, "combat", "Fight it");
  }
  return std::nullopt;
}

std::string member_name(const Member& m) {
  return m.c.name;
}

/// Applies the damage of a split to the team (tokens, deaths).
void apply_split(State& s, const std::vector<Member>& members, const Split& split, Events& ev) {
  // Names first: deaths change indices.
  std::vector<std::string> dead_runners;
  Player& p = active_player(s);
  for (std::size_t k = 0; k < members.size(); ++k) {
    const Member& m = members[k];
    Runner& r = p.runners[static_cast<std::size_t>(m.runner)];
    if (m.gear >= 0) {
      HeldGear& h = r.gear[static_cast<std::size_t>(m.gear)];
      h.damage += split.taken[k];
      if (split.taken[k] > 0 || split.raw[k] > 0) {
        emit(ev, "damage",
             fmt::format("{} takes {} ({} given)", h.card.name, split.taken[k], split.raw[k]));
      }
    } else if (m.c.role != Role::Indirect) {
      r.damage += split.taken[k];
      if (split.taken[k] > 0 || split.raw[k] > 0) {
        emit(ev, "damage",
             fmt::format("{} takes {} ({} given)", r.card.name, split.taken[k], split.raw[k]));
      }
      if (split.dies_end_of_turn[k]) {
        emit(ev, "doomed",
             fmt::format("{} lives only thanks to its pump: it dies at end of turn", r.card.name));
      }
    }
  }
  // Drones and spirits that die are trashed (their runner keeps the others).
  for (std::size_t k = members.size(); k-- > 0;) {
    const Member& m = members[k];
    if (m.gear < 0 || !split.dies[k]) continue;
    Runner& r = p.runners[static_cast<std::size_t>(m.runner)];
    emit(ev, "died",
         fmt::format("{} is destroyed", r.gear[static_cast<std::size_t>(m.gear)].card.name));
    r.gear.erase(r.gear.begin() + m.gear);
    ++p.trash;
  }
  for (std::size_t k = 0; k < members.size(); ++k) {
    if (members[k].gear < 0 && members[k].c.role != Role::Indirect && split.dies[k]) {
      dead_runners.push_back(member_name(members[k]));
    }
  }
  for (const std::string& n : dead_runners) {
    const int i = runner_index(active_player(s), n);
    if (i >= 0) kill_runner(s, Ref{s.active, i}, ev, "its damage reaches its Body");
  }
}

Result on(State& s, const Fight& c, Events& ev) {
  if (!s.run.active) return reject("there is no run");
  const bool vs_objective = s.run.step == RunStep::Objective;
  if (!vs_objective && s.run.step != RunStep::Face) return reject("nothing to fight now");
  Opponent opp;
  bool indoor = false;
  StackCard* card = nullptr;
  Objective* obj = run_objective(s);
  if (vs_objective) {
    if (obj == nullptr || !obj->card || !obj->card->threat) {
      return reject("the Objective has no Threat Rating to fight");
    }
    if (s.run.objective_beaten) return reject("the Objective's threat is already beaten");
    opp = *opponent_from(*obj->card);
    indoor = has_keyword(obj->card->keywords, "indoor");
  } else {
    card = &current_stack(s)->back();
    if (!card->card->threat) {
      return reject(fmt::format("{} has no Threat Rating: beat it or be stopped by its text",
                                card_label(*card)));
    }
    if (!card->card->sleaze.empty() && !s.run.alarm) {
      return reject("try to sleaze it first (sleaze): a failed sleaze triggers the alarm");
    }
    ChallengeCard pumped = *card->card;
    pumped.pumped += card->pumps;
    opp = *opponent_from(pumped);
    indoor = has_keyword(card->card->keywords, "indoor");
  }
  // Burst Fire: pay and add the die to the runner's Attack (once per weapon per combat).
  std::vector<std::string> bursting;
  for (const BurstRoll& b : c.bursts) {
    if (b.roll < 1 || b.roll > 6) return reject("a Burst Fire roll is a D6: 1 to 6");
    if (std::any_of(bursting.begin(), bursting.end(),
                    [&](const std::string& n) { return same_name(n, b.runner); })) {
      return reject(fmt::format("{} uses one weapon per combat: one Burst Fire", b.runner));
    }
    bursting.push_back(b.runner);
  }
  std::vector<Member> members = build_team(s, indoor, bursting);
  int burst_cost = 0;
  for (const BurstRoll& b : c.bursts) {
    const auto it = std::find_if(members.begin(), members.end(), [&](const Member& m) {
      return m.gear < 0 && m.c.role != Role::Indirect && same_name(m.c.name, b.runner);
    });
    if (it == members.end()) return reject(fmt::format("{} is not on the run", b.runner));
    const Runner& r = active_player(s).runners[static_cast<std::size_t>(it->runner)];
    const int w = best_weapon(r, true, false);
    if (w < 0) return reject(fmt::format("{} holds no Burst Fire weapon", r.card.name));
    burst_cost += r.gear[static_cast<std::size_t>(w)].card.burst_cost;
    it->c.attack += b.roll;
  }
  if (auto r = pay(active_player(s), burst_cost, "Burst Fire")) return r;
  std::vector<Combatant> team;
  for (const Member& m : members)
    team.push_back(m.c);
  const TeamDamage td = team_damage(team, opp);
  Split split;
  if (c.split.empty()) {
    split = suggest_split(team, opp.attack, opp.armor_piercing);
  } else {
    std::vector<int> raw(team.size(), 0);
    for (const SplitEntry& e : c.split) {
      const auto it = std::find_if(members.begin(), members.end(),
                                   [&](const Member& m) { return same_name(m.c.name, e.target); });
      if (it == members.end()) return reject(fmt::format("'{}' is not on the run", e.target));
      raw[static_cast<std::size_t>(it - members.begin())] += e.points;
    }
    auto checked = check_split(team, opp.attack, opp.armor_piercing, raw);
    if (!checked) return reject(checked.error());
    split = *checked;
  }
  ++s.run.faced;
  const std::string who = vs_objective ? obj->card->name : card_label(*card);
  emit(ev, "combat",
       fmt::format("Team damage {} against Body {} ({}): {}; it deals {} to the team", td.total,
                   opp.body, who, td.defeated ? "beaten" : "not beaten", opp.attack));
  bool silent = s.run.alarm;
  for (std::size_t k = 0; k < members.size(); ++k) {
    if (td.dealt[k] > 0 && !members[k].silent) silent = false;
  }
  apply_split(s, members, split, ev);  // may end the run: no runner left
  if (vs_objective) {
    if (td.defeated && s.run.active) {
      s.run.objective_beaten = true;
      emit(ev, "beaten", "The Objective's threat is beaten: take it");
    } else if (s.run.active) {
      end_run(s, ev, "the Objective's threat is not beaten");
    }
    return std::nullopt;
  }
  if (td.defeated) {
    emit(ev, "defeated", fmt::format("{} is defeated and trashed", who));
    trash_current(s);
    if (s.run.active) {
      s.run.step = RunStep::Decide;
      if (silent) {
        s.run.alarm = false;
        emit(ev, "alarm_reset", "Beaten with Silenced weapons only: the alarm resets");
      }
      emit(ev, "decide", "Continue or pull out");
    }
  } else if (s.run.active) {
    end_run(s, ev,
            fmt::format("{} is not defeated: it goes back face down, at full strength", who));
  }
  return std::nullopt;
}

Result on(State& s, const Beat&, Events& ev) {
  if (!s.run.active || s.run.step != RunStep::Face) return reject("no Challenge is being faced");
  StackCard& card = current_stack(s)->back();
  if (card.card->threat) return reject("it has a Threat Rating: fight it");
  if (!card.card->sleaze.empty() && !s.run.alarm) return reject("try to sleaze it first");
  ++s.run.faced;
  emit(ev, "defeated", fmt::format("{} is dealt with and trashed", card_label(card)));
  trash_current(s);
  s.run.step = RunStep::Decide;
  return std::nullopt;
}

Result on(State& s, const Stopped&, Events& ev) {
  if (!s.run.active || s.run.step != RunStep::Face) return reject("no Challenge is being faced");
  StackCard& card = current_stack(s)->back();
  ++s.run.faced;
  end_run(s, ev, fmt::format("{} stops the team; it goes back face down", card_label(card)));
  return std::nullopt;
}

Result on(State& s, const Continue&, Events& ev) {
  if (!s.run.active || s.run.step != RunStep::Decide) {
    return reject("continue after a Challenge is passed");
  }
  advance(s, ev);
  return std::nullopt;
}

Result on(State& s, const PullOut&, Events& ev) {
  if (!s.run.active) return reject("there is no run");
  if (s.run.step != RunStep::Decide && s.run.step != RunStep::Objective) {
    return reject("the team pulls out between Challenges (not while one is being faced)");
  }
  end_run(s, ev, "the team pulls out");
  return std::nullopt;
}

Result on(State& s, const TakeObjective&, Events& ev) {
  if (!s.run.active || s.run.step != RunStep::Objective) {
    return reject("every Challenge must be passed first");
  }
  Objective* o = run_objective(s);
  if (o == nullptr || !o->card) return reject("the Objective is not known");
  if (o->card->threat && !s.run.objective_beaten)
    return reject("beat the Objective's threat first");
  if (s.run.team.empty()) return reject("at least one runner must be alive to take it");
  const Ratings team = team_ratings(s, nullptr);
  std::vector<std::string> missing;
  for (const auto& [skill, need] : o->card->requirements) {
    if (rating(team, skill) < need) {
      missing.push_back(fmt::format("{} {}/{}", skill, rating(team, skill), need));
    }
  }
  if (!missing.empty()) {
    end_run(s, ev,
            fmt::format("the requirements are not met ({}): the Objective stays face up",
                        fmt::join(missing, ", ")));
    return std::nullopt;
  }
  const ObjectiveCard card = *o->card;
  Player& owner = s.players[static_cast<std::size_t>(s.run.owner)];
  // What is left on it (the runner's own stack, skipped) goes to its players' trash.
  int left_on = 0;
  for (std::size_t pl = 0; pl < o->stacks.size() && pl < s.players.size(); ++pl) {
    left_on += static_cast<int>(o->stacks[pl].size());
    s.players[pl].trash += static_cast<int>(o->stacks[pl].size());
  }
  owner.objective.reset();
  ++active_player(s).objectives_taken;
  emit(ev, "taken",
       fmt::format("{} takes {} ({} Reputation){}", active_player(s).name, card.name, card.rep,
                   left_on > 0 ? fmt::format("; {} card{} left on it are trashed", left_on,
                                             left_on == 1 ? "" : "s")
                               : std::string()));
  end_run(s, ev, "the Objective is taken");
  change_rep(s, s.active, card.rep, ev, card.name);
  return std::nullopt;
}

Result on(State& s, const Intercept& c, Events& ev) {
  if (!s.run.active || s.run.faced > 0) return reject("interception happens as the run starts");
  Objective* o = run_objective(s);
  if (o == nullptr) return reject("there is no Objective");
  if (opponents_defend(s, *o)) {
    return reject("only a run on an undefended Objective (no opponent's Challenge) is intercepted");
  }
  if (o->intercepted) return reject("a run on this Objective has already been intercepted");
  auto pi = find_player(s, c.player);
  if (!pi) return pi.error();
  if (*pi == s.active) return reject("the running player cannot intercept their own run");
  Player& interceptor = s.players[static_cast<std::size_t>(*pi)];
  if (c.runners.empty()) return reject("name the intercepting runners");
  std::vector<int> ai;
  for (const auto& n : c.runners) {
    const int i = runner_index(interceptor, n);
    if (i < 0) return reject(fmt::format("{} has no runner named '{}'", interceptor.name, n));
    if (interceptor.runners[static_cast<std::size_t>(i)].turned) {
      return reject(fmt::format("{} is turned: only unturned runners intercept", n));
    }
    if (std::find(ai.begin(), ai.end(), i) != ai.end()) return reject(fmt::format("{} twice", n));
    ai.push_back(i);
  }
  Player& runner_player = active_player(s);
  std::vector<int> di;
  for (const auto& n : s.run.team)
    di.push_back(runner_index(runner_player, n));
  const int na = static_cast<int>(ai.size());
  const int nd = static_cast<int>(di.size());
  std::vector<int> opponent_of;
  if (c.targets.empty()) {
    for (int k = 0; k < na; ++k)
      opponent_of.push_back(na >= nd ? k % nd : k);
  } else {
    if (static_cast<int>(c.targets.size()) != na)
      return reject("one target per intercepting runner");
    for (const auto& t : c.targets) {
      const auto it = std::find_if(s.run.team.begin(), s.run.team.end(),
                                   [&](const std::string& m) { return same_name(m, t); });
      if (it == s.run.team.end()) return reject(fmt::format("'{}' is not on the run", t));
      opponent_of.push_back(static_cast<int>(it - s.run.team.begin()));
    }
  }
  std::vector<int> extra_fight;
  if (na < nd) {
    std::vector<bool> picked(static_cast<std::size_t>(nd), false);
    for (int d : opponent_of) {
      if (d >= 0 && d < nd) picked[static_cast<std::size_t>(d)] = true;
    }
    std::size_t e = 0;
    for (int d = 0; d < nd; ++d) {
      if (picked[static_cast<std::size_t>(d)]) continue;
      if (c.extras.empty()) {
        extra_fight.push_back(static_cast<int>(e++) % na);
        continue;
      }
      if (e >= c.extras.size()) return reject("place each extra team runner (extras)");
      const std::string& who = c.extras[e++];
      const auto it = std::find_if(c.runners.begin(), c.runners.end(),
                                   [&](const std::string& m) { return same_name(m, who); });
      if (it == c.runners.end()) return reject(fmt::format("'{}' is not intercepting", who));
      extra_fight.push_back(static_cast<int>(it - c.runners.begin()));
    }
  }
  auto bouts = pair_up(na, nd, opponent_of, extra_fight);
  if (!bouts) return reject(bouts.error());
  std::vector<Combatant> side_a;
  std::vector<Combatant> side_b;
  for (int i : ai) {
    const Runner& r = interceptor.runners[static_cast<std::size_t>(i)];
    side_a.push_back(runner_combatant(r, false, best_weapon(r, false, false)));
  }
  for (int i : di) {
    const Runner& r = runner_player.runners[static_cast<std::size_t>(i)];
    side_b.push_back(runner_combatant(r, false, best_weapon(r, false, false)));
  }
  auto fight = resolve_fights(side_a, side_b, *bouts);
  if (!fight) return reject(fight.error());
  o->intercepted = true;
  emit(ev, "intercepted",
       fmt::format("{} intercepts with {}", interceptor.name, fmt::join(c.runners, ", ")));
  std::vector<std::string> dead_a;
  std::vector<std::string> dead_b;
  for (std::size_t k = 0; k < ai.size(); ++k) {
    Runner& r = interceptor.runners[static_cast<std::size_t>(ai[k])];
    r.turned = true;
    r.damage += fight->taken_a[k];
    if (fight->taken_a[k] > 0)
      emit(ev, "damage", fmt::format("{} takes {}", r.card.name, fight->taken_a[k]));
    if (fight->dead_a[k]) dead_a.push_back(r.card.name);
  }
  for (std::size_t k = 0; k < di.size(); ++k) {
    Runner& r = runner_player.runners[static_cast<std::size_t>(di[k])];
    r.damage += fight->taken_b[k];
    if (fight->taken_b[k] > 0)
      emit(ev, "damage", fmt::format("{} takes {}", r.card.name, fight->taken_b[k]));
    if (fight->dead_b[k]) dead_b.push_back(r.card.name);
  }
  const int ip = *pi;
  for (const auto& n : dead_a) {
    const int i = runner_index(s.players[static_cast<std::size_t>(ip)], n);
    if (i >= 0) kill_runner(s, Ref{ip, i}, ev, "defeated in the interception");
  }
  for (const auto& n : dead_b) {
    const int i = runner_index(active_player(s), n);
    if (i >= 0) kill_runner(s, Ref{s.active, i}, ev, "defeated in the interception");
  }
  if (s.run.active) end_run(s, ev, "intercepted: the team pulls out");
  return std::nullopt;
}

Result on(State& s, const Damage& c, Events& ev) {
  auto ref = find_runner(s, c.runner);
  if (!ref) return ref.error();
  if (c.amount < 0 || c.amount > 999) return reject("damage from 0 to 999");
  Player& p = s.players[static_cast<std::size_t>(ref->player)];
  std::vector<Combatant> team;
  for (const Runner& r : p.runners)
    team.push_back(runner_combatant(r, false, -1));
  int guard = -1;
  if (!c.guard.empty()) {
    guard = runner_index(p, c.guard);
    if (guard < 0) return reject(fmt::format("{} has no runner named '{}'", p.name, c.guard));
    Runner& g = p.runners[static_cast<std::size_t>(guard)];
    const bool on_run =
        s.run.active && ref->player == s.active &&
        std::any_of(s.run.team.begin(), s.run.team.end(),
                    [&](const std::string& t) { return same_name(t, g.card.name); });
    if (!on_run && g.turned) {
      return reject(fmt::format("{} must be unturned to Guard (off a run it turns)", g.card.name));
    }
  }
  auto split = targeted_split(team, ref->index, c.amount, c.armor_piercing, guard, c.guard_takes);
  if (!split) return reject(split.error());
  if (guard >= 0) {
    Runner& g = p.runners[static_cast<std::size_t>(guard)];
    const bool on_run =
        s.run.active && ref->player == s.active &&
        std::any_of(s.run.team.begin(), s.run.team.end(),
                    [&](const std::string& t) { return same_name(t, g.card.name); });
    if (!on_run) g.turned = true;
  }
  std::vector<std::string> dead;
  for (std::size_t k = 0; k < team.size(); ++k) {
    if (split->raw[k] == 0) continue;
    p.runners[k].damage += split->taken[k];
    emit(ev, "damage", fmt::format("{} takes {}", p.runners[k].card.name, split->taken[k]));
    if (split->dies[k]) dead.push_back(p.runners[k].card.name);
  }
  const int pi = ref->player;
  for (const auto& n : dead) {
    const int i = runner_index(s.players[static_cast<std::size_t>(pi)], n);
    if (i >= 0) kill_runner(s, Ref{pi, i}, ev, "its damage reaches its Body");
  }
  return std::nullopt;
}

Result on(State& s, const Kill& c, Events& ev) {
  auto ref = find_runner(s, c.runner);
  if (!ref) return ref.error();
  kill_runner(s, *ref, ev, "card text", c.frag);
  return std::nullopt;
}

Result on(State& s, const TrashGear& c, Events& ev) {
  auto ref = find_runner(s, c.runner);
  if (!ref) return ref.error();
  Runner& r = at(s, *ref);
  auto g = find_gear(r, c.gear);
  if (!g) return g.error();
  emit(ev, "trashed",
       fmt::format("{}'s {} is trashed", r.card.name,
                   r.gear[static_cast<std::size_t>(*g)].card.name));
  r.gear.erase(r.gear.begin() + *g);
  ++s.players[static_cast<std::size_t>(ref->player)].trash;
  return std::nullopt;
}

Result on(State& s, const Draw& c, Events& ev) {
  auto p = find_player(s, c.player);
  if (!p) return p.error();
  if (c.count < 1 || c.count > 100) return reject("draw 1 to 100 cards");
  draw_cards(s, *p, c.count, ev);
  return std::nullopt;
}

Result on(State& s, const Discard& c, Events& ev) {
  auto pi = find_player(s, c.player);
  if (!pi) return pi.error();
  Player& p = s.players[static_cast<std::size_t>(*pi)];
  if (c.count < 1) return reject("trash at least 1 card");
  if (c.count > p.hand) return reject(fmt::format("{} holds only {} cards", p.name, p.hand));
  p.hand -= c.count;
  p.trash += c.count;
  emit(ev, "discarded",
       fmt::format("{} trashes {} card{} from hand (hand {})", p.name, c.count,
                   c.count == 1 ? "" : "s", p.hand));
  return std::nullopt;
}

Result on(State& s, const Nuyen& c, Events& ev) {
  auto pi = find_player(s, c.player);
  if (!pi) return pi.error();
  Player& p = s.players[static_cast<std::size_t>(*pi)];
  if (p.credstick + c.delta < 0) {
    return reject(fmt::format("{} has {}¥: cannot pay {}¥", p.name, p.credstick, -c.delta));
  }
  if (c.delta > 10000) return reject("at most 10000¥ at once");
  p.credstick += c.delta;
  emit(ev, "nuyen",
       fmt::format("{} {} {}¥ → {}¥", p.name, c.delta >= 0 ? "gains" : "pays", std::abs(c.delta),
                   p.credstick));
  return std::nullopt;
}

Result on(State& s, const Reputation& c, Events& ev) {
  auto pi = find_player(s, c.player);
  if (!pi) return pi.error();
  if (std::abs(c.delta) > 10000) return reject("a change of at most 10000");
  change_rep(s, *pi, c.delta, ev, "card text");
  return std::nullopt;
}

Result on(State& s, const Override& c, Events& ev) {
  auto next = override_field(s, c.path, c.value);
  if (!next) return reject(next.error());
  s = std::move(*next);
  emit(ev, "override", fmt::format("{} set to {} (manual override)", c.path, c.value.dump()));
  return std::nullopt;
}

/// Commands that need a started game.
template <class T>
constexpr bool needs_game() {
  return !std::is_same_v<T, AddPlayer> && !std::is_same_v<T, Configure> &&
         !std::is_same_v<T, StartGame> && !std::is_same_v<T, Override>;
}

}  // namespace

Expected<Applied, Rejection> apply(const State& state, const Command& command) {
  // Whatever is accepted is journaled as JSON: text that JSON cannot hold is refused here.
  try {
    (void)nlohmann::json(command).dump();
  } catch (const nlohmann::json::exception&) {
    return Rejection{"names and card text must be valid UTF-8"};
  }
  Applied out{state, {}};
  State& s = out.state;
  const Result result = std::visit(
      [&](const auto& c) -> Result {
        using T = std::decay_t<decltype(c)>;
        if constexpr (needs_game<T>()) {
          if (s.phase == Phase::Setup) return reject("start the game first");
          if (s.phase == Phase::GameOver) {
            return reject(s.winner >= 0
                              ? fmt::format("the game is over: {} won",
                                            s.players[static_cast<std::size_t>(s.winner)].name)
                              : std::string("the game is over"));
          }
        }
        return on(s, c, out.events);
      },
      command);
  if (result) return *result;
  return out;
}

DUELS_CARDS_RULES_DEFINE(State, Command, Rejection, srtcg)

}  // namespace duels::cards::srtcg
