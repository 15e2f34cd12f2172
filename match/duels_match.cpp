#include "match/duels_match.hpp"

#include <cstdlib>
#include <filesystem>

#include <fmt/format.h>

#include "duels/record.hpp"

namespace duels::match {

nlohmann::json DuelsGame::start_to_json(const Start& s) {
  nlohmann::json j{{"setup", setup_to_json(s.setup)}, {"seed", s.seed}};
  if (s.setup.table.measured) j["format"] = kDuelsFormat;
  return j;
}

DuelsGame::Start DuelsGame::start_from_json(const nlohmann::json& j) {
  if (!j.is_object() || !j.contains("setup"))
    throw DataException({"", 1, "setup", "a match set-up"});
  if (!j.contains("seed") || !j["seed"].is_number_unsigned())
    throw DataException({"", 1, "seed", "a seed"});
  int format = 1;
  if (j.contains("format")) {
    if (!j["format"].is_number_unsigned() || j["format"].get<std::uint64_t>() < 2 ||
        j["format"].get<std::uint64_t>() > static_cast<std::uint64_t>(kDuelsFormat)) {
      throw DataException({"", 1, "format",
                           fmt::format("a Duels journal format from 1 to {} (a newer program "
                                       "wrote this one?)",
                                       kDuelsFormat)});
    }
    format = static_cast<int>(j["format"].get<std::uint64_t>());
  }
  Start start{setup_from_json(j["setup"]), j["seed"].get<std::uint64_t>()};
  if (format >= 2 && !start.setup.table.measured)
    throw DataException({"", 1, "setup.table", "the table of a format 2 journal"});
  if (format < 2) start.setup.table.measured = false;
  return start;
}

Expected<GameState, std::string> DuelsGame::initial(const Start& s) {
  auto g = new_game(s.setup);
  if (!g) return g.error().reason;
  return std::move(*g);
}

nlohmann::json DuelsGame::command_to_json(const Command& c) {
  return duels::command_to_json(c);
}

Command DuelsGame::command_from_json(const nlohmann::json& j) {
  return duels::command_from_json(j);
}

Replay replay(const JournalContents& contents, std::optional<std::uint64_t> at) {
  return replay_session<DuelsGame>(contents, at);
}

DuelsMatch DuelsMatch::create(const std::string& path, const MatchSetup& setup,
                              std::uint64_t seed) {
  return DuelsMatch(JournaledSession<DuelsGame>::create(path, DuelsStart{setup, seed}));
}

DuelsMatch DuelsMatch::resume(const std::string& path) {
  return DuelsMatch(JournaledSession<DuelsGame>::resume(path));
}

std::string data_dir() {
  namespace fs = std::filesystem;
  if (const char* xdg = std::getenv("XDG_DATA_HOME"); xdg != nullptr && *xdg == '/') {
    return (fs::path(xdg) / "duels-companion").string();
  }
  const char* home = std::getenv("HOME");
  return (fs::path(home != nullptr ? home : ".") / ".local" / "share" / "duels-companion").string();
}

std::string new_session_journal(const std::string& folder) {
  namespace fs = std::filesystem;
  std::string stamp = utc_now();
  std::erase(stamp, ':');
  std::erase(stamp, '-');
  const fs::path dir = fs::path(data_dir()) / folder;
  fs::create_directories(dir);
  for (int k = 0;; ++k) {
    const fs::path p = dir / (stamp + (k == 0 ? "" : "-" + std::to_string(k)) + ".jsonl");
    if (!fs::exists(p)) return p.string();
  }
}

}  // namespace duels::match
