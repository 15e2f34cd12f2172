// Crossfire sessions in journals: what a console does survives closing and reopening.
#include "match/crossfire_session.hpp"

#include <gtest/gtest.h>

#include <filesystem>

#include "cards/crossfire/json.hpp"
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

TEST(CrossfireJournal, AnEncountersJournalIsNotACrossfireOne) {
  const std::string path = ::testing::TempDir() + "not_crossfire.jsonl";
  std::filesystem::remove(path);
  { (void)create_journal<EncountersGame>(path, {1}); }
  cf::Console console;
  EXPECT_THROW((void)attach_crossfire_journal(path, console), DataException);
}

}  // namespace
}  // namespace duels::match
