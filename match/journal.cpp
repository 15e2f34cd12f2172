#include "match/journal.hpp"

#include <fcntl.h>
#include <fmt/format.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>
#include <stdexcept>

#include "common/atomic_file.hpp"
#include "common/json_depth.hpp"
#include "common/json_words.hpp"
#include "common/regular_file.hpp"

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

// The checksum of a line's text; an entry of a journal with an identity sums that identity first,
// so the same text in another journal has another checksum.
std::string crc_hex(std::string_view journal_id, const std::string& body) {
  return fmt::format("{:016x}",
                     fnv1a(journal_id.empty() ? body : fmt::format("{}|{}", journal_id, body)));
}

// Checks a line's checksum; returns the object without "crc" when it holds.
std::optional<nlohmann::json> verify(const std::string& line, std::string_view journal_id = {}) {
  if (json_deeper_than(line)) return std::nullopt;  // never parsed, printed or summed
  nlohmann::json j = nlohmann::json::parse(line, nullptr, false);
  if (j.is_discarded() || !j.is_object()) return std::nullopt;
  auto it = j.find("crc");
  if (it == j.end() || !it->is_string()) return std::nullopt;
  const std::string crc = it->get<std::string>();
  j.erase("crc");
  if (crc_hex(journal_id, j.dump()) != crc) return std::nullopt;
  return j;
}

bool is_journal_id(const std::string& id) {
  return id.size() == 32 && std::all_of(id.begin(), id.end(), [](char c) {
           return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f');
         });
}

// 128 random bits as 32 hex digits: a new journal's identity.
std::string new_journal_id() {
  std::random_device rd;
  std::string id;
  for (int i = 0; i < 4; ++i)
    id += fmt::format("{:08x}", static_cast<std::uint32_t>(rd()));
  return id;
}

[[noreturn]] void io_fail(const std::string& path) {
  throw DataException({path, 0, "", io_failure_text(errno)});
}

// The process holding a flock on the file open as `fd`, from /proc/locks ("pid N (duels match
// play)"), or "another program" when it cannot be told.
std::string lock_holder(int fd) {
  struct stat st {};
  if (::fstat(fd, &st) != 0) return "another program";
  std::ifstream locks("/proc/locks");
  std::string line;
  while (std::getline(locks, line)) {
    // "1: FLOCK  ADVISORY  WRITE 12345 08:01:1234567 0 EOF"
    std::istringstream in(line);
    std::string n, kind, mode, rw, pid, dev;
    if (!(in >> n >> kind >> mode >> rw >> pid >> dev) || kind != "FLOCK") continue;
    const auto colon = dev.rfind(':');
    if (colon == std::string::npos || dev.substr(colon + 1) != std::to_string(st.st_ino)) continue;
    std::ifstream cmd("/proc/" + pid + "/cmdline", std::ios::binary);
    std::string args((std::istreambuf_iterator<char>(cmd)), std::istreambuf_iterator<char>());
    std::string words;
    std::size_t start = 0;
    for (int k = 0; k < 3 && start < args.size(); ++k) {
      const std::size_t end = std::min(args.find('\0', start), args.size());
      std::string w = args.substr(start, end - start);
      if (k == 0) w = std::filesystem::path(w).filename().string();
      words += (words.empty() ? "" : " ") + w;
      start = end + 1;
    }
    return words.empty() ? "pid " + pid : fmt::format("pid {} ({})", pid, words);
  }
  return "another program";
}

// Takes the journal's one-writer lock on `fd` or throws naming who holds it.
void lock_or_refuse(int fd, const std::string& path) {
  if (::flock(fd, LOCK_EX | LOCK_NB) == 0) return;
  const int err = errno;
  if (err != EWOULDBLOCK) {
    ::close(fd);
    throw DataException(
        {path, 0, "", fmt::format("a journal that can be locked ({})", std::strerror(err))});
  }
  const std::string who = lock_holder(fd);
  ::close(fd);
  throw DataException(
      {path, 0, "",
       fmt::format("a journal no other program is writing (it is open for writing by {}; close "
                   "that first — a journal has one writer)",
                   who)});
}

std::string read_all(const std::string& path) {
  return read_regular_file(path, "a readable journal file", kMaxJournalBytes);
}

