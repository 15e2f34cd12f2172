#pragma once
/// The round-trip property of a Duels match's journal: every command the engine accepts is a
/// command the journal replays to the same state. Shared by the seeded test
/// (tests/match/replay_property_test.cpp) and the fuzz target (fuzz/fuzz_replay_roundtrip.cpp),
/// which differ only in where their choices come from.
///
/// A match is played by the built-in opponent; one command in three has one field set to an
/// extreme its type allows (0, -0, the smallest double, NaN, infinities, the bounds and just
/// past them, INT_MAX, 65-entry lists, names that are long, empty or not UTF-8) and one in
/// twenty is an undo or a redo. Every accepted command is sealed into a journal line exactly
/// as the writer seals it; at the end the text is read back and replayed and the state hashes
/// compared after every step.
#include <fmt/format.h>

#include <cmath>
#include <cstdint>
#include <functional>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "duels/assets.hpp"
#include "duels/autoplay.hpp"
#include "duels/engine.hpp"
#include "duels/loadout.hpp"
#include "duels/record.hpp"
#include "match/duels_match.hpp"
#include "match/journal.hpp"

namespace duels_test {

/// Where choices come from: a number in [0, n).
using Pick = std::function<std::uint32_t(std::uint32_t n)>;

/// Two sample figures (assets/figures/samples.yaml), so the property needs no files.
inline duels::MatchSetup property_setup(bool measured, bool catalogue) {
  static const char* kFigures = R"(schema_version: 1
figures:
  - name: Razor
    sample: true
    collector_number: S-001
    points: 40
    base: {diameter: 2.0, height: 0.75}
    starting_dice: [2xwhite:d6, yellow:d8:ace, blue:d8, blue:d10:ace, green:d6]
    damage_bonus: {yellow: 1}
    dials:
      head:   [7, 7, 6, "6 hole", 5, 4, "3 hole", 2, "0 hole hole hole"]
      weapon: [6, 6, "5 yellow", 5, "4 hole", 3, 2, "1 hole", "0 hole hole hole"]
      body:   [9, "9 blue", 8, 8, "7 hole", 6, "5 hole", "4 hole", "0 hole hole hole"]
    tape:
      - {colour: yellow, from: 0, to: 4}
      - {colour: blue, from: 0, to: 14}
      - {colour: green, from: 0, to: 26}
  - name: Bulldozer
    sample: true
    collector_number: S-004
    points: 45
    base: {diameter: 2.5, height: 0.9}
    starting_dice: [white:d6, white:d6, yellow:d10:ace, yellow:d12, blue:d6, green:d4]
    damage_bonus: {yellow: 2}
    dials:
      head:   [5, 5, 5, "4 hole", 4, 3, "2 hole", 1, "0 hole hole hole"]
      weapon: [8, "8 yellow", 7, 7, "6 hole", 5, "4 hole", 3, "0 hole hole hole"]
      body:   [10, "10 yellow", 9, "9 green", "8 hole", 7, "6 hole", "5 hole", "0 hole hole hole"]
    tape:
      - {colour: yellow, from: 0, to: 5}
      - {colour: blue, from: 0, to: 10}
      - {colour: green, from: 2, to: 20}
)";
  duels::AssetLibrary lib;
  duels::LoadReport report;
  duels::load_asset_text(kFigures, "property figures", lib, report);
  duels::MatchSetup setup =
      duels::setup_from_loadouts(lib, {"Razor;Bulldozer", "Bulldozer;Razor"}, "teams");
  setup.table.measured = measured;
  if (measured && catalogue) {
    auto pieces = std::make_shared<duels::Obstacles>();
    pieces->push_back({"Rock", duels::Shape::make_circle({30, 30}, 3)});
    pieces->push_back(
        {"Wall", duels::Shape::make_polygon({{10, 40}, {20, 40}, {20, 41}, {10, 41}})});
    setup.table.catalogue = std::move(pieces);
  }
  return setup;
}

