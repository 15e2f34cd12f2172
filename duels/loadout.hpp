#pragma once
/// @file Match set-ups from the asset library: sample teams by name, or loadouts written
/// "FIGURE+GEAR+GEAR" (";" between the figures of one team). Errors name the flag or field they
/// came from.

#include <string>
#include <vector>

#include "duels/assets.hpp"
#include "duels/engine.hpp"

namespace duels {

/// "Razor+armored-jacket+smartgun-link" → the figure with that gear (≤ 12 points).
FigureSetup parse_loadout(const AssetLibrary& lib, const std::string& spec, const char* field);
/// A set-up from team names (assets/teams), in seating order.
MatchSetup setup_from_teams(const AssetLibrary& lib, const std::vector<std::string>& teams);
/// A set-up from loadouts, one team per entry: "FIGURE[+GEAR…]" or several figures separated by
/// ';' ("Razor+stim-patch;Hex"). Figures that repeat are named apart (see name_apart).
MatchSetup setup_from_loadouts(const AssetLibrary& lib, const std::vector<std::string>& loadouts,
                               const char* field);
/// Numbers every figure name (and team name) that occurs more than once ("Razor-1", "Razor-2"),
/// so that a mirror match can still name each figure in commands.
void name_apart(MatchSetup& setup);

}  // namespace duels
