// The combat wizard, steps A–M of the rulebook's combat order.
#include <fmt/format.h>
#include <imgui.h>
#include <imgui_stdlib.h>

#include <algorithm>
#include <array>

#include "dice/notation.hpp"
#include "duels/engine.hpp"
#include "overlay/panels/panels.hpp"
#include "overlay/session.hpp"

namespace duels::overlay {

namespace {

const FigureState& fig(const GameState& s, FigureId f) {
  return s.figures[static_cast<std::size_t>(f)];
}

std::string effect_words(AceEffect e) {
  switch (e) {
    case AceEffect::Stun:
      return "Stun (the target's base dice go to its cup)";
    case AceEffect::CalledShot:
      return "Called Shot (the attacker picks the dial)";
    case AceEffect::TechSuperiority:
      return "Technical Superiority (the defender gives up a gear piece)";
    case AceEffect::MajorMojo:
      return "Major Mojo (+1 click)";
  }
  return "?";
}

bool contains(const std::vector<int>& v, int x) {
  return std::find(v.begin(), v.end(), x) != v.end();
}

// The step the attack is at, as an index into kSteps.
constexpr std::array<const char*, 10> kSteps = {
    "A measure", "B attack dice", "C dodge", "D roll",          "E Bad Karma",
    "F aces",    "G totals",      "H hit?",  "I\u2013K damage", "L\u2013M aces, dial"};

void step_bar(int current) {
  for (int i = 0; i < static_cast<int>(kSteps.size()); ++i) {
    if (i > 0) {
      ImGui::SameLine(0, 4);
      if (ImGui::GetContentRegionAvail().x <
          ImGui::CalcTextSize(kSteps[static_cast<std::size_t>(i)]).x + 8)
        ImGui::NewLine();
    }
    if (i == current) {
      ui::text_coloured(colours::kSelected,
                        fmt::format("[{}]", kSteps[static_cast<std::size_t>(i)]));
    } else {
      ImGui::TextDisabled("%s", kSteps[static_cast<std::size_t>(i)]);
    }
  }
  ImGui::Separator();
}

// Steps E–L of a rolled attack, with every die marked: Bad Karma, ace, blocked, counted.
void draw_result(const AttackInput& in, const AttackResult& r) {
  ImGui::TextUnformatted("Attack dice:");
  for (int i = 0; i < static_cast<int>(in.attack.size()); ++i) {
    const auto& roll = in.attack[static_cast<std::size_t>(i)];
    std::string mark = "counts";
    if (contains(r.bad_karma, i)) mark = "Bad Karma";
    if (contains(r.aces, i)) mark = "ACE";
    if (contains(r.blocked, i)) mark = "blocked";
    if (!r.hit && mark == "counts") mark = "";
    ImGui::SameLine();
    if (ImGui::GetContentRegionAvail().x < 160) ImGui::NewLine();
    ui::die_chip(roll.die, roll.face, mark);
  }
  if (!in.dodge.empty()) {
    ImGui::TextUnformatted("Dodge dice:");
    for (const auto& roll : in.dodge) {
      ImGui::SameLine();
      if (ImGui::GetContentRegionAvail().x < 140) ImGui::NewLine();
      ui::die_chip(roll.die, roll.face);
    }
  }
  if (r.bad_karma.empty()) {
    ImGui::TextDisabled("E  no Bad Karma");
  } else {
    ui::text_coloured(okabe_ito::kOrange,
                      fmt::format("E  Bad Karma: {} {} showing the same number removed",
                                  r.bad_karma.size(), r.bad_karma.size() == 1 ? "die" : "dice"));
  }
  if (r.no_dice_left) {
    ui::text_coloured(colours::kWarning, "   every attack die lost: automatic miss");
    return;
  }
  if (!r.aces.empty()) {
    ui::text_coloured(okabe_ito::kYellow,
                      fmt::format("F  {} ace{} set aside (count 0)", r.aces.size(),
                                  r.aces.size() == 1 ? "" : "s"));
  }
  int dodge_sum = 0;
  for (const auto& d : in.dodge)
    dodge_sum += d.value();
  ui::text_wrapped(fmt::format(
      "G  attack {} (Weapon {} + dice {})  vs  defence {} (Body {} + "
      "dodge {})",
      r.attack_total, in.weapon, r.attack_total - in.weapon, r.defence_total, in.body, dodge_sum));
  if (!r.hit) {
    ui::text_coloured(colours::kWarning,
                      "H  MISS (attack below defence): no damage, aces do nothing");
    return;
  }
  ui::text_coloured(colours::kGood, "H  HIT (attack \u2265 defence)");
  if (!r.blocked.empty()) {
    ui::text_coloured(okabe_ito::kOrange,
                      fmt::format("I\u2013J  {} {} blocked by shields", r.blocked.size(),
                                  r.blocked.size() == 1 ? "die" : "dice"));
  } else {
    ImGui::TextDisabled("I\u2013J  no die blocked");
  }
  ImGui::Text(
      "K  %zu damaging %s%s", r.damaging.size(), r.damaging.size() == 1 ? "die" : "dice",
      r.bonus > 0
          ? fmt::format(" + {} bonus {}", dice::colour_name(*r.bonus_colour), r.bonus).c_str()
          : "");
  if (!r.aces.empty())
    ImGui::Text("L  %zu ace%s: +1 click each", r.aces.size(), r.aces.size() == 1 ? "" : "s");
  for (auto e : r.ace_effects)
    ui::text_coloured(okabe_ito::kYellow, "   " + effect_words(e));
  ui::text_coloured(colours::kGood,
                    fmt::format("= {} click{} of damage", r.clicks, r.clicks == 1 ? "" : "s"));
}

std::string percent(double p) {
  return fmt::format("{:.1f}%", 100 * p);
}

void stage_declare(UiContext& ctx) {
  Session& s = *ctx.session;
  const GameState st = s.state();  // a copy: an action below may replace the match state
  const auto a = s.attacker();
  if (!a) {
    step_bar(0);
    ImGui::TextWrapped(st.phase == Phase::Turns
                           ? "Select the attacking figure: click its base on the map."
                           : "Attacks come during turns.");
    return;
  }
  const FigureState& af = fig(st, *a);
  const auto t = s.attack_target();
  if (!t) {
    step_bar(0);
    ui::text_coloured(ui::team_text_colour(af.team), af.def.name + " attacks\u2026");
    ImGui::TextWrapped("Hover or click an enemy base on the map to measure and pick the target.");
    return;
  }
  const FigureState& tf = fig(st, *t);
  const AttackMeasure m = s.measure(*a, *t);
  const auto cand = s.attack_candidates();
  step_bar(m.valid && m.lof.clear ? 1 : 0);
  ui::text_coloured(ui::team_text_colour(af.team), af.def.name);
  ImGui::SameLine();
  ImGui::TextUnformatted("\u2192");
  ImGui::SameLine();
  ui::text_coloured(ui::team_text_colour(tf.team), tf.def.name);
  if (!m.valid) {
    ImGui::TextWrapped("Both bases must be on the table to measure.");
    return;
  }
  // A: the measurement.
  if (m.lof.clear) {
    ui::text_coloured(colours::kLineClear,
                      fmt::format("A  line of fire clear \u00b7 gap {:.2f}\" \u00b7 chord {:.2f}\"",
                                  m.measurement.gap_in, m.measurement.chord_in));
    std::string usable;
    for (auto c : m.usable)
      usable += (usable.empty() ? "" : ", ") + std::string(dice::colour_name(c));
    ImGui::Text("   tape colours usable: %s", usable.empty() ? "none" : usable.c_str());
  } else {
    std::string by;
    for (const auto& id : m.blocker_ids)
      by += (by.empty() ? "" : ", ") + id;
    ui::text_coloured(colours::kLineBlocked,
                      fmt::format("A  NO line of fire: blocked by {}", by.empty() ? "?" : by));
    return;
  }
  const bool can_attack = s.live() && can_act(st, *a) && af.attacks < 2;
  if (!can_attack) {
    ImGui::TextDisabled("%s can't attack now (%s).", af.def.name.c_str(),
                        af.attacks >= 2 ? "both attacks made" : "not its turn");
  }
  // B: the legal attack dice.
  ImGui::TextUnformatted("B  attack dice (legal at this range):");
  if (cand.empty()) ImGui::TextDisabled("   none of the dice on the base can reach");
  bool first = true;
  for (DieId d : cand) {
    const bool picked = std::find(s.wizard.attack_pick.begin(), s.wizard.attack_pick.end(), d) !=
                        s.wizard.attack_pick.end();
    if (ui::die_button(ctx, af.dice[static_cast<std::size_t>(d)].die, fmt::format("atk{}", d),
                       picked, can_attack, {}, !first)) {
      s.toggle_attack_die(d);
    }
    first = false;
  }
  auto attack_button = [&] {
    if (ui::button(ctx, "Attack", can_attack && !s.wizard.attack_pick.empty(),
                   "pick at least one attack die")) {
      s.declare_attack();
    }
    ImGui::SameLine();
    ImGui::TextDisabled("(Enter)");
  };
  const auto advice = s.attack_advice();
  if (!advice) {
    ImGui::TextDisabled("   working out the exact odds\u2026");
    attack_button();
  } else if (advice->attacks.empty()) {
    attack_button();
  } else {
    auto ids_of = [&](const std::vector<int>& idx) {
      std::vector<DieId> v;
      for (int i : idx)
        v.push_back(cand[static_cast<std::size_t>(i)]);
      std::sort(v.begin(), v.end());
      return v;
    };
    const Advice* chosen = nullptr;
    for (const auto& opt : advice->attacks) {
      if (ids_of(opt.attack.dice) == s.wizard.attack_pick) chosen = &opt;
    }
    if (chosen != nullptr) {
      ui::text_coloured_wrapped(
          colours::kGood, fmt::format("   hit {} \u00b7 {:.2f} expected clicks (against {}'s best "
                                      "dodge)",
                                      percent(chosen->attack.odds.p_hit()),
                                      chosen->attack.odds.expected_clicks(), tf.def.name));
    } else if (!s.wizard.attack_pick.empty()) {
      ui::text_coloured(colours::kWarning, "   that combination is not a legal attack");
    }
    attack_button();
    ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
    ui::text_wrapped("Every legal choice, exact odds against the best dodge (click one):");
    ImGui::PopStyleColor();
    // The numbers first (always in view), the dice after them; a row too long for the panel
    // shows in full as a tooltip.
    if (ImGui::BeginTable("advice", 5,
                          ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerV |
                              ImGuiTableFlags_SizingFixedFit | ImGuiTableFlags_ScrollY,
                          {0, std::min(8.0f, static_cast<float>(advice->attacks.size()) + 1.5f) *
                                  ImGui::GetTextLineHeightWithSpacing()})) {
      ImGui::TableSetupScrollFreeze(0, 1);
      ImGui::TableSetupColumn("#");
      ImGui::TableSetupColumn("hit");
      ImGui::TableSetupColumn("clicks");
      ImGui::TableSetupColumn("attack dice", ImGuiTableColumnFlags_WidthStretch, 1.3f);
      ImGui::TableSetupColumn("best dodge", ImGuiTableColumnFlags_WidthStretch, 1.0f);
      ImGui::TableHeadersRow();
      int row = 0;
      for (const auto& opt : advice->attacks) {
        ++row;
        ImGui::TableNextRow();
        ImGui::TableNextColumn();
        std::vector<dice::Die> dice;
        for (int i : opt.attack.dice)
          dice.push_back(af.dice[static_cast<std::size_t>(cand[static_cast<std::size_t>(i)])].die);
        const auto ids = ids_of(opt.attack.dice);
        const std::string label = fmt::format("#{}##opt{}", row, row);
        if (ImGui::Selectable(label.c_str(), ids == s.wizard.attack_pick,
                              ImGuiSelectableFlags_SpanAllColumns) &&
            can_attack) {
          s.wizard.attack_pick = ids;
        }
        const bool row_hovered = ImGui::IsItemHovered();
        ui::record_last_item(ctx, fmt::format("#{}", row), WidgetKind::Button, can_attack);
        ImGui::TableNextColumn();
        ImGui::TextUnformatted(percent(opt.attack.odds.p_hit()).c_str());
        ImGui::TableNextColumn();
        ImGui::Text("%.2f", opt.attack.odds.expected_clicks());
        ImGui::TableNextColumn();
        const std::string attack_text = dice::to_notation(dice);
        ImGui::TextUnformatted(attack_text.c_str());
        ImGui::TableNextColumn();
        std::vector<dice::Die> dodge;
        for (int i : opt.best_dodge.dice) {
          const auto on_base = tf.dice_in(DieZone::Base);
          std::vector<DieId> eligible;
          for (DieId id : on_base) {
            const auto c = tf.dice[static_cast<std::size_t>(id)].die.colour;
            if (c == dice::Colour::White || c == dice::Colour::Yellow || dice::is_wild(c))
              eligible.push_back(id);
          }
          if (static_cast<std::size_t>(i) < eligible.size())
            dodge.push_back(
                tf.dice[static_cast<std::size_t>(eligible[static_cast<std::size_t>(i)])].die);
        }
        const std::string dodge_text = dodge.empty() ? "none" : dice::to_notation(dodge);
        ImGui::TextUnformatted(dodge_text.c_str());
        if (row_hovered) {
          ImGui::SetTooltip(
              "#%d  attack with %s\nhit %s \u00b7 %.2f expected clicks\nbest dodge: %s", row,
              attack_text.c_str(), percent(opt.attack.odds.p_hit()).c_str(),
              opt.attack.odds.expected_clicks(), dodge_text.c_str());
        }
      }
      ImGui::EndTable();
    }
  }
}

void stage_dodge(UiContext& ctx) {
  Session& s = *ctx.session;
  const GameState st = s.state();  // a copy: an action below may replace the match state
  const PendingAttack& p = *st.attack;
  const FigureState& af = fig(st, p.attacker);
  const FigureState& tf = fig(st, p.target);
  step_bar(2);
  ImGui::TextWrapped("%s attacks %s at %.2f\" with %s.", af.def.name.c_str(), tf.def.name.c_str(),
                     p.gap_in,
                     dice::to_notation([&] {
                       std::vector<dice::Die> v;
                       for (DieId id : p.attack_dice)
                         v.push_back(af.dice[static_cast<std::size_t>(id)].die);
                       return v;
                     }())
                         .c_str());
  ui::text_coloured(ui::team_text_colour(tf.team),
                    fmt::format("C  {} decides: dodge? (white, yellow, wild dice)", tf.def.name));
  const auto cand = s.dodge_candidates();
  bool first = true;
  for (DieId d : cand) {
    const bool picked = std::find(s.wizard.dodge_pick.begin(), s.wizard.dodge_pick.end(), d) !=
                        s.wizard.dodge_pick.end();
    if (ui::die_button(ctx, tf.dice[static_cast<std::size_t>(d)].die, fmt::format("dodge{}", d),
                       picked, s.live(), {}, !first)) {
      s.toggle_dodge_die(d);
    }
    first = false;
  }
  if (cand.empty()) ImGui::TextDisabled("   no die on the base can dodge");
  if (ui::button(ctx, "Dodge", s.live() && !s.wizard.dodge_pick.empty(), "pick dodge dice"))
    s.choose_dodge(false);
  ImGui::SameLine();
  if (ui::button(ctx, "No dodge", s.live())) s.choose_dodge(true);
  ImGui::SameLine();
  ImGui::TextDisabled("(Enter)");
  const auto advice = s.dodge_advice();
  if (!advice) {
    ImGui::TextDisabled("   working out the exact odds\u2026");
  } else if (ImGui::BeginTable(
                 "dodges", 3,
                 ImGuiTableFlags_RowBg | ImGuiTableFlags_SizingFixedFit | ImGuiTableFlags_ScrollY,
                 {0, std::min(7.0f, static_cast<float>(advice->dodges.size()) + 1.5f) *
                         ImGui::GetTextLineHeightWithSpacing()})) {
    ImGui::TableSetupScrollFreeze(0, 1);
    ImGui::TableSetupColumn("dodge", ImGuiTableColumnFlags_WidthStretch);
    ImGui::TableSetupColumn("hit");
    ImGui::TableSetupColumn("clicks");
    ImGui::TableHeadersRow();
    int row = 0;
    for (const auto& d : advice->dodges) {
      ++row;
      std::vector<DieId> ids;
      std::vector<dice::Die> dice;
      for (int i : d.dice) {
        ids.push_back(cand[static_cast<std::size_t>(i)]);
        dice.push_back(tf.dice[static_cast<std::size_t>(cand[static_cast<std::size_t>(i)])].die);
      }
      std::sort(ids.begin(), ids.end());
      ImGui::TableNextRow();
      ImGui::TableNextColumn();
      const std::string label =
          fmt::format("{}{}##dodgeopt{}", row == 1 ? "best: " : "",
                      dice.empty() ? "no dodge" : dice::to_notation(dice), row);
      if (ImGui::Selectable(label.c_str(), ids == s.wizard.dodge_pick,
                            ImGuiSelectableFlags_SpanAllColumns)) {
        s.wizard.dodge_pick = ids;
      }
      ImGui::TableNextColumn();
      ImGui::TextUnformatted(percent(d.odds.p_hit()).c_str());
      ImGui::TableNextColumn();
      ImGui::Text("%.2f", d.odds.expected_clicks());
    }
    ImGui::EndTable();
  }
}

void stage_roll(UiContext& ctx) {
  Session& s = *ctx.session;
  const GameState st = s.state();  // a copy: an action below may replace the match state
  const PendingAttack& p = *st.attack;
  const FigureState& af = fig(st, p.attacker);
  const FigureState& tf = fig(st, p.target);
  step_bar(3);
  ImGui::TextWrapped("D  %s and %s roll at once.", af.def.name.c_str(), tf.def.name.c_str());
  auto& w = s.wizard;
  if (w.rolling && !w.rolling->settled) {
    // The animation: faces tumble until the roll settles.
    const auto frame = static_cast<unsigned>(ImGui::GetFrameCount());
    ImGui::TextUnformatted("Rolling\u2026");
    ui::record_last_item(ctx, "rolling", WidgetKind::Field, true);
    for (std::size_t i = 0; i < p.attack_dice.size(); ++i) {
      const dice::Die& die = af.dice[static_cast<std::size_t>(p.attack_dice[i])].die;
      ui::die_chip(die,
                   1 + static_cast<int>((frame / 3 + i * 7) % static_cast<unsigned>(die.sides)));
      ImGui::SameLine();
    }
    ImGui::NewLine();
    for (std::size_t i = 0; i < p.dodge_dice.size(); ++i) {
      const dice::Die& die = tf.dice[static_cast<std::size_t>(p.dodge_dice[i])].die;
      ui::die_chip(
          die, 1 + static_cast<int>((frame / 3 + i * 5 + 3) % static_cast<unsigned>(die.sides)));
      ImGui::SameLine();
    }
    ImGui::NewLine();
    return;
  }
  if (w.rolling && w.rolling->settled) {
    const auto [in, res] =
        preview_roll(st, w.rolling->attack_faces, w.rolling->dodge_faces, w.bonus_pick);
    draw_result(in, res);
    ImGui::TextUnformatted("The attacker picks the colour bonus:");
    for (const auto& [c, v] : bonus_options(in, res)) {
      ImGui::SameLine();
      if (ui::button(ctx, fmt::format("{}{} +{}", w.bonus_pick == c ? "\u2713 " : "",
                                      dice::colour_name(c), v)))
        w.bonus_pick = c;
    }
    if (ui::button(ctx, "Apply roll")) s.apply_settled_roll();
    return;
  }
  if (ui::button(ctx, "Roll", s.live())) s.start_virtual_roll();
  ImGui::SameLine();
  ImGui::TextDisabled("(space) virtual dice, or type what the real dice show:");
  w.attack_typed.resize(p.attack_dice.size());
  w.dodge_typed.resize(p.dodge_dice.size());
  std::vector<int> af_faces;
  std::vector<int> df_faces;
  bool complete = true;
  auto fields = [&](const std::vector<DieId>& ids, const FigureState& f,
                    std::vector<std::string>& typed, const char* who, std::vector<int>& faces) {
    for (std::size_t i = 0; i < ids.size(); ++i) {
      const dice::Die& die = f.dice[static_cast<std::size_t>(ids[i])].die;
      ImGui::PushID(static_cast<int>(i));
      ImGui::PushID(who);
      ui::die_chip(die);
      ImGui::SameLine();
      ImGui::SetNextItemWidth(70 * ctx.scale);
      ImGui::InputText("##face", &typed[i]);
      ui::record_last_item(ctx, fmt::format("{} die {}", who, i + 1), WidgetKind::Field, true);
      const auto face = parse_face(typed[i], die);
      ImGui::SameLine();
      if (typed[i].empty()) {
        ImGui::TextDisabled(die.ace ? "2..%d or ace" : "1..%d", die.sides);
        complete = false;
      } else if (!face) {
        ui::text_coloured(colours::kWarning, "not a face of this die");
        complete = false;
      } else {
        faces.push_back(*face);
        ImGui::TextUnformatted("\u2713");
      }
      ImGui::PopID();
      ImGui::PopID();
    }
  };
  fields(p.attack_dice, af, w.attack_typed, "attack", af_faces);
  fields(p.dodge_dice, tf, w.dodge_typed, "dodge", df_faces);
  if (complete) {
    const auto [in, res] = preview_roll(st, af_faces, df_faces, w.bonus_pick);
    const auto bonuses = bonus_options(in, res);
    if (bonuses.size() > 1) {
      ImGui::TextUnformatted("Colour bonus:");
      for (const auto& [c, v] : bonuses) {
        ImGui::SameLine();
        if (ui::button(ctx, fmt::format("{}{} +{}", w.bonus_pick == c ? "\u2713 " : "",
                                        dice::colour_name(c), v)))
          w.bonus_pick = c;
      }
    }
  }
  if (ui::button(ctx, "Use these results", s.live() && complete, "type every die's face"))
    s.apply_typed_roll();
}

void stage_after_roll(UiContext& ctx) {
  Session& s = *ctx.session;
  const GameState st = s.state();  // a copy: an action below may replace the match state
  const PendingAttack& p = *st.attack;
  const FigureState& af = fig(st, p.attacker);
  const FigureState& tf = fig(st, p.target);
  step_bar(9);
  if (p.stage == AttackStage::RemoveGear) {
    ui::text_coloured(ui::team_text_colour(tf.team),
                      fmt::format("L  Technical Superiority: {} gives up {} gear piece{} (its "
                                  "dice and shields go too).",
                                  tf.def.name, p.gear_to_remove, p.gear_to_remove == 1 ? "" : "s"));
    for (const auto& g : tf.gear) {
      if (g.removed) continue;
      if (ui::button(ctx, fmt::format("Give up {}", g.def.name), s.live())) s.remove_gear(g.def.id);
    }
  } else {
    const FigureState& who = p.attacker_assigns ? af : tf;
    ui::text_coloured(
        ui::team_text_colour(who.team),
        p.attacker_assigns
            ? fmt::format("M  Called Shot: {} (the attacker) chooses which of {}'s dials takes "
                          "all {} click{}.",
                          af.def.name, tf.def.name, p.result.clicks,
                          p.result.clicks == 1 ? "" : "s")
            : fmt::format("M  {} chooses the dial that takes all {} click{}.", tf.def.name,
                          p.result.clicks, p.result.clicks == 1 ? "" : "s"));
    ImGui::TextDisabled("Keys 1, 2, 3 pick Head, Weapon, Body.");
    if (ImGui::BeginTable("damage", 3, ImGuiTableFlags_SizingStretchSame)) {
      for (DialKind d : kAllDials) {
        ImGui::TableNextColumn();
        ImGui::PushID(static_cast<int>(d));
        if (ui::button(ctx,
                       std::string(d == DialKind::Head     ? "Head"
                                   : d == DialKind::Weapon ? "Weapon"
                                                           : "Body"),
                       s.live()))
          s.assign_damage(d);
        ui::dial(ctx, tf, d, p.result.clicks);
        ImGui::PopID();
      }
      ImGui::EndTable();
    }
  }
  ImGui::Separator();
  draw_result(p.input, p.result);
}

}  // namespace

CombatWizardPanel::CombatWizardPanel() : Panel("Combat", {0.42f, 0.34f, 0.28f, 0.66f}) {}

void CombatWizardPanel::draw_content(UiContext& ctx) {
  Session& s = *ctx.session;
  const GameState st = s.state();  // a copy: an action below may replace the match state
  if (!st.attack) {
    stage_declare(ctx);
    if (st.last_attack) {
      ImGui::Spacing();
      if (ImGui::CollapsingHeader("Last attack", ImGuiTreeNodeFlags_DefaultOpen)) {
        const auto& p = *st.last_attack;
        ImGui::TextDisabled("%s \u2192 %s", fig(st, p.attacker).def.name.c_str(),
                            fig(st, p.target).def.name.c_str());
        draw_result(p.input, p.result);
      }
    }
    return;
  }
  switch (st.attack->stage) {
    case AttackStage::Dodge:
      stage_dodge(ctx);
      break;
    case AttackStage::Roll:
      stage_roll(ctx);
      break;
    case AttackStage::RemoveGear:
    case AttackStage::Damage:
      stage_after_roll(ctx);
      break;
  }
}

}  // namespace duels::overlay
