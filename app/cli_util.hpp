#pragma once
/// @file Small helpers shared by the subcommands: notation parsing with CLI-friendly errors.

#include <fstream>
#include <map>
#include <string>
#include <vector>

#include "dice/die.hpp"

namespace duels::app {

/// Parses dice given as one or more arguments ("yellow:d8 blue:d6" or separate words).
std::vector<dice::Die> parse_pool_args(const std::vector<std::string>& args, const char* flag);
/// Parses rolled dice ("yellow:d8=5 …").
std::vector<dice::Roll> parse_roll_args(const std::vector<std::string>& args, const char* flag);
/// Parses colours ("yellow", repeated or comma-separated).
std::vector<dice::Colour> parse_colour_args(const std::vector<std::string>& args, const char* flag);
/// Parses "COLOUR:N" bonuses.
std::map<dice::Colour, int> parse_bonus_args(const std::vector<std::string>& args,
                                             const char* flag);

/// Opens a text file the user named (a script, a deck, …); `what` names it in errors ("script
/// file"). Throws DataException for a missing or unreadable file or a folder.
std::ifstream open_text_file(const std::string& path, const std::string& what);

}  // namespace duels::app

#include "duels/loadout.hpp"  // parse_loadout, setup_from_teams, setup_from_loadouts
