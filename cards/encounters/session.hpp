#pragma once
/// @file An in-memory Encounters session (cards/common/undo_session.hpp with the Encounters rules).

#include <vector>

#include "cards/common/undo_session.hpp"
#include "cards/encounters/command.hpp"
#include "cards/encounters/rules.hpp"
#include "cards/encounters/state.hpp"

namespace duels::cards::encounters {

/// The Encounters rules as a session replays them.
using SessionRules = cards::SessionRulesOf<State, Command, Event, Rejection, &encounters::apply,
                                           &encounters::replay>;

/// Where a session journals its commands (match/encounters_session.hpp).
using SessionRecorder = cards::SessionRecorder<Command>;
/// A Encounters game in memory with undo and redo.
using Session = cards::UndoSession<SessionRules>;

}  // namespace duels::cards::encounters
