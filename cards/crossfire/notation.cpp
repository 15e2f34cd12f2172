#include "cards/crossfire/notation.hpp"

#include "cards/common/scan.hpp"
#include "cards/common/text.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <charconv>

namespace duels::cards::crossfire {

namespace {

constexpr std::size_t kMaxSpecLength = 1000;

constexpr std::array<const char*, kColours> kColourNames = {"black", "blue", "green", "red"};
constexpr std::array<const char*, kColours> kRoleNames = {"Street Samurai", "Mage", "Decker",
                                                          "Face"};
constexpr std::array<const char*, kColours> kTypeNames = {"Weapon", "Spell", "Hacking", "Skill"};
constexpr std::array<const char*, kTimings> kTimingNames = {"flipped", "defeated", "attacks",
                                                            "start",   "end",      "continuous"};

using scan::is_space;
using scan::Piece;
using scan::trim;
using Failer = scan::Failer<SpecError>;

using text::lower;

/// Splits on `sep`, keeping empty pieces.
std::vector<Piece> split_on(Piece whole, char sep) {
  return scan::split_on(whole, std::string_view(&sep, 1));
}

bool all_digits(std::string_view s) {
  return !s.empty() && std::all_of(s.begin(), s.end(), [](char c) {
    return std::isdigit(static_cast<unsigned char>(c)) != 0;
  });
}

bool parse_int(std::string_view s, int& out) {
  if (!all_digits(s) || s.size() > 6) return false;
  const char* end = s.data() + s.size();
  auto [ptr, ec] = std::from_chars(s.data(), end, out);
  return ec == std::errc() && ptr == end;
}

bool valid_name(std::string_view s) {
  return s.size() <= 60 && std::none_of(s.begin(), s.end(), [](char c) {
           return std::iscntrl(static_cast<unsigned char>(c)) != 0;
         });
}

bool valid_word(std::string_view s) {
  return !s.empty() && s.size() <= 30 && std::all_of(s.begin(), s.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '-' || c == '_' || c == '\'';
  });
}

/// "Ncolour" or "colour": the count and the colour.
std::optional<std::pair<int, Colour>> counted_colour(std::string_view token) {
  std::size_t digits = 0;
  while (digits < token.size() && std::isdigit(static_cast<unsigned char>(token[digits])) != 0)
    ++digits;
  int n = 1;
  if (digits > 0 && !parse_int(token.substr(0, digits), n)) return std::nullopt;
  const std::string word = lower(token.substr(digits));
  for (int c = 0; c < kColours; ++c) {
    if (word == kColourNames[static_cast<std::size_t>(c)]) {
      return std::make_pair(n, static_cast<Colour>(c));
    }
  }
  return std::nullopt;
}

Expected<Level, SpecError> parse_level(Piece p, const Failer& fail) {
  p = trim(p);
  if (p.text.empty()) return fail(p, "a level: a number (any N), a colour word, or Ncolour|M");
  int n = 0;
  if (all_digits(p.text)) {
    if (!parse_int(p.text, n) || n < 1 || n > kMaxLevelNeed) {
      return fail(p, fmt::format("a number of points from 1 to {}", kMaxLevelNeed));
    }
    return Level::any(n);
  }
  const auto bar = p.text.find('|');
  const Piece head{p.pos, p.text.substr(0, bar)};
  auto cc = counted_colour(head.text);
  if (!cc) {
    return fail(head,
                "a level: a number (any N), a colour word (black, blue, green, red), Ncolour or "
                "Ncolour|M");
  }
  if (cc->first < 1 || cc->first > kMaxLevelNeed) {
    return fail(head, fmt::format("a point count from 1 to {}", kMaxLevelNeed));
  }
  Level level = Level::of(cc->second, cc->first);
  if (bar != std::string_view::npos) {
    const Piece tail{p.pos + bar + 1, p.text.substr(bar + 1)};
    if (!parse_int(tail.text, n) || n < 1 || n > kMaxLevelNeed) {
      return fail(tail,
                  fmt::format("the any-colour alternative: a number from 1 to {}", kMaxLevelNeed));
    }
    level.any_n = n;
  }
  return level;
}

Expected<Track, SpecError> parse_track_piece(Piece whole, const Failer& fail) {
  whole = trim(whole);
  if (whole.text.empty()) return fail(whole, "a track: levels separated by commas, e.g. 3,blue,1");
  Track track;
  for (const Piece& piece : split_on(whole, ',')) {
    if (static_cast<int>(track.size()) == kMaxLevels) {
      return fail(piece, fmt::format("at most {} levels", kMaxLevels));
    }
    auto level = parse_level(piece, fail);
    if (!level) return level.error();
    track.push_back(*level);
  }
  return track;
}

}  // namespace

