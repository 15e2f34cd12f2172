#include "dice/notation.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <charconv>

namespace duels::dice {

std::string_view colour_name(Colour c) {
  switch (c) {
    case Colour::White:
      return "white";
    case Colour::Yellow:
      return "yellow";
    case Colour::Blue:
      return "blue";
    case Colour::Green:
      return "green";
    case Colour::Black:
      return "black";
    case Colour::Red:
      return "red";
  }
  return "?";
}

std::optional<Colour> parse_colour(std::string_view name) {
  std::string lower(name);
  std::transform(lower.begin(), lower.end(), lower.begin(),
                 [](unsigned char ch) { return static_cast<char>(std::tolower(ch)); });
  for (Colour c : kAllColours) {
    if (colour_name(c) == lower) return c;
  }
  return std::nullopt;
}

std::string NotationError::message() const {
  std::string token = position < text.size() ? text.substr(position, length) : std::string();
  std::string out = token.empty()
                        ? fmt::format("bad dice notation: expected {}", expected)
                        : fmt::format("bad dice notation '{}': expected {}", token, expected);
  if (!text.empty() && text.size() <= 200) {
    out += fmt::format("\n  {}\n  {}{}", text, std::string(std::min(position, text.size()), ' '),
                       std::string(std::max<std::size_t>(length, 1), '^'));
  }
  return out;
}

DataError NotationError::as_data_error(std::string file, int line, std::string field) const {
  std::string token = position < text.size() ? text.substr(position, length) : std::string();
  return DataError{std::move(file), line, std::move(field),
                   token.empty() ? expected : fmt::format("{} (at '{}')", expected, token)};
}

namespace {

constexpr std::string_view kDieShape =
    "a die like yellow:d8, yellow:d6:ace or 2xwhite:d6 (colours: white yellow blue green black "
    "red; sides: d4 d6 d8 d10 d12)";

struct Token {
  std::size_t pos;
  std::string_view text;
};

std::vector<Token> split_tokens(std::string_view text) {
  std::vector<Token> tokens;
  std::size_t i = 0;
  while (i < text.size()) {
    while (i < text.size() && std::isspace(static_cast<unsigned char>(text[i])))
      ++i;
    const std::size_t start = i;
    while (i < text.size() && !std::isspace(static_cast<unsigned char>(text[i])))
      ++i;
    if (i > start) tokens.push_back({start, text.substr(start, i - start)});
  }
  return tokens;
}

bool parse_int(std::string_view s, int& out) {
  if (s.empty() || s.size() > 6) return false;
  const auto* end = s.data() + s.size();
  auto [ptr, ec] = std::from_chars(s.data(), end, out);
  return ec == std::errc() && ptr == end;
}

struct ParsedToken {
  int count = 1;
  Die die;
  std::vector<std::string_view> results;  // empty when no '=' part
  bool has_results = false;
};

Expected<ParsedToken, NotationError> parse_token(std::string_view full, const Token& tok) {
  auto fail = [&](std::size_t offset, std::size_t len, std::string expected) {
    return NotationError{std::string(full), tok.pos + offset, len, std::move(expected)};
  };
  ParsedToken out;
  std::string_view s = tok.text;
  std::size_t base = 0;
  // Count prefix "2x".
  if (const auto x = s.find('x');
      x != std::string_view::npos && x > 0 &&
      std::all_of(s.begin(), s.begin() + static_cast<long>(x),
                  [](char c) { return std::isdigit(static_cast<unsigned char>(c)); })) {
    int count = 0;
    if (!parse_int(s.substr(0, x), count) || count < 1 || count > 99) {
      return fail(0, x, "a count from 1 to 99 before 'x' (as in 2xwhite:d6)");
    }
    out.count = count;
    base = x + 1;
  }
  std::string_view dice_part = s.substr(base);
  std::string_view result_part;
  if (const auto eq = dice_part.find('='); eq != std::string_view::npos) {
    result_part = dice_part.substr(eq + 1);
    dice_part = dice_part.substr(0, eq);
    out.has_results = true;
  }
  // colour:dN[:ace]
  std::vector<std::string_view> parts;
  std::vector<std::size_t> offsets;
  std::size_t p = 0;
  while (true) {
    const auto colon = dice_part.find(':', p);
    parts.push_back(dice_part.substr(p, colon == std::string_view::npos ? colon : colon - p));
    offsets.push_back(base + p);
    if (colon == std::string_view::npos) break;
    p = colon + 1;
  }
  if (parts.size() < 2 || parts.size() > 3)
    return fail(base, dice_part.size(), std::string(kDieShape));
  const auto colour = parse_colour(parts[0]);
  if (!colour) {
    return fail(offsets[0], parts[0].size(), "a colour: white, yellow, blue, green, black or red");
  }
  out.die.colour = *colour;
  int sides = 0;
  if (parts[1].size() < 2 || (parts[1][0] != 'd' && parts[1][0] != 'D') ||
      !parse_int(parts[1].substr(1), sides) || !valid_sides(sides)) {
    return fail(offsets[1], parts[1].size(), "a die size: d4, d6, d8, d10 or d12");
  }
  out.die.sides = sides;
  if (parts.size() == 3) {
    if (parts[2] != "ace") return fail(offsets[2], parts[2].size(), "'ace' or nothing");
    out.die.ace = true;
  }
  if (out.has_results) {
    const std::size_t rbase = base + dice_part.size() + 1;
    std::size_t q = 0;
    while (true) {
      const auto comma = result_part.find(',', q);
      const std::string_view r =
          result_part.substr(q, comma == std::string_view::npos ? comma : comma - q);
      const std::size_t roff = rbase + q;
      if (r == "ace") {
        if (!out.die.ace) {
          return fail(roff, r.size(),
                      fmt::format("a number from 1 to {} ('ace' needs an ace die, like {}:d{}:ace)",
                                  sides, colour_name(*colour), sides));
        }
      } else {
        int face = 0;
        if (!parse_int(r, face) || face < 1 || face > sides) {
          return fail(roff, std::max<std::size_t>(r.size(), 1),
                      fmt::format("a result from {} to {}{}", out.die.ace ? 2 : 1, sides,
                                  out.die.ace ? " or 'ace'" : ""));
        }
        if (face == 1 && out.die.ace) {
          return fail(roff, r.size(), "'ace' (an ace die has the ace where the 1 would be)");
        }
      }
      out.results.push_back(r);
      if (comma == std::string_view::npos) break;
      q = comma + 1;
    }
    if (static_cast<int>(out.results.size()) != out.count) {
      return fail(rbase, result_part.size(),
                  fmt::format("{} result{} for {}x{} dice", out.count, out.count == 1 ? "" : "s",
                              out.count, colour_name(*colour)));
    }
  }
  return out;
}

}  // namespace

Expected<std::vector<Die>, NotationError> parse_pool(std::string_view text) {
  std::vector<Die> dice;
  const auto tokens = split_tokens(text);
  if (tokens.empty()) return NotationError{std::string(text), 0, 0, std::string(kDieShape)};
  for (const Token& tok : tokens) {
    auto parsed = parse_token(text, tok);
    if (!parsed) return parsed.error();
    if (parsed->has_results) {
      const auto eq = tok.text.find('=');
      return NotationError{std::string(text), tok.pos + eq, tok.text.size() - eq,
                           "dice without results here (drop the '=…')"};
    }
    for (int i = 0; i < parsed->count; ++i)
      dice.push_back(parsed->die);
  }
  return dice;
}

Expected<std::vector<Roll>, NotationError> parse_rolls(std::string_view text) {
  std::vector<Roll> rolls;
  const auto tokens = split_tokens(text);
  if (tokens.empty()) {
    return NotationError{std::string(text), 0, 0, "rolled dice like yellow:d8=5"};
  }
  for (const Token& tok : tokens) {
    auto parsed = parse_token(text, tok);
    if (!parsed) return parsed.error();
    if (!parsed->has_results) {
      return NotationError{std::string(text), tok.pos, tok.text.size(),
                           "a rolled result after '=' (as in yellow:d8=5 or yellow:d6:ace=ace)"};
    }
    for (std::string_view r : parsed->results) {
      int face = 1;
      if (r != "ace") parse_int(r, face);
      rolls.push_back(Roll{parsed->die, face});
    }
  }
  return rolls;
}

std::string to_notation(const Die& die) {
  return fmt::format("{}:d{}{}", colour_name(die.colour), die.sides, die.ace ? ":ace" : "");
}

std::string to_notation(const Roll& roll) {
  return roll.is_ace() ? to_notation(roll.die) + "=ace"
                       : fmt::format("{}={}", to_notation(roll.die), roll.face);
}

std::string to_notation(const std::vector<Die>& dice) {
  std::string out;
  for (std::size_t i = 0; i < dice.size();) {
    std::size_t j = i;
    // Group identical dice, at most 99 to a token (the notation's count limit).
    while (j < dice.size() && j - i < 99 && dice[j].sides == dice[i].sides &&
           dice[j].colour == dice[i].colour && dice[j].ace == dice[i].ace) {
      ++j;
    }
    if (!out.empty()) out += ' ';
    if (j - i > 1) out += fmt::format("{}x", j - i);
    out += to_notation(dice[i]);
    i = j;
  }
  return out;
}

std::string to_notation(const std::vector<Roll>& rolls) {
  std::string out;
  for (const Roll& r : rolls) {
    if (!out.empty()) out += ' ';
    out += to_notation(r);
  }
  return out;
}

}  // namespace duels::dice
