// `duels sim --a FIGURE[+GEAR…] --b FIGURE[+GEAR…] --games N --seed S [--scene FILE]` — which
// loadout wins, over whole engine matches on a table with terrain.
#include <fmt/format.h>

#include <chrono>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>

#include "app/cli_util.hpp"
#include "app/command.hpp"
#include "duels/scene.hpp"
#include "duels/sim.hpp"
#include "duels/table_rules.hpp"

namespace duels::app {
namespace {

void add_sim(CLI::App& root) {
  struct Opts {
    std::string a, b;
    int games = 10000;
    std::uint64_t seed = 1;
    int round_cap = 100;
    std::string scene;
    bool bare = false;
    bool json = false;
  };
  auto o = std::make_shared<Opts>();
  auto* c = root.add_subcommand(
      "sim",
      "Simulate many 1-vs-1 engine matches between two loadouts on a table with terrain: win "
      "rates with 95% intervals");
  c->add_option("--a", o->a, "side A: FIGURE[+GEAR…]")->required();
  c->add_option("--b", o->b, "side B: FIGURE[+GEAR…]")->required();
  c->add_option("--games", o->games, "number of matches")->check(CLI::Range(1, 100000000));
  auto* scene = c->add_option("--scene", o->scene,
                              "scene file with the table and its terrain (default: the demo "
                              "table, assets/scenes/demo_table.yaml)");
  c->add_flag("--bare-table", o->bare, "play on a bare 60\" x 60\" table without terrain")
      ->excludes(scene);
  c->add_option("--seed", o->seed, "seed: the same seed gives the same results");
  c->add_option("--round-cap", o->round_cap, "rounds after which a match counts as a draw")
      ->check(CLI::Range(1, 10000));
  c->add_flag("--json", o->json, "print JSON");
  c->callback([o] {
    const AssetLibrary lib = load_library();
    const FigureSetup fa = parse_loadout(lib, o->a, "--a");
    const FigureSetup fb = parse_loadout(lib, o->b, "--b");
    SimOptions options;
    options.round_cap = o->round_cap;
    std::string table = "bare 60\" x 60\" table";
    if (!o->bare) {
      const std::string file =
          o->scene.empty() ? assets_dir() + "/scenes/demo_table.yaml" : o->scene;
      options.table = table_from_scene(
          load_scene_file(file, [&lib](std::string_view n) { return lib.find_figure(n); }));
      table = o->scene.empty() ? "demo table" : o->scene;
    }
    const auto t0 = std::chrono::steady_clock::now();
    const SimResult r =
        simulate({fa.figure, fa.gear}, {fb.figure, fb.gear}, o->games, o->seed, options);
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    if (o->json) {
      auto prop = [](const Proportion& p) {
        return nlohmann::json{{"p", p.p}, {"low", p.low}, {"high", p.high}};
      };
      std::cout << nlohmann::json{{"games", r.games},
                                  {"a", o->a},
                                  {"b", o->b},
                                  {"wins_a", r.wins_a},
                                  {"wins_b", r.wins_b},
                                  {"draws", r.draws},
                                  {"win_rate_a", prop(r.win_a)},
                                  {"win_rate_b", prop(r.win_b)},
                                  {"mean_rounds", r.mean_rounds},
                                  {"damage_per_round_a", r.damage_per_round_a},
                                  {"damage_per_round_b", r.damage_per_round_b},
                                  {"seed", o->seed},
                                  {"table", table},
                                  {"matches_per_s", seconds > 0 ? r.games / seconds : 0.0},
                                  {"seconds", seconds}}
                       .dump()
                << "\n";
      return;
    }
    std::cout << fmt::format("{} matches, seed {} ({}, {:.2f} s)\n", r.games, o->seed, table,
                             seconds);
    std::cout << fmt::format(
        "  A {:<40} wins {:5.1f}%  (95%: {:.1f}–{:.1f}%)  {:.2f} clicks dealt per round\n", o->a,
        100 * r.win_a.p, 100 * r.win_a.low, 100 * r.win_a.high, r.damage_per_round_a);
    std::cout << fmt::format(
        "  B {:<40} wins {:5.1f}%  (95%: {:.1f}–{:.1f}%)  {:.2f} clicks dealt per round\n", o->b,
        100 * r.win_b.p, 100 * r.win_b.low, 100 * r.win_b.high, r.damage_per_round_b);
    std::cout << fmt::format("  draws (no winner in {} rounds): {}; mean length {:.1f} rounds\n",
                             o->round_cap, r.draws, r.mean_rounds);
  });
}

DUELS_COMMAND(42, add_sim);

}  // namespace
}  // namespace duels::app
