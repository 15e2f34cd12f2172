// The dice roller: any pool in the notation, its history and the exact sum distribution.
#include <fmt/format.h>
#include <imgui.h>
#include <imgui_stdlib.h>

#include <algorithm>

#include "dice/notation.hpp"
#include "overlay/panels/panels.hpp"
#include "overlay/session.hpp"

namespace duels::overlay {

DiceRollerPanel::DiceRollerPanel() : Panel("Dice roller", {0.70f, 0.64f, 0.30f, 0.36f}) {}

void DiceRollerPanel::draw_content(UiContext& ctx) {
  Session& s = *ctx.session;
  auto& r = s.roller;
  ImGui::SetNextItemWidth(-90 * ctx.scale);
  const bool enter = ImGui::InputText("##pool", &r.pool_text, ImGuiInputTextFlags_EnterReturnsTrue);
  ui::record_last_item(ctx, "pool", WidgetKind::Field, true);
  s.refresh_roller();
  ImGui::SameLine();
  if (ui::button(ctx, "Roll pool", r.error.empty()) || (enter && r.error.empty())) s.roll_pool();
  if (!r.error.empty()) {
    ImGui::PushStyleColor(ImGuiCol_Text, colours::kWarning.packed());
    ImGui::TextUnformatted(r.error.c_str());
    ImGui::PopStyleColor();
    return;
  }
  ImGui::TextDisabled(
      "e.g. 2xwhite:d6 yellow:d8:ace blue:d10 \u00b7 space rolls when no attack "
      "is waiting");

  // The exact distribution of the sum (aces count 0), the last total highlighted.
  const auto& d = *r.distribution;
  // The last roll's total, when it was of this pool (else below the range: never drawn).
  const bool has_last = !r.history.empty() &&
                        r.history.front().pool == dice::to_notation(*dice::parse_pool(r.pool_text));
  const int last_total = has_last ? r.history.front().total : d.min() - 1;
  const float chart_h = std::max(60.0f, ImGui::GetContentRegionAvail().y * 0.5f);
  const float chart_w = ImGui::GetContentRegionAvail().x;
  const ImVec2 p = ImGui::GetCursorScreenPos();
  ImGui::InvisibleButton("##chart", {chart_w, chart_h});
  ImDrawList* dl = ImGui::GetWindowDrawList();
  dl->AddRectFilled(p, {p.x + chart_w, p.y + chart_h}, colours::kTable.packed());
  double p_max = 0;
  for (int v = d.min(); v <= d.max(); ++v)
    p_max = std::max(p_max, d.p(v));
  const int n = d.max() - d.min() + 1;
  const float label_h = ImGui::GetTextLineHeight();
  const float bar_w = chart_w / static_cast<float>(std::max(n, 1));
  int hovered_value = d.min() - 1;
  const ImVec2 mouse = ImGui::GetIO().MousePos;
  for (int i = 0; i < n; ++i) {
    const int v = d.min() + i;
    const float h = static_cast<float>(d.p(v) / std::max(p_max, 1e-12)) * (chart_h - label_h - 6);
    const float x0 = p.x + static_cast<float>(i) * bar_w + 1;
    const float x1 = x0 + std::max(1.0f, bar_w - 2);
    const float y1 = p.y + chart_h - label_h - 2;
    const bool is_last = v == last_total;
    const bool hover = ImGui::IsItemHovered() && mouse.x >= x0 && mouse.x < x1 + 2;
    if (hover) hovered_value = v;
    const Rgba c = is_last ? okabe_ito::kOrange : hover ? okabe_ito::kSkyBlue : okabe_ito::kBlue;
    dl->AddRectFilled({x0, y1 - h}, {x1, y1}, c.packed());
    if (n <= 30 || i % ((n + 29) / 30) == 0) {
      const std::string t = std::to_string(v);
      const float tw = ImGui::CalcTextSize(t.c_str()).x;
      if (tw < bar_w * 2.5f)
        dl->AddText({(x0 + x1) / 2 - tw / 2, y1 + 1}, colours::kTextDim.packed(), t.c_str());
    }
  }
  if (hovered_value >= d.min()) {
    ImGui::SetTooltip("sum %d: %s = %.3f%% \u00b7 at most %d: %.2f%%", hovered_value,
                      dice::fraction_string(d.count(hovered_value), d.total).c_str(),
                      100 * d.p(hovered_value), hovered_value, 100 * d.p_at_most(hovered_value));
  }
  ImGui::Text("sum %d..%d \u00b7 mean %.2f \u00b7 %llu outcomes%s", d.min(), d.max(), d.mean(),
              static_cast<unsigned long long>(d.total),
              has_last ? fmt::format(" \u00b7 last total {} (orange)", last_total).c_str() : "");

  ImGui::Separator();
  ImGui::BeginChild("rolls");
  for (const auto& e : r.history) {
    ImGui::Text("%3d  \u2190", e.total);
    for (const auto& roll : e.rolls) {
      ImGui::SameLine();
      if (ImGui::GetContentRegionAvail().x < 120) ImGui::NewLine();
      ui::die_chip(roll.die, roll.face);
    }
  }
  ImGui::EndChild();
}

}  // namespace duels::overlay
