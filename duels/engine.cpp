#include "duels/engine.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <set>

#include "dice/notation.hpp"
#include "duels/limits.hpp"
#include "duels/table_rules.hpp"

namespace duels {

namespace {

using dice::Colour;

Rejection reject(RejectCode code, std::string reason) {
  return Rejection{code, std::move(reason)};
}

std::string inches(double v) {
  return fmt::format("{:.1f}\"", v);
}

// Two lengths to 0.01" (more decimals only when that would print two different lengths alike),
// so a range refusal never reads "can't attack at 4.00": the track reaches 4.00"".
std::pair<std::string, std::string> inches_apart(double a, double b) {
  int digits = 2;
  while (digits < 6 && a != b &&
         fmt::format("{:.{}f}", a, digits) == fmt::format("{:.{}f}", b, digits)) {
    ++digits;
  }
  return {fmt::format("{:.{}f}\"", a, digits), fmt::format("{:.{}f}\"", b, digits)};
}

std::string team_name(const GameState& s, TeamId t) {
  return s.teams[static_cast<std::size_t>(t)].name;
}

const std::string& fig_name(const GameState& s, FigureId f) {
  return s.figures[static_cast<std::size_t>(f)].def.name;
}

FigureState& fig(GameState& s, FigureId f) {
  return s.figures[static_cast<std::size_t>(f)];
}
const FigureState& fig(const GameState& s, FigureId f) {
  return s.figures[static_cast<std::size_t>(f)];
}

bool valid_figure(const GameState& s, FigureId f) {
  return f >= 0 && static_cast<std::size_t>(f) < s.figures.size();
}

std::string colour_list(const std::vector<Colour>& colours) {
  std::string out;
  for (std::size_t i = 0; i < colours.size(); ++i) {
    if (i > 0) out += i + 1 == colours.size() ? " and " : ", ";
    out += dice::colour_name(colours[i]);
  }
  return out.empty() ? "none" : out;
}

// Checks ids: known, distinct, and in `zone`.
std::optional<Rejection> check_dice_ids(const FigureState& f, const std::vector<DieId>& ids,
                                        DieZone zone, std::string_view what) {
  for (auto it = ids.begin(); it != ids.end(); ++it) {
    const DieId id = *it;
    if (id < 0 || static_cast<std::size_t>(id) >= f.dice.size()) {
      return reject(RejectCode::UnknownDie, fmt::format("{} has no die #{} (it has {} dice)",
                                                        f.def.name, id, f.dice.size()));
    }
    if (std::find(ids.begin(), it, id) != it) {
      return reject(RejectCode::UnknownDie, fmt::format("die #{} is listed twice", id));
    }
    const DieState& d = f.dice[static_cast<std::size_t>(id)];
    if (d.zone != zone) {
      const char* where = d.zone == DieZone::Cup    ? "in the cup"
                          : d.zone == DieZone::Base ? "on the base"
                                                    : "out of the game";
      return reject(RejectCode::DieNotAvailable,
                    fmt::format("{}'s {} (#{}) is {}, not {}", f.def.name, dice::to_notation(d.die),
                                id, where, what));
    }
  }
  return std::nullopt;
}

std::vector<dice::Die> dice_of(const FigureState& f, const std::vector<DieId>& ids) {
  std::vector<dice::Die> out;
  for (DieId id : ids)
    out.push_back(f.dice[static_cast<std::size_t>(id)].die);
  return out;
}

std::optional<Rejection> check_faces(const FigureState& f, const std::vector<DieId>& ids,
                                     const std::vector<int>& faces, std::string_view what) {
  if (faces.size() != ids.size()) {
    return reject(RejectCode::BadResult,
                  fmt::format("{} {} dice were rolled but {} result{} given", ids.size(), what,
                              faces.size(), faces.size() == 1 ? " was" : "s were"));
  }
  for (std::size_t i = 0; i < ids.size(); ++i) {
    const dice::Die& d = f.dice[static_cast<std::size_t>(ids[i])].die;
    if (faces[i] < 1 || faces[i] > d.sides) {
      return reject(RejectCode::BadResult,
                    fmt::format("a {} can't show {} (faces 1 to {}{})", dice::to_notation(d),
                                faces[i], d.sides, d.ace ? ", 1 being the ace" : ""));
    }
  }
  return std::nullopt;
}

std::vector<dice::Roll> rolls_of(const FigureState& f, const std::vector<DieId>& ids,
                                 const std::vector<int>& faces) {
  std::vector<dice::Roll> out;
  out.reserve(ids.size());
  for (std::size_t i = 0; i < ids.size(); ++i) {
    out.push_back({f.dice[static_cast<std::size_t>(ids[i])].die, faces[i]});
  }
  return out;
}

// check_roll_colours for the figure's dice `ids` (defined with it, below).
std::optional<Rejection> check_roll_colours_of(const FigureState& f, const std::vector<DieId>& ids,
                                               RollPurpose purpose, double gap_in, double chord_in,
                                               const RuleOptions& options);

void to_cup(FigureState& f, const std::vector<DieId>& ids) {
  for (DieId id : ids) {
    auto& d = f.dice[static_cast<std::size_t>(id)];
    if (d.zone == DieZone::Base) d.zone = DieZone::Cup;
  }
}

// The events of one command. Their text is written only when someone will read it: a
// simulation (apply_quietly) plays thousands of matches and reads none of it, and writing it was
// most of the engine's time there.
class Story {
 public:
  explicit Story(bool narrated) : narrated_(narrated) {}
  [[nodiscard]] bool narrated() const { return narrated_; }
  // Adds an event; `text` is called (and the event kept) only when the story is narrated.
  template <class Text>
  void add(const char* kind, std::optional<FigureId> figure, Text&& text) {
    if (narrated_) events.push_back({kind, std::string(text()), figure});
  }
  std::vector<Event> events;

