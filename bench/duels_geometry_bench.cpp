// Table geometry speed: `duels table check` (all pairs) and the reachable region on seeded
// tables of 12 bases and 10 terrain pieces, each timed beside its brute-force oracle (dense
// segment sampling; a 16-neighbour grid search) in the same run, with the ratio printed last.
//
//   build/bin/duels_geometry_bench
#include <benchmark/benchmark.h>
#include <fmt/format.h>

#include <cmath>
#include <map>
#include <numbers>
#include <random>
#include <string>

#include "duels/geometry.hpp"
#include "duels/geometry_oracle.hpp"
#include "duels/scene.hpp"

namespace {

using namespace duels;

constexpr double kMoveIn = 12;  // a generous move: Head 7 plus a d6 on white
constexpr int kSamples = 128;   // oracle: points per base edge (spacing ≤ 0.06")

// A 60" × 60" table with two teams of six bases (2–2.5" across) and ten terrain pieces
// (crates, walls, pillars, rubble), nothing overlapping.
Scene bench_scene(std::uint64_t seed) {
  std::mt19937_64 gen(seed);
  auto uni = [&](double lo, double hi) {
    return std::uniform_real_distribution<double>(lo, hi)(gen);
  };
  Scene s;
  s.table = {60, 60};
  while (s.terrain.size() < 10) {
    const Vec2 c{uni(8, 52), uni(8, 52)};
    const int kind = static_cast<int>(s.terrain.size() % 4);
    Shape shape;
    if (kind == 0) shape = Shape::make_rect(c, uni(3, 7), uni(3, 7), uni(0, 90));        // crate
    if (kind == 1) shape = Shape::make_rect(c, uni(6, 12), uni(0.8, 1.5), uni(0, 180));  // wall
    if (kind == 2) shape = Shape::make_circle(c, uni(1, 2.5));                           // pillar
    if (kind == 3) {                                                                     // rubble
      std::vector<Vec2> pts;
      for (int k = 0; k < 6; ++k) {
        const double a = k * std::numbers::pi / 3 + uni(-0.3, 0.3);
        pts.push_back(c + Vec2{std::cos(a), std::sin(a)} * uni(1.5, 3));
      }
      shape = Shape::make_polygon(pts);
    }
    s.terrain.push_back({"t" + std::to_string(s.terrain.size()), shape});
  }
  while (s.bases.size() < 12) {
    SceneBase b;
    b.id = "b" + std::to_string(s.bases.size());
    b.team = 1 + static_cast<int>(s.bases.size() % 2);
    const double r = uni(1.0, 1.25);
    b.disc = {{uni(r, 60 - r), uni(r, 60 - r)}, r};
    bool ok = true;
    for (const SceneTerrain& t : s.terrain)
      ok = ok && distance_in(b.disc.centre, t.shape) > r;
    for (const SceneBase& o : s.bases)
      ok = ok && gap_in(b.disc, o.disc) > 0;
    if (ok) s.bases.push_back(b);
  }
  return s;
}

// The four benchmark tables, built once.
const std::map<std::int64_t, Scene> kScenes = {
    {1, bench_scene(1)}, {2, bench_scene(2)}, {3, bench_scene(3)}, {4, bench_scene(4)}};

const Scene& scene(std::int64_t seed) {
  return kScenes.at(seed);
}

// ---- table check: every pair of bases on different teams ------------------------------------

void BM_TableCheck(benchmark::State& state) {
  const Scene& s = scene(state.range(0));
  std::size_t blocked = 0;
  for (auto _ : state) {
    const auto pairs = check_scene(s);
    blocked = 0;
    for (const auto& p : pairs)
      blocked += p.line_of_fire.clear ? 0 : 1;
    benchmark::DoNotOptimize(pairs.data());
  }
  state.counters["blocked_pairs"] = static_cast<double>(blocked);
}

void BM_TableCheckOracle(benchmark::State& state) {
  const Scene& s = scene(state.range(0));
  for (auto _ : state) {
    for (std::size_t i = 0; i < s.bases.size(); ++i) {
      for (std::size_t j = i + 1; j < s.bases.size(); ++j) {
        if (s.bases[i].team == s.bases[j].team) continue;
        const auto r = oracle::sample_line_of_fire(s.bases[i].disc, s.bases[j].disc,
                                                   line_of_fire_obstacles(s, i, j), kSamples);
        benchmark::DoNotOptimize(r.min_gap_in);
      }
    }
  }
}

// Line of fire for all 66 pairs regardless of team (what an overlay refresh might ask).
void BM_LineOfFireAll66(benchmark::State& state) {
  const Scene& s = scene(state.range(0));
  for (auto _ : state) {
    for (std::size_t i = 0; i < s.bases.size(); ++i) {
      for (std::size_t j = i + 1; j < s.bases.size(); ++j) {
        const auto r =
            line_of_fire(s.bases[i].disc, s.bases[j].disc, line_of_fire_obstacles(s, i, j));
        benchmark::DoNotOptimize(r.gap_in);
      }
    }
  }
}

void BM_LineOfFireAll66Oracle(benchmark::State& state) {
  const Scene& s = scene(state.range(0));
  for (auto _ : state) {
    for (std::size_t i = 0; i < s.bases.size(); ++i) {
      for (std::size_t j = i + 1; j < s.bases.size(); ++j) {
        const auto r = oracle::sample_line_of_fire(s.bases[i].disc, s.bases[j].disc,
                                                   line_of_fire_obstacles(s, i, j), kSamples);
        benchmark::DoNotOptimize(r.min_gap_in);
      }
    }
  }
}

// ---- reachable region for one base ----------------------------------------------------------

void BM_Reach(benchmark::State& state) {
  const Scene& s = scene(state.range(0));
  double area = 0;
  for (auto _ : state) {
    const auto r = reachable_region(s.bases[0].disc, kMoveIn, move_obstacles(s, 0));
    area = r.area_in2;
    benchmark::DoNotOptimize(r.mask.data());
  }
  state.counters["area_in2"] = area;
}

void BM_ReachOracle(benchmark::State& state) {
  const Scene& s = scene(state.range(0));
  double area = 0;
  for (auto _ : state) {
    const auto r = oracle::grid_reach(s.bases[0].disc, kMoveIn, move_obstacles(s, 0));
    area = r.area_in2;
    benchmark::DoNotOptimize(r.mask.data());
  }
  state.counters["area_in2"] = area;
}

void BM_ShortestPath(benchmark::State& state) {
  const Scene& s = scene(state.range(0));
  const Vec2 goal = s.bases[1].disc.centre + Vec2{0, 3};
  for (auto _ : state) {
    const auto p = shortest_path(s.bases[0].disc, goal, move_obstacles(s, 0));
    benchmark::DoNotOptimize(p.length_in);
  }
}

BENCHMARK(BM_TableCheck)->DenseRange(1, 4)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_TableCheckOracle)->DenseRange(1, 4)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_LineOfFireAll66)->DenseRange(1, 4)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_LineOfFireAll66Oracle)->DenseRange(1, 4)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Reach)->DenseRange(1, 4)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_ReachOracle)->DenseRange(1, 4)->Unit(benchmark::kMillisecond)->Iterations(1);
BENCHMARK(BM_ShortestPath)->DenseRange(1, 4)->Unit(benchmark::kMillisecond);

