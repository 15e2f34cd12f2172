#pragma once
/// @file Marker layout files: where the table markers are when they are not the plain corner
/// set. YAML, read with common/yaml_read (errors name file, line, field):
///
///     schema_version: 1
///     dictionary: DICT_4X4_50
///     table: {width_in: 60, depth_in: 60}      # optional
///     markers:
///       - {id: 0, x_in: 4, y_in: 4, size_in: 5}   # centre, inches from the near-left corner
///       - {id: 1, x_in: 56, y_in: 4, size_in: 5}

#include <optional>
#include <string>

#include "calib/table.hpp"

namespace duels::calib {

/// The schema_version of layout files.
inline constexpr int kLayoutFileSchema = 1;

/// A layout file's content.
struct LayoutFile {
  MarkerLayout layout;
  std::optional<TableGeometry> table;
};

/// Parses layout YAML text; throws DataException listing every problem (file:line: field).
LayoutFile parse_marker_layout(const std::string& text, const std::string& file);

/// Reads a layout file; throws DataException.
LayoutFile read_marker_layout(const std::string& path);

}  // namespace duels::calib