// Writes `bytes` as a backup of `path` and reads it back; returns the backup's path.
std::string verified_backup(const std::string& path, const std::string& bytes) {
  std::string backup = path + ".damaged";
  // A name nothing holds, not even a link (exists() would follow a planted dangling link).
  const auto taken = [](const std::string& p) {
    std::error_code ec;
    return std::filesystem::symlink_status(p, ec).type() != std::filesystem::file_type::not_found;
  };
  for (int k = 2; taken(backup); ++k)
    backup = fmt::format("{}.damaged-{}", path, k);
  try {
    write_file_atomically(backup, bytes);
  } catch (const DataException& e) {
    throw DataException(
        {path, 0, "",
         fmt::format("room for a complete backup before the journal is cut ({}); nothing was "
                     "changed",
                     e.error().expected)});
  }
  if (read_all(backup) != bytes) {
    std::error_code ec;
    std::filesystem::remove(backup, ec);
    throw DataException(
        {path, 0, "", "a backup that reads back complete (it did not); nothing was changed"});
  }
  return backup;
}

// Cuts the locked journal open as `fd` to `keep` bytes after a verified backup of all of it.
std::string cut_locked(int fd, const std::string& path, std::uint64_t keep) {
  const std::string all = read_all(path);
  if (keep > all.size()) throw DataException({path, 0, "", "a journal at least as long as read"});
  const std::string backup = verified_backup(path, all);
  if (::ftruncate(fd, static_cast<off_t>(keep)) != 0 || ::fsync(fd) != 0) io_fail(path);
  return backup;
}

// Cuts a torn last line (a crash mid-write) off the locked journal open as `fd`, after the cut
// bytes are appended to FILE.torn (one record per cut) and read back: what is cut is kept, and
// the rest is the journal itself. Returns the path of FILE.torn.
std::string cut_torn_tail(int fd, const std::string& path, std::uint64_t keep) {
  const std::string all = read_all(path);
  if (keep > all.size()) throw DataException({path, 0, "", "a journal at least as long as read"});
  const std::string torn = path + ".torn";
  const std::string record =
      fmt::format("# {}: {} bytes cut off at byte {} (a line torn by a crash)\n{}\n", utc_now(),
                  all.size() - keep, keep, all.substr(keep));
  // Never through a planted link, never into a FIFO or a device: a regular file of our own.
  struct stat before {};
  const bool existed = ::lstat(torn.c_str(), &before) == 0;
  const int tfd =
      ::open(torn.c_str(), O_RDWR | O_CREAT | O_APPEND | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK, 0644);
  if (tfd < 0 && errno == ELOOP) {
    throw DataException({torn, 0, "",
                         "a regular file to keep the torn line in (this is a link: it is not "
                         "followed; move it away); nothing was changed"});
  }
  if (tfd < 0) io_fail(torn);
  struct stat st {};
  const bool ok = ::fstat(tfd, &st) == 0;
  if (ok && !S_ISREG(st.st_mode)) {
    ::close(tfd);
    throw DataException(
        {torn, 0, "",
         fmt::format("a regular file to keep the torn line in (this is {}; move it away); "
                     "nothing was changed",
                     non_regular_kind(st.st_mode).value_or("not a regular file"))});
  }
  try {
    write_all(tfd, record, torn);
  } catch (const DataException& e) {
    // Take back a partial record so the file holds whole records only, and a file this attempt
    // made, so a retry on a full disk leaves no empty FILE.torn behind.
    if (ok) (void)!::ftruncate(tfd, st.st_size);
    if (!existed && ok && st.st_size == 0) ::unlink(torn.c_str());
    ::close(tfd);
    throw DataException({path, 0, "",
                         fmt::format("room to keep the torn last line before it is cut ({}); "
                                     "nothing was changed",
                                     e.error().expected)});
  }
  if (::fsync(tfd) != 0) {
    ::close(tfd);
    io_fail(torn);
  }
  ::close(tfd);
  const std::string kept = read_all(torn);
  if (kept.size() < record.size() ||
      kept.compare(kept.size() - record.size(), record.size(), record) != 0) {
    throw DataException({path, 0, "",
                         "a copy of the torn line that reads back (it did not); "
                         "nothing was changed"});
  }
  sync_parent_dir(torn);
  if (::ftruncate(fd, static_cast<off_t>(keep)) != 0 || ::fsync(fd) != 0) io_fail(path);
  return torn;
}

}  // namespace

