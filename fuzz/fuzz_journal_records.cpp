// libFuzzer target: the journal's records (set-up and commands) read straight from JSON, past
// the line checksums a byte-level fuzzer rarely gets through. Any JSON must give a value or a
// DataException, and any command a result or a rejection from the engine.
#include <cstddef>
#include <cstdint>
#include <string>

#include <nlohmann/json.hpp>

#include "duels/engine.hpp"
#include "duels/record.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size > 100000) return 0;
  const auto j = nlohmann::json::parse(reinterpret_cast<const char*>(data),
                                       reinterpret_cast<const char*>(data) + size, nullptr, false);
  if (j.is_discarded()) return 0;
  try {
    if (j.contains("setup")) {
      const duels::MatchSetup setup = duels::setup_from_json(j["setup"]);
      auto game = duels::new_game(setup);
      if (game && j.contains("commands") && j["commands"].is_array()) {
        for (const auto& c : j["commands"]) {
          try {
            (void)duels::apply(*game, duels::command_from_json(c));
          } catch (const duels::DataException&) {
          }
        }
      }
    } else {
      (void)duels::command_from_json(j);
    }
  } catch (const duels::DataException& e) {
    (void)e.error().message();
  }
  return 0;
}
