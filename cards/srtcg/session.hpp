#pragma once
/// @file An in-memory SRTCG session (cards/common/undo_session.hpp with the SRTCG rules).

#include <vector>

#include "cards/common/undo_session.hpp"
#include "cards/srtcg/command.hpp"
#include "cards/srtcg/rules.hpp"
#include "cards/srtcg/state.hpp"

namespace duels::cards::srtcg {

/// The SRTCG rules as a session replays them.
using SessionRules =
    cards::SessionRulesOf<State, Command, Event, Rejection, &srtcg::apply, &srtcg::replay>;

/// Where a session journals its commands (match/srtcg_session.hpp).
using SessionRecorder = cards::SessionRecorder<Command>;
/// A SRTCG game in memory with undo and redo.
using Session = cards::UndoSession<SessionRules>;

}  // namespace duels::cards::srtcg
