#include "cards/srtcg/console.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <charconv>

#include "cards/common/console.hpp"
#include "cards/common/text.hpp"
#include "cards/srtcg/json.hpp"
#include "common/json_depth.hpp"
#include "common/utf8.hpp"

namespace duels::cards::srtcg {

namespace {

using text::head_rest;
using text::lower;
using text::split_list;
using text::to_int;
using text::trim;

/// Splits "A -> B -> C" into its parts.
std::vector<std::string> arrows(std::string_view text) {
  std::vector<std::string> out;
  std::size_t start = 0;
  while (true) {
    const auto at = text.find("->", start);
    if (at == std::string_view::npos) {
      out.emplace_back(trim(text.substr(start)));
      return out;
    }
    out.emplace_back(trim(text.substr(start, at - start)));
    start = at + 2;
  }
}

/// Removes a trailing word (case-insensitive) and says whether it was there.
bool take_last_word(std::string& text, const std::string& word) {
  const std::string_view t = trim(text);
  if (t.size() < word.size()) return false;
  std::string tail(t.substr(t.size() - word.size()));
  std::transform(tail.begin(), tail.end(), tail.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  if (tail != word) return false;
  if (t.size() > word.size() &&
      std::isspace(static_cast<unsigned char>(t[t.size() - word.size() - 1])) == 0) {
    return false;
  }
  text = std::string(trim(t.substr(0, t.size() - word.size())));
  return true;
}

/// Removes a trailing integer.
bool take_last_int(std::string& text, int& out) {
  const std::string_view t = trim(text);
  std::size_t i = t.size();
  while (i > 0 && std::isspace(static_cast<unsigned char>(t[i - 1])) == 0)
    --i;
  if (!to_int(t.substr(i), out)) return false;
  text = std::string(trim(t.substr(0, i)));
  return true;
}

std::string runner_line(const Runner& r) {
  int attack = r.card.threat.attack + r.card.mod.attack + r.pumps * r.card.pump.attack;
  int body = r.card.threat.body + r.card.mod.body + r.pumps * r.card.pump.body;
  std::vector<std::string> gear;
  for (const HeldGear& g : r.gear) {
    if (g.card.type != GearType::Weapon && g.card.type != GearType::Drone &&
        g.card.type != GearType::Spirit && g.card.type != GearType::Vehicle &&
        g.card.type != GearType::Spell && g.card.type != GearType::Program) {
      attack += g.card.mod.attack;
      body += g.card.mod.body;
    }
    std::string text = fmt::format("{} ({}", g.card.name, gear_type_name(g.card.type));
    if (g.card.mod != Threat{})
      text += fmt::format(" {:+d}/{:+d}", g.card.mod.attack, g.card.mod.body);
    if (g.card.threat) text += " " + threat_text(g.card.threat, g.card.armor);
    if (g.damage > 0) text += fmt::format(" dmg {}", g.damage);
    if (g.turned) text += " turned";
    if (g.active) text += " active";
    gear.push_back(text + ")");
  }
  const Armor armor = effective_armor(r, true);
  std::string out = fmt::format("    {} {}/{}{}", r.card.name, attack, body,
                                armor.value() > 0 ? fmt::format(" A{}", armor.value()) : "");
  const Ratings skills = effective_skills(r);
  if (!skills.empty()) out += " [" + ratings_text(skills) + "]";
  if (!r.card.traits.empty()) out += " {" + ratings_text(r.card.traits) + "}";
  if (r.damage > 0) out += fmt::format(" dmg {}", r.damage);
  if (r.pumps > 0) out += fmt::format(" pumped ×{}", r.pumps);
  if (r.card.upkeep > 0) out += fmt::format(" upkeep {}¥", r.card.upkeep);
  if (r.turned) out += " · turned";
  if (!gear.empty()) out += fmt::format(" · {}", fmt::join(gear, ", "));
  return out + "\n";
}

std::string stack_summary(const State& s, const Objective& o) {
  std::vector<std::string> parts;
  for (std::size_t p = 0; p < o.stacks.size() && p < s.players.size(); ++p) {
    if (!o.stacks[p].empty())
      parts.push_back(fmt::format("{} {}", s.players[p].name, o.stacks[p].size()));
  }
  return parts.empty() ? std::string("no Challenges")
                       : fmt::format("stacks: {}", fmt::join(parts, ", "));
}

const StackCard* facing(const State& s) {
  if (!s.run.active || s.run.owner < 0) return nullptr;
  const auto& o = s.players[static_cast<std::size_t>(s.run.owner)].objective;
  if (!o || s.run.stack >= static_cast<int>(s.run.order.size())) return nullptr;
  const auto& st =
      o->stacks[static_cast<std::size_t>(s.run.order[static_cast<std::size_t>(s.run.stack)])];
  return st.empty() ? nullptr : &st.back();
}

std::string next_hint(const State& s) {
  switch (s.phase) {
    case Phase::Setup:
      return "add players (player NAME), then start";
    case Phase::Objective:
      return "place / reveal the Objective, then next";
    case Phase::Credstick:
      return "payday [draw] [income N], then next";
    case Phase::Refresh:
      return "heal RUNNER / repair RUNNER -> GEAR, then next";
    case Phase::Legwork:
      return "deploy, gear, challenge, card, recon, …, then next";
    case Phase::Shadowrun:
      if (!s.run.active) return "run PLAYER -> RUNNER, …  (or next: no run)";
      switch (s.run.step) {
        case RunStep::Reveal:
          return "flip SPEC (or flip bluff)";
        case RunStep::Face:
          return s.run.alarm ? "fight (combat shows the numbers), or beat / stopped"
                             : "sleaze (or fight / beat / stopped when it cannot be sleazed)";
        case RunStep::Decide:
          return "continue or pullout";
        case RunStep::Objective:
          return "take (fight first if it has a threat), pullout";
      }
      return "";
    case Phase::End:
      return "discard N (down to 7), then next";
    case Phase::GameOver:
      return "the game is over";
  }
  return "";
}

}  // namespace

std::string render(const State& s) {
  std::string out;
  if (s.phase == Phase::Setup) {
    out += fmt::format("Setup · goal {} Reputation\n", s.settings.goal);
  } else {
    out += fmt::format("Turn {} · {} · {} phase · goal {}\n", s.turn,
                       s.players[static_cast<std::size_t>(s.active)].name, phase_name(s.phase),
                       s.settings.goal);
  }
  for (std::size_t i = 0; i < s.players.size(); ++i) {
    const Player& p = s.players[i];
    out += fmt::format(
        "{} {}: rep {}{} · {}¥ · hand {} · draw {} · trash {} · Objectives {} left, "
        "{} taken\n",
        static_cast<int>(i) == s.active && s.phase != Phase::Setup ? ">" : " ", p.name,
        p.reputation, p.neg_lock ? " (locked)" : "", p.credstick, p.hand, p.draw_pile, p.trash,
        p.objective_pile, p.objectives_taken);
    if (p.objective) {
      const Objective& o = *p.objective;
      out += fmt::format(
          "    Objective: {} · {}{}\n",
          o.card ? (o.revealed ? to_notation(*o.card) : std::string("face down (entered)"))
                 : std::string(o.revealed ? "revealed (not entered)" : "face down"),
          stack_summary(s, o), o.intercepted ? " · intercepted once" : "");
    }
    for (const Runner& r : p.runners)
      out += runner_line(r);
    for (const SupportCard& c : p.cards) {
      out += fmt::format("    {} {}{}{}\n", c.kind, c.name,
                         c.upkeep > 0 ? fmt::format(" upkeep {}¥", c.upkeep) : "",
                         c.income > 0 ? fmt::format(" income {}¥", c.income) : "");
    }
  }
  if (s.run.active) {
    out += fmt::format("Run on {}'s Objective · team {}{}{}\n",
                       s.players[static_cast<std::size_t>(s.run.owner)].name,
                       fmt::join(s.run.team, ", "),
                       s.run.indirect.empty()
                           ? std::string()
                           : fmt::format(" · Indirect Fire {}", fmt::join(s.run.indirect, ", ")),
                       s.run.alarm ? " · ALARM" : "");
    if (const StackCard* c = facing(s);
        c != nullptr && c->card && s.run.step != RunStep::Objective) {
      out += fmt::format("Facing: {}{}\n", to_notation(*c->card),
                         c->pumps > 0 ? fmt::format(" (pumped ×{})", c->pumps) : "");
    }
  }
  if (s.phase == Phase::GameOver && s.winner >= 0) {
    out += fmt::format("Game over: {} wins\n", s.players[static_cast<std::size_t>(s.winner)].name);
  }
  out += "Next: " + next_hint(s) + "\n";
  return out;
}

std::string combat_text(const State& s) {
  if (!s.run.active) return "There is no run.\n";
  Opponent opp;
  bool indoor = false;
  if (s.run.step == RunStep::Objective) {
    const auto& o = s.players[static_cast<std::size_t>(s.run.owner)].objective;
    if (!o || !o->card || !o->card->threat) return "The Objective has no Threat Rating.\n";
    opp = *opponent_from(*o->card);
    indoor = std::find(o->card->keywords.begin(), o->card->keywords.end(), "indoor") !=
             o->card->keywords.end();
  } else {
    const StackCard* c = facing(s);
    if (c == nullptr || !c->card || !c->card->threat)
      return "Nothing with a Threat Rating is faced.\n";
    ChallengeCard pumped = *c->card;
    pumped.pumped += c->pumps;
    opp = *opponent_from(pumped);
    indoor = std::find(c->card->keywords.begin(), c->card->keywords.end(), "indoor") !=
             c->card->keywords.end();
  }
  const std::vector<Combatant> team = run_combatants(s, indoor);
  const CombatResult r = resolve_combat(team, opp);
  std::string out =
      fmt::format("Against {} {}/{} A{}{}:\n", opp.name.empty() ? "it" : opp.name, opp.attack,
                  opp.body, opp.armor, opp.armor_piercing ? " (armor-piercing)" : "");
  for (std::size_t i = 0; i < team.size(); ++i) {
    out += fmt::format("  {:<16} deals {:>2}   suggested: given {:>2}, takes {:>2}{}{}\n",
                       team[i].name, r.attack.dealt[i], r.suggested.raw[i], r.suggested.taken[i],
                       r.suggested.dies[i] ? " → dies" : "",
                       r.suggested.dies_end_of_turn[i] ? " → dies at end of turn" : "");
  }
  out += fmt::format("Team damage {} vs Body {}: {}. It deals {} to the team{}.\n", r.attack.total,
                     opp.body, r.attack.defeated ? "beaten" : "NOT beaten", r.incoming,
                     r.suggested.lost > 0 ? fmt::format(" ({} lost)", r.suggested.lost) : "");
  for (const auto& w : r.warnings)
    out += "  ! " + w + "\n";
  return out;
}

Console::Console(std::uint64_t seed) : SeededConsole(seed) {}

std::string Console::help() {
  return R"(SRTCG console — one command per line (player names are one word; runner and gear names
may have spaces; cards use the notation of `duels srtcg --help`):
 setup    player NAME [DECK [OBJECTIVES]]   goal N   reshuffle   start [NAME] (no NAME: random)
          badshuffle NAME
 turn     next (ends the phase)   place [OBJECTIVE]   reveal OBJECTIVE   payday [draw] [income N]
          heal RUNNER   repair RUNNER -> GEAR   discard [PLAYER] [N]   draw [PLAYER] [N]
 legwork  deploy RUNNER-SPEC   gear RUNNER -> GEAR-SPEC [confirm]   swap FROM -> TO -> GEAR
          challenge PLAYER [SPEC | bluff]   card KIND NAME COST [UPKEEP [INCOME]]
          special [PLAYER:] NAME [COST]   use RUNNER -> GEAR   recon RUNNER   pump RUNNER [N]
          biotech HEALER -> RUNNER, RUNNER
 run      run PLAYER -> RUNNER, RUNNER [/ INDIRECT, …]   order PLAYER, PLAYER   flip SPEC | bluff
          sleaze   fight [burst RUNNER[=D], …] [split TARGET=N, …]   combat (the numbers)
          beat   stopped   continue   pullout   take   activate RUNNER -> GEAR   pumpc [N]
          intercept PLAYER -> RUNNER, RUNNER
 effects  damage RUNNER -> N [ap] [guard RUNNER M]   kill RUNNER [frag]   trashgear RUNNER -> GEAR
          nuyen PLAYER ±N   rep PLAYER ±N   roll [d6±N]
 other    state   log   undo   redo   set /json/pointer VALUE   help   quit
RUNNER: a name, or PLAYER:NAME for another player's runner.
)";
}

