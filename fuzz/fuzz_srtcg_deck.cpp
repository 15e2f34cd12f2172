// libFuzzer target: the SRTCG deck-list loader (`duels srtcg deck check FILE`) must turn any
// bytes into a deck or a DataException naming the file and line — never a crash, a hang or
// another exception escaping.
#include <cstddef>
#include <cstdint>
#include <string>

#include "cards/srtcg/deck.hpp"
#include "common/error.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size > 20000) return 0;
  const std::string text(reinterpret_cast<const char*>(data), size);
  try {
    const auto deck = duels::cards::srtcg::parse_deck(text, "deck.yaml");
    (void)duels::cards::srtcg::check_deck(deck);
  } catch (const duels::DataException& e) {
    (void)e.what();
  }
  return 0;
}
