// Shortest legal movement paths: the exact visibility graph of the base's centre.
//
// A disc of radius r avoids an obstacle exactly when its centre avoids the obstacle grown by r
// (Minkowski sum): a terrain circle or an opposing base of radius R grows to a circle of
// radius R + r; a polygon grows to the set of points within r of it, whose convex corners are
// arcs of radius r about the polygon's convex corners. A shortest path of a point among such
// obstacles is made of straight runs tangent to these circles ("rings") and arcs along them, so
// the graph has a node at every tangent point (start→ring and ring→ring common tangents) and
// edges for the tangent runs that stay clear and for the free arcs between neighbouring nodes
// on a ring. Dijkstra from the start gives exact distances to every node; the distance to any
// other point is then the best of the straight run from the start or from the tangent point
// of some ring, reached along that ring from its nearest node — a closed form per ring.
//
// Tolerance: the centre may come within kPathTolIn of a grown obstacle (floating point), so
// paths can graze terrain and bases by at most that much.
#include <fmt/format.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <mutex>
#include <numbers>
#include <queue>
#include <unordered_map>

#include "duels/geometry.hpp"
#include "duels/geometry_internal.hpp"

namespace duels {

namespace {

using geom::kTwoPi;
constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kPathTolIn = 1e-7;  // grazing allowance for path pieces
constexpr double kEndTolIn = 1e-9;   // contact allowance for end positions (as check_spot)

std::string quoted(const std::string& id) {
  return fmt::format("'{}'", id);
}

}  // namespace

namespace detail {

// What a ring-to-ring tangent run among terrain alone comes to: the angles of its ends on their
// rings, whether it stays on the table, and which terrain obstacles block it. Terrain never
// moves after set-up, so the same run recurs in every graph built on the table (only the bases
// move, and which terrain a graph takes in); the bases' part of the test is still made per
// graph. One cache per thread, emptied when the terrain or the table changes; the values are
// the ones the uncached code works out, so paths are the same to the bit.
struct TerrainRun {
  bool known = false;
  bool on_table = false;
  double angle_p = 0;
  double angle_q = 0;
  std::uint64_t blocked_by = 0;  // bit k: terrain obstacle k blocks the run
};

// The arcs of a terrain ring that terrain and the table edge block, for one base radius and one
// set of terrain taken in.
struct TerrainArcs {
  bool known = false;
  geom::AngleSet blocked;
};

struct TerrainRunCache {
  std::vector<double> context;  // table size and every terrain obstacle's geometry
  std::uint64_t generation = 0;
  std::vector<int> first_id;  // terrain obstacle k's rings are ids first_id[k] …
  int ids = 0;                // rings a terrain set can give: one per circle, one per corner
  struct PerRadius {
    double r = 0;
    std::vector<TerrainRun> runs;  // [(id_p · ids + id_q) · 4 + tangent]
  };
  std::vector<PerRadius> radii;
  struct ArcsKey {
    double r;
    int id;
    std::uint64_t mask;
    friend bool operator==(const ArcsKey&, const ArcsKey&) = default;
  };
  struct ArcsKeyHash {
    std::size_t operator()(const ArcsKey& k) const {
      std::uint64_t b = 0;
      std::memcpy(&b, &k.r, sizeof b);
      std::uint64_t h = (b ^ (k.mask * 0x9E3779B97F4A7C15ULL)) * 0xBF58476D1CE4E5B9ULL;
      h ^= static_cast<std::uint64_t>(k.id) + (h >> 29);
      return static_cast<std::size_t>(h * 0x94D049BB133111EBULL);
    }
  };
  std::unordered_map<ArcsKey, TerrainArcs, ArcsKeyHash> arcs;

  TerrainArcs& arcs_of(double r, int id, std::uint64_t mask) {
    if (arcs.size() >= 1u << 16) arcs.clear();  // bounded memory
    return arcs[ArcsKey{r, id, mask}];
  }

  TerrainRun& run(double r, int id_p, int id_q, int tangent) {
    PerRadius* pr = nullptr;
    for (PerRadius& x : radii) {
      if (std::memcmp(&x.r, &r, sizeof r) == 0) pr = &x;
    }
    if (pr == nullptr) {
      if (radii.size() >= 8) radii.clear();  // bounded memory
      radii.push_back({r, std::vector<TerrainRun>(static_cast<std::size_t>(ids) * ids * 4)});
      pr = &radii.back();
    }
    return pr->runs[(static_cast<std::size_t>(id_p) * ids + id_q) * 4 + tangent];
  }

  // Makes the cache the one for this table and terrain; returns its generation.
  std::uint64_t use_for(const MoveObstacles& world) {
    std::size_t at = 0;
    bool same = true;
    auto see = [&](double d) {
      if (same && at < context.size() && std::memcmp(&context[at], &d, sizeof d) == 0) {
        ++at;
        return;
      }
      if (same) {
        same = false;
        context.resize(at);
      }
      context.push_back(d);
    };
    see(world.table.width_in);
    see(world.table.depth_in);
    see(static_cast<double>(world.terrain.size()));
    for (const Obstacle& o : world.terrain) {
      see(o.shape.kind == Shape::Kind::Circle ? 0.0 : 1.0);
      if (o.shape.kind == Shape::Kind::Circle) {
        see(o.shape.circle.centre.x);
        see(o.shape.circle.centre.y);
        see(o.shape.circle.radius_in);
      } else {
        see(static_cast<double>(o.shape.polygon.size()));
        for (const Vec2& v : o.shape.polygon) {
          see(v.x);
          see(v.y);
        }
      }
    }
    if (same && at != context.size()) {
      same = false;
      context.resize(at);
    }
    if (!same) {
      radii.clear();
      arcs.clear();
      first_id.clear();
      ids = 0;
      for (const Obstacle& o : world.terrain) {
        first_id.push_back(ids);
        ids += o.shape.kind == Shape::Kind::Circle ? 1 : static_cast<int>(o.shape.polygon.size());
      }
      // Unique across threads: a graph built on one thread and finished on another never
      // takes the other thread's cache for its own.
      static std::atomic<std::uint64_t> next{1};
      generation = next.fetch_add(1);
    }
    return generation;
  }
};

TerrainRunCache& terrain_run_cache() {
  thread_local TerrainRunCache cache;
  return cache;
}

// A grown circular obstacle (terrain circle or opposing base).
struct GrownCircle {
  Vec2 c;
  double rho = 0;
  std::string id;
  int terrain = -1;  // index in the terrain list, or -1 for a base
};

// A terrain polygon the centre must keep `grow` away from.
struct GrownPolygon {
  std::vector<Vec2> pts;
  Vec2 lo;  // bounding box of the polygon
  Vec2 hi;
  std::string id;
  int terrain = -1;  // index in the terrain list
};

// A circle the path may bend around, with its free arcs and the graph nodes on it.
struct Ring {
  Vec2 c;
  double rho = 0;
  int own_circle = -1;  // index in circles when it is a grown circle
  int terrain_id = -1;  // stable id of a terrain ring in the run cache, -1 for a base
  bool full = false;    // the whole circle is free
  std::vector<std::pair<double, double>> spans;  // free arcs, sorted, within [0, 2π)
  std::vector<int> span_comp;                    // connected piece of each span
  std::vector<double> comp_start;                // where each piece starts (counter-clockwise)
  struct At {
    double angle = 0;
    int node = 0;
  };
  std::vector<At> nodes;  // sorted by angle
  double min_dist = kInf;

