#include "overlay/widgets.hpp"

#include <fmt/format.h>
#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <numbers>

#include "dice/notation.hpp"
#include "overlay/session.hpp"

namespace duels::overlay {

// ---- the registry ---------------------------------------------------------------------------

void WidgetRegistry::begin_frame() {
  previous_ = std::move(current_);
  current_.clear();
  map = next_map;
  next_map.reset();
}

void WidgetRegistry::add(WidgetRecord record) {
  current_.push_back(std::move(record));
}

const WidgetRecord* WidgetRegistry::find(std::string_view label,
                                         std::optional<WidgetKind> kind) const {
  const WidgetRecord* disabled = nullptr;
  for (const auto& r : previous_) {
    if (kind && r.kind != *kind) continue;
    if (r.label != label && r.id != label) continue;
    if (r.enabled) return &r;
    if (disabled == nullptr) disabled = &r;
  }
  return disabled;
}

std::vector<std::string> WidgetRegistry::labels() const {
  std::vector<std::string> out;
  for (const auto& r : previous_) {
    if (std::find(out.begin(), out.end(), r.label) == out.end()) out.push_back(r.label);
  }
  return out;
}

void UiContext::set_status(std::string text, bool error) {
  if (session != nullptr) {
    session->set_status(std::move(text), error);
  } else if (idle_status != nullptr) {
    *idle_status = {std::move(text), error};
  }
}

namespace ui {

namespace {

ImU32 col(Rgba c) {
  return c.packed();
}

ImVec2 add(ImVec2 a, ImVec2 b) {
  return {a.x + b.x, a.y + b.y};
}

}  // namespace

std::string_view visible(std::string_view label) {
  const auto hash = label.find("##");
  return hash == std::string_view::npos ? label : label.substr(0, hash);
}

void record_last_item(UiContext& ctx, std::string_view label, WidgetKind kind, bool enabled) {
  const ImVec2 a = ImGui::GetItemRectMin();
  const ImVec2 b = ImGui::GetItemRectMax();
  // Only what is really on the screen: clipped-away items of a scrolled window are left out.
  if (!ImGui::IsItemVisible()) return;
  ctx.widgets.add(
      {std::string(visible(label)), std::string(label), a.x, a.y, b.x, b.y, enabled, kind});
}

bool button(UiContext& ctx, const std::string& label, bool enabled, const std::string& why_not) {
  ImGui::BeginDisabled(!enabled);
  const bool clicked = ImGui::Button(label.c_str());
  ImGui::EndDisabled();
  if (!enabled && !why_not.empty() && ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled))
    ImGui::SetTooltip("%s", why_not.c_str());
  record_last_item(ctx, label, WidgetKind::Button, enabled);
  return clicked && enabled;
}

bool die_button(UiContext& ctx, const dice::Die& die, const std::string& id, bool selected,
                bool enabled, std::string_view note, bool same_line) {
  std::string text = die_label(die);
  if (selected) text = "\u2713 " + text;
  if (!note.empty()) text += fmt::format(" \u00b7 {}", note);
  const ImVec2 size = ImGui::CalcTextSize(text.c_str());
  const ImGuiStyle& style = ImGui::GetStyle();
  const ImVec2 pad = style.FramePadding;
  const ImVec2 box{size.x + 2 * pad.x, size.y + 2 * pad.y};
  if (same_line) {
    ImGui::SameLine();
    const float right = ImGui::GetWindowPos().x + ImGui::GetWindowContentRegionMax().x;
    if (ImGui::GetCursorScreenPos().x + box.x > right) ImGui::NewLine();
  }
  ImGui::PushID(id.c_str());
  ImGui::BeginDisabled(!enabled);
  const bool clicked = ImGui::InvisibleButton("die", box);
  ImGui::EndDisabled();
  ImGui::PopID();
  const ImVec2 p = ImGui::GetItemRectMin();
  ImDrawList* dl = ImGui::GetWindowDrawList();
  Rgba face = die_face_colour(die.colour);
  Rgba ink = die_text_colour(die.colour);
  if (!enabled) {
    face = face.with_alpha(90);
    ink = ink.with_alpha(140);
  }
  const float rounding = 4 * ctx.scale;
  dl->AddRectFilled(p, add(p, box), col(face), rounding);
  if (selected) {
    dl->AddRect(add(p, {-2, -2}), add(p, {box.x + 2, box.y + 2}), col(colours::kSelected), rounding,
                0, 3 * ctx.scale);
  } else {
    dl->AddRect(p, add(p, box), col({110, 110, 110}), rounding);
  }
  if (ImGui::IsItemHovered() && enabled)
    dl->AddRect(p, add(p, box), col(okabe_ito::kSkyBlue), rounding, 0, 2);
  dl->AddText(add(p, pad), col(ink), text.c_str());
  ctx.widgets.add(
      {dice::to_notation(die), id, p.x, p.y, p.x + box.x, p.y + box.y, enabled, WidgetKind::Die});
  return clicked && enabled;
}

void die_chip(const dice::Die& die, std::optional<int> face, std::string_view mark) {
  std::string text = die_label(die);
  if (face) text += die.ace && *face == 1 ? " = ACE" : fmt::format(" = {}", *face);
  if (!mark.empty()) text += fmt::format("  [{}]", mark);
  const ImVec2 size = ImGui::CalcTextSize(text.c_str());
  const ImVec2 pad = ImGui::GetStyle().FramePadding;
  const ImVec2 box{size.x + 2 * pad.x, size.y + 2 * pad.y};
  const ImVec2 p = ImGui::GetCursorScreenPos();
  ImGui::Dummy(box);
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const bool struck = mark == "Bad Karma" || mark == "blocked";
  const bool ace = mark == "ACE";
  Rgba face_colour = die_face_colour(die.colour);
  if (struck) face_colour = face_colour.with_alpha(110);
  dl->AddRectFilled(p, add(p, box), col(face_colour), 4);
  dl->AddRect(p, add(p, box), col(ace ? okabe_ito::kYellow : Rgba{110, 110, 110}), 4, 0,
              ace ? 3.0f : 1.0f);
  dl->AddText(add(p, pad), col(die_text_colour(die.colour)), text.c_str());
  if (struck) {
    dl->AddLine(add(p, {0, box.y / 2}), add(p, {box.x, box.y / 2}), col(colours::kLineBlocked), 2);
  }
}

void text_coloured(Rgba colour, std::string_view text) {
  ImGui::PushStyleColor(ImGuiCol_Text, col(colour));
  ImGui::TextUnformatted(text.data(), text.data() + text.size());
  ImGui::PopStyleColor();
}

void text_wrapped(std::string_view text) {
  ImGui::PushTextWrapPos(0);
  ImGui::TextUnformatted(text.data(), text.data() + text.size());
  ImGui::PopTextWrapPos();
}

void text_coloured_wrapped(Rgba colour, std::string_view text) {
  ImGui::PushStyleColor(ImGuiCol_Text, col(colour));
  text_wrapped(text);
  ImGui::PopStyleColor();
}

Rgba team_text_colour(int team) {
  const Rgba c = team_colour(team);
  // Lighten dark team colours so names stay readable on the dark background.
  auto lift = [](std::uint8_t v) { return static_cast<std::uint8_t>(std::min(255, v + 60)); };
  return team == 0 ? Rgba{lift(c.r), lift(c.g), lift(c.b)} : c;
}

void dial(UiContext& ctx, const FigureState& figure, DialKind kind, int preview_clicks) {
  const auto& positions = figure.def.dial(kind).positions;
  const int n = static_cast<int>(positions.size());
  const int current = figure.dial[static_cast<std::size_t>(kind)];
  const int after = std::min(current + preview_clicks, n - 1);
  const float r = 26 * ctx.scale;
  const float width = std::max(ImGui::GetContentRegionAvail().x, 2 * r + 16 * ctx.scale);
  const ImVec2 p = ImGui::GetCursorScreenPos();
  const ImVec2 centre{p.x + width / 2, p.y + r + 8 * ctx.scale};
  ImDrawList* dl = ImGui::GetWindowDrawList();
  // Scrolled out of view: nothing to draw (the dots are a thousand vertices a dial).
  const bool shown = ImGui::IsRectVisible({width, 2 * r + 16 * ctx.scale});
  if (shown) {
    dl->AddCircleFilled(centre, r, col({28, 30, 34}));
    dl->AddCircle(centre, r, col({150, 150, 150}), 0, 1.5f);
  }
  for (int i = 0; i < n && shown; ++i) {
    const double angle = -std::numbers::pi / 2 + 2 * std::numbers::pi * i / std::max(n, 1);
    const ImVec2 at{centre.x + static_cast<float>(std::cos(angle)) * r,
                    centre.y + static_cast<float>(std::sin(angle)) * r};
    const DialPosition& pos = positions[static_cast<std::size_t>(i)];
    const float dot = (i == current ? 6.0f : 4.0f) * ctx.scale;
    Rgba fill{90, 90, 90};
    if (pos.shield) fill = die_face_colour(*pos.shield);
    if (pos.bullet_holes > 0) fill = {10, 10, 10};
    if (i == current) fill = colours::kSelected;
    dl->AddCircleFilled(at, dot, col(fill));
    if (pos.bullet_holes > 0) dl->AddCircle(at, dot, col({220, 220, 220}), 0, 1.2f);
    if (preview_clicks > 0 && i == after && after != current)
      dl->AddCircle(at, dot + 3 * ctx.scale, col(colours::kLineBlocked), 0, 2.5f);
  }
  const std::string value = std::to_string(positions[static_cast<std::size_t>(current)].value);
  ImFont* font = ctx.big_font != nullptr ? ctx.big_font : ImGui::GetFont();
  const float size = font->FontSize;
  const ImVec2 ts = font->CalcTextSizeA(size, 1e9f, 0, value.c_str());
  if (shown) {
    dl->AddText(font, size, {centre.x - ts.x / 2, centre.y - ts.y / 2}, col(colours::kText),
                value.c_str());
  }
  ImGui::Dummy({width, 2 * r + 16 * ctx.scale});
  const DialPosition& now = positions[static_cast<std::size_t>(current)];
  ImGui::Text("%s %d", std::string(dial_name(kind)).c_str(), now.value);
  ImGui::TextDisabled("click %d of %d", current, n - 1);
  if (now.shield)
    text_coloured(colours::kText, fmt::format("shield: {}", dice::colour_name(*now.shield)));
  if (now.bullet_holes > 0) {
    std::string dots;
    for (int h = 0; h < now.bullet_holes; ++h)
      dots += "\u25cf";
    text_coloured(okabe_ito::kVermillion, fmt::format("holes: {}", dots));
  }
  std::string next = "next:";
  for (int i = current + 1; i <= std::min(current + 3, n - 1); ++i) {
    const DialPosition& q = positions[static_cast<std::size_t>(i)];
    next += fmt::format(" {}", q.value);
    if (q.shield) next += fmt::format("[{}]", dice::colour_name(*q.shield).substr(0, 1));
    for (int h = 0; h < q.bullet_holes; ++h)
      next += "\u25cf";
  }
  if (current + 1 >= n) next += " (last)";
  ImGui::TextDisabled("%s", next.c_str());
  if (preview_clicks > 0) {
    FigureState f = figure;
    f.dial[static_cast<std::size_t>(kind)] = after;
    const DialPosition& q = positions[static_cast<std::size_t>(after)];
    std::string holes;
    for (int h = 0; h < q.bullet_holes; ++h)
      holes += "\u25cf";
    text_coloured(
        okabe_ito::kOrange,
        fmt::format("\u2192 {}{}{}", q.value,
                    q.shield ? fmt::format(" [{}]", dice::colour_name(*q.shield)) : std::string(),
                    holes.empty() ? std::string() : " " + holes));
    text_coloured(f.bullet_holes() >= 3 ? colours::kWarning : colours::kTextDim,
                  f.bullet_holes() >= 3 ? std::string("ELIMINATED")
                                        : fmt::format("{} hole{} in all", f.bullet_holes(),
                                                      f.bullet_holes() == 1 ? "" : "s"));
  }
}

void die_chips(const std::vector<dice::Die>& dice, std::string_view none) {
  if (dice.empty()) {
    ImGui::TextDisabled("%s", std::string(none).c_str());
    return;
  }
  const ImVec2 pad = ImGui::GetStyle().FramePadding;
  const float right = ImGui::GetWindowPos().x + ImGui::GetWindowContentRegionMax().x;
  for (std::size_t i = 0; i < dice.size(); ++i) {
    const float w = ImGui::CalcTextSize(die_label(dice[i]).c_str()).x + 2 * pad.x;
    if (i > 0) {
      ImGui::SameLine();
      if (ImGui::GetCursorScreenPos().x + w > right) ImGui::NewLine();
    }
    die_chip(dice[i]);
  }
}

void dashed_line(ImDrawList* dl, std::array<float, 2> a, std::array<float, 2> b, Rgba colour,
                 float thickness, float dash) {
  const float dx = b[0] - a[0];
  const float dy = b[1] - a[1];
  const float len = std::sqrt(dx * dx + dy * dy);
  if (len <= 0) return;
  for (float s = 0; s < len; s += 2 * dash) {
    const float e = std::min(len, s + dash);
    dl->AddLine({a[0] + dx * s / len, a[1] + dy * s / len},
                {a[0] + dx * e / len, a[1] + dy * e / len}, colour.packed(), thickness);
  }
}

}  // namespace ui