/// Extreme values each kind of field may be given.
class Extremes {
 public:
  explicit Extremes(Pick pick) : pick_(std::move(pick)) {}

  std::uint32_t pick(std::uint32_t n) { return pick_(n); }

  /// A double near `usual`, or one of the extremes.
  double number(double usual) {
    constexpr double kInf = std::numeric_limits<double>::infinity();
    const double table[] = {0.0,
                            -0.0,
                            std::numeric_limits<double>::denorm_min(),
                            1e-300,
                            1e-7,
                            1e-6,
                            std::nextafter(1e-6, 0.0),
                            0.5,
                            1e3,
                            std::nextafter(1e3, kInf),
                            std::nextafter(1e6, 0.0),
                            1e6,
                            -1e6,
                            1e300,
                            std::numeric_limits<double>::quiet_NaN(),
                            kInf,
                            -kInf,
                            -1.0,
                            usual * (1 + 1e-15),
                            std::nextafter(usual, kInf),
                            usual + 1e-9,
                            usual / 3};
    constexpr std::uint32_t n = sizeof table / sizeof table[0];
    return table[pick(n)];
  }
  /// An id (figure, team, die) near `usual`, or an extreme.
  int id(int usual) {
    const int table[] = {-1,
                         0,
                         1,
                         2,
                         16,
                         17,
                         4096,
                         4097,
                         std::numeric_limits<int>::max(),
                         std::numeric_limits<int>::min(),
                         usual + 1,
                         usual - 1};
    return table[pick(sizeof table / sizeof table[0])];
  }
  /// A die face, or an extreme.
  int face() {
    const int table[] = {
        0, 1, 6, 12, 13, -1, std::numeric_limits<int>::max(), std::numeric_limits<int>::min()};
    return table[pick(sizeof table / sizeof table[0])];
  }
  /// A name: long, empty, not UTF-8, with quotes or a NUL.
  std::string name(const std::string& usual) {
    switch (pick(9)) {
      case 0:
        return "";
      case 1:
        return std::string(256, 'x');
      case 2:
        return std::string(257, 'x');
      case 3:
        return "Ro\xe9k";  // Latin-1
      case 4:
        return "\xff\xfe";
      case 5:
        return "Straße \"quoted\" \\ back";
      case 6:
        return std::string("nul\0inside", 10);
      case 7:
        return usual + " ";
      default:
        return "名前";
    }
  }
  /// A list of ids: empty, one extreme, or 64/65 entries.
  std::vector<int> ids(const std::vector<int>& usual) {
    switch (pick(5)) {
      case 0:
        return {};
      case 1:
        return std::vector<int>(64, usual.empty() ? 0 : usual.front());
      case 2:
        return std::vector<int>(65, 0);
      default: {
        std::vector<int> out = usual;
        if (out.empty()) out.push_back(0);
        out[pick(static_cast<std::uint32_t>(out.size()))] = id(out.front());
        return out;
      }
    }
  }
  std::vector<int> faces(const std::vector<int>& usual) {
    std::vector<int> out = usual;
    if (out.empty() || pick(4) == 0) {
      out.push_back(face());
    } else {
      out[pick(static_cast<std::uint32_t>(out.size()))] = face();
    }
    if (pick(10) == 0) out.assign(65, 1);
    return out;
  }
  duels::Shape shape() {
    if (pick(2) == 0) {
      return duels::Shape::make_circle({number(30), number(30)}, number(2));
    }
    std::vector<duels::Vec2> corners{{5, 5}, {8, 5}, {8, 8}};
    const std::size_t k = pick(3);
    if (pick(2) == 0) {
      corners[k].x = number(corners[k].x);
    } else {
      corners[k].y = number(corners[k].y);
    }
    if (pick(8) == 0) corners.assign(257, {1, 1});
    return duels::Shape::make_polygon(std::move(corners));
  }

 private:
  Pick pick_;
};

