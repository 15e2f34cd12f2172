#pragma once
/// @file Loading figures, gear and teams from YAML (assets/). The only place in the rules
/// library that reads files; everything returns plain structs from figure.hpp.

#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "common/error.hpp"
#include "duels/figure.hpp"

namespace duels {

/// The schema version of figure, gear and team files this program reads.
inline constexpr int kAssetSchemaVersion = 1;

/// A figure with its chosen gear, as one member of a team.
struct LoadoutEntry {
  std::string figure;             ///< figure name
  std::vector<std::string> gear;  ///< gear ids
};

/// A team as written in a team file: a name and its figures with gear.
struct TeamDef {
  std::string name;
  std::vector<LoadoutEntry> members;
};

/// Every figure, gear piece and team known to the program, looked up by name / id.
struct AssetLibrary {
  std::map<std::string, FigureDef, std::less<>> figures;  ///< by name
  std::map<std::string, GearDef, std::less<>> gear;       ///< by id
  std::map<std::string, TeamDef, std::less<>> teams;      ///< by name
  /// The file each figure, gear piece and team came from (by name / id), when loaded from disk.
  std::map<std::string, std::string, std::less<>> figure_files;
  std::map<std::string, std::string, std::less<>> gear_files;
  std::map<std::string, std::string, std::less<>> team_files;

  /// Finds a figure by exact name, then case-insensitively; nullptr when unknown.
  [[nodiscard]] const FigureDef* find_figure(std::string_view name) const;
  [[nodiscard]] const GearDef* find_gear(std::string_view id) const;
};

/// Everything that went wrong in a set of files (each `file:line: field: expected`).
struct LoadReport {
  std::vector<DataError> errors;
  [[nodiscard]] bool ok() const { return errors.empty(); }
};

/// Parses one YAML document holding `figures:`, `gear:` and/or `teams:` lists and adds them to
/// `library`. Problems are appended to `report`; entries with problems are skipped. Team
/// members may also name figures and gear of `references` (e.g. the bundled library).
void load_asset_text(const std::string& text, const std::string& file, AssetLibrary& library,
                     LoadReport& report, const AssetLibrary* references = nullptr);
/// Same for a file on disk.
void load_asset_file(const std::string& path, AssetLibrary& library, LoadReport& report,
                     const AssetLibrary* references = nullptr);
/// Loads every *.yaml file under `dir` (assets/figures, assets/gear, assets/teams). Throws a
/// DataException with every problem when any file is bad.
AssetLibrary load_asset_library(const std::string& dir);
/// Loads every *.yaml under each of `dirs` (each with figures/, gear/, teams/; a missing folder
/// is skipped) into one library: the bundled samples and the player's own data folder. A name
/// (or gear id) defined in two files — a player's figure called like a sample — is an error
/// naming both files. Teams may use figures and gear of any folder.
AssetLibrary load_asset_libraries(const std::vector<std::string>& dirs);

}  // namespace duels
