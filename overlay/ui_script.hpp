#pragma once
/// @file UI scripts: scripted clicks and keys by widget label, for tests and players' bug
/// reports (`duels gui --ui-script FILE`). One action per line, `#` starts a comment:
///
///   click "Attack"          click the widget with this label (waits until it is there)
///   click-base Razor        click a base on the map (select a figure, lock a target)
///   hover-base Hex          move the mouse over a base and leave it there
///   hover "Roll"            move the mouse over a widget
///   drag-base Hex 30 40     drag a base to a table point (inches): a manual override
///   drag "move end Razor" 22 16   drag any labelled widget to a table point (e.g. the end point
///                           of a move the camera saw)
///   click-table 30 40       click the map at a table point (move destination, placement)
///   hover-table 30 40       move the mouse over a table point (e.g. to preview a move)
///   select-die "blue:d8"    click the first enabled die button for this die (notation)
///   key space               press a key: space enter escape tab 0-9 a-z, with ctrl+ shift+ alt+
///   type "5 ace"            type text into the focused field
///   wait 3                  let 3 frames pass
///   sleep 500               let 500 milliseconds pass (animations)
///   wait-for "Apply roll"   wait until a widget with this label is there and enabled
///   wait-gone "rolling"     wait until no widget with this label is there (the dice animation
///                           is labelled "rolling")
///   screenshot shot.png     save the frame as it is now
///
/// Labels are matched against what the widget shows (the text before any "##"), exactly.

#include <string>
#include <string_view>
#include <vector>

namespace duels::overlay {

/// One scripted action.
struct UiAction {
  enum class Kind {
    Click,
    ClickBase,
    HoverBase,
    Hover,
    DragBase,
    Drag,
    ClickTable,
    HoverTable,
    SelectDie,
    Key,
    Type,
    Wait,
    Sleep,
    WaitFor,
    WaitGone,
    Screenshot,
  };
  Kind kind = Kind::Wait;
  std::string text;  ///< label, base name, key name, text to type or file
  double x_in = 0;   ///< table point for drag-base / click-table
  double y_in = 0;
  int frames = 0;  ///< for wait (frames) and sleep (milliseconds)
  bool ctrl = false;
  bool shift = false;
  bool alt = false;
  int line = 0;  ///< 1-based line in the script
};

/// The key names a script may press (besides single letters and digits).
bool is_script_key(std::string_view name);

/// Parses a script. Throws DataException naming the file, line and what was expected.
std::vector<UiAction> parse_ui_script(std::string_view text, const std::string& file);
/// Reads and parses a script file.
std::vector<UiAction> load_ui_script(const std::string& path);

/// The action as a script line (for messages).
std::string describe(const UiAction& action);

}  // namespace duels::overlay
