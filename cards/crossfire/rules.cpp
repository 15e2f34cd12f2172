#include "cards/crossfire/rules.hpp"

#include "cards/common/text.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <map>

#include "cards/crossfire/json.hpp"

namespace duels::cards::crossfire {

namespace {

constexpr int kClientHp = 5;
constexpr int kMaxRunnersAtTable = 4;

using text::lower;

bool has_bonus(const State& s, std::string_view key) {
  return std::count(s.settings.bonuses.begin(), s.settings.bonuses.end(), std::string(key)) > 0;
}

int bonus_count(const State& s, std::string_view key) {
  return static_cast<int>(
      std::count(s.settings.bonuses.begin(), s.settings.bonuses.end(), std::string(key)));
}

/// Applies commands to a working copy and collects events.
class Engine {
 public:
  explicit Engine(const State& s) : s_(s) {}

  std::optional<Rejection> run(const Command& c) {
    auto why = std::visit([this](const auto& v) { return on(v); }, c);
    if (why) return why;
    settle();
    return std::nullopt;
  }

  State& state() { return s_; }
  std::vector<Event>& events() { return ev_; }

 private:
  static Rejection no(std::string why) { return Rejection{std::move(why)}; }

  void say(std::string type, std::string text) {
    ev_.push_back(Event{std::move(type), std::move(text)});
  }

  [[nodiscard]] int n() const { return static_cast<int>(s_.runners.size()); }
  [[nodiscard]] int left_of(int seat) const { return (seat + 1) % n(); }
  Runner& seat(int i) { return s_.runners[static_cast<std::size_t>(i)]; }
  [[nodiscard]] const Runner& seat(int i) const { return s_.runners[static_cast<std::size_t>(i)]; }
  [[nodiscard]] int client_seat() const {
    for (int i = 0; i < n(); ++i) {
      if (seat(i).client) return i;
    }
    return -1;
  }
  [[nodiscard]] int dragon_seat() const { return (s_.starting - 1 + n()) % n(); }
  [[nodiscard]] bool playing() const {
    return s_.phase != Phase::Setup && s_.phase != Phase::GameOver;
  }

  std::optional<Rejection> find_runner(std::string_view name, int& out) const {
    out = runner_index(s_, name);
    if (out < 0) return no(fmt::format("no runner named '{}'", name));
    return std::nullopt;
  }
  std::optional<Rejection> find_obstacle(std::string_view name, int& out) const {
    out = obstacle_index(s_, name);
    if (out < 0) {
      std::vector<std::string> names;
      for (const Obstacle& o : s_.obstacles)
        names.push_back(o.card.name);
      return no(fmt::format(
          "no obstacle '{}' in play{}", name,
          names.empty() ? std::string() : fmt::format(" (in play: {})", fmt::join(names, ", "))));
    }
    return std::nullopt;
  }

  // ---- life cycles ---------------------------------------------------------------------------

  void draw(int who, int count, const std::string& why) {
    Runner& r = seat(who);
    if (r.client || count <= 0) return;
    const DrawResult d = draw_cards(Pile{r.deck, r.discard}, count);
    r.deck = d.after.deck;
    r.discard = d.after.discard;
    r.hand += d.drawn;
    say("draw",
        fmt::format("{} draws {}{}{}{}", r.name, d.drawn, why.empty() ? "" : " (" + why + ")",
                    d.reshuffled ? "; the discard was shuffled into a new deck" : "",
                    d.short_by_cards ? "; deck and discard are empty" : ""));
  }

  void packet(int who, int amount, const std::string& source) {
    Runner& r = seat(who);
    if (r.critical || amount <= 0) {
      if (amount <= 0) say("packet", fmt::format("{} takes no damage{}", r.name, source));
      return;
    }
    const PacketResult p = apply_packet(Health{r.hp, r.max_hp, r.staggered, r.critical}, amount);
    r.hp = p.after.hp;
    r.staggered = p.after.staggered;
    r.critical = p.after.critical;
    say("packet", fmt::format("{} takes {}{}: HP {}", r.name, amount, source, r.hp));
    if (p.became_staggered) {
      if (!r.client) {
        r.deck += r.hand + r.discard;
        r.hand = 0;
        r.discard = 0;
      }
      say("staggered",
          r.client ? fmt::format("the Client is STAGGERED")
                   : fmt::format("{} is STAGGERED: hand, deck and discard shuffled into a new deck "
                                 "({} cards); draws 1 at the start of each turn, no draw 2 or "
                                 "buying",
                                 r.name, r.deck));
      if (r.client && s_.settings.mission == Mission::Extraction) {
        game_over(Result::Loss, "the Client is staggered");
      }
    }
    if (p.became_critical) {
      if (!r.client) {
        r.deck += r.hand + r.discard;
        r.hand = 0;
        r.discard = 0;
      }
      say("critical",
          fmt::format("{} goes CRITICAL: out of this run (fine in future games)", r.name));
      if (s_.settings.mission == Mission::Extraction) {
        game_over(Result::Loss,
                  fmt::format("{} went critical (Extraction allows no abort)", r.name));
      } else if (!s_.aborting) {
        s_.abort_pending = true;
        say("abort", "the run will be aborted: the abort round follows");
      }
    }
    check_loss();
  }

  void check_loss() {
    if (s_.phase == Phase::GameOver) return;
    bool anyone_up = false;
    for (const Runner& r : s_.runners) {
      if (!r.client && !r.staggered && !r.critical) anyone_up = true;
    }
    if (!anyone_up) game_over(Result::Loss, "every runner is staggered or critical");
  }

  void game_over(Result result, const std::string& reason) {
    if (s_.phase == Phase::GameOver) return;
    s_.phase = Phase::GameOver;
    s_.result = result;
    s_.end_reason = reason;
    s_.abort_pending = false;
    s_.aborting = false;
    s_.abort_queue.clear();
    say("game_over", fmt::format("{}: {}",
                                 result == Result::Win     ? "The team WINS"
                                 : result == Result::Abort ? "Successful ABORT"
                                                           : "The run is LOST",
                                 reason));
    if (s_.settings.mission == Mission::Custom) return;
    for (const Runner& r : s_.runners) {
      if (r.client) continue;
      auto award = karma_award(s_.settings.mission, result, s_.settings.bonuses,
                               r.karma_in_upgrades, runner_count(s_), s_.settings.bonus_on_abort);
      if (award) {
        say("karma", fmt::format("Karma for {}: {} ({})", r.name, award->total,
                                 fmt::join(award->lines, "; ")));
      }
    }
  }

  void heal_runner(int who, int amount) {
    Runner& r = seat(who);
    const HealResult h = heal(Health{r.hp, r.max_hp, r.staggered, r.critical}, amount);
    r.hp = h.after.hp;
    r.staggered = h.after.staggered;
    say("heal", fmt::format("{} heals {}: HP {}/{}", r.name, h.healed, r.hp, r.max_hp));
    if (h.recovered) {
      say("recovered", fmt::format("{} is no longer staggered", r.name));
      draw(who, 2, "healed while staggered");
    }
  }

  /// Active event to the bottom of the Crossfire deck: no level change, no timebomb.
  void event_to_bottom(const std::string& why) {
    if (!s_.active_event) return;
    say("event_removed", fmt::format("{} goes to the BOTTOM of the Crossfire deck ({}): the level "
                                     "stays {}, no timebomb",
                                     s_.active_event->name, why, crossfire_level(s_)));
    s_.active_event.reset();
    ++s_.decks.crossfire;
  }