// Keeps each run's time so ours and the oracle's can be set side by side at the end.
class RatioReporter : public benchmark::ConsoleReporter {
 public:
  void ReportRuns(const std::vector<Run>& runs) override {
    ConsoleReporter::ReportRuns(runs);
    for (const Run& r : runs) {
      // CPU time: the machines this runs on are often shared, which inflates wall time.
      const double ms =
          r.GetAdjustedCPUTime() * 1e3 / benchmark::GetTimeUnitMultiplier(r.time_unit);
      times_[r.benchmark_name()] = ms;
    }
  }
  void Finalize() override {
    ConsoleReporter::Finalize();
    const std::pair<const char*, const char*> pairs[] = {
        {"BM_TableCheck", "table check, 36 pairs on different teams (budget 1 ms)"},
        {"BM_LineOfFireAll66", "line of fire, all 66 pairs (budget 1 ms)"},
        {"BM_Reach", "reachable region, one base, 12\" move (budget 5 ms)"}};
    std::printf("\n%-70s %10s %12s %10s\n", "ours vs brute-force oracle, CPU time per table",
                "ours ms", "oracle ms", "ratio");
    for (const auto& [name, label] : pairs) {
      for (int seed = 1; seed <= 4; ++seed) {
        const std::string ours = fmt::format("{}/{}", name, seed);
        auto a = times_.find(ours);
        auto b = times_.find(fmt::format("{}Oracle/{}", name, seed));
        if (b == times_.end()) b = times_.find(fmt::format("{}Oracle/{}/iterations:1", name, seed));
        if (a == times_.end() || b == times_.end()) continue;
        std::printf("%-70s %10.3f %12.1f %9.0fx\n",
                    fmt::format("{} [table {}]", label, seed).c_str(), a->second, b->second,
                    b->second / a->second);
      }
    }
  }

 private:
  std::map<std::string, double> times_;
};

}  // namespace

int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  RatioReporter reporter;
  benchmark::RunSpecifiedBenchmarks(&reporter);
  benchmark::Shutdown();
  return 0;
}
