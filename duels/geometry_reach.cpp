// The reachable region: every cell centre classified exactly, most of them in bulk.
//
// Cells are grouped in square blocks. A block whose cell centres all lie at least its
// half-diagonal ρ from anything the base may not end on (and from the table edge) is convex and
// free, and inside it the path distance d is 1-Lipschitz, so d(centre) + ρ ≤ move puts the whole
// block in the region and d(centre) − ρ > move puts it all out. Blocks wholly inside an
// obstacle or beyond the allowance as the crow flies are out. Any other block is split in four,
// down to single cells, which are classified by their own centre. Only cells near the region's
// boundary, near obstacles or in their shadows are ever looked at one by one.
#include <algorithm>
#include <cmath>

#include "duels/geometry.hpp"

namespace duels {

namespace {

constexpr int kBlockCells = 32;

class ReachFill {
 public:
  ReachFill(const MoveField& field, ReachResult& out) : field_(field), out_(out) {}

  void block(int i0, int j0, int size) {
    // Clip to the mask.
    const int i1 = std::min(i0 + size, out_.first_col + out_.cols);
    const int j1 = std::min(j0 + size, out_.first_row + out_.rows);
    if (i0 >= i1 || j0 >= j1) return;
    const double h = out_.cell_in;
    if (i1 - i0 == 1 && j1 - j0 == 1) {
      const Vec2 p{(i0 + 0.5) * h, (j0 + 0.5) * h};
      if (field_.legal_end(p) && field_.distance_below(p, cap_, &hint_) <= out_.move_in) {
        set(i0, j0, i1, j1);
      }
      return;
    }
    // Centre and half-diagonal of the cell centres in the (clipped) block.
    const Vec2 b{(i0 + i1) * 0.5 * h, (j0 + j1) * 0.5 * h};
    const double rho = std::hypot((i1 - i0 - 1) * 0.5 * h, (j1 - j0 - 1) * 0.5 * h);
    const Vec2 s = field_.mover().centre;
    if (norm(b - s) - rho > out_.move_in) return;
    const double clearance = field_.end_clearance_in(b);
    if (clearance + rho < 0) return;  // every centre overlaps something
    if (clearance >= rho) {
      const double d = field_.distance_below(b, out_.move_in + rho + 1e-9, &hint_);
      if (d + rho <= out_.move_in) {
        set(i0, j0, i1, j1);
        return;
      }
      if (!(d - rho <= out_.move_in)) return;  // also when d is infinite
    }
    const int half = std::max(1, size / 2);
    block(i0, j0, half);
    block(i0 + half, j0, half);
    block(i0, j0 + half, half);
    block(i0 + half, j0 + half, half);
  }

 private:
  void set(int i0, int j0, int i1, int j1) {
    for (int j = j0; j < j1; ++j) {
      auto row = out_.mask.begin() + static_cast<std::ptrdiff_t>(j - out_.first_row) * out_.cols +
                 (i0 - out_.first_col);
      std::fill(row, row + (i1 - i0), std::uint8_t{1});
    }
  }

  const MoveField& field_;
  ReachResult& out_;
  double cap_ = out_.move_in + 1e-9;
  int hint_ = -1;
};

}  // namespace

bool ReachResult::contains(Vec2 p) const {
  const int i = static_cast<int>(std::floor(p.x / cell_in)) - first_col;
  const int j = static_cast<int>(std::floor(p.y / cell_in)) - first_row;
  if (i < 0 || j < 0 || i >= cols || j >= rows) return false;
  return mask[static_cast<std::size_t>(j) * static_cast<std::size_t>(cols) +
              static_cast<std::size_t>(i)] != 0;
}

ReachResult reachable_region(const Disc& mover, double move_in, const MoveObstacles& world,
                             double cell_in) {
  ReachResult out;
  out.move_in = std::max(0.0, move_in);
  out.cell_in = cell_in > 0 ? cell_in : 0.05;
  const MoveField field(mover, world, out.move_in);
  out.start_problem = field.start_problem();
  const double r = mover.radius_in;
  const Vec2 s = mover.centre;
  const double h = out.cell_in;
  const double xlo = std::max(r, s.x - out.move_in);
  const double xhi = std::min(world.table.width_in - r, s.x + out.move_in);
  const double ylo = std::max(r, s.y - out.move_in);
  const double yhi = std::min(world.table.depth_in - r, s.y + out.move_in);
  if (!out.start_problem.empty() || xlo > xhi || ylo > yhi) return out;
  out.first_col = static_cast<int>(std::floor(xlo / h));
  out.first_row = static_cast<int>(std::floor(ylo / h));
  out.cols = static_cast<int>(std::floor(xhi / h)) - out.first_col + 1;
  out.rows = static_cast<int>(std::floor(yhi / h)) - out.first_row + 1;
  out.mask.assign(static_cast<std::size_t>(out.cols) * static_cast<std::size_t>(out.rows), 0);
  ReachFill fill(field, out);
  for (int j = out.first_row; j < out.first_row + out.rows; j += kBlockCells) {
    for (int i = out.first_col; i < out.first_col + out.cols; i += kBlockCells) {
      fill.block(i, j, kBlockCells);
    }
  }
  std::size_t count = 0;
  for (std::uint8_t m : out.mask)
    count += m;
  out.area_in2 = static_cast<double>(count) * h * h;
  return out;
}

}  // namespace duels
