// The card tabs' clicks (issue 19), headless: the state's frequent actions are offered as
// buttons that send console lines; a typed line (or click) is one undo step, also after the
// journal is reopened; and a damaged middle line is said plainly.
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>

#include "fixtures.hpp"
#include "match/journal.hpp"
#include "overlay/card_games.hpp"

namespace duels::overlay {
namespace {

using testing::TempDir;

const CardAction* find(const std::vector<CardAction>& actions, const std::string& label_start) {
  const auto it = std::find_if(actions.begin(), actions.end(), [&](const CardAction& a) {
    return a.label.rfind(label_start, 0) == 0;
  });
  return it == actions.end() ? nullptr : &*it;
}
// `actions()` returns a new list: a pointer into it must not outlive it (AddressSanitizer caught
// one that did), so looking into a temporary list does not compile.
const CardAction* find(std::vector<CardAction>&& actions, const std::string& label_start) = delete;

TEST(CardActions, EncountersDiceFacesLockAndMatchAreClicks) {
  TempDir dir;
  CardTableOptions o;
  o.journal = dir.file("enc.jsonl");
  o.seed = 4;
  auto t = open_card_table("encounters", o);
  for (const char* line : {"player Ann", "player Bob", "nuyen Ann 4", "starter Ann Fixer: +-1",
                           "starter Bob X: +1", "start Ann", "flip First: 9"}) {
    ASSERT_TRUE(t->send(line)) << line;
  }
  // An Encounter is up: six face buttons make the roll, a hire is prefilled.
  auto actions = t->actions();
  EXPECT_EQ(t->faces_wanted(), 6);
  ASSERT_NE(find(actions, "face 6"), nullptr);
  EXPECT_EQ(find(actions, "face 6")->kind, CardAction::Kind::Face);
  ASSERT_NE(find(actions, "hire"), nullptr);
  EXPECT_EQ(find(actions, "hire")->kind, CardAction::Kind::Prefill);
  ASSERT_TRUE(t->send("roll 3,6,1,1,2,5"));
  // Rolled: every die by its slot, and the ways to beat it.
  actions = t->actions();
  EXPECT_EQ(t->faces_wanted(), 0);
  const CardAction* die2 = find(actions, "#2=6");
  ASSERT_NE(die2, nullptr);
  EXPECT_EQ(die2->kind, CardAction::Kind::Select);
  EXPECT_EQ(die2->line, "2");
  const CardAction* way = find(actions, "match 1: ");
  ASSERT_NE(way, nullptr);
  EXPECT_EQ(way->line, "defeat 1");
  EXPECT_NE(find(actions, "fail"), nullptr);
  // The lock the selected slots make.
  ASSERT_TRUE(t->send("lock 1,2"));
  actions = t->actions();
  ASSERT_NE(find(actions, "score"), nullptr);
  EXPECT_EQ(find(actions, "score")->line, "score");
  EXPECT_NE(find(actions, "push: flip"), nullptr);
}

TEST(CardActions, CrossfireCardsGoOntoObstaclesByClick) {
  TempDir dir;
  CardTableOptions o;
  o.journal = dir.file("cf.jsonl");
  auto t = open_card_table("crossfire", o);
  for (const char* line :
       {"mission crossfire", "runner Cal Dwarf black,blue hp=5 cards=2 nuyen=5",
        "runner Rob Human green,red hp=4 cards=4 nuyen=3", "start Cal",
        "flip Deckhead=2,green,1,red attack:1 nuyen:2; Out of Ammo=black,3 colour:black nuyen:1",
        "begin", "play Punch=red+2"}) {
    ASSERT_TRUE(t->send(line)) << line;
  }
  const auto actions = t->actions();
  const CardAction* onto = find(actions, "Punch → Deckhead");
  ASSERT_NE(onto, nullptr);
  EXPECT_EQ(onto->kind, CardAction::Kind::Send);
  EXPECT_EQ(onto->line, "place 1; on #1");
  EXPECT_FALSE(t->send("next"));  // the damage would be lost
  const std::size_t before = t->commands();
  ASSERT_TRUE(t->send(onto->line));
  ASSERT_TRUE(t->send("next"));
  EXPECT_EQ(t->commands(), before + 4);  // the placement; apply, take and end
  // One line, one undo: also in a table reopened on the journal.
  t.reset();
  auto again = open_card_table("crossfire", o);
  EXPECT_EQ(again->commands(), before + 4);
  EXPECT_TRUE(again->send("undo"));
  EXPECT_EQ(again->commands(), before + 1);
  EXPECT_TRUE(again->send("redo"));
  EXPECT_EQ(again->commands(), before + 4);
}

TEST(CardActions, SrtcgRunIsClicks) {
  TempDir dir;
  CardTableOptions o;
  o.journal = dir.file("srtcg.jsonl");
  o.seed = 3;
  auto t = open_card_table("srtcg", o);
  // Set-up is typed, then the start is a click.
  for (const char* line : {"player Ann", "player Bob"})
    ASSERT_TRUE(t->send(line));
  const auto at_start = t->actions();
  const CardAction* starts = find(at_start, "Ann starts");
  ASSERT_NE(starts, nullptr);
  EXPECT_EQ(starts->line, "start Ann");
  const auto lines = testing::srtcg_to_the_run();
  for (std::size_t i = 2; i < lines.size(); ++i) {
    if (lines[i] == "payday") {  // the Credstick phase's click
      const auto credstick = t->actions();
      const CardAction* pay = find(credstick, "payday");
      ASSERT_NE(pay, nullptr) << i;
      EXPECT_EQ(pay->line, "payday");
    }
    ASSERT_TRUE(t->send(lines[i])) << lines[i];
  }
  // The Shadowrun phase: Ann's unturned runners are picked, then the Objective to run.
  auto actions = t->actions();
  const CardAction* sam = find(actions, "runner Sam");
  const CardAction* rook = find(actions, "runner Rook");
  ASSERT_NE(sam, nullptr);
  ASSERT_NE(rook, nullptr);
  EXPECT_EQ(sam->kind, CardAction::Kind::Select);
  const CardAction* run = find(actions, "run on Ann's Objective");
  ASSERT_NE(run, nullptr);
  EXPECT_EQ(run->kind, CardAction::Kind::WithSelected);
  EXPECT_EQ(find(actions, "run on Bob's"), nullptr);  // Bob's Objective is still face down
  EXPECT_EQ(with_selected(*run, {rook->line, sam->line}), "run Ann -> Rook,Sam");
  const CardAction* pump = find(actions, "pump Sam");
  ASSERT_NE(pump, nullptr);
  EXPECT_EQ(pump->line, "pump Sam");
  EXPECT_EQ(find(actions, "pump Rook"), nullptr);   // Rook cannot be pumped
  EXPECT_NE(find(actions, "next phase"), nullptr);  // or no run
  const std::size_t before = t->commands();
  ASSERT_TRUE(t->send(pump->line));
  ASSERT_TRUE(t->send(with_selected(*run, {sam->line, rook->line})));
  // Facing Bob's Guard: it cannot be sleazed, so fight (no sleaze click); damage by hand.
  actions = t->actions();
  EXPECT_EQ(find(actions, "sleaze"), nullptr);
  ASSERT_NE(find(actions, "fight"), nullptr);
  ASSERT_NE(find(actions, "damage Rook"), nullptr);
  EXPECT_EQ(find(actions, "damage Rook")->line, "damage Rook -> ");
  EXPECT_EQ(find(actions, "next phase"), nullptr);  // not during the run
  ASSERT_TRUE(t->send(find(actions, "fight")->line));
  EXPECT_NE(t->state_text().find("Rook 4/5 dmg 3"), std::string::npos) << t->state_text();
  actions = t->actions();
  ASSERT_NE(find(actions, "pull out"), nullptr);
  ASSERT_TRUE(t->send(find(actions, "continue")->line));
  actions = t->actions();
  ASSERT_TRUE(t->send(find(actions, "take the Objective")->line));
  EXPECT_NE(t->state_text().find("Game over: Ann wins"), std::string::npos) << t->state_text();
  EXPECT_TRUE(t->actions().empty());
  EXPECT_EQ(t->commands(), before + 5);
  // Each click is one undo step.
  ASSERT_TRUE(t->send("undo"));
  ASSERT_TRUE(t->send("undo"));
  EXPECT_EQ(t->commands(), before + 3);
  actions = t->actions();
  EXPECT_NE(find(actions, "continue"), nullptr);
}

TEST(CardActions, TheSelectionFillsItsLine) {
  const CardAction lock{CardAction::Kind::WithSelected, "lock selected", "lock {}", "lock"};
  EXPECT_EQ(with_selected(lock, {"5", "3", "12"}), "lock 3,5,12");
  const CardAction run{CardAction::Kind::WithSelected, "run", "run Bob -> {}", "run"};
  EXPECT_EQ(with_selected(run, {"Tank", "Sam"}), "run Bob -> Tank,Sam");
}

TEST(CardActions, ADamagedMiddleLineIsSaidPlainly) {
  TempDir dir;
  CardTableOptions o;
  o.journal = dir.file("enc.jsonl");
  o.seed = 2;
  {
    auto t = open_card_table("encounters", o);
    for (const char* line : {"player Ann", "player Bob", "player Cy", "target 30"})
      ASSERT_TRUE(t->send(line));
  }
  // Line 3 (the second player) is overwritten in the middle of the file.
  std::vector<std::string> lines;
  {
    std::ifstream in(o.journal);
    std::string l;
    while (std::getline(in, l))
      lines.push_back(l);
  }
  ASSERT_EQ(lines.size(), 5U);
  lines[2] = lines[2].substr(0, lines[2].size() / 2);
  {
    std::ofstream out(o.journal, std::ios::trunc);
    for (const auto& l : lines)
      out << l << "\n";
  }
  // A journal damaged before its end is not opened for play (nothing is cut behind the
  // player's back: issue #17); the refusal says plainly what is wrong and what is kept.
  std::string notes;
  try {
    auto t = open_card_table("encounters", o);
    ADD_FAILURE() << "a damaged journal was opened for play";
  } catch (const DataException& e) {
    notes = e.what();
  }
  EXPECT_TRUE(notes.find("enc.jsonl:3: event 2: this line is damaged (not valid JSON: cut or "
                         "overwritten)") != std::string::npos)
      << notes;
  EXPECT_TRUE(notes.find("kept: events 1 to 1 before it") != std::string::npos) << notes;
  EXPECT_TRUE(notes.find("not used: this line and everything after it") != std::string::npos)
      << notes;
  EXPECT_TRUE(notes.find("duels match repair") != std::string::npos) << notes;
  EXPECT_TRUE(notes.find(".damaged") != std::string::npos) << notes;
  EXPECT_TRUE(notes.find("an intact line") == std::string::npos) << notes;
}

}  // namespace
}  // namespace duels::overlay
