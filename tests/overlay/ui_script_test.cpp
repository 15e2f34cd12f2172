// The UI script language: what each line means, and mistakes named by file and line.
#include "overlay/ui_script.hpp"

#include <gtest/gtest.h>

#include "common/error.hpp"

namespace duels::overlay {
namespace {

using Kind = UiAction::Kind;

TEST(UiScript, ParsesEveryAction) {
  auto a = parse_ui_script(
      "# an attack\n"
      "click-base Razor\n"
      "hover-base \"Hex\"   # quoted names work too\n"
      "\n"
      "select-die \"blue:d8\"\n"
      "click \"Attack\"\n"
      "drag-base Hex 30.5 40\n"
      "click-table 12 -1\n"
      "hover-table 1 2\n"
      "key ctrl+shift+Z\n"
      "key space\n"
      "type \"say \\\"ace\\\"\"\n"
      "wait 3\n"
      "sleep 250\n"
      "wait-for \"Apply roll\"\n"
      "wait-gone \"rolling\"\n"
      "hover \"Roll\"\n"
      "screenshot out/shot.png\n",
      "t.ui");
  ASSERT_EQ(a.size(), 16U);
  EXPECT_EQ(a[0].kind, Kind::ClickBase);
  EXPECT_EQ(a[0].text, "Razor");
  EXPECT_EQ(a[0].line, 2);
  EXPECT_EQ(a[1].kind, Kind::HoverBase);
  EXPECT_EQ(a[1].text, "Hex");
  EXPECT_EQ(a[2].kind, Kind::SelectDie);
  EXPECT_EQ(a[2].text, "blue:d8");
  EXPECT_EQ(a[2].line, 5);
  EXPECT_EQ(a[3].kind, Kind::Click);
  EXPECT_EQ(a[4].kind, Kind::DragBase);
  EXPECT_DOUBLE_EQ(a[4].x_in, 30.5);
  EXPECT_DOUBLE_EQ(a[4].y_in, 40);
  EXPECT_EQ(a[5].kind, Kind::ClickTable);
  EXPECT_DOUBLE_EQ(a[5].y_in, -1);
  EXPECT_EQ(a[6].kind, Kind::HoverTable);
  a.erase(a.begin() + 6);
  EXPECT_EQ(a[6].kind, Kind::Key);
  EXPECT_TRUE(a[6].ctrl);
  EXPECT_TRUE(a[6].shift);
  EXPECT_FALSE(a[6].alt);
  EXPECT_EQ(a[6].text, "z");
  EXPECT_EQ(a[7].text, "space");
  EXPECT_EQ(a[8].kind, Kind::Type);
  EXPECT_EQ(a[8].text, "say \"ace\"");
  EXPECT_EQ(a[9].frames, 3);
  EXPECT_EQ(a[10].kind, Kind::Sleep);
  EXPECT_EQ(a[10].frames, 250);
  EXPECT_EQ(a[11].kind, Kind::WaitFor);
  EXPECT_EQ(a[12].kind, Kind::WaitGone);
  EXPECT_EQ(a[12].text, "rolling");
  EXPECT_EQ(a[13].kind, Kind::Hover);
  EXPECT_EQ(a[14].kind, Kind::Screenshot);
  EXPECT_EQ(a[14].text, "out/shot.png");
  // Any labelled widget dragged to a table point.
  const auto d = parse_ui_script("drag \"move end Razor\" 21.5 17\n", "t.ui");
  ASSERT_EQ(d.size(), 1U);
  EXPECT_EQ(d[0].kind, Kind::Drag);
  EXPECT_EQ(d[0].text, "move end Razor");
  EXPECT_DOUBLE_EQ(d[0].x_in, 21.5);
  EXPECT_DOUBLE_EQ(d[0].y_in, 17);
}

TEST(UiScript, DescribeWritesTheLineBack) {
  const std::string text =
      "click \"Attack\"\nkey ctrl+z\ndrag-base Hex 30 40\nwait 2\nselect-die \"blue:d8\"\n"
      "drag \"move end Razor\" 21.5 17\n";
  for (const auto& a : parse_ui_script(text, "t.ui")) {
    const auto again = parse_ui_script(describe(a), "again.ui");
    ASSERT_EQ(again.size(), 1U) << describe(a);
    EXPECT_EQ(again[0].kind, a.kind);
    EXPECT_EQ(again[0].text, a.text);
    EXPECT_EQ(again[0].ctrl, a.ctrl);
  }
}

// Each mistake: the line it is on and the field named in the error.
struct BadLine {
  const char* text;
  int line;
  const char* field;
};

TEST(UiScript, MistakesNameTheFileLineAndWhatWasExpected) {
  const BadLine cases[] = {
      {"click\n", 1, "click"},
      {"\n\nclick \"Attack\n", 3, "label"},
      {"wait x\n", 1, "wait"},
      {"wait 1.5\n", 1, "wait"},
      {"key hyper+a\n", 1, "key"},
      {"key f13\n", 1, "key"},
      {"drag-base Hex 30\n", 1, "drag-base"},
      {"drag \"move end Razor\" 21.5\n", 1, "drag"},
      {"click-table a 3\n", 1, "click-table"},
      {"# ok\npress \"Attack\"\n", 2, "action"},
      {"sleep -5\n", 1, "sleep"},
  };
  for (const auto& c : cases) {
    try {
      parse_ui_script(c.text, "bad.ui");
      ADD_FAILURE() << "accepted: " << c.text;
    } catch (const DataException& e) {
      EXPECT_EQ(e.error().file, "bad.ui") << c.text;
      EXPECT_EQ(e.error().line, c.line) << c.text;
      EXPECT_EQ(e.error().field, c.field) << c.text;
      EXPECT_FALSE(e.error().expected.empty()) << c.text;
    }
  }
}

TEST(UiScript, MissingFileIsADataError) {
  EXPECT_THROW(load_ui_script("/nonexistent/script.ui"), DataException);
}

TEST(UiScript, KnownKeys) {
  for (const char* k : {"space", "enter", "escape", "1", "z", "home"})
    EXPECT_TRUE(is_script_key(k)) << k;
  for (const char* k : {"", "spacebar", "ctrl", "+"})
    EXPECT_FALSE(is_script_key(k)) << k;
}

}  // namespace
}  // namespace duels::overlay