  void begin_turn(int who) {
    s_.phase = Phase::Turn;
    s_.step = TurnStep::Play;
    s_.current = who;
    s_.played.clear();
    s_.types_played.clear();
    s_.aspect_fell_this_turn = false;
    for (Runner& r : s_.runners)
      r.pulled = false;
    Runner& r = seat(who);
    say("turn", fmt::format("{}'s turn{}", r.name, s_.aborting ? " (abort round)" : ""));
    if (s_.aborting) {
      for (Obstacle& o : s_.obstacles) {
        const Runner& faced = seat(o.facing);
        if (o.facing != who && (faced.staggered || faced.critical)) {
          say("moved", fmt::format("{} turns from {} to face {}", o.card.name, faced.name, r.name));
          o.facing = who;
        }
      }
    }
    for (const Obstacle& o : s_.obstacles) {
      if (o.facing == who && o.card.has(Timing::Start) && !o.abilities_cancelled) {
        say("reminder", fmt::format("{}: start-of-turn ability", o.card.name));
      }
    }
    if (r.staggered && !r.client) draw(who, 1, "staggered: start of turn");
  }

  void start_round() {
    ++s_.round;
    s_.drew_this_round = false;
    s_.phase = Phase::RoundStart;
    s_.current = s_.starting;
    const bool due = draw_due();
    say("round", fmt::format("Round {}: {}", s_.round,
                             due ? fmt::format("{} draws a Crossfire card", seat(s_.starting).name)
                                 : std::string("no Crossfire card this round")));
    if (s_.settings.mission == Mission::Dragon) s_.flip_pending = true;
  }

  [[nodiscard]] bool draw_due() const {
    return !s_.aborting &&
           crossfire_draw_due(s_.settings.mission, runner_count(s_), s_.round,
                              has_bonus(s_, "trouble-brewing"), has_bonus(s_, "lets-get-serious"));
  }

  void start_abort(int first) {
    s_.abort_pending = false;
    s_.aborting = true;
    event_to_bottom("the abort round");
    s_.abort_queue.clear();
    for (int k = 0; k < n(); ++k) {
      const int who = (first + k) % n();
      if (!seat(who).critical && !seat(who).client) s_.abort_queue.push_back(who);
    }
    say("abort_round", fmt::format("ABORT ROUND: {} turn{}, mission rules ignored",
                                   s_.abort_queue.size(), s_.abort_queue.size() == 1 ? "" : "s"));
    next_abort_turn();
  }

  void next_abort_turn() {
    while (!s_.abort_queue.empty() && seat(s_.abort_queue.front()).critical)
      s_.abort_queue.erase(s_.abort_queue.begin());
    if (s_.abort_queue.empty()) {
      bool standing = false;
      for (const Runner& r : s_.runners) {
        if (!r.client && !r.staggered && !r.critical) standing = true;
      }
      game_over(standing ? Result::Abort : Result::Loss,
                standing ? "the abort round ended with a runner neither staggered nor critical"
                         : "no runner got out unhurt in the abort round");
      return;
    }
    const int who = s_.abort_queue.front();
    s_.abort_queue.erase(s_.abort_queue.begin());
    begin_turn(who);
  }

  /// After the end of a turn (and any Scene end): whose turn is next.
  void next_turn(int after) {
    if (s_.phase == Phase::GameOver) return;
    if (s_.abort_pending && !s_.aborting) {
      start_abort(left_of(after));
      return;
    }
    if (s_.aborting) {
      next_abort_turn();
      return;
    }
    int next = left_of(after);
    if (next == s_.starting) {
      start_round();
      return;
    }
    // A critical runner takes no further turns (the abort round normally comes first).
    while (seat(next).critical && next != s_.starting)
      next = left_of(next);
    if (next == s_.starting) {
      start_round();
      return;
    }
    begin_turn(next);
  }

  /// Work that follows a command whatever it was: a critical during the Crossfire step starts
  /// the abort round at once with the starting runner.
  void settle() {
    if (s_.phase == Phase::RoundStart && s_.abort_pending && !s_.aborting) {
      start_abort(s_.starting);
    }
  }

  void defeat(std::size_t index, int payer) {
    const Obstacle o = s_.obstacles[index];
    s_.obstacles.erase(s_.obstacles.begin() + static_cast<std::ptrdiff_t>(index));
    say("defeated", fmt::format("{} is DEFEATED{}", o.card.name,
                                o.card.has(Timing::Defeated) && !o.abilities_cancelled
                                    ? ": resolve its DEFEATED: ability now"
                                    : ""));
    if (o.card.boss) {
      ++s_.aspects_defeated;
      s_.aspect_fell_this_turn = true;
    } else if (o.card.hard) {
      ++s_.decks.hard_discard;
    } else {
      ++s_.decks.normal_discard;
    }
    int first = payer;
    if (first >= 0 && seat(first).client) first = s_.starting;
    if (first < 0) first = s_.current;
    s_.last_defeater = payer >= 0 ? payer : s_.current;
    if (o.card.nuyen > 0) {
      std::vector<bool> eligible;
      for (const Runner& r : s_.runners)
        eligible.push_back(!r.client);
      const std::vector<int> coins = payout(o.card.nuyen, n(), first, eligible);
      std::vector<std::string> parts;
      for (int k = 0; k < n(); ++k) {
        const int who = (first + k) % n();
        const int c = coins[static_cast<std::size_t>(who)];
        if (c == 0) continue;
        seat(who).nuyen += c;
        parts.push_back(fmt::format("{} +{}", seat(who).name, c));
      }
      say("payout", fmt::format("{}¥ paid out from {}: {}", o.card.nuyen, seat(first).name,
                                fmt::join(parts, ", ")));
    }
    if (s_.settings.mission == Mission::Dragon && o.card.boss && s_.aspects_defeated >= 4 &&
        !s_.aborting) {
      game_over(Result::Win, "all four aspects of the Dragon are down");
    }
  }

  /// Resolves the contributions on one obstacle; returns true when it was defeated.
  bool resolve(std::size_t index, const std::vector<Contribution>& cards,
               const std::vector<std::string>& names, int payer) {
    Obstacle& o = s_.obstacles[index];
    const ObstacleResult r = resolve_obstacle(o.card.track, o.card.cleared, o.partial, cards);
    std::vector<std::string> lines;
    for (int level = r.outcome.cleared_before; level < r.outcome.cleared_after; ++level) {
      std::vector<std::string> who;
      for (const Placement& pl : r.placements) {
        if (pl.level != level) continue;
        const std::string& name = names[static_cast<std::size_t>(pl.card)];
        who.push_back(pl.levels > 0 ? fmt::format("{} ({} level{} of damage)", name, pl.levels,
                                                  pl.levels == 1 ? "" : "s")
                                    : fmt::format("{} {}", name, describe(pl.points)));
      }
      if (!who.empty()) {
        lines.push_back(fmt::format("level {} ({}) ← {}", level + 1,
                                    describe(o.card.track[static_cast<std::size_t>(level)]),
                                    fmt::join(who, ", ")));
      }
    }
    say("damage", fmt::format("{}: {} → {}/{} levels cleared", o.card.name,
                              lines.empty() ? std::string("no level cleared")
                                            : fmt::format("{}", fmt::join(lines, "; ")),
                              r.outcome.cleared_after, o.card.track.size()));
    for (const Wasted& w : r.wasted) {
      std::string what = w.points.empty() ? std::string() : describe(w.points);
      if (w.levels > 0)
        what += fmt::format("{}{} level(s) of damage", what.empty() ? "" : " + ", w.levels);
      say("wasted",
          fmt::format("wasted: {} {} — {}", names[static_cast<std::size_t>(w.card)], what, w.why));
    }
    o.card.cleared = r.outcome.cleared_after;
    if (r.outcome.levels_cleared() > 0) o.partial = Points{};
    if (!r.outcome.defeated) o.partial += r.outcome.leftover;
    if (r.outcome.defeated) defeat(index, payer);
    return r.outcome.defeated;
  }

