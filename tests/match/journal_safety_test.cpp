// "Nothing lost, nothing crashes" for journals (issue #17): one writer per journal, damage never
// hidden nor silently cut, repairs only after a complete verified backup, nothing created from
// bad input, and full disks (injected) that change nothing.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "cards/encounters/console.hpp"
#include "cards/srtcg/console.hpp"
#include "common/atomic_file.hpp"
#include "duels/assets.hpp"
#include "duels/autoplay.hpp"
#include "duels/loadout.hpp"
#include "files.hpp"
#include "match/duels_match.hpp"
#include "match/srtcg_session.hpp"
#include "test_paths.hpp"

namespace duels::match {
namespace {

using duels_test::damage_line;
using duels_test::slurp;
using duels_test::spit;

namespace fs = std::filesystem;

fs::path fresh_dir(const std::string& name) {
  const fs::path d = fs::path(::testing::TempDir()) / ("journal_safety_" + name);
  fs::remove_all(d);
  fs::create_directories(d);
  return d;
}

struct BudgetReset {
  ~BudgetReset() { set_write_budget(std::nullopt); }
};

MatchSetup sample_setup() {
  return setup_from_teams(load_asset_library(duels_test::source_dir() + "/assets"),
                          {"Street Team", "Arcane Team"});
}

void play_into(const std::string& path, int n, std::uint64_t seed = 7) {
  DuelsMatch m = DuelsMatch::create(path, sample_setup(), seed);
  AutoPlayer ai(seed);
  for (int i = 0; i < n; ++i) {
    auto c = ai.next(m.state());
    ASSERT_TRUE(c);
    ASSERT_TRUE(m.play(*c));
  }
}

std::string what_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const DataException& e) {
    return e.what();
  }
  return "";
}

TEST(OneWriter, ASecondWriterIsRefusedNamingTheHolder) {
  const fs::path d = fresh_dir("two_writers");
  const std::string path = (d / "m.jsonl").string();
  play_into(path, 5);
  DuelsMatch first = DuelsMatch::resume(path);
  const std::string msg = what_of([&] { (void)DuelsMatch::resume(path); });
  ASSERT_FALSE(msg.empty()) << "a second writer was let in";
  EXPECT_NE(msg.find(fmt::format("pid {}", ::getpid())), std::string::npos) << msg;
  EXPECT_NE(msg.find("one writer"), std::string::npos) << msg;
  // The first writer goes on; once it is closed, another may open the journal.
  AutoPlayer ai(7);
  ai.set_step(first.history().last_seq);
  ASSERT_TRUE(first.play(*ai.next(first.state())));
  { DuelsMatch done = std::move(first); }
  EXPECT_NO_THROW((void)DuelsMatch::resume(path));
  EXPECT_EQ(read_journal(path).entries.size(), 6U);
}

TEST(OneWriter, ANewJournalIsLockedFromTheStart) {
  const fs::path d = fresh_dir("new_locked");
  const std::string path = (d / "m.jsonl").string();
  DuelsMatch m = DuelsMatch::create(path, sample_setup(), 3);
  EXPECT_THROW((void)DuelsMatch::resume(path), DataException);
}

TEST(Damage, AWriterRefusesADamagedJournalAndChangesNothing) {
  const fs::path d = fresh_dir("refuse");
  const std::string path = (d / "m.jsonl").string();
  play_into(path, 40);
  damage_line(path, 21);  // event 20
  const std::string before = slurp(path);
  const std::string msg = what_of([&] { (void)DuelsMatch::resume(path); });
  ASSERT_FALSE(msg.empty()) << "a damaged journal was opened for writing (and silently cut)";
  EXPECT_NE(msg.find(":21: event 20"), std::string::npos) << msg;
  EXPECT_NE(msg.find("duels match repair"), std::string::npos) << msg;
  EXPECT_EQ(slurp(path), before) << "the journal was changed";
  EXPECT_FALSE(fs::exists(path + ".damaged"));
}

TEST(Damage, ReadersSayHowMuchTheyCover) {
  const fs::path d = fresh_dir("notes");
  const std::string path = (d / "m.jsonl").string();
  play_into(path, 40);
  EXPECT_TRUE(damage_notes(read_journal(path), std::nullopt, 40, path).empty());
  damage_line(path, 21);
  const JournalContents c = read_journal(path);
  const Replay r = replay(c);
  const auto notes = damage_notes(c, r.error, r.last_seq, path);
  ASSERT_EQ(notes.size(), 2U);
  EXPECT_NE(notes[0].find(path + ":21"), std::string::npos) << notes[0];
  EXPECT_NE(notes[1].find("events 1 to 19 of the 40 lines"), std::string::npos) << notes[1];
}

