#pragma once
/// @file An in-memory Crossfire session (cards/common/undo_session.hpp with the Crossfire rules).

#include <vector>

#include "cards/common/undo_session.hpp"
#include "cards/crossfire/command.hpp"
#include "cards/crossfire/rules.hpp"
#include "cards/crossfire/state.hpp"

namespace duels::cards::crossfire {

/// The Crossfire rules as a session replays them.
using SessionRules =
    cards::SessionRulesOf<State, Command, Event, Rejection, &crossfire::apply, &crossfire::replay>;

/// Where a session journals its commands (match/crossfire_session.hpp).
using SessionRecorder = cards::SessionRecorder<Command>;
/// A Crossfire game in memory with undo and redo.
using Session = cards::UndoSession<SessionRules>;

}  // namespace duels::cards::crossfire
