#include "match/script.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <charconv>
#include <set>
#include <sstream>
#include <vector>

#include "dice/notation.hpp"
#include "duels/autoplay.hpp"
#include "duels/table_rules.hpp"

namespace duels::match {

namespace {

using Err = std::string;

std::string lower(std::string_view s) {
  std::string out(s);
  std::transform(out.begin(), out.end(), out.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return out;
}

std::vector<std::string> words_of(std::string_view line) {
  // '#' starts a comment, except '#3', a die index.
  std::vector<std::string> out;
  std::string current;
  for (std::size_t i = 0; i < line.size(); ++i) {
    const char c = line[i];
    if (c == '#' &&
        (i + 1 >= line.size() || !std::isdigit(static_cast<unsigned char>(line[i + 1]))))
      break;
    if (std::isspace(static_cast<unsigned char>(c))) {
      if (!current.empty()) out.push_back(std::move(current));
      current.clear();
    } else {
      current += c;
    }
  }
  if (!current.empty()) out.push_back(current);
  return out;
}

std::optional<double> to_number(const std::string& s) {
  double v = 0;
  auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || p != s.data() + s.size() || !(std::abs(v) < 1e6)) return std::nullopt;
  return v;
}

std::optional<int> to_int(const std::string& s) {
  int v = 0;
  auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || p != s.data() + s.size()) return std::nullopt;
  return v;
}

Expected<FigureId, Err> figure_named(const GameState& s, const std::string& name) {
  for (std::size_t i = 0; i < s.figures.size(); ++i) {
    if (lower(s.figures[i].def.name) == lower(name)) return static_cast<FigureId>(i);
  }
  std::string known;
  for (const auto& f : s.figures)
    known += (known.empty() ? "" : ", ") + f.def.name;
  return Err(fmt::format("no figure called '{}' (figures: {})", name, known));
}

// Dice references: "#3" (index) or notation ("yellow:d8", "2xwhite:d6"), matched in die order
// among the figure's dice in `zone`.
Expected<std::vector<DieId>, Err> dice_refs(const FigureState& f,
                                            const std::vector<std::string>& words, DieZone zone) {
  std::vector<DieId> out;
  std::set<DieId> used;
  for (const auto& w : words) {
    if (w.size() > 1 && w[0] == '#') {
      auto id = to_int(w.substr(1));
      if (!id || *id < 0 || static_cast<std::size_t>(*id) >= f.dice.size()) {
        return Err(fmt::format("{} has no die {}", f.def.name, w));
      }
      if (!used.insert(*id).second) return Err(fmt::format("die {} is named twice", w));
      out.push_back(*id);
      continue;
    }
    auto pool = dice::parse_pool(w);
    if (!pool) return Err(pool.error().message());
    for (const auto& want : *pool) {
      bool found = false;
      for (std::size_t i = 0; i < f.dice.size() && !found; ++i) {
        const auto& d = f.dice[i];
        if (d.zone == zone && d.die.sides == want.sides && d.die.colour == want.colour &&
            d.die.ace == want.ace && used.count(static_cast<DieId>(i)) == 0) {
          used.insert(static_cast<DieId>(i));
          out.push_back(static_cast<DieId>(i));
          found = true;
        }
      }
      if (!found) {
        return Err(fmt::format("{} has no {} {}", f.def.name, dice::to_notation(want),
                               zone == DieZone::Cup ? "in its cup" : "on its base"));
      }
    }
  }
  return out;
}

// "5", "ace" → face numbers for the given dice (ace = 1 on an ace die).
Expected<std::vector<int>, Err> faces_of(const FigureState& f, const std::vector<DieId>& ids,
                                         const std::vector<std::string>& words) {
  if (words.size() != ids.size()) {
    return Err(fmt::format("{} result{} for {}'s {} dice", ids.size(), ids.size() == 1 ? "" : "s",
                           f.def.name, ids.size()));
  }
  std::vector<int> out;
  for (std::size_t i = 0; i < ids.size(); ++i) {
    const auto& die = f.dice[static_cast<std::size_t>(ids[i])].die;
    if (lower(words[i]) == "ace") {
      if (!die.ace) return Err(fmt::format("{} has no ace", dice::to_notation(die)));
      out.push_back(1);
      continue;
    }
    auto v = to_int(words[i]);
    if (!v || *v < 1 || *v > die.sides || (*v == 1 && die.ace)) {
      return Err(fmt::format("a result for {}: {} to {}{}", dice::to_notation(die), die.ace ? 2 : 1,
                             die.sides, die.ace ? " or ace" : ""));
    }
    out.push_back(*v);
  }
  return out;
}

Expected<FigureId, Err> current_figure(const GameState& s) {
  if (s.active_figure) return *s.active_figure;
  return Err("name the figure (no figure is mid-turn)");
}

}  // namespace

