#pragma once
/// @file The position-override log's records (`MATCH.positions.jsonl`): a base put at a point by
/// hand in the window, or handed back to the match. The log is a journal of its own kind; its
/// reader lives here, beside the match's, so `duels match repair` can cut a damaged log back to
/// its last whole record as it does a match (the window that writes it is overlay/position_log).

#include <cstdint>
#include <optional>
#include <string>

#include "duels/state.hpp"
#include "match/journal.hpp"

namespace duels::match {

/// The journal kind of a position-override log.
inline constexpr const char* kPositionsKind = "duels-positions";

/// One correction: a figure put at a point by hand (or handed back to the match: no point).
struct PositionEntry {
  FigureId figure = 0;
  std::optional<Point> at;
  std::uint64_t after_seq = 0;  ///< the match journal's last event when it was made
  friend bool operator==(const PositionEntry&, const PositionEntry&) = default;
};

/// The record of one log entry; throws DataException naming `path`, the line and the field.
PositionEntry position_entry_from(const JournalEntry& entry, const std::string& path);

/// How far a position log reads: its entries up to the first one that is not a correction.
struct PositionLogRead {
  std::uint64_t last_seq = 0;
  std::optional<DataError> error;
};
PositionLogRead read_position_entries(const JournalContents& contents, const std::string& path);

}  // namespace duels::match
