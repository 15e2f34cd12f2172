#include "cards/encounters/notation.hpp"

#include "cards/common/scan.hpp"
#include "cards/common/text.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <charconv>

namespace duels::cards::encounters {

namespace {

constexpr std::size_t kMaxSpecLength = 1000;
// A card's abilities are tracked in 32-bit masks (which were used against this Encounter);
// printed cards have a handful, so 16 is plenty and far from the masks' width.
constexpr std::size_t kMaxAbilitiesPerCard = 16;

constexpr std::string_view kAbilityShape =
    "an ability: wild F,F / +N / -N / +-N / KEYWORD: +N / special +N / lift / red / purple / "
    "cost N";

using scan::is_space;
using scan::Piece;
using scan::split_on;
using scan::trim;
using scan::valid_keyword;
using Failer = scan::Failer<SpecError>;

using text::lower;

bool parse_int(std::string_view s, int& out) {
  if (s.empty() || s.size() > 6) return false;
  const char* end = s.data() + s.size();
  auto [ptr, ec] = std::from_chars(s.data(), end, out);
  return ec == std::errc() && ptr == end;
}

bool valid_name(std::string_view s) {
  return !s.empty() && s.size() <= 60 && std::none_of(s.begin(), s.end(), [](char c) {
    return std::iscntrl(static_cast<unsigned char>(c)) != 0;
  });
}

/// Parses "+N", "-N", "+-N" or "±N" into a Modify ability.
Expected<Ability, SpecError> parse_modify(const Failer& fail, Piece word) {
  std::string_view s = word.text;
  Ability a;
  a.kind = AbilityKind::Modify;
  std::size_t sign_len = 0;
  if (s.starts_with("+-") || s.starts_with("-+")) {
    a.up = a.down = true;
    sign_len = 2;
  } else if (s.starts_with("\xC2\xB1")) {  // ±
    a.up = a.down = true;
    sign_len = 2;
  } else if (s.starts_with("+")) {
    a.up = true;
    sign_len = 1;
  } else if (s.starts_with("-")) {
    a.up = false;
    a.down = true;
    sign_len = 1;
  } else {
    return fail(word, "+N, -N or +-N");
  }
  int n = 0;
  const Piece number{word.pos + sign_len, s.substr(sign_len)};
  if (number.text.empty()) return fail(word, "a number right after the sign, like +1");
  if (!parse_int(number.text, n) || n < 1 || n > 5) return fail(number, "an amount from 1 to 5");
  a.amount = n;
  return a;
}

/// Parses the faces after "wild".
Expected<std::uint8_t, SpecError> parse_wild_faces(const Failer& fail, Piece wild_word,
                                                   const std::vector<Piece>& rest) {
  std::uint8_t mask = 0;
  if (rest.empty()) return fail(wild_word, "wild followed by faces, like wild 2,5");
  for (const Piece& w : rest) {
    for (const Piece& f : scan::words(w, ",")) {
      int face = 0;
      if (!parse_int(f.text, face) || face < 1 || face > 6) {
        return fail(f, "a face from 1 to 6");
      }
      mask = static_cast<std::uint8_t>(mask | (1U << face));
    }
  }
  if (mask == 0) return fail(rest.front(), "a face from 1 to 6");
  return mask;
}

/// Parses a die effect: +N / -N / +-N / wild F,F. `words_` is non-empty.
Expected<Ability, SpecError> parse_effect(const Failer& fail, const std::vector<Piece>& ws) {
  const std::string head = lower(ws[0].text);
  if (head == "wild") {
    auto faces = parse_wild_faces(fail, ws[0], {ws.begin() + 1, ws.end()});
    if (!faces) return faces.error();
    Ability a;
    a.kind = AbilityKind::Wild;
    a.wild_faces = *faces;
    return a;
  }
  if (head.starts_with("+") || head.starts_with("-") || head.starts_with("\xC2\xB1")) {
    auto a = parse_modify(fail, ws[0]);
    if (!a) return a;
    if (ws.size() > 1) return fail(ws[1], "nothing more here (separate abilities with ';')");
    return a;
  }
  return fail(ws[0], std::string(kAbilityShape));
}

}  // namespace

Expected<RunnerCard, SpecError> parse_runner(std::string_view text) {
  const Failer fail{"Shadowrunner", text};
  if (text.size() > kMaxSpecLength) {
    return fail(Piece{kMaxSpecLength, text.substr(kMaxSpecLength, 1)},
                "a shorter spec (at most 1000 characters)");
  }
  RunnerCard card;
  std::vector<Piece> items = split_on(Piece{0, text}, ";");
  // The name: text before the first ':' of the first item.
  if (const auto colon = items[0].text.find(':'); colon != std::string_view::npos) {
    const Piece name = trim(Piece{items[0].pos, items[0].text.substr(0, colon)});
    // An empty name (": metahuman: +1") is allowed: a nameless card whose first item has a
    // keyword needs it.
    if (!name.text.empty() && !valid_name(name.text)) {
      return fail(Piece{items[0].pos, items[0].text.substr(0, colon + 1)},
                  "a Shadowrunner name before ':' (at most 60 characters)");
    }
    card.name = std::string(name.text);
    items[0] = Piece{items[0].pos + colon + 1, items[0].text.substr(colon + 1)};
  }
  bool seen_retain = false;
  bool seen_cost = false;
  std::optional<Piece> special_item;
  std::optional<Piece> other_item;
  int item_count = 0;
  for (Piece raw : items) {
    const Piece item = trim(raw);
    if (item.text.empty()) continue;
    ++item_count;
    if (card.abilities.size() >= kMaxAbilitiesPerCard) {
      return fail(item, fmt::format("at most {} abilities on a card", kMaxAbilitiesPerCard));
    }
    std::string keyword;
    Piece body = item;
    if (const auto colon = item.text.find(':'); colon != std::string_view::npos) {
      const Piece kw = trim(Piece{item.pos, item.text.substr(0, colon)});
      if (!valid_keyword(kw.text)) {
        return fail(kw.text.empty() ? Piece{item.pos + colon, ":"} : kw,
                    "a keyword like metahuman or megacorporation before ':'");
      }
      keyword = lower(kw.text);
      body = trim(Piece{item.pos + colon + 1, item.text.substr(colon + 1)});
    }
    const std::vector<Piece> ws = scan::words(body);
    if (ws.empty()) return fail(Piece{body.pos, ":"}, "an ability after the keyword, like +1");
    const std::string head = lower(ws[0].text);
    if (!keyword.empty()) {
      auto a = parse_effect(fail, ws);
      if (!a) {
        // A keyword may only guard die effects: say so when the word is a card attribute.
        if (head == "red" || head == "purple" || head == "cost" || head == "special" ||
            head == "lift") {
          return fail(ws[0], "a die ability after the keyword: +N, -N, +-N or wild F,F");
        }
        return a.error();
      }
      Ability ability = *a;
      ability.keyword = keyword;
      card.abilities.push_back(std::move(ability));
      other_item = item;
      continue;
    }
    if (head == "red" || head == "purple") {
      if (ws.size() > 1) return fail(ws[1], fmt::format("nothing after '{}'", head));
      if (seen_retain) return fail(ws[0], "only one of red or purple");
      seen_retain = true;
      card.retain = head == "red" ? RetainMode::Never : RetainMode::Always;
      other_item = item;
    } else if (head == "cost") {
      if (seen_cost) return fail(ws[0], "only one hire cost");
      seen_cost = true;
      int cost = 0;
      if (ws.size() < 2) return fail(ws[0], "cost followed by the hire cost, like cost 3");
      if (!parse_int(ws[1].text, cost) || cost < 2 || cost > 20) {
        return fail(ws[1], "a hire cost from 2 to 20");
      }
      if (ws.size() > 2) return fail(ws[2], "nothing after the hire cost");
      card.hire_cost = cost;
      other_item = item;
    } else if (head == "lift") {
      if (ws.size() > 1) return fail(ws[1], "nothing after 'lift'");
      Ability a;
      a.kind = AbilityKind::Lift;
      card.abilities.push_back(a);
      other_item = item;
    } else if (head == "special") {
      if (special_item) return fail(ws[0], "only one 'special +N' on a card");
      if (ws.size() < 2) return fail(ws[0], "special followed by its bonus, like special +1");
      auto a = parse_modify(fail, ws[1]);
      if (!a) return a.error();
      if (ws.size() > 2) return fail(ws[2], "nothing after the bonus");
      card.special = true;
      card.abilities.push_back(*a);
      special_item = item;
    } else {
      auto a = parse_effect(fail, ws);
      if (!a) return a.error();
      card.abilities.push_back(*a);
      other_item = item;
    }
  }
  if (item_count == 0) {
    return fail.at_end("a Shadowrunner like 'Topshelf: wild 2,5; metahuman: +1; red'");
  }
  if (special_item && other_item) {
    const Piece later = special_item->pos > other_item->pos ? *special_item : *other_item;
    return fail(later, "nothing else on a Special Shadowrunner (only 'special +N')");
  }
  return card;
}

Expected<EncounterCard, SpecError> parse_encounter(std::string_view text) {
  const Failer fail{"Encounter", text};
  if (text.size() > kMaxSpecLength) {
    return fail(Piece{kMaxSpecLength, text.substr(kMaxSpecLength, 1)},
                "a shorter spec (at most 1000 characters)");
  }
  EncounterCard card;
  Piece rest{0, text};
  if (const auto colon = text.find(':'); colon != std::string_view::npos) {
    const Piece name = trim(Piece{0, text.substr(0, colon)});
    if (!valid_name(name.text)) {
      return fail(Piece{0, text.substr(0, colon + 1)},
                  "an Encounter name before ':' (at most 60 characters)");
    }
    card.name = std::string(name.text);
    rest = Piece{colon + 1, text.substr(colon + 1)};
  }
  const std::vector<Piece> ws = scan::words(rest);
  if (ws.empty()) return fail.at_end("an Encounter Value from 1 to 48, or '-' for none");
  const std::string first = lower(ws[0].text);
  if (first != "-" && first != "none") {
    int v = 0;
    if (!parse_int(ws[0].text, v) || v < 1 || v > 48) {
      return fail(ws[0], "an Encounter Value from 1 to 48, or '-' for a card without one");
    }
    card.value = v;
  }
  for (std::size_t i = 1; i < ws.size(); ++i) {
    const std::string w = lower(ws[i].text);
    const auto needs_value = [&]() -> std::optional<SpecError> {
      if (!card.value) {
        return fail(ws[i], fmt::format("no '{}' on a card without an Encounter Value", w));
      }
      return std::nullopt;
    };
    if (w == "bonus") {
      if (auto e = needs_value()) return *e;
      int n = 0;
      if (i + 1 >= ws.size()) return fail(ws[i], "bonus followed by the Nuyen, like bonus 2");
      if (!parse_int(ws[i + 1].text, n) || n < 1 || n > 10) {
        return fail(ws[i + 1], "a bonus from 1 to 10 Nuyen");
      }
      card.bonus_nuyen = n;
      ++i;
    } else if (w == "rotate") {
      int n = 1;
      if (i + 1 < ws.size() && std::isdigit(static_cast<unsigned char>(ws[i + 1].text[0])) != 0) {
        if (!parse_int(ws[i + 1].text, n) || n < 1 || n > 9) {
          return fail(ws[i + 1], "a number of Rotate-District icons from 1 to 9");
        }
        ++i;
      }
      card.rotate_icons = n;
    } else if (w == "no-runners") {
      card.no_runners = true;
    } else if (w == "twice") {
      if (auto e = needs_value()) return *e;
      card.twice = true;
    } else if (w == "special") {
      if (auto e = needs_value()) return *e;
      int n = 0;
      if (i + 1 >= ws.size()) return fail(ws[i], "special followed by its bonus, like special +1");
      const Piece p = ws[i + 1];
      if (p.text.size() < 2 || p.text[0] != '+' || !parse_int(p.text.substr(1), n) || n < 1 ||
          n > 5) {
        return fail(p, "a bonus '+N' from +1 to +5");
      }
      card.special_plus = n;
      ++i;
    } else if (valid_keyword(ws[i].text)) {
      if (std::find(card.keywords.begin(), card.keywords.end(), w) == card.keywords.end()) {
        card.keywords.push_back(w);
      }
    } else {
      return fail(ws[i],
                  "a keyword, or one of: bonus N, rotate [N], no-runners, twice, special +N");
    }
  }
  return card;
}

Expected<std::vector<int>, SpecError> parse_dice(std::string_view text, int max_dice) {
  const Failer fail{"dice", text};
  if (text.size() > kMaxSpecLength) {
    return fail(Piece{kMaxSpecLength, text.substr(kMaxSpecLength, 1)}, "a shorter list");
  }
  std::vector<int> dice;
  const std::vector<Piece> ws = scan::words(Piece{0, text}, ",");
  if (ws.empty()) return fail.at_end("die faces like 1,1,3");
  // "1,,2" and "1,2,": a comma with no face before or after it is a missing die, not nothing.
  bool face_since_comma = false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] == ',') {
      if (!face_since_comma) return fail(Piece{i, text.substr(i, 1)}, "a die face before this ','");
      face_since_comma = false;
    } else if (!is_space(text[i])) {
      face_since_comma = true;
    }
  }
  if (!face_since_comma) return fail.at_end("a die face after the last ','");
  for (const Piece& w : ws) {
    int face = 0;
    if (!parse_int(w.text, face) || face < 1 || face > 6) {
      return fail(w, "a die face from 1 to 6");
    }
    if (static_cast<int>(dice.size()) >= max_dice) {
      return fail(w, fmt::format("at most {} dice", max_dice));
    }
    dice.push_back(face);
  }
  return dice;
}

