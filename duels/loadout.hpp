#pragma once
/// @file Match set-ups from the asset library: sample teams by name, or loadouts written
/// "FIGURE+GEAR+GEAR" (one figure per team). Errors name the flag or field they came from.

#include <string>
#include <vector>

#include "duels/assets.hpp"
#include "duels/engine.hpp"

namespace duels {

/// "Razor+armored-jacket+smartgun-link" → the figure with that gear (≤ 12 points).
FigureSetup parse_loadout(const AssetLibrary& lib, const std::string& spec, const char* field);
/// A set-up from team names (assets/teams), in seating order.
MatchSetup setup_from_teams(const AssetLibrary& lib, const std::vector<std::string>& teams);
/// A set-up from loadouts, one figure per team.
MatchSetup setup_from_loadouts(const AssetLibrary& lib, const std::vector<std::string>& loadouts,
                               const char* field);

}  // namespace duels
