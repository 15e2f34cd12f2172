#include "match/index.hpp"

#include <fmt/format.h>
#include <sqlite3.h>

#include <algorithm>
#include <filesystem>
#include <set>
#include <stdexcept>

#include "dice/notation.hpp"

namespace duels::match {

namespace {

namespace fs = std::filesystem;

// A failure of the index database itself (not of a journal): its SQLite code says whether the
// file is damaged (set it aside) or only cannot be written now (a full disk: work in memory).
struct IndexError : std::runtime_error {
  IndexError(sqlite3* db, int rc)
      : std::runtime_error(fmt::format("match index: {}",
                                       db != nullptr ? sqlite3_errmsg(db) : sqlite3_errstr(rc))),
        code(rc & 0xff) {}
  IndexError(const std::string& what, int rc) : std::runtime_error(what), code(rc) {}
  [[nodiscard]] bool damaged() const {
    return code == SQLITE_CORRUPT || code == SQLITE_NOTADB || code == SQLITE_ERROR;
  }
  int code;
};

// A prepared statement that finalizes itself.
class Stmt {
 public:
  Stmt(sqlite3* db, const char* sql) : db_(db) {
    if (const int rc = sqlite3_prepare_v2(db, sql, -1, &s_, nullptr); rc != SQLITE_OK) {
      throw IndexError(db, rc);
    }
  }
  ~Stmt() { sqlite3_finalize(s_); }
  Stmt(const Stmt&) = delete;
  Stmt& operator=(const Stmt&) = delete;
  Stmt& bind(int i, const std::string& v) {
    sqlite3_bind_text(s_, i, v.c_str(), static_cast<int>(v.size()), SQLITE_TRANSIENT);
    return *this;
  }
  Stmt& bind(int i, long long v) {
    sqlite3_bind_int64(s_, i, v);
    return *this;
  }
  Stmt& bind_null(int i) {
    sqlite3_bind_null(s_, i);
    return *this;
  }
  bool step() {
    const int rc = sqlite3_step(s_);
    if (rc == SQLITE_ROW) return true;
    if (rc == SQLITE_DONE) return false;
    throw IndexError(db_, rc);
  }
  void run() {
    step();
    sqlite3_reset(s_);
    sqlite3_clear_bindings(s_);
  }
  std::string text(int col) const {
    const auto* p = sqlite3_column_text(s_, col);
    return p == nullptr ? std::string() : std::string(reinterpret_cast<const char*>(p));
  }
  long long integer(int col) const { return sqlite3_column_int64(s_, col); }
  double real(int col) const { return sqlite3_column_double(s_, col); }

