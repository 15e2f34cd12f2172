#pragma once
/// @file The SRTCG deck validator and composition advisor (spec C2.1, C4.5).
///
/// A deck file (YAML, schema_version 1):
///
///   schema_version: 1
///   goal: 60                    # the Reputation goal the Objectives must reach (default 60)
///   cards:                      # the draw deck: at least 60 cards
///     - {name: Tin Man, type: runner, copies: 2}
///     - {name: Hellish Traffic, type: challenge, copies: 4}
///     - {name: Lofwyr, type: contact, unique: true}
///   objectives:                 # at least 6, Reputation summing to the goal
///     - {name: Data Steal, rep: 25}
///
/// Types: runner, gear, challenge, location, contact, special (Stingers are specials).
/// `copies` defaults to 1; `unique: true` allows one copy.

#include <map>
#include <string>
#include <vector>

#include "common/error.hpp"

namespace duels::cards::srtcg {

/// One line of a deck list.
struct DeckEntry {
  std::string name;
  std::string type;  ///< runner, gear, challenge, location, contact, special, objective
  int copies = 1;
  bool unique = false;
  int rep = 0;   ///< Objectives: their Reputation value
  int line = 0;  ///< where it is in the file
};

/// A deck as read from its file.
struct Deck {
  std::string file;
  int goal = 60;
  std::vector<DeckEntry> cards;
  std::vector<DeckEntry> objectives;
};

/// Reads a deck file; every problem of shape is collected and thrown as one DataException.
Deck load_deck(const std::string& path);
/// The same from text (`file` names it in errors).
Deck parse_deck(const std::string& text, const std::string& file);

/// What the validator says about a deck.
struct DeckReport {
  bool legal = false;
  int cards = 0;       ///< the draw deck (Objectives apart)
  int objectives = 0;  ///< Objective cards
  int rep_total = 0;   ///< Σ Reputation of the Objectives
  int goal = 60;
  std::map<std::string, int> by_type;  ///< cards per type
  std::vector<DataError> problems;     ///< rule breaks (the deck is not legal)
  std::vector<std::string> advice;     ///< composition advice (the deck stays legal)
  int challenges = 0;
  /// P(no Challenge among the 7 opening cards): the Bad Shuffle risk, hypergeometric.
  double p_no_challenge_opening = 0;
};
DeckReport check_deck(const Deck& deck);

/// P(none of `marked` cards in a hand of `hand` drawn from `deck` cards) = C(N−K, n) / C(N, n).
double p_none_in_hand(int deck, int marked, int hand);

}  // namespace duels::cards::srtcg