  [[nodiscard]] std::vector<std::size_t> flip_faces(const std::vector<ObstacleCard>& cards) const {
    // Default facings (cards with faces: set are handled by the caller).
    std::vector<std::size_t> out;
    const int cl = client_seat();
    const Mission m = s_.settings.mission;
    int anchor = -1;
    int k = 0;
    std::vector<int> dragon_order;
    if (m == Mission::Dragon) {
      for (int i = 1; i < n(); ++i)
        dragon_order.push_back((dragon_seat() + i) % n());
      dragon_order.push_back(dragon_seat());
    }
    for (const ObstacleCard& c : cards) {
      int who = 0;
      if (c.boss && m == Mission::Dragon) {
        who = dragon_seat();
      } else if (m == Mission::Extraction && cl >= 0) {
        who = cl;
      } else if (m == Mission::Dragon) {
        who = dragon_order[static_cast<std::size_t>(k++) % dragon_order.size()];
      } else {
        if (anchor < 0) {
          anchor = s_.phase == Phase::Turn ? s_.current : s_.starting;
          if (c.colour) {
            for (int i = 0; i < n(); ++i) {
              const auto& roles = seat(i).roles;
              if (std::find(roles.begin(), roles.end(), *c.colour) != roles.end()) anchor = i;
            }
          }
          who = anchor;
        } else {
          who = (anchor + ++k) % n();
          while (seat(who).client)
            who = (who + 1) % n();
        }
      }
      out.push_back(static_cast<std::size_t>(who));
    }
    return out;
  }

  std::optional<Rejection> parse_damage(const std::string& text, const std::string& name,
                                        Bundle& out) const {
    auto b = parse_bundle(text.empty() ? std::string("none") : text);
    if (!b) return no(b.error().message());
    out = *b;
    out.name = name;
    return std::nullopt;
  }

  std::optional<Rejection> targets(const Bundle& b, const std::string& target,
                                   const std::vector<std::string>& level_targets, int& box,
                                   std::vector<int>& singles) const {
    box = -1;
    singles.clear();
    if (!target.empty()) {
      int i = 0;
      if (auto why = find_obstacle(target, i)) return why;
      const Obstacle& o = s_.obstacles[static_cast<std::size_t>(i)];
      if (o.card.boss && b.obstacle_only) {
        return no(fmt::format("{} names an obstacle: it can't be used on the boss {}", b.name,
                              o.card.name));
      }
      box = o.id;
    }
    if (!level_targets.empty() && b.mode != LevelMode::Spread) {
      return no(fmt::format("{}'s level damage goes with its box (to {})", b.name,
                            target.empty() ? "its target" : target));
    }
    if (static_cast<int>(level_targets.size()) > b.levels) {
      return no(fmt::format("{} has {} single level{} of damage", b.name, b.levels,
                            b.levels == 1 ? "" : "s"));
    }
    for (const std::string& t : level_targets) {
      int i = 0;
      if (auto why = find_obstacle(t, i)) return why;
      const Obstacle& o = s_.obstacles[static_cast<std::size_t>(i)];
      if (std::find(singles.begin(), singles.end(), o.id) != singles.end()) {
        return no(fmt::format("{}'s single levels must go to different obstacles", b.name));
      }
      if (o.card.boss && b.obstacle_only) {
        return no(fmt::format("{} can't be used on the boss {}", b.name, o.card.name));
      }
      singles.push_back(o.id);
    }
    return std::nullopt;
  }

  std::optional<Rejection> need_turn(TurnStep step, const char* what) const {
    if (s_.phase != Phase::Turn) {
      return no(fmt::format("{} only during a turn (now: {})", what, phase_name(s_.phase)));
    }
    if (s_.step != step) {
      return no(fmt::format("{} only in the {} step (now: {})", what, step_name(step),
                            step_name(s_.step)));
    }
    return std::nullopt;
  }

  void refill_market() {
    const DrawResult d = draw_cards(Pile{s_.decks.market, s_.decks.market_discard}, 1);
    s_.decks.market = d.after.deck;
    s_.decks.market_discard = d.after.discard;
    if (d.reshuffled) say("market", "the Black Market discard is shuffled into a new deck");
    if (d.drawn == 0) {
      --s_.decks.market_slots;
      s_.decks.out_of_stock = true;
      say("market",
          "the Black Market is OUT OF STOCK: the slot stays empty and nothing more can "
          "be bought this game");
    }
  }

  void advance_buy_round() {
    if (!s_.buy_queue.empty()) s_.buy_queue.erase(s_.buy_queue.begin());
    while (!s_.buy_queue.empty() && seat(s_.buy_queue.front()).critical)
      s_.buy_queue.erase(s_.buy_queue.begin());
    if (!s_.buy_queue.empty()) {
      s_.current = s_.buy_queue.front();
      say("buy_round",
          fmt::format("{} may buy 1 Black Market card or pass", seat(s_.current).name));
      return;
    }
    const int first = s_.first_buyer;
    s_.first_buyer = -1;
    if (s_.settings.mission == Mission::Crossfire) {
      s_.flip_pending = true;
      const FlipForecast f = crossfire_scene_flip(runner_count(s_), s_.scene, crossfire_level(s_),
                                                  has_bonus(s_, "bring-it-on"));
      say("scene", fmt::format("A new Scene begins. {}", f.why));
    } else {
      say("scene", fmt::format("Scene {} begins", s_.scene));
    }
    // The turn goes to the first buyer; reaching the starting runner starts a round.
    next_turn((first - 1 + n()) % n());
  }

  void start_buy_round(int after) {
    s_.phase = Phase::SceneEnd;
    s_.buy_queue.clear();
    for (int k = 1; k <= n(); ++k) {
      const int who = (after + k) % n();
      if (!seat(who).client && !seat(who).critical) s_.buy_queue.push_back(who);
    }
    if (s_.buy_queue.empty()) {
      s_.first_buyer = left_of(after);
      advance_buy_round();
      return;
    }
    s_.first_buyer = s_.buy_queue.front();
    s_.current = s_.first_buyer;
    say("buy_round", fmt::format("Scene-end buy round: {} first; each may buy 1 Black Market "
                                 "card or pass",
                                 seat(s_.current).name));
  }

  void extraction_progress() {
    ++s_.progress;
    auto step =
        extraction_step(runner_count(s_), s_.progress, has_bonus(s_, "elite-response-team"));
    if (!step) return;
    say("progress", step->text);
    if (step->escape) {
      const int cl = client_seat();
      const bool alive = cl >= 0 && seat(cl).hp >= 1 && !seat(cl).staggered;
      game_over(alive ? Result::Win : Result::Loss,
                alive ? "the Client escapes" : "the Client did not make it");
      return;
    }
    if (step->heal_all > 0) {
      for (int i = 0; i < n(); ++i) {
        if (!seat(i).critical) heal_runner(i, step->heal_all);
      }
    }
    if (step->draw_each > 0) {
      for (int i = 0; i < n(); ++i) {
        if (!seat(i).client && !seat(i).critical) draw(i, step->draw_each, "Extraction track");
      }
    }
    if (step->gain_nuyen > 0) {
      for (int i = 0; i < n(); ++i) {
        if (!seat(i).client) seat(i).nuyen += step->gain_nuyen;
      }
    }
    if (step->hard + step->normal > 0) s_.flip_pending = true;
    if (step->scene_ends) {
      event_to_bottom("the Scene ends");
      ++s_.scene;
    }
  }

  // ---- commands ------------------------------------------------------------------------------