const char* colour_name(Colour c) {
  return kColourNames[static_cast<std::size_t>(c)];
}

const char* role_name(Colour c) {
  return kRoleNames[static_cast<std::size_t>(c)];
}

const char* card_type_name(Colour c) {
  return kTypeNames[static_cast<std::size_t>(c)];
}

const char* timing_name(Timing t) {
  return kTimingNames[static_cast<std::size_t>(t)];
}

std::optional<Colour> colour_from(std::string_view word) {
  const std::string w = lower(word);
  for (int c = 0; c < kColours; ++c) {
    const auto i = static_cast<std::size_t>(c);
    std::string role = lower(kRoleNames[i]);
    std::replace(role.begin(), role.end(), ' ', '-');
    if (w == kColourNames[i] || w == lower(kTypeNames[i]) || w == role ||
        (c == 0 && (w == "samurai" || w == "street_samurai"))) {
      return static_cast<Colour>(c);
    }
  }
  return std::nullopt;
}

int Points::total() const {
  int t = colourless;
  for (int c : coloured)
    t += c;
  return t;
}

Points& Points::operator+=(const Points& o) {
  for (std::size_t c = 0; c < coloured.size(); ++c)
    coloured[c] += o.coloured[c];
  colourless += o.colourless;
  return *this;
}

std::string describe(const Points& p) {
  std::vector<std::string> parts;
  for (Colour c : kAllColours) {
    if (p.of(c) > 0) parts.push_back(fmt::format("{} {}", p.of(c), colour_name(c)));
  }
  if (p.colourless > 0) parts.push_back(fmt::format("{} colourless", p.colourless));
  if (parts.empty()) return "nothing";
  return fmt::format("{}", fmt::join(parts, " + "));
}

std::string describe(const Level& level) {
  std::string colour_part;
  if (level.colour) {
    colour_part = level.colour_n == 1
                      ? std::string(colour_name(*level.colour))
                      : fmt::format("{} {}", level.colour_n, colour_name(*level.colour));
  }
  if (level.colour && level.any_n > 0) return fmt::format("{} or any {}", colour_part, level.any_n);
  if (level.colour) return colour_part;
  return fmt::format("any {}", level.any_n);
}

Expected<Track, SpecError> parse_track(std::string_view text) {
  const Failer fail{"track", text};
  if (text.size() > kMaxSpecLength) return fail({0, text.substr(0, 1)}, "a shorter spec");
  return parse_track_piece({0, text}, fail);
}

