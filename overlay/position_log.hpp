#pragma once
/// @file Manual position overrides, journaled. When the camera is off or wrong a player drags a
/// base on the map; the rules engine has no command for "the base is really here" (see
/// "Dragging a base" in docs/window.md), so the overlay keeps these corrections in a journal of its
/// own beside the match's (`MATCH.positions.jsonl`, same append-only format, synced per line),
/// each tied to the match event it followed. A later move of that figure in the match wins.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "match/duels_match.hpp"
#include "match/journal.hpp"
#include "match/positions.hpp"
#include "overlay/table_model.hpp"

namespace duels::overlay {

/// The journal kind of a position-override log, and one correction (match/positions.hpp).
using match::kPositionsKind;
using match::PositionEntry;

/// The override log of one match journal.
class PositionLog {
 public:
  /// The log's file for a match journal.
  static std::string path_for(const std::string& match_journal);
  /// Opens the log beside `match_journal`, creating it on the first record. Throws
  /// DataException when an existing log is not a position log.
  static PositionLog open(const std::string& match_journal);

  /// Appends one correction (written and synced before it returns).
  void record(const PositionEntry& entry);
  [[nodiscard]] const std::vector<PositionEntry>& entries() const { return entries_; }
  [[nodiscard]] const std::string& path() const { return path_; }

 private:
  explicit PositionLog(std::string path) : path_(std::move(path)) {}
  std::string path_;
  std::string match_name_;
  std::vector<PositionEntry> entries_;
  std::optional<match::JournalWriter> writer_;
};

/// The overrides in force after match event `upto_seq`: the last correction of each figure made
/// at or before it, unless the figure was placed or moved in the match after the correction.
PositionOverrides effective_overrides(const std::vector<PositionEntry>& entries,
                                      const std::vector<match::MatchStep>& steps,
                                      std::uint64_t upto_seq);

}  // namespace duels::overlay