  // The free piece holding angle a, or -1.
  [[nodiscard]] int comp_of(double a) const {
    if (full) return 0;
    auto it = std::upper_bound(spans.begin(), spans.end(), a,
                               [](double v, const auto& s) { return v < s.first; });
    if (it == spans.begin()) return -1;
    --it;
    if (a > it->second) return -1;
    return span_comp[static_cast<std::size_t>(it - spans.begin())];
  }
  // Position of angle a along its piece, counter-clockwise from the piece's start.
  [[nodiscard]] double param(int comp, double a) const {
    return full ? a : geom::wrap_angle(a - comp_start[static_cast<std::size_t>(comp)]);
  }
};

struct Node {
  Vec2 p;
  int ring = -1;
  double angle = 0;
  int comp = 0;
};

struct Edge {
  int to = 0;
  double w = 0;
  int ring = -1;     // arc along this ring, or -1 for a straight run
  double sweep = 0;  // signed arc angle
};

// The lists a visibility graph grows while it is built. A graph hands them back when it goes
// and the next graph built on the thread starts from them, empty but with their room kept, so
// building a graph rarely allocates.
struct GraphLists {
  std::vector<Ring> rings;
  std::vector<Node> nodes;
  std::vector<std::pair<int, Edge>> edges;
  std::vector<int> adj_start;
  std::vector<Edge> adj_edges;
  std::vector<double> dist;
  std::vector<int> parent;
  std::vector<Edge> parent_edge;
  std::vector<std::pair<double, int>> heap;
};

// Set while this thread's pool exists (a plain flag: still readable while thread-locals with
// graphs in them are torn down after the pool).
thread_local bool graph_pool_alive = false;

struct GraphPool {
  std::vector<GraphLists> free;
  GraphPool() { graph_pool_alive = true; }
  ~GraphPool() { graph_pool_alive = false; }
  GraphPool(const GraphPool&) = delete;
  GraphPool& operator=(const GraphPool&) = delete;
};

GraphPool& graph_pool() {
  thread_local GraphPool pool;
  return pool;
}

struct MoveGraph {
  Disc mover;
  double r = 0;
  double max_len = kInf;
  Vec2 rect_lo;  // where the centre may be
  Vec2 rect_hi;
  std::vector<GrownCircle> circles;      // block paths: terrain circles and opposing bases
  std::vector<GrownPolygon> polys;       // block paths: terrain polygons
  std::vector<GrownCircle> end_circles;  // block end positions: also friendly bases
  std::vector<Ring> rings;
  std::vector<Node> nodes;
  // Edges as added (from, edge); dijkstra() gathers them per node in the same order.
  std::vector<std::pair<int, Edge>> edges;
  std::vector<int> adj_start;  // node u's edges are adj_edges[adj_start[u] .. adj_start[u + 1])
  std::vector<Edge> adj_edges;
  std::vector<double> dist;
  std::vector<int> parent;
  std::vector<Edge> parent_edge;
  std::string start_problem;
  std::size_t terrain_circles = 0;  // circles[0 .. terrain_circles) are terrain, the rest bases
  std::uint64_t terrain_mask = 0;   // terrain obstacles taken into circles and polys
  bool run_cache_ok = false;        // terrain_mask describes them all (at most 64 obstacles)
  std::uint64_t run_cache_generation = 0;
  bool use_cache_ = false;  // the thread's cache holds this graph's terrain (set in build_graph)
  // Terrain obstacle k (with at least a shape): (is a circle, index in end_circles/end_polys).
  std::vector<std::pair<bool, std::size_t>> terrain_index;

  // ---- clearance tests ------------------------------------------------------------------

  [[nodiscard]] bool in_rect(Vec2 p, double tol) const {
    return p.x >= rect_lo.x - tol && p.x <= rect_hi.x + tol && p.y >= rect_lo.y - tol &&
           p.y <= rect_hi.y + tol;
  }

