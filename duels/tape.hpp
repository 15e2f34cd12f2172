#pragma once
/// @file A figure's tape measure: coloured range tracks in inches, and which are usable.

#include <optional>
#include <vector>

#include "dice/die.hpp"

namespace duels {

/// One coloured track on a tape: usable over [from_in, to_in] measured from the tape's zero.
struct Track {
  dice::Colour colour = dice::Colour::Yellow;
  double from_in = 0;
  double to_in = 0;
  friend bool operator==(const Track&, const Track&) = default;
};

/// A figure's own tape. Numbers printed with a plus are not part of it (ignored by the rules).
struct Tape {
  std::vector<Track> tracks;

  /// The track of a colour, if the tape has one (a tape has at most one per colour).
  [[nodiscard]] const Track* track(dice::Colour colour) const;
  [[nodiscard]] bool has(dice::Colour colour) const { return track(colour) != nullptr; }
  friend bool operator==(const Tape&, const Tape&) = default;
};

/// Whether `track` touches both bases (spec §3, settled reading [R]): the tape's zero may sit on
/// any edge point of the attacker's base, so the attacker's near edge lies at an offset
/// o ∈ [0, chord_in] along the tape and the target's near edge at o + gap_in. Usable iff some o
/// has from ≤ o and o + gap ≤ to, i.e. max(from, 0) ≤ min(chord, to − gap).
bool track_usable(const Track& track, double gap_in, double chord_in);

/// The gaps (inches) over which a track is usable for an attacker chord: [0, max], or nullopt
/// when it never touches the attacker's base. Used to draw range bands.
struct GapRange {
  double min_in = 0;
  double max_in = 0;
};
std::optional<GapRange> usable_gap_range(const Track& track, double chord_in);

/// Colours whose tracks are usable at this gap, in tape order.
std::vector<dice::Colour> usable_colours(const Tape& tape, double gap_in, double chord_in);

}  // namespace duels
