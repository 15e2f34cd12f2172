#pragma once
/// @file The editable metatype table (assets/crossfire/metatypes.yaml): each metatype's starting
/// HP, cards and nuyen as printed on the Runner cards. Values the table leaves out are asked for
/// when a runner joins; nothing is guessed (spec B5.14).
///
///   schema_version: 1
///   metatypes:
///     - {name: Human, cards: 4}
///     - {name: Dwarf, hp: 5, cards: 2, nuyen: 5}

#include <optional>
#include <string>
#include <vector>

namespace duels::cards::crossfire {

/// One row of the table.
struct Metatype {
  std::string name;
  std::optional<int> hp;
  std::optional<int> cards;
  std::optional<int> nuyen;
  friend bool operator==(const Metatype&, const Metatype&) = default;
};

/// The schema version this program reads.
constexpr int kMetatypeSchema = 1;

/// Parses the table from YAML text; every problem is reported at once as a DataException
/// naming `file`, the line, the field and what was expected.
std::vector<Metatype> parse_metatypes(const std::string& text, const std::string& file);
/// Reads the table from a file (DataException when it is unreadable or wrong).
std::vector<Metatype> load_metatypes(const std::string& path);
/// The row for `name` (any case), or nullptr.
const Metatype* find_metatype(const std::vector<Metatype>& table, const std::string& name);

}  // namespace duels::cards::crossfire