TEST(Damage, RepairKeepsACompleteVerifiedBackupThenCuts) {
  const fs::path d = fresh_dir("repair");
  const std::string path = (d / "m.jsonl").string();
  play_into(path, 40);
  damage_line(path, 21);
  const std::string original = slurp(path);
  const RepairResult r = repair_journal<DuelsGame>(path);
  EXPECT_TRUE(r.changed);
  EXPECT_EQ(r.kept, 19U);
  EXPECT_EQ(r.dropped_lines, 21U);
  EXPECT_EQ(r.backup, path + ".damaged");
  EXPECT_EQ(slurp(r.backup), original) << "the backup is not the complete original";
  const JournalContents c = read_journal(path);
  EXPECT_FALSE(c.error);
  EXPECT_EQ(c.entries.size(), 19U);
  EXPECT_EQ(c.file_bytes, c.valid_bytes);
  EXPECT_NO_THROW((void)DuelsMatch::resume(path));
  // A second repair of another damage keeps the first backup and makes a new one.
  damage_line(path, 11);
  const RepairResult again = repair_journal<DuelsGame>(path);
  EXPECT_EQ(again.backup, path + ".damaged-2");
  EXPECT_EQ(slurp(path + ".damaged"), original);
}

// Issue 52, row 2: repair decided what to keep from a read made before it took the lock, so a
// console that appended in between saw its reported-done events cut. Now it reads, decides and
// cuts under the journal's one-writer lock: no writer gets in while it decides.
TEST(Damage, RepairDecidesUnderTheJournalsLock) {
  const fs::path d = fresh_dir("repair_locked");
  const std::string path = (d / "m.jsonl").string();
  play_into(path, 12);
  spit(path, slurp(path) + "{\"seq\":13,\"type\":\"comm");  // a torn last line
  bool asked = false;
  const RepairResult r = repair_journal_with(path, [&](const JournalContents& contents) {
    asked = true;
    // A console opening the journal now is refused: its appends cannot fall between the read
    // and the cut.
    const std::string refused = what_of([&] { (void)DuelsMatch::resume(path); });
    EXPECT_NE(refused.find("a journal has one writer"), std::string::npos) << refused;
    const Replay replayed = replay(contents);
    return JournalUse{replayed.last_seq, replayed.error};
  });
  EXPECT_TRUE(asked);
  EXPECT_TRUE(r.changed);
  EXPECT_EQ(r.kept, 12U);
  // A console that appended before the repair took the lock is read, not cut.
  {
    DuelsMatch m = DuelsMatch::resume(path);
    AutoPlayer ai(7);
    ai.set_step(12);
    for (int i = 0; i < 4; ++i)
      ASSERT_TRUE(m.play(*ai.next(m.state())));
  }
  const RepairResult after = repair_journal<DuelsGame>(path);
  EXPECT_FALSE(after.changed);
  EXPECT_EQ(after.kept, 16U);
  EXPECT_EQ(read_journal(path).entries.size(), 16U);
}

TEST(Damage, RepairOnANearlyFullDiskChangesNothing) {
  BudgetReset reset;
  const fs::path d = fresh_dir("repair_full");
  const std::string path = (d / "m.jsonl").string();
  play_into(path, 40);
  damage_line(path, 21);
  const std::string original = slurp(path);
  set_write_budget(16 * 1024 > original.size() ? original.size() / 2 : 16 * 1024);
  const std::string msg = what_of([&] { (void)repair_journal<DuelsGame>(path); });
  set_write_budget(std::nullopt);
  ASSERT_FALSE(msg.empty()) << "the repair went ahead without a complete backup";
  EXPECT_NE(msg.find("complete backup"), std::string::npos) << msg;
  EXPECT_EQ(slurp(path), original);
  EXPECT_FALSE(fs::exists(path + ".damaged")) << "a partial backup was left";
  int files = 0;
  for ([[maybe_unused]] const auto& e : fs::directory_iterator(d))
    ++files;
  EXPECT_EQ(files, 1);
}

TEST(Damage, TornLastLineCutOnlyAfterItsBytesAreKept) {
  BudgetReset reset;
  const fs::path d = fresh_dir("torn");
  const std::string path = (d / "m.jsonl").string();
  play_into(path, 30);
  std::string text = slurp(path);
  text.resize(text.size() - 25);
  const std::string torn_line = text.substr(text.rfind('\n') + 1);
  spit(path, text);
  set_write_budget(10);  // no room to keep the torn bytes: nothing is cut
  EXPECT_THROW((void)DuelsMatch::resume(path), DataException);
  set_write_budget(std::nullopt);
  EXPECT_EQ(slurp(path), text);
  EXPECT_TRUE(slurp(path + ".torn").empty()) << "a partial record was left";
  {
    DuelsMatch m = DuelsMatch::resume(path);
    EXPECT_TRUE(m.repaired());
  }
  EXPECT_EQ(slurp(path), text.substr(0, text.size() - torn_line.size()));
  EXPECT_NE(slurp(path + ".torn").find(torn_line), std::string::npos);
}

