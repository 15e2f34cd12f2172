#pragma once
/// @file A Duels match backed by its journal (session.hpp with the Duels rules engine).

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "duels/engine.hpp"
#include "match/session.hpp"

namespace duels::match {

/// The journal kind of a Duels match.
inline constexpr const char* kDuelsKind = "duels";
/// The Duels journal format: 2 keeps the table (size, terrain catalogue) in the set-up and the
/// terrain shapes and move destinations in the commands. Format 1 journals (no "format" in the
/// header body) replay with the rules they were played under: typed distances, shapeless terrain.
inline constexpr int kDuelsFormat = 2;

/// What a Duels match starts from: the set-up and the seed of its virtual rolls.
struct DuelsStart {
  MatchSetup setup;
  std::uint64_t seed = 0;
};

/// The Duels rules as a journaled game (see session.hpp).
struct DuelsGame {
  static constexpr const char* kKind = kDuelsKind;
  using Start = DuelsStart;
  using State = GameState;
  using Command = duels::Command;
  using Event = duels::Event;
  using Rejection = duels::Rejection;
  static nlohmann::json start_to_json(const Start& s);
  static Start start_from_json(const nlohmann::json& j);
  static Expected<State, std::string> initial(const Start& s);
  static Expected<std::vector<Event>, Rejection> apply(State& s, const Command& c) {
    return duels::apply(s, c);
  }
  static nlohmann::json command_to_json(const Command& c);
  static Command command_from_json(const nlohmann::json& j);
  static std::string reason(const Rejection& r) { return r.reason; }
  static Rejection rejection(std::string reason) {
    return Rejection{RejectCode::Other, std::move(reason)};
  }
};

/// One applied command with what it did.
using MatchStep = SessionStep<DuelsGame>;
/// A journal replayed: `setup`, `seed`, the state, the steps in effect.
using Replay = SessionReplay<DuelsGame>;

/// Replays a Duels journal up to entry `at` (all when nullopt).
Replay replay(const JournalContents& contents, std::optional<std::uint64_t> at = std::nullopt);

/// A Duels match open for play.
class DuelsMatch : public JournaledSession<DuelsGame> {
 public:
  /// Starts a journal at `path` (which must not exist) for this set-up.
  static DuelsMatch create(const std::string& path, const MatchSetup& setup, std::uint64_t seed);
  /// Opens a journal, replays it and makes it ready to append.
  static DuelsMatch resume(const std::string& path);
  [[nodiscard]] std::uint64_t seed() const { return history().seed; }

 private:
  explicit DuelsMatch(JournaledSession<DuelsGame>&& s)
      : JournaledSession<DuelsGame>(std::move(s)) {}
};

/// The XDG data folder for journals and the match index:
/// $XDG_DATA_HOME/duels-companion, else ~/.local/share/duels-companion.
std::string data_dir();

/// A new journal file in the data folder's `folder` (made when absent), named by the UTC time
/// (with -1, -2, … when that name is taken): where a session goes without --journal.
std::string new_session_journal(const std::string& folder);

}  // namespace duels::match