/// The command with one field set to an extreme value.
inline duels::Command mutate(duels::Command c, Extremes& x) {
  using namespace duels;
  auto measurement = [&](Measurement& m) {
    switch (x.pick(5)) {
      case 0:
        m.gap_in = x.number(m.gap_in);
        break;
      case 1:
        m.chord_in = x.number(m.chord_in);
        break;
      case 2:
        m.blockers.push_back(x.name("Rock"));
        break;
      case 3:
        m.line_of_fire = !m.line_of_fire;
        break;
      default:
        m.manual = !m.manual;
        break;
    }
  };
  struct Visitor {
    Extremes& x;
    const std::function<void(Measurement&)>& measurement;
    void operator()(RollForAlpha& c) const {
      if (c.rolls.empty() || x.pick(3) == 0) {
        c.rolls[x.id(0)] = {x.face(), x.face()};
      } else {
        c.rolls.begin()->second[x.pick(2)] = x.face();
      }
    }
    void operator()(PlaceTerrain& c) const {
      switch (x.pick(3)) {
        case 0:
          c.team = x.id(c.team);
          break;
        case 1:
          c.id = x.name(c.id);
          break;
        default:
          c.shape = x.shape();
          break;
      }
    }
    void operator()(PassTerrain& c) const { c.team = x.id(c.team); }
    void operator()(PlaceFigure& c) const {
      switch (x.pick(3)) {
        case 0:
          c.figure = x.id(c.figure);
          break;
        case 1:
          c.at.x = x.number(c.at.x);
          break;
        default:
          c.at.y = x.number(c.at.y);
          break;
      }
    }
    void operator()(ChooseDice& c) const {
      if (x.pick(4) == 0) {
        c.figure = x.id(c.figure);
      } else {
        c.dice = x.ids(c.dice);
      }
    }
    void operator()(Move& c) const {
      switch (x.pick(5)) {
        case 0:
          c.distance_in = x.number(c.distance_in.value_or(3));
          break;
        case 1:
          if (c.to) c.to->x = x.number(c.to->x);
          break;
        case 2:
          if (c.to) c.to->y = x.number(c.to->y);
          break;
        case 3:
          c.rolls.push_back({x.id(0), x.face()});
          break;
        default:
          c.figure = x.id(c.figure);
          break;
      }
    }
    void operator()(DeclareAttack& c) const {
      switch (x.pick(4)) {
        case 0:
          measurement(c.measurement);
          break;
        case 1:
          c.dice = x.ids(c.dice);
          break;
        case 2:
          if (!c.from_positions) c.from_positions = c.measurement;
          measurement(*c.from_positions);
          break;
        default:
          c.target = x.id(c.target);
          break;
      }
    }
    void operator()(ChooseDodge& c) const { c.dice = x.ids(c.dice); }
    void operator()(RollAttack& c) const {
      if (x.pick(2) == 0) {
        c.attack_faces = x.faces(c.attack_faces);
      } else {
        c.dodge_faces = x.faces(c.dodge_faces);
      }
    }
    void operator()(RemoveGear& c) const { c.gear_id = x.name(c.gear_id); }
    void operator()(AssignDamage&) const {}
    void operator()(EndTurn& c) const { c.figure = x.id(c.figure); }
  };
  const std::function<void(Measurement&)> m = measurement;
  std::visit(Visitor{x, m}, c);
  return c;
}

/// What one property run saw.
struct RoundTrip {
  std::uint64_t commands = 0;  ///< commands tried
  std::uint64_t accepted = 0;  ///< accepted by the engine (journaled)
  std::uint64_t extremes = 0;  ///< of them, commands with a field set to an extreme
  std::uint64_t undos = 0;     ///< undo and redo entries journaled
  std::uint64_t matches = 0;   ///< matches played
  std::vector<std::string> failures;
};