 private:
  bool narrated_;
};

// ---- phase transitions -------------------------------------------------------------------

void start_round(GameState& s, Story& ev) {
  ++s.round;
  s.phase = Phase::ChooseDice;
  s.active_team = -1;
  s.active_figure.reset();
  for (auto& f : s.figures) {
    for (auto& d : f.dice) {
      if (d.zone == DieZone::Base) d.zone = DieZone::Cup;
    }
    f.chose_dice = f.eliminated;
    f.turn_done = false;
    f.moved = false;
    f.attacks = 0;
  }
  ev.add("round", std::nullopt, [&] {
    return fmt::format(
        "Round {} begins; {} is the alpha team. Every player picks up "
        "to six dice from the cup.",
        s.round, team_name(s, s.alpha));
  });
}

bool all_placed(const GameState& s) {
  return std::all_of(s.figures.begin(), s.figures.end(),
                     [](const FigureState& f) { return f.position.has_value(); });
}

// The next team (from `from`, inclusive when `inclusive`) that still has a figure to place.
std::optional<TeamId> next_placer(const GameState& s, TeamId from, bool inclusive) {
  const int n = static_cast<int>(s.teams.size());
  for (int k = inclusive ? 0 : 1; k <= n; ++k) {
    const TeamId t = (from + k) % n;
    for (const auto& f : s.figures) {
      if (f.team == t && !f.position) return t;
    }
  }
  return std::nullopt;
}

std::optional<TeamId> next_terrain_placer(const GameState& s, TeamId from) {
  const int n = static_cast<int>(s.teams.size());
  for (int k = 1; k <= n; ++k) {
    const TeamId t = (from + k) % n;
    if (!s.teams[static_cast<std::size_t>(t)].terrain_done) return t;
  }
  return std::nullopt;
}

void begin_figure_placement(GameState& s, Story& ev) {
  if (all_placed(s)) {
    start_round(s, ev);
    return;
  }
  s.phase = Phase::PlaceFigures;
  s.placing = *next_placer(s, s.alpha, true);
  ev.add("placement", std::nullopt,
         [&] { return fmt::format("{} places a figure first.", team_name(s, s.placing)); });
}

void check_winner(GameState& s, Story& ev) {
  std::vector<TeamId> in_game;
  for (TeamId t = 0; t < static_cast<TeamId>(s.teams.size()); ++t) {
    if (s.team_in_game(t)) in_game.push_back(t);
  }
  if (in_game.size() == 1 && s.phase != Phase::GameOver) {
    s.winner = in_game.front();
    s.phase = Phase::GameOver;
    s.attack.reset();
    s.active_figure.reset();
    ev.add("victory", std::nullopt,
           [&] { return fmt::format("{} wins the match!", team_name(s, in_game.front())); });
  } else if (in_game.empty() && s.phase != Phase::GameOver) {
    s.phase = Phase::GameOver;
    ev.add("victory", std::nullopt, [&] { return "No team is left: the match is a draw."; });
  }
}

void team_loses(GameState& s, TeamId t, const std::string& why, Story& ev) {
  auto& team = s.teams[static_cast<std::size_t>(t)];
  if (team.lost) return;
  team.lost = true;
  for (auto& f : s.figures) {
    if (f.team == t && !f.eliminated) {
      f.eliminated = true;
      f.position.reset();
    }
  }
  std::erase_if(s.countdowns, [t](const Countdown& c) { return c.team == t; });
  ev.add("team_lost", std::nullopt, [&] { return fmt::format("{} loses: {}.", team.name, why); });
}

// After an elimination: a team with no figure left loses at once; the lowest team(s) by value
// start the two-turn countdown (spec §5).
void after_elimination(GameState& s, Story& ev) {
  for (TeamId t = 0; t < static_cast<TeamId>(s.teams.size()); ++t) {
    if (!s.teams[static_cast<std::size_t>(t)].lost && s.team_figures(t, true).empty()) {
      team_loses(s, t, "no figure is left", ev);
    }
  }
  check_winner(s, ev);
  if (s.phase == Phase::GameOver) return;
  int lowest = INT32_MAX;
  for (TeamId t = 0; t < static_cast<TeamId>(s.teams.size()); ++t) {
    if (s.team_in_game(t)) lowest = std::min(lowest, s.team_points(t));
  }
  std::string values;
  for (TeamId t = 0; t < static_cast<TeamId>(s.teams.size()); ++t) {
    if (!s.team_in_game(t)) continue;
    if (ev.narrated()) {
      values +=
          fmt::format("{}{} {}", values.empty() ? "" : ", ", team_name(s, t), s.team_points(t));
    }
    const bool counting_already = std::any_of(s.countdowns.begin(), s.countdowns.end(),
                                              [t](const Countdown& c) { return c.team == t; });
    if (s.team_points(t) == lowest && !counting_already) {
      // The turn under way (if it is this team's) does not count as one of the two.
      s.countdowns.push_back(Countdown{t, 2, s.active_team != t});
      ev.add("countdown", std::nullopt, [&] {
        return fmt::format(
            "{} has the lowest value ({}) and two turns to bring another "
            "team's value to {} or less.",
            team_name(s, t), lowest, lowest);
      });
    }
  }
  ev.add("values", std::nullopt, [&] { return fmt::format("Team values: {}.", values); });
}

void end_round(GameState& s, Story& ev) {
  ev.add("round_end", std::nullopt,
         [&] { return fmt::format("Round {} ends: dice on bases go back to the cups.", s.round); });
  s.alpha = s.next_team_left(s.alpha);
  start_round(s, ev);
}

bool team_done(const GameState& s, TeamId t) {
  for (const auto& f : s.figures) {
    if (f.team == t && !f.eliminated && !f.turn_done) return false;
  }
  return true;
}

// Which teams acted this round is derived: a team acted iff all its in-play figures are done.
std::optional<TeamId> next_active_team(const GameState& s) {
  const int n = static_cast<int>(s.teams.size());
  for (int k = 0; k < n; ++k) {
    const TeamId t = (s.alpha + k) % n;
    if (s.team_in_game(t) && !team_done(s, t)) return t;
  }
  return std::nullopt;
}

void end_team_turn(GameState& s, TeamId t, Story& ev) {
  ev.add("team_turn_end", std::nullopt,
         [&] { return fmt::format("Every figure of {} has acted.", team_name(s, t)); });
  for (auto it = s.countdowns.begin(); it != s.countdowns.end();) {
    if (it->team != t) {
      ++it;
      continue;
    }
    if (!it->counting) {
      it->counting = true;
      ++it;
      continue;
    }
    --it->turns_left;
    const int own = s.team_points(t);
    bool satisfied = false;
    for (TeamId o = 0; o < static_cast<TeamId>(s.teams.size()); ++o) {
      satisfied = satisfied || (o != t && s.team_in_game(o) && s.team_points(o) <= own);
    }
    if (it->turns_left > 0) {
      ev.add("countdown", std::nullopt, [&] {
        return fmt::format("{} has one turn left to bring another team to {} or less.",
                           team_name(s, t), own);
      });
      ++it;
    } else if (satisfied) {
      ev.add("countdown", std::nullopt, [&] {
        return fmt::format("{} brought another team's value to its own ({}) in time.",
                           team_name(s, t), own);
      });
      it = s.countdowns.erase(it);
    } else {
      team_loses(s, t, "it could not bring another team's value down to its own in two turns", ev);
      check_winner(s, ev);
      return;
    }
  }
}

void advance_turns(GameState& s, Story& ev) {
  if (s.phase != Phase::Turns) return;
  if (s.active_team >= 0 && (team_done(s, s.active_team) || !s.team_in_game(s.active_team))) {
    const TeamId finished = s.active_team;
    s.active_team = -1;
    s.active_figure.reset();
    if (s.team_in_game(finished)) end_team_turn(s, finished, ev);
    if (s.phase == Phase::GameOver) return;
  }
  if (s.active_team < 0) {
    if (auto next = next_active_team(s)) {
      s.active_team = *next;
      ev.add("team_turn", std::nullopt,
             [&] { return fmt::format("{}'s turn.", team_name(s, *next)); });
    } else {
      end_round(s, ev);
    }
  }
}

void end_figure_turn(GameState& s, FigureId f, Story& ev) {
  fig(s, f).turn_done = true;
  if (s.active_figure == f) s.active_figure.reset();
  ev.add("turn_end", f, [&] { return fmt::format("{}'s turn is over.", fig_name(s, f)); });
  advance_turns(s, ev);
}

void maybe_auto_end(GameState& s, FigureId f, Story& ev) {
  const auto& fs = fig(s, f);
  if (!fs.eliminated && fs.moved && fs.attacks >= 2 && !fs.turn_done) end_figure_turn(s, f, ev);
}

std::optional<Rejection> check_turn(const GameState& s, FigureId f) {
  if (s.phase != Phase::Turns) {
    return reject(RejectCode::WrongPhase,
                  fmt::format("figures act only during turns (now: {})", phase_name(s.phase)));
  }
  if (s.attack) return reject(RejectCode::WrongPhase, "finish the attack under way first");
  if (!valid_figure(s, f))
    return reject(RejectCode::UnknownFigure, fmt::format("no figure #{}", f));
  const auto& fs = fig(s, f);
  if (fs.eliminated)
    return reject(RejectCode::BadTarget, fmt::format("{} is out of the game", fs.def.name));
  if (fs.team != s.active_team) {
    return reject(RejectCode::NotYourTurn,
                  fmt::format("it is {}'s turn, not {}'s", team_name(s, s.active_team),
                              team_name(s, fs.team)));
  }
  if (fs.turn_done)
    return reject(RejectCode::NotYourTurn,
                  fmt::format("{} has already had its turn this round", fs.def.name));
  if (s.active_figure && *s.active_figure != f) {
    return reject(RejectCode::NotYourTurn, fmt::format("{} is taking its turn; end it first",
                                                       fig_name(s, *s.active_figure)));
  }
  return std::nullopt;
}

void finish_attack(GameState& s, Story& ev) {
  const FigureId attacker = s.attack->attacker;
  s.attack.reset();
  if (s.phase == Phase::Turns) maybe_auto_end(s, attacker, ev);
}

// ---- commands ---------------------------------------------------------------------------

// A handler returns why it refused the command, or nothing once it has applied it.
using Result = std::optional<Rejection>;

Result do_cmd(GameState& s, const RollForAlpha& c, Story& ev) {
  if (s.phase != Phase::AlphaRoll)
    return reject(RejectCode::WrongPhase, "the alpha team is already settled");
  std::set<TeamId> expected(s.alpha_contenders.begin(), s.alpha_contenders.end());
  std::set<TeamId> given;
  for (const auto& [t, r] : c.rolls)
    given.insert(t);
  if (given != expected) {
    std::string names;
    for (TeamId t : s.alpha_contenders)
      names += (names.empty() ? "" : ", ") + team_name(s, t);
    return reject(RejectCode::Other,
                  fmt::format("2d6 are needed from exactly these teams: {}", names));
  }
  int best = -1;
  for (const auto& [t, r] : c.rolls) {
    for (int d : r) {
      if (d < 1 || d > 6)
        return reject(RejectCode::BadResult, fmt::format("a d6 can't show {}", d));
    }
    best = std::max(best, r[0] + r[1]);
  }
  std::vector<TeamId> tied;
  for (const auto& [t, r] : c.rolls) {
    s.teams[static_cast<std::size_t>(t)].alpha_roll = r;
    if (r[0] + r[1] == best) tied.push_back(t);
  }
  ev.add("alpha_roll", std::nullopt, [&] {
    std::string line;
    for (const auto& [t, r] : c.rolls) {
      line += fmt::format("{}{} rolls {}+{}={}", line.empty() ? "" : "; ", team_name(s, t), r[0],
                          r[1], r[0] + r[1]);
    }
    return line;
  });
  s.alpha_contenders = tied;
  if (tied.size() > 1) {
    ev.add("alpha_tie", std::nullopt, [&] {
      std::string names;
      for (TeamId t : tied)
        names += (names.empty() ? "" : " and ") + team_name(s, t);
      return fmt::format("{} tie at {}: they roll again.", names, best);
    });
    return std::nullopt;
  }
  s.alpha = tied.front();
  s.alpha_contenders.clear();
  ev.add("alpha", std::nullopt,
         [&] { return fmt::format("{} is the alpha team.", team_name(s, s.alpha)); });
  s.phase = Phase::PlaceTerrain;
  s.placing = s.alpha;
  ev.add("terrain", std::nullopt, [&] {
    return fmt::format("{} places terrain first (up to two pieces per team).",
                       team_name(s, s.alpha));
  });
  return std::nullopt;
}

std::optional<Rejection> check_placing_team(const GameState& s, Phase phase, TeamId t) {
  if (s.phase != phase) {
    return reject(RejectCode::WrongPhase, fmt::format("this is the {} phase", phase_name(s.phase)));
  }
  if (t < 0 || static_cast<std::size_t>(t) >= s.teams.size()) {
    return reject(RejectCode::Other, fmt::format("no team #{}", t));
  }
  if (t != s.placing) {
    return reject(RejectCode::NotYourTurn, fmt::format("it is {}'s turn to place, not {}'s",
                                                       team_name(s, s.placing), team_name(s, t)));
  }
  return std::nullopt;
}

void after_terrain(GameState& s, TeamId t, Story& ev) {
  if (auto next = next_terrain_placer(s, t)) {
    s.placing = *next;
  } else {
    begin_figure_placement(s, ev);
  }
}

Result do_cmd(GameState& s, const PlaceTerrain& c, Story& ev) {
  if (auto r = check_placing_team(s, Phase::PlaceTerrain, c.team)) return *r;
  if (c.id.empty()) return reject(RejectCode::Other, "a terrain piece needs a name");
  for (const auto& p : s.terrain) {
    if (p.id == c.id)
      return reject(RejectCode::Other, fmt::format("terrain '{}' is already placed", c.id));
  }
  auto& team = s.teams[static_cast<std::size_t>(c.team)];
  if (s.table.measured) {
    // The piece's shape: typed with the command, or the table's catalogue piece of that name.
    std::optional<Shape> shape = c.shape;
    std::string id = c.id;
    if (!shape) {
      const Obstacle* piece = catalogue_piece(s, c.id);
      if (piece == nullptr) {
        std::string known;
        if (s.table.catalogue) {
          for (const auto& o : *s.table.catalogue) {
            const bool down = std::any_of(s.terrain.begin(), s.terrain.end(),
                                          [&](const TerrainPiece& t) { return t.id == o.id; });
            if (!down) known += (known.empty() ? "" : ", ") + o.id;
          }
        }
        return reject(
            RejectCode::Other,
            fmt::format("the table has no terrain called '{}'{}; give its shape: "
                        "terrain {} rect X Y WIDTH DEPTH [ANGLE] | circle X Y R | "
                        "polygon X1 Y1 X2 Y2 X3 Y3 …",
                        c.id,
                        known.empty() ? std::string() : fmt::format(" (still to place: {})", known),
                        c.id));
      }
      shape = piece->shape;
      id = piece->id;
    }
    for (const auto& p : s.terrain) {
      if (p.id == id)
        return reject(RejectCode::Other, fmt::format("terrain '{}' is already placed", id));
    }
    if (auto r = check_terrain_shape(s, id, *shape)) return *r;
    s.terrain.push_back({id, c.team, shape});
    ev.add("terrain", std::nullopt, [&] {
      return fmt::format("{} places the {} ({}).", team.name, id, describe_shape(*shape));
    });
  } else {
    s.terrain.push_back({c.id, c.team, std::nullopt});
    ev.add("terrain", std::nullopt,
           [&] { return fmt::format("{} places terrain '{}'.", team.name, c.id); });
  }
  team.terrain_placed++;
  team.terrain_done = team.terrain_placed >= 2;
  after_terrain(s, c.team, ev);
  return std::nullopt;
}

Result do_cmd(GameState& s, const PassTerrain& c, Story& ev) {
  if (auto r = check_placing_team(s, Phase::PlaceTerrain, c.team)) return *r;
  auto& team = s.teams[static_cast<std::size_t>(c.team)];
  team.terrain_done = true;
  ev.add("terrain", std::nullopt,
         [&] { return fmt::format("{} places no more terrain.", team.name); });
  after_terrain(s, c.team, ev);
  return std::nullopt;
}

double gap_between(const FigureState& a, const Point& at, const FigureState& b) {
  const double dx = at.x - b.position->x;
  const double dy = at.y - b.position->y;
  return std::sqrt(dx * dx + dy * dy) - a.def.base_diameter_in / 2 - b.def.base_diameter_in / 2;
}

Result do_cmd(GameState& s, const PlaceFigure& c, Story& ev) {
  if (!valid_figure(s, c.figure))
    return reject(RejectCode::UnknownFigure, fmt::format("no figure #{}", c.figure));
  auto& f = fig(s, c.figure);
  if (auto r = check_placing_team(s, Phase::PlaceFigures, f.team)) return *r;
  if (f.position)
    return reject(RejectCode::Other, fmt::format("{} is already on the table", f.def.name));
  if (s.table.measured) {
    if (auto r = check_placement(s, c.figure, c.at)) return *r;
  }
  for (const auto& o : s.figures) {
    if (!o.position || &o == &f) continue;
    const double gap = gap_between(f, c.at, o);
    if (gap < 0) {
      return reject(RejectCode::PlacementTooClose,
                    fmt::format("{} would overlap {}'s base", f.def.name, o.def.name));
    }
    if (o.team != f.team && s.options.enforce_placement_distance &&
        gap < s.options.placement_distance_in) {
      return reject(
          RejectCode::PlacementTooClose,
          fmt::format("{} must start at least {} from {} (the gap would be {})", f.def.name,
                      inches(s.options.placement_distance_in), o.def.name, inches(gap)));
    }
  }
  f.position = c.at;
  ev.add("place", c.figure, [&] {
    return fmt::format("{} places {} at ({:.1f}, {:.1f}).", team_name(s, f.team), f.def.name,
                       c.at.x, c.at.y);
  });
  if (auto next = next_placer(s, f.team, false)) {
    s.placing = *next;
  } else {
    start_round(s, ev);
  }
  return std::nullopt;
}

Result do_cmd(GameState& s, const ChooseDice& c, Story& ev) {
  if (s.phase != Phase::ChooseDice) {
    return reject(RejectCode::WrongPhase, "dice are chosen only at the start of a round");
  }
  if (!valid_figure(s, c.figure))
    return reject(RejectCode::UnknownFigure, fmt::format("no figure #{}", c.figure));
  auto& f = fig(s, c.figure);
  if (f.eliminated)
    return reject(RejectCode::BadTarget, fmt::format("{} is out of the game", f.def.name));
  if (f.chose_dice)
    return reject(RejectCode::Other,
                  fmt::format("{} has already chosen its dice this round", f.def.name));
  if (c.dice.size() > 6) {
    return reject(RejectCode::TooManyDice,
                  fmt::format("at most six dice go on the base ({} chosen)", c.dice.size()));
  }
  if (auto r = check_dice_ids(f, c.dice, DieZone::Cup, "in the cup")) return *r;
  for (DieId id : c.dice)
    f.dice[static_cast<std::size_t>(id)].zone = DieZone::Base;
  f.chose_dice = true;
  ev.add("choose_dice", c.figure, [&] {
    return fmt::format(
        "{} puts {} on its base.", f.def.name,
        c.dice.empty() ? std::string("no dice") : dice::to_notation(dice_of(f, c.dice)));
  });
  if (std::all_of(s.figures.begin(), s.figures.end(),
                  [](const FigureState& x) { return x.chose_dice; })) {
    s.phase = Phase::Turns;
    s.active_team = -1;
    advance_turns(s, ev);
  }
  return std::nullopt;
}

Result do_cmd(GameState& s, const Move& c, Story& ev) {
  if (auto r = check_turn(s, c.figure)) return *r;
  auto& f = fig(s, c.figure);
  if (f.moved)
    return reject(RejectCode::AlreadyMoved,
                  fmt::format("{} has already moved this turn", f.def.name));
  std::vector<DieId> ids;
  std::vector<int> faces;
  ids.reserve(c.rolls.size());
  faces.reserve(c.rolls.size());
  for (const auto& r : c.rolls) {
    ids.push_back(r.die);
    faces.push_back(r.face);
  }
  if (auto r = check_dice_ids(f, ids, DieZone::Base, "on the base")) return *r;
  if (!ids.empty()) {
    if (auto r = check_roll_colours_of(f, ids, RollPurpose::Move, 0, 0, s.options)) return *r;
  }
  if (auto r = check_faces(f, ids, faces, "movement")) return *r;
  if (c.distance_in && *c.distance_in < 0)
    return reject(RejectCode::TooFar, "a move can't have a negative length");
  const auto rolls = rolls_of(f, ids, faces);
  int sum = 0;
  for (const auto& r : rolls)
    sum += r.value();
  const int allowance = f.value(DialKind::Head) + sum;
  auto rolled = [&] {
    return rolls.empty() ? std::string() : fmt::format(" (rolled {})", dice::to_notation(rolls));
  };
  if (s.table.measured) {
    // The table decides: the shortest legal path to where the base ends (spec §3 Movement).
    if (!c.to) {
      return reject(
          RejectCode::Other,
          fmt::format("say where {} ends its move: move {} to X Y (the path is "
                      "measured from where it stands, {})",
                      f.def.name, f.def.name,
                      f.position ? fmt::format("({:.1f}, {:.1f})", f.position->x, f.position->y)
                                 : std::string("off the table")));
    }
    const MoveCheck m = check_move(s, c.figure, *c.to, allowance);
    if (!m.ok) return reject(m.code, m.reason);
    if (c.distance_in && std::abs(*c.distance_in - m.length_in) > kTypedDistanceToleranceIn) {
      return reject(
          RejectCode::BadResult,
          fmt::format("{} was measured as {:.1f}\", but the shortest legal path to "
                      "({:.1f}, {:.1f}) is {:.1f}\"{}; leave the distance out and the "
                      "table measures it",
                      f.def.name, *c.distance_in, c.to->x, c.to->y, m.length_in,
                      m.detour.empty() ? std::string() : " (round the " + m.detour.front() + ")"));
    }
    ev.add("move", c.figure, [&] {
      std::string how;
      if (!m.detour.empty()) {
        how = " round ";
        for (std::size_t i = 0; i < m.detour.size(); ++i)
          how += (i == 0 ? "" : i + 1 == m.detour.size() ? " and " : ", ") + m.detour[i];
      }
      return fmt::format("{} moves {}{} to ({:.1f}, {:.1f}), of its {}\"{}.", f.def.name,
                         inches(m.length_in), how, c.to->x, c.to->y, allowance, rolled());
    });
  } else {
    // A journal from before format 2: the typed distance, as it was played.
    const double distance = c.distance_in.value_or(0);
    if (distance > allowance + 1e-9) {
      return reject(RejectCode::TooFar,
                    fmt::format("{} can move {}\" (Head {}{}), not {}", f.def.name, allowance,
                                f.value(DialKind::Head),
                                rolls.empty() ? std::string() : fmt::format(" + {} rolled", sum),
                                inches(distance)));
    }
    ev.add("move", c.figure, [&] {
      return fmt::format("{} moves {} of its {}\"{}.", f.def.name, inches(distance), allowance,
                         rolled());
    });
  }
  to_cup(f, ids);
  f.moved = true;
  if (c.to) f.position = c.to;
  s.active_figure = c.figure;
  maybe_auto_end(s, c.figure, ev);
  return std::nullopt;
}

Result do_cmd(GameState& s, const DeclareAttack& c, Story& ev) {
  if (auto r = check_turn(s, c.attacker)) return *r;
  auto& a = fig(s, c.attacker);
  if (a.attacks >= 2)
    return reject(RejectCode::NoAttacksLeft,
                  fmt::format("{} has made both its attacks this turn", a.def.name));
  if (!valid_figure(s, c.target))
    return reject(RejectCode::UnknownFigure, fmt::format("no figure #{}", c.target));
  const auto& t = fig(s, c.target);
  if (t.eliminated)
    return reject(RejectCode::BadTarget, fmt::format("{} is out of the game", t.def.name));
  if (t.team == a.team)
    return reject(RejectCode::BadTarget,
                  fmt::format("{} is on {}'s own team", t.def.name, a.def.name));
  Measurement m = c.measurement;
  std::optional<Measurement> positions;
  if (s.table.measured) {
    // The positions decide the line of fire; a hand-measured gap and chord (manual) may stand
    // in for the ones along the witness line.
    if (!a.position || !t.position) {
      return reject(RejectCode::Other,
                    fmt::format("{} is not on the table", a.position ? t.def.name : a.def.name));
    }
    positions = measure_from_positions(s, c.attacker, c.target);
    if (!c.measurement.line_of_fire && positions->line_of_fire) {
      return reject(RejectCode::Other,
                    fmt::format("nothing blocks {}'s line of fire to {}{}: a clear line passes at "
                                "{} (drop 'blocked')",
                                a.def.name, t.def.name,
                                c.measurement.blockers.empty()
                                    ? std::string()
                                    : " (not " + c.measurement.blockers.front() + ")",
                                inches(positions->gap_in)));
    }
    if (!positions->line_of_fire) {
      for (const auto& b : c.measurement.blockers) {
        if (std::find(positions->blockers.begin(), positions->blockers.end(), b) ==
            positions->blockers.end()) {
          std::string real;
          for (const auto& r : positions->blockers)
            real += (real.empty() ? "" : ", ") + r;
          return reject(RejectCode::NoLineOfFire,
                        fmt::format("{} has no line of fire to {}, but '{}' is not what blocks "
                                    "it: blocked by {}",
                                    a.def.name, t.def.name, b, real));
        }
      }
    }
    if (c.measurement.manual) {
      m.line_of_fire = positions->line_of_fire;
      m.blockers = positions->blockers;
    } else {
      m = std::move(*positions);  // only its numbers are read below
    }
  }
  if (!m.line_of_fire) {
    std::string by;
    for (const auto& b : m.blockers)
      by += (by.empty() ? "" : ", ") + b;
    return reject(RejectCode::NoLineOfFire,
                  fmt::format("{} has no line of fire to {}{}", a.def.name, t.def.name,
                              by.empty() ? std::string() : " (blocked by " + by + ")"));
  }
  if (!(m.gap_in >= 0) || !(m.chord_in > 0) || m.chord_in > a.def.base_diameter_in + 1e-6) {
    return reject(
        RejectCode::Other,
        fmt::format("the measurement is impossible (gap {}, chord {} on a {} base)",
                    inches(m.gap_in), inches(m.chord_in), inches(a.def.base_diameter_in)));
  }
  if (c.dice.empty()) return reject(RejectCode::NoDice, "an attack needs at least one die");
  if (auto r = check_dice_ids(a, c.dice, DieZone::Base, "on the base")) return *r;
  if (auto r =
          check_roll_colours_of(a, c.dice, RollPurpose::Attack, m.gap_in, m.chord_in, s.options)) {
    return *r;
  }
  a.attacks++;
  s.active_figure = c.attacker;
  PendingAttack p;
  p.attacker = c.attacker;
  p.target = c.target;
  p.gap_in = m.gap_in;
  p.chord_in = m.chord_in;
  p.manual = s.table.measured && c.measurement.manual;
  if (positions) {
    p.positions_gap_in = positions->gap_in;
    p.positions_chord_in = positions->chord_in;
  }
  p.attack_dice = c.dice;
  p.stage = AttackStage::Dodge;
  s.attack = std::move(p);
  ev.add("attack", c.attacker, [&] {
    return fmt::format("{} attacks {} at {}{} with {}.", a.def.name, t.def.name, inches(m.gap_in),
                       s.attack->manual ? fmt::format(" (measured by hand; the positions say {})",
                                                      inches(s.attack->positions_gap_in))
                                        : std::string(),
                       dice::to_notation(dice_of(a, c.dice)));
  });
  return std::nullopt;
}

std::optional<Rejection> check_stage(const GameState& s, AttackStage stage, std::string_view what) {
  if (!s.attack)
    return reject(RejectCode::WrongPhase, fmt::format("there is no attack to {}", what));
  if (s.attack->stage != stage) {
    static constexpr std::array<std::string_view, 4> kWaiting = {
        "the defender's dodge choice", "the roll", "the defender's choice of gear to lose",
        "the choice of dial for the damage"};
    return reject(RejectCode::WrongPhase,
                  fmt::format("the attack is waiting for {}",
                              kWaiting[static_cast<std::size_t>(s.attack->stage)]));
  }
  return std::nullopt;
}

Result do_cmd(GameState& s, const ChooseDodge& c, Story& ev) {
  if (auto r = check_stage(s, AttackStage::Dodge, "dodge")) return *r;
  auto& d = fig(s, s.attack->target);
  if (auto r = check_dice_ids(d, c.dice, DieZone::Base, "on the base")) return *r;
  if (!c.dice.empty()) {
    if (auto r = check_roll_colours_of(d, c.dice, RollPurpose::Dodge, 0, 0, s.options)) return *r;
  }
  s.attack->dodge_dice = c.dice;
  s.attack->stage = AttackStage::Roll;
  ev.add("dodge", s.attack->target, [&] {
    return c.dice.empty() ? fmt::format("{} does not dodge.", d.def.name)
                          : fmt::format("{} dodges with {}.", d.def.name,
                                        dice::to_notation(dice_of(d, c.dice)));
  });
  return std::nullopt;
}

void enter_damage_or_finish(GameState& s, Story& ev) {
  auto& p = *s.attack;
  if (p.gear_to_remove > 0) {
    p.stage = AttackStage::RemoveGear;
    return;
  }
  if (p.result.clicks > 0) {
    p.stage = AttackStage::Damage;
    ev.add("assign", p.target, [&] {
      return fmt::format(
          "{} assigns {} click{} to one of {}'s dials.",
          p.attacker_assigns ? fig_name(s, p.attacker) + " (Called Shot)" : fig_name(s, p.target),
          p.result.clicks, p.result.clicks == 1 ? "" : "s", fig_name(s, p.target));
    });
    return;
  }
  finish_attack(s, ev);
}

Result do_cmd(GameState& s, const RollAttack& c, Story& ev) {
  if (auto r = check_stage(s, AttackStage::Roll, "roll")) return *r;
  auto& p = *s.attack;
  auto& a = fig(s, p.attacker);
  auto& d = fig(s, p.target);
  if (auto r = check_faces(a, p.attack_dice, c.attack_faces, "attack")) return *r;
  if (auto r = check_faces(d, p.dodge_dice, c.dodge_faces, "dodge")) return *r;
  AttackInput in;
  in.weapon = a.value(DialKind::Weapon);
  in.body = d.value(DialKind::Body);
  in.attack = rolls_of(a, p.attack_dice, c.attack_faces);
  in.dodge = rolls_of(d, p.dodge_dice, c.dodge_faces);
  in.shields = d.shields();
  in.bonus = a.def.damage_bonus;
  AttackResult res = resolve_attack(in);
  if (c.bonus) {
    const auto options = bonus_options(in, res);
    if (options.count(*c.bonus) == 0) {
      return reject(RejectCode::Other,
                    fmt::format("no {} bonus applies: {}", dice::colour_name(*c.bonus),
                                res.hit ? "no damaging die of that colour carries a bonus"
                                        : "the attack missed"));
    }
    in.bonus_choice = c.bonus;
    res = resolve_attack(in);
  }
  ev.add("roll", p.attacker, [&] {
    return fmt::format("{} rolls {}{}.", a.def.name, dice::to_notation(in.attack),
                       in.dodge.empty()
                           ? std::string()
                           : fmt::format("; {} rolls {}", d.def.name, dice::to_notation(in.dodge)));
  });
  if (ev.narrated()) {
    for (auto& line : describe_attack(in, res))
      ev.add("step", p.attacker, [&] { return std::move(line); });
  }
  // Every rolled die goes to its cup (Bad Karma and blocked dice included).
  to_cup(a, p.attack_dice);
  to_cup(d, p.dodge_dice);
  p.input = std::move(in);
  p.result = std::move(res);
  p.stage = AttackStage::Damage;
  ++s.attacks_rolled;
  if (!p.result.hit) {
    // The attack ends here: its record takes the pending attack as it stands, without a copy.
    const FigureId attacker = p.attacker;
    s.last_attack = std::move(p);
    ev.add("miss", attacker, [&] { return fmt::format("{} misses {}.", a.def.name, d.def.name); });
    finish_attack(s, ev);
    return std::nullopt;
  }
  s.last_attack = p;
  const AttackResult& hit = p.result;
  ev.add("hit", p.attacker, [&] {
    return fmt::format("{} hits {} for {} click{}.", a.def.name, d.def.name, hit.clicks,
                       hit.clicks == 1 ? "" : "s");
  });
  if (hit.has_effect(AceEffect::Stun)) {
    for (auto& die : d.dice) {
      if (die.zone == DieZone::Base) die.zone = DieZone::Cup;
    }
    ev.add("stun", p.target, [&] {
      return fmt::format("Stun! {}'s dice on its base go to its cup for the round.", d.def.name);
    });
  }
  int gear_left = 0;
  for (const auto& g : d.gear)
    gear_left += g.removed ? 0 : 1;
  p.gear_to_remove = std::min(hit.effect_count(AceEffect::TechSuperiority), gear_left);
  if (p.gear_to_remove > 0) {
    ev.add("tech", p.target, [&] {
      return fmt::format("Technical Superiority! {} must give up {} piece{} of gear.", d.def.name,
                         p.gear_to_remove, p.gear_to_remove == 1 ? "" : "s");
    });
  }
  p.attacker_assigns = hit.has_effect(AceEffect::CalledShot);
  if (p.attacker_assigns) {
    ev.add("called_shot", p.attacker,
           [&] { return fmt::format("Called Shot! {} chooses the dial.", a.def.name); });
  }
  enter_damage_or_finish(s, ev);
  return std::nullopt;
}

Result do_cmd(GameState& s, const RemoveGear& c, Story& ev) {
  if (auto r = check_stage(s, AttackStage::RemoveGear, "take gear from")) return *r;
  auto& p = *s.attack;
  auto& d = fig(s, p.target);
  auto it = std::find_if(d.gear.begin(), d.gear.end(),
                         [&](const GearState& g) { return g.def.id == c.gear_id && !g.removed; });
  if (it == d.gear.end()) {
    std::string have;
    for (const auto& g : d.gear) {
      if (!g.removed) have += (have.empty() ? "" : ", ") + g.def.id;
    }
    return reject(RejectCode::Other,
                  fmt::format("{} has no gear '{}' to give up (it has: {})", d.def.name, c.gear_id,
                              have.empty() ? "none" : have));
  }
  it->removed = true;
  int lost = 0;
  for (auto& die : d.dice) {
    if (die.die.origin == c.gear_id && die.zone != DieZone::Removed) {
      die.zone = DieZone::Removed;
      ++lost;
    }
  }
  --p.gear_to_remove;
  ev.add("gear_lost", p.target, [&] {
    return fmt::format("{} loses {} and its {} dice for the rest of the game.", d.def.name,
                       it->def.name, lost);
  });
  enter_damage_or_finish(s, ev);
  return std::nullopt;
}

Result do_cmd(GameState& s, const AssignDamage& c, Story& ev) {
  if (auto r = check_stage(s, AttackStage::Damage, "assign damage for")) return *r;
  auto& p = *s.attack;
  auto& d = fig(s, p.target);
  const int k = static_cast<int>(c.dial);
  const auto& dial = d.def.dials[static_cast<std::size_t>(k)];
  const int before = d.dial[static_cast<std::size_t>(k)];
  const int after = std::min(before + p.result.clicks, static_cast<int>(dial.positions.size()) - 1);
  d.dial[static_cast<std::size_t>(k)] = after;
  ev.add("damage", p.target, [&] {
    return fmt::format("{}'s {} dial clicks {} time{}: {} → {}.", d.def.name, dial_name(c.dial),
                       p.result.clicks, p.result.clicks == 1 ? "" : "s",
                       dial.positions[static_cast<std::size_t>(before)].value,
                       dial.positions[static_cast<std::size_t>(after)].value);
  });
  if (d.bullet_holes() >= 3) {
    d.eliminated = true;
    d.position.reset();
    for (auto& die : d.dice) {
      if (die.zone == DieZone::Base) die.zone = DieZone::Cup;
    }
    ev.add("eliminated", p.target, [&] {
      return fmt::format("{} shows three bullet holes and is eliminated.", d.def.name);
    });
    after_elimination(s, ev);
    if (s.phase == Phase::GameOver) return std::nullopt;
  }
  finish_attack(s, ev);
  return std::nullopt;
}

Result do_cmd(GameState& s, const EndTurn& c, Story& ev) {
  if (auto r = check_turn(s, c.figure)) return *r;
  end_figure_turn(s, c.figure, ev);
  return std::nullopt;
}

}  // namespace

// ---- state helpers ------------------------------------------------------------------------

const DialPosition& FigureState::showing(DialKind d) const {
  const auto& positions = def.dials[static_cast<std::size_t>(d)].positions;
  return positions[static_cast<std::size_t>(dial[static_cast<std::size_t>(d)])];
}

int FigureState::bullet_holes() const {
  int n = 0;
  for (DialKind d : kAllDials)
    n += showing(d).bullet_holes;
  return n;
}

std::vector<Colour> FigureState::shields() const {
  std::vector<Colour> out;
  for (const auto& g : gear) {
    if (!g.removed) out.insert(out.end(), g.def.shields.begin(), g.def.shields.end());
  }
  for (DialKind d : kAllDials) {
    if (showing(d).shield) out.push_back(*showing(d).shield);
  }
  return out;
}

int FigureState::points() const {
  int p = def.points;
  for (const auto& g : gear)
    p += g.removed ? 0 : g.def.points;
  return p;
}

std::vector<DieId> FigureState::dice_in(DieZone zone) const {
  std::vector<DieId> out;
  for (std::size_t i = 0; i < dice.size(); ++i) {
    if (dice[i].zone == zone) out.push_back(static_cast<DieId>(i));
  }
  return out;
}

int GameState::team_points(TeamId t) const {
  int p = 0;
  for (const auto& f : figures) {
    if (f.team == t && !f.eliminated) p += f.points();
  }
  return p;
}

std::vector<FigureId> GameState::team_figures(TeamId t, bool in_play_only) const {
  std::vector<FigureId> out;
  for (std::size_t i = 0; i < figures.size(); ++i) {
    if (figures[i].team == t && (!in_play_only || !figures[i].eliminated)) {
      out.push_back(static_cast<FigureId>(i));
    }
  }
  return out;
}

bool GameState::team_in_game(TeamId t) const {
  return t >= 0 && static_cast<std::size_t>(t) < teams.size() &&
         !teams[static_cast<std::size_t>(t)].lost;
}

TeamId GameState::next_team_left(TeamId t) const {
  const int n = static_cast<int>(teams.size());
  for (int k = 1; k <= n; ++k) {
    const TeamId c = (t + k) % n;
    if (team_in_game(c)) return c;
  }
  return t;
}

std::string_view phase_name(Phase p) {
  switch (p) {
    case Phase::AlphaRoll:
      return "alpha roll";
    case Phase::PlaceTerrain:
      return "terrain placement";
    case Phase::PlaceFigures:
      return "figure placement";
    case Phase::ChooseDice:
      return "dice choice";
    case Phase::Turns:
      return "turns";
    case Phase::GameOver:
      return "game over";
  }
  return "?";
}

std::string_view command_name(const Command& c) {
  static constexpr std::array<std::string_view, 12> kNames = {
      "roll_for_alpha", "place_terrain", "pass_terrain",   "place_figure",
      "choose_dice",    "move",          "declare_attack", "choose_dodge",
      "roll_attack",    "remove_gear",   "assign_damage",  "end_turn"};
  return kNames[c.index()];
}

// ---- public entry points ------------------------------------------------------------------

Expected<GameState, Rejection> new_game(const MatchSetup& setup) {
  if (setup.teams.size() < 2) return reject(RejectCode::Other, "a match needs at least two teams");
  GameState s;
  s.options = setup.options;
  s.table = setup.table;
  for (std::size_t t = 0; t < setup.teams.size(); ++t) {
    const auto& ts = setup.teams[t];
    if (ts.figures.empty())
      return reject(RejectCode::Other, fmt::format("team {} has no figure", ts.name));
    s.teams.push_back(TeamState{ts.name});
    for (const auto& fsu : ts.figures) {
      FigureState f;
      f.def = fsu.figure;
      f.team = static_cast<TeamId>(t);
      for (DialKind d : kAllDials) {
        if (f.def.dial(d).positions.empty()) {
          return reject(RejectCode::Other,
                        fmt::format("{}'s {} dial has no positions", f.def.name, dial_name(d)));
        }
      }
      int gear_points = 0;
      std::set<std::string> ids;
      for (const auto& g : fsu.gear) {
        if (!ids.insert(g.id).second) {
          return reject(RejectCode::Other,
                        fmt::format("{} carries gear '{}' twice", f.def.name, g.id));
        }
        gear_points += g.points;
        f.gear.push_back(GearState{g});
      }
      if (gear_points > kMaxGearPoints) {
        return reject(RejectCode::Other,
                      fmt::format("{} carries {} points of gear; the limit is {}", f.def.name,
                                  gear_points, kMaxGearPoints));
      }
      for (const auto& d : f.def.starting_dice) {
        dice::Die die = d;
        die.origin.clear();
        f.dice.push_back({die, DieZone::Cup});
      }
      for (const auto& g : fsu.gear) {
        for (const auto& d : g.dice) {
          dice::Die die = d;
          die.origin = g.id;
          f.dice.push_back({die, DieZone::Cup});
        }
      }
      f.position = fsu.position;
      s.figures.push_back(std::move(f));
    }
  }
  if (s.table.measured) {
    // Bases set up where they stand must stand on the table and not on each other.
    for (FigureId f = 0; f < static_cast<FigureId>(s.figures.size()); ++f) {
      if (!s.figures[static_cast<std::size_t>(f)].position) continue;
      GameState probe = s;
      const Point at = *probe.figures[static_cast<std::size_t>(f)].position;
      probe.figures[static_cast<std::size_t>(f)].position.reset();
      for (FigureId g = f + 1; g < static_cast<FigureId>(s.figures.size()); ++g)
        probe.figures[static_cast<std::size_t>(g)].position.reset();
      probe.options.enforce_placement_distance = false;
      if (auto r = check_placement(probe, f, at)) return *r;
    }
  }
  for (TeamId t = 0; t < static_cast<TeamId>(s.teams.size()); ++t)
    s.alpha_contenders.push_back(t);
  return s;
}

Expected<std::vector<Event>, Rejection> apply(GameState& state, const Command& command) {
  // Every handler checks everything before it changes anything, so a rejection leaves the state
  // as it was without copying it (tests/duels/engine_test.cpp checks this on every rejection,
  // and a property test on random commands).
  if (auto fault = limits::command_fault(command)) return Rejection{RejectCode::Other, *fault};
  Story story(true);
  if (auto r = std::visit([&](const auto& c) { return do_cmd(state, c, story); }, command))
    return *std::move(r);
  return std::move(story.events);
}

std::optional<Rejection> apply_quietly(GameState& state, const Command& command) {
  if (auto fault = limits::command_fault(command)) return Rejection{RejectCode::Other, *fault};
  Story story(false);
  return std::visit([&](const auto& c) { return do_cmd(state, c, story); }, command);
}

std::optional<Rejection> legal(const GameState& state, const Command& command) {
  GameState copy = state;
  return apply_quietly(copy, command);
}

namespace {

// check_roll_colours, with the reason written only when `explain` (the opponent's searches
// only need to know whether a roll is legal; formatting every refusal was a fifth of their time).
// `dice` is any list of dice, `colour_of` reads one's colour: the engine checks dice by their
// ids on the figure, without copying them.
template <class Dice, class ColourOf>
std::optional<Rejection> roll_colours_problem(const FigureState& f, const Dice& dice,
                                              ColourOf colour_of, RollPurpose purpose,
                                              double gap_in, double chord_in,
                                              const RuleOptions& options, bool explain) {
  auto fail = [&](RejectCode code, auto&& text) -> Rejection {
    if (!explain) return Rejection{code, {}};
    return reject(code, text());
  };
  if (dice.empty()) return fail(RejectCode::NoDice, [] { return "a roll needs at least one die"; });
  // A die is an "anchor" when its colour may be rolled on its own for this purpose; wild dice
  // (black, red) without their own track may only join a roll holding an anchor.
  auto own_track_ok = [&](Colour c) -> bool {
    const Track* t = f.def.tape.track(c);
    if (t == nullptr) return false;
    if (purpose == RollPurpose::Attack && options.wild_alone_attack_needs_range) {
      return track_usable(*t, gap_in, chord_in);
    }
    return true;
  };
  bool anchor = false;
  for (const auto& d : dice) {
    const Colour c = colour_of(d);
    if (dice::is_wild(c)) {
      anchor = anchor || own_track_ok(c);
      continue;
    }
    switch (purpose) {
      case RollPurpose::Move:
        if (c != Colour::White) {
          return fail(RejectCode::IllegalColour, [&] {
            return fmt::format(
                "{} dice can't be rolled to move (movement uses white dice, "
                "with black or red joining)",
                dice::colour_name(c));
          });
        }
        break;
      case RollPurpose::Dodge:
        if (c != Colour::White && c != Colour::Yellow) {
          return fail(RejectCode::IllegalColour, [&] {
            return fmt::format(
                "{} dice can't be rolled to dodge (dodges use white or yellow "
                "dice, with black or red joining)",
                dice::colour_name(c));
          });
        }
        break;
      case RollPurpose::Attack: {
        if (c == Colour::White) {
          return fail(RejectCode::IllegalColour,
                      [] { return "white dice can't attack (white is for moving and dodging)"; });
        }
        const Track* t = f.def.tape.track(c);
        if (t == nullptr) {
          return fail(RejectCode::IllegalColour, [&] {
            return fmt::format("{} dice can't attack: {}'s tape has no {} track",
                               dice::colour_name(c), f.def.name, dice::colour_name(c));
          });
        }
        if (!track_usable(*t, gap_in, chord_in)) {
          const double reach = t->to_in - std::max(t->from_in, 0.0);
          if (std::max(t->from_in, 0.0) > chord_in) {
            return fail(RejectCode::OutOfRange, [&] {
              return fmt::format(
                  "{} dice can't attack: the {} track starts at {}, beyond "
                  "{}'s base",
                  dice::colour_name(c), dice::colour_name(c), inches(t->from_in), f.def.name);
            });
          }
          return fail(RejectCode::OutOfRange, [&] {
            const auto [gap_text, reach_text] = inches_apart(gap_in, reach);
            return fmt::format(
                "{} dice can't attack at {}: the {} track ends at {:.2f}\" "
                "on the tape, so it reaches {} at most",
                dice::colour_name(c), gap_text, dice::colour_name(c), t->to_in, reach_text);
          });
        }
        break;
      }
    }
    anchor = true;
  }
  if (!anchor) {
    if (!explain) return Rejection{RejectCode::IllegalColour, {}};
    std::vector<Colour> wild;
    for (const auto& d : dice) {
      if (std::find(wild.begin(), wild.end(), colour_of(d)) == wild.end())
        wild.push_back(colour_of(d));
    }
    std::string why;
    for (Colour c : wild) {
      const Track* t = f.def.tape.track(c);
      if (t == nullptr) {
        why = fmt::format("{}'s tape has no {} track", f.def.name, dice::colour_name(c));
      } else if (std::max(t->from_in, 0.0) > chord_in) {
        why = fmt::format("the {} track starts at {:.2f}\", beyond {}'s base", dice::colour_name(c),
                          t->from_in, f.def.name);
      } else {
        const auto [gap_text, reach_text] =
            inches_apart(gap_in, t->to_in - std::max(t->from_in, 0.0));
        why = fmt::format("the {} track ends at {:.2f}\" on the tape and reaches {}, short of {}",
                          dice::colour_name(c), t->to_in, reach_text, gap_text);
      }
    }
    return reject(
        RejectCode::IllegalColour,
        fmt::format("{} dice can't be rolled alone: {} (they must join another legal die)",
                    colour_list(wild), why));
  }
  return std::nullopt;
}

Colour colour_of_die(const dice::Die& d) {
  return d.colour;
}

// The colour problem of the figure's dice `ids` (checked already), explained or not.
template <class Ids>
std::optional<Rejection> ids_colours_problem(const FigureState& f, const Ids& ids,
                                             RollPurpose purpose, double gap_in, double chord_in,
                                             const RuleOptions& options, bool explain) {
  return roll_colours_problem(
      f, ids, [&](DieId id) { return f.dice[static_cast<std::size_t>(id)].die.colour; }, purpose,
      gap_in, chord_in, options, explain);
}

std::optional<Rejection> check_roll_colours_of(const FigureState& f, const std::vector<DieId>& ids,
                                               RollPurpose purpose, double gap_in, double chord_in,
                                               const RuleOptions& options) {
  return ids_colours_problem(f, ids, purpose, gap_in, chord_in, options, true);
}

}  // namespace

std::optional<Rejection> check_roll_colours(const FigureState& f,
                                            const std::vector<dice::Die>& dice, RollPurpose purpose,
                                            double gap_in, double chord_in,
                                            const RuleOptions& options) {
  return roll_colours_problem(f, dice, colour_of_die, purpose, gap_in, chord_in, options, true);
}

bool roll_colours_ok(const FigureState& f, const std::vector<dice::Die>& dice, RollPurpose purpose,
                     double gap_in, double chord_in, const RuleOptions& options) {
  return !roll_colours_problem(f, dice, colour_of_die, purpose, gap_in, chord_in, options, false);
}

std::vector<DieId> attack_dice_candidates(const GameState& state, FigureId attacker, double gap_in,
                                          double chord_in) {
  const auto& f = fig(state, attacker);
  // One pass in die order: a die that may attack alone is a candidate and an anchor; a wild die
  // that may not is a candidate only if some anchor exists, so without one none is kept.
  std::vector<DieId> out;
  bool anchor_exists = false;
  for (std::size_t i = 0; i < f.dice.size(); ++i) {
    if (f.dice[i].zone != DieZone::Base) continue;
    const auto id = static_cast<DieId>(i);
    const bool alone = !ids_colours_problem(f, std::array<DieId, 1>{id}, RollPurpose::Attack,
                                            gap_in, chord_in, state.options, false);
    anchor_exists = anchor_exists || alone;
    if (alone || dice::is_wild(f.dice[i].die.colour)) out.push_back(id);
  }
  if (!anchor_exists) out.clear();
  return out;
}

bool can_act(const GameState& state, FigureId figure) {
  return !check_turn(state, figure).has_value();
}

std::string prompt(const GameState& s) {
  switch (s.phase) {
    case Phase::AlphaRoll: {
      std::string names;
      for (TeamId t : s.alpha_contenders)
        names += (names.empty() ? "" : ", ") + team_name(s, t);
      return fmt::format("Roll 2d6 for alpha: {}", names);
    }
    case Phase::PlaceTerrain:
      return fmt::format("{}: place a terrain piece or pass", team_name(s, s.placing));
    case Phase::PlaceFigures:
      return fmt::format("{}: place a figure", team_name(s, s.placing));
    case Phase::ChooseDice: {
      std::string names;
      for (const auto& f : s.figures) {
        if (!f.chose_dice) names += (names.empty() ? "" : ", ") + f.def.name;
      }
      return fmt::format("Round {}: choose up to six dice for {}", s.round, names);
    }
    case Phase::Turns: {
      if (s.attack) {
        const auto& p = *s.attack;
        switch (p.stage) {
          case AttackStage::Dodge:
            return fmt::format("{}: choose dodge dice (or none)", fig_name(s, p.target));
          case AttackStage::Roll:
            return "Roll the attack and dodge dice";
          case AttackStage::RemoveGear:
            return fmt::format("{}: give up a piece of gear", fig_name(s, p.target));
          case AttackStage::Damage:
            return fmt::format("{}: assign {} click{} to Head, Weapon or Body of {}",
                               p.attacker_assigns ? fig_name(s, p.attacker) : fig_name(s, p.target),
                               p.result.clicks, p.result.clicks == 1 ? "" : "s",
                               fig_name(s, p.target));
        }
      }
      if (s.active_figure) {
        const auto& f = fig(s, *s.active_figure);
        return fmt::format("Round {} — {}: {}'s turn ({}{} attack{} left)", s.round,
                           team_name(s, s.active_team), f.def.name, f.moved ? "" : "move, ",
                           2 - f.attacks, 2 - f.attacks == 1 ? "" : "s");
      }
      return fmt::format("Round {} — {}'s turn: pick a figure to act", s.round,
                         team_name(s, s.active_team));
    }
    case Phase::GameOver:
      return s.winner ? fmt::format("{} won", team_name(s, *s.winner)) : std::string("Game over");
  }
  return "";
}

namespace {

// FNV-1a over the state's fields in a fixed order. Doubles are hashed by their IEEE-754 bits, so
// the value is the same on every machine this program runs on. Figure and gear data are fixed by
// the set-up and enter only by name.
class Hasher {
 public:
  void bytes(const void* p, std::size_t n) {
    const auto* b = static_cast<const unsigned char*>(p);
    for (std::size_t i = 0; i < n; ++i) {
      h_ ^= b[i];
      h_ *= 1099511628211ULL;
    }
  }
  void i64(long long v) { bytes(&v, sizeof v); }
  void f64(double v) { bytes(&v, sizeof v); }
  void str(const std::string& v) {
    i64(static_cast<long long>(v.size()));
    bytes(v.data(), v.size());
  }
  template <class T>
  void opt(const std::optional<T>& v) {
    i64(v ? 1 : 0);
    if (v) add(*v);
  }
  void add(int v) { i64(v); }
  void add(const Point& p) {
    f64(p.x);
    f64(p.y);
  }
  void add(const Shape& sh) {
    i64(static_cast<int>(sh.kind));
    if (sh.kind == Shape::Kind::Circle) {
      f64(sh.circle.centre.x);
      f64(sh.circle.centre.y);
      f64(sh.circle.radius_in);
    } else {
      i64(static_cast<long long>(sh.polygon.size()));
      for (const Vec2& v : sh.polygon) {
        f64(v.x);
        f64(v.y);
      }
    }
  }
  void shape(const std::optional<Shape>& sh) { opt(sh); }
  [[nodiscard]] std::uint64_t value() const { return h_; }

