// Issue #52, "nothing lost, round two", end to end through the real `duels` binary: one test per
// row of the table, each written to fail before its fix.
#include <gtest/gtest.h>

#include <sys/stat.h>
#include <sys/sysmacros.h>

#include <functional>
#include <map>
#include <string>
#include <vector>

#include "files.hpp"
#include "match/journal.hpp"
#include "match/positions.hpp"
#include "reliability_support.hpp"
#include "test_paths.hpp"

namespace {

using namespace duels_reliability;

// Row 1: a terrain piece of radius 0.0000001" was accepted and played on, and every later open
// of the journal refused it; `match repair` then cut the whole evening after event 1.
TEST(Row52, ATerrainPieceTheJournalCannotReadIsRefusedWhereItIsTyped) {
  Sandbox box("tiny_terrain");
  const std::string j = box.file("m.jsonl");
  ASSERT_EQ(run(box.env, "match new --figures Razor,Bulldozer --seed 3 --journal " + j).code, 0);
  spit(box.file("s.txt"), "alpha 6+5 2+3\nterrain Rock circle 30 30 0.0000001\n");
  Outcome r = run(box.env, "match play " + j + " --script " + box.file("s.txt"));
  EXPECT_EQ(r.code, 3) << r.out;
  EXPECT_TRUE(has(r.out, "s.txt:2")) << r.out;
  EXPECT_TRUE(has(r.out, "radius must be from 1e-06 to 1000 inches")) << r.out;
  // The smallest radius it takes is one the journal reads back: the match goes on.
  spit(box.file("s.txt"), "terrain Rock circle 30 30 0.000001\npass\npass\n");
  r = run(box.env, "match play " + j + " --script " + box.file("s.txt"));
  EXPECT_EQ(r.code, 0) << r.out;
  r = run(box.env, "match show " + j);
  EXPECT_EQ(r.code, 0) << r.out;
  EXPECT_TRUE(has(r.out, "event 4")) << r.out;
}

// Row 5: one journal line nested 100,000 deep crashed `match show`, `list`, `stats` and `repair`
// (the checksum's printer recursed into it); `set /x [[[…` crashed the three card consoles.
TEST(Row52, ALineNestedTooDeepIsDamageNotACrash) {
  Sandbox box("deep_line");
  const std::string j = autoplayed(box, "m.jsonl", 10);
  spit(j, slurp(j) + "{\"seq\":11,\"type\":\"command\",\"data\":" + std::string(100000, '[') +
              std::string(100000, ']') + "}\n");
  (void)run(box.env, "match index --rebuild");
  for (const std::string& args :
       {"match show " + j, std::string("match list"), std::string("stats"), "match resume " + j}) {
    const Outcome r = run(box.env, args + " </dev/null");
    EXPECT_EQ(r.signal, 0) << args << "\n" << r.out.substr(0, 2000);
    EXPECT_TRUE(r.code == 0 || r.code == 3) << args << "\n" << r.out.substr(0, 2000);
  }
  const Outcome shown = run(box.env, "match show " + j);
  EXPECT_TRUE(has(shown.out, "nested deeper than 64 levels")) << shown.out.substr(0, 2000);
  const Outcome repaired = run(box.env, "match repair " + j);
  EXPECT_EQ(repaired.code, 0) << repaired.out.substr(0, 2000);
  EXPECT_TRUE(has(repaired.out, "Kept events 1 to 10")) << repaired.out.substr(0, 2000);
  EXPECT_EQ(run(box.env, "match show " + j).code, 0);
}

TEST(Row52, ACardConsoleRefusesAValueNestedTooDeep) {
  Sandbox box("deep_set");
  const std::string deep = std::string(100000, '[') + std::string(100000, ']');
  struct Game {
    std::string verb, lines;
  };
  for (const Game& g :
       {Game{"srtcg play --seed 1", "player Ann\nplayer Bob\nstart Ann\n"},
        Game{"encounters play --seed 1",
             "player A\nplayer B\nstarter A Topshelf: wild 2,5; metahuman: +1; red\n"
             "starter B Fixer: +-1\nstart A\n"},
        Game{"crossfire play",
             "mission crossfire bring-it-on\nrunner Cal dwarf black,blue\n"
             "runner Rob Human green,red hp=4 nuyen=3\nstart Cal\n"}}) {
    const std::string name = g.verb.substr(0, g.verb.find(' '));
    spit(box.file(name + ".txt"), g.lines + "set /x " + deep + "\nstate\n");
    const Outcome r = run(box.env, g.verb + " --quiet --journal " + box.file(name + ".jsonl") +
                                       " --script " + box.file(name + ".txt"));
    EXPECT_EQ(r.signal, 0) << name;
    EXPECT_EQ(r.code, 3) << name << ": " << r.out.substr(0, 2000);
    EXPECT_TRUE(has(r.out, "a value nested at most 64 levels deep")) << r.out.substr(0, 2000);
  }
}

// Row 6: a damaged MATCH.positions.jsonl made the window advise `duels match repair` on it, and
// repair refused that kind of journal: a dead end.
TEST(Row52, ADamagedPositionLogIsRepairedLikeAMatch) {
  Sandbox box("positions");
  const std::string j = autoplayed(box, "m.jsonl", 10);
  const std::string log = box.file("m.positions.jsonl");
  {
    duels::match::JournalHeader h;
    h.program = "test";
    h.created = duels::match::utc_now();
    h.kind = duels::match::kPositionsKind;
    h.body = {{"match", "m.jsonl"}};
    auto w = duels::match::JournalWriter::create(log, h);
    for (int i = 0; i < 5; ++i)
      w.append("position", {{"figure", i % 2}, {"after_seq", 10}, {"x", 10.0 + i}, {"y", 12.5}});
  }
  damage_line(log, 4);  // the third correction
  Outcome r = run(box.env, "match repair " + log);
  EXPECT_EQ(r.code, 0) << r.out;
  EXPECT_TRUE(has(r.out, "Kept events 1 to 2")) << r.out;
  EXPECT_EQ(slurp(log + ".damaged").size() > slurp(log).size(), true);
  r = run(box.env, "match repair " + log);
  EXPECT_TRUE(has(r.out, "is intact (2 events)")) << r.out;
  // A record the window cannot read (a figure number out of range) is damage too.
  {
    auto w = duels::match::JournalWriter::append_to(log, duels::match::read_journal(log));
    w.append("position", {{"figure", 99999}, {"after_seq", 10}, {"x", 1.0}, {"y", 1.0}});
  }
  r = run(box.env, "match repair " + log);
  EXPECT_EQ(r.code, 0) << r.out;
  EXPECT_TRUE(has(r.out, "data.figure")) << r.out;
  EXPECT_TRUE(has(r.out, "Kept events 1 to 2")) << r.out;
}

// Row 7: one flipped bit in a match's header and `match list` and `stats` silently dropped that
// match. Now both name the journal they could not read, and why.
TEST(Row52, AMatchWithADamagedHeaderIsNamedNotHidden) {
  Sandbox box("header_flip");
  const std::string dir = box.dir.string() + "/data/duels-companion/matches";
  fs::create_directories(dir);
  const std::string a = dir + "/a.jsonl";
  const std::string b = dir + "/b.jsonl";
  for (const auto& j : {a, b}) {
    ASSERT_EQ(run(box.env,
                  "match autoplay --figures Razor,Bulldozer --seed 4 --quiet "
                  "--max-commands 12 --journal " +
                      j)
                  .code,
              0);
  }
  Outcome listed = run(box.env, "match list");
  EXPECT_TRUE(has(listed.out, "a.jsonl") && has(listed.out, "b.jsonl")) << listed.out;
  std::string text = slurp(b);
  text[20] = static_cast<char>(text[20] ^ 0x04);  // one bit of the header
  spit(b, text);
  listed = run(box.env, "match list");
  EXPECT_EQ(listed.code, 0) << listed.out;
  EXPECT_TRUE(has(listed.out, "Not listed (this journal could not be read): " + b)) << listed.out;
  EXPECT_TRUE(has(listed.out, "header")) << listed.out;
  const Outcome stats = run(box.env, "stats");
  EXPECT_TRUE(has(stats.out, "1 matches")) << stats.out;
  EXPECT_TRUE(has(stats.out, "Not counted (this journal could not be read): " + b)) << stats.out;
  const Outcome json = run(box.env, "stats --json", false);
  EXPECT_TRUE(has(json.out, "\"not_counted\":[{\"journal\":\"" + b)) << json.out;
  // A window's position log beside the matches is not a match, and not damage either.
  spit(b, slurp(a));
  duels::match::JournalHeader h;
  h.program = "test";
  h.created = duels::match::utc_now();
  h.kind = duels::match::kPositionsKind;
  h.body = {{"match", "a.jsonl"}};
  (void)duels::match::JournalWriter::create(dir + "/a.positions.jsonl", h);
  listed = run(box.env, "match list");
  EXPECT_FALSE(has(listed.out, "Not listed")) << listed.out;
  EXPECT_FALSE(has(listed.out, "a.positions.jsonl")) << listed.out;
}

// Row 12: raw library text reached the player — JSON library errors from a card `set`, an
// OpenCV assertion for a picture claiming 100000 x 100000 pixels — and NaN slipped past range
// checks.
TEST(Row52, NoRawLibraryText) {
  Sandbox box("raw_text");
  spit(box.file("s.txt"),
       "player Ann\nplayer Bob\nstart Ann\nset /players/0/name 5\n"
       "set players 1\n");
  Outcome r = run(box.env, "srtcg play --keep-going --quiet --seed 1 --journal " +
                               box.file("s.jsonl") + " --script " + box.file("s.txt"));
  EXPECT_EQ(r.code, 3) << r.out;
  EXPECT_TRUE(has(r.out, "/players/0/name cannot be set to 5: text was expected, not a number"))
      << r.out;
  EXPECT_TRUE(has(r.out, "a field path starting with '/'")) << r.out;
  EXPECT_FALSE(has(r.out, "json.exception")) << r.out;

  r = run(box.env,
          "detect --image " + duels_test::source_dir() + "/tests/data/claims-100000x100000.png");
  EXPECT_EQ(r.code, 3) << r.out;
  EXPECT_TRUE(has(r.out, "a picture of at most a gigapixel")) << r.out;
  EXPECT_FALSE(has(r.out, "OpenCV(")) << r.out;

  for (const char* value : {"nan", "inf", "-inf"}) {
    r = run(box.env, "table path " + duels_test::source_dir() +
                         "/assets/scenes/demo_table.yaml --base razor --to 30,30 --move " + value);
    EXPECT_EQ(r.code, 2) << value << ": " << r.out;
    EXPECT_TRUE(has(r.out, std::string("a finite number was expected, not ") + value)) << r.out;
  }
}

// Row 13: wrong answers — a sum of nuyen overflowing to a negative price, a negative dial value
// passing `figure check` (then breaking `sim`), `--cols 0` silently printing 9 x 6.
TEST(Row52, ImpossibleNumbersAreRefusedNotAnswered) {
  Sandbox box("numbers");
  Outcome r = run(box.env, "srtcg solo reequip --in-play 2147483647 --card 2");
  EXPECT_EQ(r.code, 2) << r.out;
  EXPECT_FALSE(has(r.out, "-2")) << r.out;
  r = run(box.env, "srtcg tournament score --rep 2147483647 --runners 2147483647 --nuyen 9");
  EXPECT_EQ(r.code, 2) << r.out;
  EXPECT_FALSE(has(r.out, "-1503238556")) << r.out;
  r = run(box.env, "srtcg tournament tiebreak --nuyen 2147483647 --runner \"A: 3/3; cost 5\"");
  EXPECT_EQ(r.code, 2) << r.out;
  r = run(box.env, "resolve --weapon -5 --body 5 --attack white:d6=3");
  EXPECT_EQ(r.code, 2) << r.out;
  r = run(box.env, "print board --cols 0 --out " + box.file("b.pdf"));
  EXPECT_EQ(r.code, 2) << r.out;
  EXPECT_FALSE(fs::exists(box.file("b.pdf")));
  spit(box.file("neg.yaml"),
       "schema_version: 1\nfigures:\n  - name: Minus\n    points: 10\n"
       "    base: {diameter: 2}\n    starting_dice: [white:d6]\n"
       "    dials:\n      head: [-3, \"0 hole hole hole\"]\n"
       "      weapon: [2, \"0 hole hole hole\"]\n"
       "      body: [2, \"0 hole hole hole\"]\n"
       "    tape: [{colour: yellow, from: 0, to: 4}]\n");
  r = run(box.env, "figure check " + box.file("neg.yaml"));
  EXPECT_EQ(r.code, 3) << r.out;
  EXPECT_TRUE(has(r.out, "a dial value from 0 to 99")) << r.out;
}

// Row 8: `--out` onto a link, a FIFO or a device replaced it with a regular file, and FILE.torn
// followed a planted link.
TEST(Row52, OnlyRegularFilesAreWrittenAndSideFilesFollowNoLink) {
  Sandbox box("regular_out");
  const std::string real = box.file("mine.pdf");
  spit(real, "the player's own file\n");
  const std::string link = box.file("board.pdf");
  fs::create_symlink(real, link);
  Outcome r = run(box.env, "print board --out " + link);
  EXPECT_EQ(r.code, 3) << r.out;
  EXPECT_TRUE(has(r.out, "not a link")) << r.out;
  EXPECT_EQ(slurp(real), "the player's own file\n");
  const std::string fifo = box.file("fifo.pdf");
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0644), 0);
  r = shell(box.env + " timeout 60 " + duels_test::binary() + " print board --out " + fifo);
  EXPECT_EQ(r.code, 3) << r.out;
  EXPECT_TRUE(has(r.out, "this is a FIFO")) << r.out;
  EXPECT_TRUE(fs::is_fifo(fifo));
  // A character device (as root, a rename over /dev/null replaced it): a node of our own, so a
  // regression could only replace that one.
  const std::string dev = box.file("null.pdf");
  if (::mknod(dev.c_str(), S_IFCHR | 0666, ::makedev(1, 3)) == 0) {
    r = run(box.env, "print board --out " + dev);
    EXPECT_EQ(r.code, 3) << r.out;
    EXPECT_TRUE(has(r.out, "this is a character device")) << r.out;
    EXPECT_TRUE(fs::is_character_file(dev));
  }

  // A torn last line is kept in FILE.torn before it is cut: a link planted there is not followed.
  const std::string j = autoplayed(box, "m.jsonl", 20);
  const std::string whole = slurp(j);
  spit(j, whole + "{\"seq\":21,\"ty");
  const std::string outside = box.file("outside.txt");
  spit(outside, "not the journal's\n");
  fs::create_symlink(outside, j + ".torn");
  r = run(box.env, "match undo " + j);
  EXPECT_EQ(r.code, 3) << r.out;
  EXPECT_TRUE(has(r.out, "this is a link: it is not followed")) << r.out;
  EXPECT_EQ(slurp(outside), "not the journal's\n");
  EXPECT_EQ(slurp(j), whole + "{\"seq\":21,\"ty");
}

