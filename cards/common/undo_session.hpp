#pragma once
/// @file An in-memory card-game session: a start state and the commands applied to it, with
/// undo and redo by replay. It stands in for the persistent journal (match/), which keeps the
/// same shape: the commands are the truth, the state is derived, undo = replay minus the last.
/// Every card-game helper (Encounters, Crossfire, SRTCG) uses it with its own rules.

#include <utility>
#include <vector>

#include "common/error.hpp"

namespace duels::cards {

/// Where a session writes what it does before it does it (the journal, in match/). Each call
/// must have made the record durable when it returns; if it throws, the session is unchanged.
template <class Command>
class SessionRecorder {
 public:
  virtual ~SessionRecorder() = default;
  virtual void record_command(const Command& command) = 0;
  /// A command typed on the same line as the one before it (one undo takes back the line).
  /// By default recorded like any command.
  virtual void record_continued(const Command& command) { record_command(command); }
  virtual void record_undo() = 0;
  virtual void record_redo() = 0;
  /// The records between begin_line() and end_line() are what one typed line did: a recorder
  /// that can keeps them as one transaction, durable when end_line() returns (all or none).
  /// By default each record is durable on its own.
  virtual void begin_line() {}
  virtual void end_line() {}
  /// The line is abandoned (a record or end_line() threw): nothing of it may be kept.
  virtual void abandon_line() {}
};

/// Calls begin_line() now and abandon_line() when left before commit() (a record threw).
template <class Recorder>
class RecordedLine {
 public:
  explicit RecordedLine(Recorder* r) : r_(r) {
    if (r_ != nullptr) r_->begin_line();
  }
  RecordedLine(const RecordedLine&) = delete;
  RecordedLine& operator=(const RecordedLine&) = delete;
  ~RecordedLine() {
    if (r_ != nullptr && !done_) r_->abandon_line();
  }
  void commit() {
    if (r_ != nullptr) r_->end_line();
    done_ = true;
  }

 private:
  Recorder* r_;
  bool done_ = false;
};

/// A game's rules as a session replays them, made from its types and its two functions:
/// `apply(state, command)` and `replay(start, commands)`.
template <class StateT, class CommandT, class EventT, class RejectionT, auto Apply, auto ReplayAll>
struct SessionRulesOf {
  using State = StateT;
  using Command = CommandT;
  using Event = EventT;
  using Rejection = RejectionT;
  static auto apply(const State& state, const Command& command) { return Apply(state, command); }
  static auto replay(const State& start, const std::vector<Command>& commands) {
    return ReplayAll(start, commands);
  }
};

/// A game in memory: submit commands, undo, redo; with a recorder, each is journaled first.
///
/// `Rules` provides the types State, Command, Event and Rejection and two functions:
///   static Expected<Applied, Rejection> apply(const State&, const Command&);  Applied has
///       `state` and `events`;
///   static Replay replay(const State&, const std::vector<Command>&);  Replay has `state` and
///       `rejected_at` (empty when every command replayed).
template <class Rules>
class UndoSession {
 public:
  using State = typename Rules::State;
  using Command = typename Rules::Command;
  using Event = typename Rules::Event;
  using Rejection = typename Rules::Rejection;
  using Recorder = SessionRecorder<Command>;

  explicit UndoSession(State start = {}) : start_(std::move(start)), current_(start_) {}

  /// Records every later submit/undo/redo there before applying it (nullptr: in memory only).
  void set_recorder(Recorder* recorder) { recorder_ = recorder; }

  /// Puts the session where a journal left it: `log` in effect, `redo` undone (last undone
  /// last). `log_continued` / `redo_continued` (empty: none) mark the commands typed on the same
  /// line as the command before them. Returns false (and changes nothing) if the log does not
  /// replay.
  bool restore(std::vector<Command> log, std::vector<Command> redo,
               std::vector<bool> log_continued = {}, std::vector<bool> redo_continued = {}) {
    auto r = Rules::replay(start_, log);
    if (r.rejected_at) return false;
    log_continued.resize(log.size(), false);
    redo_continued.resize(redo.size(), false);
    current_ = std::move(r.state);
    log_ = std::move(log);
    redo_ = std::move(redo);
    continued_ = std::move(log_continued);
    redo_continued_ = std::move(redo_continued);
    return true;
  }

