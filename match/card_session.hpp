#pragma once
/// @file The card-game helpers' sessions in journals: a card game's journal traits (the game
/// type G of session.hpp) built from its rules, the recorder that journals a console's in-memory
/// session (cards/common/undo_session.hpp), and tying a console to its journal, resuming it
/// when it exists.

#include <fmt/format.h>

#include <algorithm>
#include <cstdint>
#include <exception>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "cards/common/undo_session.hpp"
#include "match/session.hpp"

namespace duels::match {

/// The journal traits of a card game whose session rules are `Rules` (as for
/// cards::UndoSession) and whose journal header body is `StartT`. The game's namespace provides
/// to_json / from_json for its Command; a Rejection has a `reason`. Derive and add kKind,
/// start_to_json and start_from_json.
template <class Rules, class StartT>
struct CardGame {
  using Start = StartT;
  using State = typename Rules::State;
  using Command = typename Rules::Command;
  using Event = typename Rules::Event;
  using Rejection = typename Rules::Rejection;

  static Expected<State, std::string> initial(const Start&) { return State{}; }
  static Expected<std::vector<Event>, Rejection> apply(State& s, const Command& c) {
    auto applied = Rules::apply(s, c);
    if (!applied) return applied.error();
    s = std::move(applied->state);
    return std::move(applied->events);
  }
  static nlohmann::json command_to_json(const Command& c) {
    nlohmann::json j;
    to_json(j, c);
    return j;
  }
  static Command command_from_json(const nlohmann::json& j) {
    Command c;
    try {
      from_json(j, c);
    } catch (const std::exception& e) {
      throw DataException({"", 0, "command", plain_json_error(e)});
    }
    return c;
  }
  static std::string reason(const Rejection& r) { return r.reason; }
  static Rejection rejection(std::string reason) { return Rejection{std::move(reason)}; }
};

/// What an Encounters or SRTCG journal starts from: an empty table and the seed of its
/// virtual dice.
struct SeededStart {
  std::uint64_t seed = 0;
};

/// A card game whose journal starts from a seed (derive and add kKind).
template <class Rules>
struct SeededCardGame : CardGame<Rules, SeededStart> {
  static nlohmann::json start_to_json(const SeededStart& s) { return {{"seed", s.seed}}; }
  static SeededStart start_from_json(const nlohmann::json& j) {
    if (!j.is_object() || !j.contains("seed") || !j["seed"].is_number_unsigned()) {
      throw DataException({"", 1, "seed", "the session's seed"});
    }
    return SeededStart{j["seed"].get<std::uint64_t>()};
  }
};

/// Writes a console session's commands, undos and redos to its journal, each synced before the
/// session acts on it. What one typed line did is written as one transaction (one write, one
/// sync, marked so a reader takes all of it or none).
template <class G>
class JournalRecorder : public cards::SessionRecorder<typename G::Command> {
 public:
  explicit JournalRecorder(JournalWriter writer) : writer_(std::move(writer)) {}
  void record_command(const typename G::Command& command) override {
    add("command", G::command_to_json(command));
  }
  /// Marked `"same_line": true`, so a resumed session still undoes the typed line as one.
  void record_continued(const typename G::Command& command) override {
    nlohmann::json body = G::command_to_json(command);
    body[kSameLine] = true;
    add("command", body);
  }
  /// The key that marks a command typed on the line of the one before it.
  static constexpr const char* kSameLine = "same_line";
  void record_undo() override { add("undo", nlohmann::json::object()); }
  void record_redo() override { add("redo", nlohmann::json::object()); }
  void begin_line() override {
    pending_.clear();
    in_line_ = true;
  }
  void end_line() override {
    in_line_ = false;
    auto records = std::move(pending_);
    pending_.clear();
    (void)writer_.append_group(records);
  }
  void abandon_line() override {
    in_line_ = false;
    pending_.clear();
  }
  [[nodiscard]] const std::string& path() const { return writer_.path(); }

 private:
  void add(const char* type, nlohmann::json data) {
    if (in_line_) {
      pending_.emplace_back(type, std::move(data));
    } else {
      (void)writer_.append(type, data);
    }
  }
  JournalWriter writer_;
  bool in_line_ = false;
  std::vector<std::pair<std::string, nlohmann::json>> pending_;
};

/// A journal tied to a session: its start (this struct's own fields, e.g. `seed`), the
/// recorder (keep it alive while the session is used) and notes for the players.
template <class G>
struct AttachedSessionJournal : G::Start {
  std::unique_ptr<JournalRecorder<G>> recorder;
  std::vector<std::string> notes;
};

/// Opens (resuming) or creates the journal at `path` and ties `session` to it: a new journal
/// starts from `start_if_new`; an existing one is replayed into the session (a torn last line
/// cut off and said in the notes; a journal damaged before its end is refused, see
/// resume_journal). Throws DataException when the journal is of another
/// game or its commands do not replay.
/// The seed a card session keeps: the one its journal started with when `path` exists (its
/// rolls then replay exactly), else `fresh`.
template <class G>
std::uint64_t session_seed(const std::string& path, std::uint64_t fresh) {
  if (!path.empty() && std::filesystem::exists(path))
    return G::start_from_json(read_journal(path).header.body).seed;
  return fresh;
}

template <class G, class Session>
AttachedSessionJournal<G> attach_session_journal(const std::string& path, Session& session,
                                                 const typename G::Start& start_if_new) {
  AttachedSessionJournal<G> out;
  if (!std::filesystem::exists(path)) {
    static_cast<typename G::Start&>(out) = start_if_new;
    out.recorder = std::make_unique<JournalRecorder<G>>(create_journal<G>(path, start_if_new));
    out.notes.push_back("new session journal: " + path);
  } else {
    auto resumed = resume_journal<G>(path);
    static_cast<typename G::Start&>(out) = static_cast<const typename G::Start&>(resumed.replay);
    out.notes = resumed.replay.warnings;
    // A journal damaged before its end never gets here: resume_journal refuses it, saying
    // which line, what is wrong, what is kept and how to repair it.
    if (resumed.repaired) {
      out.notes.push_back("the torn last line was cut off (its bytes are kept in " + path +
                          ".torn)");
    }
    std::vector<typename G::Command> log;
    std::vector<typename G::Command> redo;
    std::vector<bool> log_continued;
    std::vector<bool> redo_continued;
    // Which commands were typed on the line of the one before (by journal sequence number).
    std::map<std::uint64_t, bool> same_line;
    for (const auto& e : read_journal(path).entries) {
      if (e.type == "command" && e.data.is_object())
        same_line[e.seq] = e.data.value(JournalRecorder<G>::kSameLine, false);
    }
    for (const auto& s : resumed.replay.steps) {
      log.push_back(s.command);
      log_continued.push_back(same_line[s.seq]);
    }
    for (const auto& s : resumed.replay.redo) {
      redo.push_back(s.command);
      redo_continued.push_back(same_line[s.seq]);
    }
    if (!session.restore(std::move(log), std::move(redo), std::move(log_continued),
                         std::move(redo_continued))) {
      throw DataException({path, 0, "", "a journal whose commands replay (this one does not)"});
    }
    out.notes.push_back(fmt::format("resumed after event {}", resumed.replay.last_seq));
    out.recorder = std::make_unique<JournalRecorder<G>>(std::move(resumed.writer));
  }
  session.set_recorder(out.recorder.get());
  return out;
}

}  // namespace duels::match
