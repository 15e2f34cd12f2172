#pragma once
/// @file `duels bench evening`: an evening of play as the camera sees it (issue 51, "the match
/// is the camera's memory"). Each table of a coverage scenario (vision/coverage.hpp: its camera,
/// bases, figures, lamp and degradation) is played for a few rounds: the bases stand placed with
/// no dice at first; at every round's start a hand sweeps over the table while 3–6 dice are put
/// on every base; then one figure moves at a time (a hand over it, its dice with it) and some of
/// its dice are taken off as they are rolled; what is left is taken off at the round's end. The
/// match knows where every figure was placed and, once the player confirms a move a second after
/// the base stops, where it ended (Pipeline::set_match_spots). Every frame is rendered with the
/// LiveRenderer, damaged by vision/degrade and run through the real pipeline; each standing base
/// is scored in each frame: at its place under its name, not named, or a name at a wrong place.

#include <opencv2/core.hpp>

#include <iosfwd>
#include <string>
#include <vector>

#include "vision/coverage.hpp"
#include "vision/naming.hpp"
#include "vision/scene.hpp"

namespace duels::vision {

/// One evening: the tables (seeds) of a coverage scenario, and how they are played.
struct EveningScenario {
  /// Camera, bases, figures, lamp, degradation and seeds; its dice_min–dice_max dice are put on
  /// every base at every round's start.
  CoverageScenario table;
  int rounds = 2;
  int moves_per_round = 4;  ///< figures moved one after another in a round
  bool hands = true;        ///< a hand over the table as dice go on, and over every moved figure
  bool match = true;        ///< the pipeline is told the match's spots (else the camera alone)
  double confirm_s = 1.0;   ///< the player confirms a move this long after the base stops
  /// When set, every wrong name and every false ring is told there, with its frame and place,
  /// and each base scored right in fewer than 99 % of its frames, with its share.
  std::ostream* explain = nullptr;
  /// When set, every frame with a wrong name or a false ring is written there as a PNG (as the
  /// pipeline saw it).
  std::string save_dir;
};

/// A change of the match's spots: from `time_s` on the match has `spot.figure` at its centre.
struct SpotChange {
  double time_s = 0;
  MatchSpot spot;
};

/// A table played as an evening: the scene (moves, dice, hands in it) and the match's spots.
struct EveningTable {
  SceneSpec spec;
  std::vector<SpotChange> spots;  ///< in time order, the placements at 0 first
  /// When each move is under way (a hand lifting the base until it is put down and settled):
  /// the base is not scored then.
  struct Move {
    std::string figure;
    double from_s = 0;
    double to_s = 0;
  };
  std::vector<Move> moves;
};

/// The spots of the match at `time_s`.
std::vector<MatchSpot> spots_at(const EveningTable& table, double time_s);

/// The evening played on one table (seed) of the scenario.
EveningTable evening_table(const EveningScenario& scenario, int seed);

/// The scores, all tables together. A base is scored in every frame but while it is moved (from
/// the hand reaching for it until a second after it is put down).
struct EveningResult {
  std::string name;
  int tables = 0;
  int frames = 0;
  int moves = 0;
  long scored = 0;    ///< bases × frames scored
  long in_sight = 0;  ///< of those, bases the camera could see (half their code band or more in
                      ///< view: not hidden behind figures; dice may lie on it)
  long right_in_sight = 0;  ///< of those, right
  long right = 0;  ///< reported (seen, or kept at its last place while hidden) within 1" of its
                   ///< place under its own name
  long hidden_right = 0;   ///< of those, kept at its last place while not seen
  long wrong = 0;          ///< a name reported (seen) more than 1" from its figure, base × frame
  int wrong_bases = 0;     ///< bases given a wrong place or name at least once
  long false_rings = 0;    ///< unnamed rings reported more than 1" from every base, × frames
  double worst_frame = 1;  ///< the lowest share of the scored bases right in one frame
  double pipeline_ms = 0;  ///< median per frame, one core
  [[nodiscard]] double right_share() const {
    return scored ? static_cast<double>(right) / static_cast<double>(scored) : 0.0;
  }
  [[nodiscard]] double right_in_sight_share() const {
    return in_sight ? static_cast<double>(right_in_sight) / static_cast<double>(in_sight) : 0.0;
  }
};

/// Plays the scenario's evening on one core.
EveningResult run_evening(const EveningScenario& scenario);

}  // namespace duels::vision