 private:
  std::uint64_t h_ = 1469598103934665603ULL;
};

}  // namespace

std::uint64_t state_hash(const GameState& s) {
  Hasher h;
  h.i64(s.options.wild_alone_attack_needs_range);
  h.i64(s.options.enforce_placement_distance);
  h.f64(s.options.placement_distance_in);
  h.i64(static_cast<int>(s.phase));
  h.i64(s.round);
  for (const auto& t : s.teams) {
    h.str(t.name);
    h.i64(t.lost);
    h.i64(t.terrain_placed);
    h.i64(t.terrain_done);
    h.i64(t.alpha_roll ? (*t.alpha_roll)[0] * 10 + (*t.alpha_roll)[1] : -1);
  }
  for (const auto& f : s.figures) {
    h.str(f.def.name);
    h.i64(f.team);
    for (int d : f.dial)
      h.i64(d);
    h.opt(f.position);
    h.i64(f.eliminated);
    h.i64(f.chose_dice);
    h.i64(f.turn_done);
    h.i64(f.moved);
    h.i64(f.attacks);
    for (const auto& d : f.dice)
      h.i64(static_cast<int>(d.zone));
    for (const auto& g : f.gear)
      h.i64(g.removed);
  }
  for (const auto& t : s.terrain) {
    h.str(t.id);
    h.i64(t.team);
    if (s.table.measured) h.shape(t.shape);
  }
  if (s.table.measured) {
    // Format 2 matches also hash their table; format 1 states hash exactly as they always did.
    h.i64(2);
    h.f64(s.table.bounds.width_in);
    h.f64(s.table.bounds.depth_in);
    if (s.table.catalogue) {
      for (const auto& o : *s.table.catalogue) {
        h.str(o.id);
        h.shape(o.shape);
      }
    }
  }
  for (TeamId t : s.alpha_contenders)
    h.i64(t);
  h.i64(s.alpha);
  h.i64(s.placing);
  h.i64(s.active_team);
  h.opt(s.active_figure);
  h.i64(s.attack.has_value());
  if (s.attack) {
    const auto& p = *s.attack;
    h.i64(p.attacker);
    h.i64(p.target);
    h.f64(p.gap_in);
    h.f64(p.chord_in);
    for (DieId d : p.attack_dice)
      h.i64(d);
    h.i64(-1);
    for (DieId d : p.dodge_dice)
      h.i64(d);
    h.i64(static_cast<int>(p.stage));
    h.i64(p.result.clicks);
    h.i64(p.result.hit);
    h.i64(p.gear_to_remove);
    h.i64(p.attacker_assigns);
    if (s.table.measured) {
      h.i64(p.manual);
      h.f64(p.positions_gap_in);
      h.f64(p.positions_chord_in);
    }
  }
  for (const auto& c : s.countdowns) {
    h.i64(c.team);
    h.i64(c.turns_left);
    h.i64(c.counting);
  }
  h.opt(s.winner);
  h.i64(s.attacks_rolled);
  return h.value();
}

}  // namespace duels
