// `duels roll POOL…` — roll any pool with a seeded roller.
#include <fmt/format.h>

#include <iostream>
#include <nlohmann/json.hpp>

#include "app/command.hpp"
#include "dice/notation.hpp"
#include "dice/roller.hpp"

namespace duels::app {
namespace {

void add_roll(CLI::App& root) {
  auto* cmd =
      root.add_subcommand("roll", "Roll a dice pool, e.g. `duels roll 2xwhite:d6 yellow:d8:ace`");
  struct Opts {
    std::vector<std::string> pool;
    std::optional<std::uint64_t> seed;
    bool json = false;
  };
  auto opts = std::make_shared<Opts>();
  cmd->add_option("pool", opts->pool, "dice in the notation colour:dN[:ace], with Nx for several")
      ->required();
  cmd->add_option("--seed", opts->seed, "seed for the roller (printed so a roll can be replayed)");
  cmd->add_flag("--json", opts->json, "print JSON");
  cmd->callback([opts] {
    std::string text;
    for (const auto& p : opts->pool)
      text += p + " ";
    auto pool = dice::parse_pool(text);
    if (!pool) throw DataException(pool.error().as_data_error("<command line>", 0, "pool"));
    const std::uint64_t seed = opts->seed.value_or(dice::fresh_seed());
    dice::Roller roller(seed);
    const auto rolls = roller.roll(*pool);
    int total = 0;
    for (const auto& r : rolls)
      total += r.value();
    if (opts->json) {
      nlohmann::json j;
      j["seed"] = seed;
      j["total"] = total;
      j["rolls"] = nlohmann::json::array();
      for (const auto& r : rolls) {
        j["rolls"].push_back(
            {{"die", dice::to_notation(r.die)},
             {"result", r.is_ace() ? nlohmann::json("ace") : nlohmann::json(r.face)},
             {"value", r.value()},
             {"notation", dice::to_notation(r)}});
      }
      std::cout << j.dump() << "\n";
    } else {
      std::cout << fmt::format("seed {}\n", seed);
      for (const auto& r : rolls)
        std::cout << "  " << dice::to_notation(r) << "\n";
      std::cout << fmt::format("total {} (aces count 0)\n", total);
    }
  });
}

DUELS_COMMAND(10, add_roll);

}  // namespace
}  // namespace duels::app
