#pragma once
/// @file The append-only JSON Lines journal: the truth of every match and card-game session.
///
/// Line 1 is the header (schema_version, program, creation time, kind, the journal's identity and
/// the kind's body — for a Duels match, its set-up). Every further line is one entry: a sequence
/// number, a type ("command", "undo", "redo", …), its data, and a checksum of the line and of the
/// journal's identity, so a line copied in from another journal (or a header from another match)
/// is refused as damage. The entries one typed
/// line made are a transaction: each is marked "tx": [i, n], and a reader takes all n or none. Each
/// line is written, flushed and synced to disk before the caller acts on it. A journal is never
/// rewritten in place: repairs write a new file and rename it over the old one atomically.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "common/error.hpp"

namespace duels::match {

/// The journal format version this program writes and reads.
inline constexpr int kJournalSchemaVersion = 1;

/// The first line of a journal.
struct JournalHeader {
  int schema_version = kJournalSchemaVersion;
  std::string program;  ///< "duels 0.1.0"
  std::string created;  ///< UTC, ISO 8601
  std::string kind;     ///< "duels", "encounters", …
  nlohmann::json body;  ///< what the kind needs to start (a Duels set-up, …)
  /// The journal's identity: 32 random hex digits that create() draws for every new journal
  /// (whatever is given here), and that every entry's checksum covers. Empty in journals written
  /// before identities existed; their entries are checked by their text alone.
  std::string id;
};

/// One entry after the header.
struct JournalEntry {
  std::uint64_t seq = 0;
  std::string type;
  nlohmann::json data;
  int line = 0;  ///< 1-based line in the file
};

/// What reading a journal found. `error` is set when a damaged line stopped the read: every
/// entry before it is in `entries` and can be recovered.
struct JournalContents {
  JournalHeader header;
  std::vector<JournalEntry> entries;
  std::vector<std::string> warnings;  ///< e.g. a torn last line that was dropped
  std::optional<DataError> error;
  bool torn_tail = false;         ///< the last line was incomplete and was dropped
  std::uint64_t valid_bytes = 0;  ///< length of the intact prefix of the file
  std::uint64_t file_bytes = 0;   ///< length of the whole file as read
  std::size_t entry_lines = 0;    ///< lines after the header in the file, damaged ones included
};

/// Reads a journal. Throws DataException when there is nothing to recover (missing file,
/// damaged or incomplete header, unknown or newer schema version).
JournalContents read_journal(const std::string& path);

/// Parses journal text (what read_journal does after reading the file); `name` labels errors.
JournalContents parse_journal(const std::string& text, const std::string& name);

/// Appends entries to a journal, each synced to disk before append() returns.
///
/// A journal has one writer: the writer holds an exclusive lock (flock) on the file for as long
/// as it lives, and a second writer (another command, window or console) is refused with a
/// message naming the process that holds it.
class JournalWriter {
 public:
  /// Creates a new journal with its header, atomically: the file appears complete or not at all
  /// (fails if the file exists).
  static JournalWriter create(const std::string& path, const JournalHeader& header);
  /// Opens an existing journal for appending after `contents` (as read). Refuses (throws
  /// DataException, nothing changed) when the journal is damaged before its last line: only
  /// `duels match repair` cuts that. A torn last line (a crash mid-write: its event was never
  /// acted on) is cut off after its bytes are appended to FILE.torn and read back; `repaired`
  /// says whether that happened.
  static JournalWriter append_to(const std::string& path, const JournalContents& contents,
                                 bool* repaired = nullptr);

  JournalWriter(JournalWriter&& other) noexcept;
  JournalWriter& operator=(JournalWriter&& other) noexcept;
  JournalWriter(const JournalWriter&) = delete;
  JournalWriter& operator=(const JournalWriter&) = delete;
  ~JournalWriter();

  /// Writes one entry (seq is assigned) and syncs it. Throws DataException on I/O failure,
  /// after cutting the journal back to where it ended before: a failed append changes nothing.
  JournalEntry append(const std::string& type, const nlohmann::json& data);
  /// Writes several entries as one transaction (what one typed line did): one write, one sync,
  /// each line marked "tx": [i, n]. A reader uses all of them or none: a group cut short by a
  /// crash is a torn tail. Like append(), a failure leaves the journal as it was.
  std::vector<JournalEntry> append_group(
      const std::vector<std::pair<std::string, nlohmann::json>>& entries);
  [[nodiscard]] std::uint64_t next_seq() const { return next_seq_; }
  [[nodiscard]] const std::string& path() const { return path_; }

 private:
  JournalWriter(std::string path, int fd, std::uint64_t next_seq, std::string id)
      : path_(std::move(path)), fd_(fd), next_seq_(next_seq), id_(std::move(id)) {}
  void write_lines(const std::string& lines);

  std::string path_;
  int fd_ = -1;
  std::uint64_t next_seq_ = 1;
  std::string id_;  ///< the journal's identity, sealed into every line
};

/// The journal's one-writer lock, held without writing: what `duels match repair` holds while
/// it reads the journal, decides what to keep and cuts, so no writer can append in between.
class JournalLock {
 public:
  /// Takes the lock; refused (DataException naming the program) while another program writes.
  explicit JournalLock(const std::string& path);
  JournalLock(const JournalLock&) = delete;
  JournalLock& operator=(const JournalLock&) = delete;
  ~JournalLock();
  /// Cuts the journal back to its first `keep_bytes` bytes, after its whole content is copied
  /// to a backup (FILE.damaged, or FILE.damaged-2, … when taken) and the copy is read back and
  /// verified. Nothing is changed when the backup cannot be made complete (a full disk).
  /// Returns the backup's path. Throws DataException.
  std::string cut(std::uint64_t keep_bytes);

 private:
  std::string path_;
  int fd_ = -1;
};

/// What a reader says when a journal is damaged: the read's warnings, where it stopped, and how
/// many of the journal's events the result covers. Empty for an intact journal.
std::vector<std::string> damage_notes(const JournalContents& contents,
                                      const std::optional<DataError>& stopped,
                                      std::uint64_t events_used, const std::string& path);

/// The line text for an object: canonical JSON with a "crc" field over the rest and, for an entry
/// of a journal with an identity, over that identity too (`journal_id`; empty for a header).
std::string seal_line(nlohmann::json object, std::string_view journal_id = {});

/// UTC now as "2026-11-21T19:39:43Z".
std::string utc_now();

}  // namespace duels::match
