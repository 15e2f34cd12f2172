#pragma once
/// @file The card games in the window (Encounters, Crossfire, …): each is played through its own
/// text console (the same one as `duels encounters play` / `duels crossfire play`), journaled in
/// its own session journal, so the window adds no rules of its own. No ImGui here: the card
/// tables are driven headless by the tests.

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace duels::overlay {

/// One line of a card table's transcript: what was typed, or what the console answered.
struct CardLine {
  std::string text;
  bool typed = false;  ///< a line the player typed (else the console's answer)
  bool ok = true;      ///< false when the console refused or did not understand the line
};

/// A click in a card tab. `Send` sends `line` as if typed; `Select` toggles `line` in the tab's
/// selection (Encounters dice by their fixed slot, SRTCG runners by name); `WithSelected`, shown
/// while something is selected, sends `line` with its `{}` replaced by the selection joined by
/// "," (numbers in order, names as clicked: `lock 3,5`, `run Ann -> Sam,Rook`); `Face` adds the
/// face `line` to the tab's roll (sent as `roll F,F,…` once every unlocked die has a face);
/// `Prefill` puts `line` in the command field to finish by typing (a card's text, e.g. `hire `).
struct CardAction {
  enum class Kind : std::uint8_t { Send, Select, WithSelected, Face, Prefill };
  Kind kind = Kind::Send;
  std::string label;  ///< the button's text, unique in the tab
  std::string line;
  std::string group;  ///< buttons of a group share a row ("dice", "ways", "cards", …)
  friend bool operator==(const CardAction&, const CardAction&) = default;
};

/// The line a `WithSelected` action sends for `selected` (in click order): numbers sorted, names
/// as clicked, joined by "," in place of the action's `{}`.
std::string with_selected(const CardAction& action, std::vector<std::string> selected);

/// A card game played through its console, tied to its journal.
class CardTable {
 public:
  virtual ~CardTable() = default;
  CardTable() = default;
  CardTable(const CardTable&) = delete;
  CardTable& operator=(const CardTable&) = delete;

  /// Sends one console line (journaled by the console's session when it is a command); the
  /// line and the answer go to the transcript. Returns whether the console accepted it.
  bool send(const std::string& line);

  /// The game's name ("Encounters").
  [[nodiscard]] virtual std::string game() const = 0;
  /// The state in words (the console's `state` rendering).
  [[nodiscard]] virtual std::string state_text() const = 0;
  /// The console's command language.
  [[nodiscard]] virtual std::string help() const = 0;
  /// Console words offered as one-click buttons (e.g. "advise", "undo").
  [[nodiscard]] virtual std::vector<std::string> quick_words() const = 0;
  /// The frequent actions of the game's state as clicks (dice faces, lock, a way to beat the
  /// Encounter, retain, a played card onto an obstacle, …).
  [[nodiscard]] virtual std::vector<CardAction> actions() const { return {}; }
  /// How many `Face` clicks make a roll (0: no roll is due).
  [[nodiscard]] virtual int faces_wanted() const { return 0; }
  /// Commands in effect (undone ones not counted).
  [[nodiscard]] virtual std::size_t commands() const = 0;
  [[nodiscard]] const std::string& journal() const { return journal_; }
  [[nodiscard]] const std::vector<CardLine>& transcript() const { return transcript_; }
  /// Bumped whenever the transcript grows (the panel scrolls to the end then).
  [[nodiscard]] std::uint64_t version() const { return version_; }

 protected:
  struct Reply {
    std::string text;
    bool ok = true;
  };
  virtual Reply handle(const std::string& line) = 0;
  void note(std::string text, bool ok = true);
  std::string journal_;

 private:
  std::vector<CardLine> transcript_;
  std::uint64_t version_ = 0;
};

/// The card games the window offers, in tab order.
std::vector<std::string> card_games();

/// Where a new session journal of `game` goes: DATA/<game>/<UTC stamp>.jsonl.
std::string new_card_journal(const std::string& game);

/// How to open a card table.
struct CardTableOptions {
  std::string journal;              ///< resumed when it exists, else created ("" = a new one)
  std::uint64_t seed = 0;           ///< seed of a new session's virtual rolls (0: fresh)
  std::string crossfire_metatypes;  ///< Crossfire's metatype table ("" = none)
};

/// Opens the table of one of `card_games()` ("encounters", "crossfire", any case). Throws
/// DataException for a bad journal or metatype table, std::invalid_argument for an unknown game.
std::unique_ptr<CardTable> open_card_table(const std::string& game,
                                           const CardTableOptions& options);

/// How the card-game tabs open their sessions.
struct CardGamesOptions {
  std::string open_tab;  ///< show the panel with this game's tab at the start ("" = hidden)
  std::map<std::string, std::string> journals;  ///< per game: the journal to resume or create
  std::string crossfire_metatypes;              ///< Crossfire's metatype table
  std::uint64_t seed = 0;                       ///< seed of new sessions (0: fresh)
};

}  // namespace duels::overlay
