// Issue 52 rows 8 and 9: readers read only regular files of bounded size, writers write only
// regular files, and a data file's aliases are bounded. Each of these hung or wrote through
// before.
#include "common/regular_file.hpp"

#include <fcntl.h>
#include <fmt/format.h>
#include <gtest/gtest.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <functional>
#include <string>

#include "common/atomic_file.hpp"
#include "common/error.hpp"
#include "common/yaml_read.hpp"
#include "files.hpp"

namespace {

using duels_test::slurp;
using duels_test::spit;

namespace fs = std::filesystem;

// A fresh folder, removed again at the end of the test.
struct Folder : duels_test::ScratchFolder {
  explicit Folder(const std::string& name)
      : ScratchFolder("regular_" + name, ::testing::TempDir()) {}
};

std::string refusal(const std::function<void()>& f) {
  try {
    f();
  } catch (const duels::DataException& e) {
    return e.what();
  }
  return "(accepted)";
}

bool has(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

TEST(RegularFile, AFifoIsRefusedAtOnceNotWaitedOn) {
  Folder d("fifo");
  const std::string fifo = d.file("figure.yaml");
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0644), 0);
  // No writer ever opens it: a reader that waited would hang here forever.
  const std::string why = refusal([&] { (void)duels::read_text_file(fifo, "a figure file"); });
  EXPECT_TRUE(has(why, fifo + ": a figure file (this is a FIFO (a named pipe); only regular "
                              "files are read)"))
      << why;
}

TEST(RegularFile, ALinkToADeviceIsRefused) {
  Folder d("device");
  const std::string link = d.file("zero.yaml");
  fs::create_symlink("/dev/zero", link);
  const std::string why = refusal([&] { (void)duels::read_regular_file(link, "a data file"); });
  EXPECT_TRUE(has(why, "this is a character device")) << why;
  EXPECT_EQ(duels::non_regular_file(link).value_or(""), "a character device");
}

TEST(RegularFile, AFolderAndAMissingFileAreNamed) {
  Folder d("folder");
  EXPECT_TRUE(has(refusal([&] { (void)duels::read_regular_file(d.path.string(), "a file"); }),
                  "a file (this is a folder)"));
  EXPECT_TRUE(has(refusal([&] { (void)duels::read_regular_file(d.file("none"), "a file"); }),
                  "could not be opened"));
}

TEST(RegularFile, AFileOverTheBoundIsRefusedWithItsSize) {
  Folder d("large");
  const std::string big = d.file("big.yaml");
  spit(big, std::string(3000, 'x'));
  const std::string why =
      refusal([&] { (void)duels::read_regular_file(big, "a data file", 2048); });
  EXPECT_TRUE(has(why, "it is 2.9 KiB or more; such a file holds at most 2.0 KiB")) << why;
  EXPECT_EQ(duels::read_regular_file(big, "a data file", 3000).size(), 3000u);
}

TEST(RegularFile, AnAliasBombIsRefusedNotExpanded) {
  // Twelve lines that stand for 9^10 (3.5 billion) values: walking it would never end.
  std::string bomb = "a: &a [x, x, x, x, x, x, x, x, x]\n";
  for (char c = 'b'; c <= 'k'; ++c) {
    std::string row = fmt::format("{}: &{} [", c, c);
    for (int k = 0; k < 9; ++k)
      row += fmt::format("{}*{}", k == 0 ? "" : ", ", static_cast<char>(c - 1));
    bomb += row + "]\n";
  }
  const std::string why = refusal([&] { (void)duels::parse_yaml_text(bomb, "bomb.yaml"); });
  EXPECT_TRUE(has(why, "bomb.yaml: a data file of at most 100000 values once its aliases")) << why;
  // A few aliases, as a person writes them, still read.
  const YAML::Node ok =
      duels::parse_yaml_text("base: &b {size: 1}\none: *b\ntwo: *b\n", "fine.yaml");
  EXPECT_EQ(ok["two"]["size"].as<int>(), 1);
}

TEST(AtomicWrite, ALinkIsRefusedAndWhatItPointsAtIsUntouched) {
  Folder d("link");
  const std::string real = d.file("real.yaml");
  const std::string link = d.file("camera.yaml");
  spit(real, "kept\n");
  fs::create_symlink(real, link);
  const std::string why = refusal([&] { duels::write_file_atomically(link, "new\n"); });
  EXPECT_TRUE(has(why, "a regular file to write, not a link (this links to " + real)) << why;
  EXPECT_EQ(slurp(real), "kept\n");
  EXPECT_TRUE(fs::is_symlink(link));
}

TEST(AtomicWrite, AFifoOrADeviceIsRefusedAndStaysWhatItWas) {
  Folder d("special");
  const std::string fifo = d.file("out.yaml");
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0644), 0);
  const std::string why = refusal([&] { duels::write_file_atomically(fifo, "x"); });
  EXPECT_TRUE(has(why, "a regular file to write (this is a FIFO (a named pipe))")) << why;
  EXPECT_TRUE(fs::is_fifo(fifo));
  // A character device: as root, a rename over /dev/null replaced the device with a file. The
  // node is our own (made only where the test may), so a regression replaces only that one.
  const std::string node = d.file("null.yaml");
  if (::mknod(node.c_str(), S_IFCHR | 0666, ::makedev(1, 3)) == 0) {
    const std::string dev = refusal([&] { duels::write_file_atomically(node, "x"); });
    EXPECT_TRUE(has(dev, "this is a character device")) << dev;
    EXPECT_TRUE(fs::is_character_file(node));
  }
}

TEST(AtomicWrite, ATemporaryAKilledWriterLeftIsRemovedOneALivingWriterHoldsIsNot) {
  Folder d("stale");
  const std::string target = d.file("camera.yaml");
  const std::string stale = d.file(".camera.yaml.tmp-AbC123");
  const std::string held = d.file(".camera.yaml.tmp-XyZ789");
  const std::string other = d.file(".other.yaml.tmp-AbC123");
  spit(stale, "half");
  spit(held, "being written");
  spit(other, "not ours");
  const int fd = ::open(held.c_str(), O_RDONLY);
  ASSERT_GE(fd, 0);
  ASSERT_EQ(::flock(fd, LOCK_EX), 0);
  duels::write_file_atomically(target, "whole\n");
  EXPECT_FALSE(fs::exists(stale));
  EXPECT_TRUE(fs::exists(held));
  EXPECT_TRUE(fs::exists(other));
  EXPECT_EQ(slurp(target), "whole\n");
  ::close(fd);
}

}  // namespace
