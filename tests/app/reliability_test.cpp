// Issue #17, "nothing lost, nothing crashes", end to end through the real `duels` binary: one
// test per row of the table of failures. Full disks are injected with
// DUELS_FAULT_WRITE_BUDGET (writes fail with ENOSPC after that many bytes), so this runs anywhere.
#include <gtest/gtest.h>

#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include "reliability_support.hpp"
#include "run_duels.hpp"

#include <array>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <thread>
#include "files.hpp"
#include "test_paths.hpp"

namespace {

using namespace duels_reliability;

// --- set overrides in the card consoles ------------------------------------------------------

TEST(Row, SrtcgAndEncountersSetEmptyPlayersIsRefusedNotACrash) {
  Sandbox box("set_players");
  spit(box.file("srtcg.txt"), "player Ann\nplayer Bob\nstart Ann\nset /players []\nstate\n");
  Outcome r = run(box.env, "srtcg play --quiet --seed 1 --journal " + box.file("s.jsonl") +
                               " --script " + box.file("srtcg.txt"));
  EXPECT_EQ(r.signal, 0) << r.out;
  EXPECT_EQ(r.code, 3) << r.out;
  EXPECT_TRUE(has(r.out, "1 refused")) << r.out;
  EXPECT_TRUE(has(r.out, "players in a game under way")) << r.out;
  // Resuming the journal works (the refused line was never journaled).
  spit(box.file("more.txt"), "state\n");
  r = run(box.env, "srtcg play --quiet --journal " + box.file("s.jsonl") + " --script " +
                       box.file("more.txt"));
  EXPECT_EQ(r.code, 0) << r.out;

  spit(box.file("enc.txt"),
       "player A\nplayer B\nstarter A Topshelf: wild 2,5; metahuman: +1; red\n"
       "starter B Fixer: +-1\nstart A\nset /players []\nstate\n");
  r = run(box.env, "encounters play --quiet --seed 1 --journal " + box.file("e.jsonl") +
                       " --script " + box.file("enc.txt"));
  EXPECT_EQ(r.signal, 0) << r.out;
  EXPECT_EQ(r.code, 3) << r.out;
  EXPECT_TRUE(has(r.out, "1 refused")) << r.out;
}

TEST(Row, CrossfireSetEmptyRunnersIsRefusedNotACrash) {
  Sandbox box("set_runners");
  spit(box.file("cf.txt"),
       "mission crossfire bring-it-on\nrunner Cal dwarf black,blue\n"
       "runner Rob Human green,red hp=4 nuyen=3\nstart Cal\nset /runners []\nstate\nbegin\n");
  const Outcome r = run(box.env, "crossfire play --quiet --journal " + box.file("c.jsonl") +
                                     " --script " + box.file("cf.txt"));
  EXPECT_EQ(r.signal, 0) << r.out;
  EXPECT_EQ(r.code, 3) << r.out;
  EXPECT_TRUE(has(r.out, "1 refused")) << r.out;
  EXPECT_TRUE(has(r.out, "runners in a game under way")) << r.out;
}

// --- full disks --------------------------------------------------------------------------------

TEST(Row, FullDiskKeepsThePreviousFileAndFails) {
  Sandbox box("full_disk");
  // table reach --png: no 0-byte picture.
  Outcome r = run(box.env + " DUELS_FAULT_WRITE_BUDGET=100",
                  std::string("table reach ") + duels_test::source_dir() +
                      "/assets/scenes/demo_table.yaml --base razor --move 5 --cell 0.5 --png " +
                      box.file("reach.png"));
  EXPECT_EQ(r.code, 3) << r.out;
  EXPECT_FALSE(fs::exists(box.file("reach.png"))) << r.out;
  // print: the previous PDF survives.
  ASSERT_EQ(run(box.env, "print markers --ids 0-3 --size 5in --out " + box.file("m.pdf")).code, 0);
  const std::string pdf = slurp(box.file("m.pdf"));
  r = run(box.env + " DUELS_FAULT_WRITE_BUDGET=4096",
          "print markers --ids 4-7 --size 5in --out " + box.file("m.pdf"));
  EXPECT_EQ(r.code, 3) << r.out;
  EXPECT_TRUE(has(r.out, "No space left on device")) << r.out;
  EXPECT_EQ(slurp(box.file("m.pdf")), pdf);
  // match report: every file of the previous report survives.
  const std::string j = autoplayed(box, "m.jsonl", 200);
  ASSERT_EQ(run(box.env, "match report " + j + " --out " + box.file("rep")).code, 0);
  const std::string md = slurp(box.file("rep/report.md"));
  const std::string png = slurp(box.file("rep/dice_luck.png"));
  for (const char* budget : {"0", "5000", "30000"}) {
    r = run(box.env + " DUELS_FAULT_WRITE_BUDGET=" + budget,
            "match report " + j + " --out " + box.file("rep"));
    EXPECT_EQ(r.code, 3) << budget << ": " << r.out;
    EXPECT_EQ(slurp(box.file("rep/report.md")), md) << budget;
    EXPECT_EQ(slurp(box.file("rep/dice_luck.png")), png) << budget;
  }
  // A journal append on a full disk: an error naming the journal, nothing lost before it.
  const std::string a = autoplayed(box, "append.jsonl", 30);
  const std::string before = slurp(a);
  r = run(box.env + " DUELS_FAULT_WRITE_BUDGET=10",
          "match autoplay --seed 4 --quiet --max-commands 5 --journal " + a);
  EXPECT_EQ(r.code, 3) << r.out;
  EXPECT_TRUE(has(r.out, a + ": a writable file (No space left on device)")) << r.out;
  EXPECT_EQ(slurp(a).substr(0, before.size()), before);
  const Outcome shown = run(box.env, "match show --json " + a, false);
  ASSERT_EQ(shown.code, 0) << shown.out;
  EXPECT_EQ(nlohmann::json::parse(shown.out)["event"], 30) << shown.out;
}

TEST(Row, ReadOnlyPlaceIsALocatedErrorNotARawFilesystemError) {
  Sandbox box("read_only");
  const std::string j = autoplayed(box, "m.jsonl", 50);
  spit(box.file("plain"), "a file, not a folder");
  const Outcome r = run(box.env, "match report " + j + " --out " + box.file("plain") + "/report");
  EXPECT_EQ(r.code, 3) << r.out;
  EXPECT_TRUE(has(r.out, box.file("plain"))) << r.out;
}

// --- damaged journals --------------------------------------------------------------------------

TEST(Row, DamagedJournalIsNeverSilentlyCut) {
  Sandbox box("damaged");
  const std::string j = autoplayed(box, "m.jsonl", 100);
  damage_line(j, 51);  // event 50
  const std::string before = slurp(j);
  spit(box.file("s.txt"), "show\n");
  for (const std::string& cmd :
       {"match undo " + j, "match play " + j + " --script " + box.file("s.txt"),
        "match autoplay --seed 4 --quiet --journal " + j}) {
    const Outcome r = run(box.env, cmd);
    EXPECT_EQ(r.code, 3) << cmd << "\n" << r.out;
    EXPECT_TRUE(has(r.out, j + ":51: event 50")) << cmd << "\n" << r.out;
    EXPECT_TRUE(has(r.out, "duels match repair")) << cmd << "\n" << r.out;
    EXPECT_EQ(slurp(j), before) << cmd << " changed the journal";
  }
  EXPECT_FALSE(fs::exists(j + ".damaged"));
  // Readers say so: stderr, JSON warnings, and the report's coverage line.
  Outcome r = run(box.env, "match show --json " + j, false);
  ASSERT_EQ(r.code, 0) << r.out;
  const auto shown = nlohmann::json::parse(r.out);
  ASSERT_GE(shown["warnings"].size(), 2U) << r.out;
  EXPECT_TRUE(has(shown["warnings"].dump(), "events 1 to 49 of the 100 lines")) << r.out;
  r = run(box.env, "match report " + j + " --out " + box.file("rep"));
  ASSERT_EQ(r.code, 0) << r.out;
  EXPECT_TRUE(has(r.out, "warning:")) << r.out;
  EXPECT_TRUE(has(slurp(box.file("rep/report.md")),
                  "This report covers events 1 to 49 of the 100 lines in the journal"));
  // Repair: a complete backup first, then the cut; then play goes on.
  r = run(box.env, "match repair " + j);
  ASSERT_EQ(r.code, 0) << r.out;
  EXPECT_TRUE(has(r.out, "Kept events 1 to 49")) << r.out;
  EXPECT_EQ(slurp(j + ".damaged"), before);
  EXPECT_EQ(run(box.env, "match undo " + j).code, 0);
}

TEST(Row, RepairOnANearlyFullDiskRefusesAndKeepsEverything) {
  Sandbox box("repair_full");
  const std::string j = autoplayed(box, "m.jsonl", 100);
  damage_line(j, 51);
  const std::string before = slurp(j);
  const Outcome r = run(box.env + " DUELS_FAULT_WRITE_BUDGET=16384", "match repair " + j);
  EXPECT_EQ(r.code, 3) << r.out;
  EXPECT_TRUE(has(r.out, "complete backup")) << r.out;
  EXPECT_EQ(slurp(j), before);
  EXPECT_FALSE(fs::exists(j + ".damaged"));
}

// --- one writer ----------------------------------------------------------------------------------

TEST(Row, TwoWritersOnOneJournal) {
  Sandbox box("two_writers");
  const std::string j = autoplayed(box, "m.jsonl", 20);
  // The first writer: a console session waiting on its input.
  const std::string first_cmd = box.env + " " + duels_test::binary() + " match resume " + j + " >" +
                                box.file("first.out") + " 2>&1";
  std::signal(SIGPIPE, SIG_IGN);
  FILE* first = popen(first_cmd.c_str(), "w");
  ASSERT_NE(first, nullptr);
  ASSERT_TRUE(wait_for_flock(j)) << "the first writer never took the lock";
  spit(box.file("s.txt"), "auto 5\n");
  const Outcome second = run(box.env, "match play " + j + " --script " + box.file("s.txt"));
  fputs("auto 3\n", first);
  pclose(first);
  EXPECT_EQ(second.code, 3) << second.out;
  EXPECT_TRUE(has(second.out, "open for writing by pid")) << second.out;
  EXPECT_TRUE(has(second.out, "match resume")) << second.out;
  // The journal is whole: every line in sequence.
  const Outcome shown = run(box.env, "match show --json " + j);
  ASSERT_EQ(shown.code, 0) << shown.out;
  EXPECT_TRUE(nlohmann::json::parse(shown.out)["warnings"].empty()) << shown.out;
}

// --- nothing created from bad input ----------------------------------------------------------

TEST(Row, MissingOrFolderScriptCreatesNoJournal) {
  Sandbox box("missing_script");
  fs::create_directories(box.file("folder"));
  for (const std::string& game : std::vector<std::string>{"srtcg", "encounters", "crossfire"}) {
    for (const std::string& script : {box.file("nope.txt"), box.file("folder")}) {
      const Outcome r = run(
          box.env, game + " play --journal " + box.file(game + ".jsonl") + " --script " + script);
      EXPECT_EQ(r.code, 2) << game << " " << script << ": " << r.out;
      EXPECT_FALSE(fs::exists(box.file(game + ".jsonl"))) << game;
    }
  }
  const std::string j = autoplayed(box, "m.jsonl", 5);
  const Outcome r = run(box.env, "match play " + j + " --script " + box.file("folder"));
  EXPECT_EQ(r.code, 3) << r.out;
  EXPECT_TRUE(has(r.out, "this is a folder")) << r.out;
  const Outcome deck = run(box.env, "srtcg deck check " + box.file("folder"));
  EXPECT_EQ(deck.code, 3) << deck.out;
  EXPECT_FALSE(has(deck.out, "basic_filebuf")) << deck.out;
}

TEST(Row, InvalidUtf8FigureNameIsCaughtByCheckAndLeavesNoJournal) {
  Sandbox box("utf8");
  fs::create_directories(box.file("assets/figures"));
  for (const auto& e : fs::directory_iterator(duels_test::source_dir() + "/assets")) {
    if (e.path().filename() != "figures")
      fs::create_symlink(e.path(), box.dir / "assets" / e.path().filename());
  }
  fs::copy(duels_test::source_dir() + "/assets/figures", box.file("assets/figures"));
  const std::string bad = box.file("assets/figures/bad.yaml");
  spit(bad,
       "schema_version: 1\nfigures:\n  - name: \"Ra\xff"
       "zor2\"\n"
       "    points: 5\n");
  Outcome r = run(box.env, "figure check " + bad);
  EXPECT_EQ(r.code, 3) << r.out;
  EXPECT_TRUE(has(r.out, bad + ":3")) << r.out;
  EXPECT_TRUE(has(r.out, "UTF-8")) << r.out;
  r = run(box.env + " DUELS_ASSETS='" + box.file("assets") + "'",
          "match new --figures Razor,Hex --journal " + box.file("m.jsonl"));
  EXPECT_EQ(r.code, 3) << r.out;
  EXPECT_FALSE(has(r.out, "json.exception")) << r.out;
  EXPECT_FALSE(fs::exists(box.file("m.jsonl")));
}

// --- parsers
// ---------------------------------------------------------------------------------------

TEST(Row, ExtraWordsInMatchCommandsAreRefused) {
  Sandbox box("extra_words");
  const std::string j = box.file("m.jsonl");
  ASSERT_EQ(run(box.env, "match new --figures Razor,Hex --seed 5 --journal " + j).code, 0);
  spit(box.file("a.txt"), "alpha 6+5 2+3\npass now please\n");
  Outcome r = run(box.env, "match play " + j + " --script " + box.file("a.txt"));
  EXPECT_EQ(r.code, 3) << r.out;
  EXPECT_TRUE(has(r.out, "unexpected 'now'")) << r.out;
  spit(box.file("b.txt"), "pass\npass\nplace Razor 30 57 extra\n");
  r = run(box.env, "match play " + j + " --script " + box.file("b.txt"));
  EXPECT_EQ(r.code, 3) << r.out;
  EXPECT_TRUE(has(r.out, "unexpected 'extra'")) << r.out;
}

// No exit 1 is left: what the command needs but cannot have (no display for the window) is exit 3
// with what to do instead, and a new match is not created for a window that never opened.
TEST(Row, NoDisplayIsExit3WithWhatToDoAndNoJournal) {
  Sandbox box("no_display");
  const std::string j = box.file("m.jsonl");
  const std::string env = "env -u DISPLAY -u WAYLAND_DISPLAY " + box.env;
  const Outcome r = run(env, "gui --figures Razor,Hex --journal " + j + " --frames 2");
  EXPECT_EQ(r.code, 3) << r.out;
  EXPECT_TRUE(has(r.out, "no display")) << r.out;
  EXPECT_TRUE(has(r.out, "duels match resume")) << r.out;
  EXPECT_FALSE(fs::exists(j)) << "a journal was created for a window that never opened";
  // The demo without a display falls back to the terminal edition instead of failing.
  const Outcome demo = run(env, "demo --seed 3");
  EXPECT_EQ(demo.code, 0) << demo.out;
  EXPECT_TRUE(has(demo.out, "terminal edition")) << demo.out;
}

TEST(Row, WrongTypesInAJournalHeaderAreExit3WithTheField) {
  Sandbox box("header_types");
  const std::string j = autoplayed(box, "m.jsonl", 5);
  std::string text = slurp(j);
  const std::size_t nl = text.find('\n');
  auto h = nlohmann::json::parse(text.substr(0, nl));
  h["program"] = 7;
  h.erase("crc");
  // Re-seal as the journal does: FNV-1a of the canonical dump.
  std::uint64_t crc = 1469598103934665603ULL;
  for (unsigned char c : h.dump()) {
    crc ^= c;
    crc *= 1099511628211ULL;
  }
  char hex[17];
  std::snprintf(hex, sizeof hex, "%016llx", static_cast<unsigned long long>(crc));
  h["crc"] = hex;
  spit(j, h.dump() + text.substr(nl));
  for (const char* cmd : {"match show ", "match undo "}) {
    const Outcome r = run(box.env, cmd + j);
    EXPECT_EQ(r.code, 3) << cmd << r.out;
    EXPECT_TRUE(has(r.out, j + ":1: program")) << cmd << r.out;
    EXPECT_FALSE(has(r.out, "type_error")) << cmd << r.out;
  }
}

// --- the index
// ---------------------------------------------------------------------------------------

TEST(Row, GarbageIndexIsRebuiltAndDeletedJournalsDropOut) {
  Sandbox box("index");
  const std::string in_data = box.file("data/duels-companion/matches/a.jsonl");
  fs::create_directories(fs::path(in_data).parent_path());
  ASSERT_EQ(
      run(box.env, "match autoplay --figures Razor,Hex --seed 2 --quiet --journal " + in_data).code,
      0);
  const std::string outside = autoplayed(box, "outside.jsonl", 30);
  auto list = nlohmann::json::parse(run(box.env, "match list --json").out);
  ASSERT_EQ(list.size(), 2U) << list.dump();
  // A deleted journal drops out, wherever it was.
  fs::remove(outside);
  list = nlohmann::json::parse(run(box.env, "match list --json").out);
  ASSERT_EQ(list.size(), 1U) << list.dump();
  // Garbage in the index: rebuilt from the journals.
  spit(box.file("data/duels-companion/index.sqlite"), std::string(5000, 'g'));
  fs::remove(box.file("data/duels-companion/index.sqlite-wal"));
  fs::remove(box.file("data/duels-companion/index.sqlite-shm"));
  Outcome r = run(box.env, "match list --json", false);
  ASSERT_EQ(r.code, 0) << r.out;
  EXPECT_EQ(nlohmann::json::parse(r.out).size(), 1U) << r.out;
  r = run(box.env, "stats --json", false);
  ASSERT_EQ(r.code, 0) << r.out;
  EXPECT_EQ(nlohmann::json::parse(r.out)["matches"], 1) << r.out;
}

}  // namespace
