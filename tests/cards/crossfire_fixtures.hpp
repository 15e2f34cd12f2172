#pragma once
// What the Crossfire console tests share: the book's two metatypes and a started mission.
#include <gtest/gtest.h>

#include <string>

#include "cards/crossfire/console.hpp"

namespace duels::cards::crossfire::testing {

inline bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

/// A console that knows the book's Human and Dwarf.
inline Console book_console() {
  return Console({{"Human", std::nullopt, 4, std::nullopt}, {"Dwarf", 5, 2, 5}});
}

/// `mission` (e.g. "crossfire bring-it-on") in its first turn: Cal (Dwarf, black and blue) and
/// Rob (Human, green and red), Cal starting, two obstacles facing Cal.
inline Console started(const std::string& mission) {
  Console c = book_console();
  for (const std::string& line :
       {"mission " + mission, std::string("runner Cal dwarf black,blue"),
        std::string("runner Rob Human green,red hp=4 nuyen=3"), std::string("start Cal"),
        std::string("flip Deckhead=2,green,1,red attack:1 nuyen:2; Out of Ammo=black,3 "
                    "colour:black nuyen:1"),
        std::string("begin")}) {
    const auto reply = c.handle(line);
    EXPECT_TRUE(reply.ok) << line << ": " << reply.text;
  }
  return c;
}

}  // namespace duels::cards::crossfire::testing
