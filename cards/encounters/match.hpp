#pragma once
/// @file The match finder: every legal way to beat an Encounter with the unlocked dice and the
/// cards in hand, ranked (spec A2.3, A2.4, A3.1).
///
/// Rules it always keeps: a chosen non-empty set of dice sums exactly to the Encounter Value;
/// die values stay in [1, 6]; no die is split; each ability is used at most once per Encounter;
/// keyword abilities need the keyword on the Encounter; the No-Shadowrunners icon blocks normal
/// Shadowrunners unless a `lift` card (Tulio, Corium, Osi) is discarded, but never Special
/// Shadowrunners; "defeat twice" needs two disjoint sets of dice, each summing to the value.
///
/// A "way" is one set of dice (as faces: equal dice are interchangeable) beaten with one set of
/// cards, every card of which plays a part: each ability changes its die, and none could be
/// dropped from its die while the die still reaches the same value. One way is listed per
/// (dice, cards) pair, with one legal order of steps. The search is best-first over sets of
/// cards, cheapest first, so the listed ways are exactly the best ranked ones; sets of cards
/// that would rank below those listed may be left unsearched (`truncated`), but the lock sizes
/// and the plain match always cover every way.

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "cards/encounters/notation.hpp"
#include "common/error.hpp"

namespace duels::cards::encounters {

/// A card the active player may use against this Encounter.
struct HandCard {
  RunnerCard card;
  std::uint32_t used_mask = 0;  ///< bit i: ability i already used against this Encounter
  bool face_down = false;       ///< turned face down to ignore the District: unusable this turn
};

/// What the match finder is asked.
struct MatchQuery {
  std::vector<int> dice;  ///< faces of the unlocked dice, 1..6 (at most 8)
  int value = 0;          ///< the Encounter Value
  std::vector<std::string> keywords;
  bool no_runners = false;  ///< the Encounter shows the No-Shadowrunners icon
  bool twice = false;       ///< "must be defeated twice with the same roll"
  std::vector<HandCard> cards;
  /// How many dice the player would like to keep unlocked (ranking (b)); nullopt: as many as
  /// possible.
  std::optional<int> preferred_dice_left;
  std::size_t max_solutions = 50;  ///< how many ranked ways to return in full
  /// The most search steps find_matches (or a MatchOracle, over all its rolls) takes before it
  /// gives up with "too many ways" (about a second). Real hands need a few thousand.
  std::uint64_t search_budget = 20'000'000;
};

/// One use of one ability: which card, which ability, on which die, from what to what.
struct Step {
  int card = 0;     ///< index into MatchQuery::cards
  int ability = 0;  ///< index into that card's abilities
  int die = -1;     ///< index into MatchQuery::dice; -1 for `lift`
  int from = 0;
  int to = 0;
  friend bool operator==(const Step&, const Step&) = default;
};

/// What happens to a card once used (spec A2.6).
enum class CardFate : std::uint8_t {
  RetainFor3,       ///< normal: pay 3¥ to keep it, or it is discarded
  Discarded,        ///< red icon: discarded, no retain
  RetainedFree,     ///< purple icon: kept for free
  SpentSpecial,     ///< Special Shadowrunner: to the Encounter discard
  DiscardedToLift,  ///< Tulio, Corium or Osi discarded to lift the No-Shadowrunners icon
};

/// A card a way uses, with its fate.
struct CardUse {
  int card = 0;
  CardFate fate = CardFate::RetainFor3;
  friend bool operator==(const CardUse&, const CardUse&) = default;
};

/// One legal way to beat the Encounter.
struct Solution {
  std::vector<std::vector<int>> groups;  ///< die indices per set (two sets for "twice")
  std::vector<int> dice;                 ///< every die index used, ascending
  std::vector<int> faces;                ///< the rolled faces of those dice
  std::vector<int> values;               ///< their values after the steps
  std::vector<Step> steps;               ///< in the order to apply them
  std::vector<CardUse> cards;
  int dice_left = 0;          ///< unlocked dice left after locking
  int retain_cost_nuyen = 0;  ///< 3¥ per normal card, to keep every card that allows it
  int cards_lost = 0;         ///< red, Special and lift cards (gone whatever you pay)
};

/// An ability that cannot be used against this Encounter, and why.
struct Unavailable {
  int card = 0;
  int ability = 0;
  std::string reason;
};

/// Everything the match finder found.
struct MatchResult {
  bool plain_match = false;         ///< some set matches with no card at all
  std::vector<Solution> solutions;  ///< ranked, best first, at most max_solutions
  std::size_t found = 0;            ///< ways found (may exceed solutions.size())
  bool truncated = false;           ///< card sets ranking below the listed ways not searched
  std::vector<int> lock_sizes;      ///< every number of dice some way locks, ascending
  std::vector<Unavailable> unavailable;
};

/// The most abilities usable at once against one Encounter.
inline constexpr int kMaxAbilities = 16;
/// The most cards with usable abilities at once.
inline constexpr int kMaxCards = 12;

/// Finds, ranks and explains the ways to beat the Encounter (at least query.max_solutions of
/// them when that many exist). Errors: bad dice or value, too many abilities or cards.
Expected<MatchResult, std::string> find_matches(const MatchQuery& query);

/// Ranking used by find_matches: (a) cards used that are not free to keep, then cards lost,
/// (b) distance from the preferred number of dice left (or dice used), (c) retain ¥, then steps.
bool better_solution(const Solution& a, const Solution& b, std::optional<int> preferred_dice_left);

struct MatchEngine;

/// A prepared finder for one Encounter and one hand, to ask "is there a way?" for many rolls
/// (exact odds with abilities). Holds the per-face moves, so each roll is cheap.
class MatchOracle {
 public:
  /// `query.dice` is ignored. Fails like find_matches on bad input.
  static Expected<MatchOracle, std::string> make(const MatchQuery& query);
  /// True when some legal way beats the Encounter with these faces.
  [[nodiscard]] bool can_match(const std::vector<int>& dice) const;
  /// Bit k set when some way locks exactly k dice.
  [[nodiscard]] std::uint32_t lock_size_mask(const std::vector<int>& dice) const;
  /// True once the oracle has spent its kSearchBudget: answers since may be wrong (false).
  [[nodiscard]] bool exhausted() const;

 private:
  std::shared_ptr<const MatchEngine> engine_;
};

/// Human words for a fate ("retain for 3¥ or discard", …).
std::string fate_text(CardFate fate);
/// One line describing a way, e.g. "lock #1 #2 #3 = 1+3+3 (3 dice, 0 left); Topshelf
/// metahuman: +1 on die 2: 1→2, Topshelf wild 2,5 on die 2: 2→3; Topshelf discarded (red icon:
/// cannot be Retained)". Dice are numbered from 1 in query.dice order.
std::string describe(const Solution& s, const MatchQuery& q);

/// A plain brute-force reference: tries every order of every ability on every die with memo.
/// Slow; for tests and the benchmark baseline only. Returns the lock-size mask and, for each
/// subset of cards (bit i = card i), whether a way exists using only cards in it.
struct BruteForceAnswer {
  std::uint32_t lock_size_mask = 0;
  std::vector<bool> reachable_with_cards;  ///< size 2^cards
};
BruteForceAnswer brute_force_matches(const MatchQuery& query);

}  // namespace duels::cards::encounters
