#include "overlay/position_log.hpp"

#include <fmt/format.h>

#include <filesystem>

namespace duels::overlay {

namespace fs = std::filesystem;

std::string PositionLog::path_for(const std::string& match_journal) {
  fs::path p(match_journal);
  p.replace_extension();
  return p.string() + ".positions.jsonl";
}

PositionLog PositionLog::open(const std::string& match_journal) {
  PositionLog log(path_for(match_journal));
  log.match_name_ = fs::path(match_journal).filename().string();
  if (!fs::exists(log.path_)) return log;
  const match::JournalContents contents = match::read_journal(log.path_);
  if (contents.header.kind != kPositionsKind) {
    throw DataException({log.path_, 1, "kind", "a position-override log"});
  }
  for (const auto& e : contents.entries) {
    try {
      log.entries_.push_back(match::position_entry_from(e, log.path_));
    } catch (const DataException& ex) {
      DataError err = ex.error();
      err.expected += fmt::format(
          ". Nothing was changed: to keep the corrections before it, run `duels match repair {}` "
          "(it keeps a complete copy as {}.damaged first)",
          log.path_, log.path_);
      throw DataException(err);
    }
  }
  log.writer_.emplace(match::JournalWriter::append_to(log.path_, contents));
  return log;
}

void PositionLog::record(const PositionEntry& entry) {
  if (!writer_) {
    match::JournalHeader h;
    h.program = "duels 0.1.0";
    h.created = match::utc_now();
    h.kind = kPositionsKind;
    h.body = {{"match", match_name_}};
    writer_.emplace(match::JournalWriter::create(path_, h));
  }
  nlohmann::json data{{"figure", entry.figure}, {"after_seq", entry.after_seq}};
  if (entry.at) {
    data["x"] = entry.at->x;
    data["y"] = entry.at->y;
  }
  writer_->append(entry.at ? "position" : "clear", data);
  entries_.push_back(entry);
}

PositionOverrides effective_overrides(const std::vector<PositionEntry>& entries,
                                      const std::vector<match::MatchStep>& steps,
                                      std::uint64_t upto_seq) {
  std::map<FigureId, PositionEntry> last;
  for (const auto& e : entries) {
    if (e.after_seq <= upto_seq) last[e.figure] = e;
  }
  PositionOverrides out;
  for (const auto& [figure, e] : last) {
    if (!e.at) continue;
    bool superseded = false;
    for (const auto& step : steps) {
      if (step.seq <= e.after_seq || step.seq > upto_seq) continue;
      if (const auto* m = std::get_if<Move>(&step.command)) {
        superseded = superseded || (m->figure == figure && m->to.has_value());
      } else if (const auto* p = std::get_if<PlaceFigure>(&step.command)) {
        superseded = superseded || p->figure == figure;
      }
    }
    if (!superseded) out[figure] = *e.at;
  }
  return out;
}

}  // namespace duels::overlay
