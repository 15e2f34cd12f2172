#include "common/atomic_file.hpp"

#include <fcntl.h>
#include <fmt/format.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>

#include "common/error.hpp"

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

void write_file_atomically(const std::string& path, std::string_view data) {
  const fs::path target(path);
  const fs::path dir = target.has_parent_path() ? target.parent_path() : fs::path(".");
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) {
    throw DataException(
        {path, 0, "", fmt::format("a writable path (folder {} does not exist)", dir.string())});
  }
  if (fs::is_directory(target, ec)) {
    throw DataException({path, 0, "", "a file name (this is a folder)"});
  }
  std::string tmpl = (dir / ("." + target.filename().string() + ".tmp-XXXXXX")).string();
  const int fd = ::mkstemp(tmpl.data());
  if (fd < 0) throw DataException({path, 0, "", io_failure_text(errno)});
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

}  // namespace duels
