#include "common/atomic_file.hpp"

#include <fcntl.h>
#include <fmt/format.h>
#include <stdio.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <vector>

#include "common/error.hpp"
#include "common/regular_file.hpp"

namespace duels {

namespace {

namespace fs = std::filesystem;

constexpr long long kNoBudget = -1;

long long budget_from_env() {
  const char* env = std::getenv("DUELS_FAULT_WRITE_BUDGET");
  if (env == nullptr || *env == '\0') return kNoBudget;
  char* end = nullptr;
  const long long v = std::strtoll(env, &end, 10);
  return (end != nullptr && *end == '\0' && v >= 0) ? v : kNoBudget;
}

std::atomic<long long>& budget() {
  static std::atomic<long long> b{budget_from_env()};
  return b;
}

// write(2), unless the injected budget is spent: then as much as it allows, then ENOSPC.
ssize_t checked_write(int fd, const char* p, std::size_t n) {
  long long left = budget().load();
  if (left != kNoBudget) {
    if (left == 0) {
      errno = ENOSPC;
      return -1;
    }
    n = std::min<std::size_t>(n, static_cast<std::size_t>(left));
  }
  const ssize_t w = ::write(fd, p, n);
  if (w > 0 && left != kNoBudget) budget().fetch_sub(w);
  return w;
}

// Writes everything; returns 0 or the errno of the failure.
int write_all_errno(int fd, std::string_view data) {
  std::size_t done = 0;
  while (done < data.size()) {
    const ssize_t n = checked_write(fd, data.data() + done, data.size() - done);
    if (n < 0) {
      if (errno == EINTR) continue;
      return errno;
    }
    done += static_cast<std::size_t>(n);
  }
  return 0;
}

// Removes the plain files in `dir` and then `dir` itself (a staging or an old report folder;
// nothing in it is a folder of ours).
void remove_flat_folder(const fs::path& dir) {
  std::error_code ec;
  for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec))
    ::unlink(it->path().c_str());
  ::rmdir(dir.c_str());
}

// Removes what a killed writer left in `dir`: the entries named PREFIX + 6 characters (mkstemp's
// and mkdtemp's XXXXXX) of the right kind (folders or regular files) that no living writer holds
// (each writer keeps its temporary flock'ed). Never through a link, never waiting on a FIFO.
void remove_unheld(const fs::path& dir, const std::string& prefix, bool folders) {
  std::error_code ec;
  for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
    const std::string name = it->path().filename().string();
    if (name.size() != prefix.size() + 6 || name.rfind(prefix, 0) != 0) continue;
    const int fd = ::open(it->path().c_str(), O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC |
                                                  (folders ? O_DIRECTORY : 0));
    if (fd < 0) continue;
    struct stat st {};
    const bool kind =
        ::fstat(fd, &st) == 0 && (folders ? S_ISDIR(st.st_mode) : S_ISREG(st.st_mode));
    if (kind && ::flock(fd, LOCK_EX | LOCK_NB) == 0) {
      if (folders) {
        remove_flat_folder(it->path());
      } else {
        ::unlink(it->path().c_str());
      }
    }
    ::close(fd);
  }
}

}  // namespace

std::string io_failure_text(int err) {
  return fmt::format("a writable file ({}); nothing was changed", std::strerror(err));
}

void set_write_budget(std::optional<long long> bytes) {
  budget().store(bytes ? std::max(0LL, *bytes) : kNoBudget);
}

void write_all(int fd, std::string_view data, const std::string& path) {
  if (const int err = write_all_errno(fd, data); err != 0)
    throw DataException({path, 0, "", io_failure_text(err)});
}

void sync_parent_dir(const std::string& path) {
  const fs::path parent = fs::path(path).parent_path();
  const std::string dir = parent.empty() ? std::string(".") : parent.string();
  const int fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd >= 0) {
    ::fsync(fd);
    ::close(fd);
  }
}

void remove_stale_temporaries(const std::string& path, std::string_view tag) {
  const fs::path target(path);
  const fs::path dir = target.has_parent_path() ? target.parent_path() : fs::path(".");
  remove_unheld(dir, fmt::format(".{}.{}-", target.filename().string(), tag), false);
}

std::optional<std::string> unwritable_target(const std::string& path) {
  struct stat st {};
  if (::lstat(path.c_str(), &st) != 0) return std::nullopt;  // a new file
  if (S_ISLNK(st.st_mode)) {
    std::error_code ec;
    const fs::path to = fs::read_symlink(path, ec);
    return fmt::format(
        "a regular file to write, not a link (this links to {}; give that name "
        "itself if it is meant); nothing was written",
        ec ? std::string("another file") : to.string());
  }
  if (S_ISDIR(st.st_mode)) return std::string("a file name (this is a folder)");
  if (!S_ISREG(st.st_mode)) {
    return fmt::format("a regular file to write (this is {}); nothing was written",
                       non_regular_kind(st.st_mode).value_or("not a regular file"));
  }
  return std::nullopt;
}

