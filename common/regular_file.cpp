#include "common/regular_file.hpp"

#include <fcntl.h>
#include <fmt/format.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "common/error.hpp"

namespace duels {

std::optional<std::string> non_regular_kind(unsigned mode) {
  if (S_ISREG(mode)) return std::nullopt;
  if (S_ISDIR(mode)) return "a folder";
  if (S_ISFIFO(mode)) return "a FIFO (a named pipe)";
  if (S_ISCHR(mode)) return "a character device";
  if (S_ISBLK(mode)) return "a block device";
  if (S_ISSOCK(mode)) return "a socket";
  if (S_ISLNK(mode)) return "a symbolic link";
  return "not a regular file";
}

std::optional<std::string> non_regular_file(const std::string& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) return std::nullopt;
  return non_regular_kind(st.st_mode);
}

std::string size_words(std::uint64_t bytes) {
  if (bytes >= (1ULL << 30))
    return fmt::format("{:.1f} GiB", static_cast<double>(bytes) / (1 << 30));
  if (bytes >= (1ULL << 20))
    return fmt::format("{:.1f} MiB", static_cast<double>(bytes) / (1 << 20));
  if (bytes >= (1ULL << 10))
    return fmt::format("{:.1f} KiB", static_cast<double>(bytes) / (1 << 10));
  return fmt::format("{} bytes", bytes);
}

std::string read_regular_file(const std::string& path, std::string_view what,
                              std::uint64_t max_bytes) {
  auto refuse = [&](const std::string& why) -> DataException {
    return DataException({path, 0, "", fmt::format("{} ({})", what, why)});
  };
  // O_NONBLOCK: opening a FIFO must not wait for a writer; what was opened is checked next.
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
  if (fd < 0) {
    const int err = errno;
    if (err == EISDIR) throw refuse("this is a folder");
    throw refuse(fmt::format("it could not be opened: {}", std::strerror(err)));
  }
  struct stat st {};
  if (::fstat(fd, &st) != 0) {
    const int err = errno;
    ::close(fd);
    throw refuse(fmt::format("it could not be read: {}", std::strerror(err)));
  }
  if (const auto kind = non_regular_kind(st.st_mode)) {
    ::close(fd);
    throw refuse(kind == std::string("a folder")
                     ? std::string("this is a folder")
                     : fmt::format("this is {}; only regular files are read", *kind));
  }
  const auto too_large = [&](std::uint64_t size) {
    return refuse(fmt::format("it is {} or more; such a file holds at most {}", size_words(size),
                              size_words(max_bytes)));
  };
  if (static_cast<std::uint64_t>(st.st_size) > max_bytes) {
    ::close(fd);
    throw too_large(static_cast<std::uint64_t>(st.st_size));
  }
  std::string out;
  out.reserve(static_cast<std::size_t>(st.st_size));
  char buf[65536];
  for (;;) {
    const ssize_t n = ::read(fd, buf, sizeof buf);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      const int err = errno;
      ::close(fd);
      throw refuse(fmt::format("it could not be read: {}", std::strerror(err)));
    }
    if (n == 0) break;
    out.append(buf, static_cast<std::size_t>(n));
    if (out.size() > max_bytes) {  // it grew while being read
      ::close(fd);
      throw too_large(out.size());
    }
  }
  ::close(fd);
  return out;
}

}  // namespace duels
