#pragma once
/// @file The figure editor's and team builder's state, kept outside the widgets (no ImGui):
/// the fields as typed, each checked as it is typed, the figure they make, and saving it into
/// the player's data folder. Tests drive it headless; the panels draw it.

#include <array>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "duels/assets.hpp"

namespace duels::overlay {

/// Where figures, gear and teams are read from: the bundled samples and the player's own data
/// folder ($XDG_DATA_HOME/duels-companion, with figures/, gear/, teams/).
struct AssetFolders {
  std::string bundled;
  std::string user;
};

/// The library the editor and builder see, reloaded after each save.
class EditorLibrary {
 public:
  explicit EditorLibrary(AssetFolders folders);
  void reload();
  [[nodiscard]] const AssetLibrary& library() const { return library_; }
  [[nodiscard]] const AssetFolders& folders() const { return folders_; }
  /// Why the folders could not be read (the library is then the bundled one alone, or empty).
  [[nodiscard]] const std::string& error() const { return error_; }
  /// Bumped by every reload.
  [[nodiscard]] std::uint64_t version() const { return version_; }

 private:
  AssetFolders folders_;
  AssetLibrary library_;
  std::string error_;
  std::uint64_t version_ = 0;
};

/// A figure as typed into the editor, field by field. Each dial is a list of what it shows,
/// click by click from the green arrow ("7", "5 yellow", "3 hole").
struct FigureDraft {
  std::string name;
  std::string collector_number;
  std::string points;
  std::string diameter = "2";
  std::string height = "0.75";
  std::string dice;
  std::string bonus;
  std::array<std::vector<std::string>, 3> dials{
      std::vector<std::string>{""}, std::vector<std::string>{""}, std::vector<std::string>{""}};
  std::array<int, 3> turned{};  ///< the click each dial is turned to in the editor
  std::vector<std::string> tape{""};

  /// Turns a dial one click on, adding an empty position past its last one.
  void click_forward(DialKind dial);
  /// Turns a dial one click back (not before the green arrow).
  void click_back(DialKind dial);
  /// Removes the position the dial is turned to (not the last one left).
  void remove_click(DialKind dial);
  /// What the dial shows at the click it is turned to.
  std::string& showing(DialKind dial);
};

/// The draft checked: an error per field key ("name", "points", "dice", "bonus", "diameter",
/// "height", "head.3", "tape.1", …), the figure when every field reads, and the problems the
/// loader (`duels figure check`) finds in it as a whole.
struct DraftCheck {
  std::map<std::string, std::string> field_errors;
  std::optional<FigureDef> figure;
  std::vector<std::string> problems;  ///< whole-figure problems, in words
  std::string path;                   ///< where Save writes
  [[nodiscard]] bool ok() const { return figure && field_errors.empty() && problems.empty(); }
};

/// Checks a draft against the library (a name clash is a problem naming the other file).
/// `editing`: the file the draft was loaded from (saving over it is no clash).
DraftCheck check_draft(const FigureDraft& draft, const EditorLibrary& library,
                       const std::string& editing = {});

/// The dials as far as they read (unreadable positions show as value 0), for the preview.
FigureDef preview_figure(const FigureDraft& draft);

/// A draft with the fields of a figure (to edit one of the player's own figures).
FigureDraft draft_of(const FigureDef& figure);

/// Saves a checked draft (atomically) and reloads the library; returns the file written.
/// Throws DataException when the draft has problems or the file cannot be written.
std::string save_draft(const FigureDraft& draft, EditorLibrary& library,
                       const std::string& editing = {});

/// Points of a member's gear, and the team's value (figures plus gear), from the library.
int gear_points(const LoadoutEntry& member, const AssetLibrary& library);
int team_value(const TeamDef& team, const AssetLibrary& library);
/// Problems with a team (unknown names, over 12 gear points, no members, no name), in words.
std::vector<std::string> team_problems(const TeamDef& team, const EditorLibrary& library);
/// Saves a team into the data folder's teams/ (atomically) and reloads the library.
std::string save_team(const TeamDef& team, EditorLibrary& library);

}  // namespace duels::overlay
