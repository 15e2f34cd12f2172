// Encounters sessions in journals: what a console does survives closing and reopening.
#include "match/encounters_session.hpp"

#include <gtest/gtest.h>

#include <filesystem>

#include "cards/encounters/json.hpp"
#include "match/duels_match.hpp"

namespace duels::match {
namespace {

namespace enc = cards::encounters;

TEST(EncountersJournal, ResumesWhereTheConsoleStopped) {
  const std::string path = ::testing::TempDir() + "encounters_session.jsonl";
  std::filesystem::remove(path);
  std::string hash_before;
  std::size_t log_before = 0;
  {
    enc::Console console(42);
    const auto attached = attach_encounters_journal(path, console, 42);
    for (const char* line :
         {"player Ann", "player Bob", "starter Ann Topshelf: wild 2,5", "starter Bob X: +1",
          "start Ann", "flip Ancients Captain: 7 metahuman", "roll 1,1,3,2,2,2"}) {
      const auto reply = console.handle(line);
      ASSERT_TRUE(reply.ok) << line << ": " << reply.text;
    }
    ASSERT_TRUE(console.handle("undo").ok);
    hash_before = enc::state_hash_hex(console.session().state());
    log_before = console.session().log().size();
  }
  const JournalContents c = read_journal(path);
  EXPECT_EQ(c.header.kind, "encounters");
  EXPECT_EQ(c.entries.back().type, "undo");
  enc::Console again(42);
  const auto attached = attach_encounters_journal(path, again, 0);
  EXPECT_EQ(attached.seed, 42U);
  EXPECT_EQ(again.session().log().size(), log_before);
  EXPECT_EQ(enc::state_hash_hex(again.session().state()), hash_before);
  EXPECT_TRUE(again.session().can_redo());
  ASSERT_TRUE(again.handle("redo").ok);
  EXPECT_EQ(read_journal(path).entries.back().type, "redo");
}

TEST(EncountersJournal, ADuelsJournalIsNotAnEncountersOne) {
  const std::string path = ::testing::TempDir() + "not_encounters.jsonl";
  std::filesystem::remove(path);
  { (void)create_journal<EncountersGame>(path, {1}); }
  EXPECT_THROW((void)replay(read_journal(path)), DataException);
}

}  // namespace
}  // namespace duels::match
