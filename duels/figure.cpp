#include "duels/figure.hpp"

#include <algorithm>
#include <cctype>
#include <string>

namespace duels {

std::string_view dial_name(DialKind d) {
  switch (d) {
    case DialKind::Head:
      return "Head";
    case DialKind::Weapon:
      return "Weapon";
    case DialKind::Body:
      return "Body";
  }
  return "?";
}

std::optional<DialKind> parse_dial(std::string_view name) {
  std::string lower(name);
  std::transform(lower.begin(), lower.end(), lower.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  if (lower == "head" || lower == "h" || lower == "1") return DialKind::Head;
  if (lower == "weapon" || lower == "w" || lower == "2") return DialKind::Weapon;
  if (lower == "body" || lower == "b" || lower == "3") return DialKind::Body;
  return std::nullopt;
}

}  // namespace duels