Expected<Bundle, SpecError> parse_bundle(std::string_view text) {
  const Failer fail{"card", text};
  if (text.size() > kMaxSpecLength) return fail({0, text.substr(0, 1)}, "a shorter spec");
  Bundle b;
  Piece body{0, text};
  const auto eq = text.find('=');
  if (eq != std::string_view::npos) {
    const Piece name = trim(Piece{0, text.substr(0, eq)});
    if (!valid_name(name.text)) return fail(name, "a card name of at most 60 characters");
    b.name = std::string(name.text);
    body = Piece{eq + 1, text.substr(eq + 1)};
  }
  body = trim(body);
  if (body.text.empty()) {
    return fail(Piece{body.pos, body.text},
                "damage after '=': colour words, numbers, levels:N (joined by +), or none");
  }
  bool seen_levels = false;
  for (Piece item : split_on(body, '+')) {
    item = trim(item);
    const std::string word = lower(item.text);
    int n = 0;
    if (item.text.empty()) return fail(item, "a damage item between the '+' signs");
    if (word == "none") continue;
    if (word == "obstacle-only") {
      b.obstacle_only = true;
      continue;
    }
    if (all_digits(item.text)) {
      if (!parse_int(item.text, n) || n < 0 || b.points.colourless + n > kMaxPoints) {
        return fail(item, fmt::format("a colourless point count (at most {} in all)", kMaxPoints));
      }
      b.points.colourless += n;
      continue;
    }
    if (word.starts_with("levels")) {
      if (seen_levels) return fail(item, "one levels:N item per card");
      seen_levels = true;
      const auto parts = split_on(item, ':');
      if (parts.size() < 2 || parts.size() > 3 || lower(parts[0].text) != "levels") {
        return fail(item, "levels:N, levels:N:consecutive or levels:N:last");
      }
      if (!parse_int(parts[1].text, n) || n < 1 || n > kMaxLevelDamage) {
        return fail(parts[1], fmt::format("a number of levels from 1 to {}", kMaxLevelDamage));
      }
      b.levels = n;
      b.mode = LevelMode::Spread;
      if (parts.size() == 3) {
        const std::string mode = lower(parts[2].text);
        if (mode == "consecutive") {
          b.mode = LevelMode::Consecutive;
        } else if (mode == "last") {
          b.mode = LevelMode::Last;
        } else {
          return fail(parts[2], "consecutive or last");
        }
      }
      continue;
    }
    auto cc = counted_colour(item.text);
    if (!cc) {
      return fail(item,
                  "a damage item: a colour word (black, blue, green, red), Ncolour, a number "
                  "(colourless), levels:N[:consecutive|:last] or obstacle-only");
    }
    if (cc->first < 0 || b.points.of(cc->second) + cc->first > kMaxPoints) {
      return fail(item, fmt::format("at most {} points of one colour", kMaxPoints));
    }
    b.points.of(cc->second) += cc->first;
  }
  return b;
}

Expected<ObstacleCard, SpecError> parse_obstacle(std::string_view text) {
  const Failer fail{"obstacle", text};
  if (text.size() > kMaxSpecLength) return fail({0, text.substr(0, 1)}, "a shorter spec");
  const auto eq = text.find('=');
  if (eq == std::string_view::npos) {
    return fail(trim(Piece{0, text}), "NAME=TRACK, e.g. Lightning Mage=3,blue,blue,1");
  }
  ObstacleCard o;
  const Piece name = trim(Piece{0, text.substr(0, eq)});
  if (name.text.empty() || !valid_name(name.text)) {
    return fail(name, "an obstacle name of 1 to 60 characters before '='");
  }
  o.name = std::string(name.text);
  const auto ws = scan::words(Piece{eq + 1, text.substr(eq + 1)});
  if (ws.empty()) return fail(Piece{eq, text.substr(eq, 1)}, "a track after '='");
  Piece track_text = ws[0];
  const auto at = track_text.text.find('@');
  std::optional<Piece> cleared_text;
  if (at != std::string_view::npos) {
    cleared_text = Piece{track_text.pos + at + 1, track_text.text.substr(at + 1)};
    track_text.text = track_text.text.substr(0, at);
  }
  auto track = parse_track_piece(track_text, fail);
  if (!track) return track.error();
  o.track = *track;
  if (cleared_text) {
    if (!parse_int(cleared_text->text, o.cleared) || o.cleared < 0 ||
        o.cleared > static_cast<int>(o.track.size())) {
      return fail(*cleared_text,
                  fmt::format("the number of levels already cleared, 0 to {}", o.track.size()));
    }
  }
  for (std::size_t i = 1; i < ws.size(); ++i) {
    const Piece w = ws[i];
    const std::string word = lower(w.text);
    if (word == "hard") {
      o.hard = true;
      continue;
    }
    if (word == "boss") {
      o.boss = true;
      continue;
    }
    if (word == "noheal") {
      o.no_heal = true;
      continue;
    }
    if (auto c = colour_from(word); c && word == colour_name(*c)) {
      o.colour = c;
      continue;
    }
    const auto colon = w.text.find(':');
    if (colon == std::string_view::npos) {
      return fail(w,
                  "an obstacle word: colour:C, attack:N, nuyen:N, threat:N, weight:N, faces:NAME, "
                  "type:WORD, hard, boss, noheal or on:TIMING,…");
    }
    const std::string key = word.substr(0, colon);
    const Piece value{w.pos + colon + 1, w.text.substr(colon + 1)};
    int n = 0;
    const auto number = [&](int max, int& out) -> std::optional<SpecError> {
      if (!parse_int(value.text, n) || n < 0 || n > max) {
        return fail(value, fmt::format("a whole number from 0 to {}", max));
      }
      out = n;
      return std::nullopt;
    };
    std::optional<SpecError> err;
    if (key == "colour" || key == "color") {
      auto c = colour_from(value.text);
      if (!c) return fail(value, "a colour: black, blue, green or red");
      o.colour = c;
    } else if (key == "attack") {
      err = number(20, o.attack);
    } else if (key == "nuyen") {
      err = number(50, o.nuyen);
    } else if (key == "threat") {
      err = number(9, o.threat);
    } else if (key == "weight") {
      int wv = 0;
      err = number(100000, wv);
      if (!err) o.weight = wv;
    } else if (key == "faces") {
      if (!valid_word(value.text)) return fail(value, "a runner name (one word)");
      o.faces = std::string(value.text);
    } else if (key == "type") {
      if (!valid_word(value.text)) return fail(value, "an obstacle type (one word, e.g. Human)");
      o.type = std::string(value.text);
    } else if (key == "on") {
      for (const Piece& t : split_on(value, ',')) {
        bool found = false;
        for (int k = 0; k < kTimings; ++k) {
          if (lower(t.text) == kTimingNames[static_cast<std::size_t>(k)]) {
            o.timings = static_cast<std::uint8_t>(o.timings | (1U << k));
            found = true;
          }
        }
        if (!found) {
          return fail(t, "a timing: flipped, defeated, attacks, start, end or continuous");
        }
      }
    } else {
      return fail(Piece{w.pos, w.text.substr(0, colon)},
                  "colour, attack, nuyen, threat, weight, faces, type or on");
    }
    if (err) return *err;
  }
  return o;
}

