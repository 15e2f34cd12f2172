// The atomic writer: the old file survives every failure, and no temporary is left behind.
#include "common/atomic_file.hpp"

#include <gtest/gtest.h>
#include <sys/mount.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "common/error.hpp"
#include "files.hpp"

namespace {

using duels_test::slurp;

namespace fs = std::filesystem;

// A fresh folder for one test, removed again when the test ends.
struct FreshDir : duels_test::ScratchFolder {
  explicit FreshDir(const std::string& name)
      : ScratchFolder("atomic_" + name, ::testing::TempDir()) {}
};

int files_in(const fs::path& d) {
  int n = 0;
  for ([[maybe_unused]] const auto& e : fs::directory_iterator(d))
    ++n;
  return n;
}

struct BudgetReset {
  ~BudgetReset() { duels::set_write_budget(std::nullopt); }
};

TEST(AtomicFile, WritesAndReplaces) {
  const FreshDir dir("replace");
  const fs::path& d = dir.path;
  const std::string p = (d / "a.txt").string();
  duels::write_file_atomically(p, "first");
  duels::write_file_atomically(p, "second, longer");
  EXPECT_EQ(slurp(p), "second, longer");
  EXPECT_EQ(files_in(d), 1);
  EXPECT_EQ(fs::status(p).permissions() & fs::perms::owner_read, fs::perms::owner_read);
}

TEST(AtomicFile, InjectedFullDiskKeepsTheOldFileAndLeavesNoTemporary) {
  BudgetReset reset;
  const FreshDir dir("inject");
  const fs::path& d = dir.path;
  const std::string p = (d / "cam.yml").string();
  duels::write_file_atomically(p, "old calibration");
  const std::string big(100000, 'x');
  for (long long budget : {0LL, 1LL, 4096LL, 99999LL}) {
    duels::set_write_budget(budget);
    try {
      duels::write_file_atomically(p, big);
      FAIL() << "a write past the budget succeeded (budget " << budget << ")";
    } catch (const duels::DataException& e) {
      EXPECT_NE(std::string(e.what()).find("No space left on device"), std::string::npos)
          << e.what();
      EXPECT_NE(std::string(e.what()).find(p), std::string::npos) << e.what();
    }
    duels::set_write_budget(std::nullopt);
    EXPECT_EQ(slurp(p), "old calibration");
    EXPECT_EQ(files_in(d), 1) << "a temporary file was left behind";
  }
}

TEST(AtomicFile, NothingIsCreatedWhenTheWriteFails) {
  BudgetReset reset;
  const FreshDir dir("nothing");
  const fs::path& d = dir.path;
  duels::set_write_budget(10);
  EXPECT_THROW(duels::write_file_atomically((d / "new.png").string(), std::string(100, 'p')),
               duels::DataException);
  EXPECT_EQ(files_in(d), 0);
}

TEST(AtomicFile, MissingFolderAndFolderTargetAreLocatedErrors) {
  const FreshDir dir("folder");
  const fs::path& d = dir.path;
  EXPECT_THROW(duels::write_file_atomically((d / "no" / "x.txt").string(), "x"),
               duels::DataException);
  fs::create_directories(d / "sub");
  EXPECT_THROW(duels::write_file_atomically((d / "sub").string(), "x"), duels::DataException);
  EXPECT_TRUE(fs::is_directory(d / "sub"));
}

// The same on a real full disk: a 64 KB tmpfs. Needs root and mount permission; skipped
// (never failed) where the machine does not allow it — the injected variant above always runs.
TEST(AtomicFile, RealFullTmpfsKeepsTheOldFile) {
  const FreshDir dir("tmpfs");
  const fs::path& d = dir.path;
  if (::mount("tmpfs", d.c_str(), "tmpfs", 0, "size=64k") != 0) {
    GTEST_SKIP() << "cannot mount a tmpfs here (needs root): the injected variant covers this";
  }
  struct Unmount {
    fs::path d;
    ~Unmount() { ::umount2(d.c_str(), MNT_DETACH); }
  } unmount{d};
  const std::string p = (d / "cam.yml").string();
  duels::write_file_atomically(p, std::string(20000, 'o'));
  // Fill most of the rest of the disk so the next full-size write cannot fit.
  {
    std::ofstream filler(d / "filler", std::ios::binary);
    filler << std::string(30000, 'f');
  }
  EXPECT_THROW(duels::write_file_atomically(p, std::string(40000, 'n')), duels::DataException);
  EXPECT_EQ(slurp(p), std::string(20000, 'o'));
  EXPECT_EQ(files_in(d), 2);
}

}  // namespace
