// Figure panels: the three dials as dials, dice by zone, gear, team points.
#include <fmt/format.h>
#include <imgui.h>

#include "dice/notation.hpp"
#include "overlay/panels/panels.hpp"
#include "overlay/session.hpp"

namespace duels::overlay {

namespace {

std::vector<dice::Die> dice_in(const FigureState& f, DieZone zone) {
  std::vector<dice::Die> out;
  for (DieId id : f.dice_in(zone))
    out.push_back(f.dice[static_cast<std::size_t>(id)].die);
  return out;
}

// Clicks the attack under way would do to this figure, for the dial preview.
int pending_clicks(const GameState& s, FigureId f) {
  if (!s.attack || s.attack->target != f) return 0;
  if (s.attack->stage != AttackStage::Damage && s.attack->stage != AttackStage::RemoveGear)
    return 0;
  return s.attack->result.clicks;
}

}  // namespace

FiguresPanel::FiguresPanel() : Panel("Figures", {0.70f, 0, 0.30f, 0.64f}) {}

void FiguresPanel::draw_content(UiContext& ctx) {
  Session& s = *ctx.session;
  const GameState st = s.state();  // a copy: an action below may replace the match state
  for (TeamId t = 0; t < static_cast<TeamId>(st.teams.size()); ++t) {
    const TeamState& team = st.teams[static_cast<std::size_t>(t)];
    ui::text_coloured(
        ui::team_text_colour(t),
        fmt::format("{} \u2014 {} points{}{}", team.name, st.team_points(t),
                    t == st.alpha ? " \u00b7 alpha" : "", team.lost ? " \u00b7 LOST" : ""));
    ImGui::Separator();
    for (FigureId id : st.team_figures(t, false)) {
      const FigureState& f = st.figures[static_cast<std::size_t>(id)];
      ImGui::PushID(id);
      const bool selected = s.selected == id;
      const std::string header =
          fmt::format("{}{} ({} pts){}###figure", selected ? "\u25b6 " : "", f.def.name, f.points(),
                      f.eliminated ? " \u2014 eliminated" : "");
      if (ImGui::CollapsingHeader(header.c_str(), ImGuiTreeNodeFlags_DefaultOpen)) {
        if (!f.eliminated) {
          if (ui::button(ctx, fmt::format("Select {}", f.def.name), !selected)) s.select(id);
          ImGui::SameLine();
          std::string turn;
          if (st.phase == Phase::Turns && f.team == st.active_team) {
            turn = f.turn_done ? "turn done"
                               : fmt::format("move {} \u00b7 attacks left {}",
                                             f.moved ? "used" : "left", 2 - f.attacks);
          }
          ImGui::TextDisabled("%s", turn.c_str());
          if (ImGui::BeginTable("dials", 3, ImGuiTableFlags_SizingStretchSame)) {
            for (DialKind d : kAllDials) {
              ImGui::TableNextColumn();
              ui::dial(ctx, f, d, pending_clicks(st, id));
            }
            ImGui::EndTable();
          }
        }
        ImGui::TextUnformatted("On the base:");
        ImGui::SameLine();
        ui::die_chips(dice_in(f, DieZone::Base), "none");
        ImGui::TextUnformatted("In the cup:");
        ImGui::SameLine();
        ui::die_chips(dice_in(f, DieZone::Cup), "empty");
        const auto removed = dice_in(f, DieZone::Removed);
        if (!removed.empty()) {
          ImGui::TextUnformatted("Removed:");
          ImGui::SameLine();
          ui::die_chips(removed);
        }
        for (const auto& g : f.gear) {
          std::string shields;
          for (auto c : g.def.shields)
            shields += (shields.empty() ? "" : ", ") + std::string(dice::colour_name(c));
          const std::string line = fmt::format(
              "{} ({} pts){}{}{}", g.def.name, g.def.points,
              g.def.dice.empty() ? "" : " \u00b7 dice: " + dice::to_notation(g.def.dice),
              shields.empty() ? "" : " \u00b7 shields: " + shields,
              g.removed ? " \u2014 LOST" : "");
          if (g.removed) {
            ImGui::TextDisabled("  %s", line.c_str());
          } else {
            ImGui::Text("  %s", line.c_str());
          }
        }
        std::string bonus;
        for (const auto& [c, v] : f.def.damage_bonus)
          bonus += fmt::format("{}+{} {}", bonus.empty() ? "" : ", ", v, dice::colour_name(c));
        if (!bonus.empty()) ImGui::TextDisabled("  damage bonus: %s", bonus.c_str());
      }
      ImGui::PopID();
    }
    ImGui::Spacing();
  }
}

}  // namespace duels::overlay
