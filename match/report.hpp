#pragma once
/// @file What happened in a match, as numbers: every roll, damage per round, dial history,
/// dice luck against the exact expected distribution. `duels match report` renders it.

#include <map>
#include <string>
#include <vector>

#include "match/duels_match.hpp"

namespace duels::match {

/// One die rolled in the match.
struct RollRecord {
  std::uint64_t seq = 0;
  int round = 0;
  std::string figure;   ///< whose die ("" for the alpha roll)
  std::string purpose;  ///< "attack", "dodge", "move", "alpha"
  dice::Die die;
  int face = 0;  ///< 1..sides (1 on an ace die = the ace)
};

/// Observed faces of one kind of die (e.g. all d8s) against the uniform distribution.
struct DiceLuck {
  int sides = 0;
  std::vector<int> observed;  ///< observed[f-1] = times face f came up
  int rolls = 0;
  double chi_square = 0;
  double p_value = 1;  ///< P(χ² ≥ observed) with sides−1 degrees of freedom
};

/// A figure's dials after an event.
struct DialSnapshot {
  std::uint64_t seq = 0;
  int round = 0;
  std::array<int, 3> position{};
  std::array<int, 3> value{};
};

/// The story and the numbers.
struct MatchReport {
  std::string title;
  std::vector<std::string> teams;  ///< "Street Team: Razor (armored-jacket, …)"
  std::string result;
  int rounds = 0;
  std::vector<std::pair<int, std::vector<std::string>>> story;  ///< (round, lines)
  std::vector<RollRecord> rolls;
  std::vector<DiceLuck> luck;                               ///< by die size
  std::map<std::string, std::vector<int>> damage_by_round;  ///< figure → clicks taken per round
  std::map<std::string, std::vector<DialSnapshot>> dials;   ///< figure → history
};

/// Builds the report by replaying the match.
MatchReport build_report(const Replay& replay);

/// P(χ²_k ≥ x): the upper tail of the chi-square distribution.
double chi_square_p_value(double x, int degrees_of_freedom);

}  // namespace duels::match