  [[nodiscard]] bool seg_free(Vec2 a, Vec2 b) const {
    return seg_free_of_terrain(a, b) && seg_free_of_bases(a, b);
  }
  // The table edge and terrain only.
  [[nodiscard]] bool seg_free_of_terrain(Vec2 a, Vec2 b) const {
    if (!in_rect(a, kPathTolIn) || !in_rect(b, kPathTolIn)) return false;
    for (std::size_t k = 0; k < terrain_circles; ++k) {
      if (!circle_clear(a, b, circles[k])) return false;
    }
    for (const GrownPolygon& p : polys) {
      if (!polygon_clear(a, b, p)) return false;
    }
    return true;
  }
  // The opposing bases only.
  [[nodiscard]] bool seg_free_of_bases(Vec2 a, Vec2 b) const {
    for (std::size_t k = terrain_circles; k < circles.size(); ++k) {
      if (!circle_clear(a, b, circles[k])) return false;
    }
    return true;
  }
  [[nodiscard]] static bool circle_clear(Vec2 a, Vec2 b, const GrownCircle& c) {
    const Vec2 lo{std::min(a.x, b.x), std::min(a.y, b.y)};
    const Vec2 hi{std::max(a.x, b.x), std::max(a.y, b.y)};
    if (c.c.x + c.rho < lo.x || c.c.x - c.rho > hi.x || c.c.y + c.rho < lo.y ||
        c.c.y - c.rho > hi.y) {
      return true;
    }
    return !(geom::point_segment_distance(c.c, a, b) < c.rho - kPathTolIn);
  }
  [[nodiscard]] bool polygon_clear(Vec2 a, Vec2 b, const GrownPolygon& p) const {
    const Vec2 lo{std::min(a.x, b.x), std::min(a.y, b.y)};
    const Vec2 hi{std::max(a.x, b.x), std::max(a.y, b.y)};
    if (p.hi.x + r < lo.x || p.lo.x - r > hi.x || p.hi.y + r < lo.y || p.lo.y - r > hi.y) {
      return true;
    }
    return !(geom::segment_polygon_distance(a, b, p.pts) < r - kPathTolIn);
  }

  // Clearance of an end position: distance to the nearest thing the base may not overlap
  // (table edge, any base, terrain), negative when it overlaps; `what` names the worst overlap.
  [[nodiscard]] double end_clearance(Vec2 p, std::string* what) const {
    double best = std::min({p.x - rect_lo.x, rect_hi.x - p.x, p.y - rect_lo.y, rect_hi.y - p.y});
    if (what != nullptr && best < -kEndTolIn) *what = "the base would not be wholly on the table";
    double worst_seen = best;
    for (const GrownCircle& c : end_circles) {
      const double d = norm(p - c.c) - c.rho;
      if (d < best) best = d;
      if (what != nullptr && d < -kEndTolIn && d < worst_seen) {
        worst_seen = d;
        *what = fmt::format("the base would overlap {}", quoted(c.id));
      }
    }
    for (const GrownPolygon& g : end_polys) {
      const double bx = std::max({g.lo.x - p.x, p.x - g.hi.x, 0.0});
      const double by = std::max({g.lo.y - p.y, p.y - g.hi.y, 0.0});
      const double box = bx * bx + by * by;
      if (box > 0 && std::sqrt(box) - r >= best && what == nullptr) continue;  // not nearer
      const double d = geom::polygon_signed_distance(p, g.pts) - r;
      if (d < best) best = d;
      if (what != nullptr && d < -kEndTolIn && d < worst_seen) {
        worst_seen = d;
        *what = fmt::format("the base would overlap terrain {}", quoted(g.id));
      }
    }
    return best;
  }

  // ---- building -------------------------------------------------------------------------

  // The arcs of a ring inside another obstacle, outside the table, or inside a polygon.
  void compute_free(Ring& ring) const {
    geom::AngleSet blocked;
    const Vec2 c = ring.c;
    const double rho = ring.rho;
    auto block_disc = [&](Vec2 c2, double rho2) {
      const Vec2 w = c2 - c;
      const double d = norm(w);
      if (d >= rho + rho2) return;
      // |c + ρu − c2| < ρ2  ⇔  u·(c2 − c) > (d² + ρ² − ρ2²) / (2ρ)
      blocked.unite(geom::AngleSet::cos_band(0.0, d, geom::angle_of(w),
                                             (d * d + rho * rho - rho2 * rho2) / (2 * rho), kInf));
    };
    // Terrain and the table edge first (kept per thread for terrain rings: they never move),
    // then the opposing bases. A union of arcs does not depend on the order it is made in.
    TerrainArcs* kept = nullptr;
    if (use_cache_ && ring.terrain_id >= 0) {
      kept = &terrain_run_cache().arcs_of(r, ring.terrain_id, terrain_mask);
      if (kept->known) blocked = kept->blocked;
    }
    if (kept == nullptr || !kept->known) {
      terrain_blocked(ring, blocked, block_disc);
      if (kept != nullptr) {
        kept->known = true;
        kept->blocked = blocked;
      }
    }
    for (std::size_t k = terrain_circles; k < circles.size(); ++k) {
      if (static_cast<int>(k) == ring.own_circle) continue;
      block_disc(circles[k].c, circles[k].rho - kPathTolIn);
    }
    // A free arc that never comes near a polygon's edge is wholly inside or outside it.
    free_arcs(ring, blocked);
  }

  // The arcs of a ring that terrain and the table edge block.
  template <typename BlockDisc>
  void terrain_blocked(const Ring& ring, geom::AngleSet& blocked, BlockDisc& block_disc) const {
    const Vec2 c = ring.c;
    const double rho = ring.rho;
    for (std::size_t k = 0; k < terrain_circles; ++k) {
      if (static_cast<int>(k) == ring.own_circle) continue;
      block_disc(circles[k].c, circles[k].rho - kPathTolIn);
    }
    const double g = r - kPathTolIn;
    for (const GrownPolygon& p : polys) {
      if (p.hi.x + r < c.x - rho || p.lo.x - r > c.x + rho || p.hi.y + r < c.y - rho ||
          p.lo.y - r > c.y + rho) {
        continue;
      }
      const std::size_t n = p.pts.size();
      for (std::size_t i = 0, j = n - 1; i < n; j = i++) {
        const Vec2 a = p.pts[j];
        const Vec2 b = p.pts[i];
        const double len = norm(b - a);
        if (len <= 0) continue;
        const Vec2 t = (b - a) / len;
        const Vec2 nn = perp(t);
        const geom::AngleSet strip =
            geom::AngleSet::cos_band(dot(nn, c - a), rho, geom::angle_of(nn), -g, g);
        const geom::AngleSet slab =
            geom::AngleSet::cos_band(dot(t, c - a), rho, geom::angle_of(t), 0.0, len);
        blocked.unite(strip.intersect(slab));
        block_disc(a, g);
      }
    }
    const double tol = kPathTolIn;
    blocked.unite(geom::AngleSet::cos_band(c.x, rho, 0.0, -kInf, rect_lo.x - tol));
    blocked.unite(geom::AngleSet::cos_band(c.x, rho, 0.0, rect_hi.x + tol, kInf));
    blocked.unite(geom::AngleSet::cos_band(c.y, rho, std::numbers::pi / 2, -kInf, rect_lo.y - tol));
    blocked.unite(geom::AngleSet::cos_band(c.y, rho, std::numbers::pi / 2, rect_hi.y + tol, kInf));
  }

