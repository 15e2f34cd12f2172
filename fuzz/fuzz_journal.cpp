// libFuzzer target: reading and replaying a match journal must turn any bytes into a state or a
// clear error — never a crash, a hang or an uncaught exception.
#include <cstddef>
#include <cstdint>
#include <string>

#include "match/duels_match.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size > 200000) return 0;
  const std::string text(reinterpret_cast<const char*>(data), size);
  try {
    const auto contents = duels::match::parse_journal(text, "fuzz.jsonl");
    const auto replayed = duels::match::replay(contents);
    (void)duels::state_hash(replayed.state);
    if (replayed.error) (void)replayed.error->message();
  } catch (const duels::DataException& e) {
    (void)e.error().message();
  }
  return 0;
}
