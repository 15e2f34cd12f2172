// `duels match new|play|resume|show|undo|list|autoplay` — matches kept in their journals.
#include <fmt/format.h>

#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>

#include "app/cli_util.hpp"
#include "app/command.hpp"
#include "dice/notation.hpp"
#include "dice/roller.hpp"
#include "duels/autoplay.hpp"
#include "duels/loadout.hpp"
#include "duels/scene.hpp"
#include "duels/serialize.hpp"
#include "duels/table_rules.hpp"
#include "match/crossfire_session.hpp"
#include "match/duels_match.hpp"
#include "match/encounters_session.hpp"
#include "match/index.hpp"
#include "match/positions.hpp"
#include "match/script.hpp"
#include "match/srtcg_session.hpp"

namespace duels::app {
namespace {

namespace fs = std::filesystem;
using match::DuelsMatch;

std::string default_journal_path(std::uint64_t seed) {
  const fs::path dir = fs::path(match::data_dir()) / "matches";
  fs::create_directories(dir);
  std::string stamp = match::utc_now();
  std::erase(stamp, ':');
  std::erase(stamp, '-');
  return (dir / fmt::format("{}-{}.jsonl", stamp, seed % 100000)).string();
}

// Keeps the match index in step with a journal. The journal is the truth, so a failure here is
// only a note: `duels match list` re-reads journals the index has missed.
void update_index(const std::string& journal) {
  try {
    match::MatchIndex index(match::default_index_path());
    if (!index.memory_only().empty()) {
      std::cerr << "note: the match index was not updated (" << index.memory_only() << ")\n";
      return;
    }
    index.record(fs::absolute(journal).string(), match::replay(match::read_journal(journal)));
  } catch (const std::exception& e) {
    std::cerr << "note: the match index was not updated (" << e.what() << ")\n";
  }
}

// The set-up asked for with --teams or --figures. A set-up the rules refuse (one team, gear
// twice, too many points) is the command line's mistake, so the error cites the flag, not
// line 1 of a journal that is never written.
MatchSetup setup_from_flags(const std::vector<std::string>& teams,
                            const std::vector<std::string>& figures) {
  if (teams.empty() == figures.empty()) throw UsageError("give either --teams or --figures");
  const AssetLibrary lib = load_library();
  const char* flag = teams.empty() ? "--figures" : "--teams";
  const MatchSetup setup =
      teams.empty() ? setup_from_loadouts(lib, figures, flag) : setup_from_teams(lib, teams);
  if (auto g = new_game(setup); !g) {
    throw DataException({"<command line>", 0, flag,
                         fmt::format("a set-up the rules allow ({})", g.error().reason)});
  }
  return setup;
}

// The table of a scene file (terrain and size), or a bare 60" x 60" table without one.
TableState table_of(const AssetLibrary& lib, const std::string& scene_file) {
  if (scene_file.empty()) return TableState{};
  const Scene scene =
      load_scene_file(scene_file, [&lib](std::string_view n) { return lib.find_figure(n); });
  return table_from_scene(scene);
}

constexpr const char* kFiguresHelp =
    "one team per value: FIGURE[+GEAR…], several figures of a team joined by ';' "
    "(\"Razor+stim-patch;Hex\"); values comma-separated or repeated";

// Repairs a journal of any kind this program writes.
match::RepairResult repair_any_journal(const std::string& path) {
  const std::string kind = match::read_journal(path).header.kind;
  if (kind == match::DuelsGame::kKind) return match::repair_journal<match::DuelsGame>(path);
  if (kind == match::SrtcgGame::kKind) return match::repair_journal<match::SrtcgGame>(path);
  if (kind == match::EncountersGame::kKind)
    return match::repair_journal<match::EncountersGame>(path);
  if (kind == match::CrossfireGame::kKind) return match::repair_journal<match::CrossfireGame>(path);
  if (kind == match::kPositionsKind) {
    // The window's position-override log: cut back to its last whole correction.
    return match::repair_journal_with(path, [&](const match::JournalContents& contents) {
      const match::PositionLogRead r = match::read_position_entries(contents, path);
      return match::JournalUse{r.last_seq, r.error};
    });
  }
  throw DataException({path, 1, "kind",
                       fmt::format("a journal kind duels, srtcg, encounters, crossfire or "
                                   "duels-positions (not '{}')",
                                   kind)});
}

// Names the journals an index refresh could not read: no match silently disappears from a list
// or a statistic.
// Says on stderr when the index could not be saved and was read from the journals instead.
void note_memory_only(const match::MatchIndex& index) {
  if (index.memory_only().empty()) return;
  std::cerr << fmt::format(
      "note: the match index could not be saved ({}); these were read from the journals in {} "
      "themselves\n",
      index.memory_only(), (fs::path(match::data_dir()) / "matches").string());
}

void print_skipped(const match::MatchIndex& index, std::ostream& out, const char* what) {
  note_memory_only(index);
  for (const auto& sk : index.skipped()) {
    out << fmt::format("Not {} (this journal could not be read): {}\n    {}\n", what, sk.journal,
                       sk.reason);
  }
}

nlohmann::json skipped_json(const match::MatchIndex& index) {
  nlohmann::json out = nlohmann::json::array();
  for (const auto& sk : index.skipped())
    out.push_back({{"journal", sk.journal}, {"reason", sk.reason}});
  return out;
}

void print_state(const GameState& s, std::ostream& out) {
  out << fmt::format("Round {} · {}", s.round, phase_name(s.phase));
  if (s.table.measured) {
    out << fmt::format(" · table {:g}\" × {:g}\"", s.table.bounds.width_in,
                       s.table.bounds.depth_in);
  }
  out << "\n";
  for (const auto& t : s.terrain) {
    out << fmt::format("  terrain {} ({})\n", t.id,
                       t.shape ? describe_shape(*t.shape) : std::string("no shape"));
  }
  for (const auto& n : table_notes(s))
    out << "  note: " << n << "\n";
  for (std::size_t t = 0; t < s.teams.size(); ++t) {
    out << fmt::format("  {} ({} points{}){}\n", s.teams[t].name,
                       s.team_points(static_cast<TeamId>(t)), s.teams[t].lost ? ", lost" : "",
                       static_cast<TeamId>(t) == s.alpha ? " — alpha" : "");
    for (FigureId f : s.team_figures(static_cast<TeamId>(t), false)) {
      const auto& fs = s.figures[static_cast<std::size_t>(f)];
      if (fs.eliminated) {
        out << fmt::format("    {:<10} eliminated\n", fs.def.name);
        continue;
      }
      std::vector<dice::Die> base;
      for (DieId id : fs.dice_in(DieZone::Base))
        base.push_back(fs.dice[static_cast<std::size_t>(id)].die);
      out << fmt::format(
          "    {:<10} Head {} / Weapon {} / Body {}  holes {}  base: {}{}\n", fs.def.name,
          fs.value(DialKind::Head), fs.value(DialKind::Weapon), fs.value(DialKind::Body),
          fs.bullet_holes(), base.empty() ? std::string("-") : dice::to_notation(base),
          fs.position ? fmt::format("  at ({:.1f}, {:.1f})", fs.position->x, fs.position->y)
                      : std::string());
    }
  }
  out << "> " << prompt(s) << "\n";
}

// Runs console lines against a match; returns false (after printing why) on the first error when
// `stop_on_error`.
struct Console {
  DuelsMatch& match;
  dice::Rng rng;
  std::ostream& out;

