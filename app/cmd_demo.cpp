// `duels demo` — a seeded match between sample figures played step by step by the built-in
// opponent: in the overlay window when a display exists (and stdout is a terminal), else in the
// terminal.
#include <fmt/format.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
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

/// The GUI demo, set by cmd_gui.cpp when the overlay is built: plays a seeded match of these
/// teams in the window (no teams: the synthetic camera scene's figures, seen by the camera);
/// false when no window can be opened.
using GuiDemoFn = bool (*)(const std::vector<std::string>& teams, std::uint64_t seed, int delay_ms);
GuiDemoFn& gui_demo_hook() {
  static GuiDemoFn hook = nullptr;  // a registration slot, not model data
  return hook;
}

namespace {

bool display_advertised() {
  const char* x = std::getenv("DISPLAY");
  const char* w = std::getenv("WAYLAND_DISPLAY");
  return (x != nullptr && *x != '\0') || (w != nullptr && *w != '\0');
}

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
    bool terminal = false;
    bool gui = false;
  };
  auto o = std::make_shared<Opts>();
  auto* cmd = root.add_subcommand(
      "demo", "Watch a seeded sample match (in the overlay window when there is a display)");
  cmd->add_option("--seed", o->seed, "seed (printed, so the same match can be replayed)");
  auto* teams_option =
      cmd->add_option("--teams", o->teams, "two or more sample teams from assets/teams")
          ->delimiter(',');
  cmd->add_option("--delay", o->delay_ms, "milliseconds to pause after each step")
      ->check(CLI::Range(0, 5000));
  cmd->add_option("--max-rounds", o->max_rounds, "stop after this many rounds")
      ->check(CLI::Range(1, 1000));
  cmd->add_flag("--terminal", o->terminal, "play in the terminal even when there is a display");
  cmd->add_flag("--gui", o->gui, "open the window even when stdout is not a terminal");
  cmd->callback([o, teams_option] {
    const AssetLibrary lib = load_library();
    const std::uint64_t seed = o->seed.value_or(dice::fresh_seed());
    const bool window = !o->terminal && gui_demo_hook() != nullptr && display_advertised() &&
                        (o->gui || isatty(STDOUT_FILENO) != 0);
    // Without --teams the window shows the bundled synthetic camera scene and its figures.
    const std::vector<std::string> window_teams =
        teams_option->count() > 0 ? o->teams : std::vector<std::string>{};
    if (window && gui_demo_hook()(window_teams, seed, o->delay_ms)) return;
    auto game = new_game(setup_from_teams(lib, o->teams));
    if (!game) throw IllegalAction(game.error().reason);
    GameState s = *game;
    std::cout << fmt::format(
        "Duels Companion demo — terminal edition (the overlay window opens instead when there "
        "is a display).\n"
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
