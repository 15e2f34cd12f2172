#pragma once
/// @file What every card game's rules offer beside apply(): a whole command list replayed from a
/// start, stopping at the first refusal. One template for Encounters, Crossfire and SRTCG.

#include <cstddef>
#include <optional>
#include <utility>
#include <vector>

namespace duels::cards {

/// A command list replayed: the state reached, every event, and where (and why) it stopped
/// when a command was refused.
template <class State, class Event, class Rejection>
struct Replay {
  State state;
  std::vector<Event> events;
  std::optional<std::size_t> rejected_at;
  std::optional<Rejection> rejection;
};

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
