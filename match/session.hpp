#pragma once
/// @file A game session kept in a journal, for any game with the command/event shape: Duels
/// matches and the card-game helpers alike. Every command is checked, written and synced, then
/// applied; undo and redo are entries too; opening a journal replays it to the last event.
///
/// A game type G provides:
///   static constexpr const char* kKind;            journal kind ("duels", "encounters", …)
///   using Start, State, Command, Event, Rejection;
///   static nlohmann::json start_to_json(const Start&);
///   static Start start_from_json(const nlohmann::json&);           throws DataException
///   static Expected<State, std::string> initial(const Start&);
///   static Expected<std::vector<Event>, Rejection> apply(State&, const Command&);
///   static nlohmann::json command_to_json(const Command&);
///   static Command command_from_json(const nlohmann::json&);        throws DataException
///   static std::string reason(const Rejection&);
///   static Rejection rejection(std::string reason);

#include <fmt/format.h>

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <optional>
#include <string>
#include <vector>

#include "common/json_words.hpp"
#include "match/journal.hpp"

namespace duels::match {

/// One applied command with what it did.
template <class G>
struct SessionStep {
  std::uint64_t seq = 0;  ///< journal sequence number of the command
  typename G::Command command;
  std::vector<typename G::Event> events;
};

/// A journal replayed: the start (its fields are this struct's), the state after the last (or
/// the asked-for) event, and the commands in effect (undone ones left out).
template <class G>
struct SessionReplay : G::Start {
  typename G::State state{};
  std::vector<SessionStep<G>> steps;
  std::vector<SessionStep<G>> redo;  ///< undone steps that redo would bring back, last undone last
  std::uint64_t last_seq = 0;        ///< last journal entry used
  std::vector<std::string> warnings;
  std::optional<DataError> error;  ///< where replay stopped early, if it did
};

namespace detail {
template <class G>
typename G::State initial_or_throw(const typename G::Start& start, const std::string& where) {
  auto s = G::initial(start);
  if (!s) throw DataException({where, 1, "body", "a playable start (" + s.error() + ")"});
  return std::move(*s);
}
}  // namespace detail

/// Replays journal contents up to entry `at` (all when nullopt). A damaged or refused entry
/// stops the replay there and is described in `error`. Throws DataException when the header is
/// not of this game.
template <class G>
SessionReplay<G> replay_session(const JournalContents& contents,
                                std::optional<std::uint64_t> at = std::nullopt) {
  SessionReplay<G> r;
  if (contents.header.kind != G::kKind) {
    throw DataException(
        {"", 1, "kind",
         fmt::format("a {} journal (this one is '{}')", G::kKind, contents.header.kind)});
  }
  try {
    static_cast<typename G::Start&>(r) = G::start_from_json(contents.header.body);
  } catch (const DataException& e) {
    throw DataException({"", 1, "body." + e.error().field, e.error().expected});
  } catch (const nlohmann::json::exception& e) {
    throw DataException(
        {"", 1, "body", fmt::format("a start of the right shape ({})", plain_json_error(e))});
  }
  r.state = detail::initial_or_throw<G>(r, "");
  r.warnings = contents.warnings;
  r.error = contents.error;
  auto rebuild = [&] {
    r.state = detail::initial_or_throw<G>(r, "");
    for (auto& step : r.steps)
      step.events = *G::apply(r.state, step.command);
  };
  for (const auto& e : contents.entries) {
    if (at && e.seq > *at) break;
    auto fail = [&](const std::string& expected) {
      r.error = DataError{"", e.line, fmt::format("event {}", e.seq), expected};
    };
    if (e.type == "command") {
      std::optional<typename G::Command> c;
      try {
        c = G::command_from_json(e.data);
      } catch (const DataException& ex) {
        fail(fmt::format("a command ({}: {}); events before it are recovered", ex.error().field,
                         ex.error().expected));
        break;
      } catch (const nlohmann::json::exception& ex) {
        fail(fmt::format("a command of the right shape ({}); events before it are recovered",
                         plain_json_error(ex)));
        break;
      }
      auto applied = G::apply(r.state, *c);
      if (!applied) {
        fail(
            fmt::format("a command that is legal at this point (the rules refuse it: {}); events "
                        "before it are recovered",
                        G::reason(applied.error())));
        break;
      }
      r.steps.push_back({e.seq, std::move(*c), std::move(*applied)});
      r.redo.clear();
    } else if (e.type == "undo") {
      if (r.steps.empty()) {
        fail("something to undo");
        break;
      }
      r.redo.push_back(std::move(r.steps.back()));
      r.steps.pop_back();
      rebuild();
    } else if (e.type == "redo") {
      if (r.redo.empty()) {
        fail("something to redo");
        break;
      }
      SessionStep<G> step = std::move(r.redo.back());
      r.redo.pop_back();
      auto applied = G::apply(r.state, step.command);
      if (!applied) {
        fail("a redo the rules accept");
        break;
      }
      step.events = std::move(*applied);
      r.steps.push_back(std::move(step));
    } else {
      fail(fmt::format("an entry type command, undo or redo (not '{}')", e.type));
      break;
    }
    r.last_seq = e.seq;
  }
  return r;
}

/// A journal reopened for appending, with its replay.
template <class G>
struct ResumedJournal {
  SessionReplay<G> replay;
  JournalWriter writer;
  bool repaired = false;  ///< a torn last line was cut off
};

namespace detail {
/// The length of the journal's part that replays: the header and the entries up to `last_seq`.
inline std::uint64_t bytes_through(const std::string& path, const JournalContents& contents,
                                   std::uint64_t last_seq) {
  std::ifstream in(path, std::ios::binary);
  std::string line;
  std::uint64_t bytes = 0;
  int line_no = 0;
  const int last_line =
      last_seq == 0 ? 1 : contents.entries[static_cast<std::size_t>(last_seq - 1)].line;
  while (line_no < last_line && std::getline(in, line)) {
    bytes += line.size() + 1;
    ++line_no;
  }
  return bytes;
}

/// The command as its journal line will read back, and that line's data: a command the journal
/// could not replay (a name that is not UTF-8 text, a number beyond what a reader takes) is
/// refused here, with the reader's reason, before anything is written or changed.
template <class G>
std::optional<typename G::Command> as_journal_reads(const typename G::Command& c,
                                                    nlohmann::json& line, std::string& why) {
  try {
    nlohmann::json back = nlohmann::json::parse(G::command_to_json(c).dump());
    typename G::Command read = G::command_from_json(back);
    line = std::move(back);
    return read;
  } catch (const DataException& e) {
    why = fmt::format("the match's journal could not keep it ({}: {})", e.error().field,
                      e.error().expected);
  } catch (const nlohmann::json::exception&) {
    why = "the match's journal could not keep it (its text is not UTF-8)";
  }
  return std::nullopt;
}

template <class G>
SessionReplay<G> replay_located(const JournalContents& contents, const std::string& path) {
  try {
    SessionReplay<G> r = replay_session<G>(contents);
    if (r.error) r.error->file = path;
    return r;
  } catch (const DataException& e) {
    DataError err = e.error();
    err.file = path;
    throw DataException(err);
  }
}
}  // namespace detail

/// Opens a journal, replays it and makes it ready to append, holding its one-writer lock. A torn
/// last line (a crash mid-write) is cut off after its bytes are kept in FILE.torn. A journal
/// damaged before its end — a bad line, or an entry the rules refuse — is refused with where and
/// what: nothing is cut unless the player asks with `duels match repair` (repair_journal).
/// Throws DataException.
template <class G>
ResumedJournal<G> resume_journal(const std::string& path) {
  const JournalContents contents = read_journal(path);
  SessionReplay<G> r = detail::replay_located<G>(contents, path);
  if (r.error) {
    DataError err = *r.error;
    err.expected += fmt::format(
        ". Nothing was changed: to go on from event {}, run `duels match repair {}` (it keeps a "
        "complete copy as {}.damaged first)",
        r.last_seq, path, path);
    throw DataException(err);
  }
  bool repaired = false;
  JournalWriter w = JournalWriter::append_to(path, contents, &repaired);
  return ResumedJournal<G>{std::move(r), std::move(w), repaired};
}

/// What `duels match repair` did.
struct RepairResult {
  bool changed = false;           ///< false: the journal was intact
  std::string backup;             ///< the complete copy of the damaged journal
  std::uint64_t kept = 0;         ///< events kept
  std::size_t dropped_lines = 0;  ///< lines cut off after them
  std::string reason;             ///< where the damage was
};

/// How far a journal is sound: its last good event, and where it stopped if it did.
struct JournalUse {
  std::uint64_t last_seq = 0;
  std::optional<DataError> error;
};

/// Cuts a damaged journal back to the part `sound(contents)` says is good, after a complete
/// verified backup. The journal is locked before it is read: what is kept is decided from the
/// journal as it is when it is cut (a writer that appended a moment before is read, not cut).
template <class Sound>
RepairResult repair_journal_with(const std::string& path, Sound sound) {
  JournalLock lock(path);
  const JournalContents contents = read_journal(path);
  const JournalUse use = sound(contents);
  RepairResult out;
  out.kept = use.last_seq;
  if (!use.error && contents.valid_bytes == contents.file_bytes) return out;
  const std::uint64_t keep =
      use.error ? detail::bytes_through(path, contents, use.last_seq) : contents.valid_bytes;
  std::size_t kept_lines = 0;
  {
    std::ifstream in(path, std::ios::binary);
    std::string line;
    std::uint64_t bytes = 0;
    while (bytes < keep && std::getline(in, line)) {
      bytes += line.size() + 1;
      ++kept_lines;
    }
  }
  out.dropped_lines = contents.entry_lines + 1 - kept_lines;
  out.reason = use.error ? use.error->message()
                         : (contents.warnings.empty() ? std::string() : contents.warnings.front());
  out.backup = lock.cut(keep);
  out.changed = true;
  return out;
}

/// Cuts a damaged journal of game G back to the part that replays (see repair_journal_with).
template <class G>
RepairResult repair_journal(const std::string& path) {
  return repair_journal_with(path, [&](const JournalContents& contents) {
    const SessionReplay<G> r = detail::replay_located<G>(contents, path);
    return JournalUse{r.last_seq, r.error};
  });
}

/// Starts a journal for game G at `path` (which must not exist).
template <class G>
JournalWriter create_journal(const std::string& path, const typename G::Start& start,
                             const std::string& program = "duels 0.1.0") {
  JournalHeader h;
  h.program = program;
  h.created = utc_now();
  h.kind = G::kKind;
  h.body = G::start_to_json(start);
  return JournalWriter::create(path, h);
}

/// A session open for play, backed by its journal.
template <class G>
class JournaledSession {
 public:
  /// Starts a journal at `path` (which must not exist).
  static JournaledSession create(const std::string& path, const typename G::Start& start,
                                 const std::string& program = "duels 0.1.0") {
    SessionReplay<G> r;
    static_cast<typename G::Start&>(r) = start;
    r.state = detail::initial_or_throw<G>(start, path);
    return JournaledSession(std::move(r), create_journal<G>(path, start, program), false);
  }

