#include "overlay/script_driver.hpp"

#include <GLFW/glfw3.h>
#include <fmt/format.h>
#include <imgui.h>

#include <cctype>
#include <cmath>

namespace duels::overlay {

namespace {

int glfw_key(const std::string& name) {
  if (name.size() == 1) {
    const char c = name[0];
    if (std::isdigit(static_cast<unsigned char>(c))) return GLFW_KEY_0 + (c - '0');
    return GLFW_KEY_A + (std::tolower(static_cast<unsigned char>(c)) - 'a');
  }
  if (name == "space") return GLFW_KEY_SPACE;
  if (name == "enter") return GLFW_KEY_ENTER;
  if (name == "escape") return GLFW_KEY_ESCAPE;
  if (name == "tab") return GLFW_KEY_TAB;
  if (name == "backspace") return GLFW_KEY_BACKSPACE;
  if (name == "delete") return GLFW_KEY_DELETE;
  if (name == "left") return GLFW_KEY_LEFT;
  if (name == "right") return GLFW_KEY_RIGHT;
  if (name == "up") return GLFW_KEY_UP;
  if (name == "down") return GLFW_KEY_DOWN;
  if (name == "home") return GLFW_KEY_HOME;
  if (name == "end") return GLFW_KEY_END;
  return -1;
}

}  // namespace

ScriptDriver::ScriptDriver(std::vector<UiAction> actions, double timeout_s)
    : actions_(std::move(actions)), timeout_s_(timeout_s) {}

std::optional<std::string> ScriptDriver::take_screenshot_request() {
  auto s = std::move(screenshot_);
  screenshot_.reset();
  return s;
}

void ScriptDriver::next_action() {
  ++index_;
  phase_ = 0;
  counter_ = 0;
  started_s_ = -1;
}

void ScriptDriver::fail(const WidgetRegistry& widgets, const std::string& what) {
  std::string seen;
  for (const auto& l : widgets.labels())
    seen += (seen.empty() ? "" : ", ") + fmt::format("\"{}\"", l);
  error_ = fmt::format("ui-script line {}: {}: {} (on the screen: {})", actions_[index_].line,
                       describe(actions_[index_]), what, seen.empty() ? "nothing" : seen);
}

void ScriptDriver::feed(ImGuiIO& io, const WidgetRegistry& widgets, double now_s) {
  // The script owns the mouse: the real cursor (if any) is ignored while it runs.
  auto hold_mouse = [&] {
    io.MousePos = mouse_x_ >= 0 ? ImVec2{mouse_x_, mouse_y_} : ImVec2{-FLT_MAX, -FLT_MAX};
  };
  if (key_down_ >= 0) {
    io.KeysDown[key_down_] = false;
    io.KeyCtrl = io.KeyShift = io.KeyAlt = false;
    key_down_ = -1;
  }
  io.MouseDown[0] = false;
  if (done()) {
    hold_mouse();
    return;
  }
  const UiAction& a = actions_[index_];
  if (started_s_ < 0) started_s_ = now_s;
  const bool timed_out = now_s - started_s_ > timeout_s_;
  auto centre_of = [&](const WidgetRecord& r) {
    mouse_x_ = (r.x0 + r.x1) / 2;
    mouse_y_ = (r.y0 + r.y1) / 2;
  };
  // Finds the widget, waiting (up to the timeout) while it is missing or disabled.
  auto locate = [&](std::optional<WidgetKind> kind, const char* missing) -> const WidgetRecord* {
    const WidgetRecord* r = widgets.find(a.text, kind);
    if (r != nullptr && r->enabled) return r;
    if (timed_out) {
      fail(widgets, r != nullptr ? "the widget stays disabled" : missing);
    }
    return nullptr;
  };
  auto table_point = [&]() -> bool {
    if (!widgets.map) {
      if (timed_out) fail(widgets, "the table map is not on the screen");
      return false;
    }
    const auto s = widgets.map->to_screen(Vec2{a.x_in, a.y_in});
    mouse_x_ = s[0];
    mouse_y_ = s[1];
    return true;
  };

  switch (a.kind) {
    case UiAction::Kind::Click:
    case UiAction::Kind::ClickBase:
    case UiAction::Kind::SelectDie:
    case UiAction::Kind::ClickTable: {
      // Where the widget is now (layouts shift, e.g. when odds arrive and a table appears).
      auto aim = [&]() -> bool {
        if (a.kind == UiAction::Kind::ClickTable) return table_point();
        const auto kind = a.kind == UiAction::Kind::ClickBase   ? std::optional(WidgetKind::Base)
                          : a.kind == UiAction::Kind::SelectDie ? std::optional(WidgetKind::Die)
                                                                : std::nullopt;
        const WidgetRecord* r = locate(kind, "no widget with this label");
        if (r == nullptr) return false;
        centre_of(*r);
        return true;
      };
      if (phase_ == 0) {
        if (aim()) phase_ = 1;  // hover for a frame first, as a hand would
      } else if (phase_ == 1) {
        // Press only if the widget is still under the mouse; else hover its new place.
        const float x = mouse_x_;
        const float y = mouse_y_;
        if (!aim()) {
          phase_ = 0;
        } else if (std::abs(mouse_x_ - x) > 0.5f || std::abs(mouse_y_ - y) > 0.5f) {
          phase_ = 1;
        } else {
          io.MouseDown[0] = true;
          phase_ = 2;
        }
      } else if (phase_ == 2) {
        phase_ = 3;  // released this frame: the click happens
      } else {
        next_action();  // one more frame so the registry shows the result
      }
      break;
    }
    case UiAction::Kind::Hover:
    case UiAction::Kind::HoverBase:
    case UiAction::Kind::HoverTable: {
      if (phase_ == 0 && a.kind == UiAction::Kind::HoverTable) {
        if (table_point()) phase_ = 1;
      } else if (phase_ == 0) {
        const auto kind =
            a.kind == UiAction::Kind::HoverBase ? std::optional(WidgetKind::Base) : std::nullopt;
        if (const WidgetRecord* r = locate(kind, "no widget with this label")) {
          centre_of(*r);
          phase_ = 1;
        }
      } else if (++counter_ >= 2) {
        next_action();
      }
      break;
    }
    case UiAction::Kind::DragBase:
    case UiAction::Kind::Drag: {
      constexpr int kSteps = 6;
      if (phase_ == 0) {
        const bool base = a.kind == UiAction::Kind::DragBase;
        if (const WidgetRecord* r =
                locate(base ? std::optional(WidgetKind::Base) : std::nullopt,
                       base ? "no base with this name" : "no widget with this label")) {
          if (!widgets.map) break;
          centre_of(*r);
          from_x_ = mouse_x_;
          from_y_ = mouse_y_;
          phase_ = 1;
        }
      } else if (phase_ == 1) {
        io.MouseDown[0] = true;
        phase_ = 2;
      } else if (phase_ == 2) {
        io.MouseDown[0] = true;
        ++counter_;
        const auto s = widgets.map->to_screen(Vec2{a.x_in, a.y_in});
        const float k = static_cast<float>(counter_) / kSteps;
        mouse_x_ = from_x_ + (s[0] - from_x_) * k;
        mouse_y_ = from_y_ + (s[1] - from_y_) * k;
        if (counter_ >= kSteps) phase_ = 3;
      } else if (phase_ == 3) {
        phase_ = 4;  // released here
      } else {
        next_action();
      }
      break;
    }
    case UiAction::Kind::Key: {
      if (phase_ == 0) {
        const int k = glfw_key(a.text);
        if (k >= 0) {
          io.KeysDown[k] = true;
          io.KeyCtrl = a.ctrl;
          io.KeyShift = a.shift;
          io.KeyAlt = a.alt;
          key_down_ = k;
        }
        phase_ = 1;
      } else {
        next_action();
      }
      break;
    }
    case UiAction::Kind::Type:
      if (phase_ == 0) {
        io.AddInputCharactersUTF8(a.text.c_str());
        phase_ = 1;
      } else {
        next_action();
      }
      break;
    case UiAction::Kind::Wait:
      if (counter_++ >= a.frames) next_action();
      break;
    case UiAction::Kind::Sleep:
      if ((now_s - started_s_) * 1000 >= a.frames) next_action();
      break;
    case UiAction::Kind::WaitFor:
      if (locate(std::nullopt, "no widget with this label appeared") != nullptr) next_action();
      break;
    case UiAction::Kind::WaitGone:
      if (widgets.find(a.text) == nullptr) {
        next_action();
      } else if (timed_out) {
        fail(widgets, "the widget is still there");
      }
      break;
    case UiAction::Kind::Screenshot:
      screenshot_ = a.text;
      next_action();
      break;
  }
  hold_mouse();
}

}  // namespace duels::overlay
