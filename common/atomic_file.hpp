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

namespace duels {

/// Replaces `path` by `data` atomically (see the file comment). Throws DataException.
void write_file_atomically(const std::string& path, std::string_view data);

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
