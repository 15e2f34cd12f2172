#include "common/error.hpp"

#include <fmt/format.h>

namespace duels {

std::string DataError::message() const {
  std::string where = file.empty() ? std::string("<input>") : file;
  if (line > 0) where += fmt::format(":{}", line);
  if (field.empty()) return fmt::format("{}: {}", where, expected);
  return fmt::format("{}: {}: {}", where, field, expected);
}

}  // namespace duels
