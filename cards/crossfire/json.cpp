#include "cards/crossfire/json.hpp"

#include "cards/common/command_json.hpp"
#include "cards/common/state_json.hpp"

#include <fmt/format.h>

#include <stdexcept>

namespace duels::cards::crossfire {

using nlohmann::json;

DUELS_CARDS_COMMAND_JSON(Configure, mission, bonuses, bonus_on_abort)
DUELS_CARDS_COMMAND_JSON(AddRunner, name, metatype, roles, hp, nuyen, starting_cards, deck,
                         karma_in_upgrades)
DUELS_CARDS_COMMAND_JSON(StartGame, starting)
DUELS_CARDS_COMMAND_JSON(DrawCrossfire, name, continuous, timebomb, threshold, text)
DUELS_CARDS_EMPTY_COMMAND_JSON(BeginRound)
DUELS_CARDS_COMMAND_JSON(Flip, obstacles)
DUELS_CARDS_COMMAND_JSON(Pull, obstacle)
DUELS_CARDS_COMMAND_JSON(MoveObstacle, obstacle, to, cannot_attack)
DUELS_CARDS_COMMAND_JSON(ModifyObstacle, obstacle, attack_bonus, cannot_attack, cancel_abilities)
DUELS_CARDS_COMMAND_JSON(HealObstacle, obstacle, levels)
DUELS_CARDS_COMMAND_JSON(PlayCard, card, owner, card_type, damage, target, level_targets)
DUELS_CARDS_COMMAND_JSON(PlaceCard, card, index, target, level_targets)
DUELS_CARDS_EMPTY_COMMAND_JSON(ApplyDamage)
DUELS_CARDS_COMMAND_JSON(DirectDamage, obstacle, damage, defeater)
DUELS_CARDS_COMMAND_JSON(TakeDamage, extra, stopped)
DUELS_CARDS_COMMAND_JSON(Hurt, runners, amount)
DUELS_CARDS_COMMAND_JSON(Heal, runner, amount)
DUELS_CARDS_COMMAND_JSON(Draw, runner, count)
DUELS_CARDS_COMMAND_JSON(DiscardCards, runner, count)
DUELS_CARDS_COMMAND_JSON(GainNuyen, runner, amount)
DUELS_CARDS_COMMAND_JSON(Buy, card, cost, requires_spell)
DUELS_CARDS_EMPTY_COMMAND_JSON(Cycle)
DUELS_CARDS_EMPTY_COMMAND_JSON(Pass)
DUELS_CARDS_EMPTY_COMMAND_JSON(EndTurn)
DUELS_CARDS_COMMAND_JSON(Override, path, value)

DUELS_CARDS_GAME_JSON(Command, Event)

// ---- State ----------------------------------------------------------------------------------

namespace {

template <class E, std::size_t N>
E enum_from(const json& j, const std::array<std::pair<E, const char*>, N>& names,
            const char* what) {
  const std::string name = j.get<std::string>();
  for (const auto& [e, n] : names) {
    if (name == n) return e;
  }
  throw std::invalid_argument(fmt::format("unknown {} '{}'", what, name));
}

template <class E, std::size_t N>
const char* enum_name(E e, const std::array<std::pair<E, const char*>, N>& names) {
  for (const auto& [v, n] : names) {
    if (v == e) return n;
  }
  return "?";
}

constexpr std::array<std::pair<Phase, const char*>, 5> kPhases = {{
    {Phase::Setup, "setup"},
    {Phase::RoundStart, "round_start"},
    {Phase::Turn, "turn"},
    {Phase::SceneEnd, "scene_end"},
    {Phase::GameOver, "game_over"},
}};
constexpr std::array<std::pair<TurnStep, const char*>, 3> kSteps = {{
    {TurnStep::Play, "play"},
    {TurnStep::TakeDamage, "take_damage"},
    {TurnStep::DrawBuy, "draw_buy"},
}};

Colour colour_json(const json& j) {
  auto c = colour_from(j.get<std::string>());
  if (!c) throw std::invalid_argument(fmt::format("'{}' is not a colour", j.get<std::string>()));
  return *c;
}

json points_json(const Points& p) {
  return json{{"black", p.of(Colour::Black)},
              {"blue", p.of(Colour::Blue)},
              {"green", p.of(Colour::Green)},
              {"red", p.of(Colour::Red)},
              {"colourless", p.colourless}};
}

Points points_from(const json& j) {
  Points p;
  if (j.is_null()) return p;
  p.of(Colour::Black) = j.value("black", 0);
  p.of(Colour::Blue) = j.value("blue", 0);
  p.of(Colour::Green) = j.value("green", 0);
  p.of(Colour::Red) = j.value("red", 0);
  p.colourless = j.value("colourless", 0);
  return p;
}

json runner_json(const Runner& r) {
  json roles = json::array();
  for (Colour c : r.roles)
    roles.push_back(colour_name(c));
  return json{{"name", r.name},
              {"metatype", r.metatype},
              {"roles", roles},
              {"client", r.client},
              {"hp", r.hp},
              {"max_hp", r.max_hp},
              {"staggered", r.staggered},
              {"critical", r.critical},
              {"nuyen", r.nuyen},
              {"hand", r.hand},
              {"deck", r.deck},
              {"discard", r.discard},
              {"karma_in_upgrades", r.karma_in_upgrades},
              {"pulled", r.pulled}};
}

Runner runner_from(const json& j) {
  const Runner d{};
  Runner r;
  r.name = j.value("name", d.name);
  r.metatype = j.value("metatype", d.metatype);
  for (const json& c : j.value("roles", json::array()))
    r.roles.push_back(colour_json(c));
  r.client = j.value("client", d.client);
  r.hp = j.value("hp", d.hp);
  r.max_hp = j.value("max_hp", d.max_hp);
  r.staggered = j.value("staggered", d.staggered);
  r.critical = j.value("critical", d.critical);
  r.nuyen = j.value("nuyen", d.nuyen);
  r.hand = j.value("hand", d.hand);
  r.deck = j.value("deck", d.deck);
  r.discard = j.value("discard", d.discard);
  r.karma_in_upgrades = j.value("karma_in_upgrades", d.karma_in_upgrades);
  r.pulled = j.value("pulled", d.pulled);
  return r;
}

json obstacle_json(const Obstacle& o) {
  return json{{"id", o.id},
              {"card", to_notation(o.card)},
              {"facing", o.facing},
              {"partial", points_json(o.partial)},
              {"attack_bonus", o.attack_bonus},
              {"cannot_attack", o.cannot_attack},
              {"abilities_cancelled", o.abilities_cancelled}};
}

Obstacle obstacle_from(const json& j) {
  Obstacle o;
  o.id = j.value("id", 0);
  auto card = parse_obstacle(j.at("card").get<std::string>());
  if (!card) throw std::invalid_argument(card.error().message());
  o.card = *card;
  o.facing = j.value("facing", 0);
  o.partial = points_from(j.value("partial", json()));
  o.attack_bonus = j.value("attack_bonus", 0);
  o.cannot_attack = j.value("cannot_attack", false);
  o.abilities_cancelled = j.value("abilities_cancelled", false);
  return o;
}

json played_json(const PlayedCard& p) {
  return json{{"name", p.name},
              {"owner", p.owner},
              {"type", p.type ? json(colour_name(*p.type)) : json(nullptr)},
              {"damage", to_notation(Bundle{"", p.bundle.points, p.bundle.levels, p.bundle.mode,
                                            p.bundle.obstacle_only})},
              {"target", p.target},
              {"level_targets", p.level_targets},
              {"assist", p.assist},
              {"applied", p.applied}};
}

PlayedCard played_from(const json& j) {
  PlayedCard p;
  p.name = j.value("name", std::string());
  p.owner = j.value("owner", 0);
  if (j.contains("type") && !j["type"].is_null()) p.type = colour_json(j["type"]);
  auto b = parse_bundle(j.value("damage", std::string("none")));
  if (!b) throw std::invalid_argument(b.error().message());
  p.bundle = *b;
  p.bundle.name = p.name;
  p.target = j.value("target", -1);
  p.level_targets = j.value("level_targets", std::vector<int>{});
  p.assist = j.value("assist", false);
  p.applied = j.value("applied", false);
  return p;
}

/// Invariants every state keeps, so a bad override is refused rather than stored.
std::optional<std::string> invalid_state(const State& s) {
  const int n = static_cast<int>(s.runners.size());
  const auto seat_ok = [n](int i) { return i >= 0 && i < n; };
  if (n > 5) return "at most 4 runners and the Client";
  if (n == 0 && s.phase != Phase::Setup) return "runners in a game under way (the list is empty)";
  if (n > 0 && (!seat_ok(s.starting) || !seat_ok(s.current))) {
    return "the starting and current runners must be seats";
  }
  if (n == 0 && (s.starting != 0 || s.current != 0)) {
    return "the starting and current runners 0 while there are no runners";
  }
  for (const Runner& r : s.runners) {
    if (r.hp < 0 || r.max_hp < 0 || r.hp > r.max_hp) {
      return fmt::format("{}: HP must be 0 to max HP", r.name);
    }
    if (r.nuyen < 0 || r.hand < 0 || r.deck < 0 || r.discard < 0) {
      return fmt::format("{}: counts cannot be negative", r.name);
    }
  }
  const Decks& d = s.decks;
  if (d.crossfire < 0 || d.crossfire_discard < 0 || d.normal < 0 || d.normal_discard < 0 ||
      d.hard < 0 || d.hard_discard < 0 || d.market < 0 || d.market_discard < 0 ||
      d.market_slots < 0 || d.market_slots > 6) {
    return "deck counts cannot be negative (and the Black Market has at most 6 slots)";
  }
  for (const Obstacle& o : s.obstacles) {
    if (!seat_ok(o.facing)) return fmt::format("{} must face a seat", o.card.name);
    if (o.card.track.empty()) return fmt::format("{} needs a track", o.card.name);
  }
  for (const PlayedCard& p : s.played) {
    if (!seat_ok(p.owner)) return fmt::format("{}'s owner must be a seat", p.name);
  }
  for (int seat : s.buy_queue) {
    if (!seat_ok(seat)) return "the buy queue holds seats";
  }
  for (int seat : s.abort_queue) {
    if (!seat_ok(seat)) return "the abort queue holds seats";
  }
  if (s.round < 0 || s.scene < 1 || s.progress < 0 || s.progress > 7) {
    return "round, Scene and track step are out of range";
  }
  return std::nullopt;
}

}  // namespace

void to_json(json& j, const State& s) {
  json runners = json::array();
  for (const Runner& r : s.runners)
    runners.push_back(runner_json(r));
  json obstacles = json::array();
  for (const Obstacle& o : s.obstacles)
    obstacles.push_back(obstacle_json(o));
  json played = json::array();
  for (const PlayedCard& p : s.played)
    played.push_back(played_json(p));
  json types = json::array();
  for (Colour c : s.types_played)
    types.push_back(colour_name(c));
  const Decks& d = s.decks;
  j = json{
      {"settings",
       {{"mission", mission_name(s.settings.mission)},
        {"bonuses", s.settings.bonuses},
        {"bonus_on_abort", s.settings.bonus_on_abort}}},
      {"runners", runners},
      {"phase", enum_name(s.phase, kPhases)},
      {"step", enum_name(s.step, kSteps)},
      {"starting", s.starting},
      {"current", s.current},
      {"round", s.round},
      {"scene", s.scene},
      {"decks",
       {{"crossfire", d.crossfire},
        {"crossfire_discard", d.crossfire_discard},
        {"normal", d.normal},
        {"normal_discard", d.normal_discard},
        {"hard", d.hard},
        {"hard_discard", d.hard_discard},
        {"market", d.market},
        {"market_discard", d.market_discard},
        {"market_slots", d.market_slots},
        {"out_of_stock", d.out_of_stock}}},
      {"active_event", s.active_event ? json{{"name", s.active_event->name},
                                             {"continuous", s.active_event->continuous},
                                             {"timebomb", s.active_event->timebomb},
                                             {"threshold", s.active_event->threshold},
                                             {"text", s.active_event->text}}
                                      : json(nullptr)},
      {"drew_this_round", s.drew_this_round},
      {"obstacles", obstacles},
      {"next_obstacle_id", s.next_obstacle_id},
      {"played", played},
      {"types_played", types},
      {"last_defeater", s.last_defeater},
      {"aspects_defeated", s.aspects_defeated},
      {"aspect_fell_this_turn", s.aspect_fell_this_turn},
      {"buy_queue", s.buy_queue},
      {"first_buyer", s.first_buyer},
      {"flip_pending", s.flip_pending},
      {"progress", s.progress},
      {"abort_pending", s.abort_pending},
      {"aborting", s.aborting},
      {"abort_queue", s.abort_queue},
      {"result", s.result ? json(result_name(*s.result)) : json(nullptr)},
      {"end_reason", s.end_reason},
  };
}

void from_json(const json& j, State& s) {
  if (!j.is_object()) throw std::invalid_argument("a state is a JSON object");
  const State d{};
  s = State{};
  if (j.contains("settings")) {
    const json& st = j["settings"];
    auto m = mission_from(st.value("mission", std::string("crossfire")));
    if (!m) throw std::invalid_argument("unknown mission");
    s.settings.mission = *m;
    s.settings.bonuses = st.value("bonuses", std::vector<std::string>{});
    s.settings.bonus_on_abort = st.value("bonus_on_abort", false);
  }
  for (const json& r : j.value("runners", json::array()))
    s.runners.push_back(runner_from(r));
  if (j.contains("phase")) s.phase = enum_from(j["phase"], kPhases, "phase");
  if (j.contains("step")) s.step = enum_from(j["step"], kSteps, "step");
  s.starting = j.value("starting", d.starting);
  s.current = j.value("current", d.current);
  s.round = j.value("round", d.round);
  s.scene = j.value("scene", d.scene);
  if (j.contains("decks")) {
    const json& k = j["decks"];
    s.decks.crossfire = k.value("crossfire", d.decks.crossfire);
    s.decks.crossfire_discard = k.value("crossfire_discard", d.decks.crossfire_discard);
    s.decks.normal = k.value("normal", d.decks.normal);
    s.decks.normal_discard = k.value("normal_discard", d.decks.normal_discard);
    s.decks.hard = k.value("hard", d.decks.hard);
    s.decks.hard_discard = k.value("hard_discard", d.decks.hard_discard);
    s.decks.market = k.value("market", d.decks.market);
    s.decks.market_discard = k.value("market_discard", d.decks.market_discard);
    s.decks.market_slots = k.value("market_slots", d.decks.market_slots);
    s.decks.out_of_stock = k.value("out_of_stock", d.decks.out_of_stock);
  }
  if (j.contains("active_event") && !j["active_event"].is_null()) {
    const json& e = j["active_event"];
    s.active_event = CrossfireEvent{e.value("name", std::string()), e.value("continuous", false),
                                    e.value("timebomb", false), e.value("threshold", 0),
                                    e.value("text", std::string())};
  }
  s.drew_this_round = j.value("drew_this_round", d.drew_this_round);
  for (const json& o : j.value("obstacles", json::array()))
    s.obstacles.push_back(obstacle_from(o));
  s.next_obstacle_id = j.value("next_obstacle_id", d.next_obstacle_id);
  for (const json& p : j.value("played", json::array()))
    s.played.push_back(played_from(p));
  for (const json& c : j.value("types_played", json::array()))
    s.types_played.push_back(colour_json(c));
  s.last_defeater = j.value("last_defeater", d.last_defeater);
  s.aspects_defeated = j.value("aspects_defeated", d.aspects_defeated);
  s.aspect_fell_this_turn = j.value("aspect_fell_this_turn", d.aspect_fell_this_turn);
  s.buy_queue = j.value("buy_queue", d.buy_queue);
  s.first_buyer = j.value("first_buyer", d.first_buyer);
  s.flip_pending = j.value("flip_pending", d.flip_pending);
  s.progress = j.value("progress", d.progress);
  s.abort_pending = j.value("abort_pending", d.abort_pending);
  s.aborting = j.value("aborting", d.aborting);
  s.abort_queue = j.value("abort_queue", d.abort_queue);
  if (j.contains("result") && !j["result"].is_null()) {
    auto r = result_from(j["result"].get<std::string>());
    if (!r) throw std::invalid_argument("unknown result");
    s.result = r;
  }
  s.end_reason = j.value("end_reason", d.end_reason);
}

DUELS_CARDS_STATE_JSON(Command, State, invalid_state, "/runners/0/nuyen")

json allocation_json(const AllocInput& in, const AllocResult& r) {
  const auto name = [&](int c) {
    const std::string& n = in.cards[static_cast<std::size_t>(c)].bundle.name;
    return n.empty() ? fmt::format("card {}", c + 1) : n;
  };
  json obstacles = json::array();
  for (std::size_t o = 0; o < r.obstacles.size(); ++o) {
    const ObstaclePlan& plan = r.obstacles[o];
    json placements = json::array();
    for (const Placement& p : plan.placements) {
      placements.push_back({{"card", name(p.card)},
                            {"level", p.level + 1},
                            {"points", describe(p.points)},
                            {"levels", p.levels}});
    }
    obstacles.push_back({{"name", in.obstacles[o].card.name},
                         {"defeated", plan.defeated},
                         {"cleared", plan.cleared_after},
                         {"cleared_before", plan.cleared_before},
                         {"levels", in.obstacles[o].card.track.size()},
                         {"weight", plan.weight},
                         {"placements", placements}});
  }
  json wasted = json::array();
  for (const Wasted& w : r.wasted) {
    wasted.push_back({{"card", name(w.card)},
                      {"points", describe(w.points)},
                      {"levels", w.levels},
                      {"why", w.why}});
  }
  json kept = json::array();
  for (int c : r.kept)
    kept.push_back(name(c));
  return json{{"obstacles", obstacles},
              {"wasted", wasted},
              {"kept", kept},
              {"score",
               {{"harm", -r.score.harm},
                {"defeat_weight", r.score.defeats},
                {"levels_cleared", r.score.levels},
                {"waste", -r.score.waste},
                {"offered_cards_used", -r.score.cards}}},
              {"lines", r.lines}};
}

}  // namespace duels::cards::crossfire
