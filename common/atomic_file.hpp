#pragma once
/// @file Writing files so that nothing is ever lost: one helper for every file the program writes.
///
/// write_file_atomically() writes to a temporary file in the target's folder, checks every write,
/// fsyncs the file, renames it over the target and fsyncs the folder. A failure at any step (a full
/// disk, a read-only folder) leaves the previous file exactly as it was and no temporary behind,
/// and is reported as a DataException naming the file and the reason.
///
/// For tests, every write made through write_all() (this helper and the journals) can be made to
/// fail like a full disk: set_write_budget(N) (or the environment variable
/// DUELS_FAULT_WRITE_BUDGET=N for a whole process) lets N more bytes through, then fails with
/// ENOSPC.

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace duels {

/// Replaces `path` by `data` atomically (see the file comment). Only a regular file (or a new
/// name) is written: a link, a device, a FIFO or a folder at `path` is refused with nothing
/// written. Temporaries that a killed writer of the same file left behind are removed first.
/// Throws DataException.
void write_file_atomically(const std::string& path, std::string_view data);

/// Why `path` cannot be replaced by a regular file, in words ("a regular file to write (this is a
/// character device)…"), or nullopt when it is a regular file or does not exist. Links are not
/// followed: a link is refused.
std::optional<std::string> unwritable_target(const std::string& path);

/// Removes the temporaries `.NAME.TAG-XXXXXX` beside `path` that no living writer holds (each
/// writer keeps its temporary locked): what a kill in the middle of a write left behind.
void remove_stale_temporaries(const std::string& path, std::string_view tag);

/// One file of a folder written whole.
struct FolderFile {
  std::string name;  ///< a plain file name (no folder)
  std::string bytes;
};

/// Makes the folder `dir` hold `files`, whole or not at all: they are written into a staging
/// folder beside it (`.DIR.staging-XXXXXX`), each synced, and the staging folder is then swapped
/// with `dir` in one step (renameat2 RENAME_EXCHANGE; a plain rename when `dir` is new). A
/// failure at any step (a full disk) leaves `dir` exactly as it was. An existing `dir` may hold
/// only regular files named in `ours` (what an earlier write made); anything else there is
/// refused, so a folder of the player's other files is never swapped away. Throws
/// DataException naming `dir`.
void write_folder_atomically(const std::string& dir, const std::vector<FolderFile>& files,
                             const std::vector<std::string>& ours);

/// Writes all of `data` to the open descriptor `fd` (retrying short writes and EINTR). Throws
/// DataException naming `path` on failure, with errno kept for the caller in `last_errno()`.
void write_all(int fd, std::string_view data, const std::string& path);

/// fsyncs the folder holding `path` so a rename or a new file in it is durable.
void sync_parent_dir(const std::string& path);

/// The message for an I/O failure on `path`: "a writable file (No space left on device) …".
std::string io_failure_text(int err);

/// Test hook: after `bytes` more bytes, writes through write_all() fail with ENOSPC; nullopt
/// removes the limit. The environment variable DUELS_FAULT_WRITE_BUDGET sets it at start-up.
void set_write_budget(std::optional<long long> bytes);

}  // namespace duels
