#pragma once
/// @file Moves seen by the camera, turned into the move the engine would accept. When a tracked
/// base stands still (for a few frames) away from where the match journal has it, the watcher
/// proposes the move from the journaled spot to the tracked one: the engine's shortest legal
/// path, its length against the figure's movement allowance, and either "legal" (the player
/// confirms, which plays `move FIGURE to X Y` like the console) or the engine's reason it is
/// not. The player may drag the end point (the proposal is checked again at once). An illegal
/// physical move stays flagged until a legal spot is confirmed or the figure is put back; the
/// watcher never changes the match itself. Pure: no ImGui, tested on its own.

#include <cstdint>
#include <deque>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "duels/commands.hpp"
#include "duels/geometry.hpp"
#include "duels/state.hpp"
#include "overlay/table_model.hpp"

namespace duels::overlay {

/// When a tracked base counts as moved and as standing still.
struct ProposalSettings {
  /// A base settled farther than this from its journaled spot has been moved (closer: it is
  /// where the match has it, tracking noise included).
  double moved_in = 0.5;
  /// The positions of the last `settle_frames` frames all lie within this of their mean: the
  /// base stands still.
  double still_in = 0.25;
  int settle_frames = 5;
};

/// What the engine says about a proposed move.
enum class ProposalVerdict : std::uint8_t {
  Legal,     ///< the engine accepts it
  TooFar,    ///< the shortest legal path is longer than the movement allowance
  NoWay,     ///< no legal path at all (terrain, opposing bases or the edge cut it off)
  Overlaps,  ///< the base would end on terrain or another base
  OffTable,  ///< the base would end (partly) off the table
  NotNow,    ///< the figure may not move now (not its turn, already moved, an attack on…)
};

/// The verdict in a few words ("legal", "too far", "path blocked", "overlaps", "off the table",
/// "not now").
std::string_view verdict_words(ProposalVerdict verdict);

/// The movement dice rolled for a figure's move (the move tool's), by figure.
using MoveRolls = std::map<FigureId, std::vector<DieRoll>>;

/// A move the camera saw, as the engine judges it.
struct MoveProposal {
  FigureId figure = 0;
  std::string name;
  Vec2 from;               ///< the base's centre where the match journal has it
  Vec2 tracked;            ///< where the camera sees it standing
  Vec2 to;                 ///< the proposed end: `tracked`, or where the player dragged it
  bool corrected = false;  ///< the player dragged the end point
  bool moving = false;     ///< the base is moving again (the proposal waits for it to settle)
  int allowance_in = 0;    ///< Head plus the movement dice rolled
  double length_in = 0;    ///< length of the engine's shortest legal path (0 when none)
  std::vector<Vec2> path;  ///< that path as a polyline from `from` to `to` (empty when none)
  ProposalVerdict verdict = ProposalVerdict::NotNow;
  std::string reason;  ///< why not, in the engine's words (empty when legal)
  Move command;        ///< what Confirm plays (`move FIGURE to X Y`)

  [[nodiscard]] bool legal() const { return verdict == ProposalVerdict::Legal; }
  /// One line for the status bar and the map: "Razor moved 6.32\" of 7\": legal" or
  /// "Razor moved to (24.0, 20.0): too far: Razor can reach at most 7.0\"; …".
  [[nodiscard]] std::string summary() const;
};

/// Judges the move of `figure` from its journaled spot to `to` with the engine's rules (the
/// table rules for the path, then the whole command for turn and dice).
MoveProposal evaluate_move(const GameState& state, FigureId figure, Vec2 tracked, Vec2 to,
                           const std::vector<DieRoll>& rolls);

/// Watches the tracked positions frame by frame and keeps a proposal per figure moved.
class MoveWatcher {
 public:
  explicit MoveWatcher(ProposalSettings settings = {}) : settings_(settings) {}

  /// One camera frame: the positions seen (reports under 0.5 confidence are ignored; a figure
  /// not seen keeps its proposal). Proposals are made, kept, re-aimed or dropped against the
  /// match as `state` has it. Returns the figures whose proposal appeared or changed verdict
  /// (for a line in the status bar).
  std::vector<FigureId> observe(const GameState& state,
                                const std::vector<TrackedBasePosition>& seen,
                                const MoveRolls& rolls = {});
  /// The match changed (a command, undo, dice rolled for a move): judges every proposal again,
  /// dropping those whose base now stands where the match has it.
  void recheck(const GameState& state, const MoveRolls& rolls = {});
  /// The player dragged the end point of `figure`'s proposal to `to`. False when there is none.
  bool correct(const GameState& state, FigureId figure, Vec2 to, const MoveRolls& rolls = {});
  /// The proposal of `figure` was played: where the camera saw the base then is taken as the
  /// spot the match now has (no new proposal until the base moves again).
  void confirmed(FigureId figure);

  [[nodiscard]] const std::map<FigureId, MoveProposal>& proposals() const { return proposals_; }
  [[nodiscard]] const MoveProposal* proposal(FigureId figure) const;
  [[nodiscard]] const ProposalSettings& settings() const { return settings_; }

 private:
  struct Track {
    std::deque<Vec2> recent;       ///< the last positions seen, newest last
    std::optional<Vec2> settled;   ///< where it last stood still
    std::optional<Vec2> accepted;  ///< the tracked spot at the last confirmed proposal
    Vec2 accepted_at;              ///< where that move put the base in the match
  };
  ProposalSettings settings_;
  std::map<FigureId, Track> tracks_;
  std::map<FigureId, MoveProposal> proposals_;
};

}  // namespace duels::overlay
