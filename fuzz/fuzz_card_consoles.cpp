// libFuzzer target: the three card-game consoles (Encounters, Crossfire, SRTCG) fed any lines,
// `set /json/pointer VALUE` overrides included. The first byte picks the console. Never a crash;
// and after every line the console's state must still be one a loaded state could be: it
// passes the game's own state check (parse_state of its JSON) — an override that breaks an
// invariant must have been refused.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

#include "cards/crossfire/console.hpp"
#include "cards/crossfire/json.hpp"
#include "cards/encounters/console.hpp"
#include "cards/encounters/json.hpp"
#include "cards/srtcg/console.hpp"
#include "cards/srtcg/json.hpp"

namespace {

template <class Console, class ParseState>
void feed(Console& console, std::string_view text, ParseState parse_state) {
  std::size_t start = 0;
  int lines = 0;
  while (start <= text.size() && lines < 48) {
    std::size_t end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    const std::string line(text.substr(start, end - start));
    start = end + 1;
    ++lines;
    const auto reply = console.handle(line);
    if (reply.quit) break;
    // The state after every line is a valid state.
    if (!parse_state(nlohmann::json(console.session().state()))) std::abort();
  }
  // The state is shown (what crashed after `set /players []`) and undo / redo work.
  (void)console.handle("state");
  (void)console.handle("undo");
  (void)console.handle("state");
  (void)console.handle("redo");
  (void)console.handle("state");
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size < 1 || size > 3000) return 0;
  const std::string_view text(reinterpret_cast<const char*>(data) + 1, size - 1);
  switch (data[0] % 3) {
    case 0: {
      duels::cards::encounters::Console c(7);
      feed(c, text, [](const nlohmann::json& j) {
        return duels::cards::encounters::parse_state(j).has_value();
      });
      break;
    }
    case 1: {
      duels::cards::crossfire::Console c(
          {{"Human", std::nullopt, 4, std::nullopt}, {"Dwarf", 5, 2, 5}});
      feed(c, text, [](const nlohmann::json& j) {
        return duels::cards::crossfire::parse_state(j).has_value();
      });
      break;
    }
    default: {
      duels::cards::srtcg::Console c(7);
      feed(c, text,
           [](const nlohmann::json& j) { return duels::cards::srtcg::parse_state(j).has_value(); });
      break;
    }
  }
  return 0;
}
