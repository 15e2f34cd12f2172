#pragma once
/// @file The Downtown Militarized Zone variant (spec C3.3): the grid of Blocks, to-hit rolls,
/// wounds, the Safety phase caps, Barriers and the optional rules' dice (growing zone,
/// landslides, salvage, the North American Brawl League budget). Dice are inputs.

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "common/error.hpp"

namespace duels::cards::srtcg {

/// The attacks of the Action phase.
enum class DmzAttack : std::uint8_t {
  Ranged,    ///< same Block, 4+; damage = the weapon's Attack bonus only
  Melee,     ///< same Block, 3+; damage = Attack + one hand-to-hand weapon
  Counter,   ///< an unturned melee defender strikes back, 6+
  Indirect,  ///< Indirect Fire into an adjacent Block, 6+
  Barrier,   ///< attacks on a Barrier always hit
};

/// "ranged", "melee", …; nullopt for another word.
std::optional<DmzAttack> dmz_attack(const std::string& word);
const char* dmz_attack_name(DmzAttack attack);

/// The number a modified roll must reach: 4, 3, 6, 6 (a Barrier: always hit).
int dmz_target(DmzAttack attack);
/// Firearms / Gunnery (ranged) or Melee (melee) add rating − the weapon's required rating,
/// never below 0 (Domino: Firearms 2 with an FN HAR needing Firearms 1 → +1).
int dmz_skill_bonus(int rating, int required);
/// Does this natural roll hit? A natural 1 always misses, a natural 6 always hits; otherwise
/// roll + bonus − 1 if the target is moving must reach the target number.
bool dmz_hits(DmzAttack attack, int natural, int bonus, bool moving);
/// Hitting faces out of six.
int dmz_hit_faces(DmzAttack attack, int bonus, bool moving);

/// A wound: the runner is out when the D6 is below its wounds so far.
bool dmz_wound_removes(int roll, int wounds);
/// P(out) at the w-th wound = (w − 1)/6, capped at 1.
double dmz_removal_chance(int wounds);

/// The grid: 4×4 for two players, a row and a column more per extra player.
struct DmzGrid {
  int columns = 4;
  int rows = 4;
  /// With 3 players or more, runners enter only through the centre Blocks of their edge
  /// (centre 3 on a 5×5 grid); 0 = the whole edge.
  int entry_blocks = 0;
};
DmzGrid dmz_grid(int players);
/// Orthogonal neighbours (no diagonals).
bool dmz_adjacent(int col_a, int row_a, int col_b, int row_b);

/// Safety phase caps (T-S33, ambiguity 11).
inline constexpr int kDmzHand = 7;         ///< at all times in the DMZ
inline constexpr int kDmzDraw = 4;         ///< Events drawn at most
inline constexpr int kDmzBlockEvents = 6;  ///< Events on a Block at most
inline constexpr int kDmzBlockRunners = 6;
/// Events a player may draw now: up to 4, never above 7 in hand.
int dmz_events_to_draw(int hand);
/// Whether a Block may receive an Event (by a player, or the automatic one): unoccupied and
/// below 6.
bool dmz_block_takes_event(int events, bool occupied);
/// Damage left after the Safety phase heal of 2 in the safehouse.
int dmz_safehouse_heal(int damage);

/// Exploration (ambiguity 12): the team reveals Event cards top to bottom, at most one per
/// runner; the Zone card does not count and is reached once every Event on the Block is gone.
struct Exploration {
  int reveals = 0;            ///< Events the team may reveal
  bool reaches_zone = false;  ///< every Event can be cleared, so the Zone card is reached
};
Exploration dmz_exploration(int runners, int events);

/// A Barrier's Body: the Attack of the runners who build it, doubled for Technical.
struct Builder {
  int attack = 0;
  bool technical = false;
};
int dmz_barrier_body(const std::vector<Builder>& builders);

/// Incredible Growing Zone: a D6 of 5+ grows the grid; then 1–3 a column, 4–6 a row; then a
/// die for the side (odd: left / top, even: right / bottom).
struct Growth {
  bool grows = false;
  bool column = false;
  std::string side;
};
Growth dmz_growth(int roll, int kind_roll, int side_roll);

/// Landslide: the Block from two dice read in order (a die above the columns, then above the
/// rows, is rerolled); nullopt when the rolls run out first.
struct BlockPick {
  int column = 0;  ///< 1-based
  int row = 0;
  int rolls_used = 0;
};
std::optional<BlockPick> dmz_landslide_block(const std::vector<int>& rolls, int columns, int rows);
/// A runner in the landslide: 1–4 moves it in the direction the table gives (the chart is
/// missing from the source, ambiguity 13; default N, E, S, W); 5–6 keeps it in place with 1
/// armor-piercing damage.
struct Slide {
  bool moves = false;
  std::string direction;
  int damage = 0;
};
Slide dmz_landslide_runner(int roll, const std::array<std::string, 4>& directions = {
                                         "north", "east", "south", "west"});

/// Salvage: the dead runner's gear stays on the Block when the D6 is above its wounds.
bool dmz_salvage(int roll, int wounds);
/// North American Brawl League: next game's budget = this one + a D6 (+4 for the winner).
int dmz_nabl_budget(int budget, int roll, bool winner);

}  // namespace duels::cards::srtcg