TEST(FullDisk, AFailedAppendIsAnErrorAndKeepsEverythingBefore) {
  BudgetReset reset;
  const fs::path d = fresh_dir("append_full");
  const std::string path = (d / "m.jsonl").string();
  play_into(path, 10);
  DuelsMatch m = DuelsMatch::resume(path);
  AutoPlayer ai(7);
  ai.set_step(m.history().last_seq);
  set_write_budget(20);
  EXPECT_THROW((void)m.play(*ai.next(m.state())), DataException);
  set_write_budget(std::nullopt);
  const JournalContents c = read_journal(path);
  EXPECT_EQ(c.entries.size(), 10U);
  // Issue 52, row 10: the failed append is cut back before it is reported, so "nothing was
  // changed" is true: no torn line for the next open to find.
  EXPECT_FALSE(c.torn_tail);
  EXPECT_EQ(c.file_bytes, c.valid_bytes);
}

TEST(Create, NothingIsCreatedWhenTheHeaderCannotBeWritten) {
  BudgetReset reset;
  const fs::path d = fresh_dir("create");
  const std::string path = (d / "m.jsonl").string();
  // A figure name that is not UTF-8 cannot go into JSON: refused before any file exists.
  MatchSetup setup = sample_setup();
  setup.teams[0].figures[0].figure.name = "Ra\xffzor";
  const std::string msg = what_of([&] { (void)DuelsMatch::create(path, setup, 1); });
  EXPECT_NE(msg.find("JSON"), std::string::npos) << msg;
  EXPECT_FALSE(fs::exists(path)) << "a 0-byte journal was left behind";
  // A full disk while the header is written leaves nothing either.
  set_write_budget(10);
  EXPECT_THROW((void)DuelsMatch::create(path, sample_setup(), 1), DataException);
  set_write_budget(std::nullopt);
  EXPECT_FALSE(fs::exists(path));
  EXPECT_TRUE(fs::is_empty(d));
  EXPECT_NO_THROW((void)DuelsMatch::create(path, sample_setup(), 1));
}

TEST(Header, FieldsOfTheWrongTypeAreLocatedErrors) {
  const fs::path d = fresh_dir("header_types");
  const std::string path = (d / "m.jsonl").string();
  play_into(path, 3);
  const std::string text = slurp(path);
  const std::size_t nl = text.find('\n');
  for (const auto& [key, value] :
       std::vector<std::pair<std::string, nlohmann::json>>{{"program", 5},
                                                           {"kind", nlohmann::json::array()},
                                                           {"created", true},
                                                           {"body", "text"},
                                                           {"schema_version", 1e12}}) {
    auto h = nlohmann::json::parse(text.substr(0, nl));
    h[key] = value;
    spit(path, seal_line(h) + text.substr(nl));
    try {
      (void)replay(read_journal(path));
      ADD_FAILURE() << key << " of the wrong type was accepted";
    } catch (const DataException& e) {
      EXPECT_EQ(e.error().field, key) << e.what();
    } catch (const std::exception& e) {
      ADD_FAILURE() << key << ": a raw exception: " << e.what();
    }
  }
  // A body whose set-up has a field of the wrong type.
  auto h = nlohmann::json::parse(text.substr(0, nl));
  h["body"]["setup"]["teams"][0]["name"] = 42;
  spit(path, seal_line(h) + text.substr(nl));
  try {
    (void)replay(read_journal(path));
    ADD_FAILURE() << "a set-up of the wrong type was accepted";
  } catch (const DataException& e) {
    EXPECT_EQ(e.error().line, 1) << e.what();
  } catch (const std::exception& e) {
    ADD_FAILURE() << "a raw exception: " << e.what();
  }
}