  std::optional<Rejection> on(const Configure& c) {
    if (s_.phase != Phase::Setup) return no("the mission is chosen before the game starts");
    auto m = mission_from(c.mission);
    if (!m)
      return no(
          fmt::format("unknown mission '{}' (crossfire, extraction, dragon, custom)", c.mission));
    std::vector<std::string> keys;
    for (const std::string& b : c.bonuses) {
      const BonusChallenge* bc = find_bonus(b);
      if (bc == nullptr) return no(fmt::format("unknown bonus challenge '{}'", b));
      keys.emplace_back(bc->key);
    }
    if (*m != Mission::Custom) {
      auto check = karma_award(*m, Result::Win, keys, 0, kMaxRunnersAtTable);
      if (!check) return no(check.error());
    } else if (!keys.empty()) {
      return no("a custom mission has no bonus challenges");
    }
    s_.settings.mission = *m;
    s_.settings.bonuses = keys;
    s_.settings.bonus_on_abort = c.bonus_on_abort;
    say("configured",
        fmt::format("mission {}{}", mission_name(*m),
                    keys.empty() ? std::string() : fmt::format(" with {}", fmt::join(keys, ", "))));
    return std::nullopt;
  }

  std::optional<Rejection> on(const AddRunner& c) {
    if (s_.phase != Phase::Setup) return no("runners join before the game starts");
    const std::string name(c.name);
    if (name.empty() || name.size() > 30 || lower(name) == "client" || lower(name) == "all") {
      return no("a runner needs a name of 1 to 30 characters (not 'Client' or 'all')");
    }
    if (runner_index(s_, name) >= 0)
      return no(fmt::format("there is already a runner named {}", name));
    if (n() >= kMaxRunnersAtTable) return no("at most 4 runners");
    if (c.roles.empty() || c.roles.size() > 4) return no("a runner has 1 to 4 roles");
    Runner r;
    r.name = name;
    r.metatype = c.metatype;
    for (const std::string& word : c.roles) {
      auto col = colour_from(word);
      if (!col)
        return no(
            fmt::format("'{}' is not a role (street-samurai/black, mage/blue, "
                        "decker/green, face/red)",
                        word));
      if (std::find(r.roles.begin(), r.roles.end(), *col) != r.roles.end()) {
        return no(fmt::format("{} holds the {} role twice", name, role_name(*col)));
      }
      r.roles.push_back(*col);
    }
    if (c.hp < 1 || c.hp > 20) return no("HP must be 1 to 20 (from the Runner card)");
    if (c.nuyen < 0 || c.nuyen > 50) return no("starting nuyen must be 0 to 50");
    if (c.deck < 1 || c.deck > 60) return no("the starting deck holds 1 to 60 cards");
    if (c.starting_cards < 0 || c.starting_cards > c.deck) {
      return no("starting cards must be 0 to the deck size");
    }
    if (c.karma_in_upgrades < 0) return no("Karma in upgrades cannot be negative");
    r.hp = c.hp;
    r.max_hp = c.hp;
    r.nuyen = c.nuyen;
    r.hand = c.starting_cards;
    r.deck = c.deck;
    r.karma_in_upgrades = c.karma_in_upgrades;
    std::vector<std::string> roles;
    for (Colour col : r.roles)
      roles.emplace_back(role_name(col));
    say("runner", fmt::format("{} ({}) joins as {}: {} HP, {}¥, draws {}", name,
                              c.metatype.empty() ? "?" : c.metatype, fmt::join(roles, " + "), r.hp,
                              r.nuyen, c.starting_cards));
    s_.runners.push_back(std::move(r));
    return std::nullopt;
  }

  std::optional<Rejection> on(const StartGame& c) {
    if (s_.phase != Phase::Setup) return no("the game has already started");
    const int count = n();
    const Mission m = s_.settings.mission;
    if (count < 1) return no("add the runners first");
    if (m == Mission::Crossfire && count < 2)
      return no("the Crossfire mission is for 2 to 4 runners");
    if (m == Mission::Dragon && count != 4) return no("the Dragon Fight needs exactly 4 runners");
    if (count == 1 && m != Mission::Extraction && m != Mission::Custom) {
      return no("a solo runner is supported only in Extraction");
    }
    std::vector<int> seen(kColours, 0);
    int total = 0;
    for (const Runner& r : s_.runners) {
      for (Colour col : r.roles) {
        ++seen[static_cast<std::size_t>(col)];
        ++total;
      }
    }
    for (Colour col : kAllColours) {
      if (seen[static_cast<std::size_t>(col)] != 1) {
        return no(fmt::format("each of the four roles is held by exactly one runner ({}: {})",
                              role_name(col), seen[static_cast<std::size_t>(col)]));
      }
    }
    (void)total;
    if (auto dz = bonus_count(s_, "danger-zone"); dz > count) {
      return no(fmt::format("Danger Zone can be taken at most once per runner ({})", count));
    }
    int start = runner_index(s_, c.starting);
    if (c.starting.empty()) start = 0;
    if (start < 0) return no(fmt::format("no runner named '{}'", c.starting));
    for (Runner& r : s_.runners) {
      if (r.roles.size() > 1) {
        ++r.nuyen;
        say("nuyen", fmt::format("{} holds {} roles: +1 starting nuyen ({}¥)", r.name,
                                 r.roles.size(), r.nuyen));
      }
      r.deck -= r.hand;
    }
    s_.starting = start;
    if (m == Mission::Extraction) {
      Runner client;
      client.name = "Client";
      client.metatype = "Human";
      client.client = true;
      client.max_hp = kClientHp;
      client.hp = has_bonus(s_, "emt-gig") ? 1 : kClientHp;
      client.deck = 0;
      s_.runners.insert(s_.runners.begin() + start, client);
      s_.starting = start + 1;
      say("client", fmt::format("the Client ({} HP) sits on {}'s right and acts last each round",
                                client.hp, seat(s_.starting).name));
    }
    int discard = bonus_count(s_, "danger-zone");
    if (has_bonus(s_, "stepped-up-security")) discard += 4;
    s_.decks.crossfire_discard = discard;
    s_.decks.crossfire = 50 - discard;
    s_.round = 0;
    s_.scene = 1;
    say("start", fmt::format("{} keeps the Crossfire deck; Crossfire level {}",
                             seat(s_.starting).name, discard));
    start_round();
    if (m == Mission::Crossfire) {
      s_.flip_pending = true;
      const FlipForecast f =
          crossfire_scene_flip(count, 1, crossfire_level(s_), has_bonus(s_, "bring-it-on"));
      say("scene", "A new Scene begins. " + f.why);
    } else if (m == Mission::Extraction) {
      s_.progress = 0;
      extraction_progress();
    } else if (m == Mission::Dragon) {
      say("dragon", fmt::format("the Dragon faces {} (flip its Covert aspects, Hacking and Skill, "
                                "as bosses: NAME=TRACK boss type:Covert)",
                                seat(dragon_seat()).name));
    }
    return std::nullopt;
  }

  std::optional<Rejection> on(const DrawCrossfire& c) {
    if (s_.phase != Phase::RoundStart)
      return no("Crossfire cards are drawn at the start of a round");
    if (s_.aborting) return no("no Crossfire card is drawn in the abort round");
    if (s_.drew_this_round) return no("only one Crossfire card per round");
    if (!draw_due()) {
      return no(fmt::format("no Crossfire card is drawn in round {} of this mission (begin_round)",
                            s_.round));
    }
    if (s_.decks.crossfire <= 0) return no("the Crossfire deck is empty (begin_round)");
    if (c.name.empty()) return no("the Crossfire card needs a name");
    if (c.threshold < 0 || c.threshold > 50) return no("a threshold is 0 (none) to 50");
    if (s_.active_event) {
      const CrossfireEvent old = *s_.active_event;
      const int level = crossfire_level(s_);
      if (old.timebomb) {
        const bool fires = old.threshold <= level;
        say("timebomb",
            old.threshold > 0
                ? fmt::format("{}'s TIMEBOMB checks level {} (the card is not counted): {}+ → {}",
                              old.name, level, old.threshold,
                              fires ? "it FIRES" : "it does not fire")
                : fmt::format("{}'s TIMEBOMB fires", old.name));
      }
      ++s_.decks.crossfire_discard;
      say("event_discarded",
          fmt::format("{} goes to the discard: Crossfire level {}", old.name, crossfire_level(s_)));
    }
    --s_.decks.crossfire;
    s_.active_event = CrossfireEvent{c.name, c.continuous, c.timebomb, c.threshold, c.text};
    s_.drew_this_round = true;
    const int level = crossfire_level(s_);
    std::string text = fmt::format("Crossfire card: {}", c.name);
    if (c.threshold > 0) {
      text += fmt::format(" — level {} {} {}+: its extra effect {}", level,
                          level >= c.threshold ? "≥" : "<", c.threshold,
                          level >= c.threshold ? "APPLIES" : "does not apply");
    }
    if (c.continuous) text += " — continuous while active";
    if (c.timebomb) text += " — timebomb when it goes to the discard";
    say("crossfire", text);
    begin_turn(s_.starting);
    return std::nullopt;
  }

