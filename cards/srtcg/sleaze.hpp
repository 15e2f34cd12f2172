#pragma once
/// @file The sleaze calculator (spec C2.5 step 4, C4.1): the team's summed skills against a
/// Challenge's requirement, Anti-social, and the smallest team that sleazes the known
/// Challenges.

#include <optional>
#include <string>
#include <vector>

#include "cards/srtcg/notation.hpp"
#include "cards/srtcg/rules.hpp"

namespace duels::cards::srtcg {

/// The sleaze check for runners given as cards (their skills and the Anti-social trait).
SleazeCheck sleaze_team(const std::vector<RunnerCard>& team, const Ratings& requirement);

/// The smallest set of runners (at most `max_team`) that sleazes every requirement, the
/// strongest such set by total Attack + Body among the smallest; nullopt when none does.
/// Indices into `runners`, ascending.
std::optional<std::vector<int>> smallest_sleaze_team(const std::vector<RunnerCard>& runners,
                                                     const std::vector<Ratings>& requirements,
                                                     int max_team = 6);

}  // namespace duels::cards::srtcg
