// Kill test: an autoplayed match of over 10,000 commands is killed with SIGKILL at 50 random
// moments. After every kill the journal must replay to exactly the state of its last event (hash
// equality with an in-memory replay of the same seed), and the finished match must end exactly as
// an uninterrupted run.
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <thread>

#include "dice/roller.hpp"
#include "duels/assets.hpp"
#include "duels/autoplay.hpp"
#include "match/duels_match.hpp"
#include "test_paths.hpp"

namespace duels::match {
namespace {

namespace fs = std::filesystem;

#ifdef DUELS_SANITIZED
// Under the sanitizers (DUELS_SANITIZED, see CMakeLists.txt): a smaller match, the same kills.
constexpr int kFiguresPerTeam = 10;
constexpr double kRowDistance = 300;
constexpr std::size_t kMinCommands = 1000;
#else
constexpr int kFiguresPerTeam = 40;
constexpr double kRowDistance = 900;
constexpr std::size_t kMinCommands = 10000;
#endif

// Two teams of sample figures standing in two long rows far apart: a long match (they need many
// rounds to close in before the first elimination starts the victory countdown).
MatchSetup big_setup() {
  const auto lib = load_asset_library(duels_test::source_dir() + "/assets");
  MatchSetup m;
  const std::vector<std::string> names = {"Razor", "Hex", "Gridlock", "Bulldozer"};
  for (int t = 0; t < 2; ++t) {
    TeamSetup team{t == 0 ? "North" : "South", {}};
    for (int i = 0; i < kFiguresPerTeam; ++i) {
      FigureSetup fs{*lib.find_figure(names[static_cast<std::size_t>((i + t) % 4)]),
                     {},
                     Point{5 + 4.0 * i, t == 0 ? 5.0 : 5 + kRowDistance}};
      fs.figure.name += "-" + std::to_string(i + 1);
      team.figures.push_back(fs);
    }
    m.teams.push_back(team);
  }
  m.table.bounds = {10 + 4.0 * kFiguresPerTeam, 10 + kRowDistance};  // a long table
  return m;
}

pid_t spawn_autoplay(const std::string& journal, std::uint64_t seed) {
  const pid_t pid = fork();
  if (pid == 0) {
    const std::string s = std::to_string(seed);
    freopen("/dev/null", "w", stdout);
    execl(duels_test::binary().c_str(), duels_test::binary().c_str(), "match", "autoplay",
          "--journal", journal.c_str(), "--seed", s.c_str(), "--quiet",
          static_cast<char*>(nullptr));
    _exit(127);
  }
  return pid;
}

TEST(KillTest, FiftySigkillsLoseNothing) {
  const std::uint64_t seed = 4242;
  const MatchSetup setup = big_setup();
  // The uninterrupted reference, in memory: the hash after every command.
  std::vector<std::uint64_t> hashes;
  {
    GameState s = *new_game(setup);
    AutoPlayer ai(seed);
    hashes.push_back(state_hash(s));
    while (auto c = ai.next(s)) {
      ASSERT_TRUE(duels::apply(s, *c));
      hashes.push_back(state_hash(s));
      ASSERT_LT(hashes.size(), 200000U)
          << "the reference match does not end (round " << s.round << ")";
    }
    ASSERT_EQ(s.phase, Phase::GameOver);
  }
  const std::size_t commands = hashes.size() - 1;
  ASSERT_GE(commands, kMinCommands) << "the reference match is too short for the test";

  const fs::path dir = fs::path(::testing::TempDir()) / "kill_test";
  fs::remove_all(dir);
  fs::create_directories(dir);
  const std::string journal = (dir / "match.jsonl").string();
  { DuelsMatch::create(journal, setup, seed); }

  dice::Rng rng(20261121);
  int kills = 0;
  int torn = 0;
  std::uint64_t last_seen = 0;
  while (kills < 50) {
    const pid_t pid = spawn_autoplay(journal, seed);
    std::this_thread::sleep_for(std::chrono::milliseconds(10 + rng.uniform(70)));
    kill(pid, SIGKILL);
    int status = 0;
    waitpid(pid, &status, 0);
    ++kills;
    const JournalContents c = read_journal(journal);
    ASSERT_FALSE(c.error) << c.error->message();
    torn += c.torn_tail ? 1 : 0;
    const Replay r = replay(c);
    ASSERT_FALSE(r.error) << r.error->message();
    ASSERT_LE(r.steps.size(), commands);
    EXPECT_EQ(state_hash(r.state), hashes[r.steps.size()]) << "after kill " << kills;
    EXPECT_GE(r.last_seq, last_seen) << "an event was lost";
    last_seen = r.last_seq;
    if (WIFEXITED(status)) break;  // the match finished before the kill
  }
  EXPECT_EQ(kills, 50) << "the match finished before 50 kills";
  // Finish without interruption.
  const pid_t pid = spawn_autoplay(journal, seed);
  int status = 0;
  waitpid(pid, &status, 0);
  ASSERT_TRUE(WIFEXITED(status));
  ASSERT_EQ(WEXITSTATUS(status), 0);
  const Replay done = replay(read_journal(journal));
  EXPECT_EQ(done.steps.size(), commands);
  EXPECT_EQ(state_hash(done.state), hashes.back());
  EXPECT_EQ(done.state.phase, Phase::GameOver);
  RecordProperty("kills", kills);
  RecordProperty("torn_tails", torn);
  std::printf("kills: %d, torn last lines seen and repaired: %d, commands: %zu\n", kills, torn,
              commands);
}

}  // namespace
}  // namespace duels::match