  std::optional<Rejection> on(const BeginRound&) {
    if (s_.phase != Phase::RoundStart) return no("a round begins only at its start");
    if (draw_due() && !s_.drew_this_round && s_.decks.crossfire > 0) {
      return no(fmt::format("a Crossfire card is due in round {}: draw it first", s_.round));
    }
    begin_turn(s_.starting);
    return std::nullopt;
  }

  std::optional<Rejection> on(const Flip& c) {
    if (!playing()) return no("obstacles are flipped during the game");
    if (c.obstacles.empty()) return no("flip at least one obstacle");
    std::vector<ObstacleCard> cards;
    for (const std::string& text : c.obstacles) {
      auto card = parse_obstacle(text);
      if (!card) return no(card.error().message());
      if (card->cleared != 0)
        return no(fmt::format("{} is flipped with no level cleared", card->name));
      if (!card->faces.empty() && runner_index(s_, card->faces) < 0) {
        return no(fmt::format("{} faces '{}', who is not at the table", card->name, card->faces));
      }
      // Obstacles are addressed by name: a second one of a name could not be told apart.
      const auto same = [&](const std::string& other) {
        return text::lower(other) == text::lower(card->name);
      };
      const bool in_play = std::any_of(s_.obstacles.begin(), s_.obstacles.end(),
                                       [&](const Obstacle& o) { return same(o.card.name); });
      const bool in_flip = std::any_of(cards.begin(), cards.end(),
                                       [&](const ObstacleCard& o) { return same(o.name); });
      if (in_play || in_flip) {
        return no(fmt::format(
            "an obstacle named {} is {}: give this one another name (e.g. "
            "'{} 2')",
            card->name, in_play ? "already in play" : "in this flip twice", card->name));
      }
      cards.push_back(*card);
    }
    std::vector<ObstacleCard> defaults;
    for (const ObstacleCard& card : cards) {
      if (card.faces.empty()) defaults.push_back(card);
    }
    const std::vector<std::size_t> faces = flip_faces(defaults);
    std::size_t k = 0;
    for (ObstacleCard card : cards) {
      Obstacle o;
      o.id = s_.next_obstacle_id++;
      o.facing = card.faces.empty() ? static_cast<int>(faces[k++]) : runner_index(s_, card.faces);
      card.faces.clear();
      o.card = card;
      if (!card.boss) {
        int& deck = card.hard ? s_.decks.hard : s_.decks.normal;
        int& discard = card.hard ? s_.decks.hard_discard : s_.decks.normal_discard;
        const DrawResult d = draw_cards(Pile{deck, discard}, 1);
        deck = d.after.deck;
        discard = d.after.discard;
        if (d.reshuffled)
          say("deck", fmt::format("the {} obstacle discard is shuffled into a new deck",
                                  card.hard ? "Hard" : "Normal"));
        if (d.drawn == 0)
          say("deck", fmt::format("the {} obstacle deck was empty", card.hard ? "Hard" : "Normal"));
      }
      say("flipped",
          fmt::format("{}{} faces {}{}", card.name,
                      card.boss   ? " (boss)"
                      : card.hard ? " (Hard)"
                                  : "",
                      seat(o.facing).name,
                      card.has(Timing::Flipped) ? ": resolve its FLIPPED: ability now" : ""));
      s_.obstacles.push_back(std::move(o));
    }
    s_.flip_pending = false;
    return std::nullopt;
  }

  std::optional<Rejection> on(const Pull& c) {
    if (s_.settings.mission != Mission::Extraction)
      return no("pulling obstacles is an Extraction rule");
    if (auto why = need_turn(TurnStep::Play, "pulling an obstacle")) return why;
    Runner& me = seat(s_.current);
    if (me.client) return no("the Client does not pull obstacles");
    if (me.staggered) return no(fmt::format("{} is staggered and can't pull an obstacle", me.name));
    if (me.pulled) return no("one obstacle per turn");
    if (!s_.played.empty()) return no("obstacles are pulled as the turn opens, before any card");
    int i = 0;
    if (auto why = find_obstacle(c.obstacle, i)) return why;
    Obstacle& o = s_.obstacles[static_cast<std::size_t>(i)];
    if (!seat(o.facing).client) return no(fmt::format("{} does not face the Client", o.card.name));
    if (!o.card.colour ||
        std::find(me.roles.begin(), me.roles.end(), *o.card.colour) == me.roles.end()) {
      return no(fmt::format("{} is not of one of {}'s role colours", o.card.name, me.name));
    }
    o.facing = s_.current;
    me.pulled = true;
    say("pulled", fmt::format("{} pulls {} off the Client", me.name, o.card.name));
    return std::nullopt;
  }

  std::optional<Rejection> on(const MoveObstacle& c) {
    if (!playing()) return no("obstacles move during the game");
    int i = 0;
    int to = 0;
    if (auto why = find_obstacle(c.obstacle, i)) return why;
    if (auto why = find_runner(c.to, to)) return why;
    Obstacle& o = s_.obstacles[static_cast<std::size_t>(i)];
    o.facing = to;
    if (c.cannot_attack) o.cannot_attack = true;
    say("moved", fmt::format("{} now faces {}{}", o.card.name, seat(to).name,
                             c.cannot_attack ? " and can't attack this turn" : ""));
    return std::nullopt;
  }

  std::optional<Rejection> on(const ModifyObstacle& c) {
    if (!playing()) return no("obstacles change during the game");
    int i = 0;
    if (auto why = find_obstacle(c.obstacle, i)) return why;
    Obstacle& o = s_.obstacles[static_cast<std::size_t>(i)];
    o.attack_bonus += c.attack_bonus;
    if (c.cannot_attack) o.cannot_attack = true;
    if (c.cancel_abilities) o.abilities_cancelled = true;
    say("modified", fmt::format("{}: attack {}{}{}{}", o.card.name, o.card.attack + o.attack_bonus,
                                o.attack_bonus != 0 ? fmt::format(" ({:+d})", o.attack_bonus) : "",
                                o.cannot_attack ? ", can't attack this turn" : "",
                                o.abilities_cancelled ? ", abilities cancelled" : ""));
    return std::nullopt;
  }

  std::optional<Rejection> on(const HealObstacle& c) {
    if (!playing()) return no("obstacles heal during the game");
    if (c.levels < 0) return no("heal 1 or more levels (0 = all)");
    int i = 0;
    if (auto why = find_obstacle(c.obstacle, i)) return why;
    Obstacle& o = s_.obstacles[static_cast<std::size_t>(i)];
    const int before = o.card.cleared;
    o.card.cleared = c.levels == 0 ? 0 : std::max(0, before - c.levels);
    o.partial = Points{};
    say("obstacle_healed",
        fmt::format("{} heals {} level{}: {} of {} cleared", o.card.name, before - o.card.cleared,
                    before - o.card.cleared == 1 ? "" : "s", o.card.cleared, o.card.track.size()));
    return std::nullopt;
  }

