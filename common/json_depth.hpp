#pragma once
/// @file How deep JSON text nests, found without parsing it: text nested deeper than a fixed
/// limit is refused before any parser, printer or checksum recurses into it (a line nested
/// 100,000 deep would otherwise overflow the stack of whatever walks it).

#include <string_view>

namespace duels {

/// The deepest nesting any JSON this program reads may have: arrays and objects inside each
/// other at most this many levels (a journal line uses 6).
inline constexpr int kMaxJsonDepth = 64;

/// True when `text`, read as JSON, opens more than `limit` arrays or objects inside each other
/// (brackets inside strings do not count). Stops scanning at the first level past the limit.
bool json_deeper_than(std::string_view text, int limit = kMaxJsonDepth);

}  // namespace duels