  void free_arcs(Ring& ring, geom::AngleSet& blocked) const {
    const Vec2 c = ring.c;
    const double rho = ring.rho;
    geom::AngleSet free = blocked.complement();
    for (const auto& [lo, hi] : free.spans()) {
      const Vec2 mid = c + geom::unit((lo + hi) / 2) * rho;
      for (const GrownPolygon& p : polys) {
        if (geom::point_in_polygon(mid, p.pts)) {
          blocked.add(lo, hi);
          break;
        }
      }
    }
    free = blocked.complement();
    ring.full = free.full();
    ring.spans = free.spans();
    ring.span_comp.assign(ring.spans.size(), 0);
    ring.comp_start.clear();
    for (std::size_t i = 0; i < ring.spans.size(); ++i) {
      ring.span_comp[i] = static_cast<int>(i);
      ring.comp_start.push_back(ring.spans[i].first);
    }
    if (!ring.full && ring.spans.size() >= 2 && ring.spans.front().first <= 0 &&
        ring.spans.back().second >= kTwoPi) {
      // The pieces through angle 0 are one arc.
      const std::size_t last = ring.spans.size() - 1;
      ring.span_comp[0] = static_cast<int>(last);
    }
  }

  int add_node(Vec2 p, int ring) {
    if (ring < 0) return add_node(p, ring, 0, 0);
    const Ring& rg = rings[static_cast<std::size_t>(ring)];
    const double angle = geom::angle_of(p - rg.c);
    return add_node(p, ring, angle, rg.comp_of(angle));
  }
  // The same with the angle on the ring and its free piece already worked out.
  int add_node(Vec2 p, int ring, double angle, int comp) {
    Node n;
    n.p = p;
    n.ring = ring;
    if (ring >= 0) {
      n.angle = angle;
      n.comp = comp;
    }
    nodes.push_back(n);
    return static_cast<int>(nodes.size()) - 1;
  }

  void add_line(int a, int b) {
    const double w =
        norm(nodes[static_cast<std::size_t>(b)].p - nodes[static_cast<std::size_t>(a)].p);
    edges.push_back({a, {b, w, -1, 0}});
    edges.push_back({b, {a, w, -1, 0}});
  }

  // A tangent run between two points on rings (or the start) when it is clear.
  void try_run(Vec2 p, int ring_p, Vec2 q, int ring_q, int node_p) {
    double angle_p = 0;
    int comp_p = 0;
    if (ring_p >= 0) {
      const Ring& rp = rings[static_cast<std::size_t>(ring_p)];
      angle_p = geom::angle_of(p - rp.c);
      comp_p = rp.comp_of(angle_p);
      if (comp_p < 0) return;
    }
    const Ring& rq = rings[static_cast<std::size_t>(ring_q)];
    const double angle_q = geom::angle_of(q - rq.c);
    const int comp_q = rq.comp_of(angle_q);
    if (comp_q < 0) return;
    if (!seg_free(p, q)) return;
    const int a = node_p >= 0 ? node_p : add_node(p, ring_p, angle_p, comp_p);
    const int b = add_node(q, ring_q, angle_q, comp_q);
    add_line(a, b);
  }

  // try_run between two terrain rings, with the terrain part taken from the thread's cache.
  // `run` is the cache's entry for this run (this radius, these two terrain rings, this one of
  // their common tangents).
  void try_terrain_run(Vec2 p, int ring_p, Vec2 q, int ring_q, TerrainRun& run) {
    const Ring& rp = rings[static_cast<std::size_t>(ring_p)];
    const Ring& rq = rings[static_cast<std::size_t>(ring_q)];
    if (!run.known) {
      run.known = true;
      run.angle_p = geom::angle_of(p - rp.c);
      run.angle_q = geom::angle_of(q - rq.c);
      run.on_table = in_rect(p, kPathTolIn) && in_rect(q, kPathTolIn);
      for (const auto& [is_circle, at] : terrain_index) {
        const bool blocks =
            is_circle ? !circle_clear(p, q, end_circles[at]) : !polygon_clear(p, q, end_polys[at]);
        if (blocks) {
          const int k = is_circle ? end_circles[at].terrain : end_polys[at].terrain;
          run.blocked_by |= std::uint64_t{1} << k;
        }
      }
    }
    if (!run.on_table || (run.blocked_by & terrain_mask) != 0) return;
    const int comp_p = rp.comp_of(run.angle_p);
    if (comp_p < 0) return;
    const int comp_q = rq.comp_of(run.angle_q);
    if (comp_q < 0) return;
    if (!seg_free_of_bases(p, q)) return;
    const int a = add_node(p, ring_p, run.angle_p, comp_p);
    const int b = add_node(q, ring_q, run.angle_q, comp_q);
    add_line(a, b);
  }

