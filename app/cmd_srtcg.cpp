// `duels srtcg combat|fight|sleaze|deck|solo|tournament|roll|dmz|play` — the Shadowrun Trading
// Card Game helper on the command line: the combat, sleaze and deck calculators, solo play,
// tournaments, the DMZ variant, dice, and a journaled console session.
#include <fmt/format.h>

#include <charconv>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>

#include "app/card_console.hpp"
#include "app/command.hpp"
#include "cards/srtcg/combat.hpp"
#include "cards/srtcg/console.hpp"
#include "cards/srtcg/deck.hpp"
#include "cards/srtcg/dmz.hpp"
#include "cards/srtcg/json.hpp"
#include "cards/srtcg/sleaze.hpp"
#include "cards/srtcg/solo.hpp"
#include "cards/srtcg/tournament.hpp"
#include "common/error.hpp"
#include "dice/roller.hpp"
#include "match/duels_match.hpp"
#include "match/journal.hpp"
#include "match/srtcg_session.hpp"

namespace duels::app {
namespace {

using nlohmann::json;
namespace sr = duels::cards::srtcg;

[[noreturn]] void bad_spec(const sr::SpecError& e, const char* flag) {
  throw DataException({"<command line>", 0, flag, e.message()});
}

std::string percent(double p) {
  return fmt::format("{:.1f}%", 100 * p);
}

bool to_int(std::string_view s, int& out) {
  while (!s.empty() && s.front() == ' ')
    s.remove_prefix(1);
  while (!s.empty() && s.back() == ' ')
    s.remove_suffix(1);
  if (!s.empty() && s.front() == '+') s.remove_prefix(1);
  if (s.empty() || s.size() > 7) return false;
  const char* end = s.data() + s.size();
  auto [ptr, ec] = std::from_chars(s.data(), end, out);
  return ec == std::errc() && ptr == end;
}

/// "8,6,8" → numbers; a bad item is pointed at.
std::vector<int> int_list(const std::string& text, const char* flag) {
  std::vector<int> out;
  std::size_t start = 0;
  for (std::size_t i = 0; i <= text.size(); ++i) {
    if (i < text.size() && text[i] != ',') continue;
    int v = 0;
    const std::string item = text.substr(start, i - start);
    if (!to_int(item, v)) {
      throw DataException(
          {"<command line>", 0, flag,
           fmt::format("a comma-separated list of whole numbers ('{}' is not one)\n  {}\n  {}^",
                       item, text, std::string(start, ' '))});
    }
    out.push_back(v);
    start = i + 1;
  }
  return out;
}

std::vector<sr::RunnerCard> runner_list(const std::string& text, const char* flag) {
  auto cards = sr::parse_runner_list(text);
  if (!cards) bad_spec(cards.error(), flag);
  for (std::size_t i = 0; i < cards->size(); ++i) {
    auto& c = (*cards)[i];
    if (c.name.empty()) c.name = fmt::format("#{} {}", i + 1, sr::threat_text(c.threat, c.armor));
  }
  return *cards;
}

std::vector<sr::Combatant> combatants(const std::vector<sr::RunnerCard>& cards) {
  std::vector<sr::Combatant> out;
  for (const auto& c : cards)
    out.push_back(sr::combatant_from(c));
  return out;
}

json split_json(const std::vector<sr::Combatant>& team, const sr::Split& s) {
  json out = json::array();
  for (std::size_t i = 0; i < team.size(); ++i) {
    out.push_back({{"runner", team[i].name},
                   {"given", s.raw[i]},
                   {"takes", s.taken[i]},
                   {"body_left", std::max(0, sr::remaining_body(team[i]) - s.taken[i])},
                   {"dies", static_cast<bool>(s.dies[i])},
                   {"dies_end_of_turn", static_cast<bool>(s.dies_end_of_turn[i])}});
  }
  return out;
}

std::string split_text(const std::vector<sr::Combatant>& team, const sr::Split& s) {
  std::string out;
  for (std::size_t i = 0; i < team.size(); ++i) {
    if (!sr::can_be_hit(team[i]) && s.raw[i] == 0) continue;
    out += fmt::format("    {:<20} given {:>2} · takes {:>2} · Body left {:>2}{}{}\n", team[i].name,
                       s.raw[i], s.taken[i], std::max(0, sr::remaining_body(team[i]) - s.taken[i]),
                       s.dies[i] ? " · DIES" : "",
                       s.dies_end_of_turn[i] ? " · dies at end of turn (pump)" : "");
  }
  if (s.lost > 0)
    out += fmt::format("    ({} points cannot be given: every target is at its cap)\n", s.lost);
  return out;
}

void print(bool as_json, const json& j, const std::string& text) {
  if (as_json) {
    std::cout << j.dump() << "\n";
  } else {
    std::cout << text;
  }
}

// ---- combat -------------------------------------------------------------------------------

void add_combat(CLI::App& parent) {
  struct Opts {
    std::string runners;
    std::string challenge;
    bool piercing = false;
    std::string split;
    int budget = 1000;
    bool json = false;
  };
  auto o = std::make_shared<Opts>();
  auto* cmd = parent.add_subcommand(
      "combat",
      "Runners against a Challenge or Objective: team damage, defeated, the damage to "
      "assign and the split that keeps the most alive");
  cmd->add_option("--runners", o->runners,
                  "the team, comma-separated: \"6/4,3/3 A1\" (extras: dmg N, stamina, guard, "
                  "pump C +a/+b, pumped N, burst N, drone, spirit, controller, indirect, ap, "
                  "protect, cost N)")
      ->required();
  cmd->add_option("--challenge", o->challenge,
                  "the Challenge or Objective: \"5/8 A2\" (ap: its damage is armor-piercing; "
                  "pump C +a/+b with pumped N)")
      ->required();
  cmd->add_flag("--piercing", o->piercing, "the team's damage is armor-piercing");
  cmd->add_option("--split", o->split,
                  "check your own split: raw points per runner in order, e.g. 3,2");
  cmd->add_option("--budget", o->budget, "¥ available for pumps (for the cheapest pumps)");
  cmd->add_flag("--json", o->json, "print JSON");
  cmd->callback([o] {
    const auto cards = runner_list(o->runners, "--runners");
    {
      // At most six runners go on a run; drones, spirits and Indirect Fire from the safehouse
      // do not count.
      int on_run = 0;
      for (const auto& c : cards) {
        if (c.role == sr::Role::Runner || c.role == sr::Role::Controller) ++on_run;
      }
      if (on_run > 6) {
        throw DataException({"<command line>", 0, "--runners",
                             fmt::format("at most 6 runners on one run (drones, spirits and "
                                         "indirect fire do not count), not {}",
                                         on_run)});
      }
    }
    auto ch = sr::parse_challenge(o->challenge);
    if (!ch) bad_spec(ch.error(), "--challenge");
    auto opp = sr::opponent_from(*ch);
    if (!opp) {
      throw UsageError("the challenge has no Threat Rating: there is no combat (follow its text)");
    }
    const std::string label =
        opp->name.empty() ? sr::threat_text(ch->threat, ch->armor)
                          : fmt::format("{} {}", opp->name, sr::threat_text(ch->threat, ch->armor));
    const auto team = combatants(cards);
    const sr::CombatResult r = sr::resolve_combat(team, *opp, o->piercing);
    json j = {{"team_damage", r.attack.total},
              {"dealt", r.attack.dealt},
              {"defeated", r.attack.defeated},
              {"body", opp->body},
              {"shortfall", r.attack.shortfall},
              {"damage_to_assign", r.incoming},
              {"armor_piercing", r.incoming_armor_piercing},
              {"suggested_split", split_json(team, r.suggested)},
              {"lost", r.suggested.lost},
              {"burst_chance", r.burst_chance},
              {"warnings", r.warnings}};
    std::string text;
    std::vector<std::string> dealt;
    for (std::size_t i = 0; i < team.size(); ++i)
      dealt.push_back(fmt::format("{} {}", team[i].name, r.attack.dealt[i]));
    text +=
        fmt::format("Against {}: team damage {} ({}) vs Body {} → {}\n", label, r.attack.total,
                    fmt::join(dealt, ", "), opp->body,
                    r.attack.defeated ? "DEFEATED"
                                      : fmt::format("not defeated ({} short)", r.attack.shortfall));
    text += fmt::format("It deals {} to the team{} — suggested split:\n", r.incoming,
                        r.incoming_armor_piercing ? " (armor-piercing)" : ", armor per runner");
    text += split_text(team, r.suggested);
    {
      // Both readings of "the Attack Value of each attacking card", when they differ.
      int taken = 0;
      for (const int t : r.suggested.taken)
        taken += t;
      j["taken"] = taken;
      j["taken_if_armor_once"] = r.taken_if_armor_once;
      if (taken != r.taken_if_armor_once && !r.incoming_armor_piercing) {
        text += fmt::format(
            "  Armor read per share (this program): the team takes {} in all; read once against "
            "{}'s Attack ({} less one card's armor) it would take {}\n",
            taken, opp->name.empty() ? "the Challenge" : opp->name, r.incoming,
            r.taken_if_armor_once);
      }
    }
    if (!o->split.empty()) {
      const auto raw = int_list(o->split, "--split");
      auto checked = sr::check_split(team, r.incoming, r.incoming_armor_piercing, raw);
      if (!checked) throw IllegalAction("--split: " + checked.error());
      j["split"] = split_json(team, *checked);
      text += "Your split:\n" + split_text(team, *checked);
    }
    if (!r.attack.defeated) {
      std::vector<std::string> burst;
      for (std::size_t i = 0; i < team.size(); ++i) {
        if (team[i].role != sr::Role::Controller) {
          burst.push_back(fmt::format("{} {}", team[i].name, percent(r.burst_chance[i])));
        }
      }
      text += fmt::format("One Burst Fire D6 would beat it: {}\n", fmt::join(burst, ", "));
      std::vector<sr::Pump> pumps;
      bool any = false;
      for (const auto& c : cards) {
        pumps.push_back(c.pump);
        any = any || c.pump.cost > 0;
      }
      if (any) {
        const sr::PumpPlan plan = sr::min_pump_plan(team, pumps, *opp, o->piercing, o->budget);
        json pj = {{"possible", plan.possible},
                   {"cost", plan.cost},
                   {"times", plan.times},
                   {"warnings", plan.warnings}};
        j["pump_plan"] = pj;
        if (plan.possible) {
          std::vector<std::string> parts;
          for (std::size_t i = 0; i < team.size(); ++i) {
            if (plan.times[i] > 0)
              parts.push_back(fmt::format("{} ×{}", team[i].name, plan.times[i]));
          }
          text += fmt::format("Cheapest pumps that beat it: {}¥ ({})\n", plan.cost,
                              fmt::join(parts, ", "));
        } else {
          text += fmt::format("No pumps within {}¥ beat it\n", o->budget);
        }
        for (const auto& w : plan.warnings)
          text += "  ! " + w + "\n";
      }
    }
    for (const auto& w : r.warnings)
      text += "  ! " + w + "\n";
    print(o->json, j, text);
  });
}

// ---- fight (runner against runner) ---------------------------------------------------------

void add_fight(CLI::App& parent) {
  struct Opts {
    std::string attackers;
    std::string defenders;
    std::string pick;
    std::string extras;
    bool json = false;
  };
  auto o = std::make_shared<Opts>();
  auto* cmd = parent.add_subcommand(
      "fight", "Runner against runner (an attack or an interception): pairings and who falls");
  cmd->add_option("--attackers", o->attackers, "the attacking runners, e.g. \"5/5,3/3 A1\"")
      ->required();
  cmd->add_option("--defenders", o->defenders, "the defending runners")->required();
  cmd->add_option("--pick", o->pick,
                  "the attacker's pick: for each attacker, the defender it fights (1-based, e.g. "
                  "1,2,3; default in order)");
  cmd->add_option("--extras", o->extras,
                  "the larger defending side's extras: for each defender not picked, the fight "
                  "it joins (1-based)");
  cmd->add_flag("--json", o->json, "print JSON");
  cmd->callback([o] {
    const auto a_cards = runner_list(o->attackers, "--attackers");
    const auto b_cards = runner_list(o->defenders, "--defenders");
    const int na = static_cast<int>(a_cards.size());
    const int nd = static_cast<int>(b_cards.size());
    std::vector<int> pick;
    if (o->pick.empty()) {
      for (int k = 0; k < na; ++k)
        pick.push_back(na >= nd ? k % nd : k);
    } else {
      for (int v : int_list(o->pick, "--pick"))
        pick.push_back(v - 1);
    }
    std::vector<int> extras;
    if (!o->extras.empty()) {
      for (int v : int_list(o->extras, "--extras"))
        extras.push_back(v - 1);
    } else if (na < nd) {
      for (int k = 0; k < nd - na; ++k)
        extras.push_back(k % na);
    }
    auto bouts = sr::pair_up(na, nd, pick, extras);
    if (!bouts) throw IllegalAction(bouts.error());
    const auto a = combatants(a_cards);
    const auto b = combatants(b_cards);
    auto r = sr::resolve_fights(a, b, *bouts);
    if (!r) throw IllegalAction(r.error());
    json fights = json::array();
    std::string text;
    for (std::size_t k = 0; k < bouts->size(); ++k) {
      std::vector<std::string> an;
      std::vector<std::string> dn;
      for (int i : (*bouts)[k].attackers)
        an.push_back(a[static_cast<std::size_t>(i)].name);
      for (int i : (*bouts)[k].defenders)
        dn.push_back(b[static_cast<std::size_t>(i)].name);
      fights.push_back({{"attackers", an}, {"defenders", dn}});
      text += fmt::format("Fight {}: {} against {}\n", k + 1, fmt::join(an, " + "),
                          fmt::join(dn, " + "));
    }
    const auto side = [](const std::vector<sr::Combatant>& s, const std::vector<int>& taken,
                         const std::vector<bool>& dead, std::string& out) {
      json arr = json::array();
      for (std::size_t i = 0; i < s.size(); ++i) {
        arr.push_back(
            {{"runner", s[i].name}, {"takes", taken[i]}, {"dies", static_cast<bool>(dead[i])}});
        out +=
            fmt::format("  {:<20} takes {:>2}{}\n", s[i].name, taken[i], dead[i] ? " · DIES" : "");
      }
      return arr;
    };
    text += "Attackers:\n";
    json ja = side(a, r->taken_a, r->dead_a, text);
    text += "Defenders:\n";
    json jd = side(b, r->taken_b, r->dead_b, text);
    print(o->json, {{"fights", fights}, {"attackers", ja}, {"defenders", jd}}, text);
  });
}

// ---- sleaze -------------------------------------------------------------------------------

void add_sleaze(CLI::App& parent) {
  struct Opts {
    std::vector<std::string> team;
    std::vector<std::string> requires_;
    bool json = false;
  };
  auto o = std::make_shared<Opts>();
  auto* cmd = parent.add_subcommand(
      "sleaze", "The team's summed skills against a Challenge's sleaze requirement");
  cmd->add_option("--team", o->team,
                  "one runner's skills per argument: \"Piloting:1\" \"Piloting:2, Stealth\" "
                  "(anti-social counts)")
      ->required();
  cmd->add_option("--requires", o->requires_, "the requirement: Piloting:3 (repeat for several)")
      ->required();
  cmd->add_flag("--json", o->json, "print JSON");
  cmd->callback([o] {
    std::vector<sr::RunnerCard> team;
    for (std::size_t i = 0; i < o->team.size(); ++i) {
      auto r = sr::parse_skills(o->team[i]);
      if (!r) bad_spec(r.error(), "--team");
      if (r->name.empty()) r->name = fmt::format("runner {}", i + 1);
      team.push_back(*r);
    }
    sr::Ratings need;
    for (const auto& text : o->requires_) {
      auto req = sr::parse_requirement(text);
      if (!req) bad_spec(req.error(), "--requires");
      for (const auto& [skill, n] : *req)
        need[skill] = std::max(need[skill], n);
    }
    const sr::SleazeCheck check = sr::sleaze_team(team, need);
    json lines = json::array();
    std::string text;
    for (const sr::SleazeLine& l : check.lines) {
      lines.push_back({{"skill", l.skill},
                       {"need", l.need},
                       {"have", l.have},
                       {"met", l.met},
                       {"anti_social", l.anti_social}});
      text += fmt::format(
          "  {:<12} team {} / needs {} → {}\n", l.skill, l.have, l.need,
          l.anti_social ? "fails (Anti-social on the team)" : (l.met ? "met" : "short"));
    }
    if (!check.anti_social.empty()) {
      text += fmt::format("  Anti-social on the team: {}\n", fmt::join(check.anti_social, ", "));
    }
    text += check.met ? "SLEAZED: the Challenge is trashed; continue or pull out\n"
                      : "Not sleazed: the alarm is on for the rest of the run, face it\n";
    print(o->json,
          {{"sleazed", check.met},
           {"can_sleaze", check.can_sleaze},
           {"requirements", lines},
           {"anti_social", check.anti_social}},
          text);
  });
}

// ---- deck ---------------------------------------------------------------------------------

void add_deck(CLI::App& parent) {
  auto* deck = parent.add_subcommand("deck", "Deck building: the validator and composition advice");
  deck->require_subcommand(1);
  struct Opts {
    std::string file;
    bool json = false;
  };
  auto o = std::make_shared<Opts>();
  auto* cmd = deck->add_subcommand(
      "check", "60+ cards, 6+ Objectives reaching the goal, 4 copies, Unique; advice");
  cmd->add_option("file", o->file, "the deck (YAML, schema_version 1)")->required();
  cmd->add_flag("--json", o->json, "print JSON");
  cmd->callback([o] {
    const sr::Deck d = sr::load_deck(o->file);
    const sr::DeckReport r = sr::check_deck(d);
    json problems = json::array();
    std::string text =
        fmt::format("{}: {} cards + {} Objectives worth {} Reputation (goal {}) → {}\n", o->file,
                    r.cards, r.objectives, r.rep_total, r.goal, r.legal ? "LEGAL" : "NOT LEGAL");
    for (const DataError& e : r.problems) {
      problems.push_back({{"line", e.line}, {"field", e.field}, {"expected", e.expected}});
      text += "  ✗ " + e.message() + "\n";
    }
    std::vector<std::string> types;
    for (const auto& [t, n] : r.by_type)
      types.push_back(fmt::format("{} {}", n, t));
    text += fmt::format("  {}\n", fmt::join(types, ", "));
    for (const auto& a : r.advice)
      text += "  advice: " + a + "\n";
    text += fmt::format("  P(no Challenge in the opening 7) = {:.4f} (the Bad Shuffle risk)\n",
                        r.p_no_challenge_opening);
    print(o->json,
          {{"legal", r.legal},
           {"cards", r.cards},
           {"objectives", r.objectives},
           {"rep_total", r.rep_total},
           {"goal", r.goal},
           {"by_type", r.by_type},
           {"problems", problems},
           {"advice", r.advice},
           {"p_no_challenge_opening", r.p_no_challenge_opening}},
          text);
    if (!r.legal) throw IllegalAction("the deck is not legal");
  });
}

// ---- solo ---------------------------------------------------------------------------------

void add_solo(CLI::App& parent) {
  auto* solo = parent.add_subcommand("solo",
                                     "Solo play: budget, even damage, pump table, "
                                     "Maglocks, re-equip");
  solo->require_subcommand(1);
  {
    struct Opts {
      std::string costs;
      int budget = sr::kSoloBudget;
      bool json = false;
    };
    auto o = std::make_shared<Opts>();
    auto* cmd = solo->add_subcommand("budget", "The team bought from the 20 cards against 40¥");
    cmd->add_option("--costs", o->costs, "deploy costs of the Runners, Gear and Locations: 8,6,8")
        ->required();
    cmd->add_option("--budget", o->budget, "the budget (default 40)");
    cmd->add_flag("--json", o->json, "print JSON");
    cmd->callback([o] {
      const sr::BudgetCheck b = sr::solo_budget(int_list(o->costs, "--costs"), o->budget);
      print(o->json, {{"total", b.total}, {"budget", b.budget}, {"left", b.left}, {"ok", b.ok}},
            fmt::format("{}¥ of {}¥ → {}\n", b.total, b.budget,
                        b.ok ? fmt::format("{}¥ left for gear", b.left)
                             : fmt::format("{}¥ OVER", -b.left)));
    });
  }
  {
    struct Opts {
      std::string targets;
      int damage = 0;
      std::string rolls;
      std::optional<std::uint64_t> seed;
      bool json = false;
    };
    auto o = std::make_shared<Opts>();
    auto* cmd = solo->add_subcommand(
        "split", "The even damage split, the remainder to distinct random targets");
    cmd->add_option("--targets", o->targets,
                    "runners, drones and spirits: \"A: 3/4,B: 2/4 A1,Crawler: 2/3\" (dmg N counts)")
        ->required();
    cmd->add_option("--damage", o->damage, "the Challenge's damage")
        ->required()
        ->check(CLI::Range(0, 999));
    cmd->add_option("--rolls", o->rolls,
                    "your D6 rolls in order (rerolls included), e.g. 6,2,5,4,1");
    cmd->add_option("--seed", o->seed, "roll with this seed instead (printed)");
    cmd->add_flag("--json", o->json, "print JSON");
    cmd->callback([o] {
      const auto cards = runner_list(o->targets, "--targets");
      std::vector<sr::EvenTarget> targets;
      for (const auto& c : cards) {
        const sr::Combatant k = sr::combatant_from(c);
        targets.push_back(sr::EvenTarget{c.name, k.armor, sr::remaining_body(k)});
      }
      std::vector<int> rolls;
      std::uint64_t seed = 0;
      if (!o->rolls.empty()) {
        rolls = int_list(o->rolls, "--rolls");
      } else {
        seed = o->seed.value_or(dice::fresh_seed());
        dice::Rng rng(seed);
        const int sides = std::max(6, static_cast<int>(targets.size()));
        for (int k = 0; k < 200; ++k)
          rolls.push_back(rng.uniform(sides));
      }
      auto s = sr::even_split(targets, o->damage, rolls);
      if (!s) throw UsageError(s.error());
      json rows = json::array();
      std::string text =
          fmt::format("{} damage over {} targets: {} even pass{}, {} left over{}\n", o->damage,
                      targets.size(), s->passes, s->passes == 1 ? "" : "es", s->remainder,
                      o->rolls.empty() ? fmt::format(" (seed {})", seed) : "");
      for (std::size_t i = 0; i < targets.size(); ++i) {
        rows.push_back({{"target", targets[i].name},
                        {"given", s->raw[i]},
                        {"takes", s->taken[i]},
                        {"dies", static_cast<bool>(s->dead[i])}});
        text += fmt::format("  {:<16} given {:>2} · takes {:>2}{}\n", targets[i].name, s->raw[i],
                            s->taken[i], s->dead[i] ? " · DIES" : "");
      }
      std::vector<std::string> picks;
      for (int p : s->picks)
        picks.push_back(targets[static_cast<std::size_t>(p)].name);
      if (!picks.empty()) {
        text += fmt::format("  remainder to: {} (rolls {})\n", fmt::join(picks, ", "),
                            fmt::join(s->rolls_used, ","));
      }
      if (s->lost > 0) text += fmt::format("  {} points lost: every target is down\n", s->lost);
      json j = {{"targets", rows}, {"passes", s->passes},         {"remainder", s->remainder},
                {"picks", picks},  {"rolls_used", s->rolls_used}, {"lost", s->lost}};
      if (o->rolls.empty()) j["seed"] = seed;
      print(o->json, j, text);
    });
  }
  {
    struct Opts {
      std::optional<int> roll;
      std::optional<std::uint64_t> seed;
      bool json = false;
    };
    auto o = std::make_shared<Opts>();
    auto* cmd =
        solo->add_subcommand("pump", "The solo pump table: D6 1-2 twice, 3-4 once, 5-6 none");
    cmd->add_option("--roll", o->roll, "your D6")->check(CLI::Range(1, 6));
    cmd->add_option("--seed", o->seed, "roll with this seed (printed)");
    cmd->add_flag("--json", o->json, "print JSON");
    cmd->callback([o] {
      const std::uint64_t seed = o->seed.value_or(dice::fresh_seed());
      const int roll = o->roll ? *o->roll : dice::Rng(seed).uniform(6);
      const int n = sr::solo_pumps(roll);
      json j = {{"roll", roll}, {"pumps", n}};
      if (!o->roll) j["seed"] = seed;
      print(o->json, j,
            fmt::format("D6 = {} → pumped {}{}\n", roll,
                        n == 2   ? "twice"
                        : n == 1 ? "once"
                                 : "not at all",
                        o->roll ? "" : fmt::format(" (seed {})", seed)));
    });
  }
  {
    struct Opts {
      int technical = 0;
      bool json = false;
    };
    auto o = std::make_shared<Opts>();
    auto* cmd = solo->add_subcommand("maglocks", "Guesses at the hidden D6: Technical runners + 1");
    cmd->add_option("--technical", o->technical, "Technical runners on the team")
        ->required()
        ->check(CLI::Range(0, 6));
    cmd->add_flag("--json", o->json, "print JSON");
    cmd->callback([o] {
      const int g = sr::maglock_guesses(o->technical);
      const double p = sr::maglock_chance(o->technical);
      print(o->json, {{"guesses", g}, {"chance", p}},
            fmt::format("{} guess{} at the hidden D6 → {} to get through (else the game is lost)\n",
                        g, g == 1 ? "" : "es", percent(p)));
    });
  }
  {
    struct Opts {
      int in_play = 0;
      int card = 0;
      int budget = sr::kSoloBudget;
      bool json = false;
    };
    auto o = std::make_shared<Opts>();
    auto* cmd = solo->add_subcommand("reequip", "May a card enter play between runs (≤ 40¥)?");
    // Nuyen a table can hold: bounded so a sum never overflows into a negative price.
    cmd->add_option("--in-play", o->in_play, "¥ of everything in play")
        ->required()
        ->check(CLI::Range(0, 1000000));
    cmd->add_option("--card", o->card, "the new card's cost")
        ->required()
        ->check(CLI::Range(0, 1000000));
    cmd->add_option("--budget", o->budget, "the budget (default 40)")
        ->check(CLI::Range(0, 1000000));
    cmd->add_flag("--json", o->json, "print JSON");
    cmd->callback([o] {
      const sr::ReequipCheck r = sr::solo_reequip(o->in_play, o->card, o->budget);
      print(o->json,
            {{"fits", r.fits}, {"must_trash", r.must_trash}, {"total", r.in_play + r.card}},
            r.fits ? fmt::format("{} + {} = {}¥ ≤ {}¥: it enters play\n", r.in_play, r.card,
                                 r.in_play + r.card, r.budget)
                   : fmt::format("{} + {} = {}¥ > {}¥: trash at least {}¥ of cards in play, or "
                                 "keep it in hand\n",
                                 r.in_play, r.card, r.in_play + r.card, r.budget, r.must_trash));
    });
  }
  {
    struct Opts {
      int cost = 2;
      int credstick = sr::kSoloCredstick;
      bool json = false;
    };
    auto o = std::make_shared<Opts>();
    auto* cmd = solo->add_subcommand("uses", "How many paid uses the 6¥ credstick allows per run");
    cmd->add_option("--cost", o->cost, "¥ per use (a Recon at 2¥)")
        ->required()
        ->check(CLI::Range(1, 100));
    cmd->add_option("--credstick", o->credstick, "the credstick (default 6)");
    cmd->add_flag("--json", o->json, "print JSON");
    cmd->callback([o] {
      const int n = sr::activations(o->credstick, o->cost);
      print(o->json, {{"uses", n}},
            fmt::format("{} use{} at {}¥ from {}¥ before the refill\n", n, n == 1 ? "" : "s",
                        o->cost, o->credstick));
    });
  }
}

// ---- tournament -----------------------------------------------------------------------------

void add_tournament(CLI::App& parent) {
  auto* t = parent.add_subcommand("tournament", "Brawl in the Sprawl, The Duel, Showdown");
  t->require_subcommand(1);
  {
    struct Opts {
      std::vector<std::string> players;
      std::vector<std::string> played;
      std::vector<std::string> had_bye;
      bool avoid = false;
      bool json = false;
    };
    auto o = std::make_shared<Opts>();
    auto* cmd = t->add_subcommand("pair", "Showdown (Swiss) pairing: top two, bottom two, inward");
    cmd->add_option("--player", o->players,
                    "NAME:SCORE[:NUYEN[:D6,D6…]] (nuyen count and roll-off break ties; repeat)")
        ->required();
    cmd->add_option("--played", o->played, "NAME-NAME: they have met (repeat)");
    cmd->add_option("--had-bye", o->had_bye, "NAME: had a bye already (repeat)");
    cmd->add_flag("--avoid-rematches", o->avoid, "avoid pairing players who have met");
    cmd->add_flag("--json", o->json, "print JSON");
    cmd->callback([o] {
      std::vector<sr::Entrant> field;
      for (const auto& spec : o->players) {
        std::vector<std::string> f;
        std::size_t start = 0;
        for (std::size_t i = 0; i <= spec.size(); ++i) {
          if (i == spec.size() || spec[i] == ':') {
            f.push_back(spec.substr(start, i - start));
            start = i + 1;
          }
        }
        sr::Entrant e;
        int score = 0;
        if (f.size() < 2 || f[0].empty() || !to_int(f[1], score)) {
          throw DataException({"<command line>", 0, "--player",
                               fmt::format("NAME:SCORE[:NUYEN[:D6,D6…]] (not '{}')", spec)});
        }
        e.name = f[0];
        e.score = score;
        if (f.size() > 2 && !to_int(f[2], e.nuyen)) {
          throw DataException({"<command line>", 0, "--player",
                               fmt::format("a nuyen count after the score (in '{}')", spec)});
        }
        if (f.size() > 3) e.rolloff = int_list(f[3], "--player");
        for (const auto& other : field) {
          if (other.name == e.name) {
            throw DataException(
                {"<command line>", 0, "--player",
                 fmt::format("each player once (the name '{}' is given twice: a player is "
                             "paired once a round)",
                             e.name)});
          }
        }
        field.push_back(e);
      }
      const auto find = [&](const std::string& name) -> sr::Entrant& {
        for (auto& e : field) {
          if (e.name == name) return e;
        }
        throw DataException(
            {"<command line>", 0, "--played", fmt::format("a player name (not '{}')", name)});
      };
      for (const auto& pair : o->played) {
        const auto dash = pair.find('-');
        if (dash == std::string::npos) throw UsageError("--played NAME-NAME");
        sr::Entrant& a = find(pair.substr(0, dash));
        sr::Entrant& b = find(pair.substr(dash + 1));
        if (&a == &b) {
          throw DataException({"<command line>", 0, "--played",
                               fmt::format("two different players (not '{}')", pair)});
        }
        a.played.push_back(b.name);
        b.played.push_back(a.name);
      }
      for (const auto& n : o->had_bye)
        find(n).had_bye = true;
      const sr::Standings st = sr::standings(field);
      const sr::Pairing p = sr::showdown_pairing(field, o->avoid);
      std::string text = "Standings:\n";
      json standing = json::array();
      for (std::size_t k = 0; k < st.order.size(); ++k) {
        const auto& e = field[static_cast<std::size_t>(st.order[k])];
        standing.push_back(
            {{"place", k + 1}, {"name", e.name}, {"score", e.score}, {"nuyen", e.nuyen}});
        text += fmt::format("  {:>2}. {:<12} {:>5} pts  {:>4}¥\n", k + 1, e.name, e.score, e.nuyen);
      }
      json pairs = json::array();
      text += "Pairs (book order: top, bottom, inward):\n";
      for (const auto& [a, b] : p.pairs) {
        const auto& ea = field[static_cast<std::size_t>(a)];
        const auto& eb = field[static_cast<std::size_t>(b)];
        pairs.push_back({ea.name, eb.name});
        text += fmt::format("  {} ({}) – {} ({})\n", ea.name, ea.score, eb.name, eb.score);
      }
      json j = {{"standings", standing}, {"pairs", pairs}};
      if (p.bye >= 0) {
        j["bye"] = field[static_cast<std::size_t>(p.bye)].name;
        text += fmt::format("Bye: {}\n", field[static_cast<std::size_t>(p.bye)].name);
      }
      json unresolved = json::array();
      for (const auto& g : p.unresolved) {
        std::vector<std::string> names;
        for (int i : g)
          names.push_back(field[static_cast<std::size_t>(i)].name);
        unresolved.push_back(names);
        text += fmt::format("Still tied (roll a D6 each, high wins, reroll ties): {}\n",
                            fmt::join(names, ", "));
      }
      j["unresolved_ties"] = unresolved;
      print(o->json, j, text);
    });
  }
  {
    struct Opts {
      int rep = 0;
      int runners = 0;
      int nuyen = 0;
      bool exact = false;
      bool json = false;
    };
    auto o = std::make_shared<Opts>();
    auto* cmd = t->add_subcommand("score", "The Duel's round score: Rep + runners/5 + nuyen/10");
    // Bounded so the sum never overflows (it printed -1503238556): Reputation may be negative.
    cmd->add_option("--rep", o->rep, "Reputation")
        ->required()
        ->check(CLI::Range(-1000000, 1000000));
    cmd->add_option("--runners", o->runners, "Σ cost of the surviving runners (¥)")
        ->required()
        ->check(CLI::Range(0, 1000000));
    cmd->add_option("--nuyen", o->nuyen, "unspent nuyen")
        ->required()
        ->check(CLI::Range(0, 1000000));
    cmd->add_flag("--exact", o->exact, "keep decimals (default: each conversion floored)");
    cmd->add_flag("--json", o->json, "print JSON");
    cmd->callback([o] {
      const sr::DuelScore s = sr::duel_score(o->rep, o->runners, o->nuyen);
      print(o->json,
            {{"score", o->exact ? json(s.exact) : json(s.floored)},
             {"exact", s.exact},
             {"floored", s.floored}},
            fmt::format("{} + {}/5 + {}/10 = {}{}\n", o->rep, o->runners, o->nuyen,
                        o->exact ? fmt::format("{:.1f}", s.exact) : std::to_string(s.floored),
                        o->exact ? "" : fmt::format(" (floored per term; exact {:.1f})", s.exact)));
    });
  }
  {
    struct Opts {
      int nuyen = 0;
      std::vector<std::string> runners;
      bool json = false;
    };
    auto o = std::make_shared<Opts>();
    auto* cmd =
        t->add_subcommand("tiebreak", "Nuyen counting: unspent + runners' cost + trait ratings");
    cmd->add_option("--nuyen", o->nuyen, "unspent nuyen")
        ->required()
        ->check(CLI::Range(0, 1000000));
    cmd->add_option("--runner", o->runners,
                    "a surviving runner: \"A: 3/3; Fame 2; cost 5\" (repeat)");
    cmd->add_flag("--json", o->json, "print JSON");
    cmd->callback([o] {
      std::vector<sr::RunnerCard> cards;
      for (const auto& r : o->runners) {
        auto c = sr::parse_runner(r);
        if (!c) bad_spec(c.error(), "--runner");
        cards.push_back(*c);
      }
      const int n = sr::nuyen_count(o->nuyen, cards);
      print(o->json, {{"nuyen_count", n}}, fmt::format("Nuyen count: {}\n", n));
    });
  }
  {
    struct Opts {
      int entrants = 0;
      int cut = 0;
      bool json = false;
    };
    auto o = std::make_shared<Opts>();
    auto* cmd =
        t->add_subcommand("brawl", "Brawl in the Sprawl: tables and advancement to the final four");
    cmd->add_option("--entrants", o->entrants, "players")->required()->check(CLI::Range(4, 10000));
    cmd->add_option("--cut", o->cut, "keep the top N by Reputation after round 1 (e.g. 26)");
    cmd->add_flag("--json", o->json, "print JSON");
    cmd->callback([o] {
      const auto plan = sr::brawl_plan(o->entrants, o->cut);
      json rounds = json::array();
      std::string text;
      for (const auto& r : plan) {
        const int threes = static_cast<int>(std::count(r.tables.begin(), r.tables.end(), 3));
        const int twos = static_cast<int>(std::count(r.tables.begin(), r.tables.end(), 2));
        const int fours = static_cast<int>(std::count(r.tables.begin(), r.tables.end(), 4));
        rounds.push_back({{"kind", r.kind},
                          {"players", r.players},
                          {"tables", r.tables},
                          {"advance", r.advance}});
        if (r.kind == "cut") {
          text += fmt::format("Cut: the top {} of {} by Reputation go on\n", r.advance, r.players);
          continue;
        }
        std::vector<std::string> parts;
        if (twos > 0) parts.push_back(fmt::format("{} pair{}", twos, twos == 1 ? "" : "s"));
        if (threes > 0)
          parts.push_back(fmt::format("{} table{} of 3", threes, threes == 1 ? "" : "s"));
        if (fours > 0)
          parts.push_back(fmt::format("{} table{} of 4", fours, fours == 1 ? "" : "s"));
        text += fmt::format("{} ({} players): {} → {} winners\n", r.kind, r.players,
                            fmt::join(parts, " + "), r.advance);
      }
      json seats = json::array();
      text += "Final: ";
      std::vector<std::string> s;
      for (const auto& seat : sr::final_seats()) {
        seats.push_back(
            {{"seat", seat.seat}, {"start_nuyen", seat.start_nuyen}, {"first", seat.first}});
        s.push_back(fmt::format("seat {} {}¥{}", seat.seat, seat.start_nuyen,
                                seat.first ? " (plays first)" : ""));
      }
      text += fmt::format("{}\n", fmt::join(s, ", "));
      print(o->json, {{"rounds", rounds}, {"final_seats", seats}}, text);
    });
  }
}

// ---- roll ---------------------------------------------------------------------------------

void add_roll(CLI::App& parent) {
  struct Opts {
    std::string expr = "d6";
    std::vector<int> faces;
    std::optional<std::uint64_t> seed;
    bool json = false;
  };
  auto o = std::make_shared<Opts>();
  auto* cmd = parent.add_subcommand(
      "roll", "SRTCG dice: d6, d6+N, d6-N (never below 1), pump (solo table), rolloff:N");
  cmd->add_option("expr", o->expr, "what to roll (default d6)");
  cmd->add_option("--face", o->faces, "physical dice: the faces you rolled (repeat)");
  cmd->add_option("--seed", o->seed, "seed for the roll (printed)");
  cmd->add_flag("--json", o->json, "print JSON");
  cmd->callback([o] {
    const std::uint64_t seed = o->seed.value_or(dice::fresh_seed());
    dice::Rng rng(seed);
    std::size_t next = 0;
    const auto die = [&]() {
      if (!o->faces.empty()) {
        if (next >= o->faces.size()) throw UsageError("give one --face per die rolled");
        const int f = o->faces[next++];
        if (f < 1 || f > 6) throw UsageError("--face is 1 to 6");
        return f;
      }
      return rng.uniform(6);
    };
    const std::string& e = o->expr;
    json j;
    std::string text;
    if (e == "pump") {
      const int d = die();
      j = {{"roll", d}, {"pumps", sr::solo_pumps(d)}};
      text = fmt::format("D6 = {} → pumped ×{}\n", d, sr::solo_pumps(d));
    } else if (e.rfind("rolloff:", 0) == 0) {
      int n = 0;
      if (!to_int(e.substr(8), n) || n < 2 || n > 50)
        throw UsageError("rolloff:N with N players (2-50)");
      std::vector<int> alive(static_cast<std::size_t>(n));
      for (int i = 0; i < n; ++i)
        alive[static_cast<std::size_t>(i)] = i + 1;
      json rounds = json::array();
      while (alive.size() > 1) {
        std::vector<int> rolls;
        int best = 0;
        for (std::size_t k = 0; k < alive.size(); ++k) {
          rolls.push_back(die());
          best = std::max(best, rolls.back());
        }
        json round = json::array();
        std::vector<int> next_alive;
        std::vector<std::string> shown;
        for (std::size_t k = 0; k < alive.size(); ++k) {
          round.push_back({{"player", alive[k]}, {"roll", rolls[k]}});
          shown.push_back(fmt::format("#{}: {}", alive[k], rolls[k]));
          if (rolls[k] == best) next_alive.push_back(alive[k]);
        }
        rounds.push_back(round);
        text += fmt::format("{}{}\n", fmt::join(shown, ", "),
                            next_alive.size() > 1 ? " — tied, reroll" : "");
        alive = next_alive;
      }
      j = {{"winner", alive.front()}, {"rounds", rounds}};
      text += fmt::format("Player #{} wins the roll-off\n", alive.front());
    } else {
      int mod = 0;
      if (e.size() < 2 || (e[0] != 'd' && e[0] != 'D') || e[1] != '6' ||
          (e.size() > 2 && !to_int(e.substr(2), mod))) {
        throw DataException({"<command line>", 0, "expr",
                             fmt::format("d6, d6+N, d6-N, pump or rolloff:N (not '{}')", e)});
      }
      const int d = die();
      j = {{"roll", d}, {"modifier", mod}, {"result", sr::d6_result(d, mod)}};
      text = mod == 0 ? fmt::format("D6 = {}\n", d)
                      : fmt::format("D6 = {} {:+d} → {}\n", d, mod, sr::d6_result(d, mod));
    }
    if (o->faces.empty()) {
      j["seed"] = seed;
      text += fmt::format("(seed {})\n", seed);
    }
    print(o->json, j, text);
  });
}

// ---- dmz ----------------------------------------------------------------------------------

void add_dmz(CLI::App& parent) {
  auto* d = parent.add_subcommand("dmz",
                                  "Downtown Militarized Zone: to-hit, wounds, Barriers, grid, "
                                  "Safety phase, exploration");
  d->require_subcommand(1);
  {
    struct Opts {
      std::string attack = "ranged";
      int bonus = 0;
      std::optional<int> skill;
      int requires_ = 0;
      bool moving = false;
      std::optional<int> roll;
      bool json = false;
    };
    auto o = std::make_shared<Opts>();
    auto* cmd = d->add_subcommand("hit",
                                  "To-hit: ranged 4+, melee 3+, counter 6+, indirect 6+, "
                                  "moving −1, natural 1 misses and 6 hits");
    cmd->add_option("--attack", o->attack, "ranged, melee, counter, indirect or barrier")
        ->check(CLI::IsMember({"ranged", "melee", "counter", "indirect", "barrier"}));
    cmd->add_option("--bonus", o->bonus, "a modifier to the roll");
    cmd->add_option("--skill", o->skill, "the attacker's Firearms / Gunnery / Melee rating");
    cmd->add_option("--requires", o->requires_, "the rating the weapon needs (with --skill)");
    cmd->add_flag("--moving", o->moving, "the target is moving (−1)");
    cmd->add_option("--roll", o->roll, "the natural D6 rolled")->check(CLI::Range(1, 6));
    cmd->add_flag("--json", o->json, "print JSON");
    cmd->callback([o] {
      const sr::DmzAttack a = *sr::dmz_attack(o->attack);
      const int bonus = o->bonus + (o->skill ? sr::dmz_skill_bonus(*o->skill, o->requires_) : 0);
      const int faces = sr::dmz_hit_faces(a, bonus, o->moving);
      json j = {{"attack", o->attack}, {"target", sr::dmz_target(a)},
                {"bonus", bonus},      {"moving", o->moving},
                {"faces", faces},      {"chance", faces / 6.0}};
      std::string text = fmt::format("{} attack, {}+ to hit, modifier {:+d}{}: {}/6 = {}\n",
                                     o->attack, sr::dmz_target(a), bonus,
                                     o->moving ? " (moving −1)" : "", faces, percent(faces / 6.0));
      if (o->roll) {
        const bool hit = sr::dmz_hits(a, *o->roll, bonus, o->moving);
        j["roll"] = *o->roll;
        j["hit"] = hit;
        text += fmt::format("Natural {} → {}\n", *o->roll, hit ? "HIT" : "miss");
      }
      print(o->json, j, text);
    });
  }
  {
    struct Opts {
      int wounds = 1;
      std::optional<int> roll;
      bool json = false;
    };
    auto o = std::make_shared<Opts>();
    auto* cmd =
        d->add_subcommand("wound", "A wound: out of the game when the D6 is below the wounds");
    cmd->add_option("--wounds", o->wounds, "wounds so far, this one included")
        ->required()
        ->check(CLI::Range(1, 100));
    cmd->add_option("--roll", o->roll, "the D6")->check(CLI::Range(1, 6));
    cmd->add_flag("--json", o->json, "print JSON");
    cmd->callback([o] {
      const double p = sr::dmz_removal_chance(o->wounds);
      json j = {{"wounds", o->wounds}, {"chance_out", p}};
      std::string text = fmt::format("Wound {}: P(out of the game) = {}\n", o->wounds, percent(p));
      if (o->roll) {
        const bool out = sr::dmz_wound_removes(*o->roll, o->wounds);
        j["roll"] = *o->roll;
        j["out"] = out;
        text += fmt::format("D6 = {} → {}\n", *o->roll,
                            out ? "OUT of the game" : "back to the safehouse");
      }
      print(o->json, j, text);
    });
  }
  {
    struct Opts {
      std::string builders;
      bool json = false;
    };
    auto o = std::make_shared<Opts>();
    auto* cmd =
        d->add_subcommand("barrier", "A Barrier's Body: builders' Attack, Technical doubled");
    cmd->add_option("--builders", o->builders, "Attack of each builder, T for Technical: 3T,4")
        ->required();
    cmd->add_flag("--json", o->json, "print JSON");
    cmd->callback([o] {
      std::vector<sr::Builder> b;
      std::size_t start = 0;
      for (std::size_t i = 0; i <= o->builders.size(); ++i) {
        if (i < o->builders.size() && o->builders[i] != ',') continue;
        std::string item = o->builders.substr(start, i - start);
        sr::Builder x;
        if (!item.empty() && (item.back() == 'T' || item.back() == 't')) {
          x.technical = true;
          item.pop_back();
        }
        if (!to_int(item, x.attack) || x.attack < 0) {
          throw DataException({"<command line>", 0, "--builders",
                               fmt::format("Attack values like 3T,4 (not '{}')",
                                           o->builders.substr(start, i - start))});
        }
        b.push_back(x);
        start = i + 1;
      }
      const int body = sr::dmz_barrier_body(b);
      print(
          o->json, {{"body", body}},
          fmt::format("Barrier Body {} (attacks on it always hit; it never strikes back)\n", body));
    });
  }
  {
    struct Opts {
      int players = 2;
      bool json = false;
    };
    auto o = std::make_shared<Opts>();
    auto* cmd =
        d->add_subcommand("grid", "The Zone: 4×4, a row and a column more per extra player");
    cmd->add_option("--players", o->players, "players")->check(CLI::Range(2, 8));
    cmd->add_flag("--json", o->json, "print JSON");
    cmd->callback([o] {
      const sr::DmzGrid g = sr::dmz_grid(o->players);
      print(o->json, {{"columns", g.columns}, {"rows", g.rows}, {"entry_blocks", g.entry_blocks}},
            fmt::format("{}×{} Blocks{}; at most {} runners and {} Events per Block\n", g.columns,
                        g.rows,
                        g.entry_blocks > 0
                            ? fmt::format(", each player enters through the centre {} Blocks of "
                                          "their edge",
                                          g.entry_blocks)
                            : std::string(", each player enters along their edge"),
                        sr::kDmzBlockRunners, sr::kDmzBlockEvents));
    });
  }
  {
    struct Opts {
      int hand = 0;
      int events = 0;
      bool occupied = false;
      bool json = false;
    };
    auto o = std::make_shared<Opts>();
    auto* cmd = d->add_subcommand("safety", "Safety phase caps: Events to draw, Events on a Block");
    cmd->add_option("--hand", o->hand, "cards in hand")->check(CLI::Range(0, 50));
    cmd->add_option("--events", o->events, "Events on the Block")->check(CLI::Range(0, 50));
    cmd->add_flag("--occupied", o->occupied, "runners are on the Block");
    cmd->add_flag("--json", o->json, "print JSON");
    cmd->callback([o] {
      const int draw = sr::dmz_events_to_draw(o->hand);
      const bool takes = sr::dmz_block_takes_event(o->events, o->occupied);
      print(o->json, {{"events_to_draw", draw}, {"block_takes_event", takes}},
            fmt::format("Hand {}: draw up to {} Event{} (or 1 Zone card); the hand never exceeds "
                        "7; trash at most 1 card for +1¥\nBlock with {} Event{}{}: {}\n",
                        o->hand, draw, draw == 1 ? "" : "s", o->events, o->events == 1 ? "" : "s",
                        o->occupied ? ", occupied" : "",
                        takes ? "takes an Event" : "takes no Event"));
    });
  }
  {
    struct Opts {
      int runners = 1;
      int events = 0;
      bool json = false;
    };
    auto o = std::make_shared<Opts>();
    auto* cmd = d->add_subcommand(
        "explore",
        "Exploration: Events revealed (one per runner) and whether the Zone card is reached");
    cmd->add_option("--runners", o->runners, "unturned runners exploring")->check(CLI::Range(1, 6));
    cmd->add_option("--events", o->events, "Events on the Block")->check(CLI::Range(0, 50));
    cmd->add_flag("--json", o->json, "print JSON");
    cmd->callback([o] {
      const sr::Exploration x = sr::dmz_exploration(o->runners, o->events);
      print(o->json, {{"reveals", x.reveals}, {"reaches_zone", x.reaches_zone}},
            fmt::format("{} runner{} on a Block with {} Event{}: reveal up to {}{}\n", o->runners,
                        o->runners == 1 ? "" : "s", o->events, o->events == 1 ? "" : "s", x.reveals,
                        x.reaches_zone ? ", then the Zone card (it does not count)"
                                       : "; the Zone card stays hidden under the rest"));
    });
  }
}

// ---- play ---------------------------------------------------------------------------------

void add_play(CLI::App& parent) {
  auto o = std::make_shared<CardPlayOptions>();
  auto* cmd = add_card_play(
      parent,
      "An interactive, journaled session: commands on stdin (type help), what changed after each",
      o, true);
  cmd->callback([o] {
    const std::string journal =
        o->journal.empty() ? match::new_session_journal("srtcg") : o->journal;
    const std::uint64_t seed =
        match::session_seed<match::SrtcgGame>(journal, o->seed.value_or(dice::fresh_seed()));
    sr::Console console(seed);
    const match::AttachedSrtcgJournal attached =
        match::attach_srtcg_journal(journal, console, seed);
    play_card_console(console, *o, attached.notes,
                      fmt::format("SRTCG session (seed {}). Type help for the commands.", seed),
                      journal, [](const auto& state) { return sr::state_hash_hex(state); });
  });
}

void add_srtcg(CLI::App& root) {
  auto* cmd = root.add_subcommand(
      "srtcg",
      "Shadowrun Trading Card Game helper — combat, sleaze, deck, solo, tournaments, DMZ, play");
  cmd->require_subcommand(1);
  cmd->footer(
      "Threat notation: A/B with an optional armor An, e.g. 6/4, 5/8 A2; a list is "
      "comma-separated.\nCards: NAME: items separated by spaces or ';' (skills like Piloting 2, "
      "traits like Fame 2, cost N/U, pump C +a/+b, A+1 additive armor, +3/+0 modifiers).");
  add_combat(*cmd);
  add_fight(*cmd);
  add_sleaze(*cmd);
  add_deck(*cmd);
  add_solo(*cmd);
  add_tournament(*cmd);
  add_roll(*cmd);
  add_dmz(*cmd);
  add_play(*cmd);
}

DUELS_COMMAND(47, add_srtcg);

}  // namespace
}  // namespace duels::app
