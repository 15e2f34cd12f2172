#pragma once
/// @file How subcommands plug into the `duels` executable.
///
/// Each `app/cmd_*.cpp` defines a function that adds its subcommand(s) to the CLI11 app and
/// registers it with DUELS_COMMAND. Handlers report problems by throwing:
///   - UsageError            → exit 2 (bad flags or arguments)
///   - duels::DataException  → exit 3 (bad data file or notation)
///   - IllegalAction         → exit 3 (the rules forbid what was asked)
///   - Unavailable           → exit 3 (a display or device the command needs is not there)
/// Anything else that escapes a handler is also exit 3, with its message: no exit 1.
/// and print results as text, or as JSON when `--json` is given.

#include <CLI/CLI.hpp>

#include <stdexcept>
#include <string>

#include "duels/assets.hpp"

namespace duels::app {

/// Exit codes of the `duels` command (documented in docs/commands.md).
enum ExitCode : int { kOk = 0, kUsage = 2, kInvalid = 3 };

/// A command-line mistake by the user (wrong flag combination, missing argument).
class UsageError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// A game action the rules forbid, with the reason in words.
class IllegalAction : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// Something the command needs that is not there: no display for the window, no camera. The
/// message says what is missing and what to do instead.
class Unavailable : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

using AddCommandFn = void (*)(CLI::App& root);

/// Adds a subcommand family to the registry; `order` sorts the help listing.
bool register_command(int order, AddCommandFn add);

/// Adds every registered subcommand to `root`.
void add_registered_commands(CLI::App& root);

/// The folder with the bundled assets (figures, gear, scenes): $DUELS_ASSETS, else
/// ../share/duels-companion beside the running executable (installed), else the source tree.
std::string assets_dir();

/// The player's data folder: $XDG_DATA_HOME/duels-companion, else ~/.local/share/duels-companion
/// (the same folder as match::data_dir()). Their own figures, gear and teams live in its
/// figures/, gear/ and teams/ folders.
std::string user_data_dir();

/// The bundled samples and the player's own figures, gear and teams (their data folder) in one
/// library; a name in both is a DataException naming both files.
duels::AssetLibrary load_library();

}  // namespace duels::app

#define DUELS_CONCAT_INNER(a, b) a##b
#define DUELS_CONCAT(a, b) DUELS_CONCAT_INNER(a, b)
/// Registers `fn` (void fn(CLI::App&)) as a subcommand family, sorted by `order`.
#define DUELS_COMMAND(order, fn)                                                         \
  [[maybe_unused]] static const bool DUELS_CONCAT(duels_command_registered_, __LINE__) = \
      ::duels::app::register_command(order, fn)
