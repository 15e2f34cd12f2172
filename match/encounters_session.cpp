#include "match/encounters_session.hpp"

#include "cards/encounters/json.hpp"

namespace duels::match {

AttachedJournal attach_encounters_journal(const std::string& path,
                                          cards::encounters::Console& console,
                                          std::uint64_t seed_if_new) {
  return attach_session_journal<EncountersGame>(path, console.session(), {seed_if_new});
}

}  // namespace duels::match
