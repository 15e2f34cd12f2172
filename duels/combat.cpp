#include "duels/combat.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>

#include "dice/notation.hpp"

namespace duels {

std::string_view ace_effect_name(AceEffect e) {
  switch (e) {
    case AceEffect::Stun:
      return "stun";
    case AceEffect::CalledShot:
      return "called_shot";
    case AceEffect::TechSuperiority:
      return "tech_superiority";
    case AceEffect::MajorMojo:
      return "major_mojo";
  }
  return "?";
}

std::optional<AceEffect> ace_effect_of(dice::Colour c) {
  switch (c) {
    case dice::Colour::Blue:
      return AceEffect::Stun;
    case dice::Colour::Green:
      return AceEffect::CalledShot;
    case dice::Colour::Black:
      return AceEffect::TechSuperiority;
    case dice::Colour::Red:
      return AceEffect::MajorMojo;
    default:
      return std::nullopt;
  }
}

bool AttackResult::has_effect(AceEffect e) const {
  return effect_count(e) > 0;
}

int AttackResult::effect_count(AceEffect e) const {
  return static_cast<int>(std::count(ace_effects.begin(), ace_effects.end(), e));
}

namespace {

// Largest bonus among colours that still do damage; ties go to the first colour in kAllColours
// order so the result is deterministic.
std::optional<dice::Colour> best_bonus(const std::map<dice::Colour, int>& options) {
  std::optional<dice::Colour> best;
  for (const auto& [colour, value] : options) {
    if (!best || value > options.at(*best)) best = colour;
  }
  return best;
}

}  // namespace

std::map<dice::Colour, int> bonus_options(const AttackInput& in, const AttackResult& r) {
  std::map<dice::Colour, int> out;
  if (!r.hit) return out;
  auto consider = [&](int index) {
    const dice::Colour c = in.attack[static_cast<std::size_t>(index)].die.colour;
    if (auto it = in.bonus.find(c); it != in.bonus.end() && it->second > 0) out[c] = it->second;
  };
  for (int i : r.damaging)
    consider(i);
  for (int i : r.aces)
    consider(i);
  return out;
}

AttackResult resolve_attack(const AttackInput& in) {
  AttackResult r;
  const int n = static_cast<int>(in.attack.size());
  // E. Bad Karma: a number shown by two or more non-ace attack dice removes all of them.
  for (int i = 0; i < n; ++i) {
    const dice::Roll& roll = in.attack[static_cast<std::size_t>(i)];
    if (roll.is_ace()) {
      r.aces.push_back(i);  // F. aces set aside, never Bad Karma
      continue;
    }
    bool twin = false;
    for (int j = 0; j < n && !twin; ++j) {
      const dice::Roll& other = in.attack[static_cast<std::size_t>(j)];
      twin = j != i && !other.is_ace() && other.face == roll.face;
    }
    (twin ? r.bad_karma : r.counted).push_back(i);
  }
  // G. Final values.
  r.attack_total = in.weapon;
  for (int i : r.counted)
    r.attack_total += in.attack[static_cast<std::size_t>(i)].value();
  r.defence_total = in.body;
  for (const dice::Roll& d : in.dodge)
    r.defence_total += d.value();
  r.no_dice_left = r.counted.empty() && r.aces.empty();
  // H. Compare: ties hit; no dice left is an automatic miss.
  r.hit = !r.no_dice_left && r.attack_total >= r.defence_total;
  if (!r.hit) return r;
  // I–J. Each shield blocks one counted die of its colour; aces are never blocked.
  std::array<int, dice::kColourCount> shields{};  // shields left, per colour
  for (const dice::Colour c : in.shields)
    ++shields[static_cast<std::size_t>(c)];
  for (int i : r.counted) {
    int& left =
        shields[static_cast<std::size_t>(in.attack[static_cast<std::size_t>(i)].die.colour)];
    if (left > 0) {
      --left;
      r.blocked.push_back(i);
    } else {
      r.damaging.push_back(i);
    }
  }
  // K. One click per damaging die plus one colour bonus.
  const auto options = bonus_options(in, r);
  if (in.bonus_choice && options.count(*in.bonus_choice) != 0) {
    r.bonus_colour = in.bonus_choice;
  } else {
    r.bonus_colour = best_bonus(options);
  }
  if (r.bonus_colour) r.bonus = options.at(*r.bonus_colour);
  r.clicks = static_cast<int>(r.damaging.size()) + r.bonus;
  // L. Each ace: one click and its colour's effect (Major Mojo: one more click).
  for (int i : r.aces) {
    ++r.clicks;
    if (auto effect = ace_effect_of(in.attack[static_cast<std::size_t>(i)].die.colour)) {
      r.ace_effects.push_back(*effect);
      if (*effect == AceEffect::MajorMojo) ++r.clicks;
    }
  }
  return r;
}

std::vector<std::string> describe_attack(const AttackInput& in, const AttackResult& r) {
  auto list = [&](const std::vector<int>& idx) {
    std::string s;
    for (int i : idx) {
      if (!s.empty()) s += ", ";
      s += dice::to_notation(in.attack[static_cast<std::size_t>(i)]);
    }
    return s.empty() ? std::string("none") : s;
  };
  std::vector<std::string> lines;
  lines.push_back(fmt::format("E. Bad Karma: {}", r.bad_karma.empty()
                                                      ? std::string("none")
                                                      : list(r.bad_karma) + " removed to the cup"));
  lines.push_back(fmt::format("F. Aces set aside: {}", list(r.aces)));
  int dodge_sum = 0;
  for (const auto& d : in.dodge)
    dodge_sum += d.value();
  lines.push_back(fmt::format("G. Attack {} = Weapon {} + {}; defence {} = Body {} + dodge {}",
                              r.attack_total, in.weapon, r.attack_total - in.weapon,
                              r.defence_total, in.body, dodge_sum));
  if (r.no_dice_left) {
    lines.emplace_back("H. Every attack die was lost to Bad Karma: the attack fails");
    return lines;
  }
  lines.push_back(fmt::format("H. {} ≥ {}? {}", r.attack_total, r.defence_total,
                              r.hit ? "yes — hit" : "no — miss (aces do nothing on a miss)"));
  if (!r.hit) return lines;
  lines.push_back(fmt::format("I–J. Shields block: {}", list(r.blocked)));
  lines.push_back(fmt::format(
      "K. Damage {} die click{}{}", r.damaging.size(), r.damaging.size() == 1 ? "" : "s",
      r.bonus_colour ? fmt::format(" + {} bonus {}", dice::colour_name(*r.bonus_colour), r.bonus)
                     : std::string()));
  std::string effects;
  for (AceEffect e : r.ace_effects)
    effects += (effects.empty() ? "" : ", ") + std::string(ace_effect_name(e));
  lines.push_back(fmt::format("L. Aces: {} click{}{}", r.aces.size(), r.aces.size() == 1 ? "" : "s",
                              effects.empty() ? std::string() : " and " + effects));
  lines.push_back(fmt::format("Total: {} click{}", r.clicks, r.clicks == 1 ? "" : "s"));
  return lines;
}

}  // namespace duels