std::string_view script_help() {
  return R"(alpha 6+5 2+3                 2d6 per team still rolling for alpha, in seating order
terrain NAME | pass            the placing team puts down a terrain piece, or places no more
place FIGURE X Y               put a figure on the table (base centre, inches)
choose FIGURE DICE… | none     dice from the cup to the base (yellow:d8, 2xwhite:d6 or #index)
terrain NAME rect X Y W D [ANGLE] | circle X Y R | polygon X1 Y1 X2 Y2 X3 Y3 …
                               a piece not in the table's catalogue, with its shape
move FIGURE [INCHES] to X Y [roll white:d6=3 …]   the table measures the shortest legal path
                               (round terrain and opposing bases); a typed INCHES must agree
attack FIGURE TARGET [gap IN [chord IN]] [blocked BY] with DICE…   measured from the bases'
                               positions (line of fire past bases and terrain); a typed gap is
                               a hand measurement, journaled beside the positions' one
dodge DICE… | dodge none
roll [FACES… [/ FACES…]] [bonus COLOUR]   attack faces, '/', dodge faces (5, ace); no faces:
                               the match's seeded roller rolls them
gear ID                        the defender gives up a gear piece (black ace)
damage head|weapon|body
end [FIGURE]                   end a figure's turn
undo | redo | auto [N] | show | help
)";
}

