#pragma once
/// @file Lengths typed by players ("25mm", "1.5in") and the unit constants calib works in.

#include <optional>
#include <string>
#include <string_view>

namespace duels::calib {

/// Millimetres in one inch (exact by definition).
inline constexpr double kMmPerInch = 25.4;

/// Parses a length with a unit: `mm`, `cm`, `m`, `in` (or `"`), e.g. `25mm`, `2.5 cm`, `1.5in`.
/// Returns the length in millimetres, or nothing when the text is not a positive length with a
/// unit (a bare number is refused: 25 what?).
std::optional<double> parse_length_mm(std::string_view text);

/// Parses `A,B` or `AxB` (two plain numbers), e.g. `30,12.5`; nothing when malformed.
std::optional<std::pair<double, double>> parse_number_pair(std::string_view text);

/// Formats millimetres for people: `25 mm`, `22.5 mm`.
std::string format_mm(double mm);

/// Formats inches: `1.5"`, `60"`.
std::string format_in(double inches);

}  // namespace duels::calib