 private:
  sqlite3* db_;
  sqlite3_stmt* s_ = nullptr;
};

std::string loadout_of(const FigureSetup& f) {
  std::string s = f.figure.name;
  for (const auto& g : f.gear)
    s += "+" + g.id;
  return s;
}

long long mtime_of(const fs::path& p) {
  std::error_code ec;
  const auto t = fs::last_write_time(p, ec);
  return ec ? 0 : static_cast<long long>(t.time_since_epoch().count());
}

}  // namespace

std::string default_index_path() {
  return (fs::path(data_dir()) / "index.sqlite").string();
}

MatchIndex::MatchIndex(const std::string& db_path) {
  std::error_code ec;
  fs::create_directories(fs::path(db_path).parent_path(), ec);
  try {
    open_and_check(db_path);
    return;
  } catch (const IndexError& e) {
    sqlite3_close(db_);
    db_ = nullptr;
    if (!e.damaged()) {
      // It cannot be opened or written now (a full disk, a read-only folder): the journals are
      // the truth, so list from them in memory and say so.
      open_in_memory(e.what());
      return;
    }
  }
  // The journals are the truth and the index only a cache of them: set the damaged file aside
  // and start again (refresh() reads every journal back into it).
  fs::rename(db_path, db_path + ".unreadable", ec);
  if (ec) fs::remove(db_path, ec);
  for (const char* side : {"-wal", "-shm", "-journal"})
    fs::remove(db_path + side, ec);
  try {
    open_and_check(db_path);
    rebuilt_ = true;
  } catch (const IndexError& e) {
    sqlite3_close(db_);
    db_ = nullptr;
    open_in_memory(e.what());
  }
}

void MatchIndex::open_in_memory(const std::string& why) {
  memory_only_ = why;
  if (const int rc = sqlite3_open(":memory:", &db_); rc != SQLITE_OK)
    throw IndexError("match index: out of memory", rc);
  create_tables();
}

void MatchIndex::switch_to_memory(const std::string& why) {
  sqlite3_close(db_);
  db_ = nullptr;
  open_in_memory(why);
}

void MatchIndex::open_and_check(const std::string& db_path) {
  if (const int rc = sqlite3_open(db_path.c_str(), &db_); rc != SQLITE_OK) {
    throw IndexError(fmt::format("cannot open the match index {}: {}", db_path,
                                 db_ != nullptr ? sqlite3_errmsg(db_) : "out of memory"),
                     rc);
  }
  sqlite3_busy_timeout(db_, 2000);
  {
    Stmt check(db_, "PRAGMA quick_check;");
    if (!check.step() || check.text(0) != "ok")
      throw IndexError("match index: damaged (" + check.text(0) + ")", SQLITE_CORRUPT);
  }
  exec("PRAGMA journal_mode=WAL;");
  create_tables();
}

void MatchIndex::create_tables() {
  exec(R"(CREATE TABLE IF NOT EXISTS matches(
            journal TEXT PRIMARY KEY, created TEXT, teams TEXT, seed INTEGER, events INTEGER,
            round INTEGER, status TEXT, finished INTEGER, size INTEGER, mtime INTEGER);
          CREATE TABLE IF NOT EXISTS match_figures(
            journal TEXT, team TEXT, figure TEXT, loadout TEXT, won INTEGER);
          CREATE TABLE IF NOT EXISTS attacks(
            journal TEXT, n INTEGER, round INTEGER, attacker TEXT, target TEXT, dice TEXT,
            dice_count INTEGER, hit INTEGER, clicks INTEGER, bad_karma INTEGER, aces INTEGER);
          CREATE INDEX IF NOT EXISTS attacks_journal ON attacks(journal);
          CREATE INDEX IF NOT EXISTS figures_journal ON match_figures(journal);)");
  // A table of the wrong shape (an old or foreign file) fails here rather than in a query.
  Stmt(db_,
       "SELECT journal, created, teams, seed, events, round, status, finished, size, mtime "
       "FROM matches LIMIT 1")
      .step();
}

void MatchIndex::forget(const std::string& journal) {
  for (const char* table : {"matches", "match_figures", "attacks"}) {
    Stmt(db_, fmt::format("DELETE FROM {} WHERE journal = ?1", table).c_str())
        .bind(1, journal)
        .run();
  }
}

MatchIndex::~MatchIndex() {
  sqlite3_close(db_);
}

void MatchIndex::exec(const char* sql) const {
  char* err = nullptr;
  if (const int rc = sqlite3_exec(db_, sql, nullptr, nullptr, &err); rc != SQLITE_OK) {
    const std::string msg = err != nullptr ? err : sqlite3_errstr(rc);
    sqlite3_free(err);
    throw IndexError("match index: " + msg, rc & 0xff);
  }
}