void write_file_atomically(const std::string& path, std::string_view data) {
  const fs::path target(path);
  const fs::path dir = target.has_parent_path() ? target.parent_path() : fs::path(".");
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) {
    throw DataException(
        {path, 0, "", fmt::format("a writable path (folder {} does not exist)", dir.string())});
  }
  // Only regular files are replaced: never a device, a FIFO, a folder, or a link (renaming over
  // a link to /dev/null or /proc/self/fd/1 would write where the player never meant).
  if (const auto why = unwritable_target(path)) throw DataException({path, 0, "", *why});
  remove_stale_temporaries(path, "tmp");
  std::string tmpl = (dir / ("." + target.filename().string() + ".tmp-XXXXXX")).string();
  const int fd = ::mkstemp(tmpl.data());
  if (fd < 0) throw DataException({path, 0, "", io_failure_text(errno)});
  ::flock(fd, LOCK_EX | LOCK_NB);  // alive: remove_stale_temporaries() leaves it alone
  const std::string tmp = tmpl;
  auto fail = [&](int err) {
    ::close(fd);
    ::unlink(tmp.c_str());
    throw DataException({path, 0, "", io_failure_text(err)});
  };
  if (const int err = write_all_errno(fd, data); err != 0) fail(err);
  // mkstemp makes 0600 files; give the new file the usual mode (or the old file's).
  struct stat st {};
  const mode_t mode = ::stat(path.c_str(), &st) == 0 ? (st.st_mode & 07777) : 0644;
  ::fchmod(fd, mode);
  if (::fsync(fd) != 0) fail(errno);
  if (::close(fd) != 0) {
    const int err = errno;
    ::unlink(tmp.c_str());
    throw DataException({path, 0, "", io_failure_text(err)});
  }
  if (::rename(tmp.c_str(), path.c_str()) != 0) {
    const int err = errno;
    ::unlink(tmp.c_str());
    throw DataException({path, 0, "", io_failure_text(err)});
  }
  sync_parent_dir(path);
}

void write_folder_atomically(const std::string& dir, const std::vector<FolderFile>& files,
                             const std::vector<std::string>& ours) {
  const fs::path target = fs::path(dir).lexically_normal();
  const fs::path name = target.has_filename() ? target.filename() : target.parent_path().filename();
  const fs::path folder = target.has_filename() ? target : target.parent_path();
  const fs::path parent = folder.has_parent_path() ? folder.parent_path() : fs::path(".");
  std::error_code ec;
  fs::create_directories(parent, ec);
  if (!fs::is_directory(parent, ec)) {
    throw DataException(
        {dir, 0, "", fmt::format("a folder that can be made ({} cannot be)", parent.string())});
  }
  bool exists = false;
  {
    struct stat st {};
    if (::lstat(folder.c_str(), &st) == 0) {
      if (S_ISLNK(st.st_mode))
        throw DataException({dir, 0, "", "a folder, not a link (links are not followed)"});
      if (!S_ISDIR(st.st_mode))
        throw DataException({dir, 0, "",
                             fmt::format("a folder (this is {})",
                                         non_regular_kind(st.st_mode).value_or("a file"))});
      exists = true;
      for (fs::directory_iterator it(folder, ec), end; !ec && it != end; it.increment(ec)) {
        const std::string entry = it->path().filename().string();
        const bool known = std::find(ours.begin(), ours.end(), entry) != ours.end();
        if (!known || !it->is_regular_file() || it->is_symlink()) {
          throw DataException(
              {dir, 0, "",
               fmt::format("a new folder or one holding only what this writes (it also holds "
                           "{}: give another folder); nothing was changed",
                           entry)});
        }
      }
    }
  }
  // Staging folders a killed writer left (each living one is locked by its writer).
  const std::string prefix = fmt::format(".{}.staging-", name.string());
  remove_unheld(parent, prefix, true);
  std::string staging_name = (parent / (prefix + "XXXXXX")).string();
  if (::mkdtemp(staging_name.data()) == nullptr)
    throw DataException({dir, 0, "", io_failure_text(errno)});
  const fs::path staging(staging_name);
  const int lock = ::open(staging.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (lock >= 0) ::flock(lock, LOCK_EX | LOCK_NB);
  auto fail = [&](int err) {
    remove_flat_folder(staging);
    if (lock >= 0) ::close(lock);
    throw DataException({dir, 0, "", io_failure_text(err)});
  };
  for (const FolderFile& f : files) {
    const fs::path p = staging / f.name;
    const int fd = ::open(p.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0644);
    if (fd < 0) fail(errno);
    int err = write_all_errno(fd, f.bytes);
    if (err == 0 && ::fsync(fd) != 0) err = errno;
    if (::close(fd) != 0 && err == 0) err = errno;
    if (err != 0) fail(err);
  }
  if (lock >= 0) ::fsync(lock);
  if (exists) {
    if (::renameat2(AT_FDCWD, staging.c_str(), AT_FDCWD, folder.c_str(), RENAME_EXCHANGE) != 0) {
      // A file system without the exchange: the old folder steps aside, the new one steps in.
      const int err = errno;
      if (err != EINVAL && err != ENOSYS) fail(err);
      const fs::path old = parent / fmt::format(".{}.old-{}", name.string(), ::getpid());
      if (::rename(folder.c_str(), old.c_str()) != 0) fail(errno);
      if (::rename(staging.c_str(), folder.c_str()) != 0) {
        const int e = errno;
        (void)::rename(old.c_str(), folder.c_str());
        fail(e);
      }
      remove_flat_folder(old);
    } else {
      remove_flat_folder(staging);  // now the old report
    }
  } else if (::rename(staging.c_str(), folder.c_str()) != 0) {
    fail(errno);
  }
  if (lock >= 0) ::close(lock);
  sync_parent_dir(folder.string());
}

}  // namespace duels
