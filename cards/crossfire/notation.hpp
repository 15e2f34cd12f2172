#pragma once
/// @file The text notation of the Shadowrun: Crossfire helper: damage tracks, card bundles and
/// obstacles.
///
/// Track (comma-separated levels, left to right):
///   3,blue,blue,1         any 3 · 1 blue · 1 blue · any 1
///   2green|8              a Dragon aspect: 2 green points, or 8 points of any colour
/// A level is a number N (N points of any colour, colourless included), a colour word
/// (black, blue, green, red: one point of exactly that colour), `Ncolour` (N points of that
/// colour) or `Ncolour|M` (either requirement clears it).
///
/// Card bundle (`NAME=POINTS`, items joined by '+'):
///   Guiding Spirit=blue+1            1 blue point and 1 colourless point
///   Lightning Bolt=levels:2:consecutive+obstacle-only
///   Fireball=blue+2+levels:3         the box, and 1 level to each of up to 3 obstacles
///   Coordinated Attack=2green+2      several points of one colour
/// Items: a colour word (1 point), `Ncolour`, a number (colourless points), `levels:N`
/// (N single levels, each to a different obstacle), `levels:N:consecutive` (N consecutive
/// levels on the obstacle the card sits beside), `levels:N:last` (the same, only on an obstacle
/// down to its last N levels, like the RA SM-4), `obstacle-only` (not on a boss). The name may
/// be left out (`blue+1`).
///
/// Obstacle (`NAME=TRACK[@CLEARED]`, then words):
///   Lone Star Trooper=5,black,red@1 colour:black attack:2 nuyen:3 hard type:human
/// Words: `colour:C`, `attack:N`, `nuyen:N`, `threat:N` (how harmful its ability is, 0-9),
/// `weight:N` (the allocator's worth of defeating it, overriding the default), `faces:RUNNER`,
/// `type:WORD` (Human, Tech, …), `hard`, `boss`, `noheal` (runners can't be healed while it is in
/// play), `on:T,T` (ability timings: flipped, defeated, attacks, start, end, continuous).
///
/// Every parser is total: any input gives a value or a SpecError pointing at the bad token.

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "cards/common/scan.hpp"
#include "common/error.hpp"

namespace duels::cards::crossfire {

/// The four card colours (and the roles they stand for).
enum class Colour : std::uint8_t { Black, Blue, Green, Red };
constexpr int kColours = 4;
constexpr std::array<Colour, kColours> kAllColours = {Colour::Black, Colour::Blue, Colour::Green,
                                                      Colour::Red};

/// "black", "blue", …
const char* colour_name(Colour c);
/// The role of a colour: Street Samurai, Mage, Decker, Face.
const char* role_name(Colour c);
/// The card type that deals a colour: Weapon, Spell, Hacking, Skill.
const char* card_type_name(Colour c);
/// A colour from its word, its role or its card type (any case): "blue", "mage", "spell".
std::optional<Colour> colour_from(std::string_view word);

/// Damage points: coloured points by colour and colourless points.
struct Points {
  std::array<int, kColours> coloured{};
  int colourless = 0;
  [[nodiscard]] int of(Colour c) const { return coloured[static_cast<std::size_t>(c)]; }
  int& of(Colour c) { return coloured[static_cast<std::size_t>(c)]; }
  [[nodiscard]] int total() const;
  [[nodiscard]] bool empty() const { return total() == 0; }
  Points& operator+=(const Points& o);
  friend bool operator==(const Points&, const Points&) = default;
};

/// "1 blue + 2 colourless" ("nothing" when empty).
std::string describe(const Points& p);

/// One level of a damage track: a colour requirement, an any-colour requirement, or either.
struct Level {
  std::optional<Colour> colour;  ///< set: `colour_n` points of this colour clear it
  int colour_n = 0;
  int any_n = 0;  ///< > 0: this many points of any colour clear it
  [[nodiscard]] static Level any(int n) { return Level{std::nullopt, 0, n}; }
  [[nodiscard]] static Level of(Colour c, int n = 1) { return Level{c, n, 0}; }
  friend bool operator==(const Level&, const Level&) = default;
};
using Track = std::vector<Level>;

/// "any 3", "blue", "2 green or any 8".
std::string describe(const Level& level);

/// How a card's level damage may be spread.
enum class LevelMode : std::uint8_t {
  Spread,       ///< 1 level to each of up to N different obstacles (Fireball)
  Consecutive,  ///< N consecutive levels on one obstacle (Lightning Bolt)
  Last,         ///< N consecutive levels on an obstacle down to its last N levels (RA SM-4)
};

/// A card's damage as the allocator sees it: points that go beside one obstacle, and level
/// damage.
struct Bundle {
  std::string name;
  Points points;
  int levels = 0;  ///< level damage instances (0: none)
  LevelMode mode = LevelMode::Spread;
  bool obstacle_only = false;  ///< its text names an "obstacle": it can't be used on a boss
  friend bool operator==(const Bundle&, const Bundle&) = default;
};

/// Timings of an obstacle's printed abilities (for reminders).
enum class Timing : std::uint8_t { Flipped, Defeated, Attacks, Start, End, Continuous };
constexpr int kTimings = 6;
const char* timing_name(Timing t);

/// An obstacle (or boss) card as entered by the table.
struct ObstacleCard {
  std::string name;
  Track track;
  int cleared = 0;
  std::optional<Colour> colour;
  int attack = 0;
  int nuyen = 0;
  int threat = 0;
  std::optional<int> weight;
  std::string faces;  ///< runner name ("" when not given)
  std::string type;   ///< Human, Tech, 6th World, … ("" when not given)
  bool hard = false;
  bool boss = false;
  bool no_heal = false;
  std::uint8_t timings = 0;  ///< bit per Timing
  [[nodiscard]] bool has(Timing t) const { return (timings >> static_cast<int>(t) & 1U) != 0; }
  friend bool operator==(const ObstacleCard&, const ObstacleCard&) = default;
};

/// A notation mistake (cards/common/scan.hpp).
using SpecError = cards::SpecError;

/// Limits that keep every calculation small: levels per track, points per colour and so on.
constexpr int kMaxLevels = 12;
constexpr int kMaxLevelNeed = 30;
constexpr int kMaxPoints = 30;
constexpr int kMaxLevelDamage = 6;

/// Parses a track ("3,blue,blue,1").
Expected<Track, SpecError> parse_track(std::string_view text);
/// Parses a card bundle ("Guiding Spirit=blue+1"). A nameless bundle gets the name "".
Expected<Bundle, SpecError> parse_bundle(std::string_view text);
/// Parses an obstacle ("Lightning Mage=3,blue,blue,1@1 colour:blue noheal").
Expected<ObstacleCard, SpecError> parse_obstacle(std::string_view text);

/// Canonical texts; each parses back to an equal value.
std::string to_notation(const Level& level);
std::string to_notation(const Track& track);
std::string to_notation(const Bundle& bundle);
std::string to_notation(const ObstacleCard& card);

}  // namespace duels::cards::crossfire