std::string seal_line(nlohmann::json object, std::string_view journal_id) {
  object.erase("crc");
  const std::string body = object.dump();
  object["crc"] = crc_hex(journal_id, body);
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
  out.file_bytes = text.size();
  out.entry_lines = lines.empty() ? 0 : lines.size() - 1;
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
    // Every header field of the right type, or a located error (never a raw JSON exception).
    for (const char* key : {"program", "created", "kind", "type", "match"}) {
      if (hj.contains(key) && !hj[key].is_string())
        throw DataException({name, 1, key, "text (a JSON string)"});
    }
    if (hj.contains("body") && !hj["body"].is_object())
      throw DataException({name, 1, "body", "an object with the journal's start"});
    if (!hj["schema_version"].is_number_integer() ||
        hj["schema_version"].get<std::int64_t>() > 1000000 ||
        hj["schema_version"].get<std::int64_t>() < -1000000)
      throw DataException({name, 1, "schema_version", "a whole number"});
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
    out.header.id = hj.value("match", std::string());
    if (hj.contains("match") && !is_journal_id(out.header.id))
      throw DataException({name, 1, "match", "the journal's identity: 32 hex digits"});
    out.valid_bytes = lines[0].second + 1;
  }
  // Entries. The lines of one transaction ("tx": [i, n]) are taken together or not at all.
  std::uint64_t expected_seq = 1;
  std::vector<JournalEntry> group;  // a transaction's entries read so far
  std::size_t group_size = 0;
  int group_line = 0;
  const auto kept = [&] { return out.entries.empty() ? std::uint64_t{0} : out.entries.back().seq; };
  bool stopped = false;  // damage stopped the read (the open group, if any, is not used)
  for (std::size_t i = 1; i < lines.size(); ++i) {
    const int line_no = static_cast<int>(i) + 1;
    const bool is_last = i + 1 == lines.size();
    const std::string line = text.substr(lines[i].first, lines[i].second - lines[i].first);
    if (is_last && !last_complete) {
      out.torn_tail = true;
      if (group.empty()) {
        out.warnings.push_back(fmt::format(
            "{}:{}: the last line was cut off while being written (power cut or crash) and was "
            "dropped; the match resumes after event {}",
            name, line_no, kept()));
      }
      break;
    }
    auto j = verify(line, out.header.id);
    if (!j) {
      out.error = DataError{
          name, line_no, fmt::format("event {}", expected_seq),
          fmt::format(
              "this line is damaged ({}); kept: events 1 to {} before it; not "
              "used: this line and everything after it",
              json_deeper_than(line) ? fmt::format("nested deeper than {} levels: no journal line "
                                                   "is",
                                                   kMaxJsonDepth)
              : nlohmann::json::parse(line, nullptr, false).is_discarded()
                  ? "not valid JSON: cut or overwritten"
              : out.header.id.empty() ? "its checksum does not match its text: it was changed "
                                        "after it was written"
                                      : "its checksum does not match its text and this match: it "
                                        "was changed after it was written, or copied from another "
                                        "journal",
              kept())};
      stopped = true;
      break;
    }
    const auto seq = j->contains("seq") && (*j)["seq"].is_number_unsigned()
                         ? (*j)["seq"].get<std::uint64_t>()
                         : std::uint64_t{0};
    if (seq != expected_seq || !j->contains("type") || !(*j)["type"].is_string()) {
      out.error = DataError{name, line_no, "seq",
                            fmt::format("event {} here (found {}); events before it are recovered",
                                        expected_seq, seq)};
      stopped = true;
      break;
    }
    // Its place in a transaction: [i, n], or none (a transaction of one).
    std::size_t tx_i = 1;
    std::size_t tx_n = 1;
    if (j->contains("tx")) {
      const auto& tx = (*j)["tx"];
      if (!tx.is_array() || tx.size() != 2 || !tx[0].is_number_unsigned() ||
          !tx[1].is_number_unsigned() || tx[1].get<std::uint64_t>() < 2 ||
          tx[1].get<std::uint64_t>() > 4096 || tx[0].get<std::uint64_t>() < 1 ||
          tx[0].get<std::uint64_t>() > tx[1].get<std::uint64_t>()) {
        out.error = DataError{name, line_no, "tx", "[i, n]: record i of the n one line made"};
        stopped = true;
        break;
      }
      tx_i = tx[0].get<std::size_t>();
      tx_n = tx[1].get<std::size_t>();
    }
    const std::size_t want = group.empty() ? 1 : group.size() + 1;
    if (tx_i != want || (!group.empty() && tx_n != group_size)) {
      out.error = DataError{
          name, line_no, "tx",
          group.empty()
              ? fmt::format("the first record of a typed line (this is record {} of {}); events "
                            "before it are recovered",
                            tx_i, tx_n)
              : fmt::format("record {} of the {} the line from line {} made (found {} of {}); "
                            "events before that line are recovered",
                            want, group_size, group_line, tx_i, tx_n)};
      stopped = true;
      break;
    }
    if (group.empty()) {
      group_size = tx_n;
      group_line = line_no;
    }
    group.push_back(JournalEntry{seq, (*j)["type"].get<std::string>(),
                                 j->value("data", nlohmann::json()), line_no});
    ++expected_seq;
    if (group.size() == group_size) {
      for (auto& e : group)
        out.entries.push_back(std::move(e));
      group.clear();
      out.valid_bytes = lines[i].second + 1;
    }
  }
  if (!group.empty() && !stopped) {
    // A typed line's records cut short by a crash: none of them was acted on.
    out.torn_tail = true;
    out.warnings.push_back(fmt::format(
        "{}:{}: the last typed line was cut off while being written (power cut or crash) after "
        "{} of its {} records; none of it was used, and it resumes after event {}",
        name, group_line, group.size(), group_size, kept()));
  }
  return out;
}