  std::optional<Rejection> on(const PlayCard& c) {
    if (auto why = need_turn(TurnStep::Play, "cards with damage are played")) return why;
    int owner = s_.current;
    if (!c.owner.empty()) {
      if (auto why = find_runner(c.owner, owner)) return why;
    }
    Runner& r = seat(owner);
    if (r.client) return no("the Client plays no cards");
    if (r.critical) return no(fmt::format("{} is critical and takes no further actions", r.name));
    if (r.hand < 1) {
      return no(
          fmt::format("{} has no card in hand (fix the count with an override if it is "
                      "wrong)",
                      r.name));
    }
    if (c.card.empty()) return no("the card needs a name");
    PlayedCard p;
    p.name = c.card;
    p.owner = owner;
    p.assist = owner != s_.current;
    if (!c.card_type.empty()) {
      auto col = colour_from(c.card_type);
      if (!col) {
        return no(
            fmt::format("'{}' is not a card type (weapon, spell, hacking, skill)", c.card_type));
      }
      p.type = col;
    }
    if (auto why = parse_damage(c.damage, c.card, p.bundle)) return why;
    if (auto why = targets(p.bundle, c.target, c.level_targets, p.target, p.level_targets))
      return why;
    --r.hand;
    if (!p.assist && p.type) s_.types_played.push_back(*p.type);
    say(p.assist ? "assist" : "played",
        fmt::format("{} {} {} ({}){}", r.name, p.assist ? "assists with" : "plays", p.name,
                    to_notation(Bundle{"", p.bundle.points, p.bundle.levels, p.bundle.mode,
                                       p.bundle.obstacle_only}),
                    c.target.empty() ? std::string() : " beside " + c.target));
    s_.played.push_back(std::move(p));
    return std::nullopt;
  }

  std::optional<Rejection> on(const PlaceCard& c) {
    if (auto why = need_turn(TurnStep::Play, "cards are placed")) return why;
    for (std::size_t k = 0; k < s_.played.size(); ++k) {
      PlayedCard& p = s_.played[k];
      if (c.index >= 0 && static_cast<std::size_t>(c.index) != k) continue;
      if (p.applied || (c.index < 0 && lower(p.name) != lower(c.card))) continue;
      int box = -1;
      std::vector<int> singles;
      if (auto why = targets(p.bundle, c.target, c.level_targets, box, singles)) return why;
      p.target = box;
      p.level_targets = singles;
      std::vector<std::string> where;
      for (const Obstacle& o : s_.obstacles) {
        if (o.id == box) where.insert(where.begin(), o.card.name);
        if (std::find(singles.begin(), singles.end(), o.id) != singles.end()) {
          where.push_back(o.card.name + " (1 level)");
        }
      }
      say("placed", fmt::format("{} now beside {}", p.name,
                                where.empty() ? std::string("nothing")
                                              : fmt::format("{}", fmt::join(where, ", "))));
      return std::nullopt;
    }
    return no(c.index >= 0 ? fmt::format("no card number {} waiting to be applied", c.index + 1)
                           : fmt::format("no card '{}' played this turn", c.card));
  }

  std::optional<Rejection> on(const ApplyDamage&) {
    if (auto why = need_turn(TurnStep::Play, "damage is applied")) return why;
    std::vector<std::string> names;
    for (const PlayedCard& p : s_.played)
      names.push_back(p.name);
    // Obstacles in play order; each is resolved with the cards beside it.
    std::vector<int> ids;
    for (const Obstacle& o : s_.obstacles)
      ids.push_back(o.id);
    for (int id : ids) {
      std::vector<Contribution> cards;
      for (std::size_t k = 0; k < s_.played.size(); ++k) {
        const PlayedCard& p = s_.played[k];
        if (p.applied) continue;
        Contribution c;
        c.card = static_cast<int>(k);
        if (p.target == id) {
          c.points = p.bundle.points;
          if (p.bundle.mode != LevelMode::Spread) {
            c.run = LevelRun{p.bundle.levels, p.bundle.mode == LevelMode::Last};
          }
        }
        c.singles =
            static_cast<int>(std::count(p.level_targets.begin(), p.level_targets.end(), id));
        if (!c.points.empty() || c.singles > 0 || c.run.count > 0) cards.push_back(c);
      }
      if (cards.empty()) continue;
      const auto it = std::find_if(s_.obstacles.begin(), s_.obstacles.end(),
                                   [id](const Obstacle& o) { return o.id == id; });
      if (it == s_.obstacles.end()) continue;
      resolve(static_cast<std::size_t>(it - s_.obstacles.begin()), cards, names, s_.current);
      if (s_.phase == Phase::GameOver) break;
    }
    for (PlayedCard& p : s_.played) {
      if (p.applied) continue;
      p.applied = true;
      ++seat(p.owner).discard;
      const bool nowhere = p.target < 0 && p.level_targets.empty() &&
                           (!p.bundle.points.empty() || p.bundle.levels > 0);
      if (nowhere) say("wasted", fmt::format("{}'s damage was placed beside no obstacle", p.name));
    }
    if (s_.phase == Phase::GameOver) return std::nullopt;
    s_.step = TurnStep::TakeDamage;
    return std::nullopt;
  }

  std::optional<Rejection> on(const DirectDamage& c) {
    if (!playing()) return no("damage is dealt during the game");
    int i = 0;
    if (auto why = find_obstacle(c.obstacle, i)) return why;
    Bundle b;
    if (auto why = parse_damage(c.damage, "damage", b)) return why;
    int payer = s_.phase == Phase::SceneEnd && s_.first_buyer >= 0 ? s_.first_buyer : s_.current;
    if (!c.defeater.empty()) {
      if (auto why = find_runner(c.defeater, payer)) return why;
    }
    if (s_.obstacles[static_cast<std::size_t>(i)].card.boss && b.obstacle_only) {
      return no("that damage names an obstacle: it can't hit a boss");
    }
    Contribution k;
    k.card = 0;
    k.points = b.points;
    if (b.mode == LevelMode::Spread) {
      k.singles = b.levels;
    } else {
      k.run = LevelRun{b.levels, b.mode == LevelMode::Last};
    }
    resolve(static_cast<std::size_t>(i), {k}, {"the damage"}, payer);
    return std::nullopt;
  }

  std::optional<Rejection> on(const TakeDamage& c) {
    if (auto why = need_turn(TurnStep::TakeDamage, "the obstacles attack")) return why;
    if (c.extra < 0 || c.extra > 50) return no("extra damage is 0 to 50");
    for (const std::string& name : c.stopped) {
      int i = 0;
      if (auto why = find_obstacle(name, i)) return why;
      if (s_.obstacles[static_cast<std::size_t>(i)].facing != s_.current) {
        return no(fmt::format("{} does not face {}", name, seat(s_.current).name));
      }
    }
    std::vector<int> stopped_ids;
    for (const std::string& name : c.stopped)
      stopped_ids.push_back(s_.obstacles[static_cast<std::size_t>(obstacle_index(s_, name))].id);
    int total = c.extra;
    std::vector<std::string> parts;
    for (const Obstacle& o : s_.obstacles) {
      if (o.facing != s_.current) continue;
      if (o.cannot_attack ||
          std::find(stopped_ids.begin(), stopped_ids.end(), o.id) != stopped_ids.end()) {
        parts.push_back(fmt::format("{} stopped", o.card.name));
        continue;
      }
      const int a = std::max(0, o.card.attack + o.attack_bonus);
      total += a;
      parts.push_back(fmt::format("{} {}", o.card.name, a));
      if (o.card.has(Timing::Attacks) && !o.abilities_cancelled) {
        say("reminder",
            fmt::format("{}: \"when it attacks\" ability (add its damage as extra)", o.card.name));
      }
    }
    if (c.extra > 0) parts.push_back(fmt::format("extra {}", c.extra));
    packet(s_.current, total,
           parts.empty() ? std::string() : fmt::format(" ({})", fmt::join(parts, " + ")));
    if (s_.phase == Phase::GameOver) return std::nullopt;
    s_.step = TurnStep::DrawBuy;
    const Runner& r = seat(s_.current);
    if (!r.client && !r.critical) {
      if (r.staggered) {
        say("step", fmt::format("{} is staggered: no draw 2 and no buying", r.name));
      } else if (r.hand <= 3) {
        draw(s_.current, 2, "step 4: hand of 3 or fewer");
      }
    }
    return std::nullopt;
  }

