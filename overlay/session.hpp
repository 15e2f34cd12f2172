#pragma once
/// @file The overlay's application state, kept outside the widgets (Dear ImGui's rule): the
/// match and its journal, what is selected, what the combat wizard and the move tool have picked
/// so far, the dice roller, the built-in opponent. Panels read it each frame and call its
/// actions; every rules command goes through `match::DuelsMatch::play`, so it is journaled.
/// No ImGui here: the session is driven headless by the tests and the benchmark.

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "dice/distribution.hpp"
#include "dice/roller.hpp"
#include "duels/autoplay.hpp"
#include "duels/combat.hpp"
#include "match/duels_match.hpp"
#include "overlay/move_proposal.hpp"
#include "overlay/odds_worker.hpp"
#include "overlay/position_log.hpp"
#include "overlay/table_model.hpp"

namespace duels::overlay {

/// How a session runs (filled by `duels gui` and `duels demo`).
struct SessionOptions {
  std::uint64_t ui_seed = 0;   ///< seeds this session's virtual dice (0: from the match)
  std::vector<bool> ai_teams;  ///< teams the built-in opponent plays (by TeamId)
  bool auto_run = false;       ///< the opponent acts by itself for its teams
  double step_delay_s = 0.7;   ///< pause between the opponent's steps
  bool threaded_odds = true;   ///< work out odds off the UI thread
  double roll_animation_s = 0.6;
  /// Writes the match report for a journal into a folder; returns a message. Empty: a plain
  /// Markdown story is written instead.
  std::function<std::string(const std::string& journal, const std::string& out_dir)> export_report;
};

/// A line under the menu bar: what just happened or why something was refused.
struct StatusLine {
  std::string text;
  bool error = false;
};

/// A virtual roll of the attack being animated (the faces are decided when it starts).
struct PendingRoll {
  std::vector<int> attack_faces;
  std::vector<int> dodge_faces;
  double started_s = 0;
  bool settled = false;  ///< the animation is over; waiting for the attacker's bonus pick
};

/// What the combat wizard has picked beyond what the match records.
struct WizardState {
  std::vector<DieId> attack_pick;  ///< indices into the attacker's dice
  std::vector<DieId> dodge_pick;   ///< indices into the defender's dice
  std::optional<PendingRoll> rolling;
  std::vector<std::string> attack_typed;  ///< physical results as typed, per attack die
  std::vector<std::string> dodge_typed;
  std::optional<dice::Colour> bonus_pick;
};

/// The move tool: the figure moving, the movement dice picked and rolled.
struct MoveTool {
  bool active = false;
  FigureId figure = 0;
  std::vector<DieId> dice_pick;
  std::vector<DieRoll> rolls;  ///< rolled movement dice (empty until rolled)
  bool rolled = false;
};

/// One roll of the dice roller.
struct RollerEntry {
  std::string pool;
  std::vector<dice::Roll> rolls;
  int total = 0;
};

/// The dice roller panel's state.
struct RollerState {
  std::string pool_text = "2xwhite:d6 yellow:d8:ace";
  std::vector<RollerEntry> history;  ///< newest first
  std::string error;                 ///< notation mistake of pool_text, with a caret line
  std::optional<dice::Distribution> distribution;  ///< exact sum distribution of pool_text
  std::string distribution_of;                     ///< the text it was worked out for
};

/// The team whose decision the match waits for; nullopt when every team acts at once (alpha
/// roll, choosing dice) or the match is over.
std::optional<TeamId> deciding_team(const GameState& state);
/// The team that issues a command.
std::optional<TeamId> command_team(const GameState& state, const Command& command);

/// The faces of an attack as the engine would resolve them (steps E–L), for previews.
std::pair<AttackInput, AttackResult> preview_roll(const GameState& state,
                                                  const std::vector<int>& attack_faces,
                                                  const std::vector<int>& dodge_faces,
                                                  std::optional<dice::Colour> bonus);

/// Parses a typed face: "1".."12" or "ace" (an ace die's 1). nullopt when it is not a face of
/// this die.
std::optional<int> parse_face(const std::string& text, const dice::Die& die);

/// The overlay's state and actions.
class Session {
 public:
  Session(match::DuelsMatch match, TableLayout layout, SessionOptions options);
  ~Session();
  Session(const Session&) = delete;
  Session& operator=(const Session&) = delete;