  /// Opens a journal, replays it and makes it ready to append (see resume_journal).
  static JournaledSession resume(const std::string& path) {
    auto resumed = resume_journal<G>(path);
    return JournaledSession(std::move(resumed.replay), std::move(resumed.writer), resumed.repaired);
  }

  /// Checks the command; if legal, journals it (synced), then applies it. What is applied is the
  /// command as its journal line reads back, so the state played is the state a replay rebuilds.
  Expected<std::vector<typename G::Event>, typename G::Rejection> play(
      const typename G::Command& typed) {
    typename G::State next = replay_.state;
    auto result = G::apply(next, typed);
    if (!result) return result.error();
    nlohmann::json line;
    std::string why;
    const auto kept = detail::as_journal_reads<G>(typed, line, why);
    if (!kept) return G::rejection(why);
    const typename G::Command& c = *kept;
    next = replay_.state;
    result = G::apply(next, c);
    if (!result) {
      return G::rejection("the match's journal would read it back as a command the rules refuse (" +
                          G::reason(result.error()) + ")");
    }
    const JournalEntry e = writer_.append("command", line);
    replay_.state = std::move(next);
    replay_.steps.push_back({e.seq, c, *result});
    replay_.redo.clear();
    replay_.last_seq = e.seq;
    return result;
  }

