#pragma once
/// @file The text console behind `duels crossfire play`: one line in, text out.
///
/// The command language (one command per line; `help` prints it) maps each line to an engine
/// Command, or to a session action (undo, redo, allocate, forecast, …). Crossfire uses no dice:
/// cards drawn and revealed are typed in. The console keeps its log in a Session; the journal
/// (match/crossfire_session.hpp) records it.

#include <string>
#include <string_view>
#include <vector>

#include "cards/common/console.hpp"
#include "cards/crossfire/metatypes.hpp"
#include "cards/crossfire/session.hpp"

namespace duels::cards::crossfire {

/// A text rendering of the state: mission, round, level and event, obstacles, runners.
std::string render(const State& state);

/// The allocator's answer for the cards played this turn (plus `offered` ones), in words.
std::string allocation_text(const State& state, const std::vector<AllocCard>& offered);

/// The incoming-damage forecast in words, current runner first.
std::string forecast_text(const State& state);

/// Reads console lines and drives a Session.
class Console : public cards::SessionConsole<Session> {
 public:
  /// `metatypes`: the table runners' HP, cards and nuyen come from (see metatypes.hpp).
  explicit Console(std::vector<Metatype> metatypes = {});

  Reply handle(std::string_view line);

  /// The command language, for `help` and the README.
  static std::string help();

 private:
  Reply submit(const Command& command, std::string prefix = {});
  Reply submit_all(const std::vector<Command>& commands);

  std::vector<Metatype> metatypes_;
};

}  // namespace duels::cards::crossfire