Expected<std::vector<std::string>, SpecError> parse_keywords(std::string_view text) {
  const Failer fail{"keywords", text};
  if (text.size() > kMaxSpecLength) {
    return fail(Piece{kMaxSpecLength, text.substr(kMaxSpecLength, 1)}, "a shorter list");
  }
  std::vector<std::string> out;
  for (const Piece& w : scan::words(Piece{0, text}, ",")) {
    if (!valid_keyword(w.text)) return fail(w, "a keyword like metahuman (letters, digits, '-')");
    std::string k = lower(w.text);
    if (std::find(out.begin(), out.end(), k) == out.end()) out.push_back(std::move(k));
  }
  return out;
}

Expected<int, SpecError> parse_value(std::string_view text) {
  const Failer fail{"Encounter Value", text};
  const Piece p = trim(Piece{0, text});
  int v = 0;
  if (!parse_int(p.text, v) || v < 1 || v > 48) {
    if (p.text.empty()) return fail.at_end("an Encounter Value from 1 to 48");
    return fail(p, "an Encounter Value from 1 to 48");
  }
  return v;
}

std::string to_notation(const Ability& a) {
  std::string out = a.keyword.empty() ? std::string() : a.keyword + ": ";
  switch (a.kind) {
    case AbilityKind::Modify:
      out += a.up && a.down ? "+-" : (a.up ? "+" : "-");
      out += std::to_string(a.amount);
      break;
    case AbilityKind::Wild: {
      out += "wild ";
      bool first = true;
      for (int f = 1; f <= 6; ++f) {
        if ((a.wild_faces & (1U << f)) == 0) continue;
        if (!first) out += ',';
        out += std::to_string(f);
        first = false;
      }
      break;
    }
    case AbilityKind::Lift:
      out += "lift";
      break;
  }
  return out;
}