// `set /players []` in a started game made every later line (and every resume) crash.
TEST(CardOverride, EmptyPlayersIsRefusedAndAnOldJournalWithItDoesNotCrash) {
  namespace sr = cards::srtcg;
  {
    sr::Console console(11);
    for (const char* line : {"player Ann", "player Bob", "start Ann"})
      ASSERT_TRUE(console.handle(line).ok) << line;
    const auto reply = console.handle("set /players []");
    EXPECT_FALSE(reply.ok) << reply.text;
    EXPECT_TRUE(console.handle("state").ok);
    EXPECT_EQ(console.session().state().players.size(), 2U);
  }
  // A journal written before the fix, with the override in it.
  const fs::path d = fresh_dir("override");
  const std::string path = (d / "s.jsonl").string();
  {
    sr::Console console(11);
    const auto attached = attach_srtcg_journal(path, console, 11);
    for (const char* line : {"player Ann", "player Bob", "start Ann"})
      ASSERT_TRUE(console.handle(line).ok) << line;
  }
  {
    auto resumed = resume_journal<SrtcgGame>(path);
    resumed.writer.append(
        "command",
        SrtcgGame::command_to_json(sr::Command{sr::Override{"/players", nlohmann::json::array()}}));
  }
  sr::Console console(11);
  const std::string msg = what_of([&] { (void)attach_srtcg_journal(path, console, 11); });
  EXPECT_NE(msg.find("event 4"), std::string::npos) << msg;
  EXPECT_NE(msg.find("duels match repair"), std::string::npos) << msg;
  // Repaired, it resumes before the override and plays on.
  EXPECT_TRUE(repair_journal<SrtcgGame>(path).changed);
  sr::Console again(11);
  const auto attached = attach_srtcg_journal(path, again, 11);
  EXPECT_EQ(again.session().state().players.size(), 2U);
  EXPECT_TRUE(again.handle("state").ok);
}

// Found by fuzz_card_consoles: with no players, `set /active 3` was accepted, and the next
// `player B` left a game whose active player is not a seat.
TEST(CardOverride, ActiveSeatWithoutPlayersIsRefused) {
  cards::srtcg::Console console(11);
  EXPECT_TRUE(console.handle("set /players []").ok);
  EXPECT_FALSE(console.handle("set /active 3").ok);
  EXPECT_TRUE(console.handle("player Bob").ok);
  EXPECT_EQ(console.session().state().active, 0);
  EXPECT_TRUE(console.handle("state").ok);
}

// Found by fuzz_card_consoles: a `set` value that is not UTF-8 threw a raw JSON exception out of
// the console (and could not have been journaled).
TEST(CardOverride, ValueNotUtf8IsRefused) {
  cards::srtcg::Console console(11);
  ASSERT_TRUE(console.handle("player Ann").ok);
  const auto reply = console.handle("set /players/0/name Ann\xab");
  EXPECT_FALSE(reply.ok);
  EXPECT_NE(reply.text.find("UTF-8"), std::string::npos) << reply.text;
}

// Found by fuzz_card_consoles (UBSan): `set /current 2e50` in the Crossfire console converted
// 2e50 to an int, which is undefined; 1.7 and 2^32 were silently read as 1 and 0. Every number in
// a card state is a whole number an int holds, or the override is refused.
TEST(CardOverride, NumbersAnIntCannotHoldAreRefused) {
  cards::srtcg::Console console(11);
  ASSERT_TRUE(console.handle("player Ann").ok);
  ASSERT_TRUE(console.handle("player Bob").ok);
  for (const char* value : {"2e50", "1.7", "4294967296", "-2147483649"}) {
    const auto reply = console.handle(std::string("set /active ") + value);
    EXPECT_FALSE(reply.ok) << value;
    EXPECT_NE(reply.text.find("a whole number from"), std::string::npos) << reply.text;
  }
  EXPECT_EQ(console.session().state().active, 0);
  EXPECT_TRUE(console.handle("set /active 1").ok);
  EXPECT_EQ(console.session().state().active, 1);
}

// Found by fuzz_card_consoles: the Encounters console took `player \xb3mob` (not UTF-8), and its
// `log` then threw a raw JSON exception (type_error.316) out of the console. Every card console
// refuses a line that is not UTF-8, as Crossfire's did.
TEST(CardConsoles, ALineThatIsNotUtf8IsRefusedByEveryGame) {
  const std::string line = "player \xb3mob";
  cards::encounters::Console encounters(11);
  cards::srtcg::Console srtcg(11);
  for (const auto& reply : {encounters.handle(line), srtcg.handle(line)}) {
    EXPECT_FALSE(reply.ok) << reply.text;
    EXPECT_NE(reply.text.find("not valid UTF-8"), std::string::npos) << reply.text;
  }
  EXPECT_TRUE(encounters.session().state().players.empty());
  EXPECT_TRUE(srtcg.session().state().players.empty());
  EXPECT_TRUE(encounters.handle("log").ok);
}

}  // namespace
}  // namespace duels::match
