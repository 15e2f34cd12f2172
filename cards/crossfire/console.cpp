#include "cards/crossfire/console.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <charconv>

#include "cards/common/console.hpp"
#include "cards/common/text.hpp"
#include "cards/crossfire/json.hpp"
#include "common/json_depth.hpp"
#include "common/utf8.hpp"

namespace duels::cards::crossfire {

namespace {

using text::arrow;
using text::head_rest;
using text::lower;
using text::split_list;
using text::to_int;
using text::trim;

/// "HEAD; key value; key value": the head and the keyed parts (keys lower-cased).
struct Clauses {
  std::string head;
  std::vector<std::pair<std::string, std::string>> keyed;
  [[nodiscard]] std::optional<std::string> get(const std::string& key) const {
    for (const auto& [k, v] : keyed) {
      if (k == key) return v;
    }
    return std::nullopt;
  }
};

Clauses clauses(std::string_view text) {
  Clauses c;
  const auto semi = text.find(';');
  c.head = std::string(trim(text.substr(0, semi)));
  if (semi == std::string_view::npos) return c;
  for (const std::string& part : split_list(text.substr(semi + 1), ';')) {
    auto [k, v] = head_rest(part, true);
    c.keyed.emplace_back(k, v);
  }
  return c;
}

std::string seat_name(const State& s, int seat) {
  return seat >= 0 && seat < static_cast<int>(s.runners.size())
             ? s.runners[static_cast<std::size_t>(seat)].name
             : std::string("?");
}

std::string track_text(const Obstacle& o) {
  std::vector<std::string> levels;
  for (std::size_t i = 0; i < o.card.track.size(); ++i) {
    levels.push_back(describe(o.card.track[i]) +
                     (static_cast<int>(i) < o.card.cleared ? " ✓" : ""));
  }
  return fmt::format("[{}]", fmt::join(levels, ", "));
}

}  // namespace

std::string render(const State& s) {
  std::string out;
  if (s.phase == Phase::Setup) {
    out += fmt::format("Setup · mission {}", mission_name(s.settings.mission));
    if (!s.settings.bonuses.empty())
      out += fmt::format(" · {}", fmt::join(s.settings.bonuses, ", "));
    out += "\n";
  } else {
    out += fmt::format("{} · Scene {} · Round {} · Crossfire level {} (deck {})",
                       mission_name(s.settings.mission), s.scene, s.round, crossfire_level(s),
                       s.decks.crossfire);
    if (s.settings.mission == Mission::Extraction)
      out += fmt::format(" · track step {}", s.progress);
    if (s.settings.mission == Mission::Dragon) {
      out += fmt::format(" · aspects down {}/4", s.aspects_defeated);
    }
    out += "\n";
    if (s.active_event) {
      const CrossfireEvent& e = *s.active_event;
      out += fmt::format(
          "Event: {}{}{}{}\n", e.name, e.continuous ? " [continuous]" : "",
          e.timebomb ? " [timebomb]" : "",
          e.threshold > 0 ? fmt::format(" [{}+{}]", e.threshold,
                                        crossfire_level(s) >= e.threshold ? " applies" : " not yet")
                          : std::string());
    }
    switch (s.phase) {
      case Phase::RoundStart:
        out += fmt::format("Round start: {}'s Crossfire step{}\n", seat_name(s, s.starting),
                           s.aborting ? " (abort round)" : "");
        break;
      case Phase::Turn:
        out += fmt::format("{}'s turn · step: {}{}\n", seat_name(s, s.current), step_name(s.step),
                           s.aborting ? " · ABORT ROUND" : "");
        break;
      case Phase::SceneEnd:
        out += fmt::format("Scene-end buy round: {} buys or passes\n", seat_name(s, s.current));
        break;
      case Phase::GameOver:
        out += fmt::format("GAME OVER: {} — {}\n", s.result ? result_name(*s.result) : "?",
                           s.end_reason);
        break;
      case Phase::Setup:
        break;
    }
    out += fmt::format("Black Market: {} card{} showing · deck {} · discard {}{}\n",
                       s.decks.market_slots, s.decks.market_slots == 1 ? "" : "s", s.decks.market,
                       s.decks.market_discard, s.decks.out_of_stock ? " · OUT OF STOCK" : "");
    out += fmt::format("Obstacle decks: Normal {} (discard {}) · Hard {} (discard {})\n",
                       s.decks.normal, s.decks.normal_discard, s.decks.hard, s.decks.hard_discard);
  }
  for (const Obstacle& o : s.obstacles) {
    out += fmt::format(
        "  #{} {}{} {} {}/{} · attack {}{} · {}¥ · faces {}{}{}\n", o.id, o.card.name,
        o.card.boss   ? " (boss)"
        : o.card.hard ? " (Hard)"
                      : "",
        track_text(o), o.card.cleared, o.card.track.size(),
        std::max(0, o.card.attack + o.attack_bonus),
        o.cannot_attack ? " (can't attack this turn)" : "", o.card.nuyen, seat_name(s, o.facing),
        o.partial.empty() ? std::string() : fmt::format(" · partial {}", describe(o.partial)),
        o.card.no_heal ? " · runners can't be healed" : "");
  }
  for (std::size_t i = 0; i < s.runners.size(); ++i) {
    const Runner& r = s.runners[i];
    const bool on =
        s.phase != Phase::Setup && s.phase != Phase::GameOver && static_cast<int>(i) == s.current;
    std::vector<std::string> roles;
    for (Colour c : r.roles)
      roles.emplace_back(role_name(c));
    if (r.client) {
      out += fmt::format("{} Client HP {}/{}{}\n", on ? ">" : " ", r.hp, r.max_hp,
                         r.staggered ? " STAGGERED" : "");
      continue;
    }
    out += fmt::format(
        "{} {} ({}; {}) HP {}/{} · {}¥ · hand {} deck {} discard {}{}{}{}\n", on ? ">" : " ",
        r.name, r.metatype.empty() ? "?" : r.metatype, fmt::join(roles, " + "), r.hp, r.max_hp,
        r.nuyen, r.hand, r.deck, r.discard,
        static_cast<int>(i) == s.starting && s.phase != Phase::Setup ? " · starting runner" : "",
        r.staggered ? " · STAGGERED" : "", r.critical ? " · CRITICAL" : "");
  }
  if (!s.played.empty()) {
    std::vector<std::string> cards;
    for (std::size_t k = 0; k < s.played.size(); ++k) {
      const PlayedCard& p = s.played[k];
      std::string where;
      for (const Obstacle& o : s.obstacles) {
        if (o.id == p.target) where = " beside " + o.card.name;
      }
      cards.push_back(fmt::format(
          "{}. {} ({}; {}){}{}", k + 1, p.name,
          describe(p.bundle.points) + (p.bundle.levels > 0
                                           ? fmt::format(" + {} level(s)", p.bundle.levels)
                                           : std::string()),
          seat_name(s, p.owner), where, p.applied ? " [applied]" : ""));
    }
    out += fmt::format("Played: {}\n", fmt::join(cards, " · "));
  }
  for (const std::string& hint : next_steps(s))
    out += "Next: " + hint + "\n";
  return out;
}

std::string allocation_text(const State& s, const std::vector<AllocCard>& offered) {
  const AllocInput in = allocation_input(s, offered);
  if (in.cards.empty()) return "no card played or offered: nothing to allocate\n";
  auto r = allocate(in);
  if (!r) return r.error() + "\n";
  std::string out;
  for (const std::string& line : r->lines)
    out += "  " + line + "\n";
  out += fmt::format("  ({} defeated, {} level{} cleared, {} point{} or level{} wasted)\n",
                     std::count_if(r->obstacles.begin(), r->obstacles.end(),
                                   [](const ObstaclePlan& p) { return p.defeated; }),
                     r->score.levels, r->score.levels == 1 ? "" : "s", -r->score.waste,
                     r->score.waste == -1 ? "" : "s", r->score.waste == -1 ? "" : "s");
  if (r->score.harm < 0) out += "  (someone is still staggered or critical this round)\n";
  return out;
}

std::string forecast_text(const State& s) {
  std::string out;
  for (const IncomingForecast& f : incoming(s)) {
    if (s.runners[static_cast<std::size_t>(f.seat)].critical) continue;
    out += fmt::format(
        "  {}: packet {}{}{}\n", f.name, f.packet,
        f.attackers.empty() ? std::string() : fmt::format(" ({})", fmt::join(f.attackers, ", ")),
        f.warning.empty() ? std::string() : " — " + f.warning);
    for (const auto& w : f.without) {
      if (w.avoids) {
        out += fmt::format("      blocking or moving {} avoids it (packet {})\n", w.attacker,
                           w.packet);
      }
    }
  }
  return out.empty() ? std::string("  nobody at the table\n") : out;
}

Console::Console(std::vector<Metatype> metatypes) : metatypes_(std::move(metatypes)) {}

std::string Console::help() {
  return R"(Crossfire console — one command per line (runner names are one word):
 setup    mission crossfire|extraction|dragon|custom [BONUS …]    houserule bonus-on-abort
          runner NAME METATYPE ROLE[,ROLE…] [hp=N] [cards=N] [nuyen=N] [karma=N] [deck=N]
          start [NAME]
 round    crossfire NAME [continuous] [timebomb] [N+] [: TEXT]   begin
          flip OBSTACLE; OBSTACLE; …     (Lone Star Trooper=5,black,green colour:black attack:2)
 turn     play CARD=DAMAGE [; on OBSTACLE] [; levels OBSTACLE, …] [; type TYPE] [; by RUNNER]
          place N [; on OBSTACLE] [; levels …]   best (place every played card the solver's way)
          apply   take [N] [; stop OBSTACLE, …]   buy CARD=COST [spell]   cycle   end   pass
          next (apply, take and end, as far as the turn allows)
          pull OBSTACLE   move OBSTACLE -> RUNNER [stop]   stop OBSTACLE   attack OBSTACLE ±N
          cancel OBSTACLE   healobstacle OBSTACLE [N|all]   damage OBSTACLE=DAMAGE [; by RUNNER]
 runners  hurt RUNNER[, RUNNER…|all] N   heal RUNNER N   draw RUNNER [N]   discard RUNNER [N]
          nuyen RUNNER ±N
 solvers  allocate [; offer CARD=DAMAGE]…   missing OBSTACLE [; have DAMAGE]   forecast   flips
 other    state   log   undo   redo   set /json/pointer VALUE   help   quit
DAMAGE: blue+1, 2green+2, levels:2:consecutive, blue+2+levels:3, none (see docs/crossfire.md)
)";
}

Console::Reply Console::submit(const Command& command, std::string prefix) {
  return submit_line<Reply>(session_, {command}, std::move(prefix),
                            [](const State& s) { return render(s); });
}

Console::Reply Console::submit_all(const std::vector<Command>& commands) {
  // One typed line: all of its commands or none, and one undo step.
  return submit_line<Reply>(session_, commands, {}, [](const State& s) { return render(s); });
}

Console::Reply Console::handle(std::string_view line) {
  if (!valid_utf8(line)) return Reply{"the line is not valid UTF-8 text\n", false, false};
  const auto [cmd, rest] = head_rest(line, true);
  const State& s = session_.state();
  const auto bad = [](std::string why) { return Reply{why + "\n", false, false}; };
  if (auto common = session_word(cmd, help(), true)) return *common;
  const std::vector<std::string> words = split_list(rest, ' ');

  // ---- setup ----
  if (cmd == "mission") {
    if (words.empty()) return bad("mission crossfire|extraction|dragon|custom [BONUS …]");
    Configure c{words[0], {words.begin() + 1, words.end()}, s.settings.bonus_on_abort};
    return submit(c);
  }
  if (cmd == "houserule") {
    if (lower(rest) != "bonus-on-abort") return bad("houserule bonus-on-abort");
    return submit(Configure{mission_name(s.settings.mission), s.settings.bonuses, true});
  }
  if (cmd == "runner") {
    if (words.size() < 3)
      return bad("runner NAME METATYPE ROLE[,ROLE…] [hp=N] [cards=N] [nuyen=N]");
    AddRunner a;
    a.name = words[0];
    a.metatype = words[1];
    a.roles = split_list(words[2], ',');
    std::optional<int> hp, cards, nuyen;
    if (const Metatype* m = find_metatype(metatypes_, a.metatype)) {
      a.metatype = m->name;
      hp = m->hp;
      cards = m->cards;
      nuyen = m->nuyen;
    }
    for (std::size_t i = 3; i < words.size(); ++i) {
      const auto eq = words[i].find('=');
      int v = 0;
      if (eq == std::string::npos || !to_int(words[i].substr(eq + 1), v)) {
        return bad(fmt::format("'{}' is not KEY=N (hp, cards, nuyen, karma, deck)", words[i]));
      }
      const std::string key = lower(words[i].substr(0, eq));
      if (key == "hp") {
        hp = v;
      } else if (key == "cards") {
        cards = v;
      } else if (key == "nuyen") {
        nuyen = v;
      } else if (key == "karma") {
        a.karma_in_upgrades = v;
      } else if (key == "deck") {
        a.deck = v;
      } else {
        return bad(fmt::format("unknown key '{}' (hp, cards, nuyen, karma, deck)", key));
      }
    }
    std::vector<std::string> missing;
    if (!hp) missing.emplace_back("hp");
    if (!cards) missing.emplace_back("cards");
    if (!nuyen) missing.emplace_back("nuyen");
    if (!missing.empty()) {
      return bad(
          fmt::format("the metatype table has no {} for {}: give {}=N (from the Runner "
                      "card)",
                      fmt::join(missing, ", "), a.metatype, fmt::join(missing, "=N ")));
    }
    a.hp = *hp;
    a.starting_cards = *cards;
    a.nuyen = *nuyen;
    return submit(a);
  }
  if (cmd == "start") return submit(StartGame{rest});

  // ---- round ----
  if (cmd == "crossfire") {
    DrawCrossfire d;
    std::string head = rest;
    if (const auto colon = rest.find(':'); colon != std::string::npos) {
      d.text = std::string(trim(std::string_view(rest).substr(colon + 1)));
      head = rest.substr(0, colon);
    }
    std::vector<std::string> name;
    for (const std::string& w : split_list(head, ' ')) {
      int n = 0;
      if (lower(w) == "continuous") {
        d.continuous = true;
      } else if (lower(w) == "timebomb") {
        d.timebomb = true;
      } else if (w.size() > 1 && w.back() == '+' && to_int(w.substr(0, w.size() - 1), n)) {
        d.threshold = n;
      } else {
        name.push_back(w);
      }
    }
    d.name = fmt::format("{}", fmt::join(name, " "));
    return submit(d);
  }
  if (cmd == "begin") return submit(BeginRound{});
  if (cmd == "flip") return submit(Flip{split_list(rest, ';')});

  // ---- turn ----
  if (cmd == "play" || cmd == "assist") {
    const Clauses c = clauses(rest);
    const auto eq = c.head.find('=');
    if (eq == std::string::npos) return bad("play CARD=DAMAGE [; on OBSTACLE] [; by RUNNER] …");
    PlayCard p;
    p.card = std::string(trim(std::string_view(c.head).substr(0, eq)));
    p.damage = std::string(trim(std::string_view(c.head).substr(eq + 1)));
    p.target = c.get("on").value_or("");
    p.card_type = c.get("type").value_or("");
    p.owner = c.get("by").value_or("");
    if (auto lv = c.get("levels")) p.level_targets = split_list(*lv, ',');
    if (cmd == "assist" && p.owner.empty()) return bad("assist CARD=DAMAGE; by RUNNER …");
    return submit(p);
  }
  if (cmd == "place") {
    const Clauses c = clauses(rest);
    PlaceCard p;
    int n = 0;
    if (to_int(c.head, n) && n >= 1) {
      p.index = n - 1;
    } else {
      p.card = c.head;
    }
    p.target = c.get("on").value_or("");
    if (auto lv = c.get("levels")) p.level_targets = split_list(*lv, ',');
    return submit(p);
  }
  if (cmd == "best") {
    const AllocInput in = allocation_input(s);
    if (in.cards.empty()) return bad("no card waiting to be applied");
    auto r = allocate(in);
    if (!r) return bad(r.error());
    std::vector<Command> places;
    std::size_t k = 0;
    for (std::size_t i = 0; i < s.played.size(); ++i) {
      if (s.played[i].applied) continue;
      PlaceCard p;
      p.index = static_cast<int>(i);
      p.card = s.played[i].name;
      const int box = r->box_target[k];
      if (box >= 0) p.target = fmt::format("#{}", s.obstacles[static_cast<std::size_t>(box)].id);
      for (int o : r->level_targets[k])
        p.level_targets.push_back(fmt::format("#{}", s.obstacles[static_cast<std::size_t>(o)].id));
      places.emplace_back(p);
      ++k;
    }
    Reply reply = submit_all(places);
    std::string lines;
    for (const std::string& l : r->lines)
      lines += "  " + l + "\n";
    reply.text = lines + reply.text;
    return reply;
  }
  if (cmd == "apply") return submit(ApplyDamage{});
  if (cmd == "take") {
    const Clauses c = clauses(rest);
    TakeDamage t;
    if (!c.head.empty() && !to_int(c.head, t.extra))
      return bad("take [EXTRA] [; stop OBSTACLE, …]");
    if (auto st = c.get("stop")) t.stopped = split_list(*st, ',');
    return submit(t);
  }
  if (cmd == "buy") {
    const auto eq = rest.find('=');
    if (eq == std::string::npos) return bad("buy CARD=COST [spell]");
    Buy b;
    b.card = std::string(trim(std::string_view(rest).substr(0, eq)));
    const auto tail = split_list(std::string_view(rest).substr(eq + 1), ' ');
    if (tail.empty() || !to_int(tail[0], b.cost)) return bad("buy CARD=COST [spell]");
    b.requires_spell = tail.size() > 1 && lower(tail[1]).starts_with("spell");
    return submit(b);
  }
  if (cmd == "cycle") return submit(Cycle{});
  if (cmd == "pass") return submit(Pass{});
  if (cmd == "end") return submit(EndTurn{});
  if (cmd == "next") {
    std::vector<Command> steps;
    if (s.phase == Phase::RoundStart) return submit(BeginRound{});
    if (s.phase != Phase::Turn) return bad("next moves a turn along (no turn under way)");
    if (s.step == TurnStep::Play) {
      // Damage beside no obstacle would be lost: `next` does not throw it away.
      std::vector<std::string> unplaced;
      for (std::size_t i = 0; i < s.played.size(); ++i) {
        const PlayedCard& p = s.played[i];
        if (!p.applied && p.target < 0 && p.level_targets.empty() &&
            (!p.bundle.points.empty() || p.bundle.levels > 0)) {
          unplaced.push_back(fmt::format("{}. {}", i + 1, p.name));
        }
      }
      if (!unplaced.empty()) {
        std::string out = fmt::format(
            "not yet: {} beside no obstacle (its damage would be lost). Place it first:\n"
            "  best                      the solver's placement:\n",
            fmt::join(unplaced, ", "));
        const AllocInput in = allocation_input(s);
        if (auto r = allocate(in)) {
          for (const std::string& l : r->lines)
            out += "                            " + l + "\n";
        }
        out +=
            "  place N; on OBSTACLE      put card N beside an obstacle yourself\n"
            "  apply                     apply as it lies (the unplaced damage is lost), then "
            "next\n";
        return Reply{out, false, false};
      }
      steps.emplace_back(ApplyDamage{});
    }
    if (s.step != TurnStep::DrawBuy) steps.emplace_back(TakeDamage{});
    steps.emplace_back(EndTurn{});
    // As far as the turn allows: a step that ends the game (or the turn) is the last one.
    State sim = s;
    for (std::size_t k = 0; k < steps.size(); ++k) {
      auto r = crossfire::apply(sim, steps[k]);
      if (!r) break;  // submitted as it is, the line is refused with this reason
      sim = std::move(r->state);
      if (sim.phase != Phase::Turn) {
        steps.resize(k + 1);
        break;
      }
    }
    return submit_all(steps);
  }
  if (cmd == "pull") return submit(Pull{rest});
  if (cmd == "move") {
    auto sides = arrow(rest);
    if (!sides) return bad("move OBSTACLE -> RUNNER [stop]");
    std::string to = sides->second;
    bool stop = false;
    if (lower(to).ends_with(" stop")) {
      stop = true;
      to = std::string(trim(std::string_view(to).substr(0, to.size() - 5)));
    }
    return submit(MoveObstacle{sides->first, to, stop});
  }
  if (cmd == "stop") return submit(ModifyObstacle{rest, 0, true, false});
  if (cmd == "cancel") return submit(ModifyObstacle{rest, 0, false, true});
  if (cmd == "attack") {
    const auto sp = rest.find_last_of(' ');
    int n = 0;
    if (sp == std::string::npos || !to_int(std::string_view(rest).substr(sp + 1), n)) {
      return bad("attack OBSTACLE ±N");
    }
    return submit(
        ModifyObstacle{std::string(trim(std::string_view(rest).substr(0, sp))), n, false, false});
  }
  if (cmd == "healobstacle") {
    const auto sp = rest.find_last_of(' ');
    int n = 1;
    std::string name = rest;
    if (sp != std::string::npos) {
      const std::string last = lower(std::string_view(rest).substr(sp + 1));
      if (last == "all") {
        n = 0;
        name = rest.substr(0, sp);
      } else if (to_int(last, n)) {
        name = rest.substr(0, sp);
      } else {
        n = 1;
      }
    }
    return submit(HealObstacle{std::string(trim(name)), n});
  }
  if (cmd == "damage") {
    const Clauses c = clauses(rest);
    const auto eq = c.head.find('=');
    if (eq == std::string::npos) return bad("damage OBSTACLE=DAMAGE [; by RUNNER]");
    return submit(DirectDamage{std::string(trim(std::string_view(c.head).substr(0, eq))),
                               std::string(trim(std::string_view(c.head).substr(eq + 1))),
                               c.get("by").value_or("")});
  }

  // ---- runners ----
  if (cmd == "hurt" || cmd == "heal" || cmd == "draw" || cmd == "discard" || cmd == "nuyen") {
    const auto sp = rest.find_last_of(' ');
    int n = 1;
    std::string who = rest;
    if (sp != std::string::npos && to_int(std::string_view(rest).substr(sp + 1), n)) {
      who = std::string(trim(std::string_view(rest).substr(0, sp)));
    } else if (cmd != "draw" && cmd != "discard") {
      return bad(fmt::format("{} RUNNER N", cmd));
    }
    if (who.empty()) return bad(fmt::format("{} RUNNER N", cmd));
    if (cmd == "hurt") return submit(Hurt{split_list(who, ','), n});
    if (cmd == "heal") return submit(Heal{who, n});
    if (cmd == "draw") return submit(Draw{who, n});
    if (cmd == "discard") return submit(DiscardCards{who, n});
    return submit(GainNuyen{who, n});
  }

  // ---- solvers ----
  if (cmd == "allocate") {
    const Clauses c = clauses(rest);
    std::vector<AllocCard> offered;
    for (const auto& [k, v] : c.keyed) {
      if (k != "offer") return bad("allocate [; offer CARD=DAMAGE]…");
      auto b = parse_bundle(v);
      if (!b) return bad(b.error().message());
      offered.push_back(AllocCard{*b, CardUse::Offered, ""});
    }
    return Reply{allocation_text(s, offered), true, false};
  }
  if (cmd == "missing") {
    const Clauses c = clauses(rest);
    const int i = obstacle_index(s, c.head);
    if (i < 0) return bad(fmt::format("no obstacle '{}' in play", c.head));
    Resources held;
    if (auto have = c.get("have")) {
      auto b = parse_bundle(*have);
      if (!b) return bad(b.error().message());
      held.points = b->points;
      if (b->mode == LevelMode::Spread) {
        held.singles = std::min(b->levels, 1);
      } else if (b->levels > 0) {
        held.runs.push_back(LevelRun{b->levels, b->mode == LevelMode::Last});
      }
    }
    const Obstacle& o = s.obstacles[static_cast<std::size_t>(i)];
    const Missing m = still_missing(o.card.track, o.card.cleared, held);
    return Reply{fmt::format("{} {}: {}\n", o.card.name, track_text(o), m.text), true, false};
  }
  if (cmd == "forecast") return Reply{forecast_text(s), true, false};
  if (cmd == "flips") {
    auto f = flip_forecast(s);
    if (!f) return bad("this mission has no flip table");
    return Reply{f->why + "\n", true, false};
  }
  if (cmd == "set") {
    if (words.size() < 2) return bad("set /json/pointer VALUE (e.g. set /runners/0/nuyen 7)");
    const std::string value_text(trim(std::string_view(rest).substr(words[0].size())));
    if (json_deeper_than(value_text)) {
      return bad(fmt::format("a value nested at most {} levels deep", kMaxJsonDepth));
    }
    nlohmann::json value = nlohmann::json::parse(value_text, nullptr, false);
    if (value.is_discarded()) value = value_text;  // a bare word is a string
    return submit(Override{words[0], value});
  }
  return bad(fmt::format("unknown command '{}' (try help)", cmd));
}

}  // namespace duels::cards::crossfire