  /// Applies `command` if legal (then the redo list is cleared); returns its events.
  Expected<std::vector<Event>, Rejection> submit(const Command& command) {
    return submit_line(std::vector<Command>{command});
  }

  /// Applies the commands of one typed line, all of them or (when one is refused) none; one
  /// undo then takes back the whole line. Returns every event, in order.
  Expected<std::vector<Event>, Rejection> submit_line(const std::vector<Command>& commands) {
    State next = current_;
    std::vector<Event> events;
    for (const Command& command : commands) {
      auto applied = Rules::apply(next, command);
      if (!applied) return applied.error();
      next = std::move(applied->state);
      for (auto& e : applied->events)
        events.push_back(std::move(e));
    }
    if (commands.empty()) return events;
    {
      RecordedLine<Recorder> line(recorder_);
      for (std::size_t i = 0; i < commands.size() && recorder_ != nullptr; ++i) {
        if (i == 0) {
          recorder_->record_command(commands[i]);
        } else {
          recorder_->record_continued(commands[i]);
        }
      }
      line.commit();
    }
    for (std::size_t i = 0; i < commands.size(); ++i) {
      log_.push_back(commands[i]);
      continued_.push_back(i > 0);
    }
    current_ = std::move(next);
    redo_.clear();
    redo_continued_.clear();
    return events;
  }

  /// Takes back the last typed line (all its commands) and replays the rest. False when there
  /// is nothing to undo.
  bool undo() {
    if (log_.empty()) return false;
    // The commands of the last typed line: one undo record each, written together first.
    std::size_t n = 1;
    while (n < log_.size() && continued_[log_.size() - n])
      ++n;
    {
      RecordedLine<Recorder> line(recorder_);
      for (std::size_t k = 0; k < n && recorder_ != nullptr; ++k)
        recorder_->record_undo();
      line.commit();
    }
    bool first_of_line = false;
    while (!first_of_line) {
      first_of_line = !continued_.back();
      redo_.push_back(log_.back());
      redo_continued_.push_back(continued_.back());
      log_.pop_back();
      continued_.pop_back();
    }
    // Every logged command was legal in order, so the replay cannot stop early.
    current_ = Rules::replay(start_, log_).state;
    return true;
  }

  /// Re-applies the last undone line. False when there is nothing to redo.
  bool redo() {
    if (redo_.empty()) return false;
    // The line's commands, first to last (the first one is the last undone).
    std::size_t n = 1;
    while (n < redo_.size() && redo_continued_[redo_.size() - n - 1])
      ++n;
    State next = current_;
    for (std::size_t k = 0; k < n; ++k) {
      auto applied = Rules::apply(next, redo_[redo_.size() - 1 - k]);
      if (!applied) return false;
      next = std::move(applied->state);
    }
    {
      RecordedLine<Recorder> line(recorder_);
      for (std::size_t k = 0; k < n && recorder_ != nullptr; ++k)
        recorder_->record_redo();
      line.commit();
    }
    for (std::size_t k = 0; k < n; ++k) {
      log_.push_back(redo_.back());
      continued_.push_back(redo_continued_.back());
      redo_.pop_back();
      redo_continued_.pop_back();
    }
    current_ = std::move(next);
    return true;
  }

  [[nodiscard]] const State& state() const { return current_; }
  [[nodiscard]] const State& start() const { return start_; }
  [[nodiscard]] const std::vector<Command>& log() const { return log_; }
  /// Per command of log(): true when it was typed on the same line as the command before it.
  [[nodiscard]] const std::vector<bool>& continued() const { return continued_; }
  [[nodiscard]] bool can_undo() const { return !log_.empty(); }
  [[nodiscard]] bool can_redo() const { return !redo_.empty(); }

 private:
  State start_;
  State current_;
  std::vector<Command> log_;
  std::vector<Command> redo_;
  std::vector<bool> continued_;       ///< per log_ command: typed on the line of the one before
  std::vector<bool> redo_continued_;  ///< the same for redo_
  Recorder* recorder_ = nullptr;
};

}  // namespace duels::cards
