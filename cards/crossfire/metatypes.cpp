#include "cards/crossfire/metatypes.hpp"

#include <algorithm>
#include <cctype>
#include <fstream>
#include <sstream>

#include "common/yaml_read.hpp"

namespace duels::cards::crossfire {

namespace {

std::string lower(const std::string& s) {
  std::string out = s;
  std::transform(out.begin(), out.end(), out.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return out;
}

}  // namespace

std::vector<Metatype> parse_metatypes(const std::string& text, const std::string& file) {
  const YAML::Node root = parse_yaml_text(text, file);
  FieldReader r(file);
  std::vector<Metatype> out;
  if (!r.expect_map(root, "", {"schema_version", "metatypes"})) r.throw_if_errors();
  r.schema_version(root, kMetatypeSchema);
  const YAML::Node list = r.sequence(root, "metatypes", "", true);
  for (std::size_t i = 0; i < list.size(); ++i) {
    const YAML::Node row = list[i];
    const std::string path = index_path("metatypes", i);
    if (!r.expect_map(row, path, {"name", "hp", "cards", "nuyen"})) continue;
    Metatype m;
    if (auto name = r.text(row, "name", path, true)) m.name = *name;
    m.hp = r.integer(row, "hp", path, false, 1, 20);
    m.cards = r.integer(row, "cards", path, false, 0, 20);
    m.nuyen = r.integer(row, "nuyen", path, false, 0, 50);
    if (!m.name.empty() && find_metatype(out, m.name) != nullptr) {
      r.error(row["name"], join_path(path, "name"), "a metatype named only once");
    }
    out.push_back(m);
  }
  r.throw_if_errors();
  return out;
}

std::vector<Metatype> load_metatypes(const std::string& path) {
  return parse_metatypes(read_text_file(path, "a readable file"), path);
}

const Metatype* find_metatype(const std::vector<Metatype>& table, const std::string& name) {
  const std::string want = lower(name);
  for (const Metatype& m : table) {
    if (lower(m.name) == want) return &m;
  }
  return nullptr;
}

}  // namespace duels::cards::crossfire
