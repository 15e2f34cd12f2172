#include "match/crossfire_session.hpp"

#include "cards/crossfire/json.hpp"

namespace duels::match {

CrossfireGame::Start CrossfireGame::start_from_json(const nlohmann::json& j) {
  if (!j.is_object()) throw DataException({"", 1, "body", "an object (the session's start)"});
  return Start{};
}

CrossfireJournal attach_crossfire_journal(const std::string& path,
                                          cards::crossfire::Console& console) {
  return attach_session_journal<CrossfireGame>(path, console.session(), {});
}

}  // namespace duels::match
