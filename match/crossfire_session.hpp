#pragma once
/// @file Shadowrun: Crossfire sessions kept in the same journals as Duels matches
/// (card_session.hpp).

#include <string>

#include "cards/crossfire/console.hpp"
#include "cards/crossfire/json.hpp"  // to_json / from_json of the commands the recorder writes
#include "cards/crossfire/session.hpp"
#include "match/card_session.hpp"

namespace duels::match {

/// What a Crossfire journal starts from: an empty table (Crossfire uses no dice: no seed).
struct CrossfireStart {};

/// Crossfire as a journaled game.
struct CrossfireGame : CardGame<cards::crossfire::SessionRules, CrossfireStart> {
  static constexpr const char* kKind = "crossfire";
  static nlohmann::json start_to_json(const Start&) { return nlohmann::json::object(); }
  static Start start_from_json(const nlohmann::json& j);
};

/// Journals a Crossfire console session.
using CrossfireRecorder = JournalRecorder<CrossfireGame>;
/// A Crossfire journal tied to a console (`recorder`, `notes`).
using CrossfireJournal = AttachedSessionJournal<CrossfireGame>;

/// Opens (resuming) or creates the journal at `path` and ties `console`'s session to it.
CrossfireJournal attach_crossfire_journal(const std::string& path,
                                          cards::crossfire::Console& console);

}  // namespace duels::match
