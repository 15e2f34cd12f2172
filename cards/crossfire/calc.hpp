#pragma once
/// @file The Crossfire calculators (spec B2.6–B2.13, B3): nuyen payout, damage packets and the
/// incoming-damage forecast, Scene flip forecasts, the Extraction track, Crossfire draw schedule,
/// Karma awards after scaling, and upgrade stickers. All pure functions of plain values.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/error.hpp"

namespace duels::cards::crossfire {

/// The missions the helper knows (custom: the table runs its own rules).
enum class Mission : std::uint8_t { Crossfire, Extraction, Dragon, Custom };
/// "crossfire", "extraction", "dragon", "custom".
const char* mission_name(Mission m);
std::optional<Mission> mission_from(std::string_view word);

/// How a run ended.
enum class Result : std::uint8_t { Win, Abort, Loss };
const char* result_name(Result r);
std::optional<Result> result_from(std::string_view word);

// ---- Nuyen (B2.6) ---------------------------------------------------------------------------

/// Coins of an obstacle worth `value`¥ handed out one at a time from seat `first`, clockwise
/// (seat i+1 after seat i), skipping seats that are not `eligible` (the Client). An empty
/// `eligible` means everyone. The result has one entry per seat. If `first` is not eligible the
/// next eligible seat clockwise starts.
std::vector<int> payout(int value, int seats, int first, const std::vector<bool>& eligible = {});

// ---- Damage to runners (B2.7, B2.8) ----------------------------------------------------------

/// A runner's health.
struct Health {
  int hp = 0;
  int max_hp = 0;
  bool staggered = false;
  bool critical = false;
  friend bool operator==(const Health&, const Health&) = default;
};

/// What one damage packet did.
struct PacketResult {
  Health after;
  bool became_staggered = false;
  bool became_critical = false;
};
/// Applies one packet: a staggered runner hit by anything goes critical; otherwise hp drops and
/// a runner below 1 is staggered at 0. One packet never both staggers and criticals.
PacketResult apply_packet(const Health& h, int packet);

/// What healing did.
struct HealResult {
  Health after;
  int healed = 0;
  bool recovered = false;  ///< was staggered and is not now: draw 2 at once
};
/// Heals up to max HP. Healing a staggered runner by 1 or more ends the stagger.
HealResult heal(const Health& h, int amount);

/// One attacker facing a runner in the forecast.
struct Attacker {
  std::string name;
  int attack = 0;        ///< attack strength plus modifiers, plus "when it attacks" damage
  int faces = 0;         ///< seat it faces
  bool stopped = false;  ///< can't attack this turn (Whip, Striker, …)
};

/// The forecast for one runner: the packet, and what it does.
struct IncomingForecast {
  int seat = 0;
  std::string name;
  int packet = 0;
  Health before;
  PacketResult result;
  std::vector<std::string> attackers;  ///< names of the attackers in the packet
  /// For each attacker: the packet without it and whether that avoids the stagger/critical.
  struct WithoutOne {
    std::string attacker;
    int packet = 0;
    bool avoids = false;
  };
  std::vector<WithoutOne> without;
  std::string warning;  ///< "" or "STAGGERED (hp 3 - 4)" / "CRITICAL: the run is aborted"
};
/// Forecasts the packets of every seat, in resolution order: `current` first, then clockwise.
/// `names` and `health` are per seat.
std::vector<IncomingForecast> forecast_incoming(const std::vector<std::string>& names,
                                                const std::vector<Health>& health,
                                                const std::vector<Attacker>& attackers,
                                                int current);

// ---- Decks (A-2) ------------------------------------------------------------------------------

/// A deck and its discard, as counts.
struct Pile {
  int deck = 0;
  int discard = 0;
  friend bool operator==(const Pile&, const Pile&) = default;
};
/// Drawing or revealing `n` cards: the rest of the deck, then the discard shuffled in to finish;
/// stops when both are empty.
struct DrawResult {
  Pile after;
  int drawn = 0;
  bool reshuffled = false;
  bool short_by_cards = false;  ///< fewer than n were there
};
DrawResult draw_cards(const Pile& pile, int n);

// ---- Card arithmetic (B2.14) --------------------------------------------------------------------

/// Katana: every other Weapon played this turn deals +1 to each obstacle it damages, per Katana.
/// The bonus for one Weapon card when `katanas` Katanas were played (a Katana boosts the other
/// Katanas, not itself), times the obstacles it damages (Remington Roomsweeper: once per
/// target).
int katana_bonus(int katanas, bool is_katana, int targets = 1);

/// Press the Advantage, as in the book's example: cards are revealed until a card type repeats;
/// the cards before the repeat are drawn, the repeat stays on top of the deck.
struct Reveal {
  int drawn = 0;
  bool repeat_on_top = false;
};
Reveal press_the_advantage(const std::vector<std::string>& revealed_types);

// ---- Crossfire level, Scenes and missions (B2.2, B2.12) --------------------------------------

/// Whether the starting runner draws a Crossfire card in `round` (1-based).
/// Crossfire mission: none in round 1 with 3 runners, none in rounds 1-2 with 2 runners.
/// Dragon Fight: from round 3, or 2 (Trouble Brewing), or 1 (Let's Get Serious).
/// Extraction and custom: every round.
bool crossfire_draw_due(Mission mission, int runners, int round, bool trouble_brewing = false,
                        bool lets_get_serious = false);

/// How many obstacles to flip from which deck, and why.
struct FlipForecast {
  int total = 0;
  int hard = 0;
  int normal = 0;
  std::string why;
};
/// Crossfire mission, start of `scene` (1-3): T = runners + scene - 1 (+1 with Bring It On);
/// Hard = min(level, T) first, then Normal.
FlipForecast crossfire_scene_flip(int runners, int scene, int level, bool bring_it_on);
/// Dragon Fight, each round: 3 obstacles (4 with Minions Unending), Hard first up to the level.
FlipForecast dragon_round_flip(int level, bool minions_unending);

/// One step of the Extraction progress track (B2.12) for 1-4 runners.
struct ExtractionStep {
  int step = 0;
  int draw_each = 0;  ///< each runner draws this many
  int heal_all = 0;   ///< every runner and the Client heal this many
  int hard = 0;       ///< obstacles to flip (they face the Client)
  int normal = 0;
  bool scene_ends = false;
  int gain_nuyen = 0;   ///< solo: you gain this many ¥ and may buy 1 BM card
  bool escape = false;  ///< step 7: escape = win if the Client has 1 HP or more
  std::string text;
};
/// The step's instructions; Elite Response Team adds 1 Hard to every instruction that flips
/// Hard obstacles. Fails for a step outside 1-7 or runners outside 1-4.
Expected<ExtractionStep, std::string> extraction_step(int runners, int step,
                                                      bool elite_response_team);

// ---- Karma (B2.12, B2.13) --------------------------------------------------------------------

/// A bonus challenge and its Karma.
struct BonusChallenge {
  const char* name;
  const char* key;  ///< command-line word: bring-it-on, danger-zone, …
  Mission mission;
  int karma;
  bool repeatable;  ///< Danger Zone: once per runner
};
/// Every bonus challenge of the three missions.
const std::vector<BonusChallenge>& bonus_challenges();
/// The challenge with this key or name (any case, spaces or dashes), or nullptr.
const BonusChallenge* find_bonus(std::string_view word);

/// The scaling penalty for `karma_in_upgrades` (Crossfire and Extraction: 0-10 → 0, 11-30 → 1,
/// 31-50 → 2, 51-75 → 3, then +1 per further 25; Dragon Fight: 0-75 → 0, then +1 per 25).
int scaling_penalty(Mission mission, int karma_in_upgrades);

/// A runner's award, line by line.
struct KarmaAward {
  int base = 0;
  int bonus = 0;
  int penalty = 0;
  int total = 0;  ///< base + bonus - penalty, floored at 0
  std::vector<std::string> lines;
};
/// Rules for the award: bonus Karma only on a win unless `bonus_on_abort` (house rule).
/// Fails for a bonus of another mission, a non-repeatable bonus taken twice, Danger Zone taken
/// more than `runners` times, Trouble Brewing with Let's Get Serious, or an Extraction abort.
Expected<KarmaAward, std::string> karma_award(Mission mission, Result result,
                                              const std::vector<std::string>& bonuses,
                                              int karma_in_upgrades, int runners = 4,
                                              bool bonus_on_abort = false);

// ---- Upgrades (B2.13) ---------------------------------------------------------------------------

/// An upgrade sticker on a runner card.
struct Sticker {
  std::string name;
  int value = 0;
  int slot = 1;         ///< 1-based; slot 1 has no surcharge
  int nuyen_bonus = 0;  ///< +starting nuyen it gives (card text)
  int hp_bonus = 0;     ///< +max HP it gives (card text)
  friend bool operator==(const Sticker&, const Sticker&) = default;
};
/// value + 10 unless in slot 1.
int effective_cost(const Sticker& s);

/// A runner's stickers in the order they were stuck on (later ones cover earlier ones in the
/// same slot), checked against the Karma earned.
struct UpgradeCheck {
  std::vector<Sticker> top;  ///< the sticker showing in each slot, by slot
  int total = 0;             ///< Σ effective cost of the top stickers
  int karma = 0;
  bool legal = false;
  int short_by = 0;
  int nuyen_bonus = 0;
  int hp_bonus = 0;
  std::vector<std::string> problems;  ///< in words ("needs 15 more Karma (35)", duplicates)
};
UpgradeCheck check_upgrades(const std::vector<Sticker>& stuck, int karma_earned);

/// One way to add a sticker: covering a slot or a new slot, and what the layout then costs.
struct UpgradeOption {
  int slot = 0;
  bool covers = false;
  std::string covered;  ///< the sticker it covers
  UpgradeCheck check;
  std::string text;
};
/// Every way to add `sticker` (its slot ignored) to `stuck`: cover each occupied slot, or take
/// the next free slot; legal ones first, then by total cost.
std::vector<UpgradeOption> plan_upgrade(const std::vector<Sticker>& stuck, const Sticker& sticker,
                                        int karma_earned);

}  // namespace duels::cards::crossfire
