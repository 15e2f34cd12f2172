#include "calib/units.hpp"

#include <fmt/format.h>

#include <cctype>
#include <charconv>
#include <cmath>
#include <utility>

namespace duels::calib {

namespace {

std::string_view trim(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front())))
    s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back())))
    s.remove_suffix(1);
  return s;
}

std::optional<double> parse_number(std::string_view s) {
  s = trim(s);
  if (s.empty()) return std::nullopt;
  double value = 0;
  const auto* end = s.data() + s.size();
  const auto [ptr, ec] = std::from_chars(s.data(), end, value);
  if (ec != std::errc() || ptr != end || !std::isfinite(value)) return std::nullopt;
  return value;
}

}  // namespace

std::optional<double> parse_length_mm(std::string_view text) {
  text = trim(text);
  std::size_t split = 0;
  while (split < text.size() &&
         (std::isdigit(static_cast<unsigned char>(text[split])) != 0 || text[split] == '.' ||
          text[split] == '+' || text[split] == '-' || text[split] == 'e' || text[split] == 'E')) {
    // Stop at an 'e' that is not an exponent ("1e" never happens for lengths; "mm" has no e).
    ++split;
  }
  const auto value = parse_number(text.substr(0, split));
  if (!value || *value <= 0) return std::nullopt;
  std::string unit(trim(text.substr(split)));
  for (auto& c : unit)
    c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (unit == "mm") return *value;
  if (unit == "cm") return *value * 10.0;
  if (unit == "m") return *value * 1000.0;
  if (unit == "in" || unit == "\"" || unit == "inch" || unit == "inches") {
    return *value * kMmPerInch;
  }
  return std::nullopt;
}

std::optional<std::pair<double, double>> parse_number_pair(std::string_view text) {
  text = trim(text);
  const auto sep = text.find_first_of(",x");
  if (sep == std::string_view::npos) return std::nullopt;
  const auto a = parse_number(text.substr(0, sep));
  const auto b = parse_number(text.substr(sep + 1));
  if (!a || !b) return std::nullopt;
  return std::make_pair(*a, *b);
}

std::string format_mm(double mm) {
  return fmt::format("{:g} mm", std::round(mm * 100) / 100);
}

std::string format_in(double inches) {
  return fmt::format("{:g}\"", std::round(inches * 1000) / 1000);
}

}  // namespace duels::calib