  void build(const MoveObstacles& world) {
    const Vec2 s = mover.centre;
    auto near = [&](double d) { return d <= max_len; };
    run_cache_ok = world.terrain.size() <= 64;
    if (run_cache_ok) {
      run_cache_generation = terrain_run_cache().use_for(world);
      // The runs of a large terrain set would take too much memory (ids² entries per radius).
      run_cache_ok = terrain_run_cache().ids <= 256;
    }
    for (std::size_t k = 0; k < world.terrain.size(); ++k) {
      const Obstacle& o = world.terrain[k];
      const std::uint64_t bit = k < 64 ? std::uint64_t{1} << k : 0;
      if (o.shape.kind == Shape::Kind::Circle) {
        const GrownCircle g{o.shape.circle.centre, o.shape.circle.radius_in + r, o.id,
                            static_cast<int>(k)};
        end_circles.push_back(g);
        terrain_index.push_back({true, end_circles.size() - 1});
        if (near(norm(g.c - s) - g.rho)) {
          circles.push_back(g);
          terrain_mask |= bit;
        }
      } else if (o.shape.polygon.size() >= 3) {
        GrownPolygon g;
        g.pts = o.shape.polygon;
        if (geom::signed_area2(g.pts) < 0) std::reverse(g.pts.begin(), g.pts.end());
        g.lo = g.hi = g.pts.front();
        for (const Vec2& p : g.pts) {
          g.lo = {std::min(g.lo.x, p.x), std::min(g.lo.y, p.y)};
          g.hi = {std::max(g.hi.x, p.x), std::max(g.hi.y, p.y)};
        }
        g.id = o.id;
        g.terrain = static_cast<int>(k);
        end_polys.push_back(g);
        terrain_index.push_back({false, end_polys.size() - 1});
        if (near(geom::polygon_distance(s, g.pts) - r)) {
          polys.push_back(std::move(g));
          terrain_mask |= bit;
        }
      }
    }
    terrain_circles = circles.size();
    for (const Obstacle& o : world.opposing_bases) {
      const GrownCircle g{o.shape.circle.centre, o.shape.circle.radius_in + r, o.id};
      end_circles.push_back(g);
      if (near(norm(g.c - s) - g.rho)) circles.push_back(g);
    }
    for (const Obstacle& o : world.friendly_bases) {
      end_circles.push_back({o.shape.circle.centre, o.shape.circle.radius_in + r, o.id});
    }

    // The start must not already overlap what the path has to go around.
    if (!in_rect(s, kPathTolIn)) {
      start_problem = "the base is not wholly on the table";
    }
    for (const GrownCircle& c : circles) {
      if (start_problem.empty() && norm(s - c.c) < c.rho - kPathTolIn) {
        start_problem = fmt::format("the base overlaps {} where it stands", quoted(c.id));
      }
    }
    for (const GrownPolygon& p : polys) {
      if (start_problem.empty() && geom::polygon_distance(s, p.pts) < r - kPathTolIn) {
        start_problem = fmt::format("the base overlaps terrain {} where it stands", quoted(p.id));
      }
    }
    add_node(s, -1);
    if (!start_problem.empty()) {
      dist.assign(1, kInf);
      parent.assign(1, -1);
      parent_edge.assign(1, {});
      return;
    }
  }

  // The visibility graph, built the first time a query needs it: a point reached by a clear
  // straight run from the start needs none (nothing is shorter than the straight run).
  mutable std::once_flag graph_once;
  void ensure_graph() const {
    // The object is never const itself (MoveField makes it), only seen through const.
    std::call_once(graph_once, [this] { const_cast<MoveGraph*>(this)->build_graph(); });
  }

  // Takes empty lists with room from the thread's pool (the graph's own lists are still empty).
  void take_lists() {
    auto& free = graph_pool().free;
    if (free.empty()) {
      lists_taken = true;  // hand this graph's lists to the pool when it goes
      return;
    }
    GraphLists l = std::move(free.back());
    free.pop_back();
    // What the graph already holds (the start node) moves into the pooled list.
    auto take = [](auto& mine, auto& theirs) {
      theirs.clear();
      theirs.insert(theirs.end(), mine.begin(), mine.end());
      mine.swap(theirs);
    };
    take(rings, l.rings);
    take(nodes, l.nodes);
    take(edges, l.edges);
    take(adj_start, l.adj_start);
    take(adj_edges, l.adj_edges);
    take(dist, l.dist);
    take(parent, l.parent);
    take(parent_edge, l.parent_edge);
    take(heap_store, l.heap);
    lists_taken = true;
  }

  ~MoveGraph() {
    if (!lists_taken || !graph_pool_alive) return;
    auto& free = graph_pool().free;
    if (free.size() >= 8) return;
    GraphLists l;
    l.rings = std::move(rings);
    l.nodes = std::move(nodes);
    l.edges = std::move(edges);
    l.adj_start = std::move(adj_start);
    l.adj_edges = std::move(adj_edges);
    l.dist = std::move(dist);
    l.parent = std::move(parent);
    l.parent_edge = std::move(parent_edge);
    l.heap = std::move(heap_store);
    free.push_back(std::move(l));
  }

  MoveGraph() = default;
  MoveGraph(const MoveGraph&) = delete;
  MoveGraph& operator=(const MoveGraph&) = delete;

  bool lists_taken = false;
  std::vector<std::pair<double, int>> heap_store;  // Dijkstra's heap (its room is kept)

