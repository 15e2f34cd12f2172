// `duels crossfire allocate|missing|incoming|payout|flips|karma|upgrades|play` — the Shadowrun:
// Crossfire helper on the command line: the damage allocation solver, what is still missing,
// the incoming-damage forecast, nuyen payouts, Scene flip forecasts, Karma after scaling, the
// upgrade planner, and a journaled console session.
#include <fmt/format.h>

#include <charconv>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>

#include "app/card_console.hpp"
#include "app/command.hpp"
#include "cards/common/text.hpp"
#include "cards/crossfire/allocate.hpp"
#include "cards/crossfire/calc.hpp"
#include "cards/crossfire/console.hpp"
#include "cards/crossfire/json.hpp"
#include "cards/crossfire/metatypes.hpp"
#include "common/error.hpp"
#include "match/crossfire_session.hpp"
#include "match/duels_match.hpp"

namespace duels::app {
namespace {

using nlohmann::json;
namespace cf = duels::cards::crossfire;

[[noreturn]] void bad_spec(const cf::SpecError& e, const char* flag) {
  throw DataException({"<command line>", 0, flag, e.message()});
}

[[noreturn]] void bad_value(const std::string& text, const char* flag,
                            const std::string& expected) {
  throw DataException({"<command line>", 0, flag, fmt::format("{} (got '{}')", expected, text)});
}

bool to_int(std::string_view s, int& out) {
  if (s.empty() || s.size() > 7) return false;
  const char* end = s.data() + s.size();
  auto [ptr, ec] = std::from_chars(s.data(), end, out);
  return ec == std::errc() && ptr == end;
}

cf::Bundle bundle_arg(const std::string& text, const char* flag) {
  auto b = cf::parse_bundle(text);
  if (!b) bad_spec(b.error(), flag);
  return *b;
}

cf::ObstacleCard obstacle_arg(const std::string& text) {
  auto o = cf::parse_obstacle(text);
  if (!o) bad_spec(o.error(), "--obstacle");
  return *o;
}

/// "NAME=HP[:staggered]".
cf::AllocRunner runner_arg(const std::string& text) {
  const auto eq = text.find('=');
  cf::AllocRunner r;
  if (eq == std::string::npos || eq == 0) bad_value(text, "--runner", "NAME=HP[:staggered]");
  r.name = text.substr(0, eq);
  std::string hp = text.substr(eq + 1);
  if (const auto colon = hp.find(':'); colon != std::string::npos) {
    if (hp.substr(colon + 1) != "staggered") bad_value(text, "--runner", "NAME=HP[:staggered]");
    r.staggered = true;
    hp = hp.substr(0, colon);
  }
  if (!to_int(hp, r.hp) || r.hp < 0 || r.hp > 50)
    bad_value(text, "--runner", "NAME=HP[:staggered]");
  return r;
}

// ---- allocate ---------------------------------------------------------------------------------

void add_allocate(CLI::App& parent) {
  struct Opts {
    std::vector<std::string> obstacles, cards, hand, assists, runners;
    bool json = false;
  };
  auto o = std::make_shared<Opts>();
  auto* cmd = parent.add_subcommand(
      "allocate", "Which card goes beside which obstacle, and which point clears which level");
  cmd->add_option("--obstacle", o->obstacles,
                  "an obstacle: NAME=TRACK[@CLEARED] [attack:N nuyen:N threat:N weight:N "
                  "faces:RUNNER boss …], e.g. \"Lightning Mage=3,blue,blue,1\" (repeat)")
      ->required();
  cmd->add_option("--card", o->cards,
                  "a card played (placed whatever happens): NAME=POINTS, e.g. \"Guiding "
                  "Spirit=blue+1\", \"Lightning Bolt=levels:2:consecutive\" (repeat)");
  cmd->add_option("--hand", o->hand, "a card in hand: played only if it helps (repeat)");
  cmd->add_option("--assist", o->assists,
                  "an assist a teammate offers, OWNER:NAME=POINTS or NAME=POINTS (repeat)");
  cmd->add_option("--runner", o->runners,
                  "a runner NAME=HP[:staggered], current runner first then clockwise (enables "
                  "the stagger-avoidance term)");
  cmd->add_flag("--json", o->json, "print JSON");
  cmd->callback([o] {
    cf::AllocInput in;
    for (const std::string& t : o->runners)
      in.runners.push_back(runner_arg(t));
    for (const std::string& t : o->obstacles) {
      cf::AllocObstacle ob{obstacle_arg(t), {}};
      // The plan names obstacles: two of one name could not be told apart.
      for (const cf::AllocObstacle& other : in.obstacles) {
        if (cards::text::lower(other.card.name) == cards::text::lower(ob.card.name)) {
          throw DataException(
              {"<command line>", 0, "--obstacle",
               fmt::format("obstacles with different names ('{}' is given twice: call the "
                           "second '{} 2')",
                           ob.card.name, ob.card.name)});
        }
      }
      in.obstacles.push_back(std::move(ob));
    }
    for (const std::string& t : o->cards)
      in.cards.push_back(cf::AllocCard{bundle_arg(t, "--card"), cf::CardUse::Played, ""});
    for (const std::string& t : o->hand)
      in.cards.push_back(cf::AllocCard{bundle_arg(t, "--hand"), cf::CardUse::Offered, ""});
    for (const std::string& t : o->assists) {
      std::string owner;
      std::string spec = t;
      const auto colon = t.find(':');
      const auto eq = t.find('=');
      if (colon != std::string::npos && (eq == std::string::npos || colon < eq)) {
        owner = t.substr(0, colon);
        spec = t.substr(colon + 1);
      }
      in.cards.push_back(cf::AllocCard{bundle_arg(spec, "--assist"), cf::CardUse::Offered, owner});
    }
    if (in.cards.empty()) throw UsageError("give at least one --card, --hand or --assist");
    auto r = cf::allocate(in);
    if (!r) throw UsageError(r.error());
    if (o->json) {
      std::cout << cf::allocation_json(in, *r).dump() << "\n";
      return;
    }
    for (const std::string& line : r->lines)
      std::cout << line << "\n";
    const auto defeated = std::count_if(r->obstacles.begin(), r->obstacles.end(),
                                        [](const cf::ObstaclePlan& p) { return p.defeated; });
    std::cout << fmt::format("→ {} defeated, {} level{} cleared, {} wasted{}\n", defeated,
                             r->score.levels, r->score.levels == 1 ? "" : "s", -r->score.waste,
                             r->score.harm < 0 ? "; a runner is still staggered or critical" : "");
  });
}

// ---- missing ----------------------------------------------------------------------------------

void add_missing(CLI::App& parent) {
  struct Opts {
    std::string obstacle;
    std::string have = "none";
    bool json = false;
  };
  auto o = std::make_shared<Opts>();
  auto* cmd = parent.add_subcommand("missing",
                                    "What is still missing to defeat an obstacle, given the "
                                    "points and level damage the team holds");
  cmd->add_option("--obstacle", o->obstacle, "NAME=TRACK[@CLEARED]")->required();
  cmd->add_option("--have", o->have, "what the team holds, as card points: blue+2+levels:1");
  cmd->add_flag("--json", o->json, "print JSON");
  cmd->callback([o] {
    const cf::ObstacleCard card = obstacle_arg(o->obstacle);
    const cf::Bundle b = bundle_arg(o->have, "--have");
    cf::Resources held;
    held.points = b.points;
    if (b.mode == cf::LevelMode::Spread) {
      held.singles = std::min(b.levels, 1);  // single levels go to different obstacles
    } else if (b.levels > 0) {
      held.runs.push_back(cf::LevelRun{b.levels, b.mode == cf::LevelMode::Last});
    }
    const cf::Missing m = cf::still_missing(card.track, card.cleared, held);
    if (o->json) {
      json colours = json::object();
      for (cf::Colour c : cf::kAllColours)
        colours[cf::colour_name(c)] = m.points.of(c);
      std::cout << json{{"obstacle", card.name},
                        {"levels_left", m.levels_left},
                        {"enough", m.enough},
                        {"missing", colours},
                        {"missing_any", m.points.colourless},
                        {"text", m.text}}
                       .dump()
                << "\n";
      return;
    }
    std::cout << fmt::format("{}: {}\n", card.name, m.text);
  });
}

// ---- incoming ---------------------------------------------------------------------------------

void add_incoming(CLI::App& parent) {
  struct Opts {
    std::vector<std::string> runners, attackers;
    int current = 0;
    bool json = false;
  };
  auto o = std::make_shared<Opts>();
  auto* cmd = parent.add_subcommand(
      "incoming",
      "Each runner's damage packet this round: stagger and critical warnings, and "
      "which attacker to block or move");
  cmd->add_option("--runner", o->runners, "NAME=HP[:staggered] in clockwise seat order (repeat)")
      ->required();
  cmd->add_option("--attacker", o->attackers,
                  "NAME=ATTACK@RUNNER[:stopped]: an obstacle and whom it faces (repeat)");
  cmd->add_option("--current", o->current, "seat of the current runner (0 = first --runner)");
  cmd->add_flag("--json", o->json, "print JSON");
  cmd->callback([o] {
    std::vector<std::string> names;
    std::vector<cf::Health> health;
    for (const std::string& t : o->runners) {
      const cf::AllocRunner r = runner_arg(t);
      names.push_back(r.name);
      health.push_back(cf::Health{r.hp, r.hp, r.staggered, false});
    }
    if (o->current < 0 || o->current >= static_cast<int>(names.size())) {
      throw UsageError("--current must be a seat of the --runner list");
    }
    std::vector<cf::Attacker> attackers;
    for (const std::string& t : o->attackers) {
      const auto eq = t.find('=');
      const auto at = t.find('@', eq == std::string::npos ? 0 : eq);
      const char* shape = "NAME=ATTACK@RUNNER[:stopped]";
      if (eq == std::string::npos || at == std::string::npos) bad_value(t, "--attacker", shape);
      cf::Attacker a;
      a.name = t.substr(0, eq);
      if (!to_int(t.substr(eq + 1, at - eq - 1), a.attack) || a.attack < 0) {
        bad_value(t, "--attacker", shape);
      }
      std::string who = t.substr(at + 1);
      if (who.ends_with(":stopped")) {
        a.stopped = true;
        who = who.substr(0, who.size() - 8);
      }
      const auto it = std::find(names.begin(), names.end(), who);
      if (it == names.end())
        bad_value(t, "--attacker", "an attacker facing one of the --runner names");
      a.faces = static_cast<int>(it - names.begin());
      attackers.push_back(a);
    }
    const auto forecast = cf::forecast_incoming(names, health, attackers, o->current);
    if (o->json) {
      json out = json::array();
      for (const cf::IncomingForecast& f : forecast) {
        json without = json::array();
        for (const auto& w : f.without) {
          without.push_back({{"attacker", w.attacker}, {"packet", w.packet}, {"avoids", w.avoids}});
        }
        out.push_back({{"runner", f.name},
                       {"packet", f.packet},
                       {"hp_after", f.result.after.hp},
                       {"staggers", f.result.became_staggered},
                       {"criticals", f.result.became_critical},
                       {"attackers", f.attackers},
                       {"without", without},
                       {"warning", f.warning}});
      }
      std::cout << json{{"forecast", out}}.dump() << "\n";
      return;
    }
    for (const cf::IncomingForecast& f : forecast) {
      std::cout << fmt::format("{}: packet {} → HP {}{}\n", f.name, f.packet, f.result.after.hp,
                               f.warning.empty() ? std::string() : "  " + f.warning);
      for (const auto& w : f.without) {
        if (w.avoids) {
          std::cout << fmt::format("    blocking or moving {} avoids it (packet {})\n", w.attacker,
                                   w.packet);
        }
      }
    }
  });
}

// ---- payout -----------------------------------------------------------------------------------

void add_payout(CLI::App& parent) {
  struct Opts {
    int value = 0;
    int runners = 4;
    int current = 0;
    std::optional<int> client;
    bool json = false;
  };
  auto o = std::make_shared<Opts>();
  auto* cmd = parent.add_subcommand(
      "payout", "An obstacle's nuyen, one coin at a time from the current runner, clockwise");
  cmd->add_option("--value", o->value, "the obstacle's nuyen")
      ->required()
      ->check(CLI::Range(0, 100));
  cmd->add_option("--runners", o->runners, "seats at the table (the Client included)")
      ->required()
      ->check(CLI::Range(1, 5));
  cmd->add_option("--current", o->current, "seat of the current runner (0-based)")->required();
  cmd->add_option("--client", o->client, "seat of the Extraction Client (never paid)");
  cmd->add_flag("--json", o->json, "print JSON");
  cmd->callback([o] {
    if (o->current < 0 || o->current >= o->runners) throw UsageError("--current must be a seat");
    std::vector<bool> eligible;
    if (o->client) {
      if (*o->client < 0 || *o->client >= o->runners) throw UsageError("--client must be a seat");
      eligible.assign(static_cast<std::size_t>(o->runners), true);
      eligible[static_cast<std::size_t>(*o->client)] = false;
    }
    const std::vector<int> coins = cf::payout(o->value, o->runners, o->current, eligible);
    if (o->json) {
      std::cout << json{{"payout", coins}}.dump() << "\n";
      return;
    }
    for (std::size_t i = 0; i < coins.size(); ++i) {
      std::cout << fmt::format("seat {}{}: {}¥\n", i,
                               static_cast<int>(i) == o->current                ? " (current)"
                               : o->client && static_cast<int>(i) == *o->client ? " (Client)"
                                                                                : "",
                               coins[i]);
    }
  });
}

// ---- flips --------------------------------------------------------------------------------------

void add_flips(CLI::App& parent) {
  struct Opts {
    std::string mission = "crossfire";
    int runners = 4;
    int scene = 1;
    int level = 0;
    int step = 1;
    std::vector<std::string> bonuses;
    bool json = false;
  };
  auto o = std::make_shared<Opts>();
  auto* cmd = parent.add_subcommand(
      "flips", "How many Hard and Normal obstacles to flip: a Scene, a Dragon round, a track step");
  cmd->add_option("--mission", o->mission, "crossfire, dragon or extraction");
  cmd->add_option("--runners", o->runners, "runners (1-4)")->check(CLI::Range(1, 4));
  cmd->add_option("--scene", o->scene, "Crossfire mission: the Scene starting (1-3)")
      ->check(CLI::Range(1, 3));
  cmd->add_option("--level", o->level, "the Crossfire level (cards in the Crossfire discard)")
      ->check(CLI::Range(0, 50));
  cmd->add_option("--step", o->step, "Extraction: the track step (1-7)")->check(CLI::Range(1, 7));
  cmd->add_option("--bonus", o->bonuses,
                  "bonus challenges: bring-it-on, minions-unending, elite-response-team");
  cmd->add_flag("--json", o->json, "print JSON");
  cmd->callback([o] {
    const auto m = cf::mission_from(o->mission);
    if (!m || *m == cf::Mission::Custom) throw UsageError("--mission crossfire|dragon|extraction");
    const auto has = [&](const char* key) {
      return std::any_of(o->bonuses.begin(), o->bonuses.end(), [&](const std::string& b) {
        const cf::BonusChallenge* bc = cf::find_bonus(b);
        return bc != nullptr && std::string(bc->key) == key;
      });
    };
    for (const std::string& b : o->bonuses) {
      if (cf::find_bonus(b) == nullptr) bad_value(b, "--bonus", "a bonus challenge");
    }
    cf::FlipForecast f;
    if (*m == cf::Mission::Crossfire) {
      f = cf::crossfire_scene_flip(o->runners, o->scene, o->level, has("bring-it-on"));
    } else if (*m == cf::Mission::Dragon) {
      if (o->runners != 4) {
        throw DataException(
            {"<command line>", 0, "--runners",
             fmt::format("4 for the Dragon Fight (a 4-runner mission), not {}", o->runners)});
      }
      f = cf::dragon_round_flip(o->level, has("minions-unending"));
    } else {
      auto s = cf::extraction_step(o->runners, o->step, has("elite-response-team"));
      if (!s) throw UsageError(s.error());
      f.hard = s->hard;
      f.normal = s->normal;
      f.total = f.hard + f.normal;
      f.why = s->text;
    }
    if (o->json) {
      std::cout
          << json{{"total", f.total}, {"hard", f.hard}, {"normal", f.normal}, {"why", f.why}}.dump()
          << "\n";
      return;
    }
    std::cout << f.why << "\n";
  });
}

// ---- karma
// ----------------------------------------------------------------------------------------

void add_karma(CLI::App& parent) {
  struct Opts {
    std::string mission;
    std::string result;
    std::vector<std::string> bonuses;
    int upgrades = 0;
    int runners = 4;
    bool bonus_on_abort = false;
    bool json = false;
  };
  auto o = std::make_shared<Opts>();
  auto* cmd = parent.add_subcommand("karma", "A runner's Karma award after scaling");
  cmd->add_option("--mission", o->mission, "crossfire, extraction or dragon")->required();
  cmd->add_option("--result", o->result, "win, abort or loss")->required();
  cmd->add_option("--bonus", o->bonuses,
                  "bonus challenges taken: bring-it-on, danger-zone (repeat per pick), "
                  "stepped-up-security, emt-gig, elite-response-team, trouble-brewing, "
                  "lets-get-serious, closer-than-you-think, minions-unending");
  cmd->add_option("--upgrades", o->upgrades,
                  "Karma in the runner's upgrades (Σ effective sticker costs)")
      ->required()
      ->check(CLI::Range(0, 100000));
  cmd->add_option("--runners", o->runners, "runners in the team (Danger Zone limit)")
      ->check(CLI::Range(1, 4));
  cmd->add_flag("--bonus-on-abort", o->bonus_on_abort,
                "house rule: bonus challenges pay on a successful abort too");
  cmd->add_flag("--json", o->json, "print JSON");
  cmd->callback([o] {
    const auto m = cf::mission_from(o->mission);
    if (!m) bad_value(o->mission, "--mission", "crossfire, extraction or dragon");
    const auto r = cf::result_from(o->result);
    if (!r) bad_value(o->result, "--result", "win, abort or loss");
    auto award = cf::karma_award(*m, *r, o->bonuses, o->upgrades, o->runners, o->bonus_on_abort);
    if (!award) throw IllegalAction(award.error());
    if (o->json) {
      std::cout << json{{"base", award->base},
                        {"bonus", award->bonus},
                        {"penalty", award->penalty},
                        {"award", award->total},
                        {"lines", award->lines}}
                       .dump()
                << "\n";
      return;
    }
    for (const std::string& line : award->lines)
      std::cout << line << "\n";
  });
}

// ---- upgrades
// --------------------------------------------------------------------------------------

/// "NAME=VALUE[@SLOT][+nuyen:N][+hp:N]".
cf::Sticker sticker_arg(const std::string& text, const char* flag) {
  const char* shape = "NAME=VALUE[@SLOT][+nuyen:N][+hp:N]";
  const auto eq = text.rfind('=');
  if (eq == std::string::npos || eq == 0) bad_value(text, flag, shape);
  cf::Sticker s;
  s.name = text.substr(0, eq);
  std::string rest = text.substr(eq + 1);
  std::vector<std::string> parts;
  std::size_t start = 0;
  for (std::size_t i = 0; i <= rest.size(); ++i) {
    if (i == rest.size() || rest[i] == '+') {
      parts.push_back(rest.substr(start, i - start));
      start = i + 1;
    }
  }
  std::string value = parts[0];
  if (const auto at = value.find('@'); at != std::string::npos) {
    if (!to_int(value.substr(at + 1), s.slot) || s.slot < 1 || s.slot > 20) {
      bad_value(text, flag, shape);
    }
    value = value.substr(0, at);
  }
  if (!to_int(value, s.value) || s.value < 0 || s.value > 1000) bad_value(text, flag, shape);
  for (std::size_t i = 1; i < parts.size(); ++i) {
    const auto colon = parts[i].find(':');
    int n = 0;
    if (colon == std::string::npos || !to_int(parts[i].substr(colon + 1), n)) {
      bad_value(text, flag, shape);
    }
    const std::string key = parts[i].substr(0, colon);
    if (key == "nuyen") {
      s.nuyen_bonus = n;
    } else if (key == "hp") {
      s.hp_bonus = n;
    } else {
      bad_value(text, flag, shape);
    }
  }
  return s;
}

json check_json(const cf::UpgradeCheck& c) {
  json top = json::array();
  for (const cf::Sticker& s : c.top) {
    top.push_back(
        {{"slot", s.slot}, {"name", s.name}, {"value", s.value}, {"cost", cf::effective_cost(s)}});
  }
  return json{{"top", top},
              {"total", c.total},
              {"karma", c.karma},
              {"legal", c.legal},
              {"short_by", c.short_by},
              {"nuyen_bonus", c.nuyen_bonus},
              {"hp_bonus", c.hp_bonus},
              {"problems", c.problems}};
}

void add_upgrades(CLI::App& parent) {
  struct Opts {
    int karma = 0;
    std::vector<std::string> stickers;
    std::string add;
    bool json = false;
  };
  auto o = std::make_shared<Opts>();
  auto* cmd = parent.add_subcommand(
      "upgrades",
      "Check a runner's stickers against their Karma; with --add, every way to add "
      "one (cover a slot or take a new one)");
  cmd->add_option("--karma", o->karma, "Karma earned (the cap)")
      ->required()
      ->check(CLI::Range(0, 100000));
  cmd->add_option("--sticker", o->stickers,
                  "a sticker in the order stuck on: NAME=VALUE@SLOT[+nuyen:N][+hp:N]; a later "
                  "one in the same slot covers the earlier (repeat)");
  cmd->add_option("--add", o->add, "a sticker to add: NAME=VALUE[+nuyen:N][+hp:N]");
  cmd->add_flag("--json", o->json, "print JSON");
  cmd->callback([o] {
    std::vector<cf::Sticker> stuck;
    for (const std::string& t : o->stickers)
      stuck.push_back(sticker_arg(t, "--sticker"));
    const cf::UpgradeCheck now = cf::check_upgrades(stuck, o->karma);
    std::vector<cf::UpgradeOption> options;
    if (!o->add.empty()) options = cf::plan_upgrade(stuck, sticker_arg(o->add, "--add"), o->karma);
    if (o->json) {
      json opts = json::array();
      for (const cf::UpgradeOption& opt : options) {
        opts.push_back({{"slot", opt.slot},
                        {"covers", opt.covers ? json(opt.covered) : json(nullptr)},
                        {"check", check_json(opt.check)},
                        {"text", opt.text}});
      }
      std::cout << json{{"now", check_json(now)}, {"options", opts}}.dump() << "\n";
      return;
    }
    for (const cf::Sticker& s : now.top) {
      std::cout << fmt::format("slot {}: {} (value {}, costs {})\n", s.slot, s.name, s.value,
                               cf::effective_cost(s));
    }
    std::cout << fmt::format(
        "total {} of {} Karma: {}{}\n", now.total, now.karma, now.legal ? "legal" : "ILLEGAL",
        now.problems.empty() ? std::string() : fmt::format(" — {}", fmt::join(now.problems, "; ")));
    if (now.nuyen_bonus != 0 || now.hp_bonus != 0) {
      std::cout << fmt::format("active effects: +{} starting nuyen, +{} max HP\n", now.nuyen_bonus,
                               now.hp_bonus);
    }
    for (const cf::UpgradeOption& opt : options)
      std::cout << "  " << opt.text << "\n";
  });
}

// ---- play
// -------------------------------------------------------------------------------------------

void add_play(CLI::App& parent) {
  auto o = std::make_shared<CardPlayOptions>();
  auto* cmd = add_card_play(
      parent, "A journaled session that tracks a whole run: commands on stdin (type help)", o,
      false);
  auto metatypes = std::make_shared<std::string>();
  cmd->add_option("--metatypes", *metatypes,
                  "the metatype table (default: assets/crossfire/metatypes.yaml)");
  cmd->callback([o, metatypes] {
    std::vector<cf::Metatype> table;
    std::string table_path = *metatypes;
    if (table_path.empty()) table_path = assets_dir() + "/crossfire/metatypes.yaml";
    if (!metatypes->empty() || std::filesystem::exists(table_path)) {
      table = cf::load_metatypes(table_path);
    }
    const std::string journal =
        o->journal.empty() ? match::new_session_journal("crossfire") : o->journal;
    cf::Console console(table);
    const match::CrossfireJournal attached = match::attach_crossfire_journal(journal, console);
    play_card_console(console, *o, attached.notes, "Crossfire session. Type help for the commands.",
                      journal, [](const auto& state) { return cf::state_hash_hex(state); });
  });
}

void add_crossfire(CLI::App& root) {
  auto* cmd = root.add_subcommand(
      "crossfire",
      "Shadowrun: Crossfire helper — damage allocation, forecasts, payouts, Karma, play");
  cmd->require_subcommand(1);
  add_allocate(*cmd);
  add_missing(*cmd);
  add_incoming(*cmd);
  add_payout(*cmd);
  add_flips(*cmd);
  add_karma(*cmd);
  add_upgrades(*cmd);
  add_play(*cmd);
}

DUELS_COMMAND(46, add_crossfire);

}  // namespace
}  // namespace duels::app
