#pragma once
/// @file An in-memory SRTCG session (cards/common/undo_session.hpp with the SRTCG rules).

#include <vector>

#include "cards/common/undo_session.hpp"
#include "cards/srtcg/command.hpp"
#include "cards/srtcg/rules.hpp"
#include "cards/srtcg/state.hpp"

namespace duels::cards::srtcg {

/// The SRTCG rules as a session replays them.
struct SessionRules {
  using State = srtcg::State;
  using Command = srtcg::Command;
  using Event = srtcg::Event;
  using Rejection = srtcg::Rejection;
  static auto apply(const State& state, const Command& command) {
    return srtcg::apply(state, command);
  }
  static auto replay(const State& start, const std::vector<Command>& commands) {
    return srtcg::replay(start, commands);
  }
};

/// Where a session journals its commands (match/srtcg_session.hpp).
using SessionRecorder = cards::SessionRecorder<Command>;
/// A SRTCG game in memory with undo and redo.
using Session = cards::UndoSession<SessionRules>;

}  // namespace duels::cards::srtcg