std::string to_notation(const Level& level) {
  if (!level.colour) return std::to_string(level.any_n);
  std::string out = level.colour_n == 1
                        ? std::string(colour_name(*level.colour))
                        : fmt::format("{}{}", level.colour_n, colour_name(*level.colour));
  if (level.any_n > 0) out += fmt::format("|{}", level.any_n);
  return out;
}

std::string to_notation(const Track& track) {
  std::vector<std::string> parts;
  parts.reserve(track.size());
  for (const Level& l : track)
    parts.push_back(to_notation(l));
  return fmt::format("{}", fmt::join(parts, ","));
}

std::string to_notation(const Bundle& b) {
  std::vector<std::string> items;
  for (Colour c : kAllColours) {
    const int n = b.points.of(c);
    if (n == 1) items.emplace_back(colour_name(c));
    if (n > 1) items.push_back(fmt::format("{}{}", n, colour_name(c)));
  }
  if (b.points.colourless > 0) items.push_back(std::to_string(b.points.colourless));
  if (b.levels > 0) {
    items.push_back(fmt::format("levels:{}{}", b.levels,
                                b.mode == LevelMode::Consecutive ? ":consecutive"
                                : b.mode == LevelMode::Last      ? ":last"
                                                                 : ""));
  }
  if (b.obstacle_only) items.emplace_back("obstacle-only");
  if (items.empty()) items.emplace_back("none");
  const std::string body = fmt::format("{}", fmt::join(items, "+"));
  return b.name.empty() ? body : b.name + "=" + body;
}

std::string to_notation(const ObstacleCard& o) {
  std::string out = o.name + "=" + to_notation(o.track);
  if (o.cleared > 0) out += fmt::format("@{}", o.cleared);
  if (o.colour) out += fmt::format(" colour:{}", colour_name(*o.colour));
  if (o.attack > 0) out += fmt::format(" attack:{}", o.attack);
  if (o.nuyen > 0) out += fmt::format(" nuyen:{}", o.nuyen);
  if (o.threat > 0) out += fmt::format(" threat:{}", o.threat);
  if (o.weight) out += fmt::format(" weight:{}", *o.weight);
  if (!o.faces.empty()) out += " faces:" + o.faces;
  if (!o.type.empty()) out += " type:" + o.type;
  if (o.hard) out += " hard";
  if (o.boss) out += " boss";
  if (o.no_heal) out += " noheal";
  if (o.timings != 0) {
    std::vector<std::string> t;
    for (int k = 0; k < kTimings; ++k) {
      if (o.has(static_cast<Timing>(k))) t.emplace_back(kTimingNames[static_cast<std::size_t>(k)]);
    }
    out += fmt::format(" on:{}", fmt::join(t, ","));
  }
  return out;
}

}  // namespace duels::cards::crossfire