  // ---- reading -------------------------------------------------------------------------------
  /// The state shown: the live match, or the past event the log jumped to.
  [[nodiscard]] const GameState& state() const;
  [[nodiscard]] const match::Replay& history() const;
  [[nodiscard]] bool live() const { return !past_.has_value(); }
  [[nodiscard]] const std::string& journal_path() const { return match_.path(); }
  [[nodiscard]] const TableLayout& layout() const { return layout_; }
  [[nodiscard]] const TableView& table() const { return view_; }
  [[nodiscard]] const PositionOverrides& overrides() const { return overrides_; }
  [[nodiscard]] const StatusLine& status() const { return status_; }
  [[nodiscard]] const SessionOptions& options() const { return options_; }
  /// Bumped whenever the shown state, positions or terrain change (caches key on it).
  [[nodiscard]] std::uint64_t version() const { return version_; }

  /// The measurement between two figures on the table (cached until the next change).
  const AttackMeasure& measure(FigureId attacker, FigureId target);

  // ---- selection -----------------------------------------------------------------------------
  std::optional<FigureId> selected;  ///< the figure whose tape and actions are shown
  std::optional<FigureId> target;    ///< the figure it would attack
  bool target_locked = false;        ///< clicked (hover no longer changes it)
  std::optional<FigureId> hovered;   ///< base under the mouse this frame
  void select(FigureId figure);
  /// Sets the target; a hover (lock = false) does not replace a clicked target.
  void set_target(FigureId figure, bool lock);

  // ---- commands ------------------------------------------------------------------------------
  /// Plays a command through the journal. False (with the reason in the status line) when the
  /// rules refuse it or the log is showing the past.
  bool play(const Command& command);
  void undo();
  void redo();
  /// Shows the match as it was after journal event `seq` (read-only).
  void jump_to(std::uint64_t seq);
  void go_live();
  /// Undoes (journaled) every command after the event being viewed, then goes live.
  void play_on_from_here();
  /// Writes the report next to the journal (or into `out_dir`); the message goes to the status.
  void export_report(const std::string& out_dir = "");

  // ---- set-up --------------------------------------------------------------------------------
  void roll_alpha();
  void place_terrain(const std::string& id);
  void pass_terrain();
  void place_figure(FigureId figure, Vec2 at);
  std::map<FigureId, std::vector<DieId>> dice_plan;  ///< dice picked from each cup this round
  void toggle_plan_die(FigureId figure, DieId die);
  void confirm_dice(FigureId figure);

  // ---- turns: moving -------------------------------------------------------------------------
  MoveTool move;
  void begin_move(FigureId figure);
  void cancel_move();
  void toggle_move_die(DieId die);
  void roll_move_dice();
  [[nodiscard]] int move_allowance_in() const;
  /// The region the moving base may end in with the current allowance (cached).
  const ReachResult* reach();
  /// The shortest legal path to `goal` (the moving base's centre).
  PathResult move_path(Vec2 goal);
  void move_to(Vec2 goal);
  void end_turn(FigureId figure);

  // ---- turns: the combat wizard --------------------------------------------------------------
  WizardState wizard;
  /// The attacker the wizard is about: the attack under way, else the selected figure.
  [[nodiscard]] std::optional<FigureId> attacker() const;
  /// The target: the attack under way's, else the hovered or clicked one.
  [[nodiscard]] std::optional<FigureId> attack_target() const;
  /// Dice on the attacker's base that may take part in an attack on the target now.
  std::vector<DieId> attack_candidates();
  void toggle_attack_die(DieId die);
  /// Every legal attack subset ranked by the advisor (nullptr while being worked out).
  std::shared_ptr<const OddsAnswer> attack_advice();
  void declare_attack();
  /// Dice on the defender's base that may dodge.
  [[nodiscard]] std::vector<DieId> dodge_candidates() const;
  void toggle_dodge_die(DieId die);
  /// Each legal dodge subset (and no dodge) against the attack under way, best first.
  std::shared_ptr<const OddsAnswer> dodge_advice();
  void choose_dodge(bool none);
  /// Starts the virtual roll (animated; applied when the animation ends, or after the bonus
  /// pick when several bonuses could apply).
  void start_virtual_roll();
  /// Applies the physical results typed in `wizard`.
  void apply_typed_roll();
  /// Applies the settled virtual roll with `wizard.bonus_pick`.
  void apply_settled_roll();
  void remove_gear(const std::string& gear_id);
  void assign_damage(DialKind dial);