Expected<ScriptLine, std::string> parse_script_line(const GameState& s, std::string_view line,
                                                    dice::Rng& rng) {
  const auto w = words_of(line);
  if (w.empty()) return ScriptLine{ConsoleAction{}};
  const std::string verb = lower(w[0]);
  auto need = [&](std::size_t n, const char* usage) -> std::optional<Err> {
    if (w.size() < n) return Err(fmt::format("usage: {}", usage));
    return std::nullopt;
  };
  // Words after a complete command are refused, not ignored: `pass now please` is not a pass.
  auto at_most = [&](std::size_t n, const char* usage) -> std::optional<Err> {
    if (w.size() > n) {
      return Err(fmt::format("usage: {} (unexpected '{}' after the command)", usage, w[n]));
    }
    return std::nullopt;
  };
  if (verb == "undo" || verb == "redo" || verb == "show" || verb == "help" || verb == "?") {
    if (auto e = at_most(1, verb.c_str())) return *e;
  }
  if (verb == "undo") return ScriptLine{ConsoleAction{ConsoleAction::Undo, 0}};
  if (verb == "redo") return ScriptLine{ConsoleAction{ConsoleAction::Redo, 0}};
  if (verb == "show") return ScriptLine{ConsoleAction{ConsoleAction::Show, 0}};
  if (verb == "help" || verb == "?") return ScriptLine{ConsoleAction{ConsoleAction::Help, 0}};
  if (verb == "auto") {
    if (auto e = at_most(2, "auto [N]")) return *e;
    int n = 0;
    if (w.size() > 1) {
      auto v = to_int(w[1]);
      if (!v || *v < 0) return Err("usage: auto [N] (N commands by the built-in opponent)");
      n = *v;
    }
    return ScriptLine{ConsoleAction{ConsoleAction::Auto, n}};
  }
  if (verb == "alpha") {
    if (s.alpha_contenders.empty()) return Err("the alpha team is already settled");
    if (w.size() - 1 != s.alpha_contenders.size()) {
      return Err(
          fmt::format("{} rolls like 6+5, one per team still rolling", s.alpha_contenders.size()));
    }
    RollForAlpha c;
    for (std::size_t i = 0; i < s.alpha_contenders.size(); ++i) {
      const auto plus = w[i + 1].find('+');
      auto a = plus == std::string::npos ? std::nullopt : to_int(w[i + 1].substr(0, plus));
      auto b = plus == std::string::npos ? std::nullopt : to_int(w[i + 1].substr(plus + 1));
      if (!a || !b) return Err(fmt::format("a 2d6 roll like 6+5, not '{}'", w[i + 1]));
      c.rolls[s.alpha_contenders[i]] = {*a, *b};
    }
    return ScriptLine{Command{c}};
  }
  if (verb == "terrain") {
    if (auto e = need(2,
                      "terrain NAME [rect X Y WIDTH DEPTH [ANGLE] | circle X Y R | polygon X1 "
                      "Y1 X2 Y2 X3 Y3 …]"))
      return *e;
    PlaceTerrain c{s.placing, w[1], std::nullopt};
    if (w.size() > 2) {
      const std::string kind = lower(w[2]);
      std::vector<double> v;
      for (std::size_t i = 3; i < w.size(); ++i) {
        auto x = to_number(w[i]);
        if (!x) return Err(fmt::format("a number of inches, not '{}'", w[i]));
        v.push_back(*x);
      }
      if (kind == "rect" && (v.size() == 4 || v.size() == 5)) {
        c.shape = Shape::make_rect({v[0], v[1]}, v[2], v[3], v.size() == 5 ? v[4] : 0.0);
      } else if (kind == "circle" && v.size() == 3) {
        c.shape = Shape::make_circle({v[0], v[1]}, v[2]);
      } else if (kind == "polygon" && v.size() >= 6 && v.size() % 2 == 0) {
        std::vector<Vec2> pts;
        for (std::size_t i = 0; i < v.size(); i += 2)
          pts.push_back({v[i], v[i + 1]});
        if (polygon_self_intersects(pts))
          return Err(fmt::format("the {}'s outline crosses itself", w[1]));
        c.shape = Shape::make_polygon(std::move(pts));
      } else {
        return Err(
            "a terrain shape: rect X Y WIDTH DEPTH [ANGLE] (centre, inches, degrees), circle X Y "
            "R, or polygon X1 Y1 X2 Y2 X3 Y3 …");
      }
    } else if (const Obstacle* piece = catalogue_piece(s, w[1])) {
      // The journal keeps the shape itself, so it never depends on the scene file again.
      c.id = piece->id;
      c.shape = piece->shape;
    }
    return ScriptLine{Command{c}};
  }
  if (verb == "pass") {
    if (auto e = at_most(1, "pass")) return *e;
    return ScriptLine{Command{PassTerrain{s.placing}}};
  }
  if (verb == "place") {
    if (auto e = need(4, "place FIGURE X Y")) return *e;
    if (auto e = at_most(4, "place FIGURE X Y")) return *e;
    auto f = figure_named(s, w[1]);
    if (!f) return f.error();
    auto x = to_number(w[2]);
    auto y = to_number(w[3]);
    if (!x || !y) return Err("place FIGURE X Y with X and Y in inches");
    return ScriptLine{Command{PlaceFigure{*f, Point{*x, *y}}}};
  }
  if (verb == "choose") {
    if (auto e = need(2, "choose FIGURE DICE… | none")) return *e;
    auto f = figure_named(s, w[1]);
    if (!f) return f.error();
    std::vector<std::string> refs(w.begin() + 2, w.end());
    if (refs.size() == 1 && lower(refs[0]) == "none") refs.clear();
    auto ids = dice_refs(s.figures[static_cast<std::size_t>(*f)], refs, DieZone::Cup);
    if (!ids) return ids.error();
    return ScriptLine{Command{ChooseDice{*f, *ids}}};
  }
  if (verb == "move") {
    if (auto e = need(3, "move FIGURE [INCHES] to X Y [roll DICE=RESULTS…]")) return *e;
    auto f = figure_named(s, w[1]);
    if (!f) return f.error();
    Move c{*f, {}, std::nullopt, std::nullopt};
    std::size_t first = 2;
    if (lower(w[2]) != "to" && lower(w[2]) != "roll") {
      auto dist = to_number(w[2]);
      if (!dist) return Err("move FIGURE [INCHES] to X Y: the distance in inches, or 'to'");
      c.distance_in = *dist;
      first = 3;
    }
    const auto& fig = s.figures[static_cast<std::size_t>(*f)];
    std::set<DieId> used;
    for (std::size_t i = first; i < w.size(); ++i) {
      if (lower(w[i]) == "to" && i + 2 >= w.size()) {
        return Err("to X Y: two numbers of inches");
      }
      if (lower(w[i]) == "to") {
        auto x = to_number(w[i + 1]);
        auto y = to_number(w[i + 2]);
        if (!x || !y) return Err("to X Y in inches");
        c.to = Point{*x, *y};
        i += 2;
      } else if (lower(w[i]) == "roll") {
        for (++i; i < w.size() && lower(w[i]) != "to"; ++i) {
          auto rolls = dice::parse_rolls(w[i]);
          if (!rolls) return rolls.error().message();
          for (const auto& r : *rolls) {
            bool found = false;
            for (std::size_t k = 0; k < fig.dice.size() && !found; ++k) {
              const auto& d = fig.dice[k];
              if (d.zone == DieZone::Base && d.die.sides == r.die.sides &&
                  d.die.colour == r.die.colour && d.die.ace == r.die.ace &&
                  used.insert(static_cast<DieId>(k)).second) {
                c.rolls.push_back({static_cast<DieId>(k), r.face});
                found = true;
              }
            }
            if (!found)
              return Err(
                  fmt::format("{} has no {} on its base", fig.def.name, dice::to_notation(r.die)));
          }
        }
        --i;
      } else {
        return Err(fmt::format("'to X Y' or 'roll DICE=RESULTS', not '{}'", w[i]));
      }
    }
    return ScriptLine{Command{c}};
  }
  if (verb == "attack") {
    if (auto e = need(5, "attack FIGURE TARGET [gap IN [chord IN]] [blocked BY] with DICE…"))
      return *e;
    auto a = figure_named(s, w[1]);
    if (!a) return a.error();
    auto t = figure_named(s, w[2]);
    if (!t) return t.error();
    DeclareAttack c{
        *a,
        *t,
        Measurement{0, s.figures[static_cast<std::size_t>(*a)].def.base_diameter_in, true, {}},
        {}};
    bool have_gap = false;
    std::size_t i = 3;
    for (; i < w.size() && lower(w[i]) != "with"; ++i) {
      const std::string key = lower(w[i]);
      if ((key == "gap" || key == "chord") && i + 1 < w.size()) {
        auto v = to_number(w[i + 1]);
        if (!v) return Err(fmt::format("{} IN: a number of inches", key));
        (key == "gap" ? c.measurement.gap_in : c.measurement.chord_in) = *v;
        have_gap = have_gap || key == "gap";
        ++i;
      } else if (key == "blocked") {
        c.measurement.line_of_fire = false;
        if (i + 1 < w.size() && lower(w[i + 1]) != "with") c.measurement.blockers.push_back(w[++i]);
      } else {
        return Err(fmt::format("gap, chord, blocked or with, not '{}'", w[i]));
      }
    }
    const bool placed = s.figures[static_cast<std::size_t>(*a)].position &&
                        s.figures[static_cast<std::size_t>(*t)].position;
    if (!have_gap) {
      // No tape reading given: measure from the bases' positions, when both are on the table.
      if (!placed) {
        return Err(
            "the gap: attack FIGURE TARGET gap IN … (edge to edge, inches), or place both bases "
            "first");
      }
      const bool blocked_given = !c.measurement.line_of_fire;
      const auto blockers = c.measurement.blockers;
      c.measurement = measure_from_positions(s, *a, *t);
      if (blocked_given) {
        c.measurement.line_of_fire = false;
        if (s.table.measured) c.measurement.blockers = blockers;  // what the player said
      }
    } else {
      // Measured by hand: journaled as such, beside what the positions say.
      c.measurement.manual = true;
      if (placed && s.table.measured) c.from_positions = measure_from_positions(s, *a, *t);
    }
    if (i >= w.size()) return Err("the attack dice: … with DICE…");
    auto ids = dice_refs(s.figures[static_cast<std::size_t>(*a)],
                         std::vector<std::string>(w.begin() + static_cast<long>(i) + 1, w.end()),
                         DieZone::Base);
    if (!ids) return ids.error();
    c.dice = *ids;
    return ScriptLine{Command{c}};
  }
  if (verb == "dodge") {
    if (!s.attack) return Err("there is no attack to dodge");
    std::vector<std::string> refs(w.begin() + 1, w.end());
    if (refs.size() == 1 && lower(refs[0]) == "none") refs.clear();
    auto ids =
        dice_refs(s.figures[static_cast<std::size_t>(s.attack->target)], refs, DieZone::Base);
    if (!ids) return ids.error();
    return ScriptLine{Command{ChooseDodge{*ids}}};
  }
  if (verb == "roll") {
    if (!s.attack) return Err("there is no attack to roll");
    const auto& p = *s.attack;
    const auto& a = s.figures[static_cast<std::size_t>(p.attacker)];
    const auto& d = s.figures[static_cast<std::size_t>(p.target)];
    RollAttack c;
    std::vector<std::string> att, dod;
    bool after_slash = false;
    for (std::size_t i = 1; i < w.size(); ++i) {
      if (lower(w[i]) == "bonus" && i + 1 < w.size()) {
        auto col = dice::parse_colour(w[i + 1]);
        if (!col) return Err(fmt::format("bonus COLOUR, not '{}'", w[i + 1]));
        c.bonus = col;
        ++i;
      } else if (w[i] == "/") {
        after_slash = true;
      } else {
        (after_slash ? dod : att).push_back(w[i]);
      }
    }
    if (att.empty() && dod.empty()) {
      for (DieId id : p.attack_dice)
        c.attack_faces.push_back(rng.uniform(a.dice[static_cast<std::size_t>(id)].die.sides));
      for (DieId id : p.dodge_dice)
        c.dodge_faces.push_back(rng.uniform(d.dice[static_cast<std::size_t>(id)].die.sides));
    } else {
      auto af = faces_of(a, p.attack_dice, att);
      if (!af) return af.error();
      auto df = faces_of(d, p.dodge_dice, dod);
      if (!df) return df.error();
      c.attack_faces = *af;
      c.dodge_faces = *df;
    }
    return ScriptLine{Command{c}};
  }
  if (verb == "gear") {
    if (auto e = need(2, "gear ID")) return *e;
    if (auto e = at_most(2, "gear ID")) return *e;
    return ScriptLine{Command{RemoveGear{w[1]}}};
  }
  if (verb == "damage") {
    if (auto e = need(2, "damage head|weapon|body")) return *e;
    if (auto e = at_most(2, "damage head|weapon|body")) return *e;
    auto dial = parse_dial(w[1]);
    if (!dial) return Err(fmt::format("head, weapon or body, not '{}'", w[1]));
    return ScriptLine{Command{AssignDamage{*dial}}};
  }
  if (verb == "end") {
    if (auto e = at_most(2, "end [FIGURE]")) return *e;
    if (w.size() >= 2) {
      auto f = figure_named(s, w[1]);
      if (!f) return f.error();
      return ScriptLine{Command{EndTurn{*f}}};
    }
    auto f = current_figure(s);
    if (!f) return f.error();
    return ScriptLine{Command{EndTurn{*f}}};
  }
  return Err(
      fmt::format("a command (alpha, terrain, pass, place, choose, move, attack, dodge, roll, "
                  "gear, damage, end, undo, redo, auto, show, help), not '{}'",
                  w[0]));
}

}  // namespace duels::match
