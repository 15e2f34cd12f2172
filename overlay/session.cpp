#include "overlay/session.hpp"

#include <sstream>

#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <fstream>

#include "common/atomic_file.hpp"
#include "dice/notation.hpp"
#include "duels/engine.hpp"
#include "duels/odds.hpp"
#include "match/report.hpp"

namespace duels::overlay {

namespace {

namespace fs = std::filesystem;

const FigureState& fig(const GameState& s, FigureId f) {
  return s.figures[static_cast<std::size_t>(f)];
}

std::vector<dice::Die> dice_of(const FigureState& f, const std::vector<DieId>& ids) {
  std::vector<dice::Die> out;
  for (DieId id : ids)
    out.push_back(f.dice[static_cast<std::size_t>(id)].die);
  return out;
}

void toggle(std::vector<DieId>& v, DieId id, std::size_t limit = 64) {
  if (auto it = std::find(v.begin(), v.end(), id); it != v.end()) {
    v.erase(it);
  } else if (v.size() < limit) {
    v.push_back(id);
    std::sort(v.begin(), v.end());
  }
}

// What the advisor's subset filters need (advise_attacks passes one context to both filters).
struct FilterContext {
  const FigureState* attacker = nullptr;
  const FigureState* defender = nullptr;
  double gap_in = 0;
  double chord_in = 0;
  RuleOptions options;
};

bool legal_attack(const std::vector<dice::Die>& dice, const void* context) {
  const auto* c = static_cast<const FilterContext*>(context);
  return !check_roll_colours(*c->attacker, dice, RollPurpose::Attack, c->gap_in, c->chord_in,
                             c->options);
}

bool legal_dodge(const std::vector<dice::Die>& dice, const void* context) {
  const auto* c = static_cast<const FilterContext*>(context);
  return !check_roll_colours(*c->defender, dice, RollPurpose::Dodge, 0, 0, c->options);
}

// The dice on a base that could ever dodge (white, yellow, wild).
std::vector<DieId> dodge_dice_on_base(const FigureState& f) {
  std::vector<DieId> out;
  for (DieId id : f.dice_in(DieZone::Base)) {
    const dice::Colour c = f.dice[static_cast<std::size_t>(id)].die.colour;
    if (c == dice::Colour::White || c == dice::Colour::Yellow || dice::is_wild(c))
      out.push_back(id);
  }
  return out;
}

}  // namespace

std::optional<TeamId> deciding_team(const GameState& s) {
  switch (s.phase) {
    case Phase::AlphaRoll:
    case Phase::ChooseDice:
    case Phase::GameOver:
      return std::nullopt;
    case Phase::PlaceTerrain:
    case Phase::PlaceFigures:
      return s.placing;
    case Phase::Turns:
      break;
  }
  if (s.attack) {
    const auto& p = *s.attack;
    switch (p.stage) {
      case AttackStage::Dodge:
      case AttackStage::RemoveGear:
        return fig(s, p.target).team;
      case AttackStage::Roll:
        return fig(s, p.attacker).team;
      case AttackStage::Damage:
        return fig(s, p.attacker_assigns ? p.attacker : p.target).team;
    }
  }
  return s.active_team;
}

std::optional<TeamId> command_team(const GameState& s, const Command& c) {
  return std::visit(
      [&](const auto& x) -> std::optional<TeamId> {
        using T = std::decay_t<decltype(x)>;
        if constexpr (std::is_same_v<T, RollForAlpha>) {
          return std::nullopt;
        } else if constexpr (std::is_same_v<T, PlaceTerrain> || std::is_same_v<T, PassTerrain>) {
          return x.team;
        } else if constexpr (std::is_same_v<T, PlaceFigure> || std::is_same_v<T, ChooseDice> ||
                             std::is_same_v<T, Move> || std::is_same_v<T, EndTurn>) {
          return fig(s, x.figure).team;
        } else if constexpr (std::is_same_v<T, DeclareAttack>) {
          return fig(s, x.attacker).team;
        } else {
          return deciding_team(s);
        }
      },
      c);
}

std::pair<AttackInput, AttackResult> preview_roll(const GameState& s,
                                                  const std::vector<int>& attack_faces,
                                                  const std::vector<int>& dodge_faces,
                                                  std::optional<dice::Colour> bonus) {
  AttackInput in;
  if (!s.attack) return {in, resolve_attack(in)};
  const auto& p = *s.attack;
  const auto& a = fig(s, p.attacker);
  const auto& d = fig(s, p.target);
  in.weapon = a.value(DialKind::Weapon);
  in.body = d.value(DialKind::Body);
  for (std::size_t i = 0; i < p.attack_dice.size() && i < attack_faces.size(); ++i)
    in.attack.push_back({a.dice[static_cast<std::size_t>(p.attack_dice[i])].die, attack_faces[i]});
  for (std::size_t i = 0; i < p.dodge_dice.size() && i < dodge_faces.size(); ++i)
    in.dodge.push_back({d.dice[static_cast<std::size_t>(p.dodge_dice[i])].die, dodge_faces[i]});
  in.shields = d.shields();
  in.bonus = a.def.damage_bonus;
  in.bonus_choice = bonus;
  return {in, resolve_attack(in)};
}

std::optional<int> parse_face(const std::string& text, const dice::Die& die) {
  std::string t;
  for (char c : text) {
    if (!std::isspace(static_cast<unsigned char>(c)))
      t += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  }
  if (t == "ace" || t == "a") return die.ace ? std::optional<int>(1) : std::nullopt;
  if (t.empty() || t.size() > 2 || !std::all_of(t.begin(), t.end(), [](char c) {
        return std::isdigit(static_cast<unsigned char>(c)) != 0;
      })) {
    return std::nullopt;
  }
  const int v = std::stoi(t);
  if (v < 1 || v > die.sides) return std::nullopt;
  if (v == 1 && die.ace) return std::nullopt;  // an ace die has no 1: it is written "ace"
  return v;
}

// ---------------------------------------------------------------------------------------------

Session::Session(match::DuelsMatch match, TableLayout layout, SessionOptions options)
    : match_(std::move(match)),
      layout_(std::move(layout)),
      options_(std::move(options)),
      positions_(PositionLog::open(match_.path())),
      rng_(options_.ui_seed != 0 ? options_.ui_seed : match_.seed() ^ 0x5eedULL),
      ai_(match_.seed()),
      odds_(std::make_unique<OddsWorker>(options_.threaded_odds)) {
  ai_teams = options_.ai_teams;
  ai_teams.resize(match_.state().teams.size(), false);
  auto_run = options_.auto_run;
  changed();
  refresh_roller();
}

Session::~Session() = default;

const GameState& Session::state() const {
  return past_ ? past_->state : match_.state();
}

const match::Replay& Session::history() const {
  return past_ ? *past_ : match_.history();
}

void Session::set_status(std::string text, bool error) {
  status_ = {std::move(text), error};
}

void Session::changed() {
  ++version_;
  overrides_ = effective_overrides(positions_.entries(), history().steps, history().last_seq);
  view_ = make_table_view(state(), layout_, overrides_, vision_, vision_unnamed_);
  measures_.clear();
  const GameState& s = state();
  auto gone = [&](std::optional<FigureId> f) {
    return f && (*f < 0 || *f >= static_cast<FigureId>(s.figures.size()) || fig(s, *f).eliminated);
  };
  if (gone(selected)) selected.reset();
  if (gone(target)) {
    target.reset();
    target_locked = false;
  }
  if (gone(hovered)) hovered.reset();
  recheck_proposals();
}

const AttackMeasure& Session::measure(FigureId attacker, FigureId target_figure) {
  const auto key = std::make_pair(attacker, target_figure);
  if (auto it = measures_.find(key); it != measures_.end()) return it->second;
  return measures_[key] = measure_attack(view_, state(), attacker, target_figure);
}

void Session::select(FigureId figure) {
  if (figure < 0 || figure >= static_cast<FigureId>(state().figures.size())) return;
  selected = figure;
  if (target && (*target == figure || fig(state(), *target).team == fig(state(), figure).team)) {
    target.reset();
    target_locked = false;
  }
  if (move.active && move.figure != figure) cancel_move();
  wizard.attack_pick.clear();
}

void Session::set_target(FigureId figure, bool lock) {
  if (lock) {
    target = figure;
    target_locked = true;
    wizard.attack_pick.clear();
  } else if (!target_locked && target != figure) {
    target = figure;
    wizard.attack_pick.clear();
  }
}

// ---- commands -------------------------------------------------------------------------------

bool Session::play(const Command& command) {
  if (past_) {
    set_status("The log is showing the past: press Live to play on.", true);
    return false;
  }
  auto r = match_.play(command);
  if (!r) {
    set_status("Not allowed: " + r.error().reason, true);
    return false;
  }
  std::string said;
  for (const auto& e : *r) {
    if (e.kind != "step") said = e.text;
  }
  set_status(said, false);
  after_command();
  return true;
}

void Session::after_command() {
  wizard = WizardState{};
  move = MoveTool{};
  changed();
  const GameState& s = state();
  for (auto it = dice_plan.begin(); it != dice_plan.end();) {
    it = fig(s, it->first).chose_dice ? dice_plan.erase(it) : std::next(it);
  }
  // Follow the action: the figure mid-turn (or attacking) is the selected one.
  if (s.attack) {
    selected = s.attack->attacker;
    target = s.attack->target;
  } else if (s.active_figure && !fig(s, *s.active_figure).eliminated) {
    if (selected != s.active_figure) {
      selected = s.active_figure;
      if (target && fig(s, *target).team == fig(s, *selected).team) target.reset();
    }
  } else if (s.phase == Phase::Turns && (!selected || !can_act(s, *selected))) {
    for (FigureId f : s.team_figures(s.active_team, true)) {
      if (can_act(s, f)) {
        selected = f;
        break;
      }
    }
  }
}

void Session::undo() {
  go_live();
  if (auto r = match_.undo()) {
    set_status(r->reason, true);
    return;
  }
  set_status(fmt::format("Undone (journal event {}).", match_.history().last_seq), false);
  wizard = WizardState{};
  move = MoveTool{};
  changed();
}

void Session::redo() {
  go_live();
  if (auto r = match_.redo()) {
    set_status(r->reason, true);
    return;
  }
  set_status(fmt::format("Redone (journal event {}).", match_.history().last_seq), false);
  wizard = WizardState{};
  move = MoveTool{};
  changed();
}

void Session::jump_to(std::uint64_t seq) {
  try {
    past_ = match::replay(match::read_journal(match_.path()), seq);
    if (past_->last_seq >= match_.history().last_seq) past_.reset();
    set_status(past_ ? fmt::format("Showing the match after event {} (read-only).", seq)
                     : std::string("Live."),
               false);
  } catch (const std::exception& e) {
    past_.reset();
    set_status(e.what(), true);
  }
  wizard = WizardState{};
  move = MoveTool{};
  changed();
}

void Session::go_live() {
  if (!past_) return;
  past_.reset();
  changed();
}

void Session::play_on_from_here() {
  if (!past_) return;
  std::vector<std::uint64_t> keep;
  for (const auto& step : past_->steps)
    keep.push_back(step.seq);
  past_.reset();
  auto seqs = [&] {
    std::vector<std::uint64_t> v;
    for (const auto& step : match_.history().steps)
      v.push_back(step.seq);
    return v;
  };
  while (seqs().size() > keep.size() && !match_.history().steps.empty()) {
    if (match_.undo()) break;
  }
  if (seqs() != keep) {
    set_status("That point can't be reached by undoing (it was itself undone later).", true);
  } else {
    set_status(fmt::format("Playing on from event {}.", keep.empty() ? 0 : keep.back()), false);
  }
  wizard = WizardState{};
  move = MoveTool{};
  changed();
}

void Session::export_report(const std::string& out_dir) {
  fs::path dir = out_dir;
  if (dir.empty()) {
    fs::path j(match_.path());
    dir = j.parent_path() / (j.stem().string() + "-report");
  }
  try {
    if (options_.export_report) {
      set_status(options_.export_report(match_.path(), dir.string()), false);
      return;
    }
    fs::create_directories(dir);
    const match::MatchReport rep = match::build_report(match_.history());
    std::ostringstream out;
    out << "# " << rep.title << "\n\n";
    for (const auto& t : rep.teams)
      out << "- " << t << "\n";
    out << "\n" << rep.result << "\n";
    for (const auto& [round, lines] : rep.story) {
      out << "\n## Round " << round << "\n\n";
      for (const auto& l : lines)
        out << "    " << l << "\n";
    }
    write_file_atomically((dir / "report.md").string(), out.str());
    set_status("Report written to " + (dir / "report.md").string(), false);
  } catch (const std::exception& e) {
    set_status(std::string("The report could not be written: ") + e.what(), true);
  }
}

// ---- set-up ---------------------------------------------------------------------------------

void Session::roll_alpha() {
  RollForAlpha c;
  for (TeamId t : state().alpha_contenders)
    c.rolls[t] = {rng_.uniform(6), rng_.uniform(6)};
  play(c);
}

void Session::place_terrain(const std::string& id) {
  // The layout's piece goes down with its shape (the match keeps it from then on).
  std::optional<Shape> shape;
  for (const auto& piece : layout_.terrain) {
    if (piece.id == id) shape = piece.shape;
  }
  play(PlaceTerrain{state().placing, id, shape});
}

void Session::pass_terrain() {
  play(PassTerrain{state().placing});
}

void Session::place_figure(FigureId figure, Vec2 at) {
  play(PlaceFigure{figure, Point{at.x, at.y}});
}

void Session::toggle_plan_die(FigureId figure, DieId die) {
  toggle(dice_plan[figure], die, 6);
}

void Session::confirm_dice(FigureId figure) {
  const auto it = dice_plan.find(figure);
  play(ChooseDice{figure, it == dice_plan.end() ? std::vector<DieId>{} : it->second});
}

// ---- moving ---------------------------------------------------------------------------------

void Session::begin_move(FigureId figure) {
  const GameState& s = state();
  if (!can_act(s, figure) || fig(s, figure).moved || s.attack) {
    set_status(fmt::format("{} can't move now.", fig(s, figure).def.name), true);
    return;
  }
  if (view_.base_of(figure) == nullptr) {
    set_status(fmt::format("{} is not on the table.", fig(s, figure).def.name), true);
    return;
  }
  move = MoveTool{};
  move.active = true;
  move.figure = figure;
  selected = figure;
}

void Session::cancel_move() {
  move = MoveTool{};
  recheck_proposals();
}

void Session::toggle_move_die(DieId die) {
  if (!move.active || move.rolled) return;
  toggle(move.dice_pick, die);
}

void Session::roll_move_dice() {
  if (!move.active || move.rolled) return;
  const auto& f = fig(state(), move.figure);
  if (!move.dice_pick.empty()) {
    if (auto r = check_roll_colours(f, dice_of(f, move.dice_pick), RollPurpose::Move, 0, 0,
                                    state().options)) {
      set_status("Not allowed: " + r->reason, true);
      return;
    }
  }
  move.rolls.clear();
  for (DieId id : move.dice_pick)
    move.rolls.push_back({id, rng_.uniform(f.dice[static_cast<std::size_t>(id)].die.sides)});
  move.rolled = true;
  recheck_proposals();
  std::vector<dice::Roll> shown;
  for (const auto& r : move.rolls)
    shown.push_back({f.dice[static_cast<std::size_t>(r.die)].die, r.face});
  set_status(fmt::format("{} rolls {}: it may move {}\".", f.def.name,
                         shown.empty() ? std::string("nothing") : dice::to_notation(shown),
                         move_allowance_in()),
             false);
}

int Session::move_allowance_in() const {
  if (!move.active) return 0;
  return move_allowance(fig(state(), move.figure), move.rolls);
}

const ReachResult* Session::reach() {
  if (!move.active) return nullptr;
  const BaseView* b = view_.base_of(move.figure);
  if (b == nullptr) return nullptr;
  const int allowance = move_allowance_in();
  if (reach_.version != version_ || reach_.figure != move.figure || !reach_.field) {
    const MoveObstacles world = move_world(view_, state(), move.figure);
    reach_.field = std::make_shared<MoveField>(b->disc, world);
    reach_.region.reset();
    reach_.version = version_;
    reach_.figure = move.figure;
  }
  if (!reach_.region || reach_.allowance != allowance) {
    reach_.region =
        reachable_region(b->disc, allowance, move_world(view_, state(), move.figure), 0.1);
    reach_.allowance = allowance;
  }
  return &*reach_.region;
}

PathResult Session::move_path(Vec2 goal) {
  if (reach() == nullptr || !reach_.field) return PathResult{};
  return reach_.field->path_to(goal);
}

void Session::move_to(Vec2 goal) {
  if (!move.active) return;
  const PathResult path = move_path(goal);
  if (!path.found) {
    set_status("No legal path there: " + path.reason, true);
    return;
  }
  const int allowance = move_allowance_in();
  if (path.length_in > allowance + 1e-9) {
    set_status(fmt::format("That is {:.2f}\" away; {} may move {}\".", path.length_in,
                           fig(state(), move.figure).def.name, allowance),
               true);
    return;
  }
  const MoveTool m = move;
  play(Move{m.figure, m.rolls, path.length_in, Point{goal.x, goal.y}});
}

void Session::end_turn(FigureId figure) {
  play(EndTurn{figure});
}

// ---- the combat wizard ----------------------------------------------------------------------

std::optional<FigureId> Session::attacker() const {
  const GameState& s = state();
  if (s.attack) return s.attack->attacker;
  if (s.phase != Phase::Turns) return std::nullopt;
  return selected;
}

std::optional<FigureId> Session::attack_target() const {
  const GameState& s = state();
  if (s.attack) return s.attack->target;
  const auto a = attacker();
  if (!a || !target || *target == *a) return std::nullopt;
  if (fig(s, *target).team == fig(s, *a).team || fig(s, *target).eliminated) return std::nullopt;
  return target;
}

std::vector<DieId> Session::attack_candidates() {
  const auto a = attacker();
  const auto t = attack_target();
  if (!a || !t || state().attack) return {};
  const AttackMeasure& m = measure(*a, *t);
  if (!m.valid || !m.lof.clear) return {};
  return attack_dice_candidates(state(), *a, m.measurement.gap_in, m.measurement.chord_in);
}

void Session::toggle_attack_die(DieId die) {
  const auto cand = attack_candidates();
  if (std::find(cand.begin(), cand.end(), die) == cand.end()) return;
  toggle(wizard.attack_pick, die, 6);
}

std::shared_ptr<const OddsAnswer> Session::attack_advice() {
  const auto cand = attack_candidates();
  if (cand.empty()) return std::make_shared<const OddsAnswer>();
  const GameState& s = state();
  const FigureId a = *attacker();
  const FigureId t = *attack_target();
  const AttackMeasure& m = measure(a, t);
  const std::string key = fmt::format("attack {:016x} {} {} {:.6f} {:.6f}", state_hash(s), a, t,
                                      m.measurement.gap_in, m.measurement.chord_in);
  FigureState attacker_state = fig(s, a);
  FigureState defender_state = fig(s, t);
  const double gap = m.measurement.gap_in;
  const double chord = m.measurement.chord_in;
  const RuleOptions opts = s.options;
  return odds_->get(key, [=]() {
    FilterContext ctx{&attacker_state, &defender_state, gap, chord, opts};
    OddsQuery q{attacker_state.value(DialKind::Weapon),
                defender_state.value(DialKind::Body),
                {},
                {},
                defender_state.shields(),
                attacker_state.def.damage_bonus};
    OddsAnswer answer;
    answer.attacks = advise_attacks(q, dice_of(attacker_state, cand),
                                    dice_of(defender_state, dodge_dice_on_base(defender_state)),
                                    legal_attack, legal_dodge, &ctx);
    return answer;
  });
}

void Session::declare_attack() {
  const auto a = attacker();
  const auto t = attack_target();
  if (!a || !t) {
    set_status("Select an attacker and a target first.", true);
    return;
  }
  if (wizard.attack_pick.empty()) {
    set_status("Pick the attack dice first.", true);
    return;
  }
  const AttackMeasure m = measure(*a, *t);
  play(DeclareAttack{*a, *t, m.measurement, wizard.attack_pick});
}

std::vector<DieId> Session::dodge_candidates() const {
  const GameState& s = state();
  if (!s.attack || s.attack->stage != AttackStage::Dodge) return {};
  return dodge_dice_on_base(fig(s, s.attack->target));
}

void Session::toggle_dodge_die(DieId die) {
  const auto cand = dodge_candidates();
  if (std::find(cand.begin(), cand.end(), die) == cand.end()) return;
  toggle(wizard.dodge_pick, die, 6);
}

std::shared_ptr<const OddsAnswer> Session::dodge_advice() {
  const GameState& s = state();
  if (!s.attack || s.attack->stage != AttackStage::Dodge)
    return std::make_shared<const OddsAnswer>();
  const PendingAttack p = *s.attack;
  const FigureState attacker_state = fig(s, p.attacker);
  const FigureState defender_state = fig(s, p.target);
  const auto cand = dodge_candidates();
  const RuleOptions opts = s.options;
  const std::string key = fmt::format("dodge {:016x}", state_hash(s));
  return odds_->get(key, [=]() {
    OddsQuery q{attacker_state.value(DialKind::Weapon),
                defender_state.value(DialKind::Body),
                dice_of(attacker_state, p.attack_dice),
                {},
                defender_state.shields(),
                attacker_state.def.damage_bonus};
    OddsAnswer answer;
    const auto n = static_cast<std::uint32_t>(std::min<std::size_t>(cand.size(), 6));
    for (std::uint32_t mask = 0; mask < (1U << n); ++mask) {
      AdvisedDodge d;
      std::vector<DieId> ids;
      for (std::uint32_t i = 0; i < n; ++i) {
        if ((mask >> i) & 1U) {
          d.dice.push_back(static_cast<int>(i));
          ids.push_back(cand[i]);
        }
      }
      q.dodge = dice_of(defender_state, ids);
      if (!ids.empty() &&
          check_roll_colours(defender_state, q.dodge, RollPurpose::Dodge, 0, 0, opts)) {
        continue;
      }
      d.odds = attack_odds(q);
      answer.dodges.push_back(std::move(d));
    }
    std::stable_sort(answer.dodges.begin(), answer.dodges.end(),
                     [](const AdvisedDodge& x, const AdvisedDodge& y) {
                       const double ex = x.odds.expected_clicks();
                       const double ey = y.odds.expected_clicks();
                       if (std::abs(ex - ey) > 1e-12) return ex < ey;
                       return x.dice.size() < y.dice.size();
                     });
    return answer;
  });
}

void Session::choose_dodge(bool none) {
  play(ChooseDodge{none ? std::vector<DieId>{} : wizard.dodge_pick});
}

void Session::start_virtual_roll() {
  const GameState& s = state();
  if (!live() || !s.attack || s.attack->stage != AttackStage::Roll || wizard.rolling) return;
  const auto& p = *s.attack;
  PendingRoll r;
  for (DieId id : p.attack_dice)
    r.attack_faces.push_back(
        rng_.uniform(fig(s, p.attacker).dice[static_cast<std::size_t>(id)].die.sides));
  for (DieId id : p.dodge_dice)
    r.dodge_faces.push_back(
        rng_.uniform(fig(s, p.target).dice[static_cast<std::size_t>(id)].die.sides));
  r.started_s = now_s_;
  wizard.rolling = r;
  if (options_.roll_animation_s <= 0) tick(now_s_);
}

void Session::apply_settled_roll() {
  if (!wizard.rolling || !wizard.rolling->settled) return;
  const PendingRoll r = *wizard.rolling;
  const auto [in, res] = preview_roll(state(), r.attack_faces, r.dodge_faces, std::nullopt);
  std::optional<dice::Colour> bonus;
  if (bonus_options(in, res).size() > 1) bonus = wizard.bonus_pick;
  if (!play(RollAttack{r.attack_faces, r.dodge_faces, bonus})) wizard.rolling.reset();
}

void Session::apply_typed_roll() {
  const GameState& s = state();
  if (!s.attack || s.attack->stage != AttackStage::Roll) return;
  const auto& p = *s.attack;
  std::vector<int> af;
  std::vector<int> df;
  auto read = [&](const std::vector<std::string>& typed, const std::vector<DieId>& ids,
                  const FigureState& f, const char* who, std::vector<int>& out) {
    for (std::size_t i = 0; i < ids.size(); ++i) {
      const dice::Die& die = f.dice[static_cast<std::size_t>(ids[i])].die;
      const std::string text = i < typed.size() ? typed[i] : std::string();
      const auto face = parse_face(text, die);
      if (!face) {
        set_status(fmt::format("{} die {} ({}): '{}' is not a face of it (1..{}{})", who, i + 1,
                               dice::to_notation(die), text, die.sides,
                               die.ace ? ", ace instead of 1" : ""),
                   true);
        return false;
      }
      out.push_back(*face);
    }
    return true;
  };
  if (!read(wizard.attack_typed, p.attack_dice, fig(s, p.attacker), "attack", af)) return;
  if (!read(wizard.dodge_typed, p.dodge_dice, fig(s, p.target), "dodge", df)) return;
  const auto [in, res] = preview_roll(s, af, df, std::nullopt);
  std::optional<dice::Colour> bonus;
  if (bonus_options(in, res).size() > 1) bonus = wizard.bonus_pick;
  play(RollAttack{af, df, bonus});
}

void Session::remove_gear(const std::string& gear_id) {
  play(RemoveGear{gear_id});
}

void Session::assign_damage(DialKind dial) {
  play(AssignDamage{dial});
}

// ---- the built-in opponent ------------------------------------------------------------------

std::optional<Command> Session::ai_command(bool any_team) {
  if (past_) return std::nullopt;
  const GameState& live_state = state();
  if (live_state.phase == Phase::GameOver) return std::nullopt;
  auto is_ai = [&](TeamId t) {
    return any_team || (t >= 0 && static_cast<std::size_t>(t) < ai_teams.size() &&
                        ai_teams[static_cast<std::size_t>(t)]);
  };
  GameState s = live_state;
  if (s.phase == Phase::AlphaRoll) {
    for (TeamId t : s.alpha_contenders) {
      if (!is_ai(t)) return std::nullopt;
    }
  }
  if (s.phase == Phase::ChooseDice) {
    // The opponent picks only for its own figures: hide the others' unpicked cups from it.
    bool any = false;
    for (auto& f : s.figures) {
      if (!f.chose_dice && !is_ai(f.team)) f.chose_dice = true;
      any = any || !f.chose_dice;
    }
    if (!any) return std::nullopt;
  }
  ai_.set_step(match_.history().steps.size());
  auto cmd = ai_.next(s);
  if (!cmd) return std::nullopt;
  const auto team = command_team(live_state, *cmd);
  if (team && !is_ai(*team)) return std::nullopt;
  // Measure on this table (terrain, hand-placed bases), not the opponent's open table.
  if (auto* d = std::get_if<DeclareAttack>(&*cmd)) {
    const AttackMeasure& m = measure(d->attacker, d->target);
    if (m.valid) d->measurement = m.measurement;
  }
  return cmd;
}

bool Session::ai_step(bool any_team) {
  const auto cmd = ai_command(any_team);
  if (!cmd) return false;
  if (play(*cmd)) return true;
  // Refused on this table (e.g. terrain blocks the line it chose): end that figure's turn
  // rather than ask again for the same thing.
  FigureId f = -1;
  if (const auto* d = std::get_if<DeclareAttack>(&*cmd)) f = d->attacker;
  if (const auto* m = std::get_if<Move>(&*cmd)) f = m->figure;
  if (f >= 0) return play(EndTurn{f});
  return false;
}

// ---- the dice roller ------------------------------------------------------------------------

void Session::refresh_roller() {
  if (roller.distribution_of == roller.pool_text && (roller.distribution || !roller.error.empty()))
    return;
  roller.distribution_of = roller.pool_text;
  auto pool = dice::parse_pool(roller.pool_text);
  if (!pool) {
    roller.error = pool.error().message();
    roller.distribution.reset();
    return;
  }
  if (pool->empty() || pool->size() > 24) {
    roller.error = pool->empty() ? "no dice: write a pool such as 2xwhite:d6 yellow:d8:ace"
                                 : "at most 24 dice at once";
    roller.distribution.reset();
    return;
  }
  roller.error.clear();
  roller.distribution = dice::sum_of(*pool);
}

void Session::roll_pool() {
  refresh_roller();
  if (!roller.error.empty()) {
    set_status(roller.error, true);
    return;
  }
  auto pool = dice::parse_pool(roller.pool_text);
  RollerEntry e;
  e.pool = dice::to_notation(*pool);
  for (const auto& d : *pool) {
    e.rolls.push_back({d, rng_.uniform(d.sides)});
    e.total += e.rolls.back().value();
  }
  set_status(fmt::format("Rolled {}: total {}", dice::to_notation(e.rolls), e.total), false);
  roller.history.insert(roller.history.begin(), std::move(e));
  if (roller.history.size() > 100) roller.history.pop_back();
}

// ---- vision, time, overrides ----------------------------------------------------------------

void Session::set_vision(std::vector<TrackedBasePosition> bases, std::vector<Disc> unnamed) {
  // Every camera frame brings positions; only a real change (a base moved by more than a
  // hundredth of an inch, came, went or crossed the trust line) is worth re-measuring the table
  // and redrawing the reachable region for.
  auto same = [](const std::vector<TrackedBasePosition>& a,
                 const std::vector<TrackedBasePosition>& b) {
    if (a.size() != b.size()) return false;
    for (std::size_t i = 0; i < a.size(); ++i) {
      if (a[i].figure != b[i].figure || (a[i].confidence >= 0.5) != (b[i].confidence >= 0.5) ||
          norm2(a[i].centre_in - b[i].centre_in) > 0.01 * 0.01) {
        return false;
      }
    }
    return true;
  };
  // Every frame counts for telling a base that stands still from one being moved.
  for (FigureId f : watcher_.observe(match_.state(), bases, move_rolls())) {
    if (const MoveProposal* p = watcher_.proposal(f)) {
      const auto& journaled = fig(match_.state(), f).position;
      set_status(
          "Camera: " + p->summary() +
              (p->legal()
                   ? std::string(" \u2014 Confirm it on the Table map.")
                   : fmt::format(" \u2014 NOT applied: put {} back at ({:.1f}, {:.1f}) or drag "
                                 "the end point on the Table map.",
                                 p->name, journaled ? journaled->x : 0.0,
                                 journaled ? journaled->y : 0.0)),
          !p->legal());
    }
  }
  const bool same_unnamed = std::equal(
      unnamed.begin(), unnamed.end(), vision_unnamed_.begin(), vision_unnamed_.end(),
      [](const Disc& a, const Disc& b) { return norm2(a.centre - b.centre) <= 0.01 * 0.01; });
  if (same(vision_, bases) && same_unnamed) return;
  vision_ = std::move(bases);
  vision_unnamed_ = std::move(unnamed);
  changed();
}

MoveRolls Session::move_rolls() const {
  MoveRolls r;
  if (move.active && move.rolled) r[move.figure] = move.rolls;
  return r;
}

void Session::recheck_proposals() {
  // Proposals depend on the live match and the movement dice only, not on the camera's frame:
  // judged again when either changed.
  const std::uint64_t seq = match_.history().last_seq;
  MoveRolls rolls = move_rolls();
  if (proposals_judged_ && seq == proposals_seq_ && rolls == proposals_rolls_) return;
  watcher_.recheck(match_.state(), rolls);
  proposals_judged_ = true;
  proposals_seq_ = seq;
  proposals_rolls_ = std::move(rolls);
}

bool Session::confirm_proposal(FigureId figure) {
  const MoveProposal* p = watcher_.proposal(figure);
  if (p == nullptr) {
    set_status("The camera has no move to confirm for that figure.", true);
    return false;
  }
  if (p->moving) {
    set_status(fmt::format("{} is still moving: wait until it stands still.", p->name), true);
    return false;
  }
  if (!p->legal()) {
    set_status("Not allowed: " + p->reason, true);
    return false;
  }
  const Command command{p->command};
  if (!play(command)) return false;
  watcher_.confirmed(figure);
  return true;
}

void Session::correct_proposal(FigureId figure, Vec2 to) {
  if (!watcher_.correct(match_.state(), figure, to, move_rolls())) return;
  const MoveProposal* p = watcher_.proposal(figure);
  set_status("Corrected: " + p->summary(), !p->legal());
}

void Session::tick(double now_s) {
  now_s_ = now_s;
  if (wizard.rolling && !wizard.rolling->settled &&
      now_s_ - wizard.rolling->started_s >= options_.roll_animation_s) {
    wizard.rolling->settled = true;
    const auto [in, res] =
        preview_roll(state(), wizard.rolling->attack_faces, wizard.rolling->dodge_faces, {});
    const auto bonuses = bonus_options(in, res);
    if (bonuses.size() <= 1) {
      apply_settled_roll();
    } else {
      wizard.bonus_pick = res.bonus_colour;  // the largest, until the attacker picks another
      set_status("Pick the colour bonus, then Apply roll.", false);
    }
  }
  if (auto_run && live() && now_s_ >= next_ai_s_ && !wizard.rolling) {
    if (ai_step(false)) next_ai_s_ = now_s_ + options_.step_delay_s;
  }
}

void Session::override_position(FigureId figure, Vec2 at) {
  if (past_) {
    set_status("The log is showing the past: press Live first.", true);
    return;
  }
  const auto& f = fig(state(), figure);
  at.x = std::clamp(at.x, 0.0, layout_.table.width_in);
  at.y = std::clamp(at.y, 0.0, layout_.table.depth_in);
  try {
    positions_.record({figure, Point{at.x, at.y}, match_.history().last_seq});
  } catch (const std::exception& e) {
    set_status(std::string("The position could not be saved: ") + e.what(), true);
    return;
  }
  changed();
  // Say when the new spot is not a legal one (the player may be correcting the camera).
  Obstacles occupied = view_.terrain;
  for (const auto& b : view_.bases) {
    if (b.figure != figure)
      occupied.push_back({b.name, Shape::make_circle(b.disc.centre, b.disc.radius_in)});
  }
  const PlacementCheck c =
      check_spot(Disc{at, f.def.base_diameter_in / 2}, layout_.table, occupied);
  set_status(fmt::format("{} put at ({:.1f}, {:.1f}) by hand{}.", f.def.name, at.x, at.y,
                         c.ok ? std::string() : " — note: " + c.problems.front()),
             !c.ok);
}

void Session::clear_override(FigureId figure) {
  if (past_ || overrides_.count(figure) == 0) return;
  positions_.record({figure, std::nullopt, match_.history().last_seq});
  set_status(fmt::format("{} is back where the match has it.", fig(state(), figure).def.name),
             false);
  changed();
}

}  // namespace duels::overlay