JournalContents read_journal(const std::string& path) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec))
    throw DataException({path, 0, "", "a journal file (this is a folder)"});
  return parse_journal(read_all(path), path);
}

JournalWriter JournalWriter::create(const std::string& path, const JournalHeader& header) {
  // Everything that can fail on the input (a header that cannot be written as JSON, e.g. a
  // name that is not UTF-8) fails before any file exists.
  // A new journal is a new identity, even when its header was copied from another one.
  const std::string id = new_journal_id();
  nlohmann::json h{{"type", "header"},
                   {"seq", 0},
                   {"schema_version", header.schema_version},
                   {"program", header.program},
                   {"created", header.created},
                   {"kind", header.kind},
                   {"match", id},
                   {"body", header.body}};
  std::string line;
  try {
    line = seal_line(h) + "\n";
  } catch (const nlohmann::json::exception& e) {
    throw DataException(
        {path, 1, "header",
         fmt::format("a set-up that can be written as JSON ({})", plain_json_error(e))});
  }
  std::error_code ec;
  const auto parent = std::filesystem::path(path).parent_path();
  if (!parent.empty()) std::filesystem::create_directories(parent, ec);
  if (std::filesystem::exists(path, ec))
    throw DataException({path, 0, "",
                         "a new file name (this journal exists; it is never "
                         "overwritten)"});
  // The header goes to a locked temporary file that is then linked in under the journal's name:
  // a full disk or a crash leaves no empty or half-written journal behind (and what a kill left
  // is removed here).
  remove_stale_temporaries(path, "new");
  const std::string dir = parent.empty() ? std::string(".") : parent.string();
  std::string tmp = (std::filesystem::path(dir) /
                     ("." + std::filesystem::path(path).filename().string() + ".new-XXXXXX"))
                        .string();
  const int fd = ::mkostemp(tmp.data(), O_CLOEXEC | O_APPEND);
  if (fd < 0) io_fail(path);
  auto fail = [&](int err) {
    ::close(fd);
    ::unlink(tmp.c_str());
    errno = err;
    io_fail(path);
  };
  ::flock(fd, LOCK_EX | LOCK_NB);
  ::fchmod(fd, 0644);
  try {
    write_all(fd, line, path);
  } catch (const DataException&) {
    ::close(fd);
    ::unlink(tmp.c_str());
    throw;
  }
  if (::fdatasync(fd) != 0) fail(errno);
  if (::link(tmp.c_str(), path.c_str()) != 0) {
    const int err = errno;
    ::close(fd);
    ::unlink(tmp.c_str());
    if (err == EEXIST)
      throw DataException({path, 0, "",
                           "a new file name (this journal exists; it is never "
                           "overwritten)"});
    errno = err;
    io_fail(path);
  }
  ::unlink(tmp.c_str());
  sync_parent_dir(path);
  return JournalWriter(path, fd, 1, id);
}

JournalWriter JournalWriter::append_to(const std::string& path, const JournalContents& contents,
                                       bool* repaired) {
  if (repaired != nullptr) *repaired = false;
  const int fd = ::open(path.c_str(), O_RDWR | O_APPEND | O_CLOEXEC);
  if (fd < 0) io_fail(path);
  lock_or_refuse(fd, path);
  JournalWriter w(path, fd, contents.entries.empty() ? 1 : contents.entries.back().seq + 1,
                  contents.header.id);
  struct stat st {};
  if (::fstat(fd, &st) != 0) io_fail(path);
  if (static_cast<std::uint64_t>(st.st_size) != contents.file_bytes) {
    throw DataException({path, 0, "",
                         "a journal nothing else is changing (it changed while it was being "
                         "opened; open it again)"});
  }
  if (contents.error) {
    DataError err = *contents.error;
    err.expected += fmt::format(
        ". Nothing was changed: to go on from event {}, run `duels match repair {}` (it keeps a "
        "complete copy as {}.damaged first)",
        contents.entries.size(), path, path);
    throw DataException(err);
  }
  if (contents.valid_bytes != contents.file_bytes) {
    // Only a torn last line (a crash mid-write; its event was never acted on) is cut here.
    (void)cut_torn_tail(fd, path, contents.valid_bytes);
    if (repaired != nullptr) *repaired = true;
  }
  return w;
}

