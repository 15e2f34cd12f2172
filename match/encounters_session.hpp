#pragma once
/// @file Encounters sessions kept in the same journals as Duels matches (session.hpp).

#include <cstdint>
#include <memory>
#include <string>

#include "cards/encounters/console.hpp"
#include "cards/encounters/session.hpp"
#include "match/session.hpp"

namespace duels::match {

/// Encounters as a journaled game: it starts from an empty table and a seed.
struct EncountersGame {
  static constexpr const char* kKind = "encounters";
  struct Start {
    std::uint64_t seed = 0;
  };
  using State = cards::encounters::State;
  using Command = cards::encounters::Command;
  using Event = cards::encounters::Event;
  using Rejection = cards::encounters::Rejection;
  static nlohmann::json start_to_json(const Start& s) { return {{"seed", s.seed}}; }
  static Start start_from_json(const nlohmann::json& j);
  static Expected<State, std::string> initial(const Start&) { return State{}; }
  static Expected<std::vector<Event>, Rejection> apply(State& s, const Command& c);
  static nlohmann::json command_to_json(const Command& c);
  static Command command_from_json(const nlohmann::json& j);
  static std::string reason(const Rejection& r);
  static Rejection rejection(std::string reason);
};

/// Writes an Encounters console session's commands, undos and redos to its journal (each synced
/// before the session acts on it).
class EncountersRecorder : public cards::encounters::SessionRecorder {
 public:
  explicit EncountersRecorder(JournalWriter writer) : writer_(std::move(writer)) {}
  void record_command(const cards::encounters::Command& command) override;
  void record_undo() override { writer_.append("undo", nlohmann::json::object()); }
  void record_redo() override { writer_.append("redo", nlohmann::json::object()); }
  [[nodiscard]] const std::string& path() const { return writer_.path(); }

 private:
  JournalWriter writer_;
};

/// Opens (resuming) or creates the journal at `path` and ties `console`'s session to it.
/// Returns the recorder (keep it alive while the console is used) and notes for the player.
struct AttachedJournal {
  std::unique_ptr<EncountersRecorder> recorder;
  std::vector<std::string> notes;
  std::uint64_t seed = 0;
};
AttachedJournal attach_encounters_journal(const std::string& path,
                                          cards::encounters::Console& console,
                                          std::uint64_t seed_if_new);

}  // namespace duels::match
