// Whole matches on the demo table with terrain (assets/scenes/demo_table.yaml), played by the
// built-in opponent through the engine. Every move is re-checked by a brute-force path oracle
// (polygon visibility graphs bounding the true length from both sides, end position against
// every piece), random moves are probed against the same bounds, and every attack's line of
// fire by segment sampling. CI plays a few matches; set DUELS_TABLE_PROPERTY_MATCHES=2000 for
// the long run (docs/table-rules.md reports it).
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <iostream>
#include <string>

#include "dice/roller.hpp"
#include "duels/assets.hpp"
#include "duels/autoplay.hpp"
#include "duels/engine.hpp"
#include "duels/geometry_oracle.hpp"
#include "duels/loadout.hpp"
#include "duels/scene.hpp"
#include "duels/sim.hpp"
#include "duels/table_rules.hpp"
#include "test_paths.hpp"

namespace duels {
namespace {

constexpr double kBoundTol = 1e-6;

struct Tally {
  int matches = 0;
  int finished = 0;
  int moves = 0;
  int probes = 0;
  int probes_decided = 0;  // probes the oracle's two bounds settle
  int attacks = 0;
  int blocked_checks = 0;
  std::vector<std::string> violations;
};

// The oracle's own view of the table: built from the state's raw fields, not table_rules.
struct OracleWorld {
  Disc mover;
  MoveObstacles world;
  std::vector<Disc> others;  // every other base in play
};

OracleWorld oracle_world(const GameState& s, FigureId f) {
  OracleWorld o;
  const auto& me = s.figures[static_cast<std::size_t>(f)];
  o.mover = Disc{{me.position->x, me.position->y}, me.def.base_diameter_in / 2};
  o.world.table = s.table.bounds;
  for (const auto& t : s.terrain)
    o.world.terrain.push_back({t.id, *t.shape});
  for (FigureId g = 0; g < static_cast<FigureId>(s.figures.size()); ++g) {
    const auto& x = s.figures[static_cast<std::size_t>(g)];
    if (g == f || x.eliminated || !x.position) continue;
    const Disc d{{x.position->x, x.position->y}, x.def.base_diameter_in / 2};
    o.others.push_back(d);
    (x.team == me.team ? o.world.friendly_bases : o.world.opposing_bases)
        .push_back({x.def.name, Shape::make_circle(d.centre, d.radius_in)});
  }
  return o;
}

// Brute force: the base at `c` is wholly on the table and overlaps nothing (margin > 0 asks for
// that much room).
bool end_ok(const OracleWorld& o, Vec2 c, double margin) {
  const double r = o.mover.radius_in;
  if (c.x - r < margin - 1e-9 || c.y - r < margin - 1e-9 ||
      c.x + r > o.world.table.width_in - margin + 1e-9 ||
      c.y + r > o.world.table.depth_in - margin + 1e-9)
    return false;
  for (const auto& t : o.world.terrain)
    if (distance_in(c, t.shape) < r + margin - 1e-9) return false;
  for (const auto& d : o.others)
    if (norm(c - d.centre) < r + d.radius_in + margin - 1e-9) return false;
  return true;
}

double allowance_of(const FigureState& f, const std::vector<DieRoll>& rolls) {
  int sum = 0;
  for (const auto& r : rolls)
    sum += dice::Roll{f.dice[static_cast<std::size_t>(r.die)].die, r.face}.value();
  return f.value(DialKind::Head) + sum;
}

void check_move(const GameState& s, const Move& m, dice::Rng& rng, Tally& t) {
  ++t.moves;
  const auto& f = s.figures[static_cast<std::size_t>(m.figure)];
  const OracleWorld o = oracle_world(s, m.figure);
  const double allowance = allowance_of(f, m.rolls);
  const oracle::PolygonPaths lower(o.mover, o.world, 48, false);
  const oracle::PolygonPaths upper(o.mover, o.world, 48, true);
  const Vec2 to{m.to->x, m.to->y};
  const std::string where =
      fmt::format("round {} {} to ({:.4f}, {:.4f})", s.round, f.def.name, to.x, to.y);
  if (!end_ok(o, to, 0)) t.violations.push_back(where + ": ends overlapping or off the table");
  if (lower.distance_to(to) > allowance + kBoundTol)
    t.violations.push_back(
        fmt::format("{}: path at least {:.4f} > {}", where, lower.distance_to(to), allowance));
  // Probes: random ends near the figure; where the oracle's bounds settle the question, the
  // engine must agree.
  for (int k = 0; k < 4; ++k) {
    const double a = (static_cast<double>(rng.next() >> 11) * 0x1.0p-53) * 6.283185307179586;
    const double d = (static_cast<double>(rng.next() >> 11) * 0x1.0p-53) * (allowance + 3);
    const Vec2 p = o.mover.centre + Vec2{std::cos(a), std::sin(a)} * d;
    ++t.probes;
    const bool engine_ok = !legal(s, Move{m.figure, m.rolls, std::nullopt, Point{p.x, p.y}});
    const double lo = end_ok(o, p, 0) ? lower.distance_to(p) : INFINITY;
    const double hi = end_ok(o, p, 1e-6) ? upper.distance_to(p) : INFINITY;
    if (hi <= allowance - kBoundTol) {
      ++t.probes_decided;
      if (!engine_ok)
        t.violations.push_back(
            fmt::format("probe ({:.4f}, {:.4f}) for {}: legal (path ≤ {:.4f}) "
                        "but refused",
                        p.x, p.y, f.def.name, hi));
    } else if (lo > allowance + kBoundTol) {
      ++t.probes_decided;
      if (engine_ok)
        t.violations.push_back(
            fmt::format("probe ({:.4f}, {:.4f}) for {}: illegal (path ≥ {:.4f} "
                        "or end) but accepted",
                        p.x, p.y, f.def.name, lo));
    }
  }
}

void check_attack(const GameState& s, const DeclareAttack& c, Tally& t) {
  ++t.attacks;
  const auto disc = [&](FigureId f) {
    const auto& x = s.figures[static_cast<std::size_t>(f)];
    return Disc{{x.position->x, x.position->y}, x.def.base_diameter_in / 2};
  };
  Obstacles others;
  for (const auto& p : s.terrain)
    others.push_back({p.id, *p.shape});
  for (FigureId g = 0; g < static_cast<FigureId>(s.figures.size()); ++g) {
    const auto& x = s.figures[static_cast<std::size_t>(g)];
    if (g == c.attacker || g == c.target || x.eliminated || !x.position) continue;
    others.push_back({x.def.name, Shape::make_circle(disc(g).centre, disc(g).radius_in)});
  }
  const Disc a = disc(c.attacker);
  const Disc b = disc(c.target);
  const LineOfFireResult lof = line_of_fire(a, b, others);
  const Measurement m = measure_from_positions(s, c.attacker, c.target);
  const std::string who = fmt::format("round {} {} → {}", s.round,
                                      s.figures[static_cast<std::size_t>(c.attacker)].def.name,
                                      s.figures[static_cast<std::size_t>(c.target)].def.name);
  if (!m.line_of_fire) {
    t.violations.push_back(who + ": the opponent attacked without a line of fire");
    return;
  }
  // The witness: every sampled point clear of every piece, ends on the two bases' edges.
  const Segment w = lof.witness;
  if (std::abs(norm(w.a - a.centre) - a.radius_in) > 1e-6 ||
      std::abs(norm(w.b - b.centre) - b.radius_in) > 1e-6)
    t.violations.push_back(who + ": witness does not join the two edges");
  for (int k = 0; k <= 400; ++k) {
    const Vec2 p = w.a + (w.b - w.a) * (k / 400.0);
    for (const auto& o : others) {
      if (distance_in(p, o.shape) <= 0) {
        t.violations.push_back(fmt::format("{}: witness meets {}", who, o.id));
        return;
      }
    }
  }
  if (m.gap_in + 1e-9 < gap_in(a, b))
    t.violations.push_back(who + ": gap shorter than edge to edge");
}

// When the engine says a line is blocked, no sampled segment may be clear.
void check_blocked(const GameState& s, FigureId a, FigureId b, Tally& t) {
  const Measurement m = measure_from_positions(s, a, b);
  if (m.line_of_fire) return;
  ++t.blocked_checks;
  const Obstacles others = line_of_fire_blockers(s, a, b);
  const auto disc = [&](FigureId f) {
    const auto& x = s.figures[static_cast<std::size_t>(f)];
    return Disc{{x.position->x, x.position->y}, x.def.base_diameter_in / 2};
  };
  const auto sample = oracle::sample_line_of_fire(disc(a), disc(b), others, 96, true);
  if (sample.clear)
    t.violations.push_back(fmt::format("round {}: blocked line from {} to {} has a clear sample",
                                       s.round, s.figures[static_cast<std::size_t>(a)].def.name,
                                       s.figures[static_cast<std::size_t>(b)].def.name));
}

MatchSetup demo_match(const AssetLibrary& lib, const std::vector<std::string>& teams) {
  MatchSetup m = setup_from_teams(lib, teams);
  const Scene scene = load_scene_file(duels_test::source_dir() + "/assets/scenes/demo_table.yaml",
                                      [&](std::string_view n) { return lib.find_figure(n); });
  m.table = table_from_scene(scene);
  return m;
}

void play(const MatchSetup& setup, std::uint64_t seed, Tally& t) {
  GameState s = *new_game(setup);
  AutoPlayer ai(seed);
  dice::Rng rng(seed * 7 + 1);
  ++t.matches;
  int commands = 0;
  while (s.phase != Phase::GameOver && s.round <= 40 && commands < 20000) {
    auto cmd = ai.next(s);
    if (!cmd) break;
    if (const auto* mv = std::get_if<Move>(&*cmd)) check_move(s, *mv, rng, t);
    if (const auto* at = std::get_if<DeclareAttack>(&*cmd)) {
      check_attack(s, *at, t);
    }
    if (s.phase == Phase::Turns && !s.attack && s.active_figure) {
      for (FigureId e = 0; e < static_cast<FigureId>(s.figures.size()); ++e) {
        const auto& x = s.figures[static_cast<std::size_t>(e)];
        if (e != *s.active_figure && !x.eliminated && x.position)
          check_blocked(s, *s.active_figure, e, t);
      }
    }
    auto r = duels::apply(s, *cmd);
    if (!r) {
      t.violations.push_back(fmt::format("seed {}: the opponent's {} was refused: {}", seed,
                                         command_name(*cmd), r.error().reason));
      return;
    }
    ++commands;
  }
  if (s.phase == Phase::GameOver) ++t.finished;
}

TEST(TableProperty, AutoplayedMatchesOnTheDemoTableBreakNoRule) {
  const auto lib = load_asset_library(duels_test::source_dir() + "/assets");
  int n = 12;
  if (const char* env = std::getenv("DUELS_TABLE_PROPERTY_MATCHES")) n = std::atoi(env);
  std::vector<std::string> names;
  for (const auto& [name, team] : lib.teams)
    names.push_back(name);
  Tally t;
  for (int k = 0; k < n; ++k) {
    const std::string& a = names[static_cast<std::size_t>(k) % names.size()];
    const std::string& b = names[static_cast<std::size_t>(k / 3 + 1) % names.size()];
    if (a == b) continue;
    play(demo_match(lib, {a, b}), static_cast<std::uint64_t>(k) + 1, t);
  }
  std::cout << fmt::format(
      "{} matches ({} finished), {} moves, {} probes ({} settled by the oracle), {} attacks, {} "
      "blocked lines: {} violations\n",
      t.matches, t.finished, t.moves, t.probes, t.probes_decided, t.attacks, t.blocked_checks,
      t.violations.size());
  for (std::size_t i = 0; i < t.violations.size() && i < 20; ++i)
    ADD_FAILURE() << t.violations[i];
  EXPECT_TRUE(t.violations.empty());
  EXPECT_GT(t.moves, 0);
  EXPECT_GT(t.attacks, 0);
  EXPECT_GT(t.probes_decided, t.probes / 2);
}

// The simulator's matches (`duels sim` on the demo table) go through the same checks: every
// command it plays is seen by the oracles before the engine applies it.
TEST(TableProperty, SimulatedMatchesOnTheDemoTableBreakNoRule) {
  const auto lib = load_asset_library(duels_test::source_dir() + "/assets");
  int n = 6;
  if (const char* env = std::getenv("DUELS_TABLE_PROPERTY_MATCHES")) n = std::atoi(env);
  SimOptions o;
  o.table = demo_match(lib, {lib.teams.begin()->first, std::next(lib.teams.begin())->first}).table;
  Tally t;
  dice::Rng rng(17);
  o.observe = [&](const GameState& s, const Command& c) {
    if (const auto* mv = std::get_if<Move>(&c)) check_move(s, *mv, rng, t);
    if (const auto* at = std::get_if<DeclareAttack>(&c)) check_attack(s, *at, t);
  };
  const SimSide a{*lib.find_figure("Razor"),
                  {*lib.find_gear("armored-jacket"), *lib.find_gear("smartgun-link")}};
  const SimSide b{*lib.find_figure("Hex"), {*lib.find_gear("power-focus")}};
  const SimResult r = simulate(a, b, n, 5, o);
  std::cout << fmt::format("{} simulated matches, {} moves, {} attacks: {} violations\n", r.games,
                           t.moves, t.attacks, t.violations.size());
  for (std::size_t i = 0; i < t.violations.size() && i < 20; ++i)
    ADD_FAILURE() << t.violations[i];
  EXPECT_TRUE(t.violations.empty());
  EXPECT_GT(t.moves, 0);
  EXPECT_GT(t.attacks, 0);
}

}  // namespace
}  // namespace duels
