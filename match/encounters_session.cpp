#include "match/encounters_session.hpp"

#include "cards/encounters/json.hpp"

namespace duels::match {

EncountersGame::Start EncountersGame::start_from_json(const nlohmann::json& j) {
  if (!j.is_object() || !j.contains("seed") || !j["seed"].is_number_unsigned()) {
    throw DataException({"", 1, "seed", "the session's seed"});
  }
  return Start{j["seed"].get<std::uint64_t>()};
}

AttachedJournal attach_encounters_journal(const std::string& path,
                                          cards::encounters::Console& console,
                                          std::uint64_t seed_if_new) {
  return attach_session_journal<EncountersGame>(path, console.session(), {seed_if_new});
}

}  // namespace duels::match