  bool run_line(const std::string& line, const std::string& where, bool stop_on_error) {
    auto parsed = match::parse_script_line(match.state(), line, rng);
    if (!parsed) {
      out << fmt::format("{}: {}\n", where, parsed.error());
      return !stop_on_error;
    }
    if (const auto* action = std::get_if<match::ConsoleAction>(&*parsed)) {
      switch (action->kind) {
        case match::ConsoleAction::Undo:
          if (auto r = match.undo())
            out << where << ": " << r->reason << "\n";
          else
            out << "undone.\n";
          return true;
        case match::ConsoleAction::Redo:
          if (auto r = match.redo())
            out << where << ": " << r->reason << "\n";
          else
            out << "redone.\n";
          return true;
        case match::ConsoleAction::Show:
          print_state(match.state(), out);
          return true;
        case match::ConsoleAction::Help:
          out << match::script_help();
          return true;
        case match::ConsoleAction::Auto: {
          AutoPlayer ai(match.seed());
          ai.set_step(match.history().last_seq);
          int played = 0;
          while (action->count == 0 || played < action->count) {
            auto cmd = ai.next(match.state());
            if (!cmd) break;
            auto r = match.play(*cmd);
            if (!r)
              throw std::runtime_error("the built-in opponent made an illegal move: " +
                                       r.error().reason);
            for (const auto& e : *r)
              out << "  " << e.text << "\n";
            ++played;
          }
          return true;
        }
        case match::ConsoleAction::Nothing:
          return true;
      }
    }
    const Command& cmd = std::get<Command>(*parsed);
    auto r = match.play(cmd);
    if (!r) {
      out << fmt::format("{}: not allowed: {}\n", where, r.error().reason);
      return !stop_on_error;
    }
    for (const auto& e : *r)
      out << (e.kind == "step" ? "      " : "  ") << e.text << "\n";
    return true;
  }
};

void add_match(CLI::App& root) {
  auto* m = root.add_subcommand("match", "Matches kept in an append-only journal: never lost");
  m->require_subcommand(1);

  // new
  {
    struct Opts {
      std::vector<std::string> teams, figures;
      std::optional<std::uint64_t> seed;
      std::string journal, scene;
    };
    auto o = std::make_shared<Opts>();
    auto* c = m->add_subcommand("new", "Start a match journal");
    c->add_option("--teams", o->teams, "sample teams from assets/teams, comma-separated")
        ->delimiter(',');
    c->add_option("--figures", o->figures, kFiguresHelp)->delimiter(',');
    c->add_option("--seed", o->seed, "seed for virtual rolls");
    c->add_option("--journal", o->journal, "journal file (default: in the data folder)");
    c->add_option("--scene", o->scene,
                  "scene file: the table's size and the terrain players place by name (e.g. "
                  "assets/scenes/demo_table.yaml); default a bare 60\" x 60\" table");
    c->callback([o] {
      MatchSetup setup = setup_from_flags(o->teams, o->figures);
      setup.table = table_of(load_library(), o->scene);
      const std::uint64_t seed = o->seed.value_or(dice::fresh_seed());
      const std::string path = o->journal.empty() ? default_journal_path(seed) : o->journal;
      if (fs::exists(path))
        throw UsageError(fmt::format("{} exists; a journal is never overwritten", path));
      DuelsMatch match = DuelsMatch::create(path, setup, seed);
      update_index(path);
      std::cout << fmt::format("New match journal: {}\n(seed {})\n", path, seed);
      print_state(match.state(), std::cout);
    });
  }
  // play --script
  {
    struct Opts {
      std::string journal, script;
    };
    auto o = std::make_shared<Opts>();
    auto* c = m->add_subcommand("play", "Play commands from a script file into a match journal");
    c->add_option("journal", o->journal, "match journal")->required();
    c->add_option("--script", o->script, "command file (see `duels match resume` then `help`)")
        ->required();
    c->callback([o] {
      std::ifstream in = open_text_file(o->script, "script file");
      DuelsMatch match = DuelsMatch::resume(o->journal);
      Console console{match, dice::Rng(match.seed() ^ match.history().last_seq), std::cout};
      std::string line;
      int n = 0;
      while (std::getline(in, line)) {
        ++n;
        if (!console.run_line(line, fmt::format("{}:{}", o->script, n), true)) {
          update_index(o->journal);
          throw DataException({o->script, n, "", "a command the rules accept here (see above)"});
        }
      }
      update_index(o->journal);
      std::cout << "> " << prompt(match.state()) << "\n";
    });
  }
  // resume (console)
  {
    auto path = std::make_shared<std::string>();
    auto* c = m->add_subcommand("resume", "Reopen a match and play it at the console (stdin)");
    c->add_option("journal", *path, "match journal")->required();
    c->callback([path] {
      DuelsMatch match = DuelsMatch::resume(*path);
      for (const auto& w : match.history().warnings)
        std::cerr << "note: " << w << "\n";
      if (match.repaired())
        std::cerr << "note: the torn last line was cut off (its bytes are kept in " << *path
                  << ".torn)\n";
      std::cout << fmt::format("Resumed after event {}. Type `help` for commands.\n",
                               match.history().last_seq);
      print_state(match.state(), std::cout);
      Console console{match, dice::Rng(match.seed() ^ (match.history().last_seq * 7919)),
                      std::cout};
      std::string line;
      int n = 0;
      while (std::getline(std::cin, line)) {
        console.run_line(line, fmt::format("line {}", ++n), false);
        std::cout << "> " << prompt(match.state()) << "\n";
      }
      update_index(*path);
    });
  }
  // show
  {
    struct Opts {
      std::string journal;
      std::optional<std::uint64_t> at;
      bool json = false;
    };
    auto o = std::make_shared<Opts>();
    auto* c = m->add_subcommand("show", "Replay a journal and print the state (and its hash)");
    c->add_option("journal", o->journal, "match journal")->required();
    c->add_option("--at", o->at, "stop after this event number");
    c->add_flag("--json", o->json, "print JSON");
    c->callback([o] {
      const auto contents = match::read_journal(o->journal);
      match::Replay r = match::replay(contents, o->at);
      if (r.error) r.error->file = o->journal;
      // Damage is never hidden: said on stderr and in the JSON's warnings.
      r.warnings = match::damage_notes(contents, r.error, r.last_seq, o->journal);
      for (const auto& w : r.warnings)
        std::cerr << "warning: " << w << "\n";
      const std::string hash = fmt::format("{:016x}", state_hash(r.state));
      if (o->json) {
        nlohmann::json log = nlohmann::json::array();
        for (const auto& step : r.steps) {
          for (const auto& e : step.events) {
            auto j = to_json(e);
            j["seq"] = step.seq;
            log.push_back(j);
          }
        }
        nlohmann::json out{{"event", r.last_seq},
                           {"hash", hash},
                           {"state", to_json(r.state)},
                           {"log", log},
                           {"warnings", r.warnings},
                           {"seed", r.seed},
                           {"journal_lines", contents.entry_lines}};
        if (r.error) out["error"] = r.error->message();
        out["notes"] = table_notes(r.state);
        std::cout << out.dump() << "\n";
        return;
      }
      if (r.error) std::cout << "stopped: " << r.error->message() << "\n";
      for (const auto& step : r.steps) {
        for (const auto& e : step.events) {
          std::cout << fmt::format("{:>5} {}{}\n", step.seq, e.kind == "step" ? "    " : "",
                                   e.text);
        }
      }
      std::cout << fmt::format("\nAfter event {} (state hash {}):\n", r.last_seq, hash);
      print_state(r.state, std::cout);
    });
  }
  // undo
  {
    auto path = std::make_shared<std::string>();
    auto* c = m->add_subcommand("undo", "Undo the last command (journaled: nothing is erased)");
    c->add_option("journal", *path, "match journal")->required();
    c->callback([path] {
      DuelsMatch match = DuelsMatch::resume(*path);
      if (auto r = match.undo()) throw IllegalAction(r->reason);
      update_index(*path);
      std::cout << "Undone.\n";
      print_state(match.state(), std::cout);
    });
  }
  // repair
  {
    auto path = std::make_shared<std::string>();
    auto* c = m->add_subcommand(
        "repair",
        "Cut a damaged journal back to the events that replay (after a complete, verified backup)");
    c->add_option("journal", *path, "journal (a match or a card-game session)")->required();
    c->callback([path] {
      const match::RepairResult r = repair_any_journal(*path);
      if (!r.changed) {
        std::cout << fmt::format("{} is intact ({} events); nothing to repair.\n", *path, r.kept);
        return;
      }
      std::cout << fmt::format(
          "Damage: {}\nKept events 1 to {}; cut {} line(s) after them.\nThe whole damaged journal "
          "is kept as {} (verified).\n",
          r.reason, r.kept, r.dropped_lines, r.backup);
      update_index(*path);
    });
  }
  // list
  {
    auto json = std::make_shared<bool>(false);
    auto* c = m->add_subcommand("list", "List the match journals in the data folder");
    c->add_flag("--json", *json, "print JSON");
    c->callback([json] {
      const fs::path dir = fs::path(match::data_dir()) / "matches";
      match::MatchIndex index(match::default_index_path());
      index.refresh(dir.string());
      const auto rows = index.list();
      if (*json) {
        nlohmann::json out = nlohmann::json::array();
        for (const auto& r : rows) {
          out.push_back({{"journal", r.journal},
                         {"teams", r.teams},
                         {"events", r.events},
                         {"round", r.round},
                         {"status", r.status}});
        }
        std::cout << out.dump() << "\n";
        print_skipped(index, std::cerr, "listed");
        return;
      }
      if (rows.empty() && index.skipped().empty())
        std::cout << fmt::format("No matches yet (journals live in {})\n", dir.string());
      for (const auto& r : rows) {
        std::cout << fmt::format("{}\n    {}  round {}  {} events  {}\n", r.journal, r.teams,
                                 r.round, r.events, r.status);
      }
      print_skipped(index, std::cout, "listed");
    });
  }
  // autoplay
  {
    struct Opts {
      std::vector<std::string> figures, teams;
      std::uint64_t seed = 1;
      std::string journal, scene;
      int max_commands = 1000000;
      bool quiet = false;
    };
    auto o = std::make_shared<Opts>();
    auto* c = m->add_subcommand(
        "autoplay",
        "Both sides played by the built-in opponent, into a journal (resumes if it exists)");
    c->add_option("--figures", o->figures, kFiguresHelp)->delimiter(',');
    c->add_option("--teams", o->teams, "sample teams, comma-separated")->delimiter(',');
    c->add_option("--seed", o->seed, "seed: the same seed plays the same match")->required();
    c->add_option("--journal", o->journal, "journal file")->required();
    c->add_option("--max-commands", o->max_commands, "stop after this many commands");
    c->add_option("--scene", o->scene, "scene file: table size and terrain catalogue");
    c->add_flag("--quiet", o->quiet, "print only the result");
    c->callback([o] {
      std::optional<DuelsMatch> match;
      if (fs::exists(o->journal)) {
        match.emplace(DuelsMatch::resume(o->journal));
        if (match->seed() != o->seed)
          throw UsageError(fmt::format("{} was started with seed {}", o->journal, match->seed()));
      } else {
        MatchSetup setup = setup_from_flags(o->teams, o->figures);
        setup.table = table_of(load_library(), o->scene);
        match.emplace(DuelsMatch::create(o->journal, setup, o->seed));
      }
      AutoPlayer ai(o->seed);
      ai.set_step(match->history().steps.size());
      int played = 0;
      while (played < o->max_commands) {
        auto cmd = ai.next(match->state());
        if (!cmd) break;
        auto r = match->play(*cmd);
        if (!r)
          throw std::runtime_error("the built-in opponent made an illegal move: " +
                                   r.error().reason);
        if (!o->quiet) {
          for (const auto& e : *r)
            std::cout << (e.kind == "step" ? "      " : "  ") << e.text << "\n";
        }
        ++played;
      }
      update_index(o->journal);
      const auto& s = match->state();
      std::cout << fmt::format("{} after {} events (state hash {:016x})\n", prompt(s),
                               match->history().last_seq, state_hash(s));
    });
  }
}

void add_stats(CLI::App& root) {
  auto json = std::make_shared<bool>(false);
  auto* c = root.add_subcommand(
      "stats", "Win rates, damage per attack by dice, Bad Karma and ace rates over all matches");
  c->add_flag("--json", *json, "print JSON");
  c->callback([json] {
    match::MatchIndex index(match::default_index_path());
    index.refresh((fs::path(match::data_dir()) / "matches").string());
    const match::Stats st = index.stats();
    auto rate = [](long long a, long long b) {
      return b == 0 ? 0.0 : static_cast<double>(a) / static_cast<double>(b);
    };
    if (*json) {
      auto rates = [](const std::vector<match::WinRate>& v) {
        nlohmann::json a = nlohmann::json::array();
        for (const auto& w : v)
          a.push_back({{"name", w.name}, {"games", w.games}, {"wins", w.wins}});
        return a;
      };
      nlohmann::json dice = nlohmann::json::array();
      for (const auto& d : st.by_dice) {
        dice.push_back({{"dice", d.dice},
                        {"attacks", d.attacks},
                        {"hit_rate", d.hit_rate},
                        {"mean_clicks", d.mean_clicks}});
      }
      std::cout << nlohmann::json{{"matches", st.matches},
                                  {"finished", st.finished},
                                  {"by_figure", rates(st.by_figure)},
                                  {"by_loadout", rates(st.by_loadout)},
                                  {"by_dice", dice},
                                  {"attacks", st.attacks},
                                  {"attack_dice", st.attack_dice},
                                  {"bad_karma_dice", st.bad_karma_dice},
                                  {"aces", st.aces},
                                  {"attacks_all_bad_karma", st.attacks_all_bad_karma},
                                  {"not_counted", skipped_json(index)}}
                       .dump()
                << "\n";
      note_memory_only(index);
      return;
    }
    std::cout << fmt::format("{} matches, {} finished\n", st.matches, st.finished);
    print_skipped(index, std::cout, "counted");
    std::cout << "\nWin rate by figure:\n";
    for (const auto& w : st.by_figure) {
      std::cout << fmt::format("  {:<28} {:>4} of {:<4} {:5.1f}%\n", w.name, w.wins, w.games,
                               100 * rate(w.wins, w.games));
    }
    std::cout << "Win rate by loadout:\n";
    for (const auto& w : st.by_loadout) {
      std::cout << fmt::format("  {:<50} {:>4} of {:<4} {:5.1f}%\n", w.name, w.wins, w.games,
                               100 * rate(w.wins, w.games));
    }
    std::cout << "Damage per attack by dice rolled:\n";
    for (const auto& d : st.by_dice) {
      std::cout << fmt::format("  {:<44} {:>5} attacks  hit {:5.1f}%  {:.2f} clicks\n", d.dice,
                               d.attacks, 100 * d.hit_rate, d.mean_clicks);
    }
    std::cout << fmt::format(
        "Bad Karma: {} of {} attack dice ({:.1f}%); {} of {} attacks lost every die\nAces: {} of "
        "{} attack dice ({:.1f}%)\n",
        st.bad_karma_dice, st.attack_dice, 100 * rate(st.bad_karma_dice, st.attack_dice),
        st.attacks_all_bad_karma, st.attacks, st.aces, st.attack_dice,
        100 * rate(st.aces, st.attack_dice));
  });
}

DUELS_COMMAND(40, add_match);
DUELS_COMMAND(41, add_stats);

}  // namespace
}  // namespace duels::app
