// libFuzzer target: the dice notation parser must never crash or hang, and whatever it accepts
// must print back to notation that parses to the same dice.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>

#include "dice/notation.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  if (auto pool = duels::dice::parse_pool(text)) {
    auto again = duels::dice::parse_pool(duels::dice::to_notation(*pool));
    if (!again || *again != *pool) std::abort();
  } else {
    (void)pool.error().message();
  }
  if (auto rolls = duels::dice::parse_rolls(text)) {
    auto again = duels::dice::parse_rolls(duels::dice::to_notation(*rolls));
    if (!again || *again != *rolls) std::abort();
  } else {
    (void)rolls.error().message();
  }
  return 0;
}
