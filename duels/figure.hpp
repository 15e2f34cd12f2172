#pragma once
/// @file What is printed on a figure's base and its gear: the static data the rules read.

#include <array>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "dice/die.hpp"
#include "duels/tape.hpp"

namespace duels {

/// The three combat dials, in the order they sit on the base.
enum class DialKind : std::uint8_t { Head = 0, Weapon = 1, Body = 2 };
inline constexpr std::array<DialKind, 3> kAllDials = {DialKind::Head, DialKind::Weapon,
                                                      DialKind::Body};
std::string_view dial_name(DialKind d);
std::optional<DialKind> parse_dial(std::string_view name);

/// The values a figure file's dial may show (a dial's numbers are 0 and up: a negative value
/// makes no sense at the table and breaks the odds and the simulator). Journals written when
/// -20 was allowed still read (duels/record.cpp).
inline constexpr int kMinDialValue = 0;
inline constexpr int kMaxDialValue = 99;

/// One click position of a dial: the value shown, an optional shield and 0..3 bullet holes.
struct DialPosition {
  int value = 0;
  std::optional<dice::Colour> shield;
  int bullet_holes = 0;
  friend bool operator==(const DialPosition&, const DialPosition&) = default;
};

/// A dial's positions; position 0 carries the green arrow (the start). Damage clicks forward.
struct Dial {
  std::vector<DialPosition> positions;
  friend bool operator==(const Dial&, const Dial&) = default;
};

/// A figure as printed on its base (name, points, dice, bonus, dials) plus its tape.
struct FigureDef {
  std::string name;
  std::string collector_number;
  int points = 0;
  double base_diameter_in = 2.0;
  double base_height_in = 0.75;
  std::vector<dice::Die> starting_dice;
  std::map<dice::Colour, int> damage_bonus;  ///< e.g. {yellow: 1} for "+1 yellow"
  std::array<Dial, 3> dials;                 ///< indexed by DialKind
  Tape tape;
  bool sample = false;  ///< a made-up figure shipped with the program, not a real one
  friend bool operator==(const FigureDef&, const FigureDef&) = default;

  [[nodiscard]] const Dial& dial(DialKind d) const { return dials[static_cast<int>(d)]; }
};

/// A piece of gear: point cost, dice it adds and shields it grants.
struct GearDef {
  std::string id;
  std::string name;
  int points = 0;
  std::vector<dice::Die> dice;        ///< each die's origin is set to the gear id
  std::vector<dice::Colour> shields;  ///< one entry per shield
  bool sample = false;
  friend bool operator==(const GearDef&, const GearDef&) = default;
};

/// The most gear points one figure may carry.
inline constexpr int kMaxGearPoints = 12;

}  // namespace duels
