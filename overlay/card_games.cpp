#include "overlay/card_games.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <stdexcept>

#include "cards/crossfire/json.hpp"
#include "cards/crossfire/metatypes.hpp"
#include "cards/crossfire/rules.hpp"
#include "cards/encounters/json.hpp"
#include "cards/encounters/match.hpp"
#include "cards/encounters/rules.hpp"
#include "cards/srtcg/json.hpp"
#include "cards/srtcg/state.hpp"
#include "dice/roller.hpp"
#include "match/crossfire_session.hpp"
#include "match/duels_match.hpp"
#include "match/encounters_session.hpp"
#include "match/journal.hpp"
#include "match/srtcg_session.hpp"

namespace duels::overlay {

namespace {

namespace fs = std::filesystem;

std::string lower(std::string s) {
  for (auto& c : s)
    c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

// The journal's path, made when absent.
std::string journal_or_new(const CardTableOptions& o, const std::string& game) {
  return o.journal.empty() ? new_card_journal(game) : o.journal;
}

// A tab's clicks, in the order they are shown.
struct Clicks {
  void add(CardAction::Kind kind, std::string label, std::string line, std::string group) {
    list.push_back({kind, std::move(label), std::move(line), std::move(group)});
  }
  void send(std::string label, std::string line, std::string group) {
    add(CardAction::Kind::Send, std::move(label), std::move(line), std::move(group));
  }
  void prefill(std::string label, std::string line, std::string group) {
    add(CardAction::Kind::Prefill, std::move(label), std::move(line), std::move(group));
  }
  std::vector<CardAction> list;
};

// A card game's console in a tab: what all three share. `Console` is the game's console (its
// session, its replies, its help); the game's render() is found next to its State.
template <class Console, class Attached>
class ConsoleTable : public CardTable {
 public:
  [[nodiscard]] std::string state_text() const override {
    return render(console_.session().state());
  }
  [[nodiscard]] std::string help() const override { return Console::help(); }
  [[nodiscard]] std::size_t commands() const override { return console_.session().log().size(); }

 protected:
  template <class... Args>
  explicit ConsoleTable(const CardTableOptions& o, const std::string& game, Args&&... args)
      : console_(std::forward<Args>(args)...) {
    journal_ = journal_or_new(o, game);
  }
  // The journal the console was attached to: its notes (resumed, a torn line dropped) first,
  // then the greeting.
  void attached(Attached a, const std::string& greeting) {
    attached_ = std::move(a);
    for (const auto& n : attached_.notes)
      note(n);
    note(greeting);
  }
  Reply handle(const std::string& line) override {
    const auto r = console_.handle(line);
    return {r.text, r.ok};
  }
  // A resumed session keeps the seed it started with (its rolls replay exactly).
  template <class Game>
  static std::uint64_t seed_for(const CardTableOptions& o) {
    return match::session_seed<Game>(o.journal, o.seed != 0 ? o.seed : dice::fresh_seed());
  }

  Console console_;
  Attached attached_;
};

// Encounters: the console of `duels encounters play`, journaled by match/encounters_session.
class EncountersTable final
    : public ConsoleTable<cards::encounters::Console, match::AttachedJournal> {
 public:
  explicit EncountersTable(const CardTableOptions& o)
      : ConsoleTable(o, "encounters", seed_for<match::EncountersGame>(o)) {
    attached(match::attach_encounters_journal(journal_, console_, console_.seed()),
             "Encounters session, seed " + std::to_string(console_.seed()) +
                 ". Type help for the commands.");
  }
  [[nodiscard]] std::string game() const override { return "Encounters"; }
  [[nodiscard]] std::vector<std::string> quick_words() const override {
    return {"advise", "odds", "solve", "roll", "log", "undo", "redo"};
  }
  [[nodiscard]] std::vector<CardAction> actions() const override {
    namespace enc = cards::encounters;
    const enc::State& s = console_.session().state();
    using K = CardAction::Kind;
    Clicks out;
    if (s.phase == enc::Phase::Setup || s.phase == enc::Phase::GameOver) return out.list;
    const enc::Player& me = s.players[static_cast<std::size_t>(s.active)];
    switch (s.phase) {
      case enc::Phase::TurnStart:
      case enc::Phase::MustFlip:
        out.prefill("flip…", "flip ", "turn");
        break;
      case enc::Phase::Encounter:
        // The physical dice: one click per face, by slot order.
        for (int f = 1; f <= 6; ++f)
          out.add(K::Face, fmt::format("face {}", f), std::to_string(f), "faces");
        if (!s.run.hired_this_encounter && me.nuyen >= 2) out.prefill("hire…", "hire ", "turn");
        out.send("bonus die", "bonus", "turn");
        break;
      case enc::Phase::Rolled: {
        for (std::size_t i = 0; i < s.run.dice.size(); ++i) {
          const enc::RunDie& d = s.run.dice[i];
          if (!d.locked) {
            out.add(K::Select, fmt::format("#{}={}", i + 1, d.face), std::to_string(i + 1), "dice");
          }
        }
        // The best ways to beat it (solve's first three), as one click each.
        if (auto sq = enc::match_query(s)) {
          enc::MatchQuery q = sq->query;
          q.max_solutions = 3;
          if (auto found = enc::find_matches(q)) {
            for (std::size_t k = 0; k < found->solutions.size(); ++k) {
              std::vector<std::string> parts;
              const enc::Solution& way = found->solutions[k];
              for (std::size_t d = 0; d < way.dice.size(); ++d) {
                parts.push_back(
                    fmt::format("#{}={}", sq->die_index[static_cast<std::size_t>(way.dice[d])] + 1,
                                way.values[d]));
              }
              out.send(fmt::format("match {}: {}{}", k + 1, fmt::join(parts, " "),
                                   way.steps.empty() ? "" : " (cards)"),
                       fmt::format("defeat {}", k + 1), "ways");
            }
          }
        }
        out.send("fail", "fail", "ways");
        out.add(K::WithSelected, "lock selected", "lock {}", "lock");
        break;
      }
      case enc::Phase::Between:
        for (const std::string& name : s.run.pending_retain)
          out.send(fmt::format("retain {} (3¥)", name), "retain " + name, "turn");
        out.send("score", "score", "turn");
        if (enc::unlocked_dice(s.run) == 0) out.send("escalate", "escalate", "turn");
        out.prefill("push: flip…", "flip ", "turn");
        break;
      case enc::Phase::BurnChoice:
        for (const enc::Runner& r : me.runners)
          out.send("burn " + r.card.name, "burn " + r.card.name, "turn");
        out.send("no burn", "noburn", "turn");
        break;
      case enc::Phase::DatastealChoice:
        out.send("Datasteal", "steal", "turn");
        out.send("fresh start", "fresh", "turn");
        break;
      default:
        break;
    }
    return out.list;
  }
  [[nodiscard]] int faces_wanted() const override {
    namespace enc = cards::encounters;
    const enc::State& s = console_.session().state();
    return s.phase == enc::Phase::Encounter ? enc::unlocked_dice(s.run) : 0;
  }
};

// Crossfire: the console of `duels crossfire play` (no dice), journaled by
// match/crossfire_session.
class CrossfireTable final
    : public ConsoleTable<cards::crossfire::Console, match::CrossfireJournal> {
 public:
  explicit CrossfireTable(const CardTableOptions& o) : ConsoleTable(o, "crossfire", metatypes(o)) {
    attached(match::attach_crossfire_journal(journal_, console_),
             "Crossfire session. Type help for the commands.");
  }
  [[nodiscard]] std::string game() const override { return "Crossfire"; }
  [[nodiscard]] std::vector<std::string> quick_words() const override {
    return {"best", "next", "allocate", "forecast", "log", "undo", "redo"};
  }
  [[nodiscard]] std::vector<CardAction> actions() const override {
    namespace cf = cards::crossfire;
    const cf::State& s = console_.session().state();
    Clicks out;
    switch (s.phase) {
      case cf::Phase::RoundStart:
        out.send("begin the round", "begin", "turn");
        break;
      case cf::Phase::SceneEnd:
        out.prefill("buy…", "buy ", "turn");
        out.send("pass", "pass", "turn");
        break;
      case cf::Phase::Turn:
        if (s.step == cf::TurnStep::Play) {
          out.prefill("play…", "play ", "turn");
          // Each played card onto each obstacle: one click.
          for (std::size_t i = 0; i < s.played.size(); ++i) {
            const cf::PlayedCard& p = s.played[i];
            if (p.applied) continue;
            for (const cf::Obstacle& o : s.obstacles) {
              if (o.id == p.target) continue;
              out.send(fmt::format("{} → {}", p.name, o.card.name),
                       fmt::format("place {}; on #{}", i + 1, o.id), "cards");
            }
          }
          out.send("apply damage", "apply", "turn");
        } else if (s.step == cf::TurnStep::TakeDamage) {
          out.send("take damage", "take", "turn");
        } else {
          out.prefill("buy…", "buy ", "turn");
          out.send("cycle market", "cycle", "turn");
          out.send("end turn", "end", "turn");
        }
        break;
      default:
        break;
    }
    return out.list;
  }

 private:
  static std::vector<cards::crossfire::Metatype> metatypes(const CardTableOptions& o) {
    if (o.crossfire_metatypes.empty()) return {};
    return cards::crossfire::load_metatypes(o.crossfire_metatypes);
  }
};

// SRTCG: the console of `duels srtcg play`, journaled by match/srtcg_session.
class SrtcgTable final : public ConsoleTable<cards::srtcg::Console, match::AttachedSrtcgJournal> {
 public:
  explicit SrtcgTable(const CardTableOptions& o)
      : ConsoleTable(o, "srtcg", seed_for<match::SrtcgGame>(o)) {
    attached(
        match::attach_srtcg_journal(journal_, console_, console_.seed()),
        "SRTCG session, seed " + std::to_string(console_.seed()) + ". Type help for the commands.");
  }
  [[nodiscard]] std::string game() const override { return "SRTCG"; }
  [[nodiscard]] std::vector<std::string> quick_words() const override {
    return {"next", "combat", "fight", "log", "undo", "redo"};
  }
  [[nodiscard]] std::vector<CardAction> actions() const override {
    namespace sr = cards::srtcg;
    const sr::State& s = console_.session().state();
    using K = CardAction::Kind;
    Clicks out;
    if (s.phase == sr::Phase::Setup) {
      out.prefill("player…", "player ", "turn");
      if (s.players.size() >= 2) {
        for (const sr::Player& p : s.players)
          out.send(p.name + " starts", "start " + p.name, "turn");
      }
      return out.list;
    }
    if (s.phase == sr::Phase::GameOver) return out.list;
    const sr::Player& me = s.players[static_cast<std::size_t>(s.active)];
    // The active player's runners that can be pumped now, one click a pump.
    const auto pumps = [&](const std::vector<std::string>& only) {
      for (const sr::Runner& r : me.runners) {
        if (r.card.pump.cost <= 0 || r.card.pump.cost > me.credstick) continue;
        if (!only.empty() && std::find(only.begin(), only.end(), r.card.name) == only.end())
          continue;
        out.send(fmt::format("pump {} ({}¥)", r.card.name, r.card.pump.cost), "pump " + r.card.name,
                 "pump");
      }
    };
    switch (s.phase) {
      case sr::Phase::Objective:
        out.prefill("place…", "place ", "turn");
        if (me.objective && !me.objective->revealed) out.prefill("reveal…", "reveal ", "turn");
        break;
      case sr::Phase::Credstick:
        if (!s.paid) {
          out.send("payday", "payday", "turn");
          out.send("payday, draw to 7", "payday draw", "turn");
        }
        break;
      case sr::Phase::Refresh:
        for (const sr::Runner& r : me.runners) {
          if (r.damage > 0 && !r.healed)
            out.send("heal " + r.card.name, "heal " + r.card.name, "turn");
        }
        break;
      case sr::Phase::Legwork:
        out.prefill("deploy…", "deploy ", "turn");
        for (const sr::Player& p : s.players) {
          if (p.objective)
            out.prefill(fmt::format("challenge {}…", p.name), "challenge " + p.name + " ", "turn");
        }
        pumps({});
        break;
      case sr::Phase::Shadowrun:
        if (!s.run.active) {
          if (s.ran) break;
          // The team: click runners, then the Objective to run.
          for (const sr::Runner& r : me.runners) {
            if (!r.turned) out.add(K::Select, "runner " + r.card.name, r.card.name, "team");
          }
          for (const sr::Player& p : s.players) {
            if (p.objective && p.objective->revealed) {
              out.add(K::WithSelected, fmt::format("run on {}'s Objective", p.name),
                      "run " + p.name + " -> {}", "run");
            }
          }
          pumps({});
          break;
        }
        switch (s.run.step) {
          case sr::RunStep::Reveal:
            out.prefill("flip…", "flip ", "run");
            out.send("flip: a bluff", "flip bluff", "run");
            break;
          case sr::RunStep::Face: {
            const sr::ChallengeCard* c = facing_card(s);
            if (c != nullptr && !c->sleaze.empty() && !s.run.alarm)
              out.send("sleaze", "sleaze", "run");
            if (c != nullptr && c->threat) out.send("fight", "fight", "run");
            out.send("beaten", "beat", "run");
            out.send("stopped", "stopped", "run");
            if (c != nullptr && c->pump.cost > 0) out.send("pump the Challenge", "pumpc", "run");
            pumps(s.run.team);
            for (const std::string& r : s.run.team)
              out.prefill(fmt::format("damage {}…", r), "damage " + r + " -> ", "damage");
            break;
          }
          case sr::RunStep::Decide:
            out.send("continue", "continue", "run");
            out.send("pull out", "pullout", "run");
            break;
          case sr::RunStep::Objective: {
            const auto& o = s.players[static_cast<std::size_t>(s.run.owner)].objective;
            if (o && o->card && o->card->threat && !s.run.objective_beaten) {
              out.send("fight", "fight", "run");
              pumps(s.run.team);
            } else {
              out.send("take the Objective", "take", "run");
            }
            out.send("pull out", "pullout", "run");
            break;
          }
        }
        break;
      case sr::Phase::End:
        if (me.hand > 7)
          out.send(fmt::format("discard {}", me.hand - 7), fmt::format("discard {}", me.hand - 7),
                   "turn");
        break;
      default:
        break;
    }
    if (!s.run.active) out.send("next phase", "next", "next");
    return out.list;
  }

 private:
  // The Challenge the run faces, when it has been entered.
  static const cards::srtcg::ChallengeCard* facing_card(const cards::srtcg::State& s) {
    const auto& o = s.players[static_cast<std::size_t>(s.run.owner)].objective;
    if (!o || s.run.stack >= static_cast<int>(s.run.order.size())) return nullptr;
    const auto& st =
        o->stacks[static_cast<std::size_t>(s.run.order[static_cast<std::size_t>(s.run.stack)])];
    return st.empty() || !st.back().card ? nullptr : &*st.back().card;
  }
};

}  // namespace

std::string with_selected(const CardAction& action, std::vector<std::string> selected) {
  const bool numbers = std::all_of(selected.begin(), selected.end(), [](const std::string& x) {
    return !x.empty() &&
           std::all_of(x.begin(), x.end(), [](unsigned char c) { return std::isdigit(c) != 0; });
  });
  if (numbers) {
    std::sort(selected.begin(), selected.end(), [](const std::string& a, const std::string& b) {
      return std::stoi(a) < std::stoi(b);
    });
  }
  std::string line = action.line;
  const auto at = line.find("{}");
  const std::string joined = fmt::format("{}", fmt::join(selected, ","));
  if (at == std::string::npos) return line + " " + joined;
  return line.replace(at, 2, joined);
}

bool CardTable::send(const std::string& line) {
  transcript_.push_back({"> " + line, true, true});
  ++version_;
  const Reply r = handle(line);
  std::string text = r.text;
  while (!text.empty() && (text.back() == '\n' || text.back() == ' '))
    text.pop_back();
  if (!text.empty()) note(text, r.ok);
  if (transcript_.size() > 2000) transcript_.erase(transcript_.begin(), transcript_.begin() + 500);
  return r.ok;
}

void CardTable::note(std::string text, bool ok) {
  transcript_.push_back({std::move(text), false, ok});
  ++version_;
}

std::vector<std::string> card_games() {
  return {"encounters", "crossfire", "srtcg"};
}

std::string new_card_journal(const std::string& game) {
  return match::new_session_journal(lower(game));
}

std::unique_ptr<CardTable> open_card_table(const std::string& game,
                                           const CardTableOptions& options) {
  const std::string g = lower(game);
  if (!options.journal.empty() && fs::path(options.journal).has_parent_path())
    fs::create_directories(fs::path(options.journal).parent_path());
  if (g == "encounters") return std::make_unique<EncountersTable>(options);
  if (g == "crossfire") return std::make_unique<CrossfireTable>(options);
  if (g == "srtcg") return std::make_unique<SrtcgTable>(options);
  throw std::invalid_argument("no card game '" + game + "' (encounters, crossfire, srtcg)");
}

}  // namespace duels::overlay
