#pragma once
/// @file SRTCG tournaments (spec C3.2): Brawl in the Sprawl tables and advancement, the final
/// seats, The Duel's score, Showdown's Swiss pairing, and the nuyen-counting tie-break with
/// the D6 roll-off after it.

#include <optional>
#include <string>
#include <vector>

#include "cards/srtcg/notation.hpp"
#include "common/error.hpp"

namespace duels::cards::srtcg {

/// Table sizes of a Brawl "Blow-out" round: pairs, and one threesome when the count is odd.
std::vector<int> blowout_tables(int players);
/// Table sizes of a Brawl "Run" round: tables of 3 or 4 whose count (= the winners) is a
/// multiple of four when one fits (26 → 6×3 + 2×4 = 8 tables), else as many tables as fit.
/// Empty when the players cannot sit at tables of 3–4.
std::vector<int> run_tables(int players);

/// One round of a Brawl plan.
struct BrawlRound {
  std::string kind;  ///< "Blow-out", "Run" or "cut"
  int players = 0;
  std::vector<int> tables;  ///< table sizes
  int advance = 0;          ///< players who go on
};
/// A path from `entrants` to the final four: a Blow-out first, then Run rounds while they give
/// a multiple of four winners, Blow-outs otherwise. `cut_after_first` > 0: the organiser keeps
/// the top N by Reputation after round 1 (ambiguity 5: 105 entrants give 52 winners; the book
/// goes on with 26).
std::vector<BrawlRound> brawl_plan(int entrants, int cut_after_first = 0);

/// The final's seats (ranked by cumulative Reputation): seat 1 starts with 4 + 12¥, seat 2
/// 4 + 8¥, seat 3 4 + 4¥, seat 4 4¥ and plays first.
struct FinalSeat {
  int seat = 0;
  int start_nuyen = 0;
  bool first = false;
};
std::vector<FinalSeat> final_seats();

/// The Duel: Rep + (Σ cost of surviving runners)/5 + (unspent nuyen)/10.
struct DuelScore {
  double exact = 0;  ///< with decimals
  int floored = 0;   ///< each conversion floored (the default, ambiguity 6)
};
DuelScore duel_score(int rep, int runner_cost, int nuyen);

/// Nuyen counting: unspent nuyen + each surviving runner's cost + its trait ratings (Fame 2
/// counts 2, Stamina and Anti-social 1 each; Unique is not a trait).
int nuyen_count(int unspent, const std::vector<RunnerCard>& survivors);

/// A player in a Swiss (Showdown) field.
struct Entrant {
  std::string name;
  double score = 0;
  int nuyen = 0;                    ///< nuyen count, the first tie-break
  std::vector<int> rolloff;         ///< D6 roll-off results in order (rerolls after ties)
  std::vector<std::string> played;  ///< opponents met so far
  bool had_bye = false;
};

/// The standings: by score, then nuyen count, then the roll-off (higher wins, ties reroll).
struct Standings {
  std::vector<int> order;  ///< entrant indices, first place first
  /// Groups still tied after every roll given: they need (more) roll-off dice.
  std::vector<std::vector<int>> unresolved;
};
Standings standings(const std::vector<Entrant>& field);

/// A Swiss round: pairs of entrant indices in the book's order (top two, bottom two,
/// alternating inward), and the bye (-1 when the field is even).
struct Pairing {
  std::vector<std::pair<int, int>> pairs;
  int bye = -1;
  std::vector<std::vector<int>> unresolved;  ///< ties the roll-off has not settled (see above)
};
/// Showdown pairing after a round. An odd field gives a bye to the lowest-ranked entrant who
/// has not had one (the book asks for an even field). With `avoid_rematches`, the closest
/// pairing to the book's in which nobody meets an old opponent (when one exists).
Pairing showdown_pairing(const std::vector<Entrant>& field, bool avoid_rematches = false);

}  // namespace duels::cards::srtcg
