#include "cards/encounters/console.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <charconv>

#include "cards/common/console.hpp"
#include "cards/common/text.hpp"
#include "cards/encounters/advisor.hpp"
#include "cards/encounters/json.hpp"
#include "cards/encounters/odds.hpp"
#include "common/json_depth.hpp"
#include "common/utf8.hpp"

namespace duels::cards::encounters {

namespace {

using text::arrow;
using text::head_rest;
using text::lower;
using text::split_list;
using text::to_int;
using text::trim;

constexpr std::size_t kShownWays = 10;

std::string card_list(const std::vector<Runner>& runners) {
  std::vector<std::string> parts;
  for (const Runner& r : runners) {
    std::string text = to_notation(r.card);
    if (!r.face_up) text += " [face down]";
    parts.push_back(text);
  }
  return fmt::format("{}", fmt::join(parts, " | "));
}

ValueMix mix_for(const State& s) {
  return s.seen_values.size() >= 8 ? mix_from_values(s.seen_values) : uniform_mix();
}

std::string mix_note(const State& s) {
  return s.seen_values.size() >= 8
             ? fmt::format("Encounter Values mix: the {} values seen so far", s.seen_values.size())
             : std::string(
                   "Encounter Values mix: uniform 1..12 (the values seen are used once 8 "
                   "are known)");
}

}  // namespace

std::string render(const State& s) {
  std::string out;
  if (s.phase == Phase::Setup) {
    out += "Setup";
    out += fmt::format(" · {}\n", s.settings.solo
                                      ? fmt::format("solo, 20¥ in {} turns", s.settings.turn_limit)
                                      : fmt::format("first to {}¥", s.settings.target_nuyen));
  } else {
    out += fmt::format("Turn {} · {}'s run · column {} · {}\n", s.turn_number,
                       s.players[static_cast<std::size_t>(s.active)].name, s.run.column,
                       phase_name(s.phase));
  }
  if (!s.districts.empty()) {
    out += fmt::format(
        "Districts (front first): {}{}{}\n", fmt::join(s.districts, ", "),
        s.district_frozen
            ? fmt::format(" · this turn: {}",
                          s.district_this_turn.empty() ? "ignored" : s.district_this_turn)
            : "",
        s.districts_need_shuffle ? " · SHUFFLE and enter the new order" : "");
  }
  if (s.pending_district_icons > 0) {
    out += fmt::format("Rotate-District icons pending: {}\n", s.pending_district_icons);
  }
  if (!s.run.tableau.empty()) {
    std::string cols;
    int col = 0;
    for (const Defeated& d : s.run.tableau) {
      if (d.column != col) {
        col = d.column;
        cols += fmt::format("{}col {}:", cols.empty() ? "" : " | ", col);
      }
      cols += fmt::format(" {}({}{})", d.card.name.empty() ? "?" : d.card.name, *d.card.value,
                          d.card.bonus_nuyen ? fmt::format(",+{}¥", d.card.bonus_nuyen) : "");
    }
    out += fmt::format("Tableau worth {}¥: {}\n", tableau_value(s.run), cols);
  }
  if (s.run.current) out += fmt::format("Encounter: {}\n", to_notation(*s.run.current));
  if (s.phase != Phase::Setup) {
    std::vector<std::string> dice;
    for (std::size_t i = 0; i < s.run.dice.size(); ++i) {
      const RunDie& d = s.run.dice[i];
      dice.push_back(fmt::format("{}:{}{}{}", i + 1,
                                 d.face == 0 ? std::string("-") : std::to_string(d.face),
                                 d.locked ? "*" : "", d.bonus ? "b" : ""));
    }
    out += fmt::format("Dice: {}  (* locked, b bonus)\n", fmt::join(dice, " "));
  }
  for (std::size_t i = 0; i < s.players.size(); ++i) {
    const Player& p = s.players[i];
    out += fmt::format("{} {} {}¥",
                       static_cast<int>(i) == s.active && s.phase != Phase::Setup ? ">" : " ",
                       p.name, p.nuyen);
    if (!p.megacorp.name.empty()) {
      out += fmt::format(" · {} ({}¥)", p.megacorp.name, p.megacorp.ability_cost);
    }
    if (!p.runners.empty()) out += " · " + card_list(p.runners);
    for (const RunnerCard& sp : p.specials)
      out += fmt::format(" · special {}", to_notation(sp));
    if (!p.tokens.empty()) out += fmt::format(" · tokens: {}", fmt::join(p.tokens, ", "));
    out += "\n";
  }
  if (!s.run.pending_retain.empty()) {
    out += fmt::format("Retain now for 3¥ (or they go at your next action): {}\n",
                       fmt::join(s.run.pending_retain, ", "));
  }
  if (s.must_discard) out += "Over the limit of five: discard a Shadowrunner now\n";
  if (s.phase == Phase::GameOver) {
    out += s.winner >= 0 ? fmt::format("Game over: {} wins\n",
                                       s.players[static_cast<std::size_t>(s.winner)].name)
                         : std::string("Game over\n");
  }
  return out;
}

std::string advise_text(const State& s, std::uint64_t seed) {
  AdvisorSettings settings;
  settings.mix = mix_for(s);
  Advisor advisor(settings);
  std::string out = mix_note(s) + "\n";
  const int c = s.run.column;
  const int u = unlocked_dice(s.run);
  const int b = tableau_value(s.run);
  switch (s.phase) {
    case Phase::Setup:
    case Phase::GameOver:
      return out + "Nothing to advise now.\n";
    case Phase::TurnStart:
    case Phase::MustFlip: {
      out += fmt::format(
          "A run from here (column {}, {} dice, {}¥ locked) is worth {:.2f}¥ on "
          "average; P(beat the next Encounter) {:.1f}%\n",
          c, u, b, advisor.push(c, u, b), 100 * advisor.p_beat(u));
      break;
    }
    case Phase::Encounter: {
      const EncounterCard& e = *s.run.current;
      const ExactOdds plain = plain_odds(u, *e.value);
      out += fmt::format("P(beat {} with {} dice, no cards) = {} = {:.4f}\n", *e.value, u,
                         plain.fraction(), plain.p());
      State rolled = s;
      rolled.phase = Phase::Rolled;
      for (RunDie& d : rolled.run.dice) {
        if (!d.locked) d.face = 1;
      }
      if (auto sq = match_query(rolled)) {
        if (auto with = odds_with_cards(u, sq->query)) {
          out += fmt::format("P(beat it with your cards)  = {} = {:.4f}\n", with->fraction(),
                             with->p());
        } else {
          out += fmt::format("P(beat it with your cards): not worked out, {}\n", with.error());
        }
      }
      break;
    }
    case Phase::Rolled: {
      auto sq = match_query(s);
      if (!sq) break;
      auto found = find_matches(sq->query);
      if (!found) return out + found.error() + "\n";
      if (found->solutions.empty()) return out + "No legal way: fail.\n";
      const LockAdvice lock = advise_lock(advisor, c, b, s.run.current->bonus_nuyen, *found, u);
      out += "Lock sizes (value of the point each leads to):\n";
      for (const LockOption& o : lock.options) {
        out +=
            fmt::format("  lock {} keep {}: {:.2f}¥{}\n", o.dice_locked, o.dice_left, o.value,
                        o.cards_used ? fmt::format(" (uses {} card{}, e.g. way {})", o.cards_used,
                                                   o.cards_used == 1 ? "" : "s", o.solution + 1)
                                     : fmt::format(" (no card, way {})", o.solution + 1));
      }
      out += "→ " + lock.why + "\n";
      break;
    }
    case Phase::Between: {
      const PushAdvice p = advise_push(advisor, c, u, b);
      out += fmt::format("Score {:.2f}¥ · push {} · {}\n→ {}: {}\n", p.score_value,
                         u > 0 ? fmt::format("{:.2f}¥", p.push_value) : std::string("-"),
                         p.escalate_value ? fmt::format("escalate {:.2f}¥", *p.escalate_value)
                                          : std::string("no escalation"),
                         p.verdict, p.why);
      const Player& me = s.players[static_cast<std::size_t>(s.active)];
      for (const std::string& name : s.run.pending_retain) {
        const auto it = std::find_if(me.runners.begin(), me.runners.end(),
                                     [&](const Runner& r) { return r.card.name == name; });
        if (it == me.runners.end()) continue;
        auto r = advise_retain(advisor, it->card, c, u, b, me.nuyen, {});
        if (r) out += fmt::format("Retain {}? {} → {}\n", name, r->why, r->retain ? "yes" : "no");
      }
      break;
    }
    case Phase::DatastealChoice: {
      const StealAdvice st = advise_steal(advisor, c, u, b);
      out += fmt::format("→ {}: {}\n", st.steal ? "Datasteal" : "fresh start", st.why);
      break;
    }
    case Phase::BurnChoice: {
      const Player& me = s.players[static_cast<std::size_t>(s.active)];
      double cheapest = 2;
      if (!me.runners.empty()) {
        cheapest = 1e9;
        for (const Runner& r : me.runners)
          cheapest = std::min<double>(cheapest, r.card.hire_cost);
      }
      const BurnAdvice bu = advise_burn(advisor, c, u, b, cheapest);
      out += fmt::format("→ {}: {}\n", bu.burn ? "burn" : "do not burn", bu.why);
      break;
    }
  }
  if (s.settings.solo && s.phase != Phase::GameOver) {
    dice::Rng rng(seed);
    const Player& me = s.players.front();
    const int left = s.settings.turn_limit - s.turn_number + (s.phase == Phase::TurnStart ? 1 : 0);
    const SoloPlan plan = plan_solo(advisor, me.nuyen, s.settings.target_nuyen, left, rng, 2000);
    out += fmt::format(
        "Solo: P(reach {}¥ within {} more turn{}) ≈ {:.1f}% (2000 simulated runs, "
        "seed {})\n",
        s.settings.target_nuyen, left, left == 1 ? "" : "s", 100 * plan.p_win, seed);
  }
  return out;
}

Console::Console(std::uint64_t seed) : SeededConsole(seed) {}

std::string Console::help() {
  return R"(Encounters console — one command per line (player names are one word):
 setup    player NAME [COST MEGACORP NAME]   target 20|30|40   solo [12|10]   cumulative
          districts A, B, C (front first)    decks E ED R RD   starter NAME SPEC
          nuyen NAME N                       start [NAME]      (no NAME: a random first player)
 turn     ignore RUNNER                      change RUNNER -> DISTRICT
          newdistrict DISTRICT (Mitsuhamma)  mega PLAYER       bonus [N]
 run      flip SPEC [-> NAME, NAME]          hire SPEC         decline SPEC      discard RUNNER
          roll [F,F,…] (no faces: seeded)    solve             defeat N (way N of solve)
          lock I,J[ / K,L] (die numbers)     fail              retain RUNNER
          score                              escalate          burn RUNNER       noburn
          steal                              fresh
 other    advise   odds   state   log   undo   redo   set /json/pointer VALUE   help   quit
SPEC: Shadowrunner "Topshelf: wild 2,5; metahuman: +1; red", Encounter "Vampire: 5 twice paracritter"
)";
}

