#pragma once
/// @file How a name the player gives reaches a base, the same in ring and markerless mode
/// (square markers name their bases themselves): a base whose centre lies within its radius of the
/// point takes the name at once (the player pointed at it); otherwise, once the name has waited
/// kNameWaitS, the base seen nearest the point within kNameReachIn (a point typed roughly). A point
/// farther than kNameReachIn off the table can name no base.

#include <opencv2/core/types.hpp>

#include <string>

namespace duels::vision {

/// A name the player gave that no base has taken yet: no base seen where it points (nor, once
/// it has waited, within reach).
struct WaitingName {
  std::string figure;
  cv::Point2d near_in;  ///< the table point it was given at, inches
};

/// Where the match has a figure's base (issue 51, "the match is the camera's memory"): its
/// centre where the figure was placed or its last move ended, or where a player put it by hand
/// on the map. A ring the camera sees there is that figure's base, whatever its code reads
/// under the dice lying on it.
struct MatchSpot {
  std::string figure;
  cv::Point2d centre_in;  ///< table inches
};

/// How far from its point a name reaches, in inches.
inline constexpr double kNameReachIn = 3.0;

/// How long a name waits for a base where it points before the nearest one within reach
/// takes it, in seconds.
inline constexpr double kNameWaitS = 1.0;

/// Whether a name waiting since `since_s` has waited long enough at `time_s` (frame times come
/// in steps such as 0.1 s, whose sums are not exact).
[[nodiscard]] constexpr bool name_has_waited(double since_s, double time_s) {
  return time_s - since_s >= kNameWaitS - 1e-6;
}

}  // namespace duels::vision
