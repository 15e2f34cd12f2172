// `duels figure check FILE…`, `duels figure show NAME` and `duels figure new`.
#include <fmt/format.h>

#include <unistd.h>

#include <charconv>
#include <filesystem>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>
#include <sstream>
#include <type_traits>

#include "app/command.hpp"
#include "dice/notation.hpp"
#include "duels/asset_writer.hpp"
#include "duels/assets.hpp"
#include "duels/serialize.hpp"

namespace duels::app {
namespace {

void print_figure(const FigureDef& f) {
  std::cout << fmt::format("{}{}  #{}  {} points\n", f.name, f.sample ? " (SAMPLE)" : "",
                           f.collector_number, f.points);
  std::cout << fmt::format("  base: {:.2f}\" across, {:.2f}\" high\n", f.base_diameter_in,
                           f.base_height_in);
  std::cout << fmt::format("  starting dice: {}\n", dice::to_notation(f.starting_dice));
  std::string bonus;
  for (const auto& [c, v] : f.damage_bonus)
    bonus += fmt::format("{}+{} {}", bonus.empty() ? "" : ", ", v, dice::colour_name(c));
  std::cout << fmt::format("  damage bonus: {}\n", bonus.empty() ? "none" : bonus);
  std::cout << "  tape:";
  for (const auto& t : f.tape.tracks) {
    std::cout << fmt::format("  {} {:g}–{:g}\"", dice::colour_name(t.colour), t.from_in, t.to_in);
  }
  std::cout << "\n  dials (click by click, ▼ = start; [colour] = shield, * = bullet hole):\n";
  for (DialKind d : kAllDials) {
    std::string row;
    const auto& positions = f.dial(d).positions;
    for (std::size_t i = 0; i < positions.size(); ++i) {
      const auto& p = positions[i];
      std::string cell = fmt::format("{}{}", i == 0 ? "▼" : "", p.value);
      if (p.shield) cell += fmt::format("[{}]", dice::colour_name(*p.shield));
      cell += std::string(static_cast<std::size_t>(p.bullet_holes), '*');
      row += fmt::format(" {:>10}", cell);
    }
    std::cout << fmt::format("    {:<7}{}\n", dial_name(d), row);
  }
}

// Asks one question at a time on the terminal (or reads the answers from a pipe, one a line).
// Interactive: a bad answer is explained and asked again. From a pipe: the first bad answer is a
// DataException naming its line on standard input.
class Prompter {
 public:
  Prompter(std::istream& in, std::ostream& out, bool interactive)
      : in_(in), out_(out), interactive_(interactive) {}

  template <class Parse>
  auto ask(const std::string& prompt, const std::string& field, Parse parse)
      -> std::remove_cvref_t<decltype(*parse(std::string()))> {
    for (;;) {
      out_ << prompt << std::flush;
      std::string text;
      if (!std::getline(in_, text)) {
        if (!interactive_) out_ << "\n";
        throw DataException({"<stdin>", line_ + 1, field, "an answer (the input ended)"});
      }
      ++line_;
      if (!text.empty() && text.back() == '\r') text.pop_back();
      if (!interactive_) out_ << text << "\n";
      auto r = parse(text);
      if (r) return *r;
      if (!interactive_) throw DataException({"<stdin>", line_, field, r.error()});
      out_ << "  \u2717 " << r.error() << "\n";
    }
  }
  std::ostream& out() { return out_; }
  [[nodiscard]] bool interactive() const { return interactive_; }

