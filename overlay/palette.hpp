#pragma once
/// @file The overlay's colours. Where a colour carries meaning (teams, line of fire clear or
/// blocked, reachable area) it comes from the Okabe–Ito palette, which stays distinguishable for
/// the common colour-vision deficiencies, and the meaning is also given in words or line style.
/// Die colours are the dice's real colours and are always drawn with their name beside them.

#include <cstdint>
#include <string>
#include <string_view>

#include "dice/die.hpp"

namespace duels::overlay {

/// An 8-bit colour with alpha. `packed()` is Dear ImGui's IM_COL32 layout (ABGR in a uint32).
struct Rgba {
  std::uint8_t r = 0;
  std::uint8_t g = 0;
  std::uint8_t b = 0;
  std::uint8_t a = 255;

  [[nodiscard]] constexpr std::uint32_t packed() const {
    return (std::uint32_t{a} << 24) | (std::uint32_t{b} << 16) | (std::uint32_t{g} << 8) |
           std::uint32_t{r};
  }
  [[nodiscard]] constexpr Rgba with_alpha(std::uint8_t alpha) const { return {r, g, b, alpha}; }
};

/// Okabe–Ito, "Color Universal Design" (2008).
namespace okabe_ito {
inline constexpr Rgba kBlack{0, 0, 0};
inline constexpr Rgba kOrange{230, 159, 0};
inline constexpr Rgba kSkyBlue{86, 180, 233};
inline constexpr Rgba kBluishGreen{0, 158, 115};
inline constexpr Rgba kYellow{240, 228, 66};
inline constexpr Rgba kBlue{0, 114, 178};
inline constexpr Rgba kVermillion{213, 94, 0};
inline constexpr Rgba kReddishPurple{204, 121, 167};
}  // namespace okabe_ito

/// What each meaningful colour in the overlay stands for.
namespace colours {
inline constexpr Rgba kLineClear = okabe_ito::kBluishGreen;  ///< clear line of fire (solid)
inline constexpr Rgba kLineBlocked =
    okabe_ito::kVermillion;                                 ///< blocked line (dashed) and blockers
inline constexpr Rgba kReach = okabe_ito::kSkyBlue;         ///< reachable region
inline constexpr Rgba kSelected = okabe_ito::kYellow;       ///< selected figure's outline
inline constexpr Rgba kWarning = okabe_ito::kVermillion;    ///< refusals, errors
inline constexpr Rgba kGood = okabe_ito::kBluishGreen;      ///< a hit, a legal choice
inline constexpr Rgba kTable{38, 44, 40};                   ///< the table surface
inline constexpr Rgba kGrid{62, 70, 64};                    ///< 6" grid lines
inline constexpr Rgba kTerrain{120, 116, 108};              ///< placed terrain
inline constexpr Rgba kTerrainUnplaced{120, 116, 108, 70};  ///< terrain not on the table yet
inline constexpr Rgba kText{235, 235, 235};
inline constexpr Rgba kTextDim{160, 160, 160};

/// A base the camera sees but cannot name (outlined dashed).
inline constexpr Rgba kUnnamed = okabe_ito::kReddishPurple;
}  // namespace colours

/// The colour of team `team` (seating order), from Okabe–Ito; repeats after six teams.
Rgba team_colour(int team);

/// The face colour of a die (its real colour) and a text colour readable on it.
Rgba die_face_colour(dice::Colour c);
Rgba die_text_colour(dice::Colour c);

/// "blue d8", "yellow d6 ace": the label drawn on every die chip.
std::string die_label(const dice::Die& die);

}  // namespace duels::overlay