// Row 9: a YAML alias bomb, a FIFO or a link to /dev/zero in the figures folder hung every
// command that loads the library.
TEST(Row52, WhatIsDroppedInTheFiguresFolderIsNamedNeverWaitedOn) {
  Sandbox box("figures_folder");
  const fs::path figures = box.dir / "data" / "duels-companion" / "figures";
  fs::create_directories(figures);
  std::string bomb = "a: &a [x, x, x, x, x, x, x, x, x]\n";
  for (char c = 'b'; c <= 'k'; ++c) {
    bomb += std::string(1, c) + ": &" + c + " [";
    for (int k = 0; k < 9; ++k)
      bomb += std::string(k == 0 ? "" : ", ") + "*" + static_cast<char>(c - 1);
    bomb += "]\n";
  }
  const std::vector<std::pair<std::string, std::function<void(const std::string&)>>> kinds{
      {"an alias bomb", [&](const std::string& f) { spit(f, bomb); }},
      {"a FIFO", [](const std::string& f) { ASSERT_EQ(::mkfifo(f.c_str(), 0644), 0); }},
      {"a link to /dev/zero", [](const std::string& f) { fs::create_symlink("/dev/zero", f); }}};
  const std::vector<std::string> said{"once its aliases (*name) are expanded", "this is a FIFO",
                                      "this is a character device"};
  for (std::size_t k = 0; k < kinds.size(); ++k) {
    const std::string f = (figures / "dropped.yaml").string();
    fs::remove(f);
    kinds[k].second(f);
    // `timeout` turns a hang into a failure here instead of a stuck test.
    const Outcome r = shell(box.env + " timeout 60 " + duels_test::binary() + " figure show Razor");
    EXPECT_NE(r.code, 124) << kinds[k].first << " hung the library";
    EXPECT_EQ(r.code, 3) << kinds[k].first << ": " << r.out;
    EXPECT_TRUE(has(r.out, f)) << r.out;
    EXPECT_TRUE(has(r.out, said[k])) << kinds[k].first << ": " << r.out;
  }
}