JournalLock::JournalLock(const std::string& path) : path_(path) {
  fd_ = ::open(path.c_str(), O_RDWR | O_CLOEXEC);
  if (fd_ < 0) io_fail(path);
  lock_or_refuse(fd_, path);  // closes the file when refused
}

JournalLock::~JournalLock() {
  if (fd_ >= 0) ::close(fd_);
}

std::string JournalLock::cut(std::uint64_t keep_bytes) {
  return cut_locked(fd_, path_, keep_bytes);
}

std::vector<std::string> damage_notes(const JournalContents& contents,
                                      const std::optional<DataError>& stopped,
                                      std::uint64_t events_used, const std::string& path) {
  std::vector<std::string> out = contents.warnings;
  if (stopped) {
    DataError e = *stopped;
    if (e.file.empty()) e.file = path;
    out.push_back("the journal is damaged: " + e.message());
  }
  if (stopped || contents.torn_tail) {
    out.push_back(fmt::format(
        "this covers events 1 to {} of the {} lines in the journal; `duels match repair {}` "
        "keeps those (after a complete backup) so the match can go on",
        events_used, contents.entry_lines, path));
  }
  return out;
}

JournalWriter::JournalWriter(JournalWriter&& other) noexcept
    : path_(std::move(other.path_)),
      fd_(other.fd_),
      next_seq_(other.next_seq_),
      id_(std::move(other.id_)) {
  other.fd_ = -1;
}

JournalWriter& JournalWriter::operator=(JournalWriter&& other) noexcept {
  if (this != &other) {
    if (fd_ >= 0) ::close(fd_);
    path_ = std::move(other.path_);
    fd_ = other.fd_;
    next_seq_ = other.next_seq_;
    id_ = std::move(other.id_);
    other.fd_ = -1;
  }
  return *this;
}

JournalWriter::~JournalWriter() {
  if (fd_ >= 0) ::close(fd_);
}

void JournalWriter::write_lines(const std::string& lines) {
  // Where the journal ends now: a write or sync that fails is cut back to here before the error
  // is reported, so "nothing was changed" is true (a full disk leaves no torn line behind).
  struct stat st {};
  if (::fstat(fd_, &st) != 0) io_fail(path_);
  const off_t end = st.st_size;
  try {
    write_all(fd_, lines, path_);
    if (::fdatasync(fd_) != 0) io_fail(path_);
  } catch (const DataException& e) {
    if (::ftruncate(fd_, end) == 0 && ::fsync(fd_) == 0) throw;  // it says nothing was changed
    throw DataException(
        {path_, 0, "",
         fmt::format("{} (but a part may have been written and could not be taken back: the next "
                     "open keeps it in {}.torn and cuts it off)",
                     e.error().expected, path_)});
  }
}

JournalEntry JournalWriter::append(const std::string& type, const nlohmann::json& data) {
  return append_group({{type, data}}).front();
}

std::vector<JournalEntry> JournalWriter::append_group(
    const std::vector<std::pair<std::string, nlohmann::json>>& entries) {
  std::vector<JournalEntry> out;
  if (entries.empty()) return out;
  const std::size_t n = entries.size();
  const std::string time = utc_now();
  std::string lines;
  for (std::size_t k = 0; k < n; ++k) {
    const std::uint64_t seq = next_seq_ + k;
    nlohmann::json j{
        {"seq", seq}, {"type", entries[k].first}, {"data", entries[k].second}, {"time", time}};
    if (n > 1) j["tx"] = {k + 1, n};
    try {
      lines += seal_line(j, id_) + "\n";
    } catch (const nlohmann::json::exception& e) {
      // Text that is not UTF-8 cannot go into the journal: refused before anything is written.
      throw DataException({path_, 0, fmt::format("event {}", seq), plain_json_error(e)});
    }
    out.push_back(JournalEntry{seq, entries[k].first, entries[k].second, 0});
  }
  write_lines(lines);
  next_seq_ += n;
  return out;
}

}  // namespace duels::match
