#include "app/cli_util.hpp"

#include <fmt/format.h>

#include <filesystem>

#include "app/command.hpp"
#include "common/error.hpp"
#include "dice/notation.hpp"

namespace duels::app {

namespace {
std::string joined(const std::vector<std::string>& args) {
  std::string text;
  for (const auto& a : args)
    text += (text.empty() ? "" : " ") + a;
  return text;
}
std::vector<std::string> split_commas(const std::vector<std::string>& args) {
  std::vector<std::string> out;
  for (const auto& a : args) {
    std::size_t start = 0;
    while (start <= a.size()) {
      const auto comma = a.find(',', start);
      const std::string part =
          a.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
      if (!part.empty()) out.push_back(part);
      if (comma == std::string::npos) break;
      start = comma + 1;
    }
  }
  return out;
}
}  // namespace

std::vector<dice::Die> parse_pool_args(const std::vector<std::string>& args, const char* flag) {
  if (args.empty()) return {};
  auto pool = dice::parse_pool(joined(args));
  if (!pool) throw DataException({"<command line>", 0, flag, pool.error().message()});
  return *pool;
}

std::vector<dice::Roll> parse_roll_args(const std::vector<std::string>& args, const char* flag) {
  if (args.empty()) return {};
  auto rolls = dice::parse_rolls(joined(args));
  if (!rolls) throw DataException({"<command line>", 0, flag, rolls.error().message()});
  return *rolls;
}

std::vector<dice::Colour> parse_colour_args(const std::vector<std::string>& args,
                                            const char* flag) {
  std::vector<dice::Colour> out;
  for (const auto& word : split_commas(args)) {
    auto c = dice::parse_colour(word);
    if (!c) {
      throw DataException(
          {"<command line>", 0, flag,
           fmt::format("a colour (white, yellow, blue, green, black, red), not '{}'", word)});
    }
    out.push_back(*c);
  }
  return out;
}

std::map<dice::Colour, int> parse_bonus_args(const std::vector<std::string>& args,
                                             const char* flag) {
  std::map<dice::Colour, int> out;
  for (const auto& word : split_commas(args)) {
    const auto colon = word.find(':');
    auto c = dice::parse_colour(word.substr(0, colon));
    int n = 0;
    bool ok = c.has_value() && colon != std::string::npos;
    if (ok) {
      try {
        std::size_t used = 0;
        n = std::stoi(word.substr(colon + 1), &used);
        ok = used == word.size() - colon - 1 && n >= 0 && n <= 10;
      } catch (const std::exception&) {
        ok = false;
      }
    }
    if (!ok) {
      throw DataException(
          {"<command line>", 0, flag,
           fmt::format("COLOUR:N with N from 0 to 10 (like yellow:1), not '{}'", word)});
    }
    out[*c] = n;
  }
  return out;
}

std::ifstream open_text_file(const std::string& path, const std::string& what) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec))
    throw DataException({path, 0, "", fmt::format("a {} (this is a folder)", what)});
  std::ifstream in(path, std::ios::binary);
  if (!in)
    throw DataException({path, 0, "", fmt::format("a readable {} (it could not be opened)", what)});
  return in;
}

}  // namespace duels::app