std::string to_notation(const RunnerCard& card) {
  std::vector<std::string> items;
  for (const Ability& a : card.abilities) {
    items.push_back(card.special ? "special " + to_notation(a) : to_notation(a));
  }
  if (card.hire_cost != 2 || items.empty()) items.push_back(fmt::format("cost {}", card.hire_cost));
  if (card.retain == RetainMode::Never) items.emplace_back("red");
  if (card.retain == RetainMode::Always) items.emplace_back("purple");
  std::string out = card.name.empty() ? std::string() : card.name + ": ";
  if (card.name.empty() && items.front().find(':') != std::string::npos) out = ": ";
  for (std::size_t i = 0; i < items.size(); ++i)
    out += (i ? "; " : "") + items[i];
  return out;
}

std::string to_notation(const EncounterCard& card) {
  std::string out = card.name.empty() ? std::string() : card.name + ": ";
  out += card.value ? std::to_string(*card.value) : std::string("-");
  for (const std::string& k : card.keywords)
    out += " " + k;
  if (card.bonus_nuyen > 0) out += fmt::format(" bonus {}", card.bonus_nuyen);
  if (card.rotate_icons == 1) out += " rotate";
  if (card.rotate_icons > 1) out += fmt::format(" rotate {}", card.rotate_icons);
  if (card.no_runners) out += " no-runners";
  if (card.twice) out += " twice";
  if (card.special_plus > 0) out += fmt::format(" special +{}", card.special_plus);
  return out;
}

