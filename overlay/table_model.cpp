#include "overlay/table_model.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>

#include <fmt/format.h>

#include "common/names.hpp"
#include "duels/tape.hpp"

namespace duels::overlay {

namespace {

const FigureState& fig(const GameState& s, FigureId f) {
  return s.figures[static_cast<std::size_t>(f)];
}

}  // namespace

TableLayout layout_from_scene(const Scene& scene) {
  return TableLayout{scene.table, scene.terrain};
}

int apply_scene_positions(MatchSetup& setup, const Scene& scene) {
  int placed = 0;
  for (auto& team : setup.teams) {
    for (auto& f : team.figures) {
      for (const auto& b : scene.bases) {
        if (!b.figure.empty() && same_name(b.figure, f.figure.name)) {
          f.position = Point{b.disc.centre.x, b.disc.centre.y};
          ++placed;
          break;
        }
      }
    }
  }
  return placed;
}

const BaseView* TableView::base_of(FigureId figure) const {
  for (const auto& b : bases) {
    if (b.figure == figure) return &b;
  }
  return nullptr;
}

const BaseView* TableView::base_at(Vec2 p) const {
  for (auto it = bases.rbegin(); it != bases.rend(); ++it) {
    if (norm2(p - it->disc.centre) <= it->disc.radius_in * it->disc.radius_in) return &*it;
  }
  return nullptr;
}

TableView make_table_view(const GameState& state, const TableLayout& layout,
                          const PositionOverrides& overrides,
                          const std::vector<TrackedBasePosition>& vision,
                          const std::vector<Disc>& unnamed) {
  TableView v;
  v.table = layout.table;
  for (FigureId f = 0; f < static_cast<FigureId>(state.figures.size()); ++f) {
    const FigureState& fs = fig(state, f);
    if (fs.eliminated) continue;
    std::optional<Vec2> at;
    PositionSource source = PositionSource::Match;
    if (fs.position) at = Vec2{fs.position->x, fs.position->y};
    for (const auto& t : vision) {
      if (t.confidence >= 0.5 && same_name(t.figure, fs.def.name)) {
        at = t.centre_in;
        source = PositionSource::Vision;
      }
    }
    if (auto it = overrides.find(f); it != overrides.end()) {
      at = Vec2{it->second.x, it->second.y};
      source = PositionSource::Manual;
    }
    if (!at) continue;
    v.bases.push_back({f, fs.def.name, fs.team, Disc{*at, fs.def.base_diameter_in / 2}, source});
  }
  for (const Disc& u : unnamed) {
    const bool on_a_figure = std::any_of(v.bases.begin(), v.bases.end(), [&](const BaseView& b) {
      return norm(b.disc.centre - u.centre) < b.disc.radius_in + u.radius_in;
    });
    if (!on_a_figure) v.unnamed.push_back(u);
  }
  // Terrain that is down: the match's own shapes; a shapeless piece (a journal from before
  // format 2) takes the layout's shape of that name, as it always did.
  for (const auto& t : state.terrain) {
    if (t.shape) {
      v.terrain.push_back({t.id, *t.shape});
      continue;
    }
    for (const auto& piece : layout.terrain) {
      if (piece.id == t.id) v.terrain.push_back({piece.id, piece.shape});
    }
  }
  for (const auto& piece : layout.terrain) {
    const bool down = std::any_of(state.terrain.begin(), state.terrain.end(),
                                  [&](const TerrainPiece& t) { return t.id == piece.id; });
    if (!down) v.unplaced.push_back(piece);
  }
  return v;
}

std::string unnamed_base_id(const Disc& base) {
  return fmt::format("unnamed base ({:.1f}, {:.1f})", base.centre.x, base.centre.y);
}

AttackMeasure measure_attack(const TableView& view, const GameState& state, FigureId attacker,
                             FigureId target) {
  AttackMeasure m;
  const BaseView* a = view.base_of(attacker);
  const BaseView* t = view.base_of(target);
  if (a == nullptr || t == nullptr || attacker == target) return m;
  m.valid = true;
  m.centre_gap_in = std::max(0.0, gap_in(a->disc, t->disc));
  const Vec2 d = t->disc.centre - a->disc.centre;
  const double len = norm(d);
  const Vec2 u = len > 0 ? d / len : Vec2{1, 0};
  m.centre_line = {a->disc.centre + u * a->disc.radius_in, t->disc.centre - u * t->disc.radius_in};

  Obstacles others = view.terrain;
  for (const auto& b : view.bases) {
    if (b.figure == attacker || b.figure == target) continue;
    others.push_back({b.name, Shape::make_circle(b.disc.centre, b.disc.radius_in)});
  }
  for (const Disc& hidden : view.unnamed)
    others.push_back(
        {unnamed_base_id(hidden), Shape::make_circle(hidden.centre, hidden.radius_in)});
  m.lof = line_of_fire(a->disc, t->disc, others);
  const double diameter = 2 * a->disc.radius_in;
  m.measurement.gap_in = m.centre_gap_in;
  m.measurement.chord_in = diameter;
  m.measurement.line_of_fire = m.lof.clear;
  if (m.lof.clear) {
    m.measurement.gap_in = std::max(0.0, m.lof.gap_in);
    m.measurement.chord_in = std::clamp(m.lof.chord_in, 1e-6, diameter);
    m.usable =
        usable_colours(fig(state, attacker).def.tape, m.measurement.gap_in, m.measurement.chord_in);
  } else {
    for (std::size_t k : m.lof.blockers) {
      m.blocker_ids.push_back(others[k].id);
    }
    m.measurement.blockers = m.blocker_ids;
  }
  return m;
}

MoveObstacles move_world(const TableView& view, const GameState& state, FigureId mover) {
  MoveObstacles w;
  w.table = view.table;
  w.terrain = view.terrain;
  const TeamId team = fig(state, mover).team;
  for (const auto& b : view.bases) {
    if (b.figure == mover) continue;
    Obstacle o{b.name, Shape::make_circle(b.disc.centre, b.disc.radius_in)};
    (b.team == team ? w.friendly_bases : w.opposing_bases).push_back(std::move(o));
  }
  // Whose an unnamed base is, is not known: it is gone round as an opposing one.
  for (const Disc& u : view.unnamed)
    w.opposing_bases.push_back({unnamed_base_id(u), Shape::make_circle(u.centre, u.radius_in)});
  return w;
}

std::vector<std::array<Vec2, 3>> triangulate(const std::vector<Vec2>& polygon) {
  std::vector<std::array<Vec2, 3>> out;
  std::vector<std::size_t> idx(polygon.size());
  for (std::size_t i = 0; i < idx.size(); ++i)
    idx[i] = i;
  auto inside = [](Vec2 p, Vec2 a, Vec2 b, Vec2 c) {
    return cross(b - a, p - a) >= 0 && cross(c - b, p - b) >= 0 && cross(a - c, p - c) >= 0;
  };
  std::size_t guard = 0;
  while (idx.size() > 3 && guard++ < polygon.size() * polygon.size()) {
    bool clipped = false;
    for (std::size_t k = 0; k < idx.size(); ++k) {
      const std::size_t ip = idx[(k + idx.size() - 1) % idx.size()];
      const std::size_t ic = idx[k];
      const std::size_t in = idx[(k + 1) % idx.size()];
      const Vec2 a = polygon[ip];
      const Vec2 b = polygon[ic];
      const Vec2 c = polygon[in];
      if (cross(b - a, c - b) <= 0) continue;  // reflex or flat corner: not an ear
      bool ear = true;
      for (std::size_t j : idx) {
        if (j == ip || j == ic || j == in) continue;
        if (inside(polygon[j], a, b, c)) {
          ear = false;
          break;
        }
      }
      if (!ear) continue;
      out.push_back({a, b, c});
      idx.erase(idx.begin() + static_cast<std::ptrdiff_t>(k));
      clipped = true;
      break;
    }
    if (!clipped) break;  // degenerate input: stop rather than loop
  }
  if (idx.size() == 3) out.push_back({polygon[idx[0]], polygon[idx[1]], polygon[idx[2]]});
  return out;
}

std::array<float, 2> MapTransform::to_screen(Vec2 p) const {
  return {left_px + static_cast<float>(p.x) * px_per_in,
          top_px + static_cast<float>(depth_in - p.y) * px_per_in};
}

Vec2 MapTransform::to_table(float x_px, float y_px) const {
  return {static_cast<double>((x_px - left_px) / px_per_in),
          depth_in - static_cast<double>((y_px - top_px) / px_per_in)};
}

MapTransform fit_map(const TableBounds& table, float x_px, float y_px, float width_px,
                     float height_px) {
  MapTransform t;
  const auto w = static_cast<float>(table.width_in);
  const auto d = static_cast<float>(table.depth_in);
  t.px_per_in = std::max(0.01f, std::min(width_px / w, height_px / d));
  t.left_px = x_px + (width_px - w * t.px_per_in) / 2;
  t.top_px = y_px + (height_px - d * t.px_per_in) / 2;
  t.depth_in = table.depth_in;
  return t;
}

int move_allowance(const FigureState& figure, const std::vector<DieRoll>& rolls) {
  int sum = 0;
  for (const auto& r : rolls) {
    const dice::Roll roll{figure.dice[static_cast<std::size_t>(r.die)].die, r.face};
    sum += roll.value();
  }
  return figure.value(DialKind::Head) + sum;
}

}  // namespace duels::overlay
