// libFuzzer target: the SRTCG notation parsers must never crash or hang, every error must
// point inside the text, and whatever parses must round-trip through its canonical text. A
// parsed runner list also goes through the combat calculator, whose split must be legal.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "cards/srtcg/combat.hpp"
#include "cards/srtcg/notation.hpp"

namespace sr = duels::cards::srtcg;

namespace {

template <class R>
void check_error(const R& r, std::string_view text) {
  if (!r && r.error().position > text.size()) std::abort();
}

template <class T, class Parse>
void round_trip(const duels::Expected<T, sr::SpecError>& parsed, Parse parse) {
  if (!parsed) return;
  auto again = parse(sr::to_notation(*parsed));
  if (!again || !(*again == *parsed)) std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);

  const auto runner = sr::parse_runner(text);
  check_error(runner, text);
  round_trip(runner, [](const std::string& t) { return sr::parse_runner(t); });

  const auto challenge = sr::parse_challenge(text);
  check_error(challenge, text);
  round_trip(challenge, [](const std::string& t) { return sr::parse_challenge(t); });

  const auto objective = sr::parse_objective(text);
  check_error(objective, text);
  round_trip(objective, [](const std::string& t) { return sr::parse_objective(t); });

  const auto gear = sr::parse_gear(text);
  check_error(gear, text);
  round_trip(gear, [](const std::string& t) { return sr::parse_gear(t); });

  check_error(sr::parse_skills(text), text);
  check_error(sr::parse_requirement(text), text);
  check_error(sr::parse_threat(text), text);

  const auto team = sr::parse_runner_list(text);
  check_error(team, text);
  if (team && team->size() <= 8) {
    std::vector<sr::Combatant> cs;
    for (const auto& c : *team)
      cs.push_back(sr::combatant_from(c));
    const sr::Opponent o{"o", static_cast<int>(size % 13), static_cast<int>(size % 17),
                         static_cast<int>(size % 3), size % 2 == 0};
    const sr::CombatResult r = sr::resolve_combat(cs, o);
    if (r.attack.total < 0) std::abort();
    if (!sr::check_split(cs, r.incoming, o.armor_piercing, r.suggested.raw)) std::abort();
  }
  return 0;
}