// Row 10: a full disk replaced two of the three charts of a report before failing "nothing was
// changed"; a retried cut on a full disk left an empty FILE.torn; `match list` failed outright.
TEST(Row52, AFullDiskLeavesTheOldReportWholeAndStillLists) {
  Sandbox box("full_disk_report");
  const std::string j = autoplayed(box, "m.jsonl", 80);
  const std::string out = box.file("report");
  Outcome r = run(box.env, "match report " + j + " --out " + out);
  ASSERT_EQ(r.code, 0) << r.out;
  std::map<std::string, std::string> before;
  for (const auto& e : fs::directory_iterator(out))
    before[e.path().filename().string()] = slurp(e.path());
  ASSERT_EQ(before.size(), 5u);
  for (long long budget : {0LL, 40000LL, 120000LL, 170000LL}) {
    r = run("DUELS_FAULT_WRITE_BUDGET=" + std::to_string(budget) + " " + box.env,
            "match report " + j + " --out " + out + " --csv");
    EXPECT_EQ(r.code, 3) << budget << ": " << r.out;
    EXPECT_TRUE(has(r.out, "nothing was changed")) << r.out;
    std::map<std::string, std::string> after;
    for (const auto& e : fs::directory_iterator(out))
      after[e.path().filename().string()] = slurp(e.path());
    EXPECT_EQ(after, before) << "the report changed on a full disk (budget " << budget << ")";
  }
  EXPECT_EQ(box.count(), 3) << "a staging folder was left behind";  // data, m.jsonl, report
  // A player's folder is never swapped away.
  spit(out + "/notes.txt", "mine");
  r = run(box.env, "match report " + j + " --out " + out);
  EXPECT_EQ(r.code, 3) << r.out;
  EXPECT_TRUE(has(r.out, "it also holds notes.txt")) << r.out;

  // A torn line on a full disk: the cut is refused, twice, and leaves no empty FILE.torn.
  const std::string whole = slurp(j);
  spit(j, whole + "{\"seq\":81");
  for (int attempt = 0; attempt < 2; ++attempt) {
    r = run("DUELS_FAULT_WRITE_BUDGET=0 " + box.env, "match undo " + j);
    EXPECT_EQ(r.code, 3) << r.out;
    EXPECT_FALSE(fs::exists(j + ".torn")) << "attempt " << attempt;
  }

  // `match list` with an index that cannot be written (file size limit: a full disk to it).
  fs::create_directories(box.dir / "data" / "duels-companion" / "matches");
  fs::copy_file(j, box.dir / "data" / "duels-companion" / "matches" / "m.jsonl");
  fs::remove(box.dir / "data" / "duels-companion" / "index.sqlite");
  r = shell("export " + box.env + "; trap '' XFSZ; ulimit -f 1; " + duels_test::binary() +
            " match list");
  EXPECT_EQ(r.code, 0) << r.out;
  EXPECT_TRUE(has(r.out, "m.jsonl")) << r.out;
  EXPECT_TRUE(has(r.out, "the match index could not be saved")) << r.out;
}

}  // namespace
