#include "duels/serialize.hpp"

#include <nlohmann/json.hpp>

#include "dice/distribution.hpp"
#include "dice/notation.hpp"
#include "duels/engine.hpp"
#include "duels/record.hpp"

namespace duels {

using nlohmann::json;

namespace {

json colours_json(const std::vector<dice::Colour>& colours) {
  json out = json::array();
  for (auto c : colours)
    out.push_back(dice::colour_name(c));
  return out;
}

json dial_json(const Dial& d) {
  json out = json::array();
  for (const auto& p : d.positions) {
    json j{{"value", p.value}, {"holes", p.bullet_holes}};
    if (p.shield) j["shield"] = dice::colour_name(*p.shield);
    out.push_back(j);
  }
  return out;
}

std::string_view zone_name(DieZone z) {
  switch (z) {
    case DieZone::Cup:
      return "cup";
    case DieZone::Base:
      return "base";
    case DieZone::Removed:
      return "removed";
  }
  return "?";
}

json rolls_json(const std::vector<dice::Roll>& rolls, const std::vector<int>& idx) {
  json out = json::array();
  for (int i : idx)
    out.push_back(dice::to_notation(rolls[static_cast<std::size_t>(i)]));
  return out;
}

}  // namespace

json to_json(const FigureDef& f) {
  json bonus = json::object();
  for (const auto& [c, v] : f.damage_bonus)
    bonus[std::string(dice::colour_name(c))] = v;
  json tape = json::array();
  for (const auto& t : f.tape.tracks) {
    tape.push_back({{"colour", dice::colour_name(t.colour)}, {"from", t.from_in}, {"to", t.to_in}});
  }
  return json{{"name", f.name},
              {"collector_number", f.collector_number},
              {"points", f.points},
              {"sample", f.sample},
              {"base", {{"diameter", f.base_diameter_in}, {"height", f.base_height_in}}},
              {"starting_dice", dice::to_notation(f.starting_dice)},
              {"damage_bonus", bonus},
              {"dials",
               {{"head", dial_json(f.dial(DialKind::Head))},
                {"weapon", dial_json(f.dial(DialKind::Weapon))},
                {"body", dial_json(f.dial(DialKind::Body))}}},
              {"tape", tape}};
}

json to_json(const GearDef& g) {
  return json{{"id", g.id},
              {"name", g.name},
              {"points", g.points},
              {"dice", dice::to_notation(g.dice)},
              {"shields", colours_json(g.shields)},
              {"sample", g.sample}};
}

json to_json(const Event& e) {
  json j{{"kind", e.kind}, {"text", e.text}};
  if (e.figure) j["figure"] = *e.figure;
  return j;
}

json to_json(const GameState& s) {
  json teams = json::array();
  for (std::size_t t = 0; t < s.teams.size(); ++t) {
    const auto& team = s.teams[t];
    teams.push_back({{"name", team.name},
                     {"lost", team.lost},
                     {"points", s.team_points(static_cast<TeamId>(t))},
                     {"terrain_placed", team.terrain_placed},
                     {"terrain_done", team.terrain_done}});
  }
  json figures = json::array();
  for (const auto& f : s.figures) {
    json dice = json::array();
    for (const auto& d : f.dice) {
      json dj{{"die", dice::to_notation(d.die)}, {"zone", zone_name(d.zone)}};
      if (!d.die.origin.empty()) dj["origin"] = d.die.origin;
      dice.push_back(dj);
    }
    json gear = json::array();
    for (const auto& g : f.gear)
      gear.push_back({{"id", g.def.id}, {"removed", g.removed}});
    json fj{{"name", f.def.name},
            {"team", f.team},
            {"dial", {{"head", f.dial[0]}, {"weapon", f.dial[1]}, {"body", f.dial[2]}}},
            {"values",
             {{"head", f.value(DialKind::Head)},
              {"weapon", f.value(DialKind::Weapon)},
              {"body", f.value(DialKind::Body)}}},
            {"bullet_holes", f.bullet_holes()},
            {"shields", colours_json(f.shields())},
            {"points", f.points()},
            {"eliminated", f.eliminated},
            {"chose_dice", f.chose_dice},
            {"turn_done", f.turn_done},
            {"moved", f.moved},
            {"attacks", f.attacks},
            {"dice", dice},
            {"gear", gear}};
    if (f.position) fj["position"] = {f.position->x, f.position->y};
    figures.push_back(fj);
  }
  json terrain = json::array();
  for (const auto& t : s.terrain) {
    json tj{{"id", t.id}, {"team", t.team}};
    if (t.shape) tj["shape"] = shape_to_json(*t.shape);
    terrain.push_back(tj);
  }
  json countdowns = json::array();
  for (const auto& c : s.countdowns) {
    countdowns.push_back(
        {{"team", c.team}, {"turns_left", c.turns_left}, {"counting", c.counting}});
  }
  json j{{"phase", phase_name(s.phase)},
         {"round", s.round},
         {"alpha", s.alpha},
         {"placing", s.placing},
         {"active_team", s.active_team},
         {"teams", teams},
         {"figures", figures},
         {"terrain", terrain},
         {"countdowns", countdowns},
         {"alpha_contenders", s.alpha_contenders},
         {"options",
          {{"wild_alone_attack_needs_range", s.options.wild_alone_attack_needs_range},
           {"enforce_placement_distance", s.options.enforce_placement_distance},
           {"placement_distance_in", s.options.placement_distance_in}}},
         {"prompt", prompt(s)}};
  j["table"] = {{"measured", s.table.measured},
                {"width", s.table.bounds.width_in},
                {"depth", s.table.bounds.depth_in}};
  if (s.active_figure) j["active_figure"] = *s.active_figure;
  if (s.winner) j["winner"] = *s.winner;
  if (s.attack) {
    const auto& p = *s.attack;
    j["attack"] = {{"attacker", p.attacker},
                   {"target", p.target},
                   {"gap_in", p.gap_in},
                   {"chord_in", p.chord_in},
                   {"manual", p.manual},
                   {"positions_gap_in", p.positions_gap_in},
                   {"attack_dice", p.attack_dice},
                   {"dodge_dice", p.dodge_dice},
                   {"stage", static_cast<int>(p.stage)},
                   {"clicks", p.result.clicks},
                   {"gear_to_remove", p.gear_to_remove},
                   {"attacker_assigns", p.attacker_assigns}};
  }
  return j;
}

json to_json(const OddsResult& o) {
  json clicks = json::array();
  json clicks_exact = json::array();
  for (std::size_t k = 0; k < o.clicks.size(); ++k) {
    clicks.push_back(o.p_clicks(k));
    clicks_exact.push_back(dice::fraction_string(o.clicks[k], o.total));
  }
  json effects = json::object();
  for (int e = 0; e < 4; ++e) {
    const auto effect = static_cast<AceEffect>(e);
    effects[std::string(ace_effect_name(effect))] = o.p_effect(effect);
  }
  return json{{"p_hit", o.p_hit()},
              {"p_hit_exact", dice::fraction_string(o.hit, o.total)},
              {"clicks", clicks},
              {"clicks_exact", clicks_exact},
              {"expected_clicks", o.expected_clicks()},
              {"ace_effects", effects},
              {"outcomes", o.total}};
}

json to_json(const AttackInput& in, const AttackResult& r) {
  json effects = json::array();
  for (AceEffect e : r.ace_effects)
    effects.push_back(ace_effect_name(e));
  std::vector<int> all(in.attack.size());
  for (std::size_t i = 0; i < all.size(); ++i)
    all[i] = static_cast<int>(i);
  json j{{"hit", r.hit},
         {"attack_total", r.attack_total},
         {"defence_total", r.defence_total},
         {"bad_karma", rolls_json(in.attack, r.bad_karma)},
         {"aces", rolls_json(in.attack, r.aces)},
         {"counted", rolls_json(in.attack, r.counted)},
         {"blocked", rolls_json(in.attack, r.blocked)},
         {"damaging", rolls_json(in.attack, r.damaging)},
         {"no_dice_left", r.no_dice_left},
         {"bonus", r.bonus},
         {"clicks", r.clicks},
         {"ace_effects", effects},
         {"steps", describe_attack(in, r)}};
  if (r.bonus_colour) j["bonus_colour"] = dice::colour_name(*r.bonus_colour);
  return j;
}

}  // namespace duels