  std::optional<Rejection> on(const Hurt& c) {
    if (!playing()) return no("runners are hurt during the game");
    if (c.amount < 1 || c.amount > 50) return no("damage is 1 to 50");
    std::vector<int> who;
    for (const std::string& name : c.runners) {
      if (lower(name) == "all") {
        for (int i = 0; i < n(); ++i)
          who.push_back(i);
        continue;
      }
      int i = 0;
      if (auto why = find_runner(name, i)) return why;
      who.push_back(i);
    }
    if (who.empty()) return no("name the runners (or all)");
    std::sort(who.begin(), who.end());
    who.erase(std::unique(who.begin(), who.end()), who.end());
    // Packets resolve for the current runner first, then clockwise.
    std::stable_sort(who.begin(), who.end(), [&](int a, int b) {
      return (a - s_.current + n()) % n() < (b - s_.current + n()) % n();
    });
    for (int i : who) {
      if (s_.phase == Phase::GameOver) break;
      packet(i, c.amount, "");
    }
    return std::nullopt;
  }

  std::optional<Rejection> on(const Heal& c) {
    if (!playing()) return no("runners heal during the game");
    if (c.amount < 1 || c.amount > 50) return no("heal 1 to 50");
    int i = 0;
    if (auto why = find_runner(c.runner, i)) return why;
    for (const Obstacle& o : s_.obstacles) {
      if (o.card.no_heal && !o.abilities_cancelled) {
        return no(fmt::format("{} is in play: runners can't be healed", o.card.name));
      }
    }
    if (seat(i).critical) return no(fmt::format("{} is critical", seat(i).name));
    heal_runner(i, c.amount);
    return std::nullopt;
  }

  std::optional<Rejection> on(const Draw& c) {
    if (!playing()) return no("cards are drawn during the game");
    if (c.count < 1 || c.count > 20) return no("draw 1 to 20");
    int i = 0;
    if (auto why = find_runner(c.runner, i)) return why;
    if (seat(i).client) return no("the Client has no deck");
    draw(i, c.count, "");
    return std::nullopt;
  }

  std::optional<Rejection> on(const DiscardCards& c) {
    if (!playing()) return no("cards are discarded during the game");
    int i = 0;
    if (auto why = find_runner(c.runner, i)) return why;
    Runner& r = seat(i);
    if (c.count < 1 || c.count > r.hand) {
      return no(fmt::format("{} holds {} card{}", r.name, r.hand, r.hand == 1 ? "" : "s"));
    }
    r.hand -= c.count;
    r.discard += c.count;
    say("discard", fmt::format("{} discards {}", r.name, c.count));
    return std::nullopt;
  }

  std::optional<Rejection> on(const GainNuyen& c) {
    if (!playing()) return no("nuyen changes during the game");
    int i = 0;
    if (auto why = find_runner(c.runner, i)) return why;
    Runner& r = seat(i);
    if (r.client) return no("the Client never holds nuyen");
    if (r.nuyen + c.amount < 0) return no(fmt::format("{} has only {}¥", r.name, r.nuyen));
    r.nuyen += c.amount;
    say("nuyen", fmt::format("{} {} {}¥: {}¥", r.name, c.amount >= 0 ? "gains" : "spends",
                             std::abs(c.amount), r.nuyen));
    return std::nullopt;
  }

  std::optional<Rejection> on(const Buy& c) {
    const bool scene_buy = s_.phase == Phase::SceneEnd;
    if (!scene_buy) {
      if (auto why = need_turn(TurnStep::DrawBuy, "buying")) return why;
    }
    Runner& r = seat(s_.current);
    if (r.client) return no("the Client never buys");
    if (!scene_buy && r.staggered) return no(fmt::format("{} is staggered and can't buy", r.name));
    if (s_.decks.out_of_stock || s_.decks.market_slots <= 0) {
      return no("the Black Market is out of stock: nothing more can be bought this game");
    }
    if (c.cost < 0 || c.cost > 50) return no("a cost is 0 to 50");
    if (r.nuyen < c.cost)
      return no(fmt::format("{} has {}¥, {} costs {}", r.name, r.nuyen, c.card, c.cost));
    // The Scene-end buy round is nobody's turn: no Spell was played in it, so a REQUIRES SPELL
    // card cannot be bought there.
    if (c.requires_spell && scene_buy) {
      return no(fmt::format(
          "{} REQUIRES SPELL: it can't be bought in the Scene-end buy round (no Spell card was "
          "played this turn)",
          c.card));
    }
    if (c.requires_spell && std::find(s_.types_played.begin(), s_.types_played.end(),
                                      Colour::Blue) == s_.types_played.end()) {
      return no(fmt::format("{} REQUIRES SPELL: play a Spell card this turn first", c.card));
    }
    r.nuyen -= c.cost;
    ++r.hand;
    say("bought", fmt::format("{} buys {} for {}¥ (to hand: {} cards, {}¥ left)", r.name,
                              c.card.empty() ? "a card" : c.card, c.cost, r.hand, r.nuyen));
    refill_market();
    if (scene_buy) advance_buy_round();
    return std::nullopt;
  }

  std::optional<Rejection> on(const Cycle&) {
    if (!playing()) return no("the Black Market cycles during the game");
    if (s_.decks.market_slots <= 0) return no("the Black Market is empty");
    ++s_.decks.market_discard;
    say("cycled", "a Black Market card is cycled");
    refill_market();
    return std::nullopt;
  }

  std::optional<Rejection> on(const Pass&) {
    if (s_.phase != Phase::SceneEnd) return no("passing is for the Scene-end buy round");
    say("pass", fmt::format("{} passes", seat(s_.current).name));
    advance_buy_round();
    return std::nullopt;
  }

  std::optional<Rejection> on(const EndTurn&) {
    if (s_.phase != Phase::Turn) return no("a turn ends only during a turn");
    if (s_.step != TurnStep::DrawBuy) {
      return no(fmt::format("finish the turn's steps first (now: {})", step_name(s_.step)));
    }
    const int me = s_.current;
    for (Obstacle& o : s_.obstacles) {
      o.partial = Points{};
      o.cannot_attack = false;
      if (o.card.has(Timing::End) && o.facing == me && !o.abilities_cancelled) {
        say("reminder", fmt::format("{}: end-of-turn ability", o.card.name));
      }
    }
    s_.played.clear();
    s_.types_played.clear();
    const Mission m = s_.settings.mission;
    if (m == Mission::Extraction) {
      const int cl = client_seat();
      for (Obstacle& o : s_.obstacles) {
        if (cl >= 0 && o.facing != cl && seat(o.facing).staggered) {
          say("moved", fmt::format("{} goes back to the Client ({} is staggered)", o.card.name,
                                   seat(o.facing).name));
          o.facing = cl;
        }
      }
    }
    const bool board_clear = s_.obstacles.empty();
    if (board_clear) event_to_bottom("no obstacle faces any runner at the end of a turn");
    if (!s_.aborting && !s_.abort_pending) {
      if (m == Mission::Crossfire && board_clear) {
        say("scene_end", fmt::format("Scene {} ends: every runner heals 1", s_.scene));
        for (int i = 0; i < n(); ++i) {
          if (!seat(i).critical) heal_runner(i, 1);
        }
        ++s_.scene;
        if (s_.scene > 3) {
          game_over(Result::Win, "all three Scenes are cleared");
          return std::nullopt;
        }
        start_buy_round(s_.last_defeater >= 0 ? s_.last_defeater : me);
        return std::nullopt;
      }
      if (m == Mission::Dragon && s_.aspect_fell_this_turn) {
        say("scene_end", "an aspect of the Dragon fell: every runner takes its reward");
        event_to_bottom("the Scene ends");
        ++s_.scene;
        start_buy_round(s_.last_defeater >= 0 ? s_.last_defeater : me);
        return std::nullopt;
      }
      if (m == Mission::Extraction && seat(me).client) {
        extraction_progress();
        if (s_.phase == Phase::GameOver) return std::nullopt;
      }
    }
    next_turn(me);
    return std::nullopt;
  }

