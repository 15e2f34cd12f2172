#include "cards/srtcg/notation.hpp"

#include "cards/common/scan.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <charconv>

namespace duels::cards::srtcg {

const char* gear_type_name(GearType type) {
  switch (type) {
    case GearType::Accessory:
      return "accessory";
    case GearType::Armor:
      return "armor";
    case GearType::Cyberware:
      return "cyberware";
    case GearType::Cyberdeck:
      return "cyberdeck";
    case GearType::Drone:
      return "drone";
    case GearType::Misc:
      return "misc";
    case GearType::Program:
      return "program";
    case GearType::Spell:
      return "spell";
    case GearType::Spirit:
      return "spirit";
    case GearType::Vehicle:
      return "vehicle";
    case GearType::Weapon:
      return "weapon";
  }
  return "misc";
}

namespace {

constexpr std::size_t kMaxSpecLength = 1000;
constexpr int kMaxNumber = 999;

const std::vector<std::string> kSkills = {
    "Athletics", "Conjure",  "Decking", "Demolitions", "Firearms", "Gunnery",    "Leadership",
    "Melee",     "Piloting", "Social",  "Sorcery",     "Stealth",  "Streetwise", "Technical"};
const std::vector<std::string> kTraits = {"Anti-social", "Biotech", "Fame",   "Guard",
                                          "Hermit",      "Recon",   "Stamina"};
const std::vector<std::string> kRunnerKeywords = {"mage",   "shaman", "burned-out-mage", "cyborg",
                                                  "decker", "rigger", "physad",          "troll",
                                                  "ork",    "elf",    "dwarf",           "human"};
const std::vector<std::string> kChallengeKeywords = {
    "awakened",      "barrier", "closed-system", "electrical", "indoor",
    "miscellaneous", "outdoor", "personnel",     "street",     "vehicle"};

constexpr std::array<GearType, 11> kGearTypes = {
    GearType::Accessory, GearType::Armor,   GearType::Cyberware, GearType::Cyberdeck,
    GearType::Drone,     GearType::Misc,    GearType::Program,   GearType::Spell,
    GearType::Spirit,    GearType::Vehicle, GearType::Weapon};

std::string lower(std::string_view s) {
  std::string out(s);
  std::transform(out.begin(), out.end(), out.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return out;
}

using scan::is_space;
using scan::Piece;
using scan::valid_keyword;
using Failer = scan::Failer<SpecError>;

std::string_view trim(std::string_view s) {
  while (!s.empty() && is_space(s.front()))
    s.remove_prefix(1);
  while (!s.empty() && is_space(s.back()))
    s.remove_suffix(1);
  return s;
}

std::vector<Piece> split_words(std::string_view text, std::size_t offset, bool commas) {
  return scan::words(Piece{offset, text}, commas ? ";," : ";");
}

bool parse_int(std::string_view s, int& out) {
  if (s.empty() || s.size() > 4) return false;
  if (std::isdigit(static_cast<unsigned char>(s[0])) == 0) return false;
  const char* end = s.data() + s.size();
  auto [ptr, ec] = std::from_chars(s.data(), end, out);
  return ec == std::errc() && ptr == end && out >= 0 && out <= kMaxNumber;
}

/// "+3", "-1", "0" (a sign is optional only for 0 … any digit string).
bool parse_signed(std::string_view s, int& out) {
  if (s.empty()) return false;
  int sign = 1;
  if (s[0] == '+' || s[0] == '-') {
    sign = s[0] == '-' ? -1 : 1;
    s.remove_prefix(1);
  }
  int v = 0;
  if (!parse_int(s, v)) return false;
  out = sign * v;
  return true;
}

/// "A/B" with non-negative numbers.
bool parse_ab(std::string_view s, Threat& out) {
  const auto slash = s.find('/');
  if (slash == std::string_view::npos) return false;
  return parse_int(s.substr(0, slash), out.attack) && parse_int(s.substr(slash + 1), out.body);
}

/// "+a/+b" (the first part must carry a sign).
bool parse_mod(std::string_view s, Threat& out) {
  if (s.empty() || (s[0] != '+' && s[0] != '-')) return false;
  const auto slash = s.find('/');
  if (slash == std::string_view::npos) return false;
  return parse_signed(s.substr(0, slash), out.attack) &&
         parse_signed(s.substr(slash + 1), out.body);
}

bool valid_name(std::string_view s) {
  return s.size() <= 60 && std::none_of(s.begin(), s.end(), [](char c) {
           return std::iscntrl(static_cast<unsigned char>(c)) != 0 || c == ',' || c == ';';
         });
}

bool contains(const std::vector<std::string>& v, const std::string& s) {
  return std::find(v.begin(), v.end(), s) != v.end();
}

enum class Kind : std::uint8_t { Runner, Skills, Challenge, Objective, Gear, Threat };

/// Everything any card notation may say; each parser keeps what its card has.
struct Parsed {
  std::string name;
  std::optional<Threat> threat;
  bool no_threat = false;  ///< `-` given
  Threat mod;
  Armor armor;
  Ratings skills;
  Ratings skill_bonus;
  Ratings traits;
  std::vector<std::string> keywords;
  int cost = 0;
  int upkeep = 0;
  bool prime = false;
  bool unique = false;
  Pump pump;
  int pumped = 0;
  int damage = 0;
  int burst = 0;
  bool armor_piercing = false;
  bool protect = false;
  Role role = Role::Runner;
  bool role_set = false;
  bool ends_run = false;
  int rep = -1;
  int essence = 0;
  int burst_cost = -1;
  bool indirect = false;
  bool silenced = false;
  std::optional<GearType> gear_type;
};

constexpr std::string_view kShape =
    "a Threat Rating A/B, a modifier +a/+b, armor An or A+n, a skill, a trait, cost N, "
    "pump C +a/+b, or a keyword";

/// The parser shared by every card kind.
class CardParser {
 public:
  CardParser(Kind kind, std::string what, std::string_view text)
      : kind_(kind), fail_{std::move(what), text}, text_(text) {}

  Expected<Parsed, SpecError> run(bool commas) {
    if (text_.size() > kMaxSpecLength) {
      return fail_(Piece{0, text_.substr(0, 10)},
                   fmt::format("at most {} characters", kMaxSpecLength));
    }
    std::size_t body_start = 0;
    const auto colon = text_.find(':');
    if (colon != std::string_view::npos && kind_ != Kind::Threat) {
      const bool rating_colon =
          colon + 1 < text_.size() && std::isdigit(static_cast<unsigned char>(text_[colon + 1]));
      if (!rating_colon) {
        const std::string_view name = trim(text_.substr(0, colon));
        if (!valid_name(name)) {
          return fail_(Piece{0, text_.substr(0, colon)},
                       "a name (up to 60 characters, no commas or semicolons)");
        }
        out_.name = std::string(name);
        body_start = colon + 1;
      }
    }
    words_ = split_words(text_.substr(body_start), body_start, commas);
    while (i_ < words_.size()) {
      if (auto err = item()) return *err;
    }
    return out_;
  }

 private:
  using Err = std::optional<SpecError>;

  Piece word() const { return words_[i_]; }
  bool next_is_int(int& v) const {
    return i_ + 1 < words_.size() && parse_int(words_[i_ + 1].text, v);
  }
  /// The integer after the current word, consumed with it.
  Err take_int(int& out, const char* what) {
    const Piece w = word();
    if (i_ + 1 >= words_.size()) return fail_.at_end(fmt::format("{} after '{}'", what, w.text));
    if (!parse_int(words_[i_ + 1].text, out)) return fail_(words_[i_ + 1], what);
    i_ += 2;
    return std::nullopt;
  }

  Err add_rating(Ratings& into, const std::string& name, int rating, Piece at) {
    if (into.count(name) != 0) return fail_(at, fmt::format("{} only once", name));
    if (rating < 1) return fail_(at, "a rating from 1");
    into[name] = rating;
    return std::nullopt;
  }

  Err add_keyword(const std::string& k, Piece at) {
    if (contains(out_.keywords, k)) return fail_(at, fmt::format("the keyword '{}' only once", k));
    out_.keywords.push_back(k);
    return std::nullopt;
  }

  Err set_role(Role r, Piece at) {
    if (kind_ != Kind::Runner) return fail_(at, std::string(kShape));
    if (out_.role_set) return fail_(at, "one of drone, spirit, controller, indirect");
    out_.role = r;
    out_.role_set = true;
    ++i_;
    return std::nullopt;
  }

  /// A skill word (maybe "Skill:N") with its rating.
  Err skill_item(const std::string& skill, Piece w, std::string_view inline_rating) {
    int rating = 1;
    bool bonus = false;
    if (!inline_rating.empty()) {
      if (!parse_int(inline_rating, rating)) return fail_(w, "Skill:N with N a whole number");
      ++i_;
    } else if (i_ + 1 < words_.size() && kind_ == Kind::Gear &&
               words_[i_ + 1].text.starts_with('+') &&
               words_[i_ + 1].text.find('/') == std::string_view::npos) {
      if (!parse_signed(words_[i_ + 1].text, rating) || rating < 1) {
        return fail_(words_[i_ + 1], "a skill bonus like +1");
      }
      bonus = true;
      i_ += 2;
    } else if (next_is_int(rating)) {
      i_ += 2;
    } else {
      ++i_;
    }
    switch (kind_) {
      case Kind::Runner:
      case Kind::Skills:
      case Kind::Challenge:
      case Kind::Objective:
        return add_rating(out_.skills, skill, rating, w);
      case Kind::Gear:
        return add_rating(bonus ? out_.skill_bonus : out_.skills, skill, rating, w);
      case Kind::Threat:
        break;
    }
    return fail_(w, std::string(kShape));
  }

  Err item() {
    const Piece w = word();
    std::string_view t = w.text;
    // "(A2)" → "A2"
    if (t.size() > 2 && t.front() == '(' && t.back() == ')') t = t.substr(1, t.size() - 2);
    const std::string lw = lower(t);
    const bool threat_ok = kind_ != Kind::Skills;
    Threat th;
    if (threat_ok && t == "-") {
      if (kind_ == Kind::Runner || kind_ == Kind::Threat) {
        return fail_(w, "a Threat Rating A/B (a runner always has one)");
      }
      if (out_.threat || out_.no_threat) return fail_(w, "one Threat Rating");
      out_.no_threat = true;
      ++i_;
      return std::nullopt;
    }
    if (threat_ok && parse_ab(t, th)) {
      if (out_.threat || out_.no_threat) return fail_(w, "one Threat Rating");
      out_.threat = th;
      ++i_;
      return std::nullopt;
    }
    if (threat_ok && (t.starts_with('+') || t.starts_with('-')) && t.find('/') != t.npos) {
      if (!parse_mod(t, th)) return fail_(w, "a modifier like +3/+0 or +2/-2");
      if (kind_ == Kind::Threat) return fail_(w, "A/B and armor only");
      out_.mod.attack += th.attack;
      out_.mod.body += th.body;
      ++i_;
      return std::nullopt;
    }
    if (threat_ok && (t[0] == 'A' || t[0] == 'a') && t.size() >= 2 &&
        (std::isdigit(static_cast<unsigned char>(t[1])) != 0 || t[1] == '+')) {
      int n = 0;
      if (t[1] == '+') {
        if (!parse_int(t.substr(2), n)) return fail_(w, "additive armor like A+1");
        out_.armor.add += n;
      } else {
        if (!parse_int(t.substr(1), n)) return fail_(w, "armor like A2");
        out_.armor.flat = std::max(out_.armor.flat, n);
      }
      ++i_;
      return std::nullopt;
    }
    if (kind_ == Kind::Threat) return fail_(w, "a Threat Rating A/B with an optional armor An");
    // Skill, maybe "Skill:N".
    {
      std::string_view head = t;
      std::string_view rating;
      if (const auto c = t.find(':'); c != std::string_view::npos) {
        head = t.substr(0, c);
        rating = t.substr(c + 1);
      }
      const std::string skill = skill_name(head);
      if (!skill.empty()) return skill_item(skill, w, rating);
      const std::string trait = trait_name(head);
      if (!trait.empty()) {
        if (kind_ != Kind::Runner && kind_ != Kind::Skills) {
          return fail_(w, "a trait only on a runner");
        }
        int r = 1;
        if (!rating.empty()) {
          if (!parse_int(rating, r)) return fail_(w, "Trait:N with N a whole number");
          ++i_;
        } else if (next_is_int(r)) {
          i_ += 2;
        } else {
          ++i_;
        }
        return add_rating(out_.traits, trait, r, w);
      }
      if (!rating.empty()) return fail_(w, "Skill:N with a skill or trait name");
    }
    if (kind_ == Kind::Skills) {
      return fail_(w, "a skill (Piloting, Social, …) with an optional rating, or a trait");
    }
    if (lw == "cost") {
      if (i_ + 1 >= words_.size()) return fail_.at_end("a cost N or N/U after 'cost'");
      const Piece v = words_[i_ + 1];
      Threat cu;
      if (parse_ab(v.text, cu)) {
        out_.cost = cu.attack;
        out_.upkeep = cu.body;
      } else if (!parse_int(v.text, out_.cost)) {
        return fail_(v, "a cost N or N/U (deploy / upkeep)");
      }
      i_ += 2;
      return std::nullopt;
    }
    if (lw == "upkeep") return take_int(out_.upkeep, "an upkeep in ¥");
    if (lw == "unique") {
      out_.unique = true;
      ++i_;
      return std::nullopt;
    }
    if (lw == "ap" || lw == "armor-piercing") {
      out_.armor_piercing = true;
      ++i_;
      return std::nullopt;
    }
    if (lw == "keyword") {
      if (i_ + 1 >= words_.size()) return fail_.at_end("a keyword after 'keyword'");
      const Piece v = words_[i_ + 1];
      const std::string k = lower(v.text);
      if (!valid_keyword(k)) return fail_(v, "a keyword (letters, digits, '-')");
      i_ += 2;
      return add_keyword(k, v);
    }
    if (lw == "pump" && kind_ != Kind::Gear && kind_ != Kind::Objective) {
      if (i_ + 2 >= words_.size()) return fail_.at_end("pump C +a/+b");
      const Piece c = words_[i_ + 1];
      const Piece m = words_[i_ + 2];
      std::string_view ct = c.text;
      if (ct.ends_with("\xC2\xA5")) ct.remove_suffix(2);  // "2¥"
      if (!parse_int(ct, out_.pump.cost) || out_.pump.cost < 1) {
        return fail_(c, "a pump cost from 1 (pump C +a/+b)");
      }
      Threat pm;
      if (!parse_mod(m.text, pm)) return fail_(m, "a pump modifier like +2/+2");
      out_.pump.attack = pm.attack;
      out_.pump.body = pm.body;
      i_ += 3;
      return std::nullopt;
    }
    if (lw == "pumped" && kind_ != Kind::Gear && kind_ != Kind::Objective) {
      return take_int(out_.pumped, "how many pumps were bought");
    }
    if (kind_ == Kind::Runner) {
      if (lw == "prime") {
        out_.prime = true;
        ++i_;
        return std::nullopt;
      }
      if (lw == "dmg" || lw == "damage") return take_int(out_.damage, "damage tokens");
      if (lw == "burst") return take_int(out_.burst, "the Burst Fire roll");
      if (lw == "drone") return set_role(Role::Drone, w);
      if (lw == "spirit") return set_role(Role::Spirit, w);
      if (lw == "controller") return set_role(Role::Controller, w);
      if (lw == "indirect") return set_role(Role::Indirect, w);
      if (lw == "protect") {
        out_.protect = true;
        ++i_;
        return std::nullopt;
      }
      if (contains(kRunnerKeywords, lw)) {
        ++i_;
        return add_keyword(lw, w);
      }
    }
    if (kind_ == Kind::Challenge || kind_ == Kind::Objective) {
      if (contains(kChallengeKeywords, lw)) {
        ++i_;
        return add_keyword(lw, w);
      }
      if (lw.starts_with("no-") && contains(kChallengeKeywords, lw.substr(3))) {
        ++i_;
        return add_keyword(lw, w);
      }
    }
    if (kind_ == Kind::Challenge) {
      if (lw == "sleaze") {
        ++i_;
        return std::nullopt;
      }
      if (lw == "ends-run") {
        out_.ends_run = true;
        ++i_;
        return std::nullopt;
      }
    }
    if (kind_ == Kind::Objective) {
      if (lw == "requires") {
        ++i_;
        return std::nullopt;
      }
      if (lw == "rep") {
        if (out_.rep >= 0) return fail_(w, "one Reputation value");
        return take_int(out_.rep, "a Reputation value");
      }
    }
    if (kind_ == Kind::Gear) {
      for (GearType g : kGearTypes) {
        if (lw == gear_type_name(g)) {
          if (out_.gear_type) return fail_(w, "one gear type");
          out_.gear_type = g;
          ++i_;
          return std::nullopt;
        }
      }
      if (lw == "essence") return take_int(out_.essence, "an Essence cost");
      if (lw == "burst") return take_int(out_.burst_cost, "a Burst Fire cost in ¥");
      if (lw == "indirect") {
        out_.indirect = true;
        ++i_;
        return std::nullopt;
      }
      if (lw == "silenced") {
        out_.silenced = true;
        ++i_;
        return std::nullopt;
      }
    }
    return fail_(w, std::string(kShape));
  }

  Kind kind_;
  Failer fail_;
  std::string_view text_;
  std::vector<Piece> words_;
  std::size_t i_ = 0;
  Parsed out_;
};

std::string join_words(const std::vector<std::string>& words) {
  return fmt::format("{}", fmt::join(words, " "));
}

std::string armor_text(const Armor& a) {
  std::vector<std::string> parts;
  if (a.flat > 0) parts.push_back(fmt::format("A{}", a.flat));
  if (a.add > 0) parts.push_back(fmt::format("A+{}", a.add));
  return join_words(parts);
}

std::string mod_text(const Threat& m) {
  return fmt::format("{:+d}/{:+d}", m.attack, m.body);
}

std::string keyword_text(const std::string& k, const std::vector<std::string>& known,
                         bool restrictions) {
  if (contains(known, k)) return k;
  if (restrictions && k.starts_with("no-") && contains(known, k.substr(3))) return k;
  return "keyword " + k;
}

std::string ratings_words(const Ratings& r) {
  std::vector<std::string> parts;
  for (const auto& [name, rating] : r)
    parts.push_back(rating == 1 ? name : fmt::format("{} {}", name, rating));
  return fmt::format("{}", fmt::join(parts, "; "));
}

/// "NAME: item; item; …" without empty items.
std::string assemble(const std::string& name, const std::vector<std::string>& items) {
  std::vector<std::string> kept;
  for (const auto& it : items) {
    if (!it.empty()) kept.push_back(it);
  }
  const std::string body = fmt::format("{}", fmt::join(kept, "; "));
  if (name.empty()) return body.empty() ? std::string() : body;
  return body.empty() ? name + ":" : name + ": " + body;
}

}  // namespace

std::string skill_name(std::string_view word) {
  const std::string lw = lower(word);
  for (const auto& s : kSkills) {
    if (lower(s) == lw) return s;
  }
  if (lw == "pilot") return "Piloting";
  return {};
}

std::string trait_name(std::string_view word) {
  const std::string lw = lower(word);
  if (lw == "antisocial" || lw == "anti-social") return "Anti-social";
  for (const auto& t : kTraits) {
    if (lower(t) == lw) return t;
  }
  return {};
}

const std::vector<std::string>& all_skills() {
  return kSkills;
}

std::string threat_text(const std::optional<Threat>& threat, const Armor& armor) {
  std::string out = threat ? fmt::format("{}/{}", threat->attack, threat->body) : "-";
  const std::string a = armor_text(armor);
  return a.empty() ? out : out + " " + a;
}

std::string ratings_text(const Ratings& ratings) {
  std::vector<std::string> parts;
  for (const auto& [name, rating] : ratings)
    parts.push_back(rating == 1 ? name : fmt::format("{} {}", name, rating));
  return fmt::format("{}", fmt::join(parts, ", "));
}

namespace {

RunnerCard to_runner(Parsed&& p) {
  RunnerCard c;
  c.name = std::move(p.name);
  c.threat = p.threat.value_or(Threat{});
  c.mod = p.mod;
  c.armor = p.armor;
  c.skills = std::move(p.skills);
  c.traits = std::move(p.traits);
  c.keywords = std::move(p.keywords);
  c.cost = p.cost;
  c.upkeep = p.upkeep;
  c.prime = p.prime;
  c.unique = p.unique;
  c.pump = p.pump;
  c.damage = p.damage;
  c.pumped = p.pumped;
  c.burst = p.burst;
  c.armor_piercing = p.armor_piercing;
  c.protect = p.protect;
  c.role = p.role;
  return c;
}

Expected<RunnerCard, SpecError> runner_from(std::string_view text, Kind kind, bool commas) {
  CardParser parser(kind,
                    kind == Kind::Threat   ? "Threat Rating"
                    : kind == Kind::Skills ? "skills"
                                           : "runner",
                    text);
  auto p = parser.run(commas);
  if (!p) return p.error();
  if (kind != Kind::Skills && !p->threat) {
    return SpecError{kind == Kind::Threat ? "Threat Rating" : "runner", std::string(text), 0,
                     std::max<std::size_t>(text.size(), 1),
                     "a Threat Rating A/B, e.g. 6/4 or 5/8 A2"};
  }
  return to_runner(std::move(*p));
}

}  // namespace

Expected<RunnerCard, SpecError> parse_threat(std::string_view text) {
  return runner_from(text, Kind::Threat, true);
}

Expected<RunnerCard, SpecError> parse_runner(std::string_view text) {
  return runner_from(text, Kind::Runner, true);
}

Expected<RunnerCard, SpecError> parse_skills(std::string_view text) {
  return runner_from(text, Kind::Skills, true);
}

Expected<std::vector<RunnerCard>, SpecError> parse_runner_list(std::string_view text) {
  std::vector<RunnerCard> out;
  if (text.size() > kMaxSpecLength * 4) {
    return SpecError{"runner", std::string(text.substr(0, 20)), 0, 1, "a shorter list"};
  }
  std::size_t start = 0;
  for (std::size_t i = 0; i <= text.size(); ++i) {
    if (i < text.size() && text[i] != ',') continue;
    const std::string_view piece = text.substr(start, i - start);
    if (trim(piece).empty()) {
      return SpecError{"runner", std::string(text), start, 1,
                       "a runner between the commas, like 6/4"};
    }
    auto r = runner_from(piece, Kind::Runner, false);
    if (!r) {
      SpecError e = r.error();
      e.text = std::string(text);
      e.position += start;
      if (e.position > text.size()) e.position = text.size();
      return e;
    }
    // A card whose damage tokens already reach its Body is dead: it is trashed, not on the run.
    const int body = r->threat.body + r->mod.body + r->pumped * r->pump.body;
    if (r->damage > 0 && r->damage >= body && r->role != Role::Indirect) {
      std::size_t at = start;
      const std::string low = lower(piece);
      for (const char* key : {"dmg", "damage"}) {
        if (const auto k = low.find(key); k != std::string::npos) {
          at = start + k;
          break;
        }
      }
      return SpecError{"runner", std::string(text), at, 3,
                       fmt::format("damage below its Body {} (dmg {} means it is dead: trash it, "
                                   "it goes on no run)",
                                   body, r->damage)};
    }
    out.push_back(std::move(*r));
    start = i + 1;
  }
  return out;
}

Expected<ChallengeCard, SpecError> parse_challenge(std::string_view text) {
  CardParser parser(Kind::Challenge, "Challenge", text);
  auto p = parser.run(true);
  if (!p) return p.error();
  if (!p->threat && !p->no_threat) {
    return SpecError{"Challenge", std::string(text), 0, std::max<std::size_t>(text.size(), 1),
                     "a Threat Rating A/B, or '-' for none"};
  }
  if (p->ends_run && p->threat) {
    return SpecError{"Challenge", std::string(text), 0, std::max<std::size_t>(text.size(), 1),
                     "ends-run only on a Challenge without a Threat Rating ('-')"};
  }
  ChallengeCard c;
  c.name = std::move(p->name);
  c.threat = p->threat;
  c.mod = p->mod;
  c.armor = p->armor;
  c.armor_piercing = p->armor_piercing;
  c.sleaze = std::move(p->skills);
  c.ends_run = p->ends_run;
  c.keywords = std::move(p->keywords);
  c.cost = p->cost;
  c.unique = p->unique;
  c.pump = p->pump;
  c.pumped = p->pumped;
  return c;
}

Expected<ObjectiveCard, SpecError> parse_objective(std::string_view text) {
  CardParser parser(Kind::Objective, "Objective", text);
  auto p = parser.run(true);
  if (!p) return p.error();
  if (p->rep < 0) {
    return SpecError{"Objective", std::string(text), text.size(), 1, "its Reputation value: rep N"};
  }
  ObjectiveCard c;
  c.name = std::move(p->name);
  c.rep = p->rep;
  c.threat = p->threat;
  c.mod = p->mod;
  c.armor = p->armor;
  c.armor_piercing = p->armor_piercing;
  c.requirements = std::move(p->skills);
  c.keywords = std::move(p->keywords);
  c.unique = p->unique;
  return c;
}

Expected<GearCard, SpecError> parse_gear(std::string_view text) {
  CardParser parser(Kind::Gear, "Gear", text);
  auto p = parser.run(true);
  if (!p) return p.error();
  if (!p->gear_type) {
    return SpecError{"Gear", std::string(text), text.size(), 1,
                     "a gear type: accessory, armor, cyberware, cyberdeck, drone, misc, program, "
                     "spell, spirit, vehicle or weapon"};
  }
  const bool fights = *p->gear_type == GearType::Drone || *p->gear_type == GearType::Spirit;
  if (p->threat && !fights) {
    return SpecError{"Gear", std::string(text), 0, std::max<std::size_t>(text.size(), 1),
                     "a Threat Rating only on a drone or spirit (others give +a/+b)"};
  }
  if (p->essence > 0 && *p->gear_type != GearType::Cyberware) {
    return SpecError{"Gear", std::string(text), 0, std::max<std::size_t>(text.size(), 1),
                     "essence only on cyberware"};
  }
  GearCard g;
  g.name = std::move(p->name);
  g.type = *p->gear_type;
  g.mod = p->mod;
  g.threat = p->threat;
  g.armor = p->armor;
  g.essence = p->essence;
  g.needs = std::move(p->skills);
  g.bonus = std::move(p->skill_bonus);
  g.burst_cost = p->burst_cost;
  g.indirect = p->indirect;
  g.silenced = p->silenced;
  g.armor_piercing = p->armor_piercing;
  g.keywords = std::move(p->keywords);
  g.cost = p->cost;
  g.upkeep = p->upkeep;
  g.unique = p->unique;
  return g;
}

Expected<Ratings, SpecError> parse_requirement(std::string_view text) {
  auto r = parse_skills(text);
  if (!r) {
    SpecError e = r.error();
    e.what = "requirement";
    return e;
  }
  if (!r->traits.empty()) {
    return SpecError{"requirement", std::string(text), 0, std::max<std::size_t>(text.size(), 1),
                     "skills only (a requirement names skills, like Piloting:3)"};
  }
  if (r->skills.empty()) {
    return SpecError{"requirement", std::string(text), 0, std::max<std::size_t>(text.size(), 1),
                     "at least one skill, like Piloting:3"};
  }
  return r->skills;
}

std::string to_notation(const RunnerCard& c) {
  std::vector<std::string> items;
  items.push_back(threat_text(c.threat, c.armor));
  if (c.mod != Threat{}) items.push_back(mod_text(c.mod));
  items.push_back(ratings_words(c.skills));
  items.push_back(ratings_words(c.traits));
  for (const auto& k : c.keywords)
    items.push_back(keyword_text(k, kRunnerKeywords, false));
  if (c.cost != 0 || c.upkeep != 0) {
    items.push_back(c.upkeep != 0 ? fmt::format("cost {}/{}", c.cost, c.upkeep)
                                  : fmt::format("cost {}", c.cost));
  }
  if (c.prime) items.emplace_back("prime");
  if (c.unique) items.emplace_back("unique");
  if (c.pump.cost > 0) {
    items.push_back(fmt::format("pump {} {}", c.pump.cost, mod_text({c.pump.attack, c.pump.body})));
  }
  if (c.pumped > 0) items.push_back(fmt::format("pumped {}", c.pumped));
  if (c.damage > 0) items.push_back(fmt::format("dmg {}", c.damage));
  if (c.burst > 0) items.push_back(fmt::format("burst {}", c.burst));
  if (c.armor_piercing) items.emplace_back("ap");
  if (c.protect) items.emplace_back("protect");
  switch (c.role) {
    case Role::Runner:
      break;
    case Role::Drone:
      items.emplace_back("drone");
      break;
    case Role::Spirit:
      items.emplace_back("spirit");
      break;
    case Role::Controller:
      items.emplace_back("controller");
      break;
    case Role::Indirect:
      items.emplace_back("indirect");
      break;
  }
  return assemble(c.name, items);
}

std::string to_notation(const ChallengeCard& c) {
  std::vector<std::string> items;
  items.push_back(threat_text(c.threat, c.armor));
  if (c.mod != Threat{}) items.push_back(mod_text(c.mod));
  if (!c.sleaze.empty()) items.push_back("sleaze " + ratings_words(c.sleaze));
  if (c.ends_run) items.emplace_back("ends-run");
  if (c.armor_piercing) items.emplace_back("ap");
  for (const auto& k : c.keywords)
    items.push_back(keyword_text(k, kChallengeKeywords, true));
  if (c.cost != 0) items.push_back(fmt::format("cost {}", c.cost));
  if (c.unique) items.emplace_back("unique");
  if (c.pump.cost > 0) {
    items.push_back(fmt::format("pump {} {}", c.pump.cost, mod_text({c.pump.attack, c.pump.body})));
  }
  if (c.pumped > 0) items.push_back(fmt::format("pumped {}", c.pumped));
  return assemble(c.name, items);
}

std::string to_notation(const ObjectiveCard& c) {
  std::vector<std::string> items;
  items.push_back(fmt::format("rep {}", c.rep));
  if (c.threat || c.armor != Armor{}) {
    if (c.threat)
      items.push_back(threat_text(c.threat, c.armor));
    else
      items.push_back(armor_text(c.armor));
  }
  if (c.mod != Threat{}) items.push_back(mod_text(c.mod));
  if (!c.requirements.empty()) items.push_back("requires " + ratings_words(c.requirements));
  if (c.armor_piercing) items.emplace_back("ap");
  for (const auto& k : c.keywords)
    items.push_back(keyword_text(k, kChallengeKeywords, true));
  if (c.unique) items.emplace_back("unique");
  return assemble(c.name, items);
}

std::string to_notation(const GearCard& g) {
  std::vector<std::string> items;
  items.emplace_back(gear_type_name(g.type));
  if (g.threat)
    items.push_back(threat_text(g.threat, g.armor));
  else
    items.push_back(armor_text(g.armor));
  if (g.mod != Threat{}) items.push_back(mod_text(g.mod));
  if (!g.needs.empty()) items.push_back(ratings_words(g.needs));
  for (const auto& [name, n] : g.bonus)
    items.push_back(fmt::format("{} +{}", name, n));
  if (g.essence > 0) items.push_back(fmt::format("essence {}", g.essence));
  if (g.burst_cost >= 0) items.push_back(fmt::format("burst {}", g.burst_cost));
  if (g.indirect) items.emplace_back("indirect");
  if (g.silenced) items.emplace_back("silenced");
  if (g.armor_piercing) items.emplace_back("ap");
  for (const auto& k : g.keywords)
    items.push_back("keyword " + k);
  if (g.cost != 0 || g.upkeep != 0) {
    items.push_back(g.upkeep != 0 ? fmt::format("cost {}/{}", g.cost, g.upkeep)
                                  : fmt::format("cost {}", g.cost));
  }
  if (g.unique) items.emplace_back("unique");
  return assemble(g.name, items);
}

}  // namespace duels::cards::srtcg