bool keyword_matches(const Ability& ability, const std::vector<std::string>& encounter_keywords) {
  if (ability.keyword.empty()) return true;
  static constexpr std::array<std::string_view, 6> kMetahuman = {"metahuman", "human", "elf",
                                                                 "dwarf",     "ork",   "troll"};
  for (const std::string& k : encounter_keywords) {
    if (k == ability.keyword) return true;
    if (ability.keyword == "metahuman" &&
        std::find(kMetahuman.begin(), kMetahuman.end(), k) != kMetahuman.end()) {
      return true;
    }
  }
  return false;
}

std::uint8_t ability_targets(const Ability& a, int face) {
  if (face < 1 || face > 6) return 0;
  unsigned mask = 0;
  switch (a.kind) {
    case AbilityKind::Modify:
      if (a.up) {
        const int t = std::min(6, face + a.amount);
        if (t != face) mask |= 1U << t;
      }
      if (a.down) {
        const int t = std::max(1, face - a.amount);
        if (t != face) mask |= 1U << t;
      }
      break;
    case AbilityKind::Wild:
      if ((a.wild_faces & (1U << face)) != 0) mask = 0x7EU & ~(1U << face);
      break;
    case AbilityKind::Lift:
      break;
  }
  return static_cast<std::uint8_t>(mask);
}

std::optional<std::string> starter_problem(const RunnerCard& card) {
  if (card.special) return "a Special Shadowrunner cannot be a starting Shadowrunner";
  const std::string name = lower(card.name);
  if (name == "tulio" || name == "corium" || name == "osi") {
    return fmt::format(
        "{} cannot be a starting Shadowrunner (nor can Tulio, Corium or Osi): set it aside and "
        "flip another",
        card.name);
  }
  if (card.hire_cost != 2) {
    return fmt::format(
        "a starting Shadowrunner must cost exactly 2¥ ({} costs {}¥): set it aside, flip another, "
        "and shuffle it back once everyone has a legal runner",
        card.name.empty() ? "this one" : card.name, card.hire_cost);
  }
  return std::nullopt;
}

}  // namespace duels::cards::encounters
