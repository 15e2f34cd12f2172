#pragma once
/// @file What every card game's console does the same way: submitting a typed line's commands
/// (all or none, one undo step) and printing the events and the changed lines of the state, and
/// the session words (blank and # lines, help, quit, state, undo, redo, log). Each game's
/// console keeps only its own command language.

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "cards/common/text.hpp"

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
  Session session_;
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

}  // namespace duels::cards
