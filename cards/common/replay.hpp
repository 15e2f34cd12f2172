#pragma once
/// @file What every card game's rules offer beside apply(): a whole command list replayed from a
/// start, stopping at the first refusal. One template for Encounters, Crossfire and SRTCG.

#include <cstddef>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace duels::cards {

/// The state after a command and what happened.
template <class State, class Event>
struct Applied {
  State state;
  std::vector<Event> events;
};

/// Declares a card game's rules entry points, in its namespace (its rules.hpp):
///   apply(state, command): the new state and what happened, or a Rejection saying why not; it
///       never mutates its input and never throws for a game reason. Call it qualified
///       (`srtcg::apply(s, c)`): unqualified, argument-dependent lookup also finds std::apply
///       through the std::variant and libstdc++ then fails to compile;
///   why_illegal(state, command): nullopt when the command is legal now, else why not;
///   legal(state, command): true when it is legal now;
///   replay(start, commands): the commands replayed from `start`, stopping at the first
///       rejection (returned with its index).
/// DUELS_CARDS_RULES_DEFINE defines the last three from apply.
#define DUELS_CARDS_RULES_DECLARE(State, Command, Event, Rejection)                 \
  using Applied = ::duels::cards::Applied<State, Event>;                            \
  Expected<Applied, Rejection> apply(const State& state, const Command& command);   \
  std::optional<Rejection> why_illegal(const State& state, const Command& command); \
  bool legal(const State& state, const Command& command);                           \
  using Replay = ::duels::cards::Replay<State, Event, Rejection>;                   \
  Replay replay(const State& start, const std::vector<Command>& commands);

/// Defines why_illegal, legal and replay through the game's `ns::apply` (its rules.cpp).
#define DUELS_CARDS_RULES_DEFINE(State, Command, Rejection, ns)                             \
  std::optional<Rejection> why_illegal(const State& state, const Command& command) {        \
    auto r = ns::apply(state, command);                                                     \
    if (r) return std::nullopt;                                                             \
    return r.error();                                                                       \
  }                                                                                         \
  bool legal(const State& state, const Command& command) {                                  \
    return ns::apply(state, command).has_value();                                           \
  }                                                                                         \
  Replay replay(const State& start, const std::vector<Command>& commands) {                 \
    return ::duels::cards::replay_commands<Replay>(                                         \
        start, commands, [](const State& s, const Command& c) { return ns::apply(s, c); }); \
  }

/// A command list replayed: the state reached, every event, and where (and why) it stopped
/// when a command was refused.
template <class State, class Event, class Rejection>
struct Replay {
  State state;
  std::vector<Event> events;
  std::optional<std::size_t> rejected_at;
  std::optional<Rejection> rejection;
};

/// Adds what happened (a short code and the words) to a game's events; the game's Event has
/// `type` and `text`.
template <class Event>
void emit(std::vector<Event>& events, std::string type, std::string text) {
  events.push_back(Event{std::move(type), std::move(text)});
}

/// Replays `commands` from `start` through `apply(state, command)` (which returns the new state
/// and its events, or a rejection).
template <class ReplayT, class Command, class Apply>
ReplayT replay_commands(const decltype(ReplayT::state)& start, const std::vector<Command>& commands,
                        Apply apply) {
  ReplayT out{start, {}, std::nullopt, std::nullopt};
  for (std::size_t i = 0; i < commands.size(); ++i) {
    auto r = apply(out.state, commands[i]);
    if (!r) {
      out.rejected_at = i;
      out.rejection = r.error();
      return out;
    }
    out.state = std::move(r->state);
    for (auto& e : r->events)
      out.events.push_back(std::move(e));
  }
  return out;
}

}  // namespace duels::cards