Console::Reply Console::submit(const Command& command, std::string prefix) {
  return submit_line<Reply>(session_, {command}, std::move(prefix),
                            [](const State& s) { return render(s); });
}

Console::Reply Console::handle(std::string_view line) {
  if (!valid_utf8(line)) return Reply{"the line is not valid UTF-8 text\n", false, false};
  auto [cmd, rest] = head_rest(line);
  const State& s = session_.state();
  const auto bad = [](std::string why) { return Reply{why + "\n", false, false}; };
  if (auto common = session_word(cmd, help())) return *common;
  if (cmd == "combat") return Reply{combat_text(s), true, false};
  if (cmd == "roll") {
    int mod = 0;
    const std::string expr(trim(rest));
    if (!expr.empty()) {
      if (expr.size() < 2 || (expr.substr(0, 2) != "d6" && expr.substr(0, 2) != "D6") ||
          (expr.size() > 2 && !to_int(expr.substr(2), mod))) {
        return bad("roll [d6], roll d6+N, roll d6-N");
      }
    }
    const int face = rng_.uniform(6);
    return Reply{
        fmt::format("D6 = {}{} (seed {})\n", face,
                    mod != 0 ? fmt::format(" {:+d} → {}", mod, d6_result(face, mod)) : "", seed_),
        true, false};
  }

  const std::vector<std::string> words = split_list(rest, ' ');
  const std::vector<std::string> parts = arrows(rest);
  if (cmd == "player") {
    if (words.empty()) return bad("player NAME [DECK [OBJECTIVES]]");
    AddPlayer a;
    a.name = words[0];
    if (words.size() >= 2 && !to_int(words[1], a.deck)) return bad("DECK is a number of cards");
    if (words.size() >= 3 && !to_int(words[2], a.objectives)) {
      return bad("OBJECTIVES is a number of cards");
    }
    return submit(a);
  }
  if (cmd == "goal") {
    int n = 0;
    if (words.size() != 1 || !to_int(words[0], n)) return bad("goal N");
    return submit(Configure{n, s.settings.reshuffle_mid_turn});
  }
  if (cmd == "reshuffle") return submit(Configure{s.settings.goal, true});
  if (cmd == "start") {
    std::string prefix;
    const std::string first = first_player(rest, s.players, prefix);
    return submit(StartGame{first}, prefix);
  }
  if (cmd == "badshuffle") return submit(BadShuffle{rest});
  if (cmd == "next") return submit(NextPhase{});
  if (cmd == "place") return submit(PlaceObjective{rest});
  if (cmd == "reveal") return submit(RevealObjective{rest});
  if (cmd == "payday") {
    Payday p;
    for (std::size_t i = 0; i < words.size(); ++i) {
      if (words[i] == "draw") {
        p.draw_to_seven = true;
      } else if (words[i] == "income" && i + 1 < words.size() &&
                 to_int(words[i + 1], p.card_income)) {
        ++i;
      } else {
        return bad("payday [draw] [income N]");
      }
    }
    return submit(p);
  }
  if (cmd == "heal") return submit(Heal{rest});
  if (cmd == "repair") {
    if (parts.size() != 2) return bad("repair RUNNER -> GEAR");
    return submit(Repair{parts[0], parts[1]});
  }
  if (cmd == "deploy") return submit(Deploy{rest});
  if (cmd == "gear") {
    if (parts.size() != 2) return bad("gear RUNNER -> GEAR-SPEC [confirm]");
    std::string spec = parts[1];
    const bool confirm = take_last_word(spec, "confirm");
    return submit(AttachGear{parts[0], spec, confirm});
  }
  if (cmd == "swap") {
    if (parts.size() != 3) return bad("swap FROM -> TO -> GEAR");
    return submit(SwapGear{parts[0], parts[1], parts[2]});
  }
  if (cmd == "challenge") {
    if (words.empty()) return bad("challenge PLAYER [SPEC | bluff]");
    const std::string spec(trim(std::string_view(rest).substr(words[0].size())));
    if (spec == "bluff") return submit(PlayChallenge{words[0], "", true});
    return submit(PlayChallenge{words[0], spec, false});
  }
  if (cmd == "card") {
    if (words.size() < 3) return bad("card KIND NAME COST [UPKEEP [INCOME]]");
    std::string tail(trim(std::string_view(rest).substr(words[0].size())));
    std::vector<int> numbers;
    int n = 0;
    while (numbers.size() < 3 && take_last_int(tail, n))
      numbers.insert(numbers.begin(), n);
    if (numbers.empty() || tail.empty()) return bad("card KIND NAME COST [UPKEEP [INCOME]]");
    DeployCard d;
    d.kind = words[0];
    d.name = tail;
    d.cost = numbers[0];
    if (numbers.size() > 1) d.upkeep = numbers[1];
    if (numbers.size() > 2) d.income = numbers[2];
    return submit(d);
  }
  if (cmd == "special") {
    PlaySpecial p;
    std::string tail = rest;
    if (!words.empty() && words[0].size() > 1 && words[0].back() == ':') {
      p.player = words[0].substr(0, words[0].size() - 1);
      tail = std::string(trim(std::string_view(rest).substr(words[0].size())));
    }
    int cost = 0;
    if (take_last_int(tail, cost)) p.cost = cost;
    p.name = tail;
    return submit(p);
  }
  if (cmd == "use") {
    if (parts.size() != 2) return bad("use RUNNER -> GEAR");
    return submit(UseGear{parts[0], parts[1]});
  }
  if (cmd == "recon") return submit(Recon{rest});
  if (cmd == "pump") {
    std::string name = rest;
    int n = 1;
    if (!take_last_int(name, n)) n = 1;
    return submit(PumpRunner{name, n});
  }
  if (cmd == "pumpc") {
    int n = 1;
    if (!words.empty() && !to_int(words[0], n)) return bad("pumpc [N]");
    return submit(PumpChallenge{n});
  }
  if (cmd == "biotech") {
    if (parts.size() != 2) return bad("biotech HEALER -> RUNNER, RUNNER");
    return submit(Biotech{parts[0], split_list(parts[1], ',')});
  }
  if (cmd == "activate") {
    if (parts.size() != 2) return bad("activate RUNNER -> GEAR");
    return submit(Activate{parts[0], parts[1]});
  }
  if (cmd == "run") {
    if (parts.size() != 2) return bad("run PLAYER -> RUNNER, RUNNER [/ INDIRECT, …]");
    const auto halves = split_list(parts[1], '/');
    if (halves.empty()) return bad("name the team");
    StartRun r{parts[0], split_list(halves[0], ','), {}};
    if (halves.size() > 1) r.indirect = split_list(halves[1], ',');
    return submit(r);
  }
  if (cmd == "order") return submit(StackOrder{split_list(rest, ',')});
  if (cmd == "flip") {
    if (rest == "bluff") return submit(Reveal{"", true});
    return submit(Reveal{rest, false});
  }
  if (cmd == "sleaze") return submit(Sleaze{});
  if (cmd == "beat") return submit(Beat{});
  if (cmd == "stopped") return submit(Stopped{});
  if (cmd == "continue") return submit(Continue{});
  if (cmd == "pullout") return submit(PullOut{});
  if (cmd == "take") return submit(TakeObjective{});
  if (cmd == "fight") {
    Fight f;
    std::string prefix;
    // "burst A=4, B split X=2, Y=3"
    std::string text = rest;
    std::string burst_part;
    std::string split_part;
    const auto split_at = text.find("split");
    if (split_at != std::string::npos) {
      split_part = text.substr(split_at + 5);
      text = text.substr(0, split_at);
    }
    const auto burst_at = text.find("burst");
    if (burst_at != std::string::npos) {
      burst_part = text.substr(burst_at + 5);
    } else if (!trim(text).empty()) {
      return bad("fight [burst RUNNER[=D], …] [split TARGET=N, …]");
    }
    for (const std::string& b : split_list(burst_part, ',')) {
      const auto eq = b.find('=');
      BurstRoll roll;
      roll.runner = std::string(trim(b.substr(0, eq)));
      if (eq == std::string::npos) {
        roll.roll = rng_.uniform(6);
        prefix +=
            fmt::format("  Burst Fire D6 for {}: {} (seed {})\n", roll.runner, roll.roll, seed_);
      } else if (!to_int(b.substr(eq + 1), roll.roll)) {
        return bad(fmt::format("'{}': RUNNER=D with D the die", b));
      }
      f.bursts.push_back(roll);
    }
    for (const std::string& e : split_list(split_part, ',')) {
      const auto eq = e.find('=');
      SplitEntry entry;
      if (eq == std::string::npos || !to_int(e.substr(eq + 1), entry.points)) {
        return bad(fmt::format("'{}': TARGET=N with N the points given", e));
      }
      entry.target = std::string(trim(e.substr(0, eq)));
      f.split.push_back(entry);
    }
    return submit(f, prefix);
  }
  if (cmd == "intercept") {
    if (parts.size() != 2) return bad("intercept PLAYER -> RUNNER, RUNNER");
    return submit(Intercept{parts[0], split_list(parts[1], ','), {}, {}});
  }
  if (cmd == "damage") {
    if (parts.size() != 2) return bad("damage RUNNER -> N [ap] [guard RUNNER M]");
    Damage d;
    d.runner = parts[0];
    const auto w = split_list(parts[1], ' ');
    if (w.empty() || !to_int(w[0], d.amount))
      return bad("damage RUNNER -> N [ap] [guard RUNNER M]");
    std::size_t i = 1;
    if (i < w.size() && w[i] == "ap") {
      d.armor_piercing = true;
      ++i;
    }
    if (i < w.size() && w[i] == "guard") {
      std::string guard;
      for (std::size_t k = i + 1; k < w.size(); ++k)
        guard += (guard.empty() ? "" : " ") + w[k];
      if (!take_last_int(guard, d.guard_takes)) return bad("guard RUNNER M (M: points it takes)");
      d.guard = guard;
    } else if (i < w.size()) {
      return bad("damage RUNNER -> N [ap] [guard RUNNER M]");
    }
    return submit(d);
  }
  if (cmd == "kill") {
    std::string name = rest;
    const bool frag = take_last_word(name, "frag");
    return submit(Kill{name, frag});
  }
  if (cmd == "trashgear") {
    if (parts.size() != 2) return bad("trashgear RUNNER -> GEAR");
    return submit(TrashGear{parts[0], parts[1]});
  }
  if (cmd == "draw" || cmd == "discard") {
    std::string who;
    int n = 1;
    for (const auto& w : words) {
      if (!to_int(w, n)) who = w;
    }
    if (cmd == "draw") return submit(Draw{who, n});
    return submit(Discard{who, n});
  }
  if (cmd == "nuyen" || cmd == "rep") {
    int n = 0;
    if (words.size() != 2 || !to_int(words[1], n)) return bad(cmd + " PLAYER ±N");
    if (cmd == "nuyen") return submit(Nuyen{words[0], n});
    return submit(Reputation{words[0], n});
  }
  if (cmd == "set") {
    if (words.size() < 2) return bad("set /json/pointer VALUE (e.g. set /players/0/credstick 7)");
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

}  // namespace duels::cards::srtcg