 private:
  std::istream& in_;
  std::ostream& out_;
  bool interactive_;
  int line_ = 0;
};

std::string lower(std::string_view s) {
  std::string out(s);
  for (auto& c : out)
    c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

// An answer that is text (Expected needs a value type other than its error's).
struct Text {
  std::string value;
};

std::string trim(std::string s) {
  const auto b = s.find_first_not_of(" \t");
  if (b == std::string::npos) return {};
  return s.substr(b, s.find_last_not_of(" \t") - b + 1);
}

// `duels figure new`: the figure as it sits on the table, one question at a time.
FigureDef ask_figure(Prompter& p, const AssetLibrary& lib) {
  FigureDef f;
  auto& out = p.out();
  out << "A new figure, entered as it sits on the table (an empty answer keeps the [default]).\n";
  f.name =
      p.ask("Name, as printed on the base: ", "name",
            [&](const std::string& t) -> Expected<Text, std::string> {
              const std::string n = trim(t);
              if (n.empty()) return std::string("a name");
              if (const FigureDef* same = lib.find_figure(n)) {
                const auto it = lib.figure_files.find(same->name);
                return fmt::format("a name no other figure has ('{}' is already in {})", same->name,
                                   it == lib.figure_files.end() ? "the library" : it->second);
              }
              return Text{n};
            })
          .value;
  f.collector_number =
      p.ask("Collector number [none]: ", "collector_number",
            [](const std::string& t) -> Expected<Text, std::string> { return Text{trim(t)}; })
          .value;
  f.points = p.ask("Points: ", "points", [](const std::string& t) -> Expected<int, std::string> {
    int v = 0;
    const std::string x = trim(t);
    const auto [end, ec] = std::from_chars(x.data(), x.data() + x.size(), v);
    if (x.empty() || ec != std::errc() || end != x.data() + x.size() || v < 0 || v > 1000)
      return fmt::format("the point value on the base, 0 to 1000, not '{}'", x);
    return v;
  });
  const auto base =
      p.ask("Base diameter and height in inches [2 0.75]: ", "base",
            [](const std::string& t) -> Expected<std::pair<double, double>, std::string> {
              std::istringstream in(t);
              double d = 2;
              double h = 0.75;
              std::string extra;
              if (!trim(t).empty() && (!(in >> d) || (!(in >> h) && !in.eof()) || (in >> extra)))
                return std::string("two numbers, e.g. 2 0.75 (the height may be left out)");
              if (d < 0.5 || d > 12)
                return fmt::format("a diameter from 0.5 to 12 inches, not {:g}", d);
              if (h < 0 || h > 12) return fmt::format("a height from 0 to 12 inches, not {:g}", h);
              return std::pair{d, h};
            });
  f.base_diameter_in = base.first;
  f.base_height_in = base.second;
  f.starting_dice =
      p.ask("Starting dice, e.g. 2xwhite:d6 yellow:d8:ace blue:d10: ", "starting_dice",
            [](const std::string& t) -> Expected<std::vector<dice::Die>, std::string> {
              if (trim(t).empty()) return std::string("at least one die, e.g. yellow:d6");
              auto pool = dice::parse_pool(t);
              if (!pool) return pool.error().as_data_error("<stdin>", 0, "").expected;
              return *pool;
            });
  f.damage_bonus = p.ask("Damage bonus, e.g. yellow:1 [none]: ", "damage_bonus",
                         [](const std::string& t) { return parse_damage_bonus(t); });
  for (;;) {
    out << "The dials: turn each to its green arrow and type what it shows - the value, then a "
           "shield colour if one shows, then 'hole' for each bullet hole (6, 5 yellow, 4 hole).\n"
           "Then click the dial once and type again; an empty answer ends the dial.\n";
    int holes = 0;
    for (DialKind d : kAllDials) {
      auto& positions = f.dials[static_cast<std::size_t>(d)].positions;
      positions.clear();
      int most = 0;
      for (std::size_t i = 0;; ++i) {
        const std::string field = fmt::format("dials.{}[{}]", lower(dial_name(d)), i);
        auto pos = p.ask(
            fmt::format("  {} click {}{}: ", dial_name(d), i, i == 0 ? " (green arrow)" : ""),
            field, [&](const std::string& t) -> Expected<std::optional<DialPosition>, std::string> {
              if (trim(t).empty()) {
                if (i == 0) return std::string("the value at the green arrow (at least one)");
                return std::optional<DialPosition>{};
              }
              auto r = parse_dial_position(t);
              if (!r) return r.error();
              return std::optional<DialPosition>{*r};
            });
        if (!pos) break;
        most = std::max(most, pos->bullet_holes);
        positions.push_back(*pos);
      }
      holes += most;
    }
    if (holes >= 3) break;
    const std::string why = fmt::format(
        "dials that can show three bullet holes in all (these show at most {}, so the figure "
        "could never be eliminated)",
        holes);
    if (!p.interactive()) throw DataException({"<stdin>", 0, "dials", why});
    out << "  \u2717 " << why << "; enter the dials again.\n";
  }
  out << "The tape: each coloured track as COLOUR FROM TO in inches (blue 0 14); an empty "
         "answer ends it.\n";
  for (;;) {
    const bool first = f.tape.tracks.empty();
    auto track = p.ask("  track: ", fmt::format("tape[{}]", f.tape.tracks.size()),
                       [&](const std::string& t) -> Expected<std::optional<Track>, std::string> {
                         if (trim(t).empty()) {
                           if (first) return std::string("at least one track, e.g. yellow 0 4");
                           return std::optional<Track>{};
                         }
                         auto r = parse_tape_track(t);
                         if (!r) return r.error();
                         if (f.tape.has(r->colour))
                           return fmt::format("one track per colour ({} is there already)",
                                              dice::colour_name(r->colour));
                         return std::optional<Track>{*r};
                       });
    if (!track) break;
    f.tape.tracks.push_back(*track);
  }
  return f;
}

void add_figure(CLI::App& root) {
  auto* fig = root.add_subcommand("figure", "Check figure/gear/team files, or show a figure");
  fig->require_subcommand(1);

  auto files = std::make_shared<std::vector<std::string>>();
  auto check_json = std::make_shared<bool>(false);
  auto* check =
      fig->add_subcommand("check", "Validate figure, gear and team YAML files; list every problem");
  check->add_option("files", *files, "YAML files")->required()->expected(1, -1);
  check->add_flag("--json", *check_json, "print JSON");
  check->callback([files, check_json] {
    // Files are checked against the library (the samples and the data folder) so teams may name
    // its figures and gear; when the data folder itself is broken, against the samples alone.
    AssetLibrary lib;
    try {
      lib = load_library();
    } catch (const DataException&) {
      try {
        lib = load_asset_library(assets_dir());
      } catch (const DataException&) {
        lib = AssetLibrary{};
      }
    }
    LoadReport report;
    for (const auto& f : *files) {
      AssetLibrary own;  // each file on its own: teams in it may use the library's figures
      load_asset_file(f, own, report, &lib);
      // A name the library already has from another file would make every command refuse the
      // data folder (a clash): say so now.
      const auto clash = [&](const auto& mine, const auto& files_of, const char* what) {
        for (const auto& [name, def] : mine) {
          const auto it = files_of.find(name);
          if (it == files_of.end()) continue;
          std::error_code ec;
          if (std::filesystem::equivalent(it->second, f, ec)) continue;
          report.errors.push_back(
              {f, 0, what,
               fmt::format("a {} no other file uses ('{}' is already defined in {}; rename one "
                           "of the two)",
                           what, name, it->second)});
        }
      };
      clash(own.figures, lib.figure_files, "name");
      clash(own.gear, lib.gear_files, "id");
      clash(own.teams, lib.team_files, "team name");
    }
    if (*check_json) {
      nlohmann::json errors = nlohmann::json::array();
      for (const auto& e : report.errors) {
        errors.push_back({{"file", e.file},
                          {"line", e.line},
                          {"field", e.field},
                          {"expected", e.expected},
                          {"message", e.message()}});
      }
      std::cout << nlohmann::json{{"ok", report.ok()}, {"errors", errors}}.dump() << "\n";
    } else {
      for (const auto& e : report.errors)
        std::cout << e.message() << "\n";
      if (report.ok())
        std::cout << fmt::format("{} file{} OK\n", files->size(), files->size() == 1 ? "" : "s");
    }
    if (!report.ok())
      throw DataException({"", 0, "",
                           fmt::format("{} problem{} found", report.errors.size(),
                                       report.errors.size() == 1 ? "" : "s")});
  });

  auto name = std::make_shared<std::string>();
  auto show_json = std::make_shared<bool>(false);
  auto* show = fig->add_subcommand("show", "Print a figure (or gear piece) from the asset library");
  show->add_option("name", *name, "figure name or gear id")->required();
  show->add_flag("--json", *show_json, "print JSON");
  show->callback([name, show_json] {
    const AssetLibrary lib = load_library();
    if (const FigureDef* f = lib.find_figure(*name)) {
      if (*show_json) {
        std::cout << to_json(*f).dump() << "\n";
      } else {
        print_figure(*f);
      }
      return;
    }
    if (const GearDef* g = lib.find_gear(*name)) {
      if (*show_json) {
        std::cout << to_json(*g).dump() << "\n";
      } else {
        std::string shields;
        for (auto c : g->shields)
          shields += (shields.empty() ? "" : ", ") + std::string(dice::colour_name(c));
        std::cout << fmt::format("{} ({}){}: {} points; dice: {}; shields: {}\n", g->name, g->id,
                                 g->sample ? " (SAMPLE)" : "", g->points,
                                 g->dice.empty() ? "none" : dice::to_notation(g->dice),
                                 shields.empty() ? "none" : shields);
      }
      return;
    }
    std::string known;
    for (const auto& [n, f] : lib.figures)
      known += (known.empty() ? "" : ", ") + n;
    throw DataException({"<command line>", 0, "name",
                         fmt::format("a figure or gear in the library (figures: {})", known)});
  });

  struct NewOpts {
    std::string out;
    bool force = false;
  };
  auto n = std::make_shared<NewOpts>();
  auto* create = fig->add_subcommand(
      "new",
      "Enter a figure as it sits on the table, one question at a time (answers may also come "
      "from a pipe, one a line); saves it into your data folder");
  create->add_option("--out", n->out,
                     "the file to write (default: DATA/figures/NAME.yaml in your data folder)");
  create->add_flag("--force", n->force, "replace the file when it exists");
  create->callback([n] {
    const AssetLibrary lib = load_library();
    Prompter p(std::cin, std::cout, isatty(STDIN_FILENO) != 0);
    const FigureDef f = ask_figure(p, lib);
    // What a file holds other than this figure ("" when it holds only this one): a file is
    // replaced only when it holds this figure, never another one whose name makes the same file
    // name.
    const auto holds_other = [&lib, &f](const std::string& file) {
      AssetLibrary there;
      LoadReport report;
      try {
        load_asset_file(file, there, report, &lib);
      } catch (const DataException&) {
        return std::string("something that is not a figure");
      }
      for (const auto& entry : there.figures) {
        if (entry.first != f.name) return fmt::format("the figure '{}'", entry.first);
      }
      return std::string();
    };
    std::string path = n->out;
    if (path.empty()) {
      // DATA/figures/NAME.yaml, or NAME-2.yaml, … when that file holds another figure ("Night
      // Owl" and "Night-Owl!" make the same file name).
      const auto dir = std::filesystem::path(user_data_dir()) / "figures";
      path = (dir / (file_stem(f.name) + ".yaml")).string();
      for (int k = 2; std::filesystem::exists(path) && !holds_other(path).empty(); ++k)
        path = (dir / fmt::format("{}-{}.yaml", file_stem(f.name), k)).string();
    }
    if (std::filesystem::exists(path)) {
      const std::string other = holds_other(path);
      if (!other.empty()) {
        throw UsageError(
            fmt::format("{} holds {}, not '{}': it is not replaced (give --out with another file)",
                        path, other, f.name));
      }
      if (!n->force)
        throw UsageError(fmt::format(
            "{} exists (it holds '{}'); give --force to replace it, or --out FILE", path, f.name));
    }
    const auto problems = check_figure(f, &lib, path);
    if (!problems.empty()) {
      DataError first = problems.front();
      throw DataException(first);
    }
    save_asset_file(path, figure_file_text(f));
    // What was saved, read back the way every command reads it.
    AssetLibrary saved;
    LoadReport report;
    load_asset_file(path, saved, report, &lib);
    if (!report.ok()) throw DataException(report.errors.front());
    std::cout << "\n";
    print_figure(saved.figures.begin()->second);
    std::cout << fmt::format(
        "Saved to {}\nIt is in every command now, e.g. duels gui --figures \"{}\",Razor\n", path,
        f.name);
  });
}

DUELS_COMMAND(30, add_figure);

}  // namespace
}  // namespace duels::app
