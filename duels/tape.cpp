#include "duels/tape.hpp"

#include <algorithm>

namespace duels {

const Track* Tape::track(dice::Colour colour) const {
  for (const Track& t : tracks) {
    if (t.colour == colour) return &t;
  }
  return nullptr;
}

bool track_usable(const Track& track, double gap_in, double chord_in) {
  return std::max(track.from_in, 0.0) <= std::min(chord_in, track.to_in - gap_in);
}

std::optional<GapRange> usable_gap_range(const Track& track, double chord_in) {
  const double start = std::max(track.from_in, 0.0);
  if (start > chord_in || track.to_in < start) return std::nullopt;
  return GapRange{0.0, track.to_in - start};
}

std::vector<dice::Colour> usable_colours(const Tape& tape, double gap_in, double chord_in) {
  std::vector<dice::Colour> out;
  for (const Track& t : tape.tracks) {
    if (track_usable(t, gap_in, chord_in)) out.push_back(t.colour);
  }
  return out;
}

}  // namespace duels