  void build_graph() {
    take_lists();
    const Vec2 s = mover.centre;
    auto near = [&](double d) { return d <= max_len; };
    // Rings: grown circles and the convex corners of polygons, if a move could reach them.
    std::size_t corners = 0;
    for (const GrownPolygon& p : polys)
      corners += p.pts.size();
    rings.reserve(circles.size() + corners);
    // The thread's cache serves only the terrain it holds now (a field kept from another table
    // may build its graph later): its ring ids are taken only then.
    use_cache_ = run_cache_ok && terrain_run_cache().generation == run_cache_generation;
    for (std::size_t k = 0; k < circles.size(); ++k) {
      Ring rg;
      rg.c = circles[k].c;
      rg.rho = circles[k].rho;
      rg.own_circle = static_cast<int>(k);
      if (k < terrain_circles && use_cache_) {
        rg.terrain_id = terrain_run_cache().first_id[static_cast<std::size_t>(circles[k].terrain)];
      }
      rings.push_back(rg);
    }
    if (r > 0) {
      for (const GrownPolygon& p : polys) {
        const std::size_t n = p.pts.size();
        for (std::size_t i = 0; i < n; ++i) {
          const Vec2 prev = p.pts[(i + n - 1) % n];
          const Vec2 v = p.pts[i];
          const Vec2 next = p.pts[(i + 1) % n];
          if (cross(v - prev, next - v) <= 0) continue;  // reflex or flat: never bent around
          if (!near(norm(v - s) - r)) continue;
          Ring rg;
          rg.c = v;
          rg.rho = r;
          if (use_cache_) {
            rg.terrain_id = terrain_run_cache().first_id[static_cast<std::size_t>(p.terrain)] +
                            static_cast<int>(i);
          }
          rings.push_back(rg);
        }
      }
    }
    for (Ring& rg : rings)
      compute_free(rg);

    // Straight runs from the start to each ring.
    for (std::size_t i = 0; i < rings.size(); ++i) {
      const Ring& rg = rings[i];
      const Vec2 w = s - rg.c;
      const double d = norm(w);
      const int ri = static_cast<int>(i);
      if (d < rg.rho - kPathTolIn) continue;
      if (d <= rg.rho) {
        // The start touches this ring: it can slide along it.
        try_run(s, -1, rg.c + w / d * rg.rho, ri, 0);
        continue;
      }
      const double a = std::acos(std::min(1.0, rg.rho / d));
      const double g = geom::angle_of(w);
      for (double sgn : {-1.0, 1.0}) {
        try_run(s, -1, rg.c + geom::unit(g + sgn * a) * rg.rho, ri, 0);
      }
    }
    // Common tangents between rings. Runs between two terrain rings come from the thread's
    // cache (one list per base radius, looked up once here): a run it already knows to be cut
    // by terrain taken in, or to leave the table, is passed over before its ends are worked out.
    const bool use_cache = use_cache_;
    const auto kept_ids = static_cast<std::size_t>(use_cache ? terrain_run_cache().ids : 0);
    TerrainRun* const kept_runs = kept_ids > 0 ? &terrain_run_cache().run(r, 0, 0, 0) : nullptr;
    for (std::size_t i = 0; i < rings.size(); ++i) {
      for (std::size_t j = i + 1; j < rings.size(); ++j) {
        const Ring& f = rings[i];
        const Ring& h = rings[j];
        const Vec2 w = f.c - h.c;
        const double l = norm(w);
        if (l <= 0) continue;
        const Vec2 wh = w / l;
        int tangent = -1;
        for (double s2 : {1.0, -1.0}) {
          tangent = s2 > 0 ? -1 : 1;
          const double k = f.rho - s2 * h.rho;
          if (std::abs(k) > l) continue;
          const double cs = k / l;
          const double sn = std::sqrt(std::max(0.0, 1 - cs * cs));
          for (double side : {1.0, -1.0}) {
            ++tangent;
            TerrainRun* kept = nullptr;
            if (kept_runs != nullptr && f.terrain_id >= 0 && h.terrain_id >= 0) {
              kept = kept_runs +
                     (static_cast<std::size_t>(f.terrain_id) * kept_ids +
                      static_cast<std::size_t>(h.terrain_id)) *
                         4 +
                     static_cast<std::size_t>(tangent);
              if (kept->known && (!kept->on_table || (kept->blocked_by & terrain_mask) != 0)) {
                if (sn == 0) break;
                continue;
              }
            }
            const Vec2 n = wh * cs + perp(wh) * (side * sn);
            // Line n·x = n·c_f − ρ_f touches f at c_f − ρ_f·n and h at c_h − s2·ρ_h·n.
            const Vec2 p = f.c - n * f.rho;
            const Vec2 q = h.c - n * (s2 * h.rho);
            if (kept != nullptr) {
              try_terrain_run(p, static_cast<int>(i), q, static_cast<int>(j), *kept);
            } else {
              try_run(p, static_cast<int>(i), q, static_cast<int>(j), -1);
            }
            if (sn == 0) break;
          }
        }
      }
    }
    // Arcs between neighbouring nodes on each ring (each ring's list sized once).
    {
      std::vector<int> on_ring(rings.size(), 0);
      for (const Node& n : nodes) {
        if (n.ring >= 0) ++on_ring[static_cast<std::size_t>(n.ring)];
      }
      for (std::size_t ri = 0; ri < rings.size(); ++ri)
        rings[ri].nodes.reserve(static_cast<std::size_t>(on_ring[ri]));
    }
    for (std::size_t i = 0; i < nodes.size(); ++i) {
      const Node& n = nodes[i];
      if (n.ring >= 0)
        rings[static_cast<std::size_t>(n.ring)].nodes.push_back({n.angle, static_cast<int>(i)});
    }
    for (std::size_t ri = 0; ri < rings.size(); ++ri) {
      Ring& rg = rings[ri];
      std::sort(rg.nodes.begin(), rg.nodes.end(),
                [](const Ring::At& x, const Ring::At& y) { return x.angle < y.angle; });
      const std::size_t m = rg.nodes.size();
      if (m < 2) continue;
      for (std::size_t k = 0; k < m; ++k) {
        // Each node joins the next one counter-clockwise (the last wraps to the first).
        const Ring::At& x = rg.nodes[k];
        const Ring::At& y = rg.nodes[(k + 1) % m];
        const Node& nx = nodes[static_cast<std::size_t>(x.node)];
        const Node& ny = nodes[static_cast<std::size_t>(y.node)];
        if (nx.comp < 0 || nx.comp != ny.comp) continue;
        const double px = rg.param(nx.comp, x.angle);
        const double py = rg.param(ny.comp, y.angle);
        double sweep = 0;
        if (rg.full) {
          sweep = geom::wrap_angle(y.angle - x.angle);
        } else {
          if (py < px) continue;  // the way round leaves the free piece
          sweep = py - px;
        }
        const double w = rg.rho * sweep;
        edges.push_back({x.node, {y.node, w, static_cast<int>(ri), sweep}});
        edges.push_back({y.node, {x.node, w, static_cast<int>(ri), -sweep}});
      }
    }
    dijkstra();
    for (std::size_t i = 0; i < nodes.size(); ++i) {
      if (nodes[i].ring >= 0) {
        Ring& rg = rings[static_cast<std::size_t>(nodes[i].ring)];
        rg.min_dist = std::min(rg.min_dist, dist[i]);
      }
    }
  }

