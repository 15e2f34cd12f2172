#include "overlay/card_games.hpp"

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <stdexcept>

#include "cards/crossfire/json.hpp"
#include "cards/crossfire/metatypes.hpp"
#include "cards/encounters/json.hpp"
#include "cards/srtcg/json.hpp"
#include "dice/roller.hpp"
#include "match/crossfire_session.hpp"
#include "match/duels_match.hpp"
#include "match/encounters_session.hpp"
#include "match/journal.hpp"
#include "match/srtcg_session.hpp"

namespace duels::overlay {

namespace {

namespace fs = std::filesystem;

std::string lower(std::string s) {
  for (auto& c : s)
    c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

// The journal's path, made when absent.
std::string journal_or_new(const CardTableOptions& o, const std::string& game) {
  return o.journal.empty() ? new_card_journal(game) : o.journal;
}

// A card game's console in a tab: what all three share. `Console` is the game's console (its
// session, its replies, its help); the game's render() is found next to its State.
template <class Console, class Attached>
class ConsoleTable : public CardTable {
 public:
  [[nodiscard]] std::string state_text() const override {
    return render(console_.session().state());
  }
  [[nodiscard]] std::string help() const override { return Console::help(); }
  [[nodiscard]] std::size_t commands() const override { return console_.session().log().size(); }

 protected:
  template <class... Args>
  explicit ConsoleTable(const CardTableOptions& o, const std::string& game, Args&&... args)
      : console_(std::forward<Args>(args)...) {
    journal_ = journal_or_new(o, game);
  }
  // The journal the console was attached to: its notes (resumed, a torn line dropped) first,
  // then the greeting.
  void attached(Attached a, const std::string& greeting) {
    attached_ = std::move(a);
    for (const auto& n : attached_.notes)
      note(n);
    note(greeting);
  }
  Reply handle(const std::string& line) override {
    const auto r = console_.handle(line);
    return {r.text, r.ok};
  }
  // A resumed session keeps the seed it started with (its rolls replay exactly).
  template <class Game>
  static std::uint64_t seed_for(const CardTableOptions& o) {
    return match::session_seed<Game>(o.journal, o.seed != 0 ? o.seed : dice::fresh_seed());
  }

  Console console_;
  Attached attached_;
};

// Encounters: the console of `duels encounters play`, journaled by match/encounters_session.
class EncountersTable final
    : public ConsoleTable<cards::encounters::Console, match::AttachedJournal> {
 public:
  explicit EncountersTable(const CardTableOptions& o)
      : ConsoleTable(o, "encounters", seed_for<match::EncountersGame>(o)) {
    attached(match::attach_encounters_journal(journal_, console_, console_.seed()),
             "Encounters session, seed " + std::to_string(console_.seed()) +
                 ". Type help for the commands.");
  }
  [[nodiscard]] std::string game() const override { return "Encounters"; }
  [[nodiscard]] std::vector<std::string> quick_words() const override {
    return {"advise", "odds", "solve", "roll", "log", "undo", "redo"};
  }
};

// Crossfire: the console of `duels crossfire play` (no dice), journaled by
// match/crossfire_session.
class CrossfireTable final
    : public ConsoleTable<cards::crossfire::Console, match::CrossfireJournal> {
 public:
  explicit CrossfireTable(const CardTableOptions& o) : ConsoleTable(o, "crossfire", metatypes(o)) {
    attached(match::attach_crossfire_journal(journal_, console_),
             "Crossfire session. Type help for the commands.");
  }
  [[nodiscard]] std::string game() const override { return "Crossfire"; }
  [[nodiscard]] std::vector<std::string> quick_words() const override {
    return {"best", "next", "allocate", "forecast", "log", "undo", "redo"};
  }

 private:
  static std::vector<cards::crossfire::Metatype> metatypes(const CardTableOptions& o) {
    if (o.crossfire_metatypes.empty()) return {};
    return cards::crossfire::load_metatypes(o.crossfire_metatypes);
  }
};

// SRTCG: the console of `duels srtcg play`, journaled by match/srtcg_session.
class SrtcgTable final : public ConsoleTable<cards::srtcg::Console, match::AttachedSrtcgJournal> {
 public:
  explicit SrtcgTable(const CardTableOptions& o)
      : ConsoleTable(o, "srtcg", seed_for<match::SrtcgGame>(o)) {
    attached(
        match::attach_srtcg_journal(journal_, console_, console_.seed()),
        "SRTCG session, seed " + std::to_string(console_.seed()) + ". Type help for the commands.");
  }
  [[nodiscard]] std::string game() const override { return "SRTCG"; }
  [[nodiscard]] std::vector<std::string> quick_words() const override {
    return {"next", "combat", "fight", "log", "undo", "redo"};
  }
};

}  // namespace

bool CardTable::send(const std::string& line) {
  transcript_.push_back({"> " + line, true, true});
  ++version_;
  const Reply r = handle(line);
  std::string text = r.text;
  while (!text.empty() && (text.back() == '\n' || text.back() == ' '))
    text.pop_back();
  if (!text.empty()) note(text, r.ok);
  if (transcript_.size() > 2000) transcript_.erase(transcript_.begin(), transcript_.begin() + 500);
  return r.ok;
}

void CardTable::note(std::string text, bool ok) {
  transcript_.push_back({std::move(text), false, ok});
  ++version_;
}

std::vector<std::string> card_games() {
  return {"encounters", "crossfire", "srtcg"};
}

std::string new_card_journal(const std::string& game) {
  return match::new_session_journal(lower(game));
}

std::unique_ptr<CardTable> open_card_table(const std::string& game,
                                           const CardTableOptions& options) {
  const std::string g = lower(game);
  if (!options.journal.empty() && fs::path(options.journal).has_parent_path())
    fs::create_directories(fs::path(options.journal).parent_path());
  if (g == "encounters") return std::make_unique<EncountersTable>(options);
  if (g == "crossfire") return std::make_unique<CrossfireTable>(options);
  if (g == "srtcg") return std::make_unique<SrtcgTable>(options);
  throw std::invalid_argument("no card game '" + game + "' (encounters, crossfire, srtcg)");
}

}  // namespace duels::overlay
