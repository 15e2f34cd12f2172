#pragma once
/// @file Reading YAML data files with precise, collected errors (file:line: field: expected).

#include <yaml-cpp/yaml.h>

#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/error.hpp"

namespace duels {

/// Parses YAML text. Syntax errors become a DataException with the line of the fault; so do
/// bytes that are not UTF-8 and a key given twice in one mapping.
/// Documents nested deeper than a sane limit are refused before yaml-cpp recurses on them.
YAML::Node parse_yaml_text(const std::string& text, const std::string& file);

/// Reads a file and parses it; unreadable files become a DataException naming the file.
YAML::Node parse_yaml_file(const std::string& path);

/// Reads a whole file the user named: a regular file of at most kMaxDataFileBytes. A missing or
/// unreadable file, a folder, a FIFO, a device or a file too large becomes a DataException
/// naming the file: "FILE: `what` (this is a folder)" (see common/regular_file.hpp).
std::string read_text_file(const std::string& path, const std::string& what);

/// Reads typed fields out of YAML nodes and collects every problem instead of stopping at the
/// first, so a player fixing a file sees all its faults at once.
class FieldReader {
 public:
  explicit FieldReader(std::string file) : file_(std::move(file)) {}

  /// Records a problem at `at` (or, when `at` has no position, at `fallback`).
  void error(const YAML::Node& at, std::string_view field, std::string_view expected,
             const YAML::Node& fallback = YAML::Node());

  /// A required or optional scalar. Missing required fields and wrong types are recorded.
  std::optional<double> number(const YAML::Node& map, std::string_view key, std::string_view path,
                               bool required, double min, double max);
  std::optional<int> integer(const YAML::Node& map, std::string_view key, std::string_view path,
                             bool required, int min, int max);
  std::optional<std::string> text(const YAML::Node& map, std::string_view key,
                                  std::string_view path, bool required);
  /// A child that must be a sequence (or absent when not required). Returns an empty node
  /// when missing or of the wrong kind.
  YAML::Node sequence(const YAML::Node& map, std::string_view key, std::string_view path,
                      bool required);
  YAML::Node mapping(const YAML::Node& map, std::string_view key, std::string_view path,
                     bool required);

  /// Checks that `map` is a mapping and has only the listed keys.
  bool expect_map(const YAML::Node& node, std::string_view path,
                  std::initializer_list<std::string_view> allowed);

  /// Checks the `schema_version` field against the one this program reads.
  void schema_version(const YAML::Node& root, int supported);

  [[nodiscard]] const std::vector<DataError>& errors() const { return errors_; }
  [[nodiscard]] bool ok() const { return errors_.empty(); }
  [[nodiscard]] const std::string& file() const { return file_; }
  /// Throws a DataException carrying the first error (the others are in its message).
  void throw_if_errors() const;

  static int line_of(const YAML::Node& node);

 private:
  std::string file_;
  std::vector<DataError> errors_;
};

/// Joins a path and a key: `join("dials", "head")` → `dials.head`.
std::string join_path(std::string_view path, std::string_view key);
/// `index_path("bases", 2)` → `bases[2]`.
std::string index_path(std::string_view path, std::size_t index);

}  // namespace duels
