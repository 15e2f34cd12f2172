// `duels resolve`, `duels odds`, `duels advise`: one attack through the rules, exactly.
#include <fmt/format.h>

#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>

#include "app/cli_util.hpp"
#include "app/command.hpp"
#include "dice/distribution.hpp"
#include "dice/notation.hpp"
#include "duels/assets.hpp"
#include "duels/engine.hpp"
#include "duels/odds.hpp"
#include "duels/serialize.hpp"

namespace duels::app {
namespace {

using nlohmann::json;

// Options shared by the three commands.
struct AttackOpts {
  int weapon = 0;
  int body = 0;
  std::vector<std::string> attack;
  std::vector<std::string> dodge;
  std::vector<std::string> shields;
  std::vector<std::string> bonus;
  bool json = false;
  // Optional: the figures whose colour rules the dice must follow.
  std::string attacker;
  std::string target;
  std::optional<double> gap;
  std::optional<double> chord;
};

const FigureDef& figure_or_throw(const AssetLibrary& lib, const std::string& name,
                                 const char* flag) {
  const FigureDef* f = lib.find_figure(name);
  if (f == nullptr) {
    std::string known;
    for (const auto& [n, def] : lib.figures)
      known += (known.empty() ? "" : ", ") + n;
    throw DataException(
        {"<command line>", 0, flag, fmt::format("a known figure ({}), not '{}'", known, name)});
  }
  return *f;
}

// The chord is measured through the attacker's base, so it can't be longer than the base.
double chord_or_throw(const FigureDef& attacker, std::optional<double> chord) {
  if (!chord) return attacker.base_diameter_in;
  if (!(*chord > 0) || *chord > attacker.base_diameter_in + 1e-9) {
    throw DataException({"<command line>", 0, "--chord",
                         fmt::format("a chord through {}'s base: more than 0 and at most its "
                                     "diameter {:.2f}\" (not {})",
                                     attacker.name, attacker.base_diameter_in, *chord)});
  }
  return *chord;
}

// With --attacker / --target given, the dice must follow those figures' colour rules: attack
// dice need a track on the attacker's tape that reaches the gap, dodges are white or yellow
// (black or red joining). Without --gap the range is not checked (the gap is taken as 0).
void check_against_figures(const AttackOpts& o, const std::vector<dice::Die>& attack,
                           const std::vector<dice::Die>& dodge) {
  if (o.attacker.empty() && (o.gap || o.chord)) {
    throw UsageError("--gap and --chord check the attack dice's range: give --attacker too");
  }
  if (o.gap && (!(*o.gap >= 0) || *o.gap > 500)) {
    throw DataException({"<command line>", 0, "--gap",
                         fmt::format("an edge-to-edge gap from 0 to 500 inches, not {}", *o.gap)});
  }
  if (o.attacker.empty() && o.target.empty()) return;
  const AssetLibrary lib = load_library();
  if (!o.attacker.empty()) {
    FigureState a;
    a.def = figure_or_throw(lib, o.attacker, "--attacker");
    const double chord = chord_or_throw(a.def, o.chord);
    if (!attack.empty()) {
      if (auto r = check_roll_colours(a, attack, RollPurpose::Attack, o.gap.value_or(0), chord))
        throw IllegalAction(
            fmt::format("{} can't roll {}: {}", a.def.name, dice::to_notation(attack), r->reason));
    }
  }
  if (!o.target.empty()) {
    FigureState t;
    t.def = figure_or_throw(lib, o.target, "--target");
    if (!dodge.empty()) {
      if (auto r = check_roll_colours(t, dodge, RollPurpose::Dodge))
        throw IllegalAction(fmt::format("{} can't dodge with {}: {}", t.def.name,
                                        dice::to_notation(dodge), r->reason));
    }
  }
}

void add_common(CLI::App* cmd, AttackOpts& o, const char* attack_help, const char* dodge_help) {
  cmd->add_option("--weapon", o.weapon, "attacker's Weapon dial value")
      ->required()
      ->check(CLI::Range(kMinDialValue, kMaxDialValue));
  cmd->add_option("--body", o.body, "defender's Body dial value")
      ->required()
      ->check(CLI::Range(kMinDialValue, kMaxDialValue));
  cmd->add_option("--attack", o.attack, attack_help)->required()->expected(1, -1);
  cmd->add_option("--dodge", o.dodge, dodge_help)->expected(1, -1);
  cmd->add_option("--shield", o.shields,
                  "a defender's shield colour (gear or dial); repeat for several")
      ->expected(1, -1);
  cmd->add_option("--bonus", o.bonus, "attacker's damage bonus COLOUR:N; repeat for several")
      ->expected(1, -1);
  cmd->add_flag("--json", o.json, "print JSON");
  cmd->add_option("--attacker", o.attacker,
                  "attacking figure: its tape decides which attack dice are legal");
  cmd->add_option("--target", o.target, "defending figure: its dodge dice are checked");
  cmd->add_option("--gap", o.gap,
                  "with --attacker: edge-to-edge gap in inches (attack dice must reach it)");
  cmd->add_option("--chord", o.chord,
                  "with --attacker: its chord along the line of fire (default: base diameter)");
}

void add_resolve(CLI::App& root) {
  auto o = std::make_shared<AttackOpts>();
  std::shared_ptr<std::string> bonus_choice = std::make_shared<std::string>();
  auto* cmd = root.add_subcommand(
      "resolve", "Resolve one attack through steps E–L from rolled dice, printing every step");
  add_common(cmd, *o, "attack dice with results, e.g. yellow:d8=5 blue:d6:ace=ace",
             "dodge dice with results, e.g. white:d6=3");
  cmd->add_option("--bonus-choice", *bonus_choice,
                  "which colour's bonus the attacker takes (default: the largest)");
  cmd->callback([o, bonus_choice] {
    AttackInput in;
    in.weapon = o->weapon;
    in.body = o->body;
    in.attack = parse_roll_args(o->attack, "--attack");
    in.dodge = parse_roll_args(o->dodge, "--dodge");
    in.shields = parse_colour_args(o->shields, "--shield");
    in.bonus = parse_bonus_args(o->bonus, "--bonus");
    if (!bonus_choice->empty())
      in.bonus_choice = parse_colour_args({*bonus_choice}, "--bonus-choice").front();
    if (in.attack.empty())
      throw UsageError("--attack needs at least one die: you must roll to attack");
    {
      std::vector<dice::Die> attack, dodge;
      for (const auto& r : in.attack)
        attack.push_back(r.die);
      for (const auto& r : in.dodge)
        dodge.push_back(r.die);
      check_against_figures(*o, attack, dodge);
    }
    const AttackResult r = resolve_attack(in);
    if (in.bonus_choice && r.hit && r.bonus_colour != in.bonus_choice) {
      throw IllegalAction(fmt::format("no {} bonus applies: no damaging {} die carries a bonus",
                                      dice::colour_name(*in.bonus_choice),
                                      dice::colour_name(*in.bonus_choice)));
    }
    if (o->json) {
      std::cout << to_json(in, r).dump() << "\n";
      return;
    }
    for (const auto& line : describe_attack(in, r))
      std::cout << line << "\n";
  });
}

OddsQuery query_of(const AttackOpts& o) {
  OddsQuery q;
  q.weapon = o.weapon;
  q.body = o.body;
  q.attack = parse_pool_args(o.attack, "--attack");
  q.dodge = parse_pool_args(o.dodge, "--dodge");
  q.shields = parse_colour_args(o.shields, "--shield");
  q.bonus = parse_bonus_args(o.bonus, "--bonus");
  if (q.attack.size() > kMaxOddsAttackDice) {
    throw UsageError(fmt::format("at most {} attack dice (a base holds six)", kMaxOddsAttackDice));
  }
  if (q.dodge.size() > kMaxOddsDodgeDice) {
    throw UsageError(fmt::format("at most {} dodge dice", kMaxOddsDodgeDice));
  }
  check_against_figures(o, q.attack, q.dodge);
  return q;
}

void print_odds_text(const OddsResult& r) {
  std::cout << fmt::format("hit: {:.4f} ({} of {} outcomes)\n", r.p_hit(),
                           dice::fraction_string(r.hit, r.total), r.total);
  std::cout << fmt::format("expected clicks: {:.4f}\n", r.expected_clicks());
  for (std::size_t k = 0; k < r.clicks.size(); ++k) {
    if (r.clicks[k] == 0) continue;
    std::cout << fmt::format("  {:2} click{}: {:.4f}\n", k, k == 1 ? " " : "s", r.p_clicks(k));
  }
  for (int e = 0; e < 4; ++e) {
    const auto effect = static_cast<AceEffect>(e);
    if (r.p_effect(effect) > 0) {
      std::cout << fmt::format("  {}: {:.4f}\n", ace_effect_name(effect), r.p_effect(effect));
    }
  }
}

void add_odds(CLI::App& root) {
  auto o = std::make_shared<AttackOpts>();
  auto* cmd = root.add_subcommand(
      "odds", "Exact odds of one attack: hit chance, damage clicks, ace effects");
  add_common(cmd, *o, "attack dice, e.g. yellow:d8 blue:d6:ace", "dodge dice, e.g. white:d6");
  cmd->callback([o] {
    const OddsQuery q = query_of(*o);
    const OddsResult r = attack_odds(q);
    if (o->json) {
      std::cout << to_json(r).dump() << "\n";
    } else {
      print_odds_text(r);
    }
  });
}

// The legality filter for advisor subsets: the figure's colour rules at the measured range.
struct AdviseContext {
  FigureState attacker;
  FigureState defender;
  double gap_in = 0;
  double chord_in = 2;
};

bool attack_ok(const std::vector<dice::Die>& d, const void* ctx) {
  const auto* c = static_cast<const AdviseContext*>(ctx);
  return !check_roll_colours(c->attacker, d, RollPurpose::Attack, c->gap_in, c->chord_in);
}
bool dodge_ok(const std::vector<dice::Die>& d, const void* ctx) {
  const auto* c = static_cast<const AdviseContext*>(ctx);
  return !check_roll_colours(c->defender, d, RollPurpose::Dodge);
}

void add_advise(CLI::App& root) {
  struct Opts {
    std::string attacker;
    std::string target;
    std::vector<std::string> target_gear;
    std::vector<std::string> base;
    std::vector<std::string> dodge_base;
    double gap = 0;
    std::optional<double> chord;
    int top = 10;
    bool json = false;
  };
  auto o = std::make_shared<Opts>();
  auto* cmd = root.add_subcommand(
      "advise", "Rank every legal attack with the dice on the base, against the best dodge");
  cmd->add_option("--attacker", o->attacker, "attacking figure (name in the asset library)")
      ->required();
  cmd->add_option("--target", o->target, "target figure")->required();
  cmd->add_option("--target-gear", o->target_gear, "the target's gear ids (their shields count)")
      ->expected(1, -1);
  cmd->add_option("--base", o->base, "the attacker's dice on its base, e.g. yellow:d8 blue:d6")
      ->required()
      ->expected(1, -1);
  cmd->add_option("--dodge-base", o->dodge_base, "the target's dice on its base")->expected(1, -1);
  cmd->add_option("--gap", o->gap, "edge-to-edge gap in inches")
      ->required()
      ->check(CLI::Range(0.0, 500.0));
  cmd->add_option("--chord", o->chord,
                  "attacker's chord along the line of fire (default: its base diameter)");
  cmd->add_option("--top", o->top, "how many options to print")->check(CLI::Range(1, 1000));
  cmd->add_flag("--json", o->json, "print JSON");
  cmd->callback([o] {
    const AssetLibrary lib = load_library();
    const FigureDef* a = &figure_or_throw(lib, o->attacker, "--attacker");
    const FigureDef* t = &figure_or_throw(lib, o->target, "--target");
    auto ctx = std::make_unique<AdviseContext>();
    ctx->attacker.def = *a;
    ctx->defender.def = *t;
    int gear_points = 0;
    for (const auto& id : o->target_gear) {
      const GearDef* g = lib.find_gear(id);
      if (g == nullptr)
        throw DataException(
            {"<command line>", 0, "--target-gear", fmt::format("a known gear id, not '{}'", id)});
      for (const auto& carried : ctx->defender.gear) {
        if (carried.def.id == g->id) {
          throw DataException({"<command line>", 0, "--target-gear",
                               fmt::format("each gear once ({} carries '{}' twice)", t->name, id)});
        }
      }
      gear_points += g->points;
      ctx->defender.gear.push_back({*g, false});
    }
    // The same limits as a match's set-up (duels/engine.cpp new_game).
    if (gear_points > kMaxGearPoints) {
      throw DataException({"<command line>", 0, "--target-gear",
                           fmt::format("at most {} points of gear for {} (these are {})",
                                       kMaxGearPoints, t->name, gear_points)});
    }
    ctx->gap_in = o->gap;
    ctx->chord_in = chord_or_throw(*a, o->chord);
    OddsQuery base;
    base.weapon = ctx->attacker.value(DialKind::Weapon);
    base.body = ctx->defender.value(DialKind::Body);
    base.shields = ctx->defender.shields();
    base.bonus = a->damage_bonus;
    const auto offered = parse_pool_args(o->base, "--base");
    const auto dodge = parse_pool_args(o->dodge_base, "--dodge-base");
    if (offered.size() > 6 || dodge.size() > 6) throw UsageError("a base holds at most six dice");
    const auto advice = advise_attacks(base, offered, dodge, attack_ok, dodge_ok, ctx.get());
    if (o->json) {
      json out = json::array();
      for (const auto& adv : advice) {
        std::vector<dice::Die> ad, dd;
        for (int i : adv.attack.dice)
          ad.push_back(offered[static_cast<std::size_t>(i)]);
        for (int i : adv.best_dodge.dice)
          dd.push_back(dodge[static_cast<std::size_t>(i)]);
        out.push_back({{"attack", dice::to_notation(ad)},
                       {"best_dodge", dice::to_notation(dd)},
                       {"p_hit", adv.attack.odds.p_hit()},
                       {"expected_clicks", adv.attack.odds.expected_clicks()},
                       {"odds", to_json(adv.attack.odds)}});
      }
      std::cout << json{{"options", out}}.dump() << "\n";
      return;
    }
    if (advice.empty()) {
      std::cout << fmt::format("No legal attack: no die on the base can attack at {:.1f}\".\n",
                               o->gap);
      return;
    }
    std::cout << fmt::format("{} (Weapon {}) vs {} (Body {}) at {:.1f}\":\n", a->name, base.weapon,
                             t->name, base.body, o->gap);
    int shown = 0;
    for (const auto& adv : advice) {
      if (shown++ >= o->top) break;
      std::vector<dice::Die> ad, dd;
      for (int i : adv.attack.dice)
        ad.push_back(offered[static_cast<std::size_t>(i)]);
      for (int i : adv.best_dodge.dice)
        dd.push_back(dodge[static_cast<std::size_t>(i)]);
      std::cout << fmt::format("  {:>2}. {:<40} hit {:5.1f}%  clicks {:.2f}   best dodge: {}\n",
                               shown, dice::to_notation(ad), 100 * adv.attack.odds.p_hit(),
                               adv.attack.odds.expected_clicks(),
                               dd.empty() ? std::string("none") : dice::to_notation(dd));
    }
  });
}

DUELS_COMMAND(20, add_resolve);
DUELS_COMMAND(21, add_odds);
DUELS_COMMAND(22, add_advise);

}  // namespace
}  // namespace duels::app
