// SRTCG sessions in journals (match/srtcg_session): what a console does survives closing and
// reopening, undo and redo included.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#ifdef DUELS_HAS_BINARY
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <thread>

#include "dice/roller.hpp"
#endif

#include "cards/srtcg/json.hpp"
#include "match/duels_match.hpp"
#include "match/encounters_session.hpp"
#include "match/srtcg_session.hpp"
#include "test_paths.hpp"

namespace duels::match {
namespace {

namespace sr = cards::srtcg;

TEST(SrtcgJournal, ResumesWhereTheConsoleStopped) {
  const std::string path = ::testing::TempDir() + "srtcg_session.jsonl";
  std::filesystem::remove(path);
  std::string hash_before;
  std::size_t log_before = 0;
  {
    sr::Console console(42);
    const auto attached = attach_srtcg_journal(path, console, 42);
    for (const char* line :
         {"player Ann", "player Bob", "start Ann", "place Ann's Job: rep 30", "next", "payday",
          "next", "next", "deploy Sam: 6/4; cost 3; pump 1 +1/+0", "pump Sam",
          "set /players/1/credstick 9"}) {
      const auto reply = console.handle(line);
      ASSERT_TRUE(reply.ok) << line << ": " << reply.text;
    }
    ASSERT_TRUE(console.handle("undo").ok);
    hash_before = sr::state_hash_hex(console.session().state());
    log_before = console.session().log().size();
  }
  const JournalContents c = read_journal(path);
  EXPECT_EQ(c.header.kind, "srtcg");
  EXPECT_EQ(c.entries.back().type, "undo");
  sr::Console again(42);
  const auto attached = attach_srtcg_journal(path, again, 0);
  EXPECT_EQ(attached.seed, 42U);
  EXPECT_EQ(again.session().log().size(), log_before);
  EXPECT_EQ(sr::state_hash_hex(again.session().state()), hash_before);
  EXPECT_TRUE(again.session().can_redo());
  ASSERT_TRUE(again.handle("redo").ok);
  EXPECT_EQ(again.session().state().players[1].credstick, 9);
  EXPECT_EQ(read_journal(path).entries.back().type, "redo");
}

TEST(SrtcgJournal, JournaledSessionPlaysAndReplays) {
  const std::string path = ::testing::TempDir() + "srtcg_journaled.jsonl";
  std::filesystem::remove(path);
  {
    auto s = JournaledSession<SrtcgGame>::create(path, {7});
    ASSERT_TRUE(s.play(sr::AddPlayer{"Ann", 60, 6}));
    ASSERT_TRUE(s.play(sr::AddPlayer{"Bob", 60, 6}));
    EXPECT_FALSE(s.play(sr::StartGame{"Nobody"}));
    ASSERT_TRUE(s.play(sr::StartGame{"Bob"}));
    EXPECT_FALSE(s.undo().has_value());
  }
  auto again = JournaledSession<SrtcgGame>::resume(path);
  EXPECT_EQ(again.state().players.size(), 2U);
  EXPECT_EQ(again.state().phase, sr::Phase::Setup);
  EXPECT_FALSE(again.redo().has_value());
  EXPECT_EQ(again.state().active, 1);
}

TEST(SrtcgJournal, AnEncountersJournalIsNotAnSrtcgOne) {
  const std::string path = ::testing::TempDir() + "not_srtcg.jsonl";
  std::filesystem::remove(path);
  { (void)create_journal<EncountersGame>(path, {1}); }
  EXPECT_THROW((void)resume_journal<SrtcgGame>(path), DataException);
}

#ifdef DUELS_HAS_BINARY
// `duels srtcg play` killed with SIGKILL at random moments: after every kill the journal
// resumes to exactly the state an uninterrupted console had after as many accepted lines, the
// next run picks up where the journal stopped, and the finished session (undo included) ends as
// the uninterrupted one.
TEST(SrtcgJournal, PlaySurvivesSigkill) {
  std::vector<std::string> lines = {"player Ann", "player Bob", "start Ann"};
  for (int i = 1; i <= 300; ++i) {
    lines.push_back("nuyen Ann +1");
    lines.push_back("nuyen Bob +2");
    if (i % 5 == 0) lines.push_back("undo");
    if (i % 10 == 0) lines.push_back("redo");
  }
  // The reference: the hash after every line, in memory. Every line is accepted, so the
  // journal holds one entry per line.
  std::vector<std::string> hashes;
  {
    sr::Console console(11);
    hashes.push_back(sr::state_hash_hex(console.session().state()));
    for (const auto& line : lines) {
      ASSERT_TRUE(console.handle(line).ok) << line;
      hashes.push_back(sr::state_hash_hex(console.session().state()));
    }
  }
  const std::filesystem::path dir = std::filesystem::path(::testing::TempDir()) / "srtcg_kill_test";
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  const std::string journal = (dir / "play.jsonl").string();
  const std::string script = (dir / "script.txt").string();
  dice::Rng rng(2024);
  std::size_t done = 0;
  int kills = 0;
  int mid_session = 0;  // kills that landed after some lines and before the end
  for (int attempt = 0; attempt < 50 && done < lines.size(); ++attempt) {
    {
      std::ofstream out(script, std::ios::trunc);
      for (std::size_t k = done; k < lines.size(); ++k)
        out << lines[k] << "\n";
    }
    const pid_t pid = fork();
    ASSERT_GE(pid, 0);
    if (pid == 0) {
      (void)!freopen("/dev/null", "w", stdout);
      execl(duels_test::binary().c_str(), duels_test::binary().c_str(), "srtcg", "play",
            "--journal", journal.c_str(), "--seed", "11", "--script", script.c_str(), "--quiet",
            static_cast<char*>(nullptr));
      _exit(127);
    }
    // The last attempts run to the end; the others are killed once the journal has grown by a
    // random number of bytes (often in the middle of a line), whatever the machine's load.
    const bool kill_it = attempt < 30;
    if (kill_it) {
      const auto size_now = [&]() -> std::uintmax_t {
        std::error_code ec;
        const auto size = std::filesystem::file_size(journal, ec);
        return ec ? 0 : size;
      };
      const std::uintmax_t target = size_now() + static_cast<std::uintmax_t>(rng.uniform(3000));
      const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
      while (size_now() < target && std::chrono::steady_clock::now() < deadline) {
        // Ended on its own (the rest of the script was short)? Leave it unreaped: a zombie
        // keeps its pid, so the kill below still only reaches our own child.
        siginfo_t info{};
        if (waitid(P_PID, static_cast<id_t>(pid), &info, WEXITED | WNOHANG | WNOWAIT) == 0 &&
            info.si_pid == pid) {
          break;
        }
        std::this_thread::sleep_for(std::chrono::microseconds(200));
      }
      if (::kill(pid, SIGKILL) == 0) ++kills;
    }
    int status = 0;
    ASSERT_EQ(waitpid(pid, &status, 0), pid);
    if (!kill_it) {
      ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    }
    // Killed before the journal was written: nothing to resume yet.
    if (!std::filesystem::exists(journal) || std::filesystem::file_size(journal) == 0) {
      std::filesystem::remove(journal);
      continue;
    }
    // Resume as the next run would, and compare with the reference.
    sr::Console resumed(0);
    const auto attached = attach_srtcg_journal(journal, resumed, 0);
    EXPECT_EQ(attached.seed, 11U);
    const std::size_t entries = read_journal(journal).entries.size();
    ASSERT_LE(entries, lines.size());
    ASSERT_GE(entries, done) << "a kill lost journaled lines";
    EXPECT_EQ(sr::state_hash_hex(resumed.session().state()), hashes[entries])
        << "after " << entries << " lines";
    if (kill_it && entries > done && entries < lines.size()) ++mid_session;
    done = entries;
  }
  EXPECT_GE(kills, 10);
  EXPECT_GE(mid_session, 15);
  ASSERT_EQ(done, lines.size());
  // Undo still works on the resumed session: one line back.
  sr::Console last(0);
  const auto attached = attach_srtcg_journal(journal, last, 0);
  ASSERT_TRUE(last.handle("undo").ok);
  sr::Console reference(11);
  for (const auto& line : lines)
    ASSERT_TRUE(reference.handle(line).ok);
  ASSERT_TRUE(reference.handle("undo").ok);
  EXPECT_EQ(sr::state_hash_hex(last.session().state()),
            sr::state_hash_hex(reference.session().state()));
}
#endif

}  // namespace
}  // namespace duels::match
