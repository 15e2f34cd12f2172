#pragma once
/// @file A length option with its unit (`--square 25mm`, `--size 1.5in`), read once for every
/// command that takes one (calibrate, print).

#include <fmt/format.h>

#include <string>

#include "app/command.hpp"
#include "calib/units.hpp"

namespace duels::app {

/// The length `text` in millimetres; a UsageError (exit 2) naming `flag` when it has no unit or
/// is not a length.
inline double length_mm(const std::string& text, const char* flag) {
  const auto mm = calib::parse_length_mm(text);
  if (!mm) {
    throw UsageError(fmt::format(
        "{} wants a length with a unit, e.g. 25mm, 2.5cm or 1.5in, not '{}'", flag, text));
  }
  return *mm;
}

}  // namespace duels::app
