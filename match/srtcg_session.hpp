#pragma once
/// @file SRTCG sessions kept in the same journals as Duels matches (card_session.hpp).

#include <cstdint>
#include <string>

#include "cards/srtcg/console.hpp"
#include "cards/srtcg/json.hpp"  // to_json / from_json of the commands the recorder writes
#include "cards/srtcg/session.hpp"
#include "match/card_session.hpp"

namespace duels::match {

/// What an SRTCG journal starts from (a seed).
using SrtcgStart = SeededStart;

/// SRTCG as a journaled game.
struct SrtcgGame : SeededCardGame<cards::srtcg::SessionRules> {
  static constexpr const char* kKind = "srtcg";
};

/// Journals an SRTCG console session.
using SrtcgRecorder = JournalRecorder<SrtcgGame>;
/// An SRTCG journal tied to a console (`seed`, `recorder`, `notes`).
using AttachedSrtcgJournal = AttachedSessionJournal<SrtcgGame>;

/// Opens (resuming) or creates the journal at `path` and ties `console`'s session to it; a new
/// journal keeps `seed_if_new`.
AttachedSrtcgJournal attach_srtcg_journal(const std::string& path, cards::srtcg::Console& console,
                                          std::uint64_t seed_if_new);

}  // namespace duels::match
