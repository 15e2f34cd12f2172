// Journals written before the table rules (format 1, made with the program as it was at commit
// fbc0a50 and kept in tests/match/fixtures/format1) still open and replay to the very state
// hashes that program printed after every event. Their terrain has no shape and says so.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "duels/engine.hpp"
#include "duels/table_rules.hpp"
#include "match/duels_match.hpp"
#include "test_paths.hpp"

namespace duels::match {
namespace {

const std::string kDir = duels_test::source_dir() + "/tests/match/fixtures/format1/";

struct Expected {
  std::string file;
  std::uint64_t seq = 0;
  std::string hash;
};

std::vector<Expected> expected_hashes() {
  std::ifstream in(kDir + "hashes.txt");
  std::vector<Expected> out;
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    std::istringstream ss(line);
    Expected e;
    ss >> e.file >> e.seq >> e.hash;
    out.push_back(e);
  }
  return out;
}

TEST(OldJournals, ReplayToTheSameHashesAfterEveryEvent) {
  const auto all = expected_hashes();
  ASSERT_GT(all.size(), 100U);
  std::string file;
  std::optional<JournalContents> contents;
  int checked = 0;
  for (const auto& e : all) {
    if (e.file != file) {
      file = e.file;
      contents = read_journal(kDir + file);
    }
    const Replay r = replay(*contents, e.seq);
    ASSERT_FALSE(r.error) << file << ": " << r.error->message();
    EXPECT_EQ(r.last_seq, e.seq) << file;
    EXPECT_EQ(fmt::format("{:016x}", state_hash(r.state)), e.hash) << file << " event " << e.seq;
    EXPECT_FALSE(r.state.table.measured) << file;
    ++checked;
  }
  EXPECT_EQ(checked, static_cast<int>(all.size()));
}

TEST(OldJournals, TheirTerrainIsReportedShapeless) {
  const Replay r = replay(read_journal(kDir + "scripted.jsonl"));
  ASSERT_FALSE(r.error);
  ASSERT_FALSE(r.state.terrain.empty());
  for (const auto& t : r.state.terrain)
    EXPECT_FALSE(t.shape.has_value());
  const auto notes = table_notes(r.state);
  ASSERT_GE(notes.size(), 2U);
  EXPECT_NE(notes[0].find("before format 2"), std::string::npos);
  EXPECT_EQ(notes[1], "terrain 'crate' has no shape (written before format 2): it blocks nothing");
}

// Resuming an old journal and playing on keeps its rules (and its format) to the end.
TEST(OldJournals, ResumeAndPlayOnKeepsTheOldRules) {
  const std::string path = ::testing::TempDir() + "old_resume.jsonl";
  std::remove(path.c_str());
  {
    std::ifstream in(kDir + "scripted.jsonl", std::ios::binary);
    std::ofstream out(path, std::ios::binary);
    out << in.rdbuf();
  }
  DuelsMatch m = DuelsMatch::resume(path);
  EXPECT_FALSE(m.state().table.measured);
  const auto before = state_hash(m.state());
  ASSERT_FALSE(m.undo());
  ASSERT_FALSE(m.redo());
  EXPECT_EQ(state_hash(m.state()), before);
  std::remove(path.c_str());
}

}  // namespace
}  // namespace duels::match
