// `duels encounters odds|solve|advise|play` — the Encounters: Shadowrun helper on the command
// line: exact odds, every legal match, push-or-score advice, and a console session.
#include <fmt/format.h>

#include <filesystem>

#include <fstream>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>

#include "app/card_console.hpp"
#include "app/command.hpp"
#include "cards/encounters/advisor.hpp"
#include "cards/encounters/console.hpp"
#include "cards/encounters/json.hpp"
#include "cards/encounters/match.hpp"
#include "cards/encounters/odds.hpp"
#include "common/error.hpp"
#include "dice/roller.hpp"
#include "match/duels_match.hpp"
#include "match/encounters_session.hpp"

namespace duels::app {
namespace {

using nlohmann::json;
namespace enc = duels::cards::encounters;

[[noreturn]] void bad_spec(const enc::SpecError& e, const char* flag) {
  throw DataException({"<command line>", 0, flag, e.message()});
}

std::vector<enc::HandCard> parse_runners(const std::vector<std::string>& specs) {
  std::vector<enc::HandCard> cards;
  for (const std::string& spec : specs) {
    auto card = enc::parse_runner(spec);
    if (!card) bad_spec(card.error(), "--runner");
    if (card->name.empty()) card->name = fmt::format("Runner {}", cards.size() + 1);
    cards.push_back(enc::HandCard{*card, 0, false});
  }
  return cards;
}

std::vector<std::string> parse_keyword_arg(const std::string& text) {
  if (text.empty()) return {};
  auto k = enc::parse_keywords(text);
  if (!k) bad_spec(k.error(), "--keywords");
  return *k;
}

int parse_value_arg(const std::string& text) {
  auto v = enc::parse_value(text);
  if (!v) bad_spec(v.error(), "--value");
  return *v;
}

std::string percent(double p) {
  return fmt::format("{:.2f}%", 100 * p);
}

// ---- odds ---------------------------------------------------------------------------------

void add_odds(CLI::App& parent) {
  struct Opts {
    int dice = 6;
    std::string value;
    std::vector<std::string> runners;
    std::string keywords;
    bool no_runners = false;
    bool json = false;
  };
  auto o = std::make_shared<Opts>();
  auto* cmd = parent.add_subcommand(
      "odds", "Exact P(some set of K fresh dice sums to V), with your Shadowrunners if given");
  cmd->add_option("--dice", o->dice, "unlocked dice to roll (1-8)")->check(CLI::Range(1, 8));
  cmd->add_option("--value", o->value, "the Encounter Value (1-48)")->required();
  cmd->add_option("--runner", o->runners,
                  "a Shadowrunner, e.g. \"Topshelf: wild 2,5; metahuman: +1; red\" (repeat)");
  cmd->add_option("--keywords", o->keywords, "the Encounter's keywords, e.g. metahuman,underworld");
  cmd->add_flag("--no-runners", o->no_runners, "the Encounter shows the No-Shadowrunners icon");
  cmd->add_flag("--json", o->json, "print JSON");
  cmd->callback([o] {
    enc::MatchQuery q;
    q.value = parse_value_arg(o->value);
    q.keywords = parse_keyword_arg(o->keywords);
    q.no_runners = o->no_runners;
    q.cards = parse_runners(o->runners);
    const enc::ExactOdds plain = enc::plain_odds(o->dice, q.value);
    auto with = enc::odds_with_cards(o->dice, q);
    if (!with) throw UsageError(with.error());
    if (o->json) {
      json j = {{"dice", o->dice},
                {"value", q.value},
                {"p", with->fraction()},
                {"p_float", with->p()},
                {"count", with->count},
                {"outcomes", with->total},
                {"p_plain", plain.fraction()},
                {"p_plain_float", plain.p()}};
      std::cout << j.dump() << "\n";
      return;
    }
    std::cout << fmt::format("P(beat {} with {} dice{}) = {} = {:.6f}  ({} of {} rolls)\n", q.value,
                             o->dice, q.cards.empty() ? "" : ", with your cards", with->fraction(),
                             with->p(), with->count, with->total);
    if (!q.cards.empty()) {
      std::cout << fmt::format("without cards               = {} = {:.6f}\n", plain.fraction(),
                               plain.p());
    }
  });
}

// ---- solve --------------------------------------------------------------------------------

void add_solve(CLI::App& parent) {
  struct Opts {
    std::string value;
    std::string dice;
    std::string keywords;
    std::vector<std::string> runners;
    bool twice = false;
    bool no_runners = false;
    std::optional<int> keep;
    std::size_t limit = 20;
    bool json = false;
  };
  auto o = std::make_shared<Opts>();
  auto* cmd = parent.add_subcommand(
      "solve", "Every legal way to beat an Encounter with these dice and Shadowrunners, ranked");
  cmd->add_option("--value", o->value, "the Encounter Value (1-48)")->required();
  cmd->add_option("--dice", o->dice, "the unlocked dice, e.g. 1,1,3")->required();
  cmd->add_option("--keywords", o->keywords, "the Encounter's keywords, e.g. metahuman,underworld");
  cmd->add_option("--runner", o->runners,
                  "a Shadowrunner, e.g. \"Topshelf: wild 2,5; metahuman: +1; red\" (repeat)");
  cmd->add_flag("--twice", o->twice, "\"must be defeated twice with the same roll\" (Vampire)");
  cmd->add_flag("--no-runners", o->no_runners, "the Encounter shows the No-Shadowrunners icon");
  cmd->add_option("--keep", o->keep, "how many dice you would like left unlocked (ranking)")
      ->check(CLI::Range(0, 8));
  cmd->add_option("--limit", o->limit, "how many ways to list (default 20)");
  cmd->add_flag("--json", o->json, "print JSON");
  cmd->callback([o] {
    enc::MatchQuery q;
    q.value = parse_value_arg(o->value);
    auto dice = enc::parse_dice(o->dice);
    if (!dice) bad_spec(dice.error(), "--dice");
    q.dice = *dice;
    q.keywords = parse_keyword_arg(o->keywords);
    q.cards = parse_runners(o->runners);
    q.twice = o->twice;
    q.no_runners = o->no_runners;
    q.preferred_dice_left = o->keep;
    q.max_solutions = o->limit;
    auto r = enc::find_matches(q);
    if (!r) throw UsageError(r.error());
    if (o->json) {
      std::cout << enc::match_result_json(*r, q).dump() << "\n";
      return;
    }
    std::cout << fmt::format("Encounter Value {} · dice {}{}\n", q.value, o->dice,
                             q.keywords.empty()
                                 ? std::string()
                                 : fmt::format(" · keywords {}", fmt::join(q.keywords, ", ")));
    if (!r->plain_match) std::cout << "No plain match (without cards).\n";
    if (r->solutions.empty()) std::cout << "No legal way: the Encounter is failed.\n";
    for (std::size_t i = 0; i < r->solutions.size(); ++i) {
      std::cout << fmt::format("{:>2}. {}{}\n", i + 1, enc::describe(r->solutions[i], q),
                               r->solutions[i].dice_left == 0 ? " · escalation available" : "");
    }
    if (r->found > r->solutions.size()) {
      std::cout << fmt::format("    … {} ways in all{} (--limit to see more)\n", r->found,
                               r->truncated ? ", search stopped at its limit" : "");
    }
    for (const enc::Unavailable& u : r->unavailable) {
      const auto& card = q.cards[static_cast<std::size_t>(u.card)].card;
      std::cout << fmt::format(
          "    unavailable: {} '{}': {}\n", card.name,
          enc::to_notation(card.abilities[static_cast<std::size_t>(u.ability)]), u.reason);
    }
  });
}

// ---- advise -------------------------------------------------------------------------------

void add_advise(CLI::App& parent) {
  struct Opts {
    int column = 1;
    int unlocked = 6;
    int banked = 0;
    std::string values;
    int cap = 8;
    std::string objective = "ev";
    int need = 0;
    std::string value;
    std::string dice;
    std::string keywords;
    std::vector<std::string> runners;
    int bonus = 0;
    bool steal = false;
    bool burn = false;
    double runner_value = 2;
    std::string retain;
    int nuyen = 0;
    std::string hire_costs;
    bool solo = false;
    int turns_left = 12;
    int target = 20;
    std::optional<std::uint64_t> seed;
    int trials = 2000;
    bool json = false;
  };
  auto o = std::make_shared<Opts>();
  auto* cmd = parent.add_subcommand(
      "advise",
      "Push, score or escalate by expected Nuyen; how many dice to lock; Datasteal, burn, "
      "retain; solo odds");
  cmd->add_option("--column", o->column, "current column (1 = first)")->check(CLI::Range(1, 50));
  cmd->add_option("--unlocked", o->unlocked, "unlocked dice (0 = all locked)")
      ->check(CLI::Range(0, 8));
  cmd->add_option("--banked", o->banked, "what the tableau scores now (¥)")
      ->check(CLI::Range(0, 1000));
  auto* values = cmd->add_option(
      "--values", o->values, "Encounter Values still to come: 1-12 (default), 3,5,7,7 or 5:2,7:1");
  cmd->add_option("--cap", o->cap, "column depth cap of the look-ahead (default 8)")
      ->check(CLI::Range(1, 20));
  cmd->add_option("--objective", o->objective, "ev (expected Nuyen) or reach (P(≥ --need ¥))")
      ->check(CLI::IsMember({"ev", "reach"}));
  cmd->add_option("--need", o->need, "Nuyen still needed to win (for --objective reach)")
      ->check(CLI::Range(1, 1000));
  cmd->add_option("--value", o->value, "the rolled Encounter's value (with --dice: lock advice)");
  cmd->add_option("--dice", o->dice, "the rolled unlocked dice, e.g. 1,1,3");
  cmd->add_option("--keywords", o->keywords, "the rolled Encounter's keywords");
  cmd->add_option("--runner", o->runners, "a Shadowrunner you hold (repeat)");
  cmd->add_option("--bonus", o->bonus, "the rolled Encounter's bonus Nuyen");
  cmd->add_flag("--steal", o->steal, "Datasteal from (column, unlocked, banked) or start fresh?");
  cmd->add_flag("--burn", o->burn, "you just failed: burn a Shadowrunner to block the Datasteal?");
  cmd->add_option("--runner-value", o->runner_value, "what a Shadowrunner is worth to you (¥)");
  cmd->add_option("--retain", o->retain, "a Shadowrunner just used: retain it for 3¥?");
  cmd->add_option("--nuyen", o->nuyen, "your Nuyen (retain, solo)")->check(CLI::Range(0, 1000));
  cmd->add_option("--hire-costs", o->hire_costs, "hire costs left in the deck, e.g. 2,2,3,4,5");
  cmd->add_flag("--solo", o->solo, "solo planner: P(reach --target within --turns-left)");
  cmd->add_option("--turns-left", o->turns_left, "solo: turns left (default 12)");
  cmd->add_option("--target", o->target, "solo: Nuyen to reach (default 20)");
  cmd->add_option("--seed", o->seed, "solo: simulation seed (printed)");
  cmd->add_option("--trials", o->trials, "solo: simulated runs (default 2000)")
      ->check(CLI::Range(1, 1000000));
  cmd->add_flag("--json", o->json, "print JSON");
  cmd->callback([o, values] {
    enc::AdvisorSettings settings;
    if (values->count() > 0 || !o->values.empty()) {
      auto mix = enc::parse_value_mix(o->values);
      if (!mix) bad_spec(mix.error(), "--values");
      settings.mix = *mix;
    }
    settings.column_cap = o->cap;
    if (o->column > o->cap) throw UsageError("--column is beyond --cap");
    if (o->objective == "reach") {
      if (o->need < 1) throw UsageError("--objective reach needs --need N (Nuyen still needed)");
      settings.objective = enc::Objective::ReachTarget;
      settings.nuyen_needed = o->need;
    }
    enc::Advisor advisor(settings);
    json out = {{"column", o->column},
                {"unlocked", o->unlocked},
                {"banked", o->banked},
                {"objective", o->objective}};
    std::string text;
    const auto fmt_value = [&](double v) {
      return o->objective == "reach" ? percent(v) : fmt::format("{:.3f}¥", v);
    };

    if (!o->dice.empty() || !o->value.empty()) {
      if (o->dice.empty() || o->value.empty())
        throw UsageError("lock advice needs --value and --dice");
      enc::MatchQuery q;
      q.value = parse_value_arg(o->value);
      auto dice = enc::parse_dice(o->dice);
      if (!dice) bad_spec(dice.error(), "--dice");
      q.dice = *dice;
      q.keywords = parse_keyword_arg(o->keywords);
      q.cards = parse_runners(o->runners);
      auto found = enc::find_matches(q);
      if (!found) throw UsageError(found.error());
      const int u = static_cast<int>(q.dice.size());
      const enc::LockAdvice lock =
          enc::advise_lock(advisor, o->column, o->banked, o->bonus, *found, u);
      json options = json::array();
      text += fmt::format("Lock advice (V={}, dice {}):\n", q.value, o->dice);
      for (const enc::LockOption& opt : lock.options) {
        const enc::Solution& way = found->solutions[static_cast<std::size_t>(opt.solution)];
        options.push_back({{"lock", opt.dice_locked},
                           {"keep", opt.dice_left},
                           {"value", opt.value},
                           {"cards_used", opt.cards_used},
                           {"retain_cost", opt.retain_cost_nuyen},
                           {"way", enc::describe(way, q)}});
        text += fmt::format("  lock {} keep {} → {}  ({})\n", opt.dice_locked, opt.dice_left,
                            fmt_value(opt.value), enc::describe(way, q));
      }
      text += "  → " + lock.why + "\n";
      out["lock"] = {{"options", options}, {"why", lock.why}};
    } else {
      const enc::PushAdvice p = enc::advise_push(advisor, o->column, o->unlocked, o->banked);
      out["push"] = {{"score", p.score_value},
                     {"push", o->unlocked > 0 ? json(p.push_value) : json(nullptr)},
                     {"escalate", p.escalate_value ? json(*p.escalate_value) : json(nullptr)},
                     {"p_beat_next", p.p_beat_next},
                     {"verdict", p.verdict},
                     {"why", p.why}};
      text += fmt::format("At column {}, {} unlocked, {}¥ banked: score {} · {} · {}\n→ {}: {}\n",
                          o->column, o->unlocked, o->banked, fmt_value(p.score_value),
                          o->unlocked > 0 ? "push " + fmt_value(p.push_value) : "push -",
                          p.escalate_value ? "escalate " + fmt_value(*p.escalate_value)
                                           : std::string("no escalation"),
                          p.verdict, p.why);
    }
    if (o->steal) {
      const enc::StealAdvice st = enc::advise_steal(advisor, o->column, o->unlocked, o->banked);
      out["steal"] = {{"steal", st.steal_value},
                      {"fresh", st.fresh_value},
                      {"verdict", st.steal ? "datasteal" : "fresh start"},
                      {"why", st.why}};
      text += fmt::format("Datasteal {} · fresh start {} → {}\n", fmt_value(st.steal_value),
                          fmt_value(st.fresh_value), st.steal ? "Datasteal" : "fresh start");
    }
    if (o->burn) {
      const enc::BurnAdvice b =
          enc::advise_burn(advisor, o->column, o->unlocked, o->banked, o->runner_value);
      out["burn"] = {{"denied", b.denied_value},
                     {"runner_value", b.runner_value},
                     {"verdict", b.burn ? "burn" : "do not burn"},
                     {"why", b.why}};
      text += fmt::format("Burn the Run? {} → {}\n", b.why, b.burn ? "burn" : "do not burn");
    }
    if (!o->retain.empty()) {
      auto card = enc::parse_runner(o->retain);
      if (!card) bad_spec(card.error(), "--retain");
      std::vector<int> costs;
      if (!o->hire_costs.empty()) {
        auto parsed = enc::parse_value_mix(o->hire_costs);  // same list shape: 2,2,3 or 3:2
        if (!parsed) bad_spec(parsed.error(), "--hire-costs");
        for (const auto& [c, w] : parsed->weights) {
          for (int i = 0; i < static_cast<int>(w); ++i)
            costs.push_back(c);
        }
      }
      auto r =
          enc::advise_retain(advisor, *card, o->column, o->unlocked, o->banked, o->nuyen, costs);
      if (!r) throw UsageError(r.error());
      out["retain"] = {{"p_plain", r->p_plain},
                       {"p_with_card", r->p_with_card},
                       {"stake", r->stake},
                       {"card_value", r->card_value},
                       {"retain_cost", r->retain_cost},
                       {"expected_hire_cost", r->expected_hire_cost},
                       {"verdict", r->retain ? "retain" : "let it go"},
                       {"why", r->why}};
      text += fmt::format("Retain? {} → {}\n", r->why, r->retain ? "retain" : "let it go");
    }
    if (o->solo) {
      const std::uint64_t seed = o->seed.value_or(dice::fresh_seed());
      dice::Rng rng(seed);
      enc::AdvisorSettings ev = settings;
      ev.objective = enc::Objective::ExpectedNuyen;
      enc::Advisor ev_advisor(ev);
      const enc::SoloPlan plan =
          enc::plan_solo(ev_advisor, o->nuyen, o->target, o->turns_left, rng, o->trials);
      out["solo"] = {{"p_win", plan.p_win},
                     {"trials", plan.trials},
                     {"mean_nuyen", plan.mean_nuyen},
                     {"seed", seed}};
      text += fmt::format(
          "Solo: P(reach {}¥ from {}¥ within {} turns) ≈ {} ({} simulated runs, "
          "seed {}; mean end {:.1f}¥)\n",
          o->target, o->nuyen, o->turns_left, percent(plan.p_win), plan.trials, seed,
          plan.mean_nuyen);
    }
    if (o->json) {
      std::cout << out.dump() << "\n";
    } else {
      std::cout << text;
    }
  });
}

// ---- play ---------------------------------------------------------------------------------

void add_play(CLI::App& parent) {
  auto o = std::make_shared<CardPlayOptions>();
  auto* cmd = add_card_play(
      parent, "An interactive session: commands on stdin (type help), what changed after each", o,
      true);
  cmd->callback([o] {
    const std::string journal =
        o->journal.empty() ? match::new_session_journal("encounters") : o->journal;
    const std::uint64_t seed =
        match::session_seed<match::EncountersGame>(journal, o->seed.value_or(dice::fresh_seed()));
    enc::Console console(seed);
    const match::AttachedJournal attached =
        match::attach_encounters_journal(journal, console, seed);
    play_card_console(
        console, *o, attached.notes,
        fmt::format("Encounters session (seed {}). Type help for the commands.", seed), journal,
        [](const auto& state) { return enc::state_hash_hex(state); });
  });
}

void add_encounters(CLI::App& root) {
  auto* cmd = root.add_subcommand(
      "encounters", "Encounters: Shadowrun helper — exact odds, every legal match, advice, play");
  cmd->require_subcommand(1);
  add_odds(*cmd);
  add_solve(*cmd);
  add_advise(*cmd);
  add_play(*cmd);
}

DUELS_COMMAND(40, add_encounters);

}  // namespace
}  // namespace duels::app
