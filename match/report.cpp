#include "match/report.hpp"

#include <fmt/format.h>

#include <cmath>

#include "dice/notation.hpp"

namespace duels::match {

namespace {

// Regularized lower incomplete gamma P(a, x) (series for x < a + 1, else continued fraction).
double gamma_p(double a, double x) {
  if (x <= 0) return 0;
  const double gln = std::lgamma(a);
  if (x < a + 1) {
    double sum = 1.0 / a;
    double term = sum;
    for (int n = 1; n < 500; ++n) {
      term *= x / (a + n);
      sum += term;
      if (std::abs(term) < std::abs(sum) * 1e-15) break;
    }
    return sum * std::exp(-x + a * std::log(x) - gln);
  }
  // Lentz's continued fraction for Q(a, x).
  double b = x + 1 - a;
  double c = 1 / 1e-300;
  double d = 1 / b;
  double h = d;
  for (int i = 1; i < 500; ++i) {
    const double an = -i * (i - a);
    b += 2;
    d = an * d + b;
    if (std::abs(d) < 1e-300) d = 1e-300;
    c = b + an / c;
    if (std::abs(c) < 1e-300) c = 1e-300;
    d = 1 / d;
    const double del = d * c;
    h *= del;
    if (std::abs(del - 1) < 1e-15) break;
  }
  return 1 - std::exp(-x + a * std::log(x) - gln) * h;
}

const FigureState& fig(const GameState& s, FigureId f) {
  return s.figures[static_cast<std::size_t>(f)];
}

}  // namespace

double chi_square_p_value(double x, int k) {
  if (k <= 0) return 1;
  return std::max(0.0, std::min(1.0, 1 - gamma_p(k / 2.0, x / 2.0)));
}

MatchReport build_report(const Replay& r) {
  MatchReport rep;
  for (const auto& t : r.setup.teams) {
    std::string members;
    for (const auto& f : t.figures) {
      std::string gear;
      for (const auto& g : f.gear)
        gear += (gear.empty() ? "" : ", ") + g.name;
      members += fmt::format("{}{}{}", members.empty() ? "" : "; ", f.figure.name,
                             gear.empty() ? std::string() : " (" + gear + ")");
    }
    rep.teams.push_back(fmt::format("{}: {}", t.name, members));
  }
  std::string vs;
  for (const auto& t : r.setup.teams)
    vs += (vs.empty() ? "" : " vs ") + t.name;
  rep.title = vs;

  GameState s = *new_game(r.setup);
  for (const auto& f : s.figures) {
    rep.damage_by_round[f.def.name] = {};
    rep.dials[f.def.name].push_back(
        {0,
         0,
         f.dial,
         {f.value(DialKind::Head), f.value(DialKind::Weapon), f.value(DialKind::Body)}});
  }
  for (const auto& step : r.steps) {
    const GameState before = s;
    const int round = before.round;
    // Rolls, read from the command and the state it applies to.
    if (const auto* a = std::get_if<RollForAlpha>(&step.command)) {
      for (const auto& [team, dice] : a->rolls) {
        for (int face : dice) {
          rep.rolls.push_back({step.seq, round, before.teams[static_cast<std::size_t>(team)].name,
                               "alpha", dice::Die{6, dice::Colour::White, false, ""}, face});
        }
      }
    } else if (const auto* m = std::get_if<Move>(&step.command)) {
      for (const auto& roll : m->rolls) {
        rep.rolls.push_back({step.seq, round, fig(before, m->figure).def.name, "move",
                             fig(before, m->figure).dice[static_cast<std::size_t>(roll.die)].die,
                             roll.face});
      }
    } else if (const auto* ra = std::get_if<RollAttack>(&step.command);
               ra != nullptr && before.attack) {
      const auto& p = *before.attack;
      for (std::size_t i = 0; i < p.attack_dice.size(); ++i) {
        rep.rolls.push_back(
            {step.seq, round, fig(before, p.attacker).def.name, "attack",
             fig(before, p.attacker).dice[static_cast<std::size_t>(p.attack_dice[i])].die,
             ra->attack_faces[i]});
      }
      for (std::size_t i = 0; i < p.dodge_dice.size(); ++i) {
        rep.rolls.push_back(
            {step.seq, round, fig(before, p.target).def.name, "dodge",
             fig(before, p.target).dice[static_cast<std::size_t>(p.dodge_dice[i])].die,
             ra->dodge_faces[i]});
      }
    }
    (void)duels::apply(s, step.command);
    // Damage and dials.
    for (std::size_t i = 0; i < s.figures.size(); ++i) {
      const auto& a = before.figures[i];
      const auto& b = s.figures[i];
      if (a.dial == b.dial) continue;
      int clicks = 0;
      for (int k = 0; k < 3; ++k)
        clicks += b.dial[static_cast<std::size_t>(k)] - a.dial[static_cast<std::size_t>(k)];
      auto& per_round = rep.damage_by_round[b.def.name];
      if (per_round.size() < static_cast<std::size_t>(std::max(round, 1)))
        per_round.resize(static_cast<std::size_t>(std::max(round, 1)), 0);
      per_round[static_cast<std::size_t>(std::max(round, 1) - 1)] += clicks;
      rep.dials[b.def.name].push_back(
          {step.seq,
           round,
           b.dial,
           {b.value(DialKind::Head), b.value(DialKind::Weapon), b.value(DialKind::Body)}});
    }
    // Story: events grouped by round.
    if (rep.story.empty() || rep.story.back().first != round) rep.story.push_back({round, {}});
    for (const auto& e : step.events) {
      rep.story.back().second.push_back(e.kind == "step" ? "  " + e.text : e.text);
    }
  }
  rep.rounds = s.round;
  for (auto& [name, per_round] : rep.damage_by_round)
    per_round.resize(static_cast<std::size_t>(std::max(s.round, 1)), 0);
  rep.result = s.winner ? s.teams[static_cast<std::size_t>(*s.winner)].name + " won" : prompt(s);

  // Dice luck by die size: faces are uniform whatever the colour or ace.
  std::map<int, DiceLuck> luck;
  for (const auto& roll : rep.rolls) {
    auto& l = luck[roll.die.sides];
    l.sides = roll.die.sides;
    l.observed.resize(static_cast<std::size_t>(roll.die.sides), 0);
    ++l.observed[static_cast<std::size_t>(roll.face - 1)];
    ++l.rolls;
  }
  for (auto& [sides, l] : luck) {
    const double expected = static_cast<double>(l.rolls) / sides;
    for (int o : l.observed)
      l.chi_square += (o - expected) * (o - expected) / expected;
    l.p_value = chi_square_p_value(l.chi_square, sides - 1);
    rep.luck.push_back(l);
  }
  return rep;
}

}  // namespace duels::match