  std::optional<Rejection> on(const Override& c) {
    auto next = override_field(s_, c.path, c.value);
    if (!next) return no(next.error());
    s_ = std::move(*next);
    say("override",
        fmt::format("set {} to {}", c.path,
                    c.value.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace)));
    return std::nullopt;
  }

  State s_;
  std::vector<Event> ev_;
};

}  // namespace

const char* phase_name(Phase phase) {
  switch (phase) {
    case Phase::Setup:
      return "setup";
    case Phase::RoundStart:
      return "round start";
    case Phase::Turn:
      return "turn";
    case Phase::SceneEnd:
      return "Scene-end buy round";
    case Phase::GameOver:
      return "game over";
  }
  return "?";
}

const char* step_name(TurnStep step) {
  switch (step) {
    case TurnStep::Play:
      return "play";
    case TurnStep::TakeDamage:
      return "take damage";
    case TurnStep::DrawBuy:
      return "draw & buy";
  }
  return "?";
}

Expected<Applied, Rejection> apply(const State& state, const Command& command) {
  Engine e(state);
  if (auto why = e.run(command)) return *why;
  return Applied{std::move(e.state()), std::move(e.events())};
}

DUELS_CARDS_RULES_DEFINE(State, Command, Rejection, crossfire)

int runner_index(const State& state, std::string_view name) {
  const std::string want = lower(name);
  for (std::size_t i = 0; i < state.runners.size(); ++i) {
    if (lower(state.runners[i].name) == want) return static_cast<int>(i);
  }
  return -1;
}

int obstacle_index(const State& state, std::string_view name) {
  if (!name.empty() && name.front() == '#') {
    for (std::size_t i = 0; i < state.obstacles.size(); ++i) {
      if (fmt::format("#{}", state.obstacles[i].id) == name) return static_cast<int>(i);
    }
    return -1;
  }
  const std::string want = lower(name);
  for (std::size_t i = 0; i < state.obstacles.size(); ++i) {
    if (lower(state.obstacles[i].card.name) == want) return static_cast<int>(i);
  }
  return -1;
}

int runner_count(const State& state) {
  return static_cast<int>(std::count_if(state.runners.begin(), state.runners.end(),
                                        [](const Runner& r) { return !r.client; }));
}

std::optional<FlipForecast> flip_forecast(const State& s) {
  const int level = crossfire_level(s);
  const bool bring = std::count(s.settings.bonuses.begin(), s.settings.bonuses.end(),
                                std::string("bring-it-on")) > 0;
  switch (s.settings.mission) {
    case Mission::Crossfire:
      return crossfire_scene_flip(runner_count(s), std::min(s.scene, 3), level, bring);
    case Mission::Dragon:
      return dragon_round_flip(level,
                               std::count(s.settings.bonuses.begin(), s.settings.bonuses.end(),
                                          std::string("minions-unending")) > 0);
    case Mission::Extraction: {
      auto step = extraction_step(runner_count(s), std::clamp(s.progress, 1, 7),
                                  std::count(s.settings.bonuses.begin(), s.settings.bonuses.end(),
                                             std::string("elite-response-team")) > 0);
      if (!step) return std::nullopt;
      FlipForecast f;
      f.hard = step->hard;
      f.normal = step->normal;
      f.total = f.hard + f.normal;
      f.why = step->text;
      return f;
    }
    case Mission::Custom:
      return std::nullopt;
  }
  return std::nullopt;
}

std::vector<std::string> next_steps(const State& s) {
  std::vector<std::string> out;
  const auto name = [&](int seat) {
    return seat >= 0 && seat < static_cast<int>(s.runners.size())
               ? s.runners[static_cast<std::size_t>(seat)].name
               : std::string("?");
  };
  switch (s.phase) {
    case Phase::Setup:
      out.emplace_back("configure the mission, add the runners, then start");
      break;
    case Phase::RoundStart: {
      if (s.flip_pending) {
        if (auto f = flip_forecast(s)) out.push_back("flip: " + f->why);
      }
      const bool due =
          !s.aborting &&
          crossfire_draw_due(s.settings.mission, runner_count(s), s.round,
                             std::count(s.settings.bonuses.begin(), s.settings.bonuses.end(),
                                        std::string("trouble-brewing")) > 0,
                             std::count(s.settings.bonuses.begin(), s.settings.bonuses.end(),
                                        std::string("lets-get-serious")) > 0);
      out.push_back(due && s.decks.crossfire > 0
                        ? fmt::format("{} draws a Crossfire card (level now {})", name(s.starting),
                                      crossfire_level(s))
                        : std::string("no Crossfire card this round: begin the round"));
      break;
    }
    case Phase::Turn:
      if (s.flip_pending) {
        if (auto f = flip_forecast(s)) out.push_back("flip: " + f->why);
      }
      out.push_back(fmt::format("{}'s turn, step: {}", name(s.current), step_name(s.step)));
      break;
    case Phase::SceneEnd:
      out.push_back(fmt::format("{} buys 1 Black Market card or passes", name(s.current)));
      break;
    case Phase::GameOver:
      out.push_back(fmt::format("game over: {}", s.end_reason));
      break;
  }
  return out;
}

std::vector<IncomingForecast> incoming(const State& s) {
  std::vector<std::string> names;
  std::vector<Health> health;
  for (const Runner& r : s.runners) {
    names.push_back(r.name);
    health.push_back(Health{r.hp, r.max_hp, r.staggered, r.critical});
  }
  std::vector<Attacker> attackers;
  for (const Obstacle& o : s.obstacles) {
    attackers.push_back(Attacker{o.card.name, std::max(0, o.card.attack + o.attack_bonus), o.facing,
                                 o.cannot_attack});
  }
  return forecast_incoming(names, health, attackers, s.current);
}

AllocInput allocation_input(const State& s, const std::vector<AllocCard>& offered) {
  AllocInput in;
  const int n = static_cast<int>(s.runners.size());
  for (int k = 0; k < n; ++k) {
    const Runner& r = s.runners[static_cast<std::size_t>((s.current + k) % n)];
    if (!r.critical) in.runners.push_back(AllocRunner{r.name, r.hp, r.staggered});
  }
  for (const Obstacle& o : s.obstacles) {
    AllocObstacle a;
    a.card = o.card;
    a.card.attack = o.cannot_attack ? 0 : std::max(0, o.card.attack + o.attack_bonus);
    a.card.faces = s.runners[static_cast<std::size_t>(o.facing)].critical
                       ? std::string()
                       : s.runners[static_cast<std::size_t>(o.facing)].name;
    a.partial = o.partial;
    in.obstacles.push_back(a);
  }
  for (const PlayedCard& p : s.played) {
    if (p.applied) continue;
    in.cards.push_back(
        AllocCard{p.bundle, CardUse::Played, s.runners[static_cast<std::size_t>(p.owner)].name});
  }
  for (const AllocCard& c : offered)
    in.cards.push_back(c);
  return in;
}

}  // namespace duels::cards::crossfire
