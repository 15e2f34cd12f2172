#pragma once
/// @file Names as players type them: figures, terrain, cards and teams match whatever the case.

#include <algorithm>
#include <cctype>
#include <string_view>

namespace duels {

/// True when `a` and `b` are the same name apart from upper and lower case (ASCII).
inline bool same_name(std::string_view a, std::string_view b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
           return std::tolower(static_cast<unsigned char>(x)) ==
                  std::tolower(static_cast<unsigned char>(y));
         });
}

}  // namespace duels
