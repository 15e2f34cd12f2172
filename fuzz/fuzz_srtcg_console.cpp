// libFuzzer target: any text typed into the SRTCG console (one command per line) must never
// crash; the final state must survive a JSON round trip with the same hash, undoing the last
// command must give back the state before it, and replaying the log must give the same state.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <optional>
#include <string>
#include <string_view>

#include "cards/srtcg/console.hpp"
#include "cards/srtcg/json.hpp"

namespace sr = duels::cards::srtcg;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size > 2048) return 0;
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  sr::Console console(12345);
  std::optional<sr::State> before_last;
  std::size_t start = 0;
  int lines = 0;
  while (start <= text.size() && lines < 64) {
    std::size_t end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    const std::string line(text.substr(start, end - start));
    start = end + 1;
    ++lines;
    const sr::State before = console.session().state();
    const std::size_t logged = console.session().log().size();
    const auto reply = console.handle(line);
    if (reply.quit) break;
    if (console.session().log().size() != logged + 1) {
      before_last.reset();  // refused, or an undo / redo
      continue;
    }
    before_last = before;
  }
  const sr::State final_state = console.session().state();
  auto back = sr::parse_state(nlohmann::json(final_state));
  if (!back || sr::state_hash(*back) != sr::state_hash(final_state)) std::abort();
  const sr::Replay again = sr::replay(sr::State{}, console.session().log());
  if (again.rejected_at || !(again.state == final_state)) std::abort();
  if (before_last) {
    if (!console.session().undo() || !(console.session().state() == *before_last)) std::abort();
    if (!console.session().redo() || !(console.session().state() == final_state)) std::abort();
  }
  return 0;
}
