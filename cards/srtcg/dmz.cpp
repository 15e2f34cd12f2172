#include "cards/srtcg/dmz.hpp"

#include <algorithm>
#include <cstdlib>

namespace duels::cards::srtcg {

namespace {

constexpr std::array<std::pair<DmzAttack, const char*>, 5> kAttackNames = {{
    {DmzAttack::Ranged, "ranged"},
    {DmzAttack::Melee, "melee"},
    {DmzAttack::Counter, "counter"},
    {DmzAttack::Indirect, "indirect"},
    {DmzAttack::Barrier, "barrier"},
}};

}  // namespace

std::optional<DmzAttack> dmz_attack(const std::string& word) {
  for (const auto& [a, name] : kAttackNames) {
    if (word == name) return a;
  }
  return std::nullopt;
}

const char* dmz_attack_name(DmzAttack attack) {
  for (const auto& [a, name] : kAttackNames) {
    if (a == attack) return name;
  }
  return "?";
}

int dmz_target(DmzAttack attack) {
  switch (attack) {
    case DmzAttack::Ranged:
      return 4;
    case DmzAttack::Melee:
      return 3;
    case DmzAttack::Counter:
    case DmzAttack::Indirect:
      return 6;
    case DmzAttack::Barrier:
      return 1;
  }
  return 6;
}

int dmz_skill_bonus(int rating, int required) {
  return std::max(0, rating - required);
}

bool dmz_hits(DmzAttack attack, int natural, int bonus, bool moving) {
  if (attack == DmzAttack::Barrier) return true;
  if (natural <= 1) return false;
  if (natural >= 6) return true;
  return natural + bonus - (moving ? 1 : 0) >= dmz_target(attack);
}

int dmz_hit_faces(DmzAttack attack, int bonus, bool moving) {
  int faces = 0;
  for (int d = 1; d <= 6; ++d)
    faces += dmz_hits(attack, d, bonus, moving) ? 1 : 0;
  return faces;
}

bool dmz_wound_removes(int roll, int wounds) {
  return roll < wounds;
}

double dmz_removal_chance(int wounds) {
  return std::clamp((wounds - 1) / 6.0, 0.0, 1.0);
}

DmzGrid dmz_grid(int players) {
  DmzGrid g;
  const int extra = std::max(0, players - 2);
  g.columns = 4 + extra;
  g.rows = 4 + extra;
  g.entry_blocks = players >= 3 ? 3 : 0;
  return g;
}

bool dmz_adjacent(int col_a, int row_a, int col_b, int row_b) {
  return std::abs(col_a - col_b) + std::abs(row_a - row_b) == 1;
}

Exploration dmz_exploration(int runners, int events) {
  const int r = std::max(0, runners);
  const int e = std::max(0, events);
  return Exploration{std::min(r, e), r >= e};
}

int dmz_events_to_draw(int hand) {
  return std::clamp(kDmzHand - hand, 0, kDmzDraw);
}

bool dmz_block_takes_event(int events, bool occupied) {
  return !occupied && events < kDmzBlockEvents;
}

int dmz_safehouse_heal(int damage) {
  return std::max(0, damage - 2);
}

int dmz_barrier_body(const std::vector<Builder>& builders) {
  int body = 0;
  for (const Builder& b : builders)
    body += std::max(0, b.attack) * (b.technical ? 2 : 1);
  return body;
}

Growth dmz_growth(int roll, int kind_roll, int side_roll) {
  Growth g;
  g.grows = roll >= 5;
  if (!g.grows) return g;
  g.column = kind_roll <= 3;
  const bool first_side = side_roll % 2 == 1;
  g.side = g.column ? (first_side ? "left" : "right") : (first_side ? "top" : "bottom");
  return g;
}

std::optional<BlockPick> dmz_landslide_block(const std::vector<int>& rolls, int columns, int rows) {
  BlockPick p;
  std::size_t i = 0;
  const auto next = [&](int limit) -> int {
    while (i < rolls.size()) {
      const int r = rolls[i++];
      if (r >= 1 && r <= limit) return r;
    }
    return 0;
  };
  p.column = next(columns);
  if (p.column == 0) return std::nullopt;
  p.row = next(rows);
  if (p.row == 0) return std::nullopt;
  p.rolls_used = static_cast<int>(i);
  return p;
}

Slide dmz_landslide_runner(int roll, const std::array<std::string, 4>& directions) {
  Slide s;
  if (roll >= 1 && roll <= 4) {
    s.moves = true;
    s.direction = directions[static_cast<std::size_t>(roll - 1)];
  } else {
    s.damage = 1;
  }
  return s;
}

bool dmz_salvage(int roll, int wounds) {
  return roll > wounds;
}

int dmz_nabl_budget(int budget, int roll, bool winner) {
  return budget + roll + (winner ? 4 : 0);
}

}  // namespace duels::cards::srtcg