void LabelPlacer::add(float x, float y, Rgba colour, std::string text, int priority, float fit_px,
                      std::uint8_t box_alpha) {
  labels_.push_back({x, y, colour, std::move(text), priority, fit_px, box_alpha});
}

void LabelPlacer::reserve(float x0, float y0, float x1, float y1) {
  reserved_.push_back({x0, y0, x1, y1});
}

void LabelPlacer::draw(ImDrawList* dl) {
  std::stable_sort(labels_.begin(), labels_.end(),
                   [](const Label& a, const Label& b) { return a.priority < b.priority; });
  std::vector<std::array<float, 4>> taken = reserved_;  // x0, y0, x1, y1
  // Clear: inside what the draw list shows, and over no label placed or rectangle reserved.
  const ImVec2 lo = dl->GetClipRectMin();
  const ImVec2 hi = dl->GetClipRectMax();
  auto clear = [&](const std::array<float, 4>& r) {
    if (r[0] < lo.x || r[1] < lo.y || r[2] > hi.x || r[3] > hi.y) return false;
    return std::none_of(taken.begin(), taken.end(), [&](const std::array<float, 4>& t) {
      return r[0] < t[2] && t[0] < r[2] && r[1] < t[3] && t[1] < r[3];
    });
  };
  for (const Label& l : labels_) {
    const ImVec2 size = ImGui::CalcTextSize(l.text.c_str());
    if (l.fit_px > 0 && size.x > l.fit_px) continue;
    const float step_y = size.y + 3;
    const float step_x = size.x / 2 + 8;
    auto box_at = [&](float dx, float dy) {
      const float x = l.x + dx;
      const float y = l.y + dy;
      return std::array<float, 4>{x - size.x / 2 - 3, y - size.y / 2 - 1, x + size.x / 2 + 3,
                                  y + size.y / 2 + 1};
    };
    // Where it was asked, then a line down or up (up to three), then beside it.
    std::array<float, 4> box = box_at(0, 0);
    bool placed = clear(box);
    for (const float dx : {0.0f, step_x, -step_x}) {
      for (const int k : {0, 1, -1, 2, -2, 3, -3}) {
        if (placed) break;
        const auto candidate = box_at(dx, static_cast<float>(k) * step_y);
        if (clear(candidate)) {
          box = candidate;
          placed = true;
        }
      }
    }
    taken.push_back(box);
    dl->AddRectFilled({box[0], box[1]}, {box[2], box[3]}, Rgba{0, 0, 0, l.box_alpha}.packed(), 3);
    dl->AddText({box[0] + 3, box[1] + 1}, l.colour.packed(), l.text.c_str());
  }
  labels_.clear();
  reserved_.clear();
}

}  // namespace duels::overlay
