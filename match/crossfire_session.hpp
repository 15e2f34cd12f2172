#pragma once
/// @file Shadowrun: Crossfire sessions kept in the same journals as Duels matches (session.hpp).

#include <memory>
#include <string>
#include <vector>

#include "cards/crossfire/console.hpp"
#include "cards/crossfire/session.hpp"
#include "match/session.hpp"

namespace duels::match {

/// Crossfire as a journaled game: it starts from an empty table (Crossfire uses no dice, so
/// there is no seed).
struct CrossfireGame {
  static constexpr const char* kKind = "crossfire";
  struct Start {};
  using State = cards::crossfire::State;
  using Command = cards::crossfire::Command;
  using Event = cards::crossfire::Event;
  using Rejection = cards::crossfire::Rejection;
  static nlohmann::json start_to_json(const Start&) { return nlohmann::json::object(); }
  static Start start_from_json(const nlohmann::json& j);
  static Expected<State, std::string> initial(const Start&) { return State{}; }
  static Expected<std::vector<Event>, Rejection> apply(State& s, const Command& c);
  static nlohmann::json command_to_json(const Command& c);
  static Command command_from_json(const nlohmann::json& j);
  static std::string reason(const Rejection& r);
  static Rejection rejection(std::string reason);
};

/// Writes a Crossfire console session's commands, undos and redos to its journal (each synced
/// before the session acts on it).
class CrossfireRecorder : public cards::crossfire::SessionRecorder {
 public:
  explicit CrossfireRecorder(JournalWriter writer) : writer_(std::move(writer)) {}
  void record_command(const cards::crossfire::Command& command) override;
  void record_undo() override { writer_.append("undo", nlohmann::json::object()); }
  void record_redo() override { writer_.append("redo", nlohmann::json::object()); }
  [[nodiscard]] const std::string& path() const { return writer_.path(); }

 private:
  JournalWriter writer_;
};

/// A journal tied to a console: the recorder (keep it alive while the console is used) and
/// notes for the players.
struct CrossfireJournal {
  std::unique_ptr<CrossfireRecorder> recorder;
  std::vector<std::string> notes;
};
/// Opens (resuming) or creates the journal at `path` and ties `console`'s session to it.
CrossfireJournal attach_crossfire_journal(const std::string& path,
                                          cards::crossfire::Console& console);

}  // namespace duels::match
