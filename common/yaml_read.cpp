#include "common/yaml_read.hpp"

#include <fmt/format.h>
#include <yaml-cpp/eventhandler.h>
#include <yaml-cpp/parser.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <map>
#include <set>
#include <sstream>
#include <vector>

#include "common/regular_file.hpp"
#include "common/utf8.hpp"

namespace duels {

namespace {

// yaml-cpp recurses once per nesting level; a hostile file of "[[[[..." would exhaust the stack.
// No data file of ours nests deeper than a handful of levels.
constexpr int kMaxNesting = 64;

bool nesting_too_deep(const std::string& text) {
  int depth = 0;
  for (char c : text) {
    if (c == '[' || c == '{') {
      if (++depth > kMaxNesting) return true;
    } else if ((c == ']' || c == '}') && depth > 0) {
      --depth;
    }
  }
  return false;
}

// No data file of ours holds more than a few thousand values. Aliases (*name) repeat what their
// anchor (&name) holds without copying it, so a dozen lines of aliases of aliases can stand for
// billions of values, and every walk over the document (ours, yaml-cpp's) would take forever.
constexpr std::uint64_t kMaxExpandedValues = 100000;

// Counts the values of the first document with every alias expanded (saturating just above the
// limit), from yaml-cpp's event stream, without building or walking the document.
class ExpandedSize : public YAML::EventHandler {
 public:
  void OnDocumentStart(const YAML::Mark&) override {}
  void OnDocumentEnd() override {}
  void OnNull(const YAML::Mark&, YAML::anchor_t anchor) override { leaf(anchor, 1); }
  void OnAlias(const YAML::Mark&, YAML::anchor_t anchor) override {
    const auto it = anchors_.find(anchor);
    leaf(0, it == anchors_.end() ? 1 : it->second);
  }
  void OnScalar(const YAML::Mark&, const std::string&, YAML::anchor_t anchor,
                const std::string&) override {
    leaf(anchor, 1);
  }
  void OnSequenceStart(const YAML::Mark&, const std::string&, YAML::anchor_t anchor,
                       YAML::EmitterStyle::value) override {
    open_.push_back({anchor, 1});
  }
  void OnSequenceEnd() override { close(); }
  void OnMapStart(const YAML::Mark&, const std::string&, YAML::anchor_t anchor,
                  YAML::EmitterStyle::value) override {
    open_.push_back({anchor, 1});
  }
  void OnMapEnd() override { close(); }

  [[nodiscard]] std::uint64_t total() const { return total_; }