/// Plays one match of at most `max_commands` tries on `setup`, journals it in memory, reads it
/// back and replays it; adds what it saw (and every difference) to `out`.
inline void round_trip_match(const duels::MatchSetup& setup, std::uint64_t seed,
                             std::uint64_t max_commands, Extremes& x, RoundTrip& out) {
  using namespace duels;
  using nlohmann::json;
  auto started = new_game(setup);
  if (!started) {
    out.failures.push_back("the set-up does not start: " + started.error().reason);
    return;
  }
  const GameState initial = *started;
  GameState state = initial;
  std::vector<Command> steps;
  std::vector<Command> redo;
  std::vector<std::uint64_t> hashes;  // after each journal entry
  match::JournalHeader header;
  header.program = "property";
  header.created = "2026-11-29T00:00:00Z";
  header.kind = match::kDuelsKind;
  header.body = match::DuelsGame::start_to_json(match::DuelsStart{setup, seed});
  std::string text = match::seal_line({{"type", "header"},
                                       {"seq", 0},
                                       {"schema_version", header.schema_version},
                                       {"program", header.program},
                                       {"created", header.created},
                                       {"kind", header.kind},
                                       {"body", header.body}}) +
                     "\n";
  std::uint64_t seq = 0;
  auto entry = [&](const std::string& type, const json& data) {
    ++seq;
    text += match::seal_line(
                {{"seq", seq}, {"type", type}, {"data", data}, {"time", "2026-11-29T00:00:00Z"}}) +
            "\n";
    hashes.push_back(state_hash(state));
  };
  AutoPlayer ai(seed);
  ++out.matches;
  for (std::uint64_t i = 0; i < max_commands; ++i) {
    ai.set_step(i);
    const std::uint32_t roll = x.pick(20);
    if (roll == 0 && !steps.empty()) {  // undo
      redo.push_back(steps.back());
      steps.pop_back();
      state = initial;
      for (const auto& c : steps)
        (void)duels::apply(state, c);
      entry("undo", json::object());
      ++out.undos;
      continue;
    }
    if (roll == 1 && !redo.empty()) {
      if (duels::apply(state, redo.back())) {
        steps.push_back(redo.back());
        redo.pop_back();
        entry("redo", json::object());
        ++out.undos;
      }
      continue;
    }
    auto next = ai.next(state);
    if (!next) break;
    const bool extreme = x.pick(3) == 0;
    const Command c = extreme ? mutate(*next, x) : *next;
    ++out.commands;
    if (!duels::apply(state, c)) continue;
    ++out.accepted;
    if (extreme) ++out.extremes;
    json data;
    try {
      data = json::parse(command_to_json(c).dump());
    } catch (const std::exception& e) {
      out.failures.push_back(
          fmt::format("seed {} step {}: the engine accepted a {} the journal "
                      "cannot write ({})",
                      seed, i, command_name(c), e.what()));
      return;
    }
    try {
      (void)command_from_json(data);
    } catch (const DataException& e) {
      out.failures.push_back(
          fmt::format("seed {} step {}: the engine accepted {} that the "
                      "journal reader refuses ({}: {})",
                      seed, i, data.dump(), e.error().field, e.error().expected));
      return;
    }
    steps.push_back(c);
    redo.clear();
    entry("command", data);
  }
  const match::JournalContents contents = match::parse_journal(text, "property");
  const match::Replay replayed = match::replay(contents);
  if (replayed.error || replayed.last_seq != seq) {
    out.failures.push_back(fmt::format("seed {}: the journal replays to event {} of {}: {}", seed,
                                       replayed.last_seq, seq,
                                       replayed.error ? replayed.error->message() : ""));
    return;
  }
  if (state_hash(replayed.state) != state_hash(state)) {
    // Find the first entry whose replay differs.
    std::uint64_t at = 1;
    while (at <= seq && state_hash(match::replay(contents, at).state) == hashes[at - 1])
      ++at;
    out.failures.push_back(fmt::format(
        "seed {}: the replayed state differs from the played one from event {}", seed, at));
  }
}

}  // namespace duels_test
