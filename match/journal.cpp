#include "match/journal.hpp"

#include <fcntl.h>
#include <fmt/format.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>

namespace duels::match {

namespace {

std::uint64_t fnv1a(const std::string& s) {
  std::uint64_t h = 1469598103934665603ULL;
  for (unsigned char c : s) {
    h ^= c;
    h *= 1099511628211ULL;
  }
  return h;
}

std::string crc_hex(const std::string& s) {
  return fmt::format("{:016x}", fnv1a(s));
}

// Checks a line's checksum; returns the object without "crc" when it holds.
std::optional<nlohmann::json> verify(const std::string& line) {
  nlohmann::json j = nlohmann::json::parse(line, nullptr, false);
  if (j.is_discarded() || !j.is_object()) return std::nullopt;
  auto it = j.find("crc");
  if (it == j.end() || !it->is_string()) return std::nullopt;
  const std::string crc = it->get<std::string>();
  j.erase("crc");
  if (crc_hex(j.dump()) != crc) return std::nullopt;
  return j;
}

void sync_dir(const std::string& path) {
  const std::string dir = std::filesystem::path(path).parent_path().string();
  const int fd = ::open(dir.empty() ? "." : dir.c_str(), O_RDONLY | O_DIRECTORY);
  if (fd >= 0) {
    ::fsync(fd);
    ::close(fd);
  }
}

[[noreturn]] void io_fail(const std::string& what, const std::string& path) {
  throw std::runtime_error(fmt::format("{} {}: {}", what, path, std::strerror(errno)));
}

}  // namespace

std::string seal_line(nlohmann::json object) {
  object.erase("crc");
  const std::string body = object.dump();
  object["crc"] = crc_hex(body);
  return object.dump();
}

std::string utc_now() {
  const std::time_t t = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now());
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
}

JournalContents parse_journal(const std::string& text, const std::string& name) {
  JournalContents out;
  // Split into lines, remembering whether the last one ended with a newline.
  std::vector<std::pair<std::size_t, std::size_t>> lines;  // [start, end) without '\n'
  std::size_t start = 0;
  while (start < text.size()) {
    const std::size_t nl = text.find('\n', start);
    if (nl == std::string::npos) {
      lines.emplace_back(start, text.size());
      break;
    }
    lines.emplace_back(start, nl);
    start = nl + 1;
  }
  const bool last_complete = !text.empty() && text.back() == '\n';
  if (lines.empty()) {
    throw DataException({name, 1, "header",
                         "a journal header line (the file is empty — it was cut off while being "
                         "created; there is nothing to recover)"});
  }
  // Header.
  {
    const std::string line = text.substr(lines[0].first, lines[0].second - lines[0].first);
    if (lines.size() == 1 && !last_complete) {
      throw DataException({name, 1, "header",
                           "a complete header line (it was cut off while being written; there is "
                           "nothing to recover)"});
    }
    auto h = verify(line);
    if (!h) {
      throw DataException({name, 1, "header",
                           "an intact header line (it is damaged: its checksum does not match; the "
                           "file may not be a journal)"});
    }
    const auto& hj = *h;
    if (!hj.contains("schema_version") || !hj["schema_version"].is_number_integer()) {
      throw DataException({name, 1, "schema_version", "a whole number"});
    }
    out.header.schema_version = hj["schema_version"].get<int>();
    out.header.program = hj.value("program", std::string());
    if (out.header.schema_version > kJournalSchemaVersion) {
      throw DataException(
          {name, 1, "schema_version",
           fmt::format("version {} or older (this journal is version {}, written by "
                       "a newer program, {}: update Duels Companion to open it)",
                       kJournalSchemaVersion, out.header.schema_version,
                       out.header.program.empty() ? "unknown" : out.header.program)});
    }
    if (out.header.schema_version < 1) {
      throw DataException({name, 1, "schema_version",
                           fmt::format("version 1 to {}, not {}", kJournalSchemaVersion,
                                       out.header.schema_version)});
    }
    if (hj.value("type", std::string()) != "header")
      throw DataException({name, 1, "type", "\"header\" on the first line"});
    out.header.created = hj.value("created", std::string());
    out.header.kind = hj.value("kind", std::string());
    out.header.body = hj.value("body", nlohmann::json::object());
    out.valid_bytes = lines[0].second + 1;
  }
  // Entries.
  std::uint64_t expected_seq = 1;
  for (std::size_t i = 1; i < lines.size(); ++i) {
    const int line_no = static_cast<int>(i) + 1;
    const bool is_last = i + 1 == lines.size();
    const std::string line = text.substr(lines[i].first, lines[i].second - lines[i].first);
    if (is_last && !last_complete) {
      out.torn_tail = true;
      out.warnings.push_back(fmt::format(
          "{}:{}: the last line was cut off while being written (power cut or crash) and was "
          "dropped; the match resumes after event {}",
          name, line_no, expected_seq - 1));
      break;
    }
    auto j = verify(line);
    if (!j) {
      out.error =
          DataError{name, line_no, fmt::format("event {}", expected_seq),
                    fmt::format("an intact line (it is damaged: {}); events 1 to {} before it are "
                                "recovered, nothing after it is used",
                                nlohmann::json::parse(line, nullptr, false).is_discarded()
                                    ? "not valid JSON"
                                    : "its checksum does not match",
                                expected_seq - 1)};
      break;
    }
    const auto seq = j->value("seq", std::uint64_t{0});
    if (seq != expected_seq || !j->contains("type") || !(*j)["type"].is_string()) {
      out.error = DataError{name, line_no, "seq",
                            fmt::format("event {} here (found {}); events before it are recovered",
                                        expected_seq, seq)};
      break;
    }
    out.entries.push_back(JournalEntry{seq, (*j)["type"].get<std::string>(),
                                       j->value("data", nlohmann::json()), line_no});
    out.valid_bytes = lines[i].second + 1;
    ++expected_seq;
  }
  return out;
}

