#include "calib/layout_file.hpp"

#include <fmt/format.h>

#include <fstream>
#include <set>
#include <sstream>

#include "calib/pattern.hpp"
#include "common/yaml_read.hpp"

namespace duels::calib {

LayoutFile parse_marker_layout(const std::string& text, const std::string& file) {
  const YAML::Node root = parse_yaml_text(text, file);
  FieldReader r(file);
  LayoutFile out;
  if (!r.expect_map(root, "", {"schema_version", "dictionary", "table", "markers"})) {
    r.throw_if_errors();
  }
  r.schema_version(root, kLayoutFileSchema);
  if (const auto dict = r.text(root, "dictionary", "", true)) {
    if (!dictionary_by_name(*dict)) {
      r.error(root["dictionary"], "dictionary",
              fmt::format("an OpenCV ArUco dictionary name like DICT_4X4_50, not '{}'", *dict));
    }
    out.layout.dictionary = *dict;
  }
  const YAML::Node table = r.mapping(root, "table", "", false);
  if (table.IsMap() && table.size() > 0) {
    r.expect_map(table, "table", {"width_in", "depth_in"});
    const auto w = r.number(table, "width_in", "table", true, 1, 1000);
    const auto d = r.number(table, "depth_in", "table", true, 1, 1000);
    if (w && d) out.table = TableGeometry{*w, *d};
  }
  const YAML::Node markers = r.sequence(root, "markers", "", true);
  std::set<int> ids;
  for (std::size_t i = 0; i < markers.size(); ++i) {
    const YAML::Node m = markers[i];
    const std::string path = index_path("markers", i);
    if (!r.expect_map(m, path, {"id", "x_in", "y_in", "size_in"})) continue;
    const auto id = r.integer(m, "id", path, true, 0, 100000);
    const auto x = r.number(m, "x_in", path, true, -1000, 1000);
    const auto y = r.number(m, "y_in", path, true, -1000, 1000);
    const auto size = r.number(m, "size_in", path, true, 0.1, 100);
    if (id && !ids.insert(*id).second) {
      r.error(m["id"], join_path(path, "id"), fmt::format("an id not used before ({} is)", *id));
    }
    if (id && x && y && size) out.layout.markers.push_back({*id, {*x, *y}, *size});
  }
  if (markers.size() > 0 && markers.size() < 2) {
    r.error(markers, "markers", "at least two markers (four corners are best)", root);
  }
  r.throw_if_errors();
  return out;
}

LayoutFile read_marker_layout(const std::string& path) {
  return parse_marker_layout(read_text_file(path, "a readable marker layout file"), path);
}

}  // namespace duels::calib
