// The card-game tabs: each game's console in the window, its state beside the transcript.
#include <fmt/format.h>
#include <imgui.h>
#include <imgui_stdlib.h>

#include <algorithm>
#include <filesystem>
#include <stdexcept>

#include "common/error.hpp"
#include "overlay/panels/panels.hpp"
#include "overlay/session.hpp"

namespace duels::overlay {

CardGamesPanel::CardGamesPanel(CardGamesOptions options)
    : Panel("Card games", {0.42f, 0.0f, 0.58f, 0.64f}), options_(std::move(options)) {
  visible = !options_.open_tab.empty();
}

const CardTable* CardGamesPanel::table(const std::string& game) const {
  const auto it = tabs_.find(game);
  return it == tabs_.end() ? nullptr : it->second.table.get();
}

void CardGamesPanel::draw_content(UiContext& ctx) {
  if (!ImGui::BeginTabBar("games")) return;
  for (const std::string& game : card_games()) {
    const std::string label = game == "encounters"  ? "Encounters"
                              : game == "crossfire" ? "Crossfire"
                                                    : "SRTCG";
    ImGuiTabItemFlags flags = 0;
    if (select_first_ && game == options_.open_tab) flags |= ImGuiTabItemFlags_SetSelected;
    const bool open = ImGui::BeginTabItem(label.c_str(), nullptr, flags);
    ui::record_last_item(ctx, label, WidgetKind::Button, true);
    if (open) {
      draw_tab(ctx, game, tabs_[game]);
      ImGui::EndTabItem();
    }
  }
  select_first_ = false;
  ImGui::EndTabBar();
}

void CardGamesPanel::draw_tab(UiContext& ctx, const std::string& game, Tab& tab) {
  if (!tab.table && tab.error.empty()) {
    CardTableOptions o;
    if (auto it = options_.journals.find(game); it != options_.journals.end())
      o.journal = it->second;
    o.seed = options_.seed;
    o.crossfire_metatypes = options_.crossfire_metatypes;
    try {
      tab.table = open_card_table(game, o);
      tab.refocus = true;
    } catch (const DataException& e) {
      tab.error = e.what();
    } catch (const std::exception& e) {
      tab.error = e.what();
    }
  }
  if (!tab.table) {
    ui::text_coloured(colours::kWarning, "The session could not be opened:");
    ui::text_wrapped(tab.error);
    return;
  }
  CardTable& t = *tab.table;
  ImGui::TextDisabled("%s", fmt::format("{} \u00b7 {} command{} in effect \u00b7 journal {}",
                                        t.game(), t.commands(), t.commands() == 1 ? "" : "s",
                                        std::filesystem::path(t.journal()).filename().string())
                                .c_str());
  // One-click console words (journaled like typed ones when they change the game).
  std::string clicked;
  bool first = true;
  for (const std::string& w : t.quick_words()) {
    if (!first) {
      ImGui::SameLine();
      if (ImGui::GetContentRegionAvail().x < ImGui::CalcTextSize(w.c_str()).x + 20)
        ImGui::NewLine();
    }
    first = false;
    if (ui::button(ctx, fmt::format("{}##{}", w, game))) clicked = w;
  }
  ImGui::SameLine();
  if (ui::button(ctx, fmt::format("help##{}", game))) clicked = "help";
  if (std::string action = draw_actions(ctx, game, tab); !action.empty()) clicked = action;

  const float line = ImGui::GetFrameHeightWithSpacing();
  const float body_h = std::max(80.0f, ImGui::GetContentRegionAvail().y);
  const float w = ImGui::GetContentRegionAvail().x;
  // Left: the state in words; right: the transcript and the command line.
  ImGui::BeginChild("state", {w * 0.45f, body_h}, true);
  ImGui::TextDisabled("state");
  ui::text_wrapped(t.state_text());
  ImGui::EndChild();
  ImGui::SameLine();
  ImGui::BeginGroup();
  ImGui::BeginChild("transcript", {0, body_h - line}, true);
  ImGui::PushTextWrapPos(0);
  for (const CardLine& l : t.transcript()) {
    if (l.typed) {
      ui::text_coloured(okabe_ito::kSkyBlue, l.text);
    } else if (!l.ok) {
      ui::text_coloured(colours::kWarning, l.text);
    } else {
      ImGui::TextUnformatted(l.text.c_str());
    }
  }
  ImGui::PopTextWrapPos();
  if (tab.seen_version != t.version()) {
    ImGui::SetScrollHereY(1.0f);
    tab.seen_version = t.version();
  }
  ImGui::EndChild();
  if (tab.refocus) {
    ImGui::SetKeyboardFocusHere();
    tab.refocus = false;
  }
  ImGui::SetNextItemWidth(-1);
  const bool enter = ImGui::InputTextWithHint("##command", "type a command, Enter sends it",
                                              &tab.input, ImGuiInputTextFlags_EnterReturnsTrue);
  ui::record_last_item(ctx, game + " command", WidgetKind::Field, true);
  ImGui::EndGroup();
  if (enter && !tab.input.empty()) {
    clicked = tab.input;
    tab.input.clear();
    tab.refocus = true;  // Enter leaves the field: give it the keyboard back
  }
  if (!clicked.empty()) {
    const bool ok = t.send(clicked);
    ctx.set_status(fmt::format("{}: {} {}", t.game(), clicked, ok ? "\u2713" : "refused"), !ok);
  }
}

std::string CardGamesPanel::draw_actions(UiContext& ctx, const std::string& game, Tab& tab) {
  CardTable& t = *tab.table;
  // Clicked dice and faces belong to the state they were clicked in.
  if (tab.actions_at != t.commands()) {
    tab.selected.clear();
    tab.faces.clear();
    tab.actions_at = t.commands();
  }
  const std::vector<CardAction> actions = t.actions();
  if (actions.empty()) return {};
  std::string line;
  std::string group;
  bool first_in_row = true;
  const auto place = [&](const std::string& label) {
    if (!first_in_row) {
      ImGui::SameLine();
      if (ImGui::GetContentRegionAvail().x < ImGui::CalcTextSize(label.c_str()).x + 20)
        ImGui::NewLine();
    }
    first_in_row = false;
  };
  for (const CardAction& a : actions) {
    if (a.kind == CardAction::Kind::WithSelected && tab.selected.empty()) continue;
    if (a.group != group) {
      group = a.group;
      first_in_row = true;
    }
    place(a.label);
    const std::string id = fmt::format("{}##{}", a.label, game);
    switch (a.kind) {
      case CardAction::Kind::Send:
        if (ui::button(ctx, id)) line = a.line;
        break;
      case CardAction::Kind::Prefill:
        if (ui::button(ctx, id)) {
          tab.input = a.line;
          tab.refocus = true;
        }
        break;
      case CardAction::Kind::Select: {
        const auto it = std::find(tab.selected.begin(), tab.selected.end(), a.line);
        const bool on = it != tab.selected.end();
        if (on) ImGui::PushStyleColor(ImGuiCol_Button, ImVec4(0.0f, 0.45f, 0.70f, 1.0f));
        const bool hit = ui::button(ctx, id);
        if (on) ImGui::PopStyleColor();
        if (hit) {
          if (on) {
            tab.selected.erase(it);
          } else {
            tab.selected.push_back(a.line);
          }
        }
        break;
      }
      case CardAction::Kind::WithSelected: {
        const std::string sends = with_selected(a, tab.selected);
        if (ui::button(ctx, id)) {
          line = sends;
          tab.selected.clear();
        }
        ImGui::SameLine();
        ImGui::TextDisabled("%s", sends.c_str());
        break;
      }
      case CardAction::Kind::Face:
        if (ui::button(ctx, id) && static_cast<int>(tab.faces.size()) < t.faces_wanted())
          tab.faces.push_back(a.line);
        break;
    }
  }
  if (t.faces_wanted() > 0) {
    std::vector<std::string> shown = tab.faces;
    while (static_cast<int>(shown.size()) < t.faces_wanted())
      shown.emplace_back("_");
    ImGui::TextDisabled("%s", fmt::format("roll {}", fmt::join(shown, ",")).c_str());
    if (!tab.faces.empty()) {
      ImGui::SameLine();
      if (ui::button(ctx, fmt::format("clear faces##{}", game))) tab.faces.clear();
    }
    if (static_cast<int>(tab.faces.size()) == t.faces_wanted()) {
      line = fmt::format("roll {}", fmt::join(tab.faces, ","));
      tab.faces.clear();
    }
  }
  return line;
}

}  // namespace duels::overlay
