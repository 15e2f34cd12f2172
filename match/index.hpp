#pragma once
/// @file The match index: a SQLite database summarising every journal (teams, result, every
/// attack), so `duels match list` and `duels stats` answer without replaying the journals.
///
/// The journals stay the truth: the index is a cache rebuilt from them. Each row remembers the
/// journal's size and modification time; a journal that changed since is re-read, alone.

#include <cstdint>
#include <string>
#include <vector>

#include "match/duels_match.hpp"

struct sqlite3;

namespace duels::match {

/// One match as listed.
struct MatchRow {
  std::string journal;
  std::string created;
  std::string teams;  ///< "Street Team vs Arcane Team"
  std::uint64_t events = 0;
  int round = 0;
  std::string status;  ///< "Street Team won", "turns", …
};

/// A win rate with its count.
struct WinRate {
  std::string name;  ///< figure name, or loadout "Razor+armored-jacket"
  int games = 0;
  int wins = 0;
};

/// Attacks grouped by the dice rolled.
struct DiceSetStats {
  std::string dice;  ///< notation, sorted
  int attacks = 0;
  double hit_rate = 0;
  double mean_clicks = 0;
};

/// What `duels stats` prints.
struct Stats {
  int matches = 0;
  int finished = 0;
  std::vector<WinRate> by_figure;
  std::vector<WinRate> by_loadout;
  std::vector<DiceSetStats> by_dice;
  long long attack_dice = 0;     ///< attack dice rolled
  long long bad_karma_dice = 0;  ///< of them, lost to Bad Karma
  long long aces = 0;            ///< of them, aces
  int attacks = 0;
  int attacks_all_bad_karma = 0;  ///< attacks that lost every die
};

/// A journal in the matches folder that could not be read (so it is neither listed nor
/// counted), and why.
struct SkippedJournal {
  std::string journal;
  std::string reason;
};

/// The index database.
class MatchIndex {
 public:
  /// Opens (creating if needed) the database at `db_path`. The index is only a cache of the
  /// journals: an unreadable or damaged database is set aside (as `db_path`.unreadable) and a new
  /// one started, which refresh() fills from the journals again; `rebuilt()` then says so.
  explicit MatchIndex(const std::string& db_path);
  ~MatchIndex();
  MatchIndex(const MatchIndex&) = delete;
  MatchIndex& operator=(const MatchIndex&) = delete;

  /// Stores a replayed journal's summary and attacks (replacing what was there).
  void record(const std::string& journal, const Replay& replay);
  /// Re-reads the journals in `folder` that are new or changed since they were indexed, and
  /// forgets those that are gone. Returns how many were (re)read. Journals it could not read
  /// are named in skipped(); other kinds of journal there (a window's position log) are left
  /// alone.
  int refresh(const std::string& folder);
  /// The journals the last refresh() could not read: what every list and statistic must name.
  [[nodiscard]] const std::vector<SkippedJournal>& skipped() const { return skipped_; }
  [[nodiscard]] std::vector<MatchRow> list() const;
  [[nodiscard]] Stats stats() const;
  /// The database was unreadable and was started again.
  [[nodiscard]] bool rebuilt() const { return rebuilt_; }
  /// Why the index is held in memory only, or empty when it is the file: a database that cannot
  /// be opened or written (a full disk, a read-only folder) is never a reason to list nothing;
  /// the journals of the folder are read into memory instead (those given with --journal
  /// elsewhere are then not listed), and every list and statistic says so.
  [[nodiscard]] const std::string& memory_only() const { return memory_only_; }

 private:
  void exec(const char* sql) const;
  void open_and_check(const std::string& db_path);
  void create_tables();
  void open_in_memory(const std::string& why);
  void switch_to_memory(const std::string& why);
  int refresh_once(const std::string& folder);
  void forget(const std::string& journal);
  sqlite3* db_ = nullptr;
  bool rebuilt_ = false;
  std::string memory_only_;
  std::vector<SkippedJournal> skipped_;
};

/// The default index location: data_dir()/index.sqlite.
std::string default_index_path();

}  // namespace duels::match
