// libFuzzer target: the Encounters notation parsers must never crash or hang, every error must
// point inside the text, and whatever parses must round-trip through its canonical text. A
// parsed Shadowrunner is also run through the match finder on dice taken from the input.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "cards/encounters/advisor.hpp"
#include "cards/encounters/match.hpp"
#include "cards/encounters/notation.hpp"

namespace enc = duels::cards::encounters;

namespace {

template <class R>
void check_error(const R& r, std::string_view text) {
  if (!r && r.error().position > text.size()) std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);

  auto runner = enc::parse_runner(text);
  check_error(runner, text);
  if (runner) {
    auto again = enc::parse_runner(enc::to_notation(*runner));
    if (!again || !(*again == *runner)) std::abort();
    // A small match: up to 6 dice from the first bytes, value from the last.
    enc::MatchQuery q;
    for (std::size_t i = 0; i < size && i < 6; ++i)
      q.dice.push_back(data[i] % 6 + 1);
    q.value = size > 0 ? data[size - 1] % 24 + 1 : 1;
    q.keywords = {"metahuman", "magic"};
    q.twice = size > 0 && (data[0] & 0x80U) != 0;
    q.cards = {enc::HandCard{*runner, 0, false}, enc::HandCard{*runner, 0, false}};
    // A tenth of the default budget: the budget itself is tested in encounters_match_test; here
    // it keeps an instrumented run of a hand with many abilities to a few seconds.
    q.search_budget = 2'000'000;
    auto found = enc::find_matches(q);
    if (found && found->solutions.empty() != found->lock_sizes.empty()) std::abort();
  }

  auto encounter = enc::parse_encounter(text);
  check_error(encounter, text);
  if (encounter) {
    auto again = enc::parse_encounter(enc::to_notation(*encounter));
    if (!again || !(*again == *encounter)) std::abort();
  }

  check_error(enc::parse_dice(text), text);
  check_error(enc::parse_keywords(text), text);
  check_error(enc::parse_value(text), text);
  check_error(enc::parse_value_mix(text), text);
  return 0;
}
