// The editable metatype table: the shipped file loads, values left out stay unknown, and every
// mistake is reported with its line and field.
#include <gtest/gtest.h>

#include "cards/crossfire/console.hpp"
#include "cards/crossfire/metatypes.hpp"
#include "common/error.hpp"
#include "test_paths.hpp"

namespace duels::cards::crossfire {
namespace {

TEST(CrossfireMetatypes, ShippedTableLoads) {
  const auto table = load_metatypes(duels_test::source_dir() + "/assets/crossfire/metatypes.yaml");
  ASSERT_EQ(table.size(), 5U);
  const Metatype* dwarf = find_metatype(table, "dwarf");
  ASSERT_NE(dwarf, nullptr);
  EXPECT_EQ(dwarf->hp, 5);
  EXPECT_EQ(dwarf->cards, 2);
  EXPECT_EQ(dwarf->nuyen, 5);
  const Metatype* human = find_metatype(table, "Human");
  ASSERT_NE(human, nullptr);
  EXPECT_EQ(human->cards, 4);
  EXPECT_FALSE(human->hp);  // not in the rulebook: asked for, never guessed
  EXPECT_EQ(find_metatype(table, "Dragon"), nullptr);
}

TEST(CrossfireMetatypes, MistakesNameLineAndField) {
  const std::string text =
      "schema_version: 1\n"
      "metatypes:\n"
      "  - {name: Human, cards: 4}\n"
      "  - {name: Troll, hp: many}\n"
      "  - {name: Human}\n";
  try {
    (void)parse_metatypes(text, "m.yaml");
    FAIL() << "accepted a bad table";
  } catch (const DataException& e) {
    EXPECT_EQ(e.error().file, "m.yaml");
    EXPECT_EQ(e.error().line, 4);
    EXPECT_NE(e.error().field.find("metatypes[1].hp"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("named only once"), std::string::npos) << e.what();
  }
  EXPECT_THROW((void)parse_metatypes("schema_version: 2\nmetatypes: []\n", "m.yaml"),
               DataException);
  EXPECT_THROW((void)parse_metatypes("[1, 2]", "m.yaml"), DataException);
  EXPECT_THROW((void)load_metatypes("/no/such/file.yaml"), DataException);
}

TEST(CrossfireMetatypes, ConsoleRefusesBrokenText) {
  Console c;
  const auto reply = c.handle(std::string("runner A Human black hp=5\xff"));
  EXPECT_FALSE(reply.ok);
  EXPECT_NE(reply.text.find("UTF-8"), std::string::npos);
  EXPECT_TRUE(c.handle("mission crossfire").ok);
}

}  // namespace
}  // namespace duels::cards::crossfire
