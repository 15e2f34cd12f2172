// `duels table check|path|reach` — measuring a table scene: gaps, line of fire, usable tape
// tracks, shortest legal paths and the reachable region (with a top-down picture).
#include <fmt/format.h>

#include <cmath>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>
#include <numbers>
#include <optional>
#include <sstream>

#include "app/command.hpp"
#include "app/png_write.hpp"
#include "duels/assets.hpp"
#include "duels/geometry.hpp"
#include "duels/geometry_raster.hpp"
#include "duels/scene.hpp"

namespace duels::app {
namespace {

// Figures are looked up only when a scene names one, so scenes without figures work even
// without the asset folder.
class LazyFigures {
 public:
  const FigureDef* find(std::string_view name) {
    if (!library_) library_ = load_library();
    return library_->find_figure(name);
  }

 private:
  std::optional<AssetLibrary> library_;
};

Scene read_scene(const std::string& path) {
  auto figures = std::make_shared<LazyFigures>();
  return load_scene_file(path, [figures](std::string_view n) { return figures->find(n); });
}

std::size_t base_of(const Scene& scene, const std::string& id) {
  const auto i = scene.base_index(id);
  if (!i) {
    std::string known;
    for (const SceneBase& b : scene.bases)
      known += (known.empty() ? "" : ", ") + b.id;
    throw UsageError(fmt::format("no base '{}' in the scene (bases: {})", id, known));
  }
  return *i;
}

Vec2 parse_point(const std::string& text) {
  std::istringstream in(text);
  double x = 0;
  double y = 0;
  char comma = 0;
  if (!(in >> x >> comma >> y) || comma != ',' || !(in >> std::ws).eof() || !std::isfinite(x) ||
      !std::isfinite(y)) {
    throw UsageError(fmt::format("--to wants X,Y in inches (e.g. 30,12.5), not '{}'", text));
  }
  return {x, y};
}

nlohmann::json point_json(Vec2 p) {
  return nlohmann::json::array({p.x, p.y});
}

std::string colours_text(const std::vector<dice::Colour>& cs) {
  std::string out;
  for (dice::Colour c : cs)
    out += (out.empty() ? "" : " ") + std::string(dice::colour_name(c));
  return out.empty() ? "none" : out;
}

TableDrawing drawing_of(const Scene& scene, std::optional<std::size_t> mover) {
  TableDrawing d;
  d.table = scene.table;
  for (const SceneTerrain& t : scene.terrain)
    d.terrain.push_back({t.id, t.shape});
  for (std::size_t i = 0; i < scene.bases.size(); ++i) {
    const SceneBase& b = scene.bases[i];
    d.bases.push_back({b.id, b.disc, b.team, mover && *mover == i});
  }
  return d;
}

void write_picture(const std::string& path, const TableDrawing& d, double px_per_in) {
  if (!(px_per_in > 0 && px_per_in <= 100)) throw UsageError("--px-per-in must be in (0, 100]");
  write_png(path, draw_table(d, px_per_in));
}

// ---- check ----------------------------------------------------------------------------------

void run_check(const std::string& file, bool json) {
  const Scene scene = read_scene(file);
  const auto pairs = check_scene(scene);
  if (json) {
    nlohmann::json out;
    out["pairs"] = nlohmann::json::array();
    for (const PairCheck& p : pairs) {
      nlohmann::json j;
      j["from"] = scene.bases[p.from].id;
      j["to"] = scene.bases[p.to].id;
      j["gap_in"] = p.gap_in;
      j["line_of_fire"] = p.line_of_fire.clear;
      j["blockers"] = p.blockers;
      if (p.line_of_fire.clear) {
        j["lof_gap_in"] = p.line_of_fire.gap_in;
        j["chord_in"] = p.line_of_fire.chord_in;
        j["witness"] = {point_json(p.line_of_fire.witness.a), point_json(p.line_of_fire.witness.b)};
      }
      if (p.has_tape) {
        j["usable"] = nlohmann::json::array();
        for (dice::Colour c : p.usable)
          j["usable"].push_back(std::string(dice::colour_name(c)));
      }
      out["pairs"].push_back(j);
    }
    std::cout << out.dump() << "\n";
    return;
  }
  if (pairs.empty()) std::cout << "no bases on different teams\n";
  for (const PairCheck& p : pairs) {
    std::string line = fmt::format("{} → {}: gap {:.2f}\"", scene.bases[p.from].id,
                                   scene.bases[p.to].id, p.gap_in);
    if (p.line_of_fire.clear) {
      line += fmt::format(", line of fire clear (along it: gap {:.2f}\", chord {:.2f}\")",
                          p.line_of_fire.gap_in, p.line_of_fire.chord_in);
      if (p.has_tape) line += ", usable: " + colours_text(p.usable);
    } else {
      std::string who;
      for (const std::string& b : p.blockers)
        who += (who.empty() ? "" : ", ") + b;
      line += ", no line of fire (blocked by " + who + ")";
    }
    std::cout << line << "\n";
  }
}

// ---- path -----------------------------------------------------------------------------------

struct PathOpts {
  std::string file;
  std::string base;
  std::string to;
  std::optional<double> move;
  std::string png;
  double px_per_in = 10;
  bool json = false;
};

void run_path(const PathOpts& o) {
  const Scene scene = read_scene(o.file);
  const std::size_t i = base_of(scene, o.base);
  const Vec2 goal = parse_point(o.to);
  const PathResult p = shortest_path(scene.bases[i].disc, goal, move_obstacles(scene, i));
  const bool within = p.found && (!o.move || p.length_in <= *o.move + 1e-9);
  if (!o.png.empty()) {
    TableDrawing d = drawing_of(scene, i);
    d.path = p.polyline(0.02);
    write_picture(o.png, d, o.px_per_in);
  }
  if (o.json) {
    nlohmann::json j;
    j["base"] = o.base;
    j["to"] = point_json(goal);
    j["found"] = p.found;
    if (p.found) {
      j["length_in"] = p.length_in;
      j["waypoints"] = nlohmann::json::array();
      for (const Vec2& q : p.polyline(0.01))
        j["waypoints"].push_back(point_json(q));
      j["pieces"] = nlohmann::json::array();
      for (const PathPiece& piece : p.pieces) {
        nlohmann::json pj;
        pj["kind"] = piece.kind == PathPiece::Kind::Line ? "line" : "arc";
        pj["from"] = point_json(piece.from);
        pj["to"] = point_json(piece.to);
        pj["length_in"] = piece.length_in;
        if (piece.kind == PathPiece::Kind::Arc) {
          pj["centre"] = point_json(piece.centre);
          pj["radius_in"] = piece.radius_in;
          pj["sweep_deg"] = piece.sweep_rad * 180 / std::numbers::pi;
        }
        j["pieces"].push_back(pj);
      }
    } else {
      j["reason"] = p.reason;
    }
    if (o.move) j["within_move"] = within;
    if (!o.png.empty()) j["png"] = o.png;
    std::cout << j.dump() << "\n";
  } else if (p.found) {
    std::cout << fmt::format("{} to ({:.2f}, {:.2f}): {:.3f}\"", o.base, goal.x, goal.y,
                             p.length_in);
    if (o.move) {
      std::cout << fmt::format(" — {} a move of {:.2f}\"", within ? "within" : "beyond", *o.move);
    }
    std::cout << "\n";
    for (const PathPiece& piece : p.pieces) {
      if (piece.kind == PathPiece::Kind::Line) {
        std::cout << fmt::format("  straight ({:.2f}, {:.2f}) → ({:.2f}, {:.2f})  {:.3f}\"\n",
                                 piece.from.x, piece.from.y, piece.to.x, piece.to.y,
                                 piece.length_in);
      } else {
        std::cout << fmt::format(
            "  round ({:.2f}, {:.2f}) at {:.2f}\" ({} {:.1f}°) → ({:.2f}, {:.2f})  {:.3f}\"\n",
            piece.centre.x, piece.centre.y, piece.radius_in,
            piece.sweep_rad > 0 ? "anticlockwise" : "clockwise",
            std::abs(piece.sweep_rad) * 180 / std::numbers::pi, piece.to.x, piece.to.y,
            piece.length_in);
      }
    }
  }
  if (!o.png.empty() && !o.json) std::cout << "picture written to " << o.png << "\n";
  if (!p.found)
    throw IllegalAction(
        fmt::format("{} cannot move to ({}, {}): {}", o.base, goal.x, goal.y, p.reason));
}

// ---- reach ----------------------------------------------------------------------------------

struct ReachOpts {
  std::string file;
  std::string base;
  double move = 0;
  double cell = 0.05;
  std::string png;
  double px_per_in = 10;
  bool json = false;
};

void run_reach(const ReachOpts& o) {
  if (!(o.move >= 0) || !std::isfinite(o.move)) throw UsageError("--move must be ≥ 0 inches");
  if (!(o.cell >= 0.005 && o.cell <= 1)) throw UsageError("--cell must be from 0.005 to 1 inch");
  const Scene scene = read_scene(o.file);
  const std::size_t i = base_of(scene, o.base);
  const SceneBase& b = scene.bases[i];
  const ReachResult r = reachable_region(b.disc, o.move, move_obstacles(scene, i), o.cell);
  if (!o.png.empty()) {
    TableDrawing d = drawing_of(scene, i);
    d.reach = &r;
    if (b.tape) d.rings = tape_range_rings(b.disc, b.tape->tracks);
    write_picture(o.png, d, o.px_per_in);
  }
  const double accuracy = o.cell * std::sqrt(2.0) / 2;
  if (o.json) {
    nlohmann::json j;
    j["base"] = o.base;
    j["move_in"] = o.move;
    j["area_in2"] = r.area_in2;
    j["cell_in"] = r.cell_in;
    j["boundary_accuracy_in"] = accuracy;
    if (!r.start_problem.empty()) j["problem"] = r.start_problem;
    if (!o.png.empty()) j["png"] = o.png;
    std::cout << j.dump() << "\n";
    return;
  }
  if (!r.start_problem.empty()) std::cout << b.id << " cannot move: " << r.start_problem << "\n";
  std::cout << fmt::format(
      "{}: reachable area {:.2f} sq in with {:.2f}\" of movement (cells of {}\", boundary within "
      "{:.3f}\")\n",
      b.id, r.area_in2, o.move, r.cell_in, accuracy);
  if (!o.png.empty()) std::cout << "picture written to " << o.png << "\n";
}

void add_table(CLI::App& root) {
  auto* table = root.add_subcommand(
      "table", "Measure a table scene: gaps, line of fire, usable tracks, movement");
  table->require_subcommand(1);

  auto* check = table->add_subcommand(
      "check",
      "Every pair of bases on different teams: gap, line of fire, blockers, usable "
      "colours");
  auto check_file = std::make_shared<std::string>();
  auto check_json = std::make_shared<bool>(false);
  check->add_option("scene", *check_file, "scene YAML file")->required();
  check->add_flag("--json", *check_json, "print JSON");
  check->callback([check_file, check_json] { run_check(*check_file, *check_json); });

  auto* path = table->add_subcommand("path", "Shortest legal path for a base to a point");
  auto popts = std::make_shared<PathOpts>();
  path->add_option("scene", popts->file, "scene YAML file")->required();
  path->add_option("--base", popts->base, "id of the base that moves")->required();
  path->add_option("--to", popts->to, "where its centre should end, X,Y in inches")->required();
  path->add_option("--move", popts->move, "movement allowance, to say whether the path fits");
  path->add_option("--png", popts->png, "also write a top-down picture with the path");
  path->add_option("--px-per-in", popts->px_per_in, "picture scale (default 10)");
  path->add_flag("--json", popts->json, "print JSON");
  path->callback([popts] { run_path(*popts); });

  auto* reach = table->add_subcommand(
      "reach", "Area a base can reach with a movement allowance, optionally as a picture");
  auto ropts = std::make_shared<ReachOpts>();
  reach->add_option("scene", ropts->file, "scene YAML file")->required();
  reach->add_option("--base", ropts->base, "id of the base that moves")->required();
  reach->add_option("--move", ropts->move, "movement allowance in inches")->required();
  reach->add_option("--cell", ropts->cell, "raster cell size in inches (default 0.05)");
  reach->add_option("--png", ropts->png, "write a top-down picture of the table");
  reach->add_option("--px-per-in", ropts->px_per_in, "picture scale (default 10)");
  reach->add_flag("--json", ropts->json, "print JSON");
  reach->callback([ropts] { run_reach(*ropts); });
}

DUELS_COMMAND(35, add_table);

}  // namespace
}  // namespace duels::app
