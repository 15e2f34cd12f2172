#include "cards/crossfire/calc.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <map>

namespace duels::cards::crossfire {

namespace {

std::string squash(std::string_view s) {
  std::string out;
  for (char c : s) {
    const auto u = static_cast<unsigned char>(c);
    if (std::isalnum(u) != 0) out += static_cast<char>(std::tolower(u));
  }
  return out;
}

}  // namespace

const char* mission_name(Mission m) {
  switch (m) {
    case Mission::Crossfire:
      return "crossfire";
    case Mission::Extraction:
      return "extraction";
    case Mission::Dragon:
      return "dragon";
    case Mission::Custom:
      return "custom";
  }
  return "custom";
}

std::optional<Mission> mission_from(std::string_view word) {
  const std::string w = squash(word);
  if (w == "crossfire") return Mission::Crossfire;
  if (w == "extraction") return Mission::Extraction;
  if (w == "dragon" || w == "dragonfight") return Mission::Dragon;
  if (w == "custom") return Mission::Custom;
  return std::nullopt;
}

const char* result_name(Result r) {
  switch (r) {
    case Result::Win:
      return "win";
    case Result::Abort:
      return "abort";
    case Result::Loss:
      return "loss";
  }
  return "loss";
}

std::optional<Result> result_from(std::string_view word) {
  const std::string w = squash(word);
  if (w == "win" || w == "won") return Result::Win;
  if (w == "abort" || w == "aborted") return Result::Abort;
  if (w == "loss" || w == "lost" || w == "lose") return Result::Loss;
  return std::nullopt;
}

std::vector<int> payout(int value, int seats, int first, const std::vector<bool>& eligible) {
  std::vector<int> out(static_cast<std::size_t>(std::max(seats, 0)), 0);
  if (seats <= 0 || value <= 0) return out;
  const auto ok = [&](int seat) {
    return eligible.empty() || (static_cast<std::size_t>(seat) < eligible.size() &&
                                eligible[static_cast<std::size_t>(seat)]);
  };
  std::vector<int> order;  // eligible seats from `first`, clockwise
  for (int k = 0; k < seats; ++k) {
    const int seat = ((first % seats + seats) % seats + k) % seats;
    if (ok(seat)) order.push_back(seat);
  }
  if (order.empty()) return out;
  const int n = static_cast<int>(order.size());
  for (int i = 0; i < n; ++i) {
    out[static_cast<std::size_t>(order[static_cast<std::size_t>(i)])] =
        value / n + (i < value % n ? 1 : 0);
  }
  return out;
}

PacketResult apply_packet(const Health& h, int packet) {
  PacketResult r{h, false, false};
  if (packet <= 0 || h.critical) return r;
  if (h.staggered) {
    r.after.critical = true;
    r.became_critical = true;
    return r;
  }
  r.after.hp = h.hp - packet;
  if (r.after.hp < 1) {
    r.after.hp = 0;
    r.after.staggered = true;
    r.became_staggered = true;
  }
  return r;
}

HealResult heal(const Health& h, int amount) {
  HealResult r{h, 0, false};
  if (amount <= 0 || h.critical) return r;
  r.after.hp = std::min(h.max_hp, h.hp + amount);
  r.healed = r.after.hp - h.hp;
  if (h.staggered) {
    r.after.staggered = false;
    r.recovered = true;
  }
  return r;
}

std::vector<IncomingForecast> forecast_incoming(const std::vector<std::string>& names,
                                                const std::vector<Health>& health,
                                                const std::vector<Attacker>& attackers,
                                                int current) {
  std::vector<IncomingForecast> out;
  const int n = static_cast<int>(health.size());
  if (n == 0) return out;
  const auto harmful = [](const PacketResult& r) {
    return r.became_staggered || r.became_critical;
  };
  for (int k = 0; k < n; ++k) {
    const int seat = ((current % n + n) % n + k) % n;
    IncomingForecast f;
    f.seat = seat;
    f.name = static_cast<std::size_t>(seat) < names.size() ? names[static_cast<std::size_t>(seat)]
                                                           : fmt::format("seat {}", seat);
    f.before = health[static_cast<std::size_t>(seat)];
    std::vector<const Attacker*> mine;
    for (const Attacker& a : attackers) {
      if (a.faces == seat && !a.stopped && a.attack > 0) {
        mine.push_back(&a);
        f.packet += a.attack;
        f.attackers.push_back(a.name);
      }
    }
    f.result = apply_packet(f.before, f.packet);
    if (f.result.became_critical) {
      f.warning = fmt::format("CRITICAL: {} is already staggered and takes {}; the run is aborted",
                              f.name, f.packet);
    } else if (f.result.became_staggered) {
      f.warning = fmt::format("STAGGERED: {} takes {} with {} HP", f.name, f.packet, f.before.hp);
    }
    for (const Attacker* a : mine) {
      IncomingForecast::WithoutOne w{a->name, f.packet - a->attack, false};
      w.avoids = harmful(f.result) && !harmful(apply_packet(f.before, w.packet));
      f.without.push_back(w);
    }
    out.push_back(std::move(f));
  }
  return out;
}

DrawResult draw_cards(const Pile& pile, int n) {
  DrawResult r{pile, 0, false, false};
  n = std::max(n, 0);
  const int from_deck = std::min(n, r.after.deck);
  r.after.deck -= from_deck;
  r.drawn = from_deck;
  if (r.drawn < n && r.after.discard > 0) {
    r.reshuffled = true;
    r.after.deck = r.after.discard;
    r.after.discard = 0;
    const int more = std::min(n - r.drawn, r.after.deck);
    r.after.deck -= more;
    r.drawn += more;
  }
  r.short_by_cards = r.drawn < n;
  return r;
}

int katana_bonus(int katanas, bool is_katana, int targets) {
  const int per_target = std::max(0, is_katana ? katanas - 1 : katanas);
  return per_target * std::max(0, targets);
}

Reveal press_the_advantage(const std::vector<std::string>& revealed_types) {
  Reveal r;
  std::vector<std::string> seen;
  for (const std::string& t : revealed_types) {
    const std::string key = squash(t);
    if (std::find(seen.begin(), seen.end(), key) != seen.end()) {
      r.repeat_on_top = true;
      return r;
    }
    seen.push_back(key);
    ++r.drawn;
  }
  return r;
}

bool crossfire_draw_due(Mission mission, int runners, int round, bool trouble_brewing,
                        bool lets_get_serious) {
  switch (mission) {
    case Mission::Crossfire:
      if (runners == 3) return round >= 2;
      if (runners == 2) return round >= 3;
      return round >= 1;
    case Mission::Dragon:
      if (lets_get_serious) return round >= 1;
      if (trouble_brewing) return round >= 2;
      return round >= 3;
    case Mission::Extraction:
    case Mission::Custom:
      return round >= 1;
  }
  return true;
}

FlipForecast crossfire_scene_flip(int runners, int scene, int level, bool bring_it_on) {
  FlipForecast f;
  f.total = runners + (scene - 1) + (bring_it_on ? 1 : 0);
  f.total = std::max(f.total, 0);
  f.hard = std::clamp(level, 0, f.total);
  f.normal = f.total - f.hard;
  f.why = fmt::format(
      "Scene {}: {} runner{}{} → {} obstacle{}; Crossfire level {} → {} Hard first, "
      "then {} Normal",
      scene, runners, runners == 1 ? "" : "s",
      scene > 1 ? fmt::format(" + {}", scene - 1) : std::string(), f.total, f.total == 1 ? "" : "s",
      level, f.hard, f.normal);
  if (bring_it_on) f.why += " (Bring It On: +1 obstacle)";
  return f;
}

FlipForecast dragon_round_flip(int level, bool minions_unending) {
  FlipForecast f;
  f.total = minions_unending ? 4 : 3;
  f.hard = std::clamp(level, 0, f.total);
  f.normal = f.total - f.hard;
  f.why =
      fmt::format("Dragon Fight round: {} obstacles{}; Crossfire level {} → {} Hard, {} Normal",
                  f.total, minions_unending ? " (Minions Unending)" : "", level, f.hard, f.normal);
  return f;
}

Expected<ExtractionStep, std::string> extraction_step(int runners, int step, bool elite) {
  if (runners < 1 || runners > 4) return std::string("Extraction is for 1 to 4 runners");
  if (step < 1 || step > 7) return std::string("the Extraction track has steps 1 to 7");
  // Per step and player count (index runners-1): {draw, heal, hard, normal, scene end, ¥}.
  struct Row {
    int draw, heal, hard, normal;
    bool scene_end;
    int nuyen;
  };
  static constexpr std::array<std::array<Row, 4>, 6> kTrack = {{
      // 1 runner, 2, 3, 4
      {{{0, 0, 0, 1, false, 0},
        {0, 0, 0, 2, false, 0},
        {0, 0, 0, 3, false, 0},
        {0, 0, 0, 4, false, 0}}},
      {{{2, 0, 0, 1, false, 0},
        {1, 0, 1, 0, false, 0},
        {1, 0, 1, 0, false, 0},
        {1, 0, 2, 0, false, 0}}},
      {{{0, 1, 1, 0, true, 2},
        {0, 1, 0, 2, true, 0},
        {0, 1, 1, 1, true, 0},
        {0, 1, 1, 2, true, 0}}},
      {{{3, 0, 1, 0, false, 0},
        {2, 0, 1, 1, false, 0},
        {2, 0, 1, 2, false, 0},
        {2, 0, 2, 1, false, 0}}},
      {{{0, 2, 0, 2, true, 2},
        {0, 2, 1, 1, true, 0},
        {0, 2, 2, 1, true, 0},
        {0, 2, 2, 2, true, 0}}},
      {{{4, 0, 2, 1, false, 0},
        {3, 0, 2, 1, false, 0},
        {3, 0, 2, 3, false, 0},
        {3, 0, 3, 3, false, 0}}},
  }};
  ExtractionStep s;
  s.step = step;
  if (step == 7) {
    s.escape = true;
    s.text = "Step 7: escape — the team wins if the Client has 1 HP or more";
    return s;
  }
  const Row& r = kTrack[static_cast<std::size_t>(step - 1)][static_cast<std::size_t>(runners - 1)];
  s.draw_each = r.draw;
  s.heal_all = r.heal;
  s.hard = r.hard + (elite && r.hard > 0 ? 1 : 0);
  s.normal = r.normal;
  s.scene_ends = r.scene_end;
  s.gain_nuyen = r.nuyen;
  std::vector<std::string> parts;
  if (s.draw_each > 0) {
    parts.push_back(runners == 1 ? fmt::format("draw {}", s.draw_each)
                                 : fmt::format("each runner draws {}", s.draw_each));
  }
  if (s.heal_all > 0) {
    parts.push_back(fmt::format("{} and the Client heal {}", runners == 1 ? "you" : "every runner",
                                s.heal_all));
  }
  if (s.hard + s.normal > 0) {
    parts.push_back(fmt::format("flip {} Hard + {} Normal to face the Client{}", s.hard, s.normal,
                                elite && r.hard > 0 ? " (Elite Response Team: +1 Hard)" : ""));
  }
  if (s.gain_nuyen > 0) {
    parts.push_back(fmt::format("gain {}¥ and you may buy 1 Black Market card", s.gain_nuyen));
  }
  if (s.scene_ends) parts.emplace_back("the Scene ends");
  s.text = fmt::format("Step {}: {}", step, fmt::join(parts, "; "));
  return s;
}

const std::vector<BonusChallenge>& bonus_challenges() {
  static const std::vector<BonusChallenge> kAll = {
      {"Bring It On", "bring-it-on", Mission::Crossfire, 1, false},
      {"Danger Zone", "danger-zone", Mission::Crossfire, 2, true},
      {"Stepped-up Security", "stepped-up-security", Mission::Extraction, 1, false},
      {"EMT Gig", "emt-gig", Mission::Extraction, 1, false},
      {"Elite Response Team", "elite-response-team", Mission::Extraction, 3, false},
      {"Trouble Brewing", "trouble-brewing", Mission::Dragon, 1, false},
      {"Let's Get Serious", "lets-get-serious", Mission::Dragon, 2, false},
      {"I'm Closer Than You Think", "closer-than-you-think", Mission::Dragon, 2, false},
      {"Minions Unending", "minions-unending", Mission::Dragon, 3, false},
  };
  return kAll;
}

const BonusChallenge* find_bonus(std::string_view word) {
  const std::string w = squash(word);
  for (const BonusChallenge& b : bonus_challenges()) {
    if (w == squash(b.key) || w == squash(b.name)) return &b;
  }
  return nullptr;
}

int scaling_penalty(Mission mission, int k) {
  if (k <= 0) return 0;
  const auto beyond_75 = [](int karma) { return (karma - 75 + 24) / 25; };  // ceil((k-75)/25)
  if (mission == Mission::Dragon) return k <= 75 ? 0 : beyond_75(k);
  if (k <= 10) return 0;
  if (k <= 30) return 1;
  if (k <= 50) return 2;
  if (k <= 75) return 3;
  return 3 + beyond_75(k);
}

Expected<KarmaAward, std::string> karma_award(Mission mission, Result result,
                                              const std::vector<std::string>& bonuses,
                                              int karma_in_upgrades, int runners,
                                              bool bonus_on_abort) {
  KarmaAward a;
  if (mission == Mission::Custom) return std::string("a custom mission has no Karma table");
  if (karma_in_upgrades < 0) return std::string("Karma in upgrades cannot be negative");
  if (mission == Mission::Extraction && result == Result::Abort) {
    return std::string("Extraction allows no abort: a critical runner loses the mission");
  }
  std::map<std::string, int> taken;
  std::vector<const BonusChallenge*> chosen;
  for (const std::string& word : bonuses) {
    const BonusChallenge* b = find_bonus(word);
    if (b == nullptr) return fmt::format("unknown bonus challenge '{}'", word);
    if (b->mission != mission) {
      return fmt::format("{} is a bonus challenge of the {} mission", b->name,
                         mission_name(b->mission));
    }
    const int times = ++taken[b->key];
    if (times > 1 && !b->repeatable) return fmt::format("{} can be taken only once", b->name);
    if (b->repeatable && times > runners) {
      return fmt::format("{} can be taken at most once per runner ({})", b->name, runners);
    }
    chosen.push_back(b);
  }
  if (taken.count("trouble-brewing") > 0 && taken.count("lets-get-serious") > 0) {
    return std::string("Trouble Brewing and Let's Get Serious exclude each other");
  }
  static constexpr std::array<std::array<int, 3>, 3> kBase = {{
      {3, 1, 0},  // Crossfire: win, abort, loss
      {4, 0, 0},  // Extraction
      {7, 1, 0},  // Dragon Fight
  }};
  a.base = kBase[static_cast<std::size_t>(mission)][static_cast<std::size_t>(result)];
  a.lines.push_back(
      fmt::format("{} {}: {:+d}", mission_name(mission), result_name(result), a.base));
  const bool pays_bonus = result == Result::Win || (result == Result::Abort && bonus_on_abort);
  for (const BonusChallenge* b : chosen) {
    if (pays_bonus) {
      a.bonus += b->karma;
      a.lines.push_back(fmt::format("{}: {:+d}", b->name, b->karma));
    } else {
      a.lines.push_back(fmt::format("{}: +0 (bonus Karma is paid only on a win)", b->name));
    }
  }
  a.penalty = scaling_penalty(mission, karma_in_upgrades);
  a.lines.push_back(
      fmt::format("scaling, {} Karma in upgrades: -{}", karma_in_upgrades, a.penalty));
  a.total = std::max(0, a.base + a.bonus - a.penalty);
  if (a.base + a.bonus - a.penalty < 0) a.lines.emplace_back("floored at 0");
  a.lines.push_back(fmt::format("award: {}", a.total));
  return a;
}

int effective_cost(const Sticker& s) {
  return s.value + (s.slot == 1 ? 0 : 10);
}

UpgradeCheck check_upgrades(const std::vector<Sticker>& stuck, int karma) {
  UpgradeCheck c;
  c.karma = karma;
  std::map<int, Sticker> top;
  for (const Sticker& s : stuck) {
    if (s.slot < 1) {
      c.problems.push_back(fmt::format("{}: slots are numbered from 1", s.name));
      continue;
    }
    top[s.slot] = s;  // a later sticker covers the earlier one
  }
  std::map<std::string, int> names;
  for (const auto& [slot, s] : top) {
    c.top.push_back(s);
    c.total += effective_cost(s);
    c.nuyen_bonus += s.nuyen_bonus;
    c.hp_bonus += s.hp_bonus;
    if (++names[s.name] == 2) {
      c.problems.push_back(
          fmt::format("two upgrades named {} (a runner may hold only one)", s.name));
    }
  }
  c.short_by = std::max(0, c.total - karma);
  if (c.short_by > 0) {
    c.problems.push_back(fmt::format("needs {} more Karma ({})", c.short_by, c.total));
  }
  c.legal = c.problems.empty();
  return c;
}

std::vector<UpgradeOption> plan_upgrade(const std::vector<Sticker>& stuck, const Sticker& sticker,
                                        int karma) {
  std::vector<UpgradeOption> out;
  const UpgradeCheck now = check_upgrades(stuck, karma);
  int next_free = 1;
  for (const Sticker& s : now.top) {
    if (s.slot == next_free) ++next_free;
  }
  std::vector<int> slots;
  for (const Sticker& s : now.top)
    slots.push_back(s.slot);
  slots.push_back(next_free);
  for (int slot : slots) {
    UpgradeOption o;
    o.slot = slot;
    std::vector<Sticker> layout = stuck;
    Sticker added = sticker;
    added.slot = slot;
    for (const Sticker& s : now.top) {
      if (s.slot == slot) {
        o.covers = true;
        o.covered = s.name;
      }
    }
    layout.push_back(added);
    o.check = check_upgrades(layout, karma);
    o.text = fmt::format("{} {} in slot {} (costs {}): total {} of {} Karma — {}",
                         o.covers ? "cover " + o.covered + " with" : std::string("put"),
                         sticker.name, slot, effective_cost(added), o.check.total, karma,
                         o.check.legal ? std::string("legal")
                                       : fmt::format("{}", fmt::join(o.check.problems, "; ")));
    out.push_back(std::move(o));
  }
  std::stable_sort(out.begin(), out.end(), [](const UpgradeOption& a, const UpgradeOption& b) {
    if (a.check.legal != b.check.legal) return a.check.legal;
    return a.check.total < b.check.total;
  });
  return out;
}

}  // namespace duels::cards::crossfire
