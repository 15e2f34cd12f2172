// The journal keeps every event: round trips, undo/redo, and each kind of damage with its own
// message, losing nothing before the damage.
#include "match/journal.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "duels/assets.hpp"
#include "duels/autoplay.hpp"
#include "duels/loadout.hpp"
#include "files.hpp"
#include "match/duels_match.hpp"
#include "test_paths.hpp"

namespace duels::match {
namespace {

using duels_test::slurp;
using duels_test::spit;

namespace fs = std::filesystem;

std::string temp_path(const std::string& name) {
  const fs::path dir = fs::path(::testing::TempDir()) / "journal_test";
  fs::create_directories(dir);
  const fs::path p = dir / name;
  fs::remove(p);
  fs::remove(p.string() + ".damaged");
  fs::remove(p.string() + ".torn");
  return p.string();
}

MatchSetup sample_setup() {
  return setup_from_teams(load_asset_library(duels_test::source_dir() + "/assets"),
                          {"Street Team", "Arcane Team"});
}

// Plays `n` commands of a seeded autoplayed match into a new journal; returns the hashes of the
// state after each command (index 0 = before any).
std::vector<std::uint64_t> play_into(const std::string& path, int n, std::uint64_t seed = 7) {
  DuelsMatch m = DuelsMatch::create(path, sample_setup(), seed);
  AutoPlayer ai(seed);
  std::vector<std::uint64_t> hashes{state_hash(m.state())};
  for (int i = 0; i < n; ++i) {
    auto c = ai.next(m.state());
    if (!c) break;
    EXPECT_TRUE(m.play(*c));
    hashes.push_back(state_hash(m.state()));
  }
  return hashes;
}

TEST(Journal, ReopenRebuildsTheSameState) {
  const auto path = temp_path("roundtrip.jsonl");
  const auto hashes = play_into(path, 60);
  const JournalContents c = read_journal(path);
  EXPECT_EQ(c.header.schema_version, kJournalSchemaVersion);
  EXPECT_EQ(c.header.kind, "duels");
  EXPECT_EQ(c.entries.size(), 60U);
  for (std::uint64_t at = 0; at <= 60; at += 7) {
    EXPECT_EQ(state_hash(replay(c, at).state), hashes[at]) << "at " << at;
  }
  EXPECT_EQ(state_hash(replay(c).state), hashes.back());
}

TEST(Journal, UndoAndRedoAreEntriesAndReplay) {
  const auto path = temp_path("undo.jsonl");
  const auto hashes = play_into(path, 20);
  {
    DuelsMatch m = DuelsMatch::resume(path);  // closed (its one-writer lock let go) at the brace
    EXPECT_EQ(state_hash(m.state()), hashes[20]);
    EXPECT_FALSE(m.undo());
    EXPECT_FALSE(m.undo());
    EXPECT_EQ(state_hash(m.state()), hashes[18]);
    EXPECT_FALSE(m.redo());
    EXPECT_EQ(state_hash(m.state()), hashes[19]);
  }
  const JournalContents c = read_journal(path);
  EXPECT_EQ(c.entries.size(), 23U);  // nothing erased: 20 commands, 2 undos, 1 redo
  EXPECT_EQ(c.entries[20].type, "undo");
  EXPECT_EQ(state_hash(replay(c).state), hashes[19]);
  // A new command after an undo drops the redo chain.
  DuelsMatch again = DuelsMatch::resume(path);
  EXPECT_FALSE(again.undo());
  AutoPlayer ai(99);
  ASSERT_TRUE(again.play(*ai.next(again.state())));
  EXPECT_TRUE(again.redo().has_value());
}

TEST(Journal, TornLastLineIsDroppedAndSaid) {
  const auto path = temp_path("torn.jsonl");
  const auto hashes = play_into(path, 30);
  std::string text = slurp(path);
  text.resize(text.size() - 25);  // cut the last line mid-way, as a power cut would
  spit(path, text);
  const JournalContents c = read_journal(path);
  EXPECT_TRUE(c.torn_tail);
  EXPECT_FALSE(c.error);
  ASSERT_EQ(c.warnings.size(), 1U);
  EXPECT_NE(c.warnings[0].find("cut off"), std::string::npos) << c.warnings[0];
  EXPECT_EQ(state_hash(replay(c).state), hashes[29]);
  // Resuming cuts the torn line (its bytes kept in .torn first) and continues.
  DuelsMatch m = DuelsMatch::resume(path);
  EXPECT_TRUE(m.repaired());
  EXPECT_TRUE(fs::exists(path + ".torn"));
  AutoPlayer ai(3);
  ASSERT_TRUE(m.play(*ai.next(m.state())));
  const JournalContents after = read_journal(path);
  EXPECT_FALSE(after.torn_tail);
  EXPECT_EQ(after.entries.size(), 30U);
}

TEST(Journal, FlippedByteMidFileStopsThereAndKeepsEverythingBefore) {
  const auto path = temp_path("flip.jsonl");
  const auto hashes = play_into(path, 40);
  std::string text = slurp(path);
  // Find line 21 (event 20) and flip a byte inside it.
  std::size_t pos = 0;
  for (int line = 1; line < 21; ++line)
    pos = text.find('\n', pos) + 1;
  text[pos + 10] = static_cast<char>(text[pos + 10] ^ 0x20);
  spit(path, text);
  const JournalContents c = read_journal(path);
  ASSERT_TRUE(c.error);
  EXPECT_EQ(c.error->line, 21);
  EXPECT_EQ(c.entries.size(), 19U);
  EXPECT_NE(c.error->message().find(":21: event 20"), std::string::npos) << c.error->message();
  EXPECT_NE(c.error->message().find("events 1 to 19"), std::string::npos) << c.error->message();
  EXPECT_EQ(state_hash(replay(c).state), hashes[19]);
}

TEST(Journal, TruncatedHeaderSaysThereIsNothingToRecover) {
  const auto path = temp_path("header.jsonl");
  play_into(path, 3);
  std::string text = slurp(path);
  spit(path, text.substr(0, text.find('\n') / 2));
  try {
    (void)read_journal(path);
    FAIL() << "no error";
  } catch (const DataException& e) {
    EXPECT_EQ(e.error().line, 1);
    EXPECT_EQ(e.error().field, "header");
    EXPECT_NE(std::string(e.what()).find("cut off"), std::string::npos) << e.what();
  }
}

std::string with_header_version(const std::string& text, int version) {
  const std::size_t nl = text.find('\n');
  auto h = nlohmann::json::parse(text.substr(0, nl));
  h["schema_version"] = version;
  h["program"] = "duels 9.0.0";
  return seal_line(h) + text.substr(nl);
}

TEST(Journal, NewerSchemaVersionAsksForAnUpdate) {
  const auto path = temp_path("newer.jsonl");
  play_into(path, 3);
  spit(path, with_header_version(slurp(path), kJournalSchemaVersion + 1));
  try {
    (void)read_journal(path);
    FAIL() << "no error";
  } catch (const DataException& e) {
    EXPECT_EQ(e.error().field, "schema_version");
    EXPECT_NE(std::string(e.what()).find("newer program, duels 9.0.0"), std::string::npos)
        << e.what();
  }
}

TEST(Journal, WrongSchemaVersionIsNamed) {
  const auto path = temp_path("wrong.jsonl");
  play_into(path, 3);
  spit(path, with_header_version(slurp(path), 0));
  try {
    (void)read_journal(path);
    FAIL() << "no error";
  } catch (const DataException& e) {
    EXPECT_EQ(e.error().field, "schema_version");
    EXPECT_NE(std::string(e.what()).find("version 1 to 1, not 0"), std::string::npos) << e.what();
  }
}

TEST(Journal, EditedIllegalCommandStopsReplay) {
  const auto path = temp_path("edited.jsonl");
  const auto hashes = play_into(path, 12);
  std::string text = slurp(path);
  // Re-seal line 6 (event 5) with a command the rules refuse: a figure that does not exist.
  std::size_t start = 0;
  for (int line = 1; line < 6; ++line)
    start = text.find('\n', start) + 1;
  const std::size_t end = text.find('\n', start);
  auto j = nlohmann::json::parse(text.substr(start, end - start));
  j["data"] = {{"type", "end_turn"}, {"figure", 40}};
  text = text.substr(0, start) + seal_line(j, read_journal(path).header.id) + text.substr(end);
  spit(path, text);
  const Replay r = replay(read_journal(path));
  ASSERT_TRUE(r.error);
  EXPECT_EQ(r.error->line, 6);
  EXPECT_EQ(r.last_seq, 4U);
  EXPECT_EQ(state_hash(r.state), hashes[4]);
}

// The text of line `n` (1-based) of `text`, and where it starts and ends.
struct Line {
  std::size_t start = 0;
  std::size_t end = 0;
};
Line line_of(const std::string& text, int n) {
  Line l;
  for (int k = 1; k < n; ++k)
    l.start = text.find('\n', l.start) + 1;
  l.end = text.find('\n', l.start);
  return l;
}

TEST(Journal, EveryNewJournalHasItsOwnIdentity) {
  const auto a = temp_path("identity_a.jsonl");
  const auto b = temp_path("identity_b.jsonl");
  play_into(a, 3);
  play_into(b, 3);
  const std::string ida = read_journal(a).header.id;
  EXPECT_EQ(ida.size(), 32u);
  EXPECT_NE(ida, read_journal(b).header.id);
}

TEST(Journal, ALineFromAnotherMatchWithTheSameNumberIsRefused) {
  // Two matches played the same way (same seed): their line 4 holds the same event with the same
  // sequence number, each with a valid checksum of its own. Swapped in, it is damage.
  const auto a = temp_path("swap_a.jsonl");
  const auto b = temp_path("swap_b.jsonl");
  play_into(a, 12);
  play_into(b, 12);
  const std::string ta = slurp(a);
  const std::string tb = slurp(b);
  int refused = 0;
  for (int n = 2; n <= 13; ++n) {
    const Line la = line_of(ta, n);
    const Line lb = line_of(tb, n);
    const std::string mixed =
        ta.substr(0, la.start) + tb.substr(lb.start, lb.end - lb.start) + ta.substr(la.end);
    if (mixed == ta) continue;  // the same text can only be the same event
    const JournalContents c = parse_journal(mixed, "mixed.jsonl");
    ASSERT_TRUE(c.error) << "line " << n << " from another match was accepted";
    EXPECT_EQ(c.error->line, n);
    EXPECT_NE(c.error->expected.find("copied from another journal"), std::string::npos)
        << c.error->expected;
    EXPECT_EQ(c.entries.size(), static_cast<std::size_t>(n - 2));
    ++refused;
  }
  EXPECT_EQ(refused, 12);
}

TEST(Journal, AHeaderFromAnotherMatchIsRefused) {
  const auto a = temp_path("header_a.jsonl");
  const auto b = temp_path("header_b.jsonl");
  play_into(a, 6);
  play_into(b, 6);
  const std::string ta = slurp(a);
  const std::string tb = slurp(b);
  const std::string mixed = tb.substr(0, tb.find('\n')) + ta.substr(ta.find('\n'));
  const JournalContents c = parse_journal(mixed, "mixed.jsonl");
  ASSERT_TRUE(c.error);
  EXPECT_EQ(c.error->line, 2);
  EXPECT_TRUE(c.entries.empty());
}

TEST(Journal, AJournalFromBeforeIdentitiesStillReads) {
  // Written by an older program: no "match" in the header, checksums of the text alone.
  const auto path = temp_path("legacy.jsonl");
  play_into(path, 8);
  const std::string text = slurp(path);
  const std::string id = read_journal(path).header.id;
  std::string legacy;
  std::size_t start = 0;
  while (start < text.size()) {
    const std::size_t end = text.find('\n', start);
    auto j = nlohmann::json::parse(text.substr(start, end - start));
    j.erase("match");
    legacy += seal_line(j) + "\n";
    start = end + 1;
  }
  spit(path, legacy);
  const JournalContents c = read_journal(path);
  EXPECT_FALSE(c.error);
  EXPECT_TRUE(c.header.id.empty());
  EXPECT_EQ(c.entries.size(), 8u);
  EXPECT_FALSE(id.empty());
}

TEST(Journal, AMalformedIdentityIsNamed) {
  const auto path = temp_path("bad_id.jsonl");
  play_into(path, 2);
  const std::string text = slurp(path);
  const std::size_t nl = text.find('\n');
  auto h = nlohmann::json::parse(text.substr(0, nl));
  h["match"] = "not-an-id";
  try {
    (void)parse_journal(seal_line(h) + text.substr(nl), "bad_id.jsonl");
    FAIL() << "accepted";
  } catch (const DataException& e) {
    EXPECT_EQ(e.error().field, "match");
    EXPECT_EQ(e.error().line, 1);
  }
}

TEST(Journal, ParsesNoGarbage) {
  EXPECT_THROW(parse_journal("", "x"), DataException);
  EXPECT_THROW(parse_journal("not json\n", "x"), DataException);
  EXPECT_THROW(parse_journal("{\"type\":\"header\"}\n", "x"), DataException);
}

}  // namespace
}  // namespace duels::match