void MatchIndex::record(const std::string& journal, const Replay& r) {
  exec("BEGIN IMMEDIATE;");
  try {
    for (const char* table : {"matches", "match_figures", "attacks"}) {
      Stmt(db_, fmt::format("DELETE FROM {} WHERE journal = ?1", table).c_str())
          .bind(1, journal)
          .run();
    }
    std::string teams;
    for (const auto& t : r.setup.teams)
      teams += (teams.empty() ? "" : " vs ") + t.name;
    const bool finished = r.state.phase == Phase::GameOver;
    std::string status =
        r.state.winner ? r.state.teams[static_cast<std::size_t>(*r.state.winner)].name + " won"
                       : std::string(phase_name(r.state.phase));
    // A damaged journal is listed as such (its events after the damage are not counted).
    if (r.error)
      status += fmt::format(" — damaged after event {} (duels match repair)", r.last_seq);
    std::error_code ec;
    const auto size = static_cast<long long>(fs::file_size(journal, ec));
    Stmt(db_, "INSERT INTO matches VALUES(?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)")
        .bind(1, journal)
        .bind(2, std::string())
        .bind(3, teams)
        .bind(4, static_cast<long long>(r.seed))
        .bind(5, static_cast<long long>(r.last_seq))
        .bind(6, r.state.round)
        .bind(7, status)
        .bind(8, finished ? 1 : 0)
        .bind(9, ec ? 0 : size)
        .bind(10, mtime_of(journal))
        .run();
    Stmt fig(db_, "INSERT INTO match_figures VALUES(?1, ?2, ?3, ?4, ?5)");
    for (std::size_t t = 0; t < r.setup.teams.size(); ++t) {
      for (const auto& f : r.setup.teams[t].figures) {
        fig.bind(1, journal)
            .bind(2, r.setup.teams[t].name)
            .bind(3, f.figure.name)
            .bind(4, loadout_of(f));
        if (finished && r.state.winner) {
          fig.bind(5, static_cast<long long>(*r.state.winner == static_cast<TeamId>(t) ? 1 : 0));
        } else {
          fig.bind_null(5);
        }
        fig.run();
      }
    }
    // Attacks: replay the steps and take each rolled attack as it happens.
    Stmt att(db_, "INSERT INTO attacks VALUES(?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11)");
    GameState s = *new_game(r.setup);
    for (const auto& step : r.steps) {
      const int before = s.attacks_rolled;
      (void)duels::apply(s, step.command);
      if (s.attacks_rolled == before || !s.last_attack) continue;
      const PendingAttack& p = *s.last_attack;
      std::vector<dice::Die> dice;
      int aces = 0;
      for (const auto& roll : p.input.attack) {
        dice.push_back(roll.die);
        aces += roll.is_ace() ? 1 : 0;
      }
      std::sort(dice.begin(), dice.end(), [](const dice::Die& a, const dice::Die& b) {
        return std::tie(a.colour, a.sides, a.ace) < std::tie(b.colour, b.sides, b.ace);
      });
      for (auto& d : dice)
        d.origin.clear();
      att.bind(1, journal)
          .bind(2, s.attacks_rolled)
          .bind(3, s.round)
          .bind(4, s.figures[static_cast<std::size_t>(p.attacker)].def.name)
          .bind(5, s.figures[static_cast<std::size_t>(p.target)].def.name)
          .bind(6, dice::to_notation(dice))
          .bind(7, static_cast<long long>(dice.size()))
          .bind(8, p.result.hit ? 1 : 0)
          .bind(9, p.result.clicks)
          .bind(10, static_cast<long long>(p.result.bad_karma.size()))
          .bind(11, aces)
          .run();
    }
    exec("COMMIT;");
  } catch (...) {
    sqlite3_exec(db_, "ROLLBACK;", nullptr, nullptr, nullptr);  // never hides the first error
    throw;
  }
}

int MatchIndex::refresh(const std::string& folder) {
  try {
    return refresh_once(folder);
  } catch (const IndexError& e) {
    if (!memory_only_.empty()) throw;
    // The index cannot be written (a full disk): the journals are the truth, read them again
    // into memory and say so.
    switch_to_memory(e.what());
    return refresh_once(folder);
  }
}

