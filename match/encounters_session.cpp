#include "match/encounters_session.hpp"

#include <fmt/format.h>

#include <filesystem>

#include "cards/encounters/json.hpp"
#include "cards/encounters/rules.hpp"

namespace duels::match {

namespace enc = cards::encounters;

EncountersGame::Start EncountersGame::start_from_json(const nlohmann::json& j) {
  if (!j.is_object() || !j.contains("seed") || !j["seed"].is_number_unsigned()) {
    throw DataException({"", 1, "seed", "the session's seed"});
  }
  return Start{j["seed"].get<std::uint64_t>()};
}

Expected<std::vector<enc::Event>, enc::Rejection> EncountersGame::apply(State& s,
                                                                        const Command& c) {
  auto applied = enc::apply(s, c);
  if (!applied) return applied.error();
  s = std::move(applied->state);
  return std::move(applied->events);
}

nlohmann::json EncountersGame::command_to_json(const Command& c) {
  nlohmann::json j;
  enc::to_json(j, c);
  return j;
}

enc::Command EncountersGame::command_from_json(const nlohmann::json& j) {
  auto c = enc::parse_command(j);
  if (!c) throw DataException({"", 0, "command", c.error()});
  return std::move(*c);
}

std::string EncountersGame::reason(const Rejection& r) {
  return r.reason;
}
enc::Rejection EncountersGame::rejection(std::string reason) {
  return enc::Rejection{std::move(reason)};
}

void EncountersRecorder::record_command(const enc::Command& command) {
  writer_.append("command", EncountersGame::command_to_json(command));
}

AttachedJournal attach_encounters_journal(const std::string& path, enc::Console& console,
                                          std::uint64_t seed_if_new) {
  AttachedJournal out;
  if (!std::filesystem::exists(path)) {
    out.seed = seed_if_new;
    out.recorder =
        std::make_unique<EncountersRecorder>(create_journal<EncountersGame>(path, {seed_if_new}));
    out.notes.push_back("new session journal: " + path);
  } else {
    auto resumed = resume_journal<EncountersGame>(path);
    out.seed = resumed.replay.seed;
    out.notes = resumed.replay.warnings;
    if (resumed.replay.error) out.notes.push_back(resumed.replay.error->message());
    if (resumed.repaired)
      out.notes.push_back("the damaged tail was cut off (the original is kept as " + path +
                          ".damaged)");
    std::vector<enc::Command> log, redo;
    for (const auto& s : resumed.replay.steps)
      log.push_back(s.command);
    for (const auto& s : resumed.replay.redo)
      redo.push_back(s.command);
    if (!console.session().restore(std::move(log), std::move(redo))) {
      throw DataException({path, 0, "", "a journal whose commands replay (this one does not)"});
    }
    out.notes.push_back(fmt::format("resumed after event {}", resumed.replay.last_seq));
    out.recorder = std::make_unique<EncountersRecorder>(std::move(resumed.writer));
  }
  console.session().set_recorder(out.recorder.get());
  return out;
}

}  // namespace duels::match
