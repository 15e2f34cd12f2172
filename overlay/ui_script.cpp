#include "overlay/ui_script.hpp"

#include <fmt/format.h>

#include <array>
#include <cctype>
#include <charconv>
#include <fstream>
#include <sstream>

#include "common/error.hpp"
#include "common/regular_file.hpp"

namespace duels::overlay {

namespace {

constexpr std::array<std::string_view, 12> kNamedKeys = {"space",     "enter",  "escape", "tab",
                                                         "backspace", "delete", "left",   "right",
                                                         "up",        "down",   "home",   "end"};

// Splits a line into words; "quoted text" is one word (\" and \\ escape).
std::vector<std::string> split_words(std::string_view line, bool* unterminated) {
  std::vector<std::string> out;
  std::size_t i = 0;
  *unterminated = false;
  while (i < line.size()) {
    while (i < line.size() && std::isspace(static_cast<unsigned char>(line[i])))
      ++i;
    if (i >= line.size() || line[i] == '#') break;
    std::string word;
    if (line[i] == '"') {
      ++i;
      bool closed = false;
      while (i < line.size()) {
        if (line[i] == '\\' && i + 1 < line.size()) {
          word += line[i + 1];
          i += 2;
        } else if (line[i] == '"') {
          ++i;
          closed = true;
          break;
        } else {
          word += line[i++];
        }
      }
      if (!closed) *unterminated = true;
    } else {
      while (i < line.size() && !std::isspace(static_cast<unsigned char>(line[i])))
        word += line[i++];
    }
    out.push_back(std::move(word));
  }
  return out;
}

bool parse_number(const std::string& s, double& out) {
  const char* b = s.data();
  const char* e = s.data() + s.size();
  auto r = std::from_chars(b, e, out);
  return r.ec == std::errc() && r.ptr == e;
}

}  // namespace

bool is_script_key(std::string_view name) {
  if (name.size() == 1) return std::isalnum(static_cast<unsigned char>(name[0])) != 0;
  for (auto k : kNamedKeys) {
    if (k == name) return true;
  }
  return false;
}

std::vector<UiAction> parse_ui_script(std::string_view text, const std::string& file) {
  std::vector<UiAction> out;
  std::istringstream in{std::string(text)};
  std::string line;
  int n = 0;
  while (std::getline(in, line)) {
    ++n;
    bool unterminated = false;
    const auto w = split_words(line, &unterminated);
    auto fail = [&](const std::string& field, const std::string& expected) {
      throw DataException({file, n, field, expected});
    };
    if (unterminated) fail("label", "a closing quote");
    if (w.empty()) continue;
    UiAction a;
    a.line = n;
    const std::string& verb = w[0];
    auto need = [&](std::size_t count, const char* usage) {
      if (w.size() != count) fail(verb, usage);
    };
    auto number = [&](std::size_t k, double& v) {
      if (!parse_number(w[k], v)) fail(verb, fmt::format("a number of inches, not '{}'", w[k]));
    };
    if (verb == "click" || verb == "hover" || verb == "select-die" || verb == "wait-for" ||
        verb == "wait-gone") {
      need(2, "one label, e.g. click \"Attack\"");
      a.kind = verb == "click"        ? UiAction::Kind::Click
               : verb == "hover"      ? UiAction::Kind::Hover
               : verb == "select-die" ? UiAction::Kind::SelectDie
               : verb == "wait-for"   ? UiAction::Kind::WaitFor
                                      : UiAction::Kind::WaitGone;
      a.text = w[1];
    } else if (verb == "click-base" || verb == "hover-base") {
      need(2, "a base (figure name), e.g. hover-base Hex");
      a.kind = verb == "click-base" ? UiAction::Kind::ClickBase : UiAction::Kind::HoverBase;
      a.text = w[1];
    } else if (verb == "drag-base" || verb == "drag") {
      need(4, verb == "drag" ? "a label and a table point in inches, e.g. drag \"move end Razor\" "
                               "22 16"
                             : "a base and a table point in inches, e.g. drag-base Hex 30 40");
      a.kind = verb == "drag" ? UiAction::Kind::Drag : UiAction::Kind::DragBase;
      a.text = w[1];
      number(2, a.x_in);
      number(3, a.y_in);
    } else if (verb == "click-table" || verb == "hover-table") {
      need(3, "a table point in inches, e.g. click-table 30 40");
      a.kind = verb == "click-table" ? UiAction::Kind::ClickTable : UiAction::Kind::HoverTable;
      number(1, a.x_in);
      number(2, a.y_in);
    } else if (verb == "key") {
      need(2, "a key, e.g. key space or key ctrl+z");
      a.kind = UiAction::Kind::Key;
      std::string k = w[1];
      for (auto& c : k)
        c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
      while (true) {
        const auto plus = k.find('+');
        if (plus == std::string::npos || plus + 1 >= k.size()) break;
        const std::string mod = k.substr(0, plus);
        if (mod == "ctrl") {
          a.ctrl = true;
        } else if (mod == "shift") {
          a.shift = true;
        } else if (mod == "alt") {
          a.alt = true;
        } else {
          fail("key", fmt::format("ctrl+, shift+ or alt+, not '{}+'", mod));
        }
        k = k.substr(plus + 1);
      }
      if (!is_script_key(k)) {
        fail("key", fmt::format("space, enter, escape, tab, backspace, delete, left, right, up, "
                                "down, home, end, a letter or a digit, not '{}'",
                                k));
      }
      a.text = k;
    } else if (verb == "type") {
      need(2, "quoted text, e.g. type \"5 ace\"");
      a.kind = UiAction::Kind::Type;
      a.text = w[1];
    } else if (verb == "wait") {
      need(2, "a number of frames, e.g. wait 3");
      double f = 0;
      if (!parse_number(w[1], f) || f < 0 || f > 100000 || f != static_cast<int>(f))
        fail("wait", fmt::format("a whole number of frames (0..100000), not '{}'", w[1]));
      a.kind = UiAction::Kind::Wait;
      a.frames = static_cast<int>(f);
    } else if (verb == "sleep") {
      need(2, "milliseconds, e.g. sleep 500");
      double ms = 0;
      if (!parse_number(w[1], ms) || ms < 0 || ms > 600000 || ms != static_cast<int>(ms))
        fail("sleep", fmt::format("a whole number of milliseconds (0..600000), not '{}'", w[1]));
      a.kind = UiAction::Kind::Sleep;
      a.frames = static_cast<int>(ms);
    } else if (verb == "screenshot") {
      need(2, "a PNG file name");
      a.kind = UiAction::Kind::Screenshot;
      a.text = w[1];
    } else {
      fail("action",
           fmt::format(
               "click, click-base, hover, hover-base, drag-base, drag, click-table, hover-table, "
               "select-die, "
               "key, type, wait, sleep, wait-for, wait-gone or screenshot, not '{}'",
               verb));
    }
    out.push_back(std::move(a));
  }
  return out;
}

std::vector<UiAction> load_ui_script(const std::string& path) {
  return parse_ui_script(read_regular_file(path, "a readable UI script file"), path);
}

std::string describe(const UiAction& a) {
  switch (a.kind) {
    case UiAction::Kind::Click:
      return fmt::format("click \"{}\"", a.text);
    case UiAction::Kind::ClickBase:
      return fmt::format("click-base {}", a.text);
    case UiAction::Kind::HoverBase:
      return fmt::format("hover-base {}", a.text);
    case UiAction::Kind::Hover:
      return fmt::format("hover \"{}\"", a.text);
    case UiAction::Kind::DragBase:
      return fmt::format("drag-base {} {} {}", a.text, a.x_in, a.y_in);
    case UiAction::Kind::Drag:
      return fmt::format("drag \"{}\" {} {}", a.text, a.x_in, a.y_in);
    case UiAction::Kind::ClickTable:
      return fmt::format("click-table {} {}", a.x_in, a.y_in);
    case UiAction::Kind::HoverTable:
      return fmt::format("hover-table {} {}", a.x_in, a.y_in);
    case UiAction::Kind::SelectDie:
      return fmt::format("select-die \"{}\"", a.text);
    case UiAction::Kind::Key:
      return fmt::format("key {}{}{}{}", a.ctrl ? "ctrl+" : "", a.shift ? "shift+" : "",
                         a.alt ? "alt+" : "", a.text);
    case UiAction::Kind::Type:
      return fmt::format("type \"{}\"", a.text);
    case UiAction::Kind::Wait:
      return fmt::format("wait {}", a.frames);
    case UiAction::Kind::Sleep:
      return fmt::format("sleep {}", a.frames);
    case UiAction::Kind::WaitGone:
      return fmt::format("wait-gone \"{}\"", a.text);
    case UiAction::Kind::WaitFor:
      return fmt::format("wait-for \"{}\"", a.text);
    case UiAction::Kind::Screenshot:
      return fmt::format("screenshot {}", a.text);
  }
  return "?";
}

}  // namespace duels::overlay
