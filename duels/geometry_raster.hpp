#pragma once
/// @file A top-down picture of the table (terrain, bases, reachable region, tape range bands)
/// drawn into a plain RGB buffer. No image library: the caller encodes the pixels.

#include <cstdint>
#include <string>
#include <vector>

#include "dice/die.hpp"
#include "duels/geometry.hpp"
#include "duels/tape.hpp"

namespace duels {

/// One 8-bit colour.
struct Rgb {
  std::uint8_t r = 0;
  std::uint8_t g = 0;
  std::uint8_t b = 0;
  friend bool operator==(const Rgb&, const Rgb&) = default;
};

/// An RGB picture; row 0 is the top (the table's far edge, largest y).
struct RgbImage {
  int width = 0;
  int height = 0;
  std::vector<std::uint8_t> rgb;  ///< width × height × 3 bytes, row-major

  [[nodiscard]] Rgb at(int x, int y) const;
  void set(int x, int y, Rgb c);
};

/// Everything a table picture shows.
struct TableDrawing {
  /// A base to draw; `team` picks its colour, `highlight` thickens its outline.
  struct Base {
    std::string id;
    Disc disc;
    int team = 1;
    bool highlight = false;
  };
  /// A ring around `centre` at `radius_in` (e.g. the edge of a tape track's reach).
  struct Ring {
    Vec2 centre;
    double radius_in = 0;
    dice::Colour colour = dice::Colour::Yellow;
  };
  TableBounds table;
  Obstacles terrain;
  std::vector<Base> bases;
  const ReachResult* reach = nullptr;  ///< shaded when set
  std::vector<Ring> rings;
  std::vector<Vec2> path;  ///< a polyline to draw, e.g. a movement path
};

/// The rings showing how far each tape track reaches from a base: a target whose near edge is
/// inside a track's ring (and in line of fire) can be attacked with that colour, taking the
/// chord as the whole diameter (the best case, on the centre line).
std::vector<TableDrawing::Ring> tape_range_rings(const Disc& base,
                                                 const std::vector<Track>& tracks);

/// The colour used for a die colour in pictures.
Rgb die_colour_rgb(dice::Colour c);

/// Draws the table at `px_per_in` pixels per inch.
RgbImage draw_table(const TableDrawing& drawing, double px_per_in = 10);

}  // namespace duels
