// libFuzzer target: the Crossfire notation parsers must never crash or hang, every error must
// point inside the text, and whatever parses must round-trip through its canonical text. An
// input that parses as an obstacle is also damaged by the input parsed as a card (the
// per-obstacle programme and "what is still missing"), and the input is fed line by line to a
// tracker console, which must refuse bad lines in words and never throw.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

#include "cards/crossfire/console.hpp"
#include "cards/crossfire/damage.hpp"
#include "cards/crossfire/notation.hpp"

namespace cf = duels::cards::crossfire;

namespace {

template <class R>
void check_error(const R& r, std::string_view text) {
  if (!r && r.error().position > text.size()) std::abort();
}

/// Keeps the search small: the fuzzer explores parsing, not the size of the programme.
bool small(const cf::Track& t, const cf::Points& p) {
  int need = 0;
  for (const cf::Level& l : t)
    need += l.any_n + l.colour_n;
  return t.size() <= 6 && need <= 40 && p.total() <= 16;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);

  auto track = cf::parse_track(text);
  check_error(track, text);
  if (track) {
    auto again = cf::parse_track(cf::to_notation(*track));
    if (!again || !(*again == *track)) std::abort();
  }

  auto bundle = cf::parse_bundle(text);
  check_error(bundle, text);
  if (bundle) {
    auto again = cf::parse_bundle(cf::to_notation(*bundle));
    if (!again || !(*again == *bundle)) std::abort();
  }

  auto obstacle = cf::parse_obstacle(text);
  check_error(obstacle, text);
  if (obstacle) {
    auto again = cf::parse_obstacle(cf::to_notation(*obstacle));
    if (!again || !(*again == *obstacle)) std::abort();
  }

  // "OBSTACLE | CARD": damage the one with the other.
  if (const auto bar = text.find(" | "); bar != std::string_view::npos) {
    auto o = cf::parse_obstacle(text.substr(0, bar));
    auto b = cf::parse_bundle(text.substr(bar + 3));
    if (o && b && small(o->track, b->points)) {
      cf::Resources res;
      res.points = b->points;
      if (b->mode == cf::LevelMode::Spread) {
        res.singles = b->levels;
      } else {
        res.runs.push_back(cf::LevelRun{b->levels, b->mode == cf::LevelMode::Last});
      }
      const cf::ObstacleOutcome out = cf::best_on_obstacle(o->track, o->cleared, {}, res);
      if (out.cleared_after < out.cleared_before ||
          out.cleared_after > static_cast<int>(o->track.size()) || out.waste() < 0) {
        std::abort();
      }
      const cf::Missing m = cf::still_missing(o->track, o->cleared, res);
      // If nothing is missing, the programme must defeat it with the same resources.
      if (m.enough && !out.defeated && out.cleared_before < static_cast<int>(o->track.size())) {
        std::abort();
      }
    }
  }

  // Console lines: never throw, refuse in words.
  if (size < 2000) {
    cf::Console console;
    std::size_t start = 0;
    int lines = 0;
    for (std::size_t i = 0; i <= text.size() && lines < 60; ++i) {
      if (i == text.size() || text[i] == '\n') {
        const auto reply = console.handle(text.substr(start, i - start));
        if (!reply.ok && reply.text.empty()) std::abort();
        start = i + 1;
        ++lines;
      }
    }
  }
  return 0;
}
