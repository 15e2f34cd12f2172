// The figure editor and the team builder (editor_model.hpp holds their state and checks).
#include <fmt/format.h>
#include <imgui.h>
#include <imgui_stdlib.h>

#include <filesystem>

#include "dice/notation.hpp"
#include "duels/asset_writer.hpp"
#include "duels/loadout.hpp"
#include "overlay/panels/panels.hpp"

namespace duels::overlay {

namespace {

constexpr const char* kShieldWords[] = {"yellow", "blue", "green", "black", "red", "white"};

// A labelled text field a UI script can click by its label; its problem (if any) below it.
// Empty fields show what they want in grey instead of an error.
bool field(UiContext& ctx, const std::string& label, std::string& text, const std::string& error,
           const char* hint, float label_w, bool refocus = false) {
  ImGui::AlignTextToFramePadding();
  ImGui::TextUnformatted(label.c_str());
  ImGui::SameLine(label_w);
  ImGui::SetNextItemWidth(-1);
  if (refocus) ImGui::SetKeyboardFocusHere();
  const bool enter = ImGui::InputTextWithHint(("##" + label).c_str(), hint, &text,
                                              ImGuiInputTextFlags_EnterReturnsTrue);
  ui::record_last_item(ctx, label, WidgetKind::Field, true);
  if (!error.empty() && !text.empty()) {
    ImGui::SetCursorPosX(label_w);
    ui::text_coloured_wrapped(colours::kWarning, "\u2717 " + error);
  }
  return enter;
}

std::string error_of(const DraftCheck& c, const std::string& key) {
  const auto it = c.field_errors.find(key);
  return it == c.field_errors.end() ? std::string() : it->second;
}

std::string lower(std::string_view s) {
  std::string out(s);
  for (auto& ch : out)
    ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
  return out;
}

}  // namespace

FigureEditorPanel::FigureEditorPanel(EditorLibrary& library)
    : Panel("Figure editor", {0, 0, 0.62f, 1.0f}), library_(library) {}

void FigureEditorPanel::draw_content(UiContext& ctx) {
  const DraftCheck check = check_draft(draft_, library_, editing_);
  const float label_w = 150 * ctx.scale;

  // The player's own figures, to edit one again.
  const AssetLibrary& lib = library_.library();
  std::vector<std::pair<std::string, std::string>> own;
  for (const auto& [name, file] : lib.figure_files) {
    if (file.rfind(library_.folders().user, 0) == 0) own.emplace_back(name, file);
  }
  if (ui::button(ctx, "New figure")) {
    draft_ = FigureDraft{};
    editing_.clear();
    saved_.clear();
  }
  for (const auto& [name, file] : own) {
    ImGui::SameLine();
    if (ui::button(ctx, "Edit " + name)) {
      if (const FigureDef* f = lib.find_figure(name)) {
        draft_ = draft_of(*f);
        editing_ = file;
      }
    }
  }
  if (!library_.error().empty())
    ui::text_coloured_wrapped(colours::kWarning, "Your data folder: " + library_.error());
  ImGui::TextDisabled("%s", editing_.empty() ? "A new figure: type it in as it sits on the table."
                                             : ("Editing " + editing_).c_str());
  ImGui::Separator();

  field(ctx, "Name", draft_.name, error_of(check, "name"), "as printed on the base", label_w);
  field(ctx, "Collector number", draft_.collector_number, "", "optional, e.g. 042", label_w);
  field(ctx, "Points", draft_.points, error_of(check, "points"), "the point value, e.g. 45",
        label_w);
  field(ctx, "Base diameter", draft_.diameter, error_of(check, "diameter"), "inches", label_w);
  field(ctx, "Base height", draft_.height, error_of(check, "height"), "inches", label_w);
  field(ctx, "Starting dice", draft_.dice, error_of(check, "dice"),
        "e.g. 2xwhite:d6 yellow:d8:ace blue:d10", label_w);
  if (const auto& f = check.figure; f || !draft_.dice.empty()) {
    if (auto pool = dice::parse_pool(draft_.dice); pool && !pool->empty()) {
      ImGui::SetCursorPosX(label_w);
      ui::die_chips(*pool);
    }
  }
  field(ctx, "Damage bonus", draft_.bonus, error_of(check, "bonus"), "e.g. yellow:1 (empty: none)",
        label_w);

  ImGui::Separator();
  ui::text_wrapped(
      "The dials: turn each to its green arrow and type what it shows - the value, a shield "
      "colour if one shows, \"hole\" for each bullet hole. Enter turns the dial one click on.");
  const FigureDef preview = preview_figure(draft_);
  FigureState shown;
  shown.def = preview;
  if (ImGui::BeginTable("editor dials", 3, ImGuiTableFlags_SizingStretchSame)) {
    for (DialKind d : kAllDials) {
      const auto k = static_cast<std::size_t>(d);
      ImGui::TableNextColumn();
      ImGui::PushID(static_cast<int>(k));
      std::string& text = draft_.showing(d);
      shown.dial[k] = draft_.turned[k];
      const int n = static_cast<int>(draft_.dials[k].size());
      ui::text_coloured(colours::kText,
                        fmt::format("{}{}", dial_name(d),
                                    draft_.turned[k] == 0 ? " \u2014 at the green arrow" : ""));
      ui::dial(ctx, shown, d);
      const std::string label = fmt::format("{} shows", dial_name(d));
      ImGui::SetNextItemWidth(-1);
      if (refocus_[k]) {
        ImGui::SetKeyboardFocusHere();
        refocus_[k] = false;
      }
      const bool enter = ImGui::InputTextWithHint(("##" + label).c_str(), "6, 5 yellow, 4 hole",
                                                  &text, ImGuiInputTextFlags_EnterReturnsTrue);
      ui::record_last_item(ctx, label, WidgetKind::Field, true);
      const std::string err =
          error_of(check, fmt::format("{}.{}", lower(dial_name(d)), draft_.turned[k]));
      if (!err.empty() && !text.empty())
        ui::text_coloured_wrapped(colours::kWarning, "\u2717 " + err);
      // Mouse editing of the same click: a shield colour and bullet holes.
      auto parsed = parse_dial_position(text);
      if (parsed) {
        for (const char* c : kShieldWords) {
          const auto colour = dice::parse_colour(c);
          const bool on = parsed->shield == colour;
          if (ImGui::SmallButton(fmt::format("{}{}##shield{}", on ? "\u2713" : "", c, c).c_str())) {
            DialPosition p = *parsed;
            p.shield = on ? std::nullopt : colour;
            text = dial_position_text(p);
          }
          ImGui::SameLine();
        }
        ImGui::NewLine();
        for (int h = 0; h <= 3; ++h) {
          if (h > 0) ImGui::SameLine();
          const bool on = parsed->bullet_holes == h;
          if (ImGui::SmallButton(
                  fmt::format("{}{} hole{}##holes{}", on ? "\u2713" : "", h, h == 1 ? "" : "s", h)
                      .c_str())) {
            DialPosition p = *parsed;
            p.bullet_holes = h;
            text = dial_position_text(p);
          }
        }
      }
      if (ui::button(ctx, fmt::format("{}: back", dial_name(d)), draft_.turned[k] > 0))
        draft_.click_back(d);
      ImGui::SameLine();
      if (ui::button(ctx, fmt::format("{}: next click", dial_name(d))) || enter) {
        draft_.click_forward(d);
        refocus_[k] = true;
      }
      if (ui::button(ctx, fmt::format("{}: remove", dial_name(d)),
                     n > 1 || !draft_.showing(d).empty()))
        draft_.remove_click(d);
      std::string all;
      for (std::size_t i = 0; i < draft_.dials[k].size(); ++i) {
        const std::string& t = draft_.dials[k][i];
        all += fmt::format("{}{}", i == 0 ? "" : " \u00b7 ", t.empty() ? "?" : t);
      }
      ImGui::PushTextWrapPos(0);
      ImGui::TextDisabled("%s", all.c_str());
      ImGui::PopTextWrapPos();
      ImGui::PopID();
    }
    ImGui::EndTable();
  }

  ImGui::Separator();
  ImGui::TextUnformatted("The tape: each coloured track as COLOUR FROM TO in inches.");
  for (std::size_t i = 0; i < draft_.tape.size(); ++i) {
    ImGui::PushID(static_cast<int>(i));
    field(ctx, fmt::format("Tape track {}", i + 1), draft_.tape[i],
          error_of(check, fmt::format("tape.{}", i)), "e.g. blue 0 14", label_w);
    ImGui::PopID();
  }
  if (ui::button(ctx, "Add track", draft_.tape.size() < 5)) draft_.tape.emplace_back();
  ImGui::SameLine();
  if (ui::button(ctx, "Remove track", draft_.tape.size() > 1)) draft_.tape.pop_back();

  ImGui::Separator();
  std::string why_not;
  if (!check.field_errors.empty()) {
    why_not = fmt::format("{} field{} to fix or fill in", check.field_errors.size(),
                          check.field_errors.size() == 1 ? "" : "s");
  } else if (!check.problems.empty()) {
    why_not = check.problems.front();
  }
  for (const auto& p : check.problems)
    ui::text_coloured_wrapped(colours::kWarning, "\u2717 " + p);
  if (check.ok()) {
    ui::text_coloured(
        colours::kGood,
        fmt::format("\u2713 complete: {} points, {} dice; saves to {}", check.figure->points,
                    check.figure->starting_dice.size(), check.path));
  } else {
    ImGui::TextDisabled("%s", why_not.c_str());
  }
  if (ui::button(ctx, "Save figure", check.ok(), why_not)) {
    try {
      saved_ = save_draft(draft_, library_, editing_);
      editing_ = saved_;
      ctx.set_status("Saved " + saved_);
    } catch (const DataException& e) {
      ctx.set_status(e.what(), true);
    }
  }
  if (!saved_.empty()) {
    ImGui::SameLine();
    ui::text_coloured(colours::kGood, "figure saved");
    ui::record_last_item(ctx, "figure saved", WidgetKind::Field, true);
  }
}

TeamBuilderPanel::TeamBuilderPanel(EditorLibrary& library)
    : Panel("Team builder", {0.62f, 0, 0.38f, 1.0f}), library_(library) {}

void TeamBuilderPanel::draw_content(UiContext& ctx) {
  const AssetLibrary& lib = library_.library();
  const float label_w = 110 * ctx.scale;
  field(ctx, "Team name", team_.name, "", "e.g. My Runners", label_w);
  const int value = team_value(team_, lib);
  ImGui::PushFont(ctx.big_font);
  ui::text_coloured(colours::kText, fmt::format("Team value: {} points", value));
  ImGui::PopFont();
  ImGui::Separator();
  for (int i = 0; i < static_cast<int>(team_.members.size()); ++i) {
    auto& m = team_.members[static_cast<std::size_t>(i)];
    ImGui::PushID(i);
    const FigureDef* f = lib.find_figure(m.figure);
    const int gp = gear_points(m, lib);
    const bool over = gp > kMaxGearPoints;
    ui::text_coloured(member_ == i ? colours::kSelected : colours::kText,
                      fmt::format("{} ({} pts)", m.figure, f != nullptr ? f->points : 0));
    ImGui::SameLine();
    ui::text_coloured(over ? colours::kWarning : colours::kGood,
                      fmt::format("gear {}/{}", gp, kMaxGearPoints));
    ImGui::SameLine();
    if (ui::button(ctx, "Gear for " + m.figure, member_ != i)) member_ = i;
    ImGui::SameLine();
    if (ui::button(ctx, "Remove " + m.figure)) {
      team_.members.erase(team_.members.begin() + i);
      member_ = -1;
      ImGui::PopID();
      break;
    }
    for (std::size_t g = 0; g < m.gear.size(); ++g) {
      ImGui::PushID(static_cast<int>(g));
      const GearDef* gd = lib.find_gear(m.gear[g]);
      ImGui::Text("   %s (%d pts)", gd != nullptr ? gd->name.c_str() : m.gear[g].c_str(),
                  gd != nullptr ? gd->points : 0);
      ImGui::SameLine();
      if (ImGui::SmallButton("take off")) {
        m.gear.erase(m.gear.begin() + static_cast<std::ptrdiff_t>(g));
        ImGui::PopID();
        break;
      }
      ImGui::PopID();
    }
    ImGui::PopID();
  }
  if (team_.members.empty()) ImGui::TextDisabled("No figures yet: add them below.");
  ImGui::Separator();
  ImGui::TextUnformatted("Add a figure:");
  for (const auto& [name, f] : lib.figures) {
    if (ui::button(ctx, "Add " + name)) {
      team_.members.push_back({name, {}});
      member_ = static_cast<int>(team_.members.size()) - 1;
    }
    ImGui::SameLine();
    ImGui::TextDisabled("%d pts%s", f.points, f.sample ? " \u00b7 sample" : "");
  }
  if (member_ >= 0 && member_ < static_cast<int>(team_.members.size())) {
    auto& m = team_.members[static_cast<std::size_t>(member_)];
    const int gp = gear_points(m, lib);
    ImGui::Separator();
    ImGui::TextUnformatted(
        fmt::format("Gear for {} ({} of {} points):", m.figure, gp, kMaxGearPoints).c_str());
    for (const auto& [id, g] : lib.gear) {
      const bool fits = gp + g.points <= kMaxGearPoints;
      if (ui::button(ctx, "+ " + id, fits,
                     fmt::format("{} points would be {} (the limit is {})", g.points, gp + g.points,
                                 kMaxGearPoints)))
        m.gear.push_back(id);
      ImGui::SameLine();
      ImGui::TextDisabled("%d pts%s%s", g.points,
                          g.dice.empty() ? "" : (" \u00b7 " + dice::to_notation(g.dice)).c_str(),
                          g.shields.empty() ? "" : " \u00b7 shield");
    }
  }
  ImGui::Separator();
  const auto problems = team_problems(team_, library_);
  for (const auto& p : problems)
    ui::text_coloured_wrapped(colours::kWarning, "\u2717 " + p);
  if (ui::button(ctx, "Save team", problems.empty(), problems.empty() ? "" : problems.front())) {
    try {
      saved_ = save_team(team_, library_);
      ctx.set_status("Saved " + saved_);
    } catch (const DataException& e) {
      ctx.set_status(e.what(), true);
    }
  }
  if (!saved_.empty()) {
    ImGui::SameLine();
    ui::text_coloured(colours::kGood, "team saved");
    ui::record_last_item(ctx, "team saved", WidgetKind::Field, true);
  }
  // A match against another team: the saved team by name.
  ImGui::Separator();
  ImGui::TextUnformatted("Play it against:");
  for (const auto& [name, t] : lib.teams) {
    if (name == team_.name) continue;
    ImGui::SameLine();
    if (ui::button(ctx, (opponent_ == name ? "\u2713 " : "") + name + "##opponent",
                   opponent_ != name))
      opponent_ = name;
  }
  const bool saved_now = !saved_.empty() && lib.teams.count(team_.name) != 0;
  std::string why = !saved_now          ? "save the team first"
                    : opponent_.empty() ? "pick an opponent"
                                        : "";
  if (ctx.session != nullptr) why = "a match is open already";
  if (ui::button(ctx, "Start match", why.empty() && ctx.start_match, why)) {
    try {
      ctx.start_match(setup_from_teams(lib, {team_.name, opponent_}));
    } catch (const DataException& e) {
      ctx.set_status(e.what(), true);
    }
  }
}

}  // namespace duels::overlay
