#include "match/srtcg_session.hpp"

#include "cards/srtcg/json.hpp"

namespace duels::match {

SrtcgGame::Start SrtcgGame::start_from_json(const nlohmann::json& j) {
  if (!j.is_object() || !j.contains("seed") || !j["seed"].is_number_unsigned()) {
    throw DataException({"", 1, "seed", "the session's seed"});
  }
  return Start{j["seed"].get<std::uint64_t>()};
}

AttachedSrtcgJournal attach_srtcg_journal(const std::string& path, cards::srtcg::Console& console,
                                          std::uint64_t seed_if_new) {
  return attach_session_journal<SrtcgGame>(path, console.session(), {seed_if_new});
}

}  // namespace duels::match
