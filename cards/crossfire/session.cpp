#include "cards/crossfire/session.hpp"

namespace duels::cards::crossfire {

Session::Session(State start) : start_(std::move(start)), current_(start_) {}

bool Session::restore(std::vector<Command> log, std::vector<Command> redo) {
  Replay r = replay(start_, log);
  if (r.rejected_at) return false;
  current_ = std::move(r.state);
  log_ = std::move(log);
  redo_ = std::move(redo);
  return true;
}

Expected<std::vector<Event>, Rejection> Session::submit(const Command& command) {
  auto applied = crossfire::apply(current_, command);
  if (!applied) return applied.error();
  if (recorder_ != nullptr) recorder_->record_command(command);
  current_ = std::move(applied->state);
  log_.push_back(command);
  redo_.clear();
  return std::move(applied->events);
}

bool Session::undo() {
  if (log_.empty()) return false;
  if (recorder_ != nullptr) recorder_->record_undo();
  redo_.push_back(log_.back());
  log_.pop_back();
  // Every logged command was legal in order, so the replay cannot stop early.
  current_ = replay(start_, log_).state;
  return true;
}

bool Session::redo() {
  if (redo_.empty()) return false;
  auto applied = crossfire::apply(current_, redo_.back());
  if (!applied) return false;
  if (recorder_ != nullptr) recorder_->record_redo();
  current_ = std::move(applied->state);
  log_.push_back(redo_.back());
  redo_.pop_back();
  return true;
}

}  // namespace duels::cards::crossfire
