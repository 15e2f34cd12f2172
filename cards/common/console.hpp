#pragma once
/// @file What every card game's console does the same way: submitting a typed line's commands
/// (all or none, one undo step) and printing the events and the changed lines of the state, and
/// the session words (blank and # lines, help, quit, state, undo, redo, log). Each game's
/// console keeps only its own command language.

#include <fmt/format.h>

#include <nlohmann/json.hpp>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "cards/common/text.hpp"
#include "dice/roller.hpp"

namespace duels::cards {

/// What one console line produced.
struct ConsoleReply {
  std::string text;
  bool ok = true;     ///< false when the line was refused or not understood
  bool quit = false;  ///< the line asked to end the session
};

/// What every game's console holds: its session (a cards::UndoSession) and the reply type.
template <class Session>
class SessionConsole {
 public:
  using Reply = ConsoleReply;
  [[nodiscard]] const Session& session() const { return session_; }
  /// For restoring from a journal and attaching its recorder.
  Session& session() { return session_; }

 protected:
  /// The session words (help, state, undo, redo, log, …) answered, the state shown by the
  /// game's render(state) and the log as the commands' JSON (`replace_bad_utf8`: bytes that are
  /// not UTF-8 shown as U+FFFD instead of an error); nullopt for a game's own word.
  std::optional<Reply> session_word(const std::string& cmd, const std::string& help,
                                    bool replace_bad_utf8 = false);

  Session session_;
};

/// A console with a seeded die: for rolls typed without faces and for drawing the first player.
template <class Session>
class SeededConsole : public SessionConsole<Session> {
 public:
  explicit SeededConsole(std::uint64_t seed) : seed_(seed), rng_(seed) {}
  [[nodiscard]] std::uint64_t seed() const { return seed_; }

 protected:
  /// `start [NAME]`: NAME, or (when it is empty) one of `players` drawn with the seed, which
  /// `prefix` then says.
  template <class Players>
  std::string first_player(std::string name, const Players& players, std::string& prefix) {
    if (name.empty() && !players.empty()) {
      const int pick = rng_.uniform(static_cast<int>(players.size())) - 1;
      name = players[static_cast<std::size_t>(pick)].name;
      prefix = fmt::format("  {} goes first (drawn with seed {})\n", name, seed_);
    }
    return name;
  }

  std::uint64_t seed_;
  dice::Rng rng_;
};

/// Applies one typed line's `commands` to `session` (all of them or none) and says what
/// happened: `prefix`, each event, then the lines of the state (`render(state)`) that changed.
template <class Reply, class Session, class Render>
Reply submit_line(Session& session, const std::vector<typename Session::Command>& commands,
                  std::string prefix, Render render) {
  const std::string before = render(session.state());
  auto events = session.submit_line(commands);
  if (!events) return Reply{prefix + "not allowed: " + events.error().reason + "\n", false, false};
  std::string out = std::move(prefix);
  for (const auto& e : *events)
    out += "  " + e.text + "\n";
  out += text::changed_lines(before, render(session.state()));  // `state` shows it all
  return Reply{out, true, false};
}

/// The session words every console shares, answered; nullopt when `cmd` is a game's own word.
/// `dump(command)` writes one command of the log as a JSON line.
template <class Reply, class Session, class Render, class Dump>
std::optional<Reply> session_words(const std::string& cmd, Session& session,
                                   const std::string& help, Render render, Dump dump) {
  if (cmd.empty() || cmd.starts_with("#")) return Reply{"", true, false};
  if (cmd == "help" || cmd == "?") return Reply{help, true, false};
  if (cmd == "quit" || cmd == "exit") return Reply{"", true, true};
  if (cmd == "state") return Reply{render(session.state()), true, false};
  if (cmd == "undo" || cmd == "redo") {
    const std::string before = render(session.state());
    const bool undo = cmd == "undo";
    if (!(undo ? session.undo() : session.redo()))
      return Reply{undo ? "nothing to undo\n" : "nothing to redo\n", false, false};
    return Reply{
        (undo ? "undone\n" : "redone\n") + text::changed_lines(before, render(session.state())),
        true, false};
  }
  if (cmd == "log") {
    std::string out;
    for (const auto& c : session.log())
      out += dump(c) + "\n";
    return Reply{out, true, false};
  }
  return std::nullopt;
}

template <class Session>
std::optional<ConsoleReply> SessionConsole<Session>::session_word(const std::string& cmd,
                                                                  const std::string& help,
                                                                  bool replace_bad_utf8) {
  return session_words<Reply>(
      cmd, session_, help, [](const auto& state) { return render(state); },
      [replace_bad_utf8](const auto& command) {
        const nlohmann::json j(command);
        return replace_bad_utf8 ? j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace)
                                : j.dump();
      });
}

}  // namespace duels::cards
