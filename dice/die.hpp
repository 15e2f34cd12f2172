#pragma once
/// @file Dice of Shadowrun Duels: sides, colour, ace face, and where each die came from.

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace duels::dice {

/// The six die colours; the colour says what a die may be rolled for (rulebook "The Dice").
enum class Colour : std::uint8_t { White, Yellow, Blue, Green, Black, Red };

inline constexpr std::array<Colour, 6> kAllColours = {Colour::White, Colour::Yellow, Colour::Blue,
                                                      Colour::Green, Colour::Black,  Colour::Red};
inline constexpr int kColourCount = 6;

/// Lower-case English name: "white", "yellow", …
std::string_view colour_name(Colour c);
/// Parses a colour name (case-insensitive); nullopt when unknown.
std::optional<Colour> parse_colour(std::string_view name);
/// Black (tech) and red (magic) are wild: they may join any roll.
constexpr bool is_wild(Colour c) {
  return c == Colour::Black || c == Colour::Red;
}

/// The legal die sizes.
constexpr bool valid_sides(int sides) {
  return sides == 4 || sides == 6 || sides == 8 || sides == 10 || sides == 12;
}

/// One physical die. `ace` means the face "1" carries the ace symbol (it counts 0 and has an
/// effect on attacks). `origin` is empty for a figure's starting dice, else the gear id.
struct Die {
  int sides = 6;
  Colour colour = Colour::White;
  bool ace = false;
  std::string origin;

  friend bool operator==(const Die&, const Die&) = default;
};

/// A rolled face: 1..sides. Face 1 of an ace die is the ace.
struct Roll {
  Die die;
  int face = 1;

  [[nodiscard]] bool is_ace() const { return die.ace && face == 1; }
  /// What the face adds to a sum: the number, or 0 for an ace.
  [[nodiscard]] int value() const { return is_ace() ? 0 : face; }
  friend bool operator==(const Roll&, const Roll&) = default;
};

}  // namespace duels::dice
