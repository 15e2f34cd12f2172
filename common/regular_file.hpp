#pragma once
/// @file Only regular files are read whole, and only up to a bound.
///
/// A name a player gives (or a file dropped in a data folder) can be anything: a FIFO that never
/// ends, a link to /dev/zero, a folder, a file of gigabytes. Every reader that loads a file
/// whole goes through read_regular_file(), which opens without blocking, checks what it opened
/// and refuses anything but a regular file of bounded size, in words: "FILE: a readable figure
/// file (this is a FIFO (a named pipe); only regular files are read)". Scripts, which are read
/// line by line as a stream, may still come from a pipe.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace duels {

/// Bounds for what is read whole: a data file (YAML, a scene, a metatype table) and a journal.
inline constexpr std::uint64_t kMaxDataFileBytes = 16ULL << 20;  // 16 MiB
inline constexpr std::uint64_t kMaxJournalBytes = 512ULL << 20;  // 512 MiB

/// What `mode` (a stat st_mode) is when it is not a regular file, in words ("a FIFO (a named
/// pipe)", "a character device", "a folder", …); nullopt for a regular file.
std::optional<std::string> non_regular_kind(unsigned mode);

/// What the file at `path` is when it exists and is not a regular file, following links (a link
/// to /dev/zero is "a character device"); nullopt for a regular file or no file at all.
std::optional<std::string> non_regular_file(const std::string& path);

/// Reads the whole of the regular file `path`, at most `max_bytes` of it. Anything else throws a
/// DataException naming the file with `what` as the expectation and the reason in brackets: it
/// cannot be opened (it does not exist, …), it is not a regular file, it is larger than
/// `max_bytes`.
std::string read_regular_file(const std::string& path, std::string_view what,
                              std::uint64_t max_bytes = kMaxDataFileBytes);

/// "16 MiB", "3.2 KiB": a size for a message.
std::string size_words(std::uint64_t bytes);

}  // namespace duels
