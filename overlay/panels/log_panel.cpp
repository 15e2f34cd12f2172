// The log: every event in words, undo/redo, jump to any event, export the report.
#include <fmt/format.h>
#include <imgui.h>

#include "overlay/panels/panels.hpp"
#include "overlay/session.hpp"

namespace duels::overlay {

LogPanel::LogPanel() : Panel("Log", {0, 0.64f, 0.42f, 0.36f}) {}

void LogPanel::draw_content(UiContext& ctx) {
  Session& s = *ctx.session;
  // The history is drawn first and acted on after: an action replaces it.
  enum class Act { None, Undo, Redo, Live, PlayOn, Export, Jump };
  Act act = Act::None;
  std::uint64_t jump_seq = 0;
  const auto& h = s.history();
  if (ui::button(ctx, "Undo", s.live() && !h.steps.empty())) act = Act::Undo;
  ImGui::SameLine();
  if (ui::button(ctx, "Redo", !h.redo.empty() || !s.live())) act = Act::Redo;
  ImGui::SameLine();
  if (ui::button(ctx, "Live", !s.live())) act = Act::Live;
  ImGui::SameLine();
  if (ui::button(ctx, "Play on from here", !s.live(),
                 "jump to an earlier event first (click a line)"))
    act = Act::PlayOn;
  ImGui::SameLine();
  if (ui::button(ctx, "Export report")) act = Act::Export;
  ImGui::TextDisabled(
      "ctrl+Z undo \u00b7 ctrl+Y redo \u00b7 click an event to see the match as "
      "it was then");
  if (!s.live()) {
    ui::text_coloured(okabe_ito::kOrange, fmt::format("Showing event {} (read-only).", h.last_seq));
  }
  ImGui::Separator();
  ImGui::BeginChild("events", {0, 0}, false, ImGuiWindowFlags_HorizontalScrollbar);
  for (const auto& step : h.steps) {
    ImGui::PushID(static_cast<int>(step.seq));
    bool first = true;
    for (const auto& e : step.events) {
      const bool sub = e.kind == "step";
      std::string text = sub ? "      " + e.text : e.text;
      if (first) {
        const std::string label = fmt::format("{:>4}  {}", step.seq, text);
        if (ImGui::Selectable(label.c_str(), !s.live() && step.seq == h.last_seq)) {
          act = Act::Jump;
          jump_seq = step.seq;
        }
        first = false;
      } else if (sub) {
        ImGui::TextDisabled("      %s", text.c_str());
      } else {
        ImGui::Text("      %s", text.c_str());
      }
    }
    if (step.events.empty()) {
      if (ImGui::Selectable(
              fmt::format("{:>4}  ({})", step.seq, command_name(step.command)).c_str())) {
        act = Act::Jump;
        jump_seq = step.seq;
      }
    }
    ImGui::PopID();
  }
  if (s.live() && h.last_seq != last_seen_seq_) {
    ImGui::SetScrollHereY(1.0f);
    last_seen_seq_ = h.last_seq;
  }
  ImGui::EndChild();
  switch (act) {
    case Act::None:
      break;
    case Act::Undo:
      s.undo();
      break;
    case Act::Redo:
      s.redo();
      break;
    case Act::Live:
      s.go_live();
      break;
    case Act::PlayOn:
      s.play_on_from_here();
      break;
    case Act::Export:
      s.export_report();
      break;
    case Act::Jump:
      s.jump_to(jump_seq);
      break;
  }
}

}  // namespace duels::overlay