int MatchIndex::refresh_once(const std::string& folder) {
  skipped_.clear();
  std::set<std::string> present;
  int reread = 0;
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(folder, ec)) {
    if (e.path().extension() != ".jsonl") continue;
    const std::string path = e.path().string();
    present.insert(path);
    Stmt q(db_, "SELECT size, mtime FROM matches WHERE journal = ?1");
    q.bind(1, path);
    std::error_code sec;
    const auto size = static_cast<long long>(fs::file_size(e.path(), sec));
    if (q.step() && q.integer(0) == size && q.integer(1) == mtime_of(e.path())) continue;
    try {
      const JournalContents contents = read_journal(path);
      if (contents.header.kind != kDuelsKind) {
        forget(path);  // another kind of journal (a position log, a card game): not a match
        continue;
      }
      record(path, replay(contents));
      ++reread;
    } catch (const IndexError&) {
      throw;  // the index, not the journal
    } catch (const std::exception& ex) {
      // An unreadable journal is not a match to list or count: drop what was known of it, and
      // say so wherever matches are listed or counted.
      forget(path);
      skipped_.push_back({path, ex.what()});
    }
  }
  // Forget every journal that is gone, wherever it was (a journal given with --journal lives
  // outside the folder), and every one that is no longer a readable match.
  std::vector<std::string> gone;
  {
    Stmt all(db_, "SELECT journal FROM matches");
    while (all.step()) {
      const std::string j = all.text(0);
      std::error_code eec;
      if (present.count(j) == 0 && !fs::is_regular_file(j, eec)) gone.push_back(j);
    }
  }
  for (const auto& g : gone)
    forget(g);
  return reread;
}

std::vector<MatchRow> MatchIndex::list() const {
  std::vector<MatchRow> out;
  Stmt q(db_,
         "SELECT journal, created, teams, events, round, status FROM matches ORDER BY journal");
  while (q.step()) {
    out.push_back({q.text(0), q.text(1), q.text(2), static_cast<std::uint64_t>(q.integer(3)),
                   static_cast<int>(q.integer(4)), q.text(5)});
  }
  return out;
}

Stats MatchIndex::stats() const {
  Stats st;
  {
    Stmt q(db_, "SELECT COUNT(*), COALESCE(SUM(finished), 0) FROM matches");
    if (q.step()) {
      st.matches = static_cast<int>(q.integer(0));
      st.finished = static_cast<int>(q.integer(1));
    }
  }
  auto rates = [&](const char* column) {
    std::vector<WinRate> out;
    Stmt q(db_,
           fmt::format("SELECT {}, COUNT(*), SUM(won) FROM match_figures WHERE won IS NOT NULL "
                       "GROUP BY {} ORDER BY SUM(won) * 1.0 / COUNT(*) DESC, {}",
                       column, column, column)
               .c_str());
    while (q.step())
      out.push_back({q.text(0), static_cast<int>(q.integer(1)), static_cast<int>(q.integer(2))});
    return out;
  };
  st.by_figure = rates("figure");
  st.by_loadout = rates("loadout");
  {
    Stmt q(db_,
           "SELECT dice, COUNT(*), AVG(hit), AVG(clicks) FROM attacks GROUP BY dice ORDER BY "
           "COUNT(*) DESC, dice");
    while (q.step())
      st.by_dice.push_back({q.text(0), static_cast<int>(q.integer(1)), q.real(2), q.real(3)});
  }
  {
    Stmt q(db_,
           "SELECT COUNT(*), COALESCE(SUM(dice_count), 0), COALESCE(SUM(bad_karma), 0), "
           "COALESCE(SUM(aces), 0), COALESCE(SUM(bad_karma = dice_count AND aces = 0), 0) FROM "
           "attacks");
    if (q.step()) {
      st.attacks = static_cast<int>(q.integer(0));
      st.attack_dice = q.integer(1);
      st.bad_karma_dice = q.integer(2);
      st.aces = q.integer(3);
      st.attacks_all_bad_karma = static_cast<int>(q.integer(4));
    }
  }
  return st;
}

}  // namespace duels::match
