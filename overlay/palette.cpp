#include "overlay/palette.hpp"

#include <array>

#include "dice/notation.hpp"

namespace duels::overlay {

Rgba team_colour(int team) {
  static constexpr std::array<Rgba, 6> kTeams = {okabe_ito::kBlue,          okabe_ito::kOrange,
                                                 okabe_ito::kReddishPurple, okabe_ito::kSkyBlue,
                                                 okabe_ito::kBluishGreen,   okabe_ito::kYellow};
  const auto n = static_cast<int>(kTeams.size());
  return kTeams[static_cast<std::size_t>(((team % n) + n) % n)];
}

Rgba die_face_colour(dice::Colour c) {
  switch (c) {
    case dice::Colour::White:
      return {236, 236, 230};
    case dice::Colour::Yellow:
      return {240, 210, 40};
    case dice::Colour::Blue:
      return {40, 90, 200};
    case dice::Colour::Green:
      return {30, 140, 60};
    case dice::Colour::Black:
      return {24, 24, 24};
    case dice::Colour::Red:
      return {200, 30, 30};
  }
  return {128, 128, 128};
}

Rgba die_text_colour(dice::Colour c) {
  switch (c) {
    case dice::Colour::White:
    case dice::Colour::Yellow:
      return {0, 0, 0};
    default:
      return {255, 255, 255};
  }
}

std::string die_label(const dice::Die& die) {
  std::string s(dice::colour_name(die.colour));
  s += " d" + std::to_string(die.sides);
  if (die.ace) s += " ace";
  return s;
}

}  // namespace duels::overlay
