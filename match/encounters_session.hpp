#pragma once
/// @file Encounters sessions kept in the same journals as Duels matches (card_session.hpp).

#include <cstdint>
#include <string>

#include "cards/encounters/console.hpp"
#include "cards/encounters/json.hpp"  // to_json / from_json of the commands the recorder writes
#include "cards/encounters/session.hpp"
#include "match/card_session.hpp"

namespace duels::match {

/// What an Encounters journal starts from (a seed).
using EncountersStart = SeededStart;

/// Encounters as a journaled game.
struct EncountersGame : SeededCardGame<cards::encounters::SessionRules> {
  static constexpr const char* kKind = "encounters";
};

/// Journals an Encounters console session.
using EncountersRecorder = JournalRecorder<EncountersGame>;
/// An Encounters journal tied to a console (`seed`, `recorder`, `notes`).
using AttachedJournal = AttachedSessionJournal<EncountersGame>;

/// Opens (resuming) or creates the journal at `path` and ties `console`'s session to it; a new
/// journal keeps `seed_if_new`.
AttachedJournal attach_encounters_journal(const std::string& path,
                                          cards::encounters::Console& console,
                                          std::uint64_t seed_if_new);

}  // namespace duels::match