  /// Undoes the last command in effect (journaled as an "undo" entry).
  std::optional<typename G::Rejection> undo() {
    if (replay_.steps.empty()) return G::rejection("there is nothing to undo");
    const JournalEntry e = writer_.append("undo", nlohmann::json::object());
    replay_.redo.push_back(std::move(replay_.steps.back()));
    replay_.steps.pop_back();
    replay_.last_seq = e.seq;
    replay_.state = detail::initial_or_throw<G>(replay_, writer_.path());
    for (auto& step : replay_.steps)
      step.events = *G::apply(replay_.state, step.command);
    return std::nullopt;
  }

  /// Brings back the last undone command.
  std::optional<typename G::Rejection> redo() {
    if (replay_.redo.empty()) return G::rejection("there is nothing to redo");
    typename G::State next = replay_.state;
    auto result = G::apply(next, replay_.redo.back().command);
    if (!result) return result.error();
    const JournalEntry e = writer_.append("redo", nlohmann::json::object());
    SessionStep<G> step = std::move(replay_.redo.back());
    replay_.redo.pop_back();
    step.events = *result;
    replay_.state = std::move(next);
    replay_.steps.push_back(std::move(step));
    replay_.last_seq = e.seq;
    return std::nullopt;
  }

  [[nodiscard]] const typename G::State& state() const { return replay_.state; }
  [[nodiscard]] const SessionReplay<G>& history() const { return replay_; }
  [[nodiscard]] const std::string& path() const { return writer_.path(); }
  [[nodiscard]] bool repaired() const { return repaired_; }

 protected:
  JournaledSession(SessionReplay<G> r, JournalWriter w, bool repaired)
      : replay_(std::move(r)), writer_(std::move(w)), repaired_(repaired) {}

 private:
  SessionReplay<G> replay_;
  JournalWriter writer_;
  bool repaired_ = false;
};

}  // namespace duels::match