Console::Reply Console::submit(const Command& command, std::string prefix) {
  return submit_line<Reply>(session_, {command}, std::move(prefix),
                            [](const State& s) { return render(s); });
}

Console::Reply Console::solve_text() {
  auto sq = match_query(session_.state());
  if (!sq) return Reply{sq.error().reason + "\n", false, false};
  auto found = find_matches(sq->query);
  if (!found) return Reply{found.error() + "\n", false, false};
  std::string out;
  if (!found->plain_match) out += "No plain match (without cards).\n";
  if (found->solutions.empty()) out += "No legal way: fail.\n";
  for (std::size_t i = 0; i < found->solutions.size() && i < kShownWays; ++i) {
    // Die numbers in the state's numbering, not the unlocked-dice numbering.
    Solution shown = found->solutions[i];
    const auto map = [&](int d) { return d < 0 ? d : sq->die_index[static_cast<std::size_t>(d)]; };
    for (auto& g : shown.groups)
      std::transform(g.begin(), g.end(), g.begin(), map);
    // The faces and values are read by finding each die in `dice`: renumber it with the rest.
    std::transform(shown.dice.begin(), shown.dice.end(), shown.dice.begin(), map);
    for (Step& st : shown.steps)
      st.die = map(st.die);
    out += fmt::format("{:>2}. {}\n", i + 1, describe(shown, sq->query));
  }
  if (found->found > kShownWays) {
    out += fmt::format("    … {} ways in all{}\n", found->found,
                       found->truncated ? " (search stopped at its limit)" : "");
  }
  for (const Unavailable& u : found->unavailable) {
    const RunnerCard& card = sq->query.cards[static_cast<std::size_t>(u.card)].card;
    out += fmt::format("    unavailable: {} '{}': {}\n", card.name,
                       to_notation(card.abilities[static_cast<std::size_t>(u.ability)]), u.reason);
  }
  return Reply{out, true, false};
}

