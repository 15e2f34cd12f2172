#pragma once
/// @file The `play` loop the card-game consoles share (`duels encounters|crossfire|srtcg play`).

#include <fmt/format.h>
#include <CLI/CLI.hpp>

#include <cstdint>
#include <fstream>
#include <iostream>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "common/error.hpp"

namespace duels::app {

/// The options every card game's `play` takes.
struct CardPlayOptions {
  std::string journal;
  std::string script;
  bool quiet = false;
  bool keep_going = false;            ///< a script plays on after a refused line
  std::optional<std::uint64_t> seed;  ///< games with dice only
};

/// Adds `play` to a card game's command with --journal, --script, --quiet and (for games with
/// dice) --seed; the game adds its own options to the returned subcommand.
inline CLI::App* add_card_play(CLI::App& parent, const std::string& description,
                               const std::shared_ptr<CardPlayOptions>& o, bool seeded) {
  auto* cmd = parent.add_subcommand("play", description);
  cmd->add_option("--journal", o->journal,
                  "keep the session in this journal (resumed if it exists; default: a new one in "
                  "the data folder)");
  if (seeded)
    cmd->add_option("--seed", o->seed, "seed for rolls without faces and the first player");
  // Checked before anything else runs: a missing script or a folder creates no journal.
  cmd->add_option("--script", o->script, "read commands from this file instead of stdin")
      ->check(CLI::ExistingFile);
  cmd->add_flag("--quiet", o->quiet, "do not echo the prompt");
  cmd->add_flag("--keep-going", o->keep_going,
                "with --script: play the lines after a refused one too (default: stop there)");
  return cmd;
}

/// Prints the journal's `notes`, then plays lines from `o.script` (standard input when empty)
/// through `console`: the prompt and the echoed line unless `o.quiet`, each reply, until the input
/// ends or a reply quits; then the summary (`hash_hex` gives the state hash). A script stops at
/// its first refused line and ends as an error (exit 3) naming it: the lines after it were
/// written for a game that went otherwise. With `o.keep_going` it plays them too and still ends
/// as an error naming the first refused line. A typed session only counts refusals.
template <class Console, class HashHex>
void play_card_console(Console& console, const CardPlayOptions& o,
                       const std::vector<std::string>& notes, const std::string& banner,
                       const std::string& journal, HashHex hash_hex) {
  const std::string& script = o.script;
  const bool quiet = o.quiet;
  for (const auto& note : notes)
    std::cout << "note: " << note << "\n";
  std::ifstream file;
  if (!script.empty()) {
    file.open(script);
    if (!file) throw DataException({script, 0, "", "cannot open the script"});
  }
  std::istream& in = script.empty() ? std::cin : file;
  std::cout << banner << "\n";
  std::string line;
  int line_no = 0;
  int refused = 0;
  int first_refused = 0;
  while (true) {
    if (!quiet) std::cout << "> " << std::flush;
    if (!std::getline(in, line)) break;
    ++line_no;
    if (!script.empty() && !quiet) std::cout << line << "\n";
    const auto reply = console.handle(line);
    std::cout << reply.text;
    if (!reply.ok && ++refused == 1) first_refused = line_no;
    if (reply.quit) break;
    if (!reply.ok && !script.empty() && !o.keep_going) break;
  }
  if (!quiet) std::cout << "\n";
  const auto commands = console.session().log().size();
  std::cout << fmt::format("{} command{} in effect (journal {}), {} refused; state {}\n", commands,
                           commands == 1 ? "" : "s", journal, refused,
                           hash_hex(console.session().state()));
  if (!script.empty() && refused > 0 && !o.keep_going) {
    throw DataException(
        {script, first_refused, "",
         "a line the game accepts (this one was refused, see above; the lines before it were "
         "played and journaled, none after it was played: fix it and run the rest, or use "
         "--keep-going)"});
  }
  if (!script.empty() && refused > 0) {
    throw DataException({script, first_refused, "",
                         fmt::format("lines the game accepts ({} refused, the first here; see "
                                     "above; the other lines were played and journaled)",
                                     refused)});
  }
}

}  // namespace duels::app