 private:
  struct Open {
    YAML::anchor_t anchor;
    std::uint64_t size;
  };
  static std::uint64_t add(std::uint64_t a, std::uint64_t b) {
    return std::min(a + b, kMaxExpandedValues + 1);  // both at most the limit + 1: no overflow
  }
  void leaf(YAML::anchor_t anchor, std::uint64_t size) {
    if (anchor != 0) anchors_[anchor] = size;
    if (open_.empty()) {
      total_ = add(total_, size);
    } else {
      open_.back().size = add(open_.back().size, size);
    }
  }
  void close() {
    if (open_.empty()) return;
    const Open done = open_.back();
    open_.pop_back();
    leaf(done.anchor, done.size);
  }
  std::vector<Open> open_;
  std::map<YAML::anchor_t, std::uint64_t> anchors_;
  std::uint64_t total_ = 0;
};

std::uint64_t expanded_values(const std::string& text) {
  std::istringstream in(text);
  YAML::Parser parser(in);
  ExpandedSize size;
  parser.HandleNextDocument(size);
  return size.total();
}

// The 1-based line of the first byte that is not valid UTF-8, or 0 when all of it is.
int first_bad_utf8_line(const std::string& text) {
  const auto bad = first_bad_utf8(text);
  if (!bad) return 0;
  return 1 +
         static_cast<int>(std::count(text.begin(), text.begin() + static_cast<long>(*bad), '\n'));
}

// yaml-cpp keeps the first of two equal keys and says nothing; a data file with a key twice is
// almost always a mistake (an edit that meant to replace the value), so it is refused.
void check_duplicate_keys(const YAML::Node& node, const std::string& file, int depth = 0) {
  if (depth > kMaxNesting) return;
  if (node.IsMap()) {
    std::set<std::string> seen;
    for (const auto& kv : node) {
      if (kv.first.IsScalar() && !seen.insert(kv.first.Scalar()).second) {
        const YAML::Mark m = kv.first.Mark();
        throw DataException({file, m.line >= 0 ? m.line + 1 : 0, kv.first.Scalar(),
                             "each key once in a mapping (this one is given twice; only one "
                             "value can count)"});
      }
      check_duplicate_keys(kv.second, file, depth + 1);
    }
  } else if (node.IsSequence()) {
    for (const auto& child : node)
      check_duplicate_keys(child, file, depth + 1);
  }
}

std::string kind_of(const YAML::Node& node) {
  switch (node.Type()) {
    case YAML::NodeType::Null:
      return "nothing";
    case YAML::NodeType::Scalar:
      return fmt::format("'{}'", node.Scalar());
    case YAML::NodeType::Sequence:
      return "a list";
    case YAML::NodeType::Map:
      return "a mapping";
    default:
      return "nothing";
  }
}

}  // namespace

YAML::Node parse_yaml_text(const std::string& text, const std::string& file) {
  if (nesting_too_deep(text)) {
    throw DataException({file, 0, "", fmt::format("nesting deeper than {} levels", kMaxNesting)});
  }
  if (const int bad = first_bad_utf8_line(text); bad > 0) {
    throw DataException({file, bad, "",
                         "text in UTF-8 (this line has bytes that are not UTF-8; "
                         "save the file as UTF-8)"});
  }
  YAML::Node root;
  try {
    if (expanded_values(text) > kMaxExpandedValues) {
      throw DataException({file, 0, "",
                           fmt::format("a data file of at most {} values once its aliases "
                                       "(*name) are expanded (this one holds more: aliases of "
                                       "aliases multiply)",
                                       kMaxExpandedValues)});
    }
    root = YAML::Load(text);
  } catch (const YAML::Exception& e) {
    throw DataException({file, e.mark.line >= 0 ? e.mark.line + 1 : 0, "",
                         fmt::format("YAML syntax error: {}", e.msg)});
  }
  check_duplicate_keys(root, file);
  return root;
}

std::string read_text_file(const std::string& path, const std::string& what) {
  return read_regular_file(path, what, kMaxDataFileBytes);
}

YAML::Node parse_yaml_file(const std::string& path) {
  return parse_yaml_text(read_text_file(path, "a readable file"), path);
}

int FieldReader::line_of(const YAML::Node& node) {
  if (!node.IsDefined()) return 0;
  const YAML::Mark mark = node.Mark();
  return mark.line >= 0 ? mark.line + 1 : 0;
}

void FieldReader::error(const YAML::Node& at, std::string_view field, std::string_view expected,
                        const YAML::Node& fallback) {
  int line = line_of(at);
  if (line == 0) line = line_of(fallback);
  errors_.push_back({file_, line, std::string(field), std::string(expected)});
}

std::optional<double> FieldReader::number(const YAML::Node& map, std::string_view key,
                                          std::string_view path, bool required, double min,
                                          double max) {
  const std::string field = join_path(path, key);
  const YAML::Node node = map.IsMap() ? map[std::string(key)] : YAML::Node();
  if (!node.IsDefined() || node.IsNull()) {
    if (required) error(node, field, "a number (it is missing)", map);
    return std::nullopt;
  }
  double value = 0;
  if (!node.IsScalar() || !YAML::convert<double>::decode(node, value) || !std::isfinite(value)) {
    error(node, field, fmt::format("a number, not {}", kind_of(node)), map);
    return std::nullopt;
  }
  if (value < min || value > max) {
    error(node, field, fmt::format("a number from {} to {}, not {}", min, max, value), map);
    return std::nullopt;
  }
  return value;
}

std::optional<int> FieldReader::integer(const YAML::Node& map, std::string_view key,
                                        std::string_view path, bool required, int min, int max) {
  const std::string field = join_path(path, key);
  const YAML::Node node = map.IsMap() ? map[std::string(key)] : YAML::Node();
  if (!node.IsDefined() || node.IsNull()) {
    if (required) error(node, field, "a whole number (it is missing)", map);
    return std::nullopt;
  }
  long long value = 0;
  if (!node.IsScalar() || !YAML::convert<long long>::decode(node, value)) {
    error(node, field, fmt::format("a whole number, not {}", kind_of(node)), map);
    return std::nullopt;
  }
  if (value < min || value > max) {
    error(node, field, fmt::format("a whole number from {} to {}, not {}", min, max, value), map);
    return std::nullopt;
  }
  return static_cast<int>(value);
}

std::optional<std::string> FieldReader::text(const YAML::Node& map, std::string_view key,
                                             std::string_view path, bool required) {
  const std::string field = join_path(path, key);
  const YAML::Node node = map.IsMap() ? map[std::string(key)] : YAML::Node();
  if (!node.IsDefined() || node.IsNull()) {
    if (required) error(node, field, "a text value (it is missing)", map);
    return std::nullopt;
  }
  if (!node.IsScalar()) {
    error(node, field, fmt::format("a text value, not {}", kind_of(node)), map);
    return std::nullopt;
  }
  return node.Scalar();
}

YAML::Node FieldReader::sequence(const YAML::Node& map, std::string_view key, std::string_view path,
                                 bool required) {
  const std::string field = join_path(path, key);
  const YAML::Node node = map.IsMap() ? map[std::string(key)] : YAML::Node();
  if (!node.IsDefined() || node.IsNull()) {
    if (required) error(node, field, "a list (it is missing)", map);
    return YAML::Node(YAML::NodeType::Sequence);
  }
  if (!node.IsSequence()) {
    error(node, field, fmt::format("a list, not {}", kind_of(node)), map);
    return YAML::Node(YAML::NodeType::Sequence);
  }
  return node;
}

YAML::Node FieldReader::mapping(const YAML::Node& map, std::string_view key, std::string_view path,
                                bool required) {
  const std::string field = join_path(path, key);
  const YAML::Node node = map.IsMap() ? map[std::string(key)] : YAML::Node();
  if (!node.IsDefined() || node.IsNull()) {
    if (required) error(node, field, "a mapping (it is missing)", map);
    return YAML::Node(YAML::NodeType::Map);
  }
  if (!node.IsMap()) {
    error(node, field, fmt::format("a mapping, not {}", kind_of(node)), map);
    return YAML::Node(YAML::NodeType::Map);
  }
  return node;
}

bool FieldReader::expect_map(const YAML::Node& node, std::string_view path,
                             std::initializer_list<std::string_view> allowed) {
  if (!node.IsMap()) {
    error(node, path.empty() ? "(document)" : path,
          fmt::format("a mapping, not {}", kind_of(node)));
    return false;
  }
  for (const auto& entry : node) {
    const std::string key = entry.first.IsScalar() ? entry.first.Scalar() : std::string("?");
    bool known = false;
    for (std::string_view a : allowed)
      known = known || a == key;
    if (!known) {
      std::string names;
      for (std::string_view a : allowed)
        names += (names.empty() ? "" : ", ") + std::string(a);
      error(entry.first, join_path(path, key), fmt::format("one of the known fields ({})", names),
            node);
    }
  }
  return true;
}

void FieldReader::schema_version(const YAML::Node& root, int supported) {
  if (!root.IsMap()) return;
  const auto version = integer(root, "schema_version", "", true, 1, 1000000);
  if (version && *version != supported) {
    error(root["schema_version"], "schema_version",
          fmt::format("{} (this program reads version {}{})", supported, supported,
                      *version > supported ? "; the file is from a newer program" : ""));
  }
}

void FieldReader::throw_if_errors() const {
  if (errors_.empty()) return;
  DataError first = errors_.front();
  if (errors_.size() > 1) {
    std::string all;
    for (const auto& e : errors_)
      all += "\n  " + e.message();
    first.expected += fmt::format(" (and {} more problem{}:{})", errors_.size() - 1,
                                  errors_.size() > 2 ? "s" : "", all);
  }
  throw DataException(first);
}

std::string join_path(std::string_view path, std::string_view key) {
  if (path.empty()) return std::string(key);
  return fmt::format("{}.{}", path, key);
}

std::string index_path(std::string_view path, std::size_t index) {
  return fmt::format("{}[{}]", path, index);
}

}  // namespace duels
