#pragma once
/// @file Plays a UI script (ui_script.hpp) into Dear ImGui's input, a step per frame, the way a
/// player would: the mouse moves onto the widget found by its label in the last frame, presses,
/// releases; keys go down for one frame. The widgets react exactly as to a real mouse.

#include <optional>
#include <string>
#include <vector>

#include "overlay/ui_script.hpp"
#include "overlay/widgets.hpp"

struct ImGuiIO;

namespace duels::overlay {

/// A UI script being played.
class ScriptDriver {
 public:
  /// `timeout_s`: how long an action may wait for its widget to appear (odds being worked out,
  /// a roll animating) before the script fails.
  explicit ScriptDriver(std::vector<UiAction> actions, double timeout_s = 20);

  /// Sets the mouse, buttons and keys for this frame. Call after the platform backend's
  /// NewFrame and before ImGui::NewFrame. `now_s` is the wall clock.
  void feed(ImGuiIO& io, const WidgetRegistry& widgets, double now_s);
  /// A screenshot the script asked for at this frame (after it is rendered), if any.
  std::optional<std::string> take_screenshot_request();

  [[nodiscard]] bool done() const { return index_ >= actions_.size() || failed(); }
  [[nodiscard]] bool failed() const { return !error_.empty(); }
  [[nodiscard]] const std::string& error() const { return error_; }
  [[nodiscard]] std::size_t actions_done() const { return index_; }

 private:
  void next_action();
  void fail(const WidgetRegistry& widgets, const std::string& what);

  std::vector<UiAction> actions_;
  double timeout_s_;
  std::size_t index_ = 0;
  int phase_ = 0;
  int counter_ = 0;
  double started_s_ = -1;
  float mouse_x_ = -1;
  float mouse_y_ = -1;
  float from_x_ = 0;
  float from_y_ = 0;
  int key_down_ = -1;
  std::optional<std::string> screenshot_;
  std::string error_;
};

}  // namespace duels::overlay
