#include "match/crossfire_session.hpp"

#include <fmt/format.h>

#include <filesystem>

#include "cards/crossfire/json.hpp"
#include "cards/crossfire/rules.hpp"

namespace duels::match {

namespace cf = cards::crossfire;

CrossfireGame::Start CrossfireGame::start_from_json(const nlohmann::json& j) {
  if (!j.is_object()) throw DataException({"", 1, "body", "an object (the session's start)"});
  return Start{};
}

Expected<std::vector<cf::Event>, cf::Rejection> CrossfireGame::apply(State& s, const Command& c) {
  auto applied = cf::apply(s, c);
  if (!applied) return applied.error();
  s = std::move(applied->state);
  return std::move(applied->events);
}

nlohmann::json CrossfireGame::command_to_json(const Command& c) {
  nlohmann::json j;
  cf::to_json(j, c);
  return j;
}

cf::Command CrossfireGame::command_from_json(const nlohmann::json& j) {
  auto c = cf::parse_command(j);
  if (!c) throw DataException({"", 0, "command", c.error()});
  return std::move(*c);
}

std::string CrossfireGame::reason(const Rejection& r) {
  return r.reason;
}
cf::Rejection CrossfireGame::rejection(std::string reason) {
  return cf::Rejection{std::move(reason)};
}

void CrossfireRecorder::record_command(const cf::Command& command) {
  writer_.append("command", CrossfireGame::command_to_json(command));
}

CrossfireJournal attach_crossfire_journal(const std::string& path, cf::Console& console) {
  CrossfireJournal out;
  if (!std::filesystem::exists(path)) {
    out.recorder = std::make_unique<CrossfireRecorder>(create_journal<CrossfireGame>(path, {}));
    out.notes.push_back("new session journal: " + path);
  } else {
    auto resumed = resume_journal<CrossfireGame>(path);
    out.notes = resumed.replay.warnings;
    if (resumed.replay.error) out.notes.push_back(resumed.replay.error->message());
    if (resumed.repaired) {
      out.notes.push_back("the damaged tail was cut off (the original is kept as " + path +
                          ".damaged)");
    }
    std::vector<cf::Command> log, redo;
    for (const auto& s : resumed.replay.steps)
      log.push_back(s.command);
    for (const auto& s : resumed.replay.redo)
      redo.push_back(s.command);
    if (!console.session().restore(std::move(log), std::move(redo))) {
      throw DataException({path, 0, "", "a journal whose commands replay (this one does not)"});
    }
    out.notes.push_back(fmt::format("resumed after event {}", resumed.replay.last_seq));
    out.recorder = std::make_unique<CrossfireRecorder>(std::move(resumed.writer));
  }
  console.session().set_recorder(out.recorder.get());
  return out;
}

}  // namespace duels::match
