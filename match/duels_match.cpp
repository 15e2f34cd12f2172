#include "match/duels_match.hpp"

#include <fmt/format.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "duels/record.hpp"

namespace duels::match {

namespace {

std::string program_name() {
  return "duels 0.1.0";
}

GameState initial_state(const MatchSetup& setup, const std::string& where) {
  auto s = new_game(setup);
  if (!s)
    throw DataException({where, 1, "body.setup", "a playable set-up (" + s.error().reason + ")"});
  return *s;
}

}  // namespace

Replay replay(const JournalContents& contents, std::optional<std::uint64_t> at) {
  Replay r;
  if (contents.header.kind != kDuelsKind) {
    throw DataException(
        {"", 1, "kind",
         fmt::format("a Duels match journal (this one is '{}')", contents.header.kind)});
  }
  try {
    r.setup = setup_from_json(contents.header.body.at("setup"));
    r.seed = contents.header.body.at("seed").get<std::uint64_t>();
  } catch (const DataException& e) {
    throw DataException({"", 1, "body." + e.error().field, e.error().expected});
  } catch (const nlohmann::json::exception&) {
    throw DataException({"", 1, "body", "a set-up and a seed"});
  }
  r.state = initial_state(r.setup, "");
  r.warnings = contents.warnings;
  r.error = contents.error;
  auto rebuild_state = [&] {
    r.state = initial_state(r.setup, "");
    for (auto& step : r.steps)
      step.events = *duels::apply(r.state, step.command);
  };
  for (const auto& e : contents.entries) {
    if (at && e.seq > *at) break;
    auto fail = [&](const std::string& expected) {
      r.error = DataError{"", e.line, fmt::format("event {}", e.seq), expected};
    };
    if (e.type == "command") {
      Command c;
      try {
        c = command_from_json(e.data);
      } catch (const DataException& ex) {
        fail(fmt::format("a command ({}: {}); events before it are recovered", ex.error().field,
                         ex.error().expected));
        break;
      }
      auto applied = duels::apply(r.state, c);
      if (!applied) {
        fail(
            fmt::format("a command that is legal at this point (the rules refuse it: {}); events "
                        "before it are recovered",
                        applied.error().reason));
        break;
      }
      r.steps.push_back({e.seq, c, *applied});
      r.redo.clear();
    } else if (e.type == "undo") {
      if (r.steps.empty()) {
        fail("something to undo");
        break;
      }
      r.redo.push_back(std::move(r.steps.back()));
      r.steps.pop_back();
      rebuild_state();
    } else if (e.type == "redo") {
      if (r.redo.empty()) {
        fail("something to redo");
        break;
      }
      MatchStep step = std::move(r.redo.back());
      r.redo.pop_back();
      auto applied = duels::apply(r.state, step.command);
      if (!applied) {
        fail("a redo the rules accept");
        break;
      }
      step.events = *applied;
      r.steps.push_back(std::move(step));
    } else {
      fail(fmt::format("an entry type command, undo or redo (not '{}')", e.type));
      break;
    }
    r.last_seq = e.seq;
  }
  return r;
}

DuelsMatch DuelsMatch::create(const std::string& path, const MatchSetup& setup,
                              std::uint64_t seed) {
  const GameState start = initial_state(setup, path);
  JournalHeader h;
  h.program = program_name();
  h.created = utc_now();
  h.kind = kDuelsKind;
  h.body = {{"setup", setup_to_json(setup)}, {"seed", seed}};
  JournalWriter w = JournalWriter::create(path, h);
  Replay r;
  r.setup = setup;
  r.seed = seed;
  r.state = start;
  return DuelsMatch(std::move(r), std::move(w), false);
}

DuelsMatch DuelsMatch::resume(const std::string& path) {
  const JournalContents contents = read_journal(path);
  Replay r;
  try {
    r = replay(contents);
  } catch (const DataException& e) {
    DataError err = e.error();
    err.file = path;
    throw DataException(err);
  }
  if (r.error) r.error->file = path;
  // Keep exactly the entries replay used; anything after a damaged line is cut off (in a new
  // file, renamed over the old one).
  bool repaired = false;
  JournalContents prefix = contents;
  if (r.error) {
    // Recompute the intact prefix: header plus entries up to last_seq.
    std::ifstream in(path, std::ios::binary);
    std::string line;
    std::uint64_t bytes = 0;
    int line_no = 0;
    const int last_line =
        r.last_seq == 0 ? 1 : contents.entries[static_cast<std::size_t>(r.last_seq - 1)].line;
    while (std::getline(in, line) && line_no < last_line) {
      bytes += line.size() + 1;
      ++line_no;
    }
    prefix.valid_bytes = bytes;
    prefix.entries.resize(static_cast<std::size_t>(r.last_seq));
  }
  JournalWriter w = JournalWriter::append_to(path, prefix, &repaired);
  return DuelsMatch(std::move(r), std::move(w), repaired);
}

Expected<std::vector<Event>, Rejection> DuelsMatch::play(const Command& command) {
  GameState next = replay_.state;
  auto result = duels::apply(next, command);
  if (!result) return result.error();
  const JournalEntry e = writer_.append("command", command_to_json(command));
  replay_.state = std::move(next);
  replay_.steps.push_back({e.seq, command, *result});
  replay_.redo.clear();
  replay_.last_seq = e.seq;
  return result;
}

void DuelsMatch::rebuild() {
  auto s = new_game(replay_.setup);
  replay_.state = *s;
  for (auto& step : replay_.steps)
    step.events = *duels::apply(replay_.state, step.command);
}

std::optional<Rejection> DuelsMatch::undo() {
  if (replay_.steps.empty()) return Rejection{RejectCode::Other, "there is nothing to undo"};
  const JournalEntry e = writer_.append("undo", nlohmann::json::object());
  replay_.redo.push_back(std::move(replay_.steps.back()));
  replay_.steps.pop_back();
  replay_.last_seq = e.seq;
  rebuild();
  return std::nullopt;
}

std::optional<Rejection> DuelsMatch::redo() {
  if (replay_.redo.empty()) return Rejection{RejectCode::Other, "there is nothing to redo"};
  GameState next = replay_.state;
  auto result = duels::apply(next, replay_.redo.back().command);
  if (!result) return result.error();
  const JournalEntry e = writer_.append("redo", nlohmann::json::object());
  MatchStep step = std::move(replay_.redo.back());
  replay_.redo.pop_back();
  step.events = *result;
  replay_.state = std::move(next);
  replay_.steps.push_back(std::move(step));
  replay_.last_seq = e.seq;
  return std::nullopt;
}

std::string data_dir() {
  namespace fs = std::filesystem;
  if (const char* xdg = std::getenv("XDG_DATA_HOME"); xdg != nullptr && *xdg == '/') {
    return (fs::path(xdg) / "duels-companion").string();
  }
  const char* home = std::getenv("HOME");
  return (fs::path(home != nullptr ? home : ".") / ".local" / "share" / "duels-companion").string();
}

}  // namespace duels::match
