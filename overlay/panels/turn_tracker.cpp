// The turn tracker: round, alpha, whose turn and what is left; set-up steps; dice at round start;
// the move tool; the built-in opponent.
#include <fmt/format.h>
#include <imgui.h>

#include <algorithm>

#include "dice/notation.hpp"
#include "duels/engine.hpp"
#include "overlay/panels/panels.hpp"
#include "overlay/session.hpp"

namespace duels::overlay {

namespace {

const FigureState& fig(const GameState& s, FigureId f) {
  return s.figures[static_cast<std::size_t>(f)];
}

void choose_dice_section(UiContext& ctx) {
  Session& s = *ctx.session;
  const GameState st = s.state();  // a copy: an action below may replace the match state
  ImGui::TextWrapped(
      "Every player puts up to six dice from the cup on the base, all at once: one click per "
      "die.");
  for (FigureId id = 0; id < static_cast<FigureId>(st.figures.size()); ++id) {
    const FigureState& f = fig(st, id);
    if (f.eliminated || f.chose_dice) continue;
    ImGui::PushID(id);
    const auto& plan = s.dice_plan[id];
    ui::text_coloured(ui::team_text_colour(f.team),
                      fmt::format("{}: {} of 6 picked", f.def.name, plan.size()));
    bool first = true;
    for (DieId d : f.dice_in(DieZone::Cup)) {
      const bool picked = std::find(plan.begin(), plan.end(), d) != plan.end();
      const bool room = picked || plan.size() < 6;
      if (ui::die_button(ctx, f.dice[static_cast<std::size_t>(d)].die,
                         fmt::format("plan{}-{}", id, d), picked, room && s.live(), {}, !first)) {
        s.toggle_plan_die(id, d);
      }
      first = false;
    }
    if (ui::button(ctx, fmt::format("Confirm {}'s dice", f.def.name), s.live())) {
      s.confirm_dice(id);
    }
    ImGui::PopID();
    ImGui::Spacing();
  }
}

void move_section(UiContext& ctx, FigureId id) {
  Session& s = *ctx.session;
  const GameState st = s.state();  // a copy: an action below may replace the match state
  const FigureState& f = fig(st, id);
  if (!s.move.active || s.move.figure != id) {
    const bool may = s.live() && can_act(st, id) && !f.moved && !st.attack;
    if (ui::button(ctx, fmt::format("Move {}\u2026", f.def.name), may,
                   f.moved ? "it has moved this turn" : "not now")) {
      s.begin_move(id);
    }
    return;
  }
  ImGui::TextWrapped("Movement: Head %d, plus movement dice if rolled (white or wild).",
                     f.value(DialKind::Head));
  bool first = true;
  for (DieId d : f.dice_in(DieZone::Base)) {
    const dice::Die& die = f.dice[static_cast<std::size_t>(d)].die;
    if (die.colour != dice::Colour::White && !dice::is_wild(die.colour)) continue;
    const bool picked =
        std::find(s.move.dice_pick.begin(), s.move.dice_pick.end(), d) != s.move.dice_pick.end();
    if (ui::die_button(ctx, die, fmt::format("move{}", d), picked, !s.move.rolled, {}, !first))
      s.toggle_move_die(d);
    first = false;
  }
  if (first) ImGui::TextDisabled("(no white or wild dice on the base)");
  if (!s.move.rolled && !s.move.dice_pick.empty()) {
    if (ui::button(ctx, "Roll movement dice")) s.roll_move_dice();
    ImGui::SameLine();
  }
  if (s.move.rolled) {
    std::vector<dice::Roll> rolls;
    for (const auto& r : s.move.rolls)
      rolls.push_back({f.dice[static_cast<std::size_t>(r.die)].die, r.face});
    ImGui::Text("Rolled %s", dice::to_notation(rolls).c_str());
  }
  ui::text_coloured(colours::kReach,
                    fmt::format("May move {}\": click a spot in the shaded area of the map.",
                                s.move_allowance_in()));
  if (ui::button(ctx, "Cancel move")) s.cancel_move();
}

}  // namespace

TurnTrackerPanel::TurnTrackerPanel() : Panel("Turn", {0.42f, 0, 0.28f, 0.34f}) {}

void TurnTrackerPanel::draw_content(UiContext& ctx) {
  Session& s = *ctx.session;
  const GameState st = s.state();  // a copy: an action below may replace the match state
  ImGui::Text("Round %d \u00b7 %s", st.round, std::string(phase_name(st.phase)).c_str());
  if (st.alpha >= 0) {
    ImGui::SameLine();
    ui::text_coloured(ui::team_text_colour(st.alpha),
                      "\u00b7 alpha: " + st.teams[static_cast<std::size_t>(st.alpha)].name);
  }
  ImGui::PushTextWrapPos(0);
  if (const auto team = deciding_team(st)) {
    ImGui::PushStyleColor(ImGuiCol_Text, ui::team_text_colour(*team).packed());
    ImGui::TextUnformatted(prompt(st).c_str());
    ImGui::PopStyleColor();
  } else {
    ImGui::TextUnformatted(prompt(st).c_str());
  }
  ImGui::PopTextWrapPos();
  if (!s.live()) {
    ui::text_coloured(okabe_ito::kOrange, "Showing the past (Log \u2192 Live to play on).");
  }
  ImGui::Separator();

  switch (st.phase) {
    case Phase::AlphaRoll:
      for (const auto& t : st.teams) {
        if (t.alpha_roll) {
          ImGui::Text("%s rolled %d + %d", t.name.c_str(), (*t.alpha_roll)[0], (*t.alpha_roll)[1]);
        }
      }
      if (ui::button(ctx, "Roll for alpha", s.live())) s.roll_alpha();
      break;
    case Phase::PlaceTerrain: {
      const auto& team = st.teams[static_cast<std::size_t>(st.placing)];
      ui::text_coloured(
          ui::team_text_colour(st.placing),
          fmt::format("{} places terrain ({} of 2 so far).", team.name, team.terrain_placed));
      const auto unplaced = s.table().unplaced;  // a copy: placing one rebuilds the view
      for (const auto& piece : unplaced) {
        if (ui::button(ctx, fmt::format("Place {}", piece.id), s.live())) s.place_terrain(piece.id);
        ImGui::SameLine();
      }
      if (ui::button(ctx, "Pass", s.live())) s.pass_terrain();
      break;
    }
    case Phase::PlaceFigures:
      ImGui::TextWrapped("Click the table map where the figure stands.");
      break;
    case Phase::ChooseDice:
      choose_dice_section(ctx);
      break;
    case Phase::Turns:
      for (FigureId id : st.team_figures(st.active_team, true)) {
        const FigureState& f = fig(st, id);
        ImGui::PushID(id);
        const std::string line = f.turn_done
                                     ? fmt::format("{}: turn done", f.def.name)
                                     : fmt::format("{}: move {}, {} attack{} left{}", f.def.name,
                                                   f.moved ? "used" : "left", 2 - f.attacks,
                                                   2 - f.attacks == 1 ? "" : "s",
                                                   st.active_figure == id ? " \u00b7 acting" : "");
        ui::text_coloured(ui::team_text_colour(f.team), line);
        if (!f.turn_done && s.selected != id) {
          ImGui::SameLine();
          if (ui::button(ctx, fmt::format("Select##{}", id))) s.select(id);
        }
        ImGui::PopID();
      }
      if (s.selected && fig(st, *s.selected).team == st.active_team &&
          !fig(st, *s.selected).turn_done) {
        const FigureId id = *s.selected;
        move_section(ctx, id);
        if (!s.move.active) {
          ImGui::SameLine();
          if (ui::button(ctx, fmt::format("End {}'s turn", fig(st, id).def.name),
                         s.live() && can_act(st, id) && !st.attack))
            s.end_turn(id);
        }
      }
      break;
    case Phase::GameOver:
      if (st.winner) {
        ui::text_coloured(ui::team_text_colour(*st.winner),
                          st.teams[static_cast<std::size_t>(*st.winner)].name + " wins.");
      }
      break;
  }

  ImGui::Separator();
  ImGui::TextDisabled("Built-in opponent plays:");
  for (TeamId t = 0; t < static_cast<TeamId>(st.teams.size()); ++t) {
    if (static_cast<std::size_t>(t) >= s.ai_teams.size()) break;
    bool on = s.ai_teams[static_cast<std::size_t>(t)];
    const float w = ImGui::CalcTextSize(st.teams[static_cast<std::size_t>(t)].name.c_str()).x +
                    ImGui::GetFrameHeight() + 2 * ImGui::GetStyle().ItemSpacing.x;
    ImGui::SameLine();
    if (ImGui::GetContentRegionAvail().x < w) ImGui::NewLine();
    if (ImGui::Checkbox(st.teams[static_cast<std::size_t>(t)].name.c_str(), &on))
      s.ai_teams[static_cast<std::size_t>(t)] = on;
    ui::record_last_item(ctx, st.teams[static_cast<std::size_t>(t)].name, WidgetKind::Button, true);
  }
  ImGui::Checkbox("Plays by itself", &s.auto_run);
  ui::record_last_item(ctx, "Plays by itself", WidgetKind::Button, true);
  ImGui::SameLine();
  if (ui::button(ctx, "Opponent decides this step", s.live() && st.phase != Phase::GameOver))
    s.ai_step(true);
}

}  // namespace duels::overlay
