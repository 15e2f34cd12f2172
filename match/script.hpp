#pragma once
/// @file The match command language: one line, one action. Used by `duels match play --script`,
/// the interactive console of `duels match resume`, and the GUI's console.
///
///   alpha 6+5 2+3                  2d6 per team still rolling for alpha, in seating order
///   terrain crate | pass           the placing team puts down a piece, or places no more
///   place Razor 30 57              put a figure on the table (centre, inches)
///   choose Razor yellow:d8 #4 …    dice from the cup to the base (notation or #index); "none"
///   move Razor [9] to 30 48 [roll white:d6=3]  (the table measures the path; a typed 9 must agree)
///   terrain crate [rect X Y W D [ANGLE] | circle X Y R | polygon X1 Y1 …]
///   attack Razor Hex [gap 11.5 [chord 2]] [blocked crate] with blue:d8 blue:d10:ace
///                                  (no gap: measured from the bases' positions)
///   dodge white:d6 | dodge none
///   roll 5 ace / 3 [bonus yellow]  attack faces, then dodge faces after '/'; plain "roll" rolls
///                                  virtually with the match's seeded roller
///   gear cyberdeck                 the defender gives up a gear piece (black ace)
///   damage head|weapon|body
///   end [Razor]                    end the figure's turn
///   undo | redo | auto [N] | show | help
/// Figure names are case-insensitive; `#` starts a comment.

#include <optional>
#include <string>
#include <string_view>
#include <variant>

#include "common/error.hpp"
#include "dice/roller.hpp"
#include "duels/commands.hpp"
#include "duels/state.hpp"

namespace duels::match {

/// A console instruction that is not a rules command.
struct ConsoleAction {
  enum Kind { Undo, Redo, Auto, Show, Help, Nothing } kind = Nothing;
  int count = 0;  ///< for Auto: how many commands (0 = to the end of the match)
};

/// One parsed line.
using ScriptLine = std::variant<Command, ConsoleAction>;

/// Parses a line against the current state (names and dice are looked up in it). Virtual rolls
/// use `rng`. Errors say what was expected, in words.
Expected<ScriptLine, std::string> parse_script_line(const GameState& state, std::string_view line,
                                                    dice::Rng& rng);

/// The help text listing the language.
std::string_view script_help();

}  // namespace duels::match