  // ---- the built-in opponent -----------------------------------------------------------------
  std::vector<bool> ai_teams;
  bool auto_run = false;
  /// Lets the built-in opponent make the next decision, for whichever team must decide
  /// (`any_team`) or only when it is one of `ai_teams`. False when it had nothing to do.
  bool ai_step(bool any_team);

  // ---- the dice roller -----------------------------------------------------------------------
  RollerState roller;
  void roll_pool();
  /// Re-parses `roller.pool_text` when it changed (distribution and error).
  void refresh_roller();

  // ---- vision seam ---------------------------------------------------------------------------
  /// Base positions reported by the camera, once per camera frame. A base that settles away
  /// from where the match has it gets a move proposal (see move_proposal.hpp). `unnamed`: the
  /// bases it sees but cannot name (they block lines of fire, see TableView::unnamed).
  void set_vision(std::vector<TrackedBasePosition> bases, std::vector<Disc> unnamed = {});
  /// Whether the camera reports any base.
  [[nodiscard]] bool vision_active() const { return !vision_.empty(); }
  /// The moves the camera saw, judged against the live match, by figure.
  [[nodiscard]] const std::map<FigureId, MoveProposal>& proposals() const {
    return watcher_.proposals();
  }
  /// Plays a legal proposal as `move FIGURE to X Y` (journaled, undoable). False (with the
  /// reason in the status line) when there is none, it is illegal or the base is moving.
  bool confirm_proposal(FigureId figure);
  /// The player dragged the proposal's end point to `to`: it is judged again.
  void correct_proposal(FigureId figure, Vec2 to);

  // ---- per frame -----------------------------------------------------------------------------
  /// Advances time: finishes roll animations and runs the opponent when `auto_run`.
  void tick(double now_s);
  [[nodiscard]] double now() const { return now_s_; }
  /// Manual position override (dragging a base on the map), journaled in the position log.
  void override_position(FigureId figure, Vec2 at);
  void clear_override(FigureId figure);
  void set_status(std::string text, bool error);

 private:
  void changed();
  void after_command();
  std::optional<Command> ai_command(bool any_team);
  [[nodiscard]] MoveRolls move_rolls() const;
  void recheck_proposals();

  match::DuelsMatch match_;
  TableLayout layout_;
  SessionOptions options_;
  std::optional<match::Replay> past_;
  PositionLog positions_;
  PositionOverrides overrides_;
  std::vector<TrackedBasePosition> vision_;
  std::vector<Disc> vision_unnamed_;
  MoveWatcher watcher_;
  bool proposals_judged_ = false;  ///< the proposals were judged at proposals_seq_ with these
  std::uint64_t proposals_seq_ = 0;
  MoveRolls proposals_rolls_;
  TableView view_;
  std::uint64_t version_ = 0;
  std::map<std::pair<FigureId, FigureId>, AttackMeasure> measures_;
  struct ReachCache {
    std::uint64_t version = 0;
    FigureId figure = -1;
    int allowance = -1;
    std::shared_ptr<MoveField> field;
    std::optional<ReachResult> region;
  } reach_;
  StatusLine status_;
  dice::Rng rng_;
  AutoPlayer ai_;
  std::unique_ptr<OddsWorker> odds_;
  double now_s_ = 0;
  double next_ai_s_ = 0;
};

}  // namespace duels::overlay
