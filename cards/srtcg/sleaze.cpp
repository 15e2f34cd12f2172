#include "cards/srtcg/sleaze.hpp"

#include <cstdint>

namespace duels::cards::srtcg {

SleazeCheck sleaze_team(const std::vector<RunnerCard>& team, const Ratings& requirement) {
  std::vector<Ratings> skills;
  std::vector<bool> anti;
  for (const RunnerCard& r : team) {
    skills.push_back(r.skills);
    anti.push_back(r.traits.count("Anti-social") != 0);
  }
  SleazeCheck check = sleaze_check(skills, anti, requirement);
  for (const RunnerCard& r : team) {
    if (r.traits.count("Anti-social") != 0) check.anti_social.push_back(r.name);
  }
  return check;
}

std::optional<std::vector<int>> smallest_sleaze_team(const std::vector<RunnerCard>& runners,
                                                     const std::vector<Ratings>& requirements,
                                                     int max_team) {
  constexpr std::size_t kMaxRunners = 20;
  if (runners.size() > kMaxRunners) return std::nullopt;
  const std::uint32_t masks = 1U << runners.size();
  std::optional<std::vector<int>> best;
  int best_size = max_team + 1;
  int best_strength = -1;
  for (std::uint32_t m = 1; m < masks; ++m) {
    const int size = __builtin_popcount(m);
    if (size > max_team || size > best_size) continue;
    std::vector<RunnerCard> team;
    std::vector<int> idx;
    int strength = 0;
    for (std::size_t i = 0; i < runners.size(); ++i) {
      if (((m >> i) & 1U) == 0) continue;
      team.push_back(runners[i]);
      idx.push_back(static_cast<int>(i));
      strength += runners[i].threat.attack + runners[i].threat.body;
    }
    bool all = true;
    for (const Ratings& req : requirements)
      all = all && sleaze_team(team, req).met;
    if (!all) continue;
    if (size < best_size || (size == best_size && strength > best_strength)) {
      best = idx;
      best_size = size;
      best_strength = strength;
    }
  }
  return best;
}

}  // namespace duels::cards::srtcg
