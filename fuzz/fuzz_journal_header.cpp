// libFuzzer target: journal headers and entries of every kind (duels, encounters, crossfire,
// srtcg), past the line checksums a byte-level fuzzer rarely gets through. The input is JSON
// {"header": {...}, "entries": [{"type": ..., "data": ...}, ...]}; each object is sealed as the
// journal seals it, then read and replayed as each game. Any input must give a replay or a
// DataException — never a crash, a hang or a raw JSON exception.
#include <cstddef>
#include <cstdint>
#include <string>

#include <nlohmann/json.hpp>

#include "match/crossfire_session.hpp"
#include "match/duels_match.hpp"
#include "match/encounters_session.hpp"
#include "match/srtcg_session.hpp"

namespace {

template <class G>
void replay_as(const duels::match::JournalContents& contents) {
  try {
    const auto r = duels::match::replay_session<G>(contents);
    if (r.error) (void)r.error->message();
    (void)duels::match::damage_notes(contents, r.error, r.last_seq, "fuzz.jsonl");
  } catch (const duels::DataException& e) {
    (void)e.error().message();
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size > 50000) return 0;
  const auto j = nlohmann::json::parse(reinterpret_cast<const char*>(data),
                                       reinterpret_cast<const char*>(data) + size, nullptr, false);
  if (j.is_discarded() || !j.is_object()) return 0;
  std::string text;
  try {
    nlohmann::json header = j.value("header", nlohmann::json::object());
    if (!header.is_object()) return 0;
    text = duels::match::seal_line(header) + "\n";
    const auto entries = j.value("entries", nlohmann::json::array());
    if (entries.is_array()) {
      std::uint64_t seq = 1;
      for (const auto& e : entries) {
        if (!e.is_object()) continue;
        nlohmann::json line = e;
        if (!line.contains("seq")) line["seq"] = seq;
        ++seq;
        text += duels::match::seal_line(line) + "\n";
      }
    }
  } catch (const nlohmann::json::exception&) {
    return 0;  // not valid UTF-8: the journal writer refuses such text before writing
  }
  try {
    const auto contents = duels::match::parse_journal(text, "fuzz.jsonl");
    replay_as<duels::match::DuelsGame>(contents);
    replay_as<duels::match::SrtcgGame>(contents);
    replay_as<duels::match::EncountersGame>(contents);
    replay_as<duels::match::CrossfireGame>(contents);
  } catch (const duels::DataException& e) {
    (void)e.error().message();
  }
  return 0;
}
