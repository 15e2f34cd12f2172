#include "match/srtcg_session.hpp"

#include "cards/srtcg/json.hpp"

namespace duels::match {

AttachedSrtcgJournal attach_srtcg_journal(const std::string& path, cards::srtcg::Console& console,
                                          std::uint64_t seed_if_new) {
  return attach_session_journal<SrtcgGame>(path, console.session(), {seed_if_new});
}

}  // namespace duels::match
