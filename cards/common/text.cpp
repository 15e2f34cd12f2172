#include "cards/common/text.hpp"

#include <set>

#include <algorithm>
#include <cctype>
#include <charconv>

#include "common/names.hpp"

namespace duels::cards::text {

namespace {
bool space(char c) {
  return std::isspace(static_cast<unsigned char>(c)) != 0;
}
}  // namespace

std::string_view trim(std::string_view s) {
  while (!s.empty() && space(s.front()))
    s.remove_prefix(1);
  while (!s.empty() && space(s.back()))
    s.remove_suffix(1);
  return s;
}

std::string lower(std::string_view s) {
  std::string out(s);
  std::transform(out.begin(), out.end(), out.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return out;
}

bool same_name(std::string_view a, std::string_view b) {
  return duels::same_name(a, b);
}

std::pair<std::string, std::string> head_rest(std::string_view line, bool stop_at_semicolon) {
  line = trim(line);
  std::size_t i = 0;
  while (i < line.size() && !space(line[i]) && !(stop_at_semicolon && line[i] == ';'))
    ++i;
  return {lower(line.substr(0, i)), std::string(trim(line.substr(i)))};
}

std::vector<std::string> split_list(std::string_view text, char sep) {
  std::vector<std::string> out;
  std::size_t start = 0;
  for (std::size_t i = 0; i <= text.size(); ++i) {
    if (i == text.size() || text[i] == sep) {
      const std::string_view piece = trim(text.substr(start, i - start));
      if (!piece.empty()) out.emplace_back(piece);
      start = i + 1;
    }
  }
  return out;
}

bool to_int(std::string_view s, int& out) {
  s = trim(s);
  if (s.empty() || s.size() > 6) return false;
  if (s.front() == '+') s.remove_prefix(1);
  const char* end = s.data() + s.size();
  auto [ptr, ec] = std::from_chars(s.data(), end, out);
  return ec == std::errc() && ptr == end;
}

std::optional<std::pair<std::string, std::string>> arrow(std::string_view text) {
  const auto at = text.find("->");
  if (at == std::string_view::npos) return std::nullopt;
  return std::make_pair(std::string(trim(text.substr(0, at))),
                        std::string(trim(text.substr(at + 2))));
}

std::string changed_lines(std::string_view before, std::string_view after) {
  std::multiset<std::string_view> old;
  const auto lines = [](std::string_view text, auto&& visit) {
    std::size_t start = 0;
    while (start < text.size()) {
      std::size_t end = text.find('\n', start);
      if (end == std::string_view::npos) end = text.size();
      visit(text.substr(start, end - start));
      start = end + 1;
    }
  };
  lines(before, [&](std::string_view l) { old.insert(l); });
  std::string out;
  lines(after, [&](std::string_view l) {
    if (const auto it = old.find(l); it != old.end()) {
      old.erase(it);
      return;
    }
    out += l;
    out += '\n';
  });
  return out;
}

}  // namespace duels::cards::text
