#pragma once
/// @file What the benchmarks with a summary share (card games, base rings): Google Benchmark's
/// console table, then a summary read from the same runs (ours against a baseline, budgets), and
/// the main() that runs them. Each bench keeps only its benchmarks and its summary lines.

#include <benchmark/benchmark.h>

#include <algorithm>
#include <chrono>
#include <cstddef>
#include <cstdio>
#include <map>
#include <string>
#include <vector>

namespace duels::bench {

/// The console table, keeping each run's time (ms, by function name) and counters
/// ("NAME/COUNTER") for `print_summary`.
class SummaryReporter : public benchmark::ConsoleReporter {
 public:
  SummaryReporter() : ConsoleReporter(OO_Tabular) {}
  void ReportRuns(const std::vector<Run>& reports) override {
    ConsoleReporter::ReportRuns(reports);
    for (const Run& r : reports) {
      const std::string name = r.run_name.function_name;
      ms_[name] = r.GetAdjustedRealTime() / benchmark::GetTimeUnitMultiplier(r.time_unit) * 1e3;
      for (const auto& [counter_name, counter] : r.counters)
        counters_[name + "/" + counter_name] = counter.value;
    }
  }
  /// Printed after every benchmark ran.
  virtual void print_summary() const = 0;

 protected:
  /// A run's time in ms, or -1 when it did not run (filtered out).
  [[nodiscard]] double time(const std::string& name) const {
    const auto it = ms_.find(name);
    return it == ms_.end() ? -1 : it->second;
  }
  /// A run's counter ("NAME/COUNTER"), or -1.
  [[nodiscard]] double counter(const std::string& name) const {
    const auto it = counters_.find(name);
    return it == counters_.end() ? -1 : it->second;
  }
  /// "what  ms (budget N ms) OK|OVER"; nothing when the run was filtered out.
  static void budget(const char* what, double ms, double limit) {
    if (ms < 0) return;
    std::printf("  %-72s %8.3f ms (budget %.0f ms) %s\n", what, ms, limit,
                ms <= limit ? "OK" : "OVER");
  }

 private:
  std::map<std::string, double> ms_;
  std::map<std::string, double> counters_;
};

/// Cycles through `count` inputs, `run(k)` doing input k, and sets the counter "worst_ms": the
/// slowest input, each timed by its fastest repetition (so an input's own cost, not a cold
/// cache or another process, sets the worst case).
template <class Run>
void time_worst_input(benchmark::State& state, std::size_t count, Run run) {
  std::vector<double> best_ms(count, 1e9);
  std::size_t i = 0;
  for (auto _ : state) {
    const std::size_t k = i++ % count;
    const auto t0 = std::chrono::steady_clock::now();
    run(k);
    best_ms[k] = std::min(
        best_ms[k],
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
  }
  double worst = 0;
  for (double ms : best_ms) {
    if (ms < 1e9) worst = std::max(worst, ms);
  }
  state.counters["worst_ms"] = worst;
}

/// main(): the benchmarks the command line selects, reported by `Reporter`, then its summary.
template <class Reporter>
int run_with_summary(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  Reporter reporter;
  benchmark::RunSpecifiedBenchmarks(&reporter);
  reporter.print_summary();
  benchmark::Shutdown();
  return 0;
}

}  // namespace duels::bench