Console::Reply Console::handle(std::string_view line) {
  if (!valid_utf8(line)) return Reply{"the line is not valid UTF-8 text\n", false, false};
  const auto [cmd, rest] = head_rest(line);
  const State& s = session_.state();
  const auto bad = [](std::string why) { return Reply{why + "\n", false, false}; };
  if (auto common = session_word(cmd, help())) return *common;
  if (cmd == "advise") return Reply{advise_text(s, seed_ + session_.log().size()), true, false};
  if (cmd == "odds") {
    if (s.phase != Phase::Encounter) return bad("odds are shown once an Encounter is revealed");
    return Reply{advise_text(s, seed_), true, false};
  }
  if (cmd == "solve") return solve_text();

  const std::vector<std::string> words = split_list(rest, ' ');
  if (cmd == "player") {
    if (words.empty()) return bad("player NAME [COST MEGACORP NAME]");
    AddPlayer a;
    a.name = words[0];
    if (words.size() >= 3) {
      if (!to_int(words[1], a.megacorp_cost)) return bad("player NAME COST MEGACORP NAME");
      std::vector<std::string> corp(words.begin() + 2, words.end());
      a.megacorp = fmt::format("{}", fmt::join(corp, " "));
    } else if (words.size() == 2) {
      return bad("player NAME COST MEGACORP NAME (the Megacorporation needs a cost and a name)");
    }
    return submit(a);
  }
  if (cmd == "nuyen") {
    int n = 0;
    if (words.size() != 2 || !to_int(words[1], n)) return bad("nuyen NAME N");
    const int pi = player_index(s, words[0]);
    if (pi < 0) return bad("no player named " + words[0]);
    return submit(Override{fmt::format("/players/{}/nuyen", pi), n});
  }
  if (cmd == "target" || cmd == "solo" || cmd == "cumulative") {
    Configure c{s.settings.target_nuyen, s.settings.solo, s.settings.turn_limit,
                s.settings.cumulative};
    int n = 0;
    if (cmd == "target") {
      if (words.size() != 1 || !to_int(words[0], n)) return bad("target 20|30|40");
      c.target_nuyen = n;
    } else if (cmd == "solo") {
      c.solo = true;
      c.turn_limit = 12;
      if (!words.empty() && (!to_int(words[0], n) || n < 1)) return bad("solo [12|10]");
      if (!words.empty()) c.turn_limit = n;
    } else {
      c.cumulative = true;
    }
    return submit(c);
  }
  if (cmd == "districts") return submit(SetDistricts{split_list(rest, ',')});
  if (cmd == "decks") {
    std::array<int, 4> n{};
    if (words.size() != 4)
      return bad("decks ENCOUNTER_DECK ENCOUNTER_DISCARD RUNNER_DECK RUNNER_DISCARD");
    for (std::size_t i = 0; i < 4; ++i) {
      if (!to_int(words[i], n[i])) return bad("decks needs four whole numbers");
    }
    return submit(SetDecks{n[0], n[1], n[2], n[3]});
  }
  if (cmd == "starter") {
    if (words.size() < 2) return bad("starter NAME SPEC");
    return submit(DealStarter{words[0], std::string(trim(rest.substr(words[0].size())))});
  }
  if (cmd == "start") {
    std::string prefix;
    const std::string first = first_player(rest, s.players, prefix);
    return submit(StartGame{first}, prefix);
  }
  if (cmd == "ignore") return submit(IgnoreDistrict{rest});
  if (cmd == "change") {
    auto sides = arrow(rest);
    if (!sides) return bad("change RUNNER -> DISTRICT");
    return submit(ChangeDistrict{sides->first, sides->second});
  }
  if (cmd == "newdistrict") return submit(MidTurnDistrict{rest});
  if (cmd == "flip") {
    if (auto sides = arrow(rest)) return submit(Flip{sides->first, split_list(sides->second, ',')});
    return submit(Flip{rest, {}});
  }
  if (cmd == "hire") return submit(Hire{rest, true});
  if (cmd == "decline") return submit(Hire{rest, false});
  if (cmd == "discard") return submit(DiscardRunner{rest});
  if (cmd == "bonus") {
    int n = 1;
    if (!words.empty() && !to_int(words[0], n)) return bad("bonus [N]");
    return submit(AddBonusDice{n});
  }
  if (cmd == "roll") {
    if (rest.empty()) {
      std::vector<int> faces(static_cast<std::size_t>(unlocked_dice(s.run)));
      for (int& f : faces)
        f = rng_.uniform(6);
      return submit(Roll{faces});
    }
    auto faces = parse_dice(rest, kMaxDice);
    if (!faces) return bad(faces.error().message());
    return submit(Roll{*faces});
  }
  if (cmd == "defeat") {
    int n = 0;
    if (words.size() != 1 || !to_int(words[0], n) || n < 1)
      return bad("defeat N (a way from solve)");
    auto sq = match_query(s);
    if (!sq) return bad(sq.error().reason);
    MatchQuery q = sq->query;
    q.max_solutions = static_cast<std::size_t>(n);
    auto found = find_matches(q);
    if (!found) return bad(found.error());
    if (static_cast<std::size_t>(n) > found->solutions.size()) {
      return bad(fmt::format("there {} only {} way{} (see solve)",
                             found->solutions.size() == 1 ? "is" : "are", found->solutions.size(),
                             found->solutions.size() == 1 ? "" : "s"));
    }
    return submit(defeat_command(*sq, found->solutions[static_cast<std::size_t>(n - 1)]));
  }
  if (cmd == "lock") {
    Defeat d;
    for (const std::string& group : split_list(rest, '/')) {
      std::vector<int> g;
      for (const std::string& w : split_list(group, ',')) {
        int k = 0;
        if (!to_int(w, k) || k < 1 || k > static_cast<int>(s.run.dice.size())) {
          return bad(fmt::format("'{}' is not a die number from 1 to {}", w, s.run.dice.size()));
        }
        g.push_back(k - 1);
      }
      d.groups.push_back(g);
    }
    if (d.groups.empty()) return bad("lock I,J (die numbers from state)");
    return submit(d);
  }
  if (cmd == "fail") return submit(Fail{});
  if (cmd == "retain") return submit(Retain{rest});
  if (cmd == "score") return submit(Score{});
  if (cmd == "escalate") return submit(Escalate{});
  if (cmd == "burn") return submit(Burn{rest});
  if (cmd == "noburn") return submit(DeclineBurn{});
  if (cmd == "steal") return submit(Datasteal{});
  if (cmd == "fresh") return submit(FreshStart{});
  if (cmd == "mega") return submit(UseMegacorp{rest});
  if (cmd == "set") {
    if (words.size() < 2) return bad("set /json/pointer VALUE (e.g. set /players/0/nuyen 7)");
    const std::string value_text(trim(rest.substr(words[0].size())));
    if (json_deeper_than(value_text)) {
      return bad(fmt::format("a value nested at most {} levels deep", kMaxJsonDepth));
    }
    nlohmann::json value = nlohmann::json::parse(value_text, nullptr, false);
    if (value.is_discarded()) value = value_text;  // a bare word is a string
    return submit(Override{words[0], value});
  }
  return bad(fmt::format("unknown command '{}' (try help)", cmd));
}

}  // namespace duels::cards::encounters
