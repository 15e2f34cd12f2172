// Crossfire sessions in journals: what a console does survives closing and reopening.
#include "match/crossfire_session.hpp"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "cards/crossfire/json.hpp"
#include "common/atomic_file.hpp"
#include "match/duels_match.hpp"
#include "match/encounters_session.hpp"

namespace duels::match {
namespace {

namespace cf = cards::crossfire;

TEST(CrossfireJournal, ResumesWhereTheConsoleStopped) {
  const std::string path = ::testing::TempDir() + "crossfire_session.jsonl";
  std::filesystem::remove(path);
  std::string hash_before;
  std::size_t log_before = 0;
  {
    cf::Console console;
    const auto attached = attach_crossfire_journal(path, console);
    for (const char* line :
         {"mission crossfire", "runner Cal Dwarf black,blue hp=5 cards=2 nuyen=5",
          "runner Rob Elf green,red hp=4 cards=4 nuyen=5", "start Cal",
          "flip Deckhead=2,green,1,red attack:1; Out of Ammo=black,3", "begin",
          "play Quick Shot=black; on Out of Ammo; type weapon", "apply"}) {
      const auto reply = console.handle(line);
      ASSERT_TRUE(reply.ok) << line << ": " << reply.text;
    }
    ASSERT_TRUE(console.handle("undo").ok);
    hash_before = cf::state_hash_hex(console.session().state());
    log_before = console.session().log().size();
  }
  const JournalContents c = read_journal(path);
  EXPECT_EQ(c.header.kind, "crossfire");
  EXPECT_EQ(c.entries.back().type, "undo");
  cf::Console again;
  const auto attached = attach_crossfire_journal(path, again);
  EXPECT_EQ(again.session().log().size(), log_before);
  EXPECT_EQ(cf::state_hash_hex(again.session().state()), hash_before);
  EXPECT_TRUE(again.session().can_redo());
  ASSERT_TRUE(again.handle("redo").ok);
  EXPECT_EQ(read_journal(path).entries.back().type, "redo");
  EXPECT_EQ(again.session().state().obstacles[1].card.cleared, 1);
}

// Issue 52, row 4: a typed line that makes several commands (`next`: take damage, end the turn)
// wrote one record per command, each synced alone, so a kill between them left half a line for
// the next open to apply. Now the line is one transaction: one write, and a reader that finds it
// cut short uses none of it.
namespace {
const char* const kToNext[] = {"mission crossfire",
                               "runner Cal Dwarf black,blue hp=5 cards=2 nuyen=5",
                               "runner Rob Elf green,red hp=4 cards=4 nuyen=5",
                               "start Cal",
                               "flip Deckhead=2,green,1,red attack:1; Out of Ammo=black,3",
                               "begin",
                               "play Quick Shot=black; on Out of Ammo; type weapon",
                               "apply"};

std::vector<std::string> lines_of(const std::string& path) {
  std::ifstream in(path);
  std::vector<std::string> out;
  for (std::string l; std::getline(in, l);)
    out.push_back(l);
  return out;
}
}  // namespace

TEST(CrossfireJournal, ALineOfSeveralCommandsIsOneTransaction) {
  const std::string path = ::testing::TempDir() + "crossfire_tx.jsonl";
  std::filesystem::remove(path);
  std::filesystem::remove(path + ".torn");
  std::string hash_before_next;
  std::size_t lines_before_next = 0;
  {
    cf::Console console;
    const auto attached = attach_crossfire_journal(path, console);
    for (const char* line : kToNext)
      ASSERT_TRUE(console.handle(line).ok) << line;
    hash_before_next = cf::state_hash_hex(console.session().state());
    lines_before_next = lines_of(path).size();
    ASSERT_TRUE(console.handle("next").ok);
  }
  const auto lines = lines_of(path);
  const std::size_t n = lines.size() - lines_before_next;
  ASSERT_GE(n, 2U) << "next made one command: the test needs a line of several";
  for (std::size_t k = 0; k < n; ++k) {
    EXPECT_NE(lines[lines_before_next + k].find(fmt::format("\"tx\":[{},{}]", k + 1, n)),
              std::string::npos)
        << lines[lines_before_next + k];
  }
  // A crash after all but the last record: the next open uses none of the line.
  {
    std::ofstream out(path, std::ios::trunc);
    for (std::size_t k = 0; k + 1 < lines.size(); ++k)
      out << lines[k] << "\n";
  }
  const JournalContents c = read_journal(path);
  EXPECT_TRUE(c.torn_tail);
  EXPECT_EQ(c.entries.size() + 1, lines_before_next);
  ASSERT_FALSE(c.warnings.empty());
  EXPECT_NE(c.warnings.front().find(fmt::format("after {} of its {} records", n - 1, n)),
            std::string::npos)
      << c.warnings.front();
  cf::Console again;
  const auto attached = attach_crossfire_journal(path, again);
  EXPECT_EQ(cf::state_hash_hex(again.session().state()), hash_before_next);
  EXPECT_EQ(lines_of(path).size(), lines_before_next) << "the half line is cut off";
  EXPECT_TRUE(std::filesystem::exists(path + ".torn")) << "and its bytes are kept";
  // A full disk in the middle of the line's write: nothing of it stays, and it plays on after.
  set_write_budget(40);
  EXPECT_THROW((void)again.handle("next"), DataException);
  set_write_budget(std::nullopt);
  EXPECT_EQ(lines_of(path).size(), lines_before_next) << "a torn line was left behind";
  EXPECT_EQ(cf::state_hash_hex(again.session().state()), hash_before_next);
  EXPECT_TRUE(again.handle("next").ok);
  EXPECT_EQ(lines_of(path).size(), lines_before_next + n);
}

TEST(CrossfireJournal, AnEncountersJournalIsNotACrossfireOne) {
  const std::string path = ::testing::TempDir() + "not_crossfire.jsonl";
  std::filesystem::remove(path);
  { (void)create_journal<EncountersGame>(path, {1}); }
  cf::Console console;
  EXPECT_THROW((void)attach_crossfire_journal(path, console), DataException);
}

}  // namespace
}  // namespace duels::match
