#pragma once
/// @file The bounds of every number and list a Duels command carries: one definition that the
/// engine enforces when a command is played and the journal reader enforces when it is read back,
/// so a command the engine accepts is always a command its journal replays.

#include <cstddef>
#include <optional>
#include <string>

#include "duels/commands.hpp"

namespace duels::limits {

/// Figure, team and die numbers a command may name.
inline constexpr int kMaxId = 4096;
/// Team numbers in a roll for alpha (at most this many teams roll).
inline constexpr int kMaxTeams = 16;
/// Dice, rolls and results in one command's list.
inline constexpr std::size_t kMaxListEntries = 64;
/// Coordinates of a point or a terrain piece, in inches (strictly inside ±this).
inline constexpr double kMaxCoordIn = 1e6;
/// A round terrain piece's radius, in inches.
inline constexpr double kMinRadiusIn = 1e-6;
inline constexpr double kMaxRadiusIn = 1e3;
/// Corners of a terrain outline.
inline constexpr std::size_t kMinCorners = 3;
inline constexpr std::size_t kMaxCorners = 256;
/// The least area (square inches) a terrain outline encloses.
inline constexpr double kMinAreaIn2 = 1e-6;
/// A typed distance, gap or chord, in inches.
inline constexpr double kMaxDistanceIn = 1e6;
/// A face a die shows (the largest die has 12 sides).
inline constexpr int kMinFace = 1;
inline constexpr int kMaxFace = 12;
/// Bytes in a name a command carries (a terrain piece, a gear id, a blocker).
inline constexpr std::size_t kMaxNameBytes = 256;

/// What is out of bounds in a command, in a player's words (nullopt: every field is in bounds).
/// The engine refuses such a command before it looks at the game; the journal reader refuses a
/// line that holds one.
std::optional<std::string> command_fault(const Command& command);

}  // namespace duels::limits