JournalContents read_journal(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw DataException({path, 0, "", "a readable journal file (it could not be opened)"});
  std::ostringstream buf;
  buf << in.rdbuf();
  return parse_journal(buf.str(), path);
}

JournalWriter JournalWriter::create(const std::string& path, const JournalHeader& header) {
  std::error_code ec;
  const auto parent = std::filesystem::path(path).parent_path();
  if (!parent.empty()) std::filesystem::create_directories(parent, ec);
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_APPEND | O_CLOEXEC, 0644);
  if (fd < 0) io_fail("cannot create journal", path);
  JournalWriter w(path, fd, 1);
  nlohmann::json h{{"type", "header"},
                   {"seq", 0},
                   {"schema_version", header.schema_version},
                   {"program", header.program},
                   {"created", header.created},
                   {"kind", header.kind},
                   {"body", header.body}};
  w.write_line(seal_line(h));
  sync_dir(path);
  return w;
}

JournalWriter JournalWriter::append_to(const std::string& path, const JournalContents& contents,
                                       bool* repaired) {
  const std::uint64_t size = std::filesystem::file_size(path);
  if (repaired != nullptr) *repaired = false;
  if (size != contents.valid_bytes) {
    // Keep the intact prefix in a new file, then swap it in atomically; the damaged original is
    // kept beside it for inspection.
    std::ifstream in(path, std::ios::binary);
    std::string prefix(contents.valid_bytes, '\0');
    in.read(prefix.data(), static_cast<std::streamsize>(prefix.size()));
    const std::string tmp = path + ".repair-tmp";
    {
      const int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
      if (fd < 0) io_fail("cannot write", tmp);
      std::size_t done = 0;
      while (done < prefix.size()) {
        const ssize_t n = ::write(fd, prefix.data() + done, prefix.size() - done);
        if (n < 0) io_fail("cannot write", tmp);
        done += static_cast<std::size_t>(n);
      }
      ::fsync(fd);
      ::close(fd);
    }
    std::error_code ec;
    std::filesystem::copy_file(path, path + ".damaged",
                               std::filesystem::copy_options::overwrite_existing, ec);
    std::filesystem::rename(tmp, path);
    sync_dir(path);
    if (repaired != nullptr) *repaired = true;
  }
  const int fd = ::open(path.c_str(), O_WRONLY | O_APPEND | O_CLOEXEC);
  if (fd < 0) io_fail("cannot open journal", path);
  return JournalWriter(path, fd, contents.entries.empty() ? 1 : contents.entries.back().seq + 1);
}

JournalWriter::JournalWriter(JournalWriter&& other) noexcept
    : path_(std::move(other.path_)), fd_(other.fd_), next_seq_(other.next_seq_) {
  other.fd_ = -1;
}

JournalWriter& JournalWriter::operator=(JournalWriter&& other) noexcept {
  if (this != &other) {
    if (fd_ >= 0) ::close(fd_);
    path_ = std::move(other.path_);
    fd_ = other.fd_;
    next_seq_ = other.next_seq_;
    other.fd_ = -1;
  }
  return *this;
}

JournalWriter::~JournalWriter() {
  if (fd_ >= 0) ::close(fd_);
}

void JournalWriter::write_line(const std::string& line) {
  const std::string text = line + "\n";
  std::size_t done = 0;
  while (done < text.size()) {
    const ssize_t n = ::write(fd_, text.data() + done, text.size() - done);
    if (n < 0) {
      if (errno == EINTR) continue;
      io_fail("cannot write journal", path_);
    }
    done += static_cast<std::size_t>(n);
  }
  if (::fdatasync(fd_) != 0) io_fail("cannot sync journal", path_);
}

JournalEntry JournalWriter::append(const std::string& type, const nlohmann::json& data) {
  nlohmann::json j{{"seq", next_seq_}, {"type", type}, {"data", data}, {"time", utc_now()}};
  write_line(seal_line(j));
  JournalEntry e{next_seq_, type, data, 0};
  ++next_seq_;
  return e;
}

}  // namespace duels::match
