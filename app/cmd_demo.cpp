// `duels demo` — until the camera view and GUI land, a seeded match between two sample figures
// played out in the terminal by the built-in opponent, step by step.
#include <fmt/format.h>

#include <chrono>
#include <iostream>
#include <memory>
#include <thread>

#include "app/cli_util.hpp"
#include "app/command.hpp"
#include "dice/roller.hpp"
#include "duels/assets.hpp"
#include "duels/autoplay.hpp"
#include "duels/engine.hpp"

namespace duels::app {
namespace {

void print_status(const GameState& s) {
  for (const auto& f : s.figures) {
    if (f.eliminated) continue;
    std::cout << fmt::format(
        "      {:<10} Head {} / Weapon {} / Body {}  holes {}  at ({:.1f}, {:.1f})\n", f.def.name,
        f.value(DialKind::Head), f.value(DialKind::Weapon), f.value(DialKind::Body),
        f.bullet_holes(), f.position ? f.position->x : 0.0, f.position ? f.position->y : 0.0);
  }
}

void add_demo(CLI::App& root) {
  struct Opts {
    std::optional<std::uint64_t> seed;
    std::vector<std::string> teams{"Street Team", "Arcane Team"};
    int delay_ms = 0;
    int max_rounds = 40;
  };
  auto o = std::make_shared<Opts>();
  auto* cmd = root.add_subcommand(
      "demo", "Watch a seeded sample match (terminal demo until the GUI lands)");
  cmd->add_option("--seed", o->seed, "seed (printed, so the same match can be replayed)");
  cmd->add_option("--teams", o->teams, "two or more sample teams from assets/teams")
      ->delimiter(',');
  cmd->add_option("--delay", o->delay_ms, "milliseconds to pause after each step")
      ->check(CLI::Range(0, 5000));
  cmd->add_option("--max-rounds", o->max_rounds, "stop after this many rounds")
      ->check(CLI::Range(1, 1000));
  cmd->callback([o] {
    const AssetLibrary lib = load_asset_library(assets_dir());
    const std::uint64_t seed = o->seed.value_or(dice::fresh_seed());
    auto game = new_game(setup_from_teams(lib, o->teams));
    if (!game) throw IllegalAction(game.error().reason);
    GameState s = *game;
    std::cout << fmt::format(
        "Duels Companion demo — terminal edition (the camera view and overlay are not built yet).\n"
        "A seeded match between sample figures, played by the built-in opponent. Seed {}\n"
        "(replay it with: duels demo --seed {})\n\n",
        seed, seed);
    AutoPlayer player(seed);
    int last_round = 0;
    while (s.phase != Phase::GameOver && s.round <= o->max_rounds) {
      auto next = player.next(s);
      if (!next) break;
      auto result = duels::apply(s, *next);
      if (!result)
        throw std::runtime_error("the built-in opponent made an illegal move: " +
                                 result.error().reason);
      for (const auto& e : *result) {
        const bool step = e.kind == "step";
        std::cout << (step ? "      " : "  ") << e.text << "\n";
      }
      if (s.round != last_round && s.phase == Phase::ChooseDice) {
        last_round = s.round;
        std::cout << fmt::format("\n== Round {} ==\n", s.round);
        print_status(s);
      }
      std::cout.flush();
      if (o->delay_ms > 0) std::this_thread::sleep_for(std::chrono::milliseconds(o->delay_ms));
    }
    std::cout << "\n"
              << prompt(s) << fmt::format(" after {} round{}.\n", s.round, s.round == 1 ? "" : "s");
  });
}

DUELS_COMMAND(1, add_demo);

}  // namespace
}  // namespace duels::app
