#pragma once
// What the session tests share: a session without threads or animations, at Razor's first turn.
#include <memory>

#include "fixtures.hpp"
#include "overlay/session.hpp"

namespace duels::overlay::testing {

/// Options for a session driven by a test: odds on this thread, no roll animation, a fixed seed.
inline SessionOptions headless() {
  SessionOptions o;
  o.threaded_odds = false;
  o.roll_animation_s = 0;
  o.ui_seed = 42;
  return o;
}

/// A session at Razor's first turn, Razor 10" from Hex (gap), the crate down away from the line
/// (`choose`: the dice chosen for the round).
struct AtFirstTurn {
  TempDir dir;
  std::unique_ptr<Session> s;
  explicit AtFirstTurn(SessionOptions o = headless(), bool choose = true) {
    auto m = match::DuelsMatch::create(dir.file("m.jsonl"), razor_vs_hex(), 7);
    play_to_first_turn(m, "crate", choose);
    s = std::make_unique<Session>(std::move(m), crate_layout(), o);
  }
};

}  // namespace duels::overlay::testing
