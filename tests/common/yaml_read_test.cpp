// The YAML reader refuses what yaml-cpp lets through silently: a key given twice, bytes that are
// not UTF-8, and a folder named as a file.
#include "common/yaml_read.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <string>

namespace {

TEST(YamlRead, DuplicateKeyIsRefusedWithItsLine) {
  try {
    (void)duels::parse_yaml_text("schema_version: 1\nname: A\npoints: 3\nname: B\n", "fig.yaml");
    FAIL() << "a duplicate key was accepted (first value wins)";
  } catch (const duels::DataException& e) {
    EXPECT_EQ(e.error().line, 4) << e.what();
    EXPECT_EQ(e.error().field, "name") << e.what();
    EXPECT_NE(std::string(e.what()).find("twice"), std::string::npos) << e.what();
  }
  // Nested, in a list.
  EXPECT_THROW((void)duels::parse_yaml_text("figures:\n  - {name: A, name: B}\n", "f.yaml"),
               duels::DataException);
  // The same key in two different mappings is fine.
  EXPECT_NO_THROW((void)duels::parse_yaml_text("a: {x: 1}\nb: {x: 2}\n", "f.yaml"));
}

TEST(YamlRead, InvalidUtf8IsRefusedWithItsLine) {
  try {
    (void)duels::parse_yaml_text("schema_version: 1\nfigures:\n  - name: Ra\xff\xfezor\n",
                                 "f.yaml");
    FAIL() << "invalid UTF-8 was accepted";
  } catch (const duels::DataException& e) {
    EXPECT_EQ(e.error().line, 3) << e.what();
    EXPECT_NE(std::string(e.what()).find("UTF-8"), std::string::npos) << e.what();
  }
  // Overlong encodings and lone surrogates are not UTF-8 either; real multi-byte text is.
  EXPECT_THROW((void)duels::parse_yaml_text("a: \xc0\xaf\n", "f.yaml"), duels::DataException);
  EXPECT_THROW((void)duels::parse_yaml_text("a: \xed\xa0\x80\n", "f.yaml"), duels::DataException);
  EXPECT_THROW((void)duels::parse_yaml_text("a: \xe2\x82\n", "f.yaml"), duels::DataException);
  EXPECT_NO_THROW((void)duels::parse_yaml_text("a: Straße ★ 😀\n", "f.yaml"));
}

TEST(YamlRead, FolderIsALocatedErrorNotARawStreamFailure) {
  const std::string dir = ::testing::TempDir();
  try {
    (void)duels::parse_yaml_file(dir);
    FAIL() << "a folder was read as a file";
  } catch (const duels::DataException& e) {
    EXPECT_NE(std::string(e.what()).find("this is a folder"), std::string::npos) << e.what();
  }
  EXPECT_THROW((void)duels::read_text_file(dir + "/no-such-file.yaml", "a deck"),
               duels::DataException);
}

}  // namespace
