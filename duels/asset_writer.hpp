#pragma once
/// @file Writing figures and teams as the files assets.hpp reads: what `duels figure new` and
/// the window's figure editor and team builder save into the player's data folder. Everything
/// written here reads back equal through load_asset_text (tests check the round trip).

#include <string>
#include <string_view>
#include <vector>

#include "common/error.hpp"
#include "duels/assets.hpp"

namespace duels {

/// One figure as a figure file (schema_version, `figures:` with this figure).
std::string figure_file_text(const FigureDef& figure);
/// One team as a team file (schema_version, `teams:` with this team).
std::string team_file_text(const TeamDef& team);

/// A dial position as typed: "5", "5 yellow", "4 hole", "0 hole hole hole". The error says what
/// was expected instead, in words.
Expected<DialPosition, std::string> parse_dial_position(std::string_view text);
/// The position as it is typed and written ("5 yellow hole").
std::string dial_position_text(const DialPosition& position);
/// A tape track as typed: "blue 0 14" (colour, from, to in inches).
Expected<Track, std::string> parse_tape_track(std::string_view text);
/// A damage bonus as typed: "yellow:1 red:2" (empty: none).
Expected<std::map<dice::Colour, int>, std::string> parse_damage_bonus(std::string_view text);

/// Every problem the loader finds in this figure as written (fields like
/// "figures[0].dials.head"), plus a name that `library` already has (naming its file). Empty
/// when `duels figure check` would pass the saved file.
std::vector<DataError> check_figure(const FigureDef& figure, const AssetLibrary* library,
                                    const std::string& file = "<figure>");
/// The same for a team: known figures and gear, at most 12 gear points each.
std::vector<DataError> check_team(const TeamDef& team, const AssetLibrary& library,
                                  const std::string& file = "<team>");

/// A file name for a name: "Street Samurai #2" → "street-samurai-2".
std::string file_stem(std::string_view name);

/// Saves a figure, gear or team file: makes its folder when it is missing, then writes it with
/// write_file_atomically() (common/atomic_file.hpp: the old file or the new one, never half;
/// never through a link or onto a device). Throws DataException when it cannot.
void save_asset_file(const std::string& path, const std::string& text);

}  // namespace duels