  // Gathers the edges per node (a counting sort that keeps the order they were added in).
  void gather_edges() {
    const std::size_t n = nodes.size();
    adj_start.assign(n + 1, 0);
    for (const auto& [from, e] : edges)
      ++adj_start[static_cast<std::size_t>(from) + 1];
    for (std::size_t i = 0; i < n; ++i)
      adj_start[i + 1] += adj_start[i];
    adj_edges.resize(edges.size());
    // adj_start[u] serves as u's fill point (ending at u + 1's start), then moves back.
    for (const auto& [from, e] : edges)
      adj_edges[static_cast<std::size_t>(adj_start[static_cast<std::size_t>(from)]++)] = e;
    for (std::size_t i = n; i > 0; --i)
      adj_start[i] = adj_start[i - 1];
    adj_start[0] = 0;
  }

  void dijkstra() {
    gather_edges();
    const std::size_t n = nodes.size();
    dist.assign(n, kInf);
    parent.assign(n, -1);
    parent_edge.assign(n, {});
    // A binary min-heap kept in heap_store (what std::priority_queue with std::greater does,
    // step for step, in a list whose room is kept).
    auto& heap = heap_store;
    const std::greater<> later;
    heap.clear();
    dist[0] = 0;
    heap.emplace_back(0.0, 0);
    std::push_heap(heap.begin(), heap.end(), later);
    while (!heap.empty()) {
      const auto [d, u] = heap.front();
      std::pop_heap(heap.begin(), heap.end(), later);
      heap.pop_back();
      if (d > dist[static_cast<std::size_t>(u)]) continue;
      const auto first = static_cast<std::size_t>(adj_start[static_cast<std::size_t>(u)]);
      const auto last = static_cast<std::size_t>(adj_start[static_cast<std::size_t>(u) + 1]);
      for (std::size_t k = first; k < last; ++k) {
        const Edge& e = adj_edges[k];
        const double nd = d + e.w;
        if (nd < dist[static_cast<std::size_t>(e.to)]) {
          dist[static_cast<std::size_t>(e.to)] = nd;
          parent[static_cast<std::size_t>(e.to)] = u;
          parent_edge[static_cast<std::size_t>(e.to)] = e;
          heap.emplace_back(nd, e.to);
          std::push_heap(heap.begin(), heap.end(), later);
        }
      }
    }
  }

  // ---- queries --------------------------------------------------------------------------

  // How the best path to a point ends: straight from the start, or from `ring` after an arc
  // from `node` to the tangent point `touch`.
  struct Finish {
    double length = kInf;
    int ring = -1;
    int node = 0;
    Vec2 touch;
    double sweep = 0;
  };

  // The best path to x that ends straight from the start, or below `cap`, and its length
  // (+infinity when none is shorter than `cap`). `hint` names a ring to try first (in/out):
  // neighbouring points are usually reached the same way, and a good first answer prunes the
  // other rings by their lower bounds.
  [[nodiscard]] Finish finish(Vec2 x, double cap = kInf, int* hint = nullptr) const {
    Finish best;
    best.length = cap;
    best.ring = -2;  // nothing yet
    if (!start_problem.empty()) {
      best.length = kInf;
      return best;
    }
    const Vec2 s = mover.centre;
    const double direct = norm(x - s);
    if (seg_free(s, x)) {
      // A clear straight run is the shortest path there is: no way round can beat it.
      if (direct < best.length) {
        best.length = direct;
        best.ring = -1;
        best.node = 0;
        best.touch = s;
      } else {
        best.length = kInf;
      }
      return best;
    }
    ensure_graph();
    const int first = hint != nullptr ? *hint : -1;
    if (first >= 0 && static_cast<std::size_t>(first) < rings.size()) {
      try_ring(static_cast<std::size_t>(first), x, best);
    }
    for (std::size_t ri = 0; ri < rings.size(); ++ri) {
      if (static_cast<int>(ri) != first) try_ring(ri, x, best);
    }
    if (best.ring == -2) best.length = kInf;
    if (hint != nullptr && best.ring >= 0) *hint = best.ring;
    return best;
  }

  // Improves `best` with the path that leaves ring `ri` tangentially toward x.
  void try_ring(std::size_t ri, Vec2 x, Finish& best) const {
    const Ring& rg = rings[ri];
    if (!(rg.min_dist < kInf) || rg.nodes.empty()) return;
    const Vec2 w = x - rg.c;
    const double d = norm(w);
    if (d < rg.rho - kPathTolIn) return;
    if (rg.min_dist + std::max(0.0, d - rg.rho) >= best.length) return;
    const double a = d > rg.rho ? std::acos(rg.rho / d) : 0.0;
    const double run = std::sqrt(std::max(0.0, d * d - rg.rho * rg.rho));
    const double g = geom::angle_of(w);
    for (int orient : {1, -1}) {
      // Travelling counter-clockwise, the path leaves toward x at angle g − a; clockwise, g + a.
      const double at = geom::wrap_angle(g - orient * a);
      const int comp = rg.comp_of(at);
      if (comp < 0) continue;
      // The node just before `at` in the direction of travel.
      const Ring::At* from = nullptr;
      if (orient > 0) {
        auto it = std::upper_bound(rg.nodes.begin(), rg.nodes.end(), at,
                                   [](double v, const Ring::At& n) { return v < n.angle; });
        from = it == rg.nodes.begin() ? &rg.nodes.back() : &*(it - 1);
      } else {
        auto lo = std::lower_bound(rg.nodes.begin(), rg.nodes.end(), at,
                                   [](const Ring::At& n, double v) { return n.angle < v; });
        from = lo == rg.nodes.end() ? &rg.nodes.front() : &*lo;
      }
      const Node& fn = nodes[static_cast<std::size_t>(from->node)];
      if (fn.comp != comp) continue;
      double sweep = 0;
      if (rg.full) {
        sweep =
            orient > 0 ? geom::wrap_angle(at - from->angle) : geom::wrap_angle(from->angle - at);
      } else {
        const double pf = rg.param(comp, from->angle);
        const double pa = rg.param(comp, at);
        if (orient > 0 ? pf > pa : pf < pa) continue;
        sweep = std::abs(pa - pf);
      }
      const double total = dist[static_cast<std::size_t>(from->node)] + rg.rho * sweep + run;
      if (total >= best.length) continue;
      const Vec2 touch = rg.c + geom::unit(at) * rg.rho;
      if (!seg_free(touch, x)) continue;
      best.length = total;
      best.ring = static_cast<int>(ri);
      best.node = from->node;
      best.touch = touch;
      best.sweep = orient * sweep;
    }
  }

