#include "match/positions.hpp"

#include <fmt/format.h>

#include <cmath>

#include "duels/limits.hpp"

namespace duels::match {

PositionEntry position_entry_from(const JournalEntry& e, const std::string& path) {
  auto bad = [&](const std::string& field, const std::string& expected) {
    throw DataException({path, e.line, field, expected});
  };
  const nlohmann::json& d = e.data;
  if (!d.is_object()) bad("data", "an object with figure, after_seq and x, y");
  PositionEntry p;
  const auto figure = d.find("figure");
  if (figure == d.end() || !figure->is_number_integer() || figure->get<long long>() < 0 ||
      figure->get<long long>() > limits::kMaxId)
    bad("data.figure", fmt::format("a figure number from 0 to {}", limits::kMaxId));
  p.figure = figure->get<FigureId>();
  const auto after = d.find("after_seq");
  if (after == d.end() || !after->is_number_unsigned())
    bad("data.after_seq", "the match event it followed (a whole number from 0)");
  p.after_seq = after->get<std::uint64_t>();
  if (e.type == "position") {
    Point at;
    for (const char* key : {"x", "y"}) {
      const auto v = d.find(key);
      if (v == d.end() || !v->is_number() || !(std::abs(v->get<double>()) < limits::kMaxCoordIn))
        bad(std::string("data.") + key, "a coordinate in inches on the table");
      (key[0] == 'x' ? at.x : at.y) = v->get<double>();
    }
    p.at = at;
  } else if (e.type != "clear") {
    bad("type", "position or clear");
  }
  return p;
}

PositionLogRead read_position_entries(const JournalContents& contents, const std::string& path) {
  PositionLogRead out;
  out.error = contents.error;
  if (contents.header.kind != kPositionsKind)
    throw DataException({path, 1, "kind", "a position-override log"});
  for (const auto& e : contents.entries) {
    try {
      (void)position_entry_from(e, path);
    } catch (const DataException& ex) {
      out.error = ex.error();
      break;
    }
    out.last_seq = e.seq;
  }
  return out;
}

}  // namespace duels::match