  [[nodiscard]] std::vector<PathPiece> pieces_to(const Finish& f, Vec2 x) const {
    std::vector<PathPiece> rev;
    auto push_line = [&](Vec2 a, Vec2 b) {
      if (norm(b - a) <= 1e-12) return;
      PathPiece p;
      p.kind = PathPiece::Kind::Line;
      p.from = a;
      p.to = b;
      p.length_in = norm(b - a);
      rev.push_back(p);
    };
    auto push_arc = [&](int ring, Vec2 a, Vec2 b, double sweep) {
      if (std::abs(sweep) <= 1e-12) return;
      const Ring& rg = rings[static_cast<std::size_t>(ring)];
      if (!rev.empty() && rev.back().kind == PathPiece::Kind::Arc && rev.back().centre == rg.c &&
          rev.back().radius_in == rg.rho && (rev.back().sweep_rad > 0) == (sweep > 0) &&
          norm(rev.back().from - b) <= 1e-9) {
        rev.back().from = a;
        rev.back().sweep_rad += sweep;
        rev.back().length_in = rg.rho * std::abs(rev.back().sweep_rad);
        return;
      }
      PathPiece p;
      p.kind = PathPiece::Kind::Arc;
      p.from = a;
      p.to = b;
      p.centre = rg.c;
      p.radius_in = rg.rho;
      p.sweep_rad = sweep;
      p.length_in = rg.rho * std::abs(sweep);
      rev.push_back(p);
    };
    push_line(f.touch, x);
    if (f.ring >= 0) push_arc(f.ring, nodes[static_cast<std::size_t>(f.node)].p, f.touch, f.sweep);
    int v = f.node;
    while (v > 0) {
      const int u = parent[static_cast<std::size_t>(v)];
      const Edge& e = parent_edge[static_cast<std::size_t>(v)];
      const Vec2 a = nodes[static_cast<std::size_t>(u)].p;
      const Vec2 b = nodes[static_cast<std::size_t>(v)].p;
      if (e.ring >= 0) {
        push_arc(e.ring, a, b, e.sweep);
      } else {
        push_line(a, b);
      }
      v = u;
    }
    std::reverse(rev.begin(), rev.end());
    return rev;
  }

  // Every terrain polygon, for end checks (polys holds only those a path could reach).
  std::vector<GrownPolygon> end_polys;
};

}  // namespace detail

MoveField::MoveField(const Disc& mover, const MoveObstacles& world, double max_length_in) {
  auto g = std::make_shared<detail::MoveGraph>();
  g->mover = mover;
  g->r = mover.radius_in;
  g->max_len = max_length_in;
  g->rect_lo = {mover.radius_in, mover.radius_in};
  g->rect_hi = {world.table.width_in - mover.radius_in, world.table.depth_in - mover.radius_in};
  g->build(world);
  graph_ = std::move(g);
  static std::atomic<std::uint64_t> next_serial{1};
  serial_ = next_serial.fetch_add(1, std::memory_order_relaxed);
}

bool MoveField::straight_run_clear(Vec2 centre) const {
  return graph_->start_problem.empty() && graph_->seg_free(graph_->mover.centre, centre);
}

double MoveField::distance_to(Vec2 centre) const {
  return graph_->finish(centre).length;
}

double MoveField::distance_below(Vec2 centre, double cap, int* hint) const {
  return graph_->finish(centre, cap, hint).length;
}

double MoveField::end_clearance_in(Vec2 centre) const {
  return graph_->end_clearance(centre, nullptr);
}

bool MoveField::legal_end(Vec2 centre) const {
  return end_clearance_in(centre) >= -kEndTolIn;
}

EndCheck MoveField::end_check(Vec2 centre) const {
  EndCheck out;
  std::string what;
  (void)graph_->end_clearance(centre, &what);
  if (!what.empty()) {
    out.ok = false;
    out.reason = what;
  }
  return out;
}

const std::string& MoveField::start_problem() const {
  return graph_->start_problem;
}
const Disc& MoveField::mover() const {
  return graph_->mover;
}

PathResult MoveField::path_to(Vec2 centre) const {
  PathResult out;
  if (!graph_->start_problem.empty()) {
    out.reason = graph_->start_problem;
    return out;
  }
  const EndCheck end = end_check(centre);
  if (!end.ok) {
    out.reason = end.reason;
    return out;
  }
  const auto f = graph_->finish(centre);
  if (!(f.length < kInf) || f.length > graph_->max_len) {
    out.reason = graph_->max_len < kInf
                     ? fmt::format("no legal path of at most {:.2f}\"", graph_->max_len)
                     : "no legal path: terrain, opposing bases or the table edge cut it off";
    return out;
  }
  out.found = true;
  out.length_in = f.length;
  out.pieces = graph_->pieces_to(f, centre);
  return out;
}

PathResult shortest_path(const Disc& mover, Vec2 goal, const MoveObstacles& world) {
  return MoveField(mover, world).path_to(goal);
}

}  // namespace duels
