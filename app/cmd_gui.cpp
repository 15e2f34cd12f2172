// `duels gui` — the overlay window on a match (new or resumed); and the window behind
// `duels demo` when a display exists (see cmd_demo.cpp).
#include <fmt/format.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cctype>
#include <filesystem>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>
#include <sstream>

#include "app/cli_util.hpp"
#include "app/command.hpp"
#include "dice/roller.hpp"
#include "duels/assets.hpp"
#include "duels/scene.hpp"
#include "duels/table_rules.hpp"
#include "overlay/gui.hpp"

namespace duels::app {

/// The GUI demo, set by this file when the overlay is built (declared in cmd_demo.cpp): plays a
/// seeded match of these teams in the window; false when no window can be opened.
using GuiDemoFn = bool (*)(const std::vector<std::string>& teams, std::uint64_t seed, int delay_ms);
GuiDemoFn& gui_demo_hook();

namespace {

namespace fs = std::filesystem;

// Writes the full match report (Markdown, HTML, charts) by running `duels match report` — the
// same code as the command line, in a child process so the window's state is untouched.
std::string export_report(const std::string& journal, const std::string& out_dir) {
  std::error_code ec;
  const fs::path self = fs::read_symlink("/proc/self/exe", ec);
  if (ec) return "The report could not be written: this program's path is unknown";
  const pid_t pid = fork();
  if (pid < 0) return "The report could not be written: fork failed";
  if (pid == 0) {
    const std::string exe = self.string();
    execl(exe.c_str(), exe.c_str(), "match", "report", journal.c_str(), "--out", out_dir.c_str(),
          static_cast<char*>(nullptr));
    _exit(127);
  }
  int status = 0;
  waitpid(pid, &status, 0);
  if (WIFEXITED(status) && WEXITSTATUS(status) == 0)
    return "Report written to " + (fs::path(out_dir) / "report.html").string();
  return fmt::format("The report could not be written (`duels match report` exit code {})",
                     WIFEXITED(status) ? WEXITSTATUS(status) : -1);
}

// A synthetic camera delivers frames as often as a webcam does.
constexpr double kWebcamFps = 30;

bool run_demo_gui(const std::vector<std::string>& teams, std::uint64_t seed, int delay_ms) {
  const AssetLibrary lib = load_library();
  overlay::GuiOptions g;
  if (teams.empty() && overlay::camera_supported()) {
#if DUELS_OVERLAY_CAMERA
    // No teams asked for: the bundled synthetic camera scene (assets/scenes/demo.yaml) stands in
    // for a webcam, with its two figures; vision tells the match where they stand.
    g.new_match = setup_from_loadouts(lib, {"Razor", "Gridlock"}, "demo");
    overlay::CameraFeedOptions cam;
    cam.source = "synthetic:demo";
    cam.assets_dir = assets_dir();
    cam.stream_fps = kWebcamFps;
    g.camera = cam;
#endif
  } else {
    g.new_match = setup_from_teams(
        lib, teams.empty() ? std::vector<std::string>{"Street Team", "Arcane Team"} : teams);
  }
  const std::size_t team_count = g.new_match ? g.new_match->teams.size() : 2;
  g.seed = seed;
  g.journal_prefix = "demo";
  g.title = "Duels Companion \u2014 demo";
  g.session.ai_teams.assign(team_count, true);
  g.session.auto_run = true;
  g.session.step_delay_s = delay_ms > 0 ? delay_ms / 1000.0 : 0.8;
  g.session.export_report = export_report;
  try {
    const overlay::GuiResult r = overlay::run_gui(std::move(g));
    std::cout << fmt::format(
        "Duels Companion demo: a seeded match between sample figures, played step by step by the "
        "built-in opponent in the window. Seed {}\n(replay it with: duels demo --seed {}; the "
        "terminal edition: duels demo --terminal)\nMatch journal: {}\n",
        seed, seed, r.journal);
    return true;
  } catch (const overlay::GuiUnavailable& e) {
    std::cerr << "note: " << e.what() << "; playing the terminal demo instead.\n";
    return false;
  }
}

void add_gui(CLI::App& root) {
  gui_demo_hook() = &run_demo_gui;
  struct Opts {
    std::string match;
    std::vector<std::string> teams, figures, ai;
    std::string journal, scene, screenshot, ui_script, size = "1600x1000";
    std::string cards, cards_journal, calibrate, calibrate_out, source, calib, bases;
    std::optional<std::uint64_t> seed;
    int frames = 0;
    float scale = 0;
    bool auto_run = false, reset_layout = false, json = false, editor = false;
  };
  auto o = std::make_shared<Opts>();
  auto* c = root.add_subcommand(
      "gui",
      "The overlay window: table map, figures, turn tracker, combat wizard, log, dice, card "
      "games, calibration wizard");
  c->add_option("--match", o->match, "resume this match journal");
  c->add_option("--teams", o->teams, "new match: sample teams from assets/teams, comma-separated")
      ->delimiter(',');
  c->add_option("--figures", o->figures, "new match: one figure per team, FIGURE[+GEAR…]")
      ->delimiter(',');
  c->add_option("--journal", o->journal, "new match: journal file (default: the data folder)");
  c->add_option("--seed", o->seed, "new match: seed for its virtual rolls");
  c->add_option("--scene", o->scene,
                "table size and terrain (and, for a new match, where the figures stand) from a "
                "scene file, e.g. assets/scenes/demo_table.yaml");
  c->add_option("--ai", o->ai, "teams the built-in opponent plays (names or 1-based numbers)")
      ->delimiter(',');
  c->add_flag("--auto", o->auto_run, "the opponent acts by itself for its teams");
  c->add_option("--source", o->source,
                "the camera picture: cam:N, a video file, a folder of images, a stream URL, or "
                "synthetic:demo (the bundled synthetic scene, assets/scenes/demo.yaml)");
  c->add_option("--calib", o->calib,
                "the camera's calibration with its table registration (duels calibrate); not "
                "needed for synthetic scenes");
  c->add_option("--bases", o->bases, "which marker is which figure (a base map file)");
  c->add_option("--cards", o->cards,
                "open the card-game panel on this game's tab: encounters, crossfire or srtcg")
      ->check(CLI::IsMember({"encounters", "crossfire", "srtcg"}, CLI::ignore_case));
  c->add_option("--cards-journal", o->cards_journal,
                "the --cards game's session journal (resumed when it exists; default: a new one "
                "in the data folder)");
  c->add_option(
      "--calibrate", o->calibrate,
      "open the calibration wizard on a camera (cam:N), a video file, or synthetic[:SEED] "
      "(a simulated 9x6 chessboard, 25 mm squares)");
  c->add_option("--calibrate-out", o->calibrate_out,
                "where the wizard's \"Save calibration\" writes (default: camera.yml in the "
                "data folder)");
  c->add_flag("--editor", o->editor,
              "open the figure editor and team builder (they save into your data folder); "
              "no match is opened unless --teams, --figures, --match or --scene asks for one");
  c->add_option("--frames", o->frames, "close after N frames (tests, bug reports)")
      ->check(CLI::Range(1, 100000000));
  c->add_option("--screenshot", o->screenshot, "write the last frame as PNG");
  c->add_option("--ui-script", o->ui_script,
                "play scripted clicks and keys by widget label (docs/window.md); the window "
                "closes when the script is done");
  c->add_option("--size", o->size, "window size WIDTHxHEIGHT");
  c->add_option("--scale", o->scale, "interface scale (default: the monitor's)")
      ->check(CLI::Range(0.5, 4.0));
  c->add_flag("--reset-layout", o->reset_layout, "forget the saved window layout");
  c->add_flag("--json", o->json, "print the result as JSON");
  c->callback([o] {
    overlay::GuiOptions g;
    int w = 0;
    int h = 0;
    char x = 0;
    std::istringstream size(o->size);
    if (!(size >> w >> x >> h) || x != 'x' || w < 320 || h < 240 || w > 10000 || h > 10000)
      throw UsageError("--size: WIDTHxHEIGHT, e.g. 1600x1000 (at least 320x240)");
    g.width = w;
    g.height = h;
    const AssetLibrary lib = load_library();
    g.assets = overlay::AssetFolders{assets_dir(), user_data_dir()};
    g.open_editor = o->editor;
    // The card games, the calibration wizard and the editor need no match: none is opened (and
    // no journal written) unless one is asked for.
    const bool match_asked =
        !o->match.empty() || !o->teams.empty() || !o->figures.empty() || !o->scene.empty();
    const bool no_match = !match_asked && (!o->cards.empty() || !o->calibrate.empty() || o->editor);
    if (no_match && (!o->ai.empty() || o->auto_run || !o->journal.empty() || o->seed))
      throw UsageError(
          "--ai, --auto, --journal and --seed are about a match: add --teams or --figures");
    std::optional<Scene> scene;
    if (!o->scene.empty()) {
      scene = load_scene_file(o->scene,
                              [&lib](std::string_view name) { return lib.find_figure(name); });
      g.layout = overlay::layout_from_scene(*scene);
    }
    if (!o->match.empty()) {
      if (!o->teams.empty() || !o->figures.empty())
        throw UsageError("--match resumes a match: leave out --teams and --figures");
      g.match_path = o->match;
    } else if (!no_match) {
      if (!o->teams.empty() && !o->figures.empty())
        throw UsageError("give either --teams or --figures");
      MatchSetup setup =
          !o->figures.empty()
              ? setup_from_loadouts(lib, o->figures, "--figures")
              : setup_from_teams(lib, o->teams.empty()
                                          ? std::vector<std::string>{"Street Team", "Arcane Team"}
                                          : o->teams);
      if (scene) {
        overlay::apply_scene_positions(setup, *scene);
        setup.table = table_from_scene(*scene);  // its size and terrain, placed by name
      }
      g.new_match = std::move(setup);
      g.new_journal = o->journal;
      g.seed = o->seed;
    }
    // Which teams the opponent plays: names are checked once the match is known, below.
    g.session.auto_run = o->auto_run;
    g.session.export_report = export_report;
    if (!o->cards_journal.empty() && o->cards.empty())
      throw UsageError("--cards-journal needs --cards GAME");
    if (!o->cards.empty()) {
      std::string game = o->cards;
      for (auto& ch : game)
        ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
      g.cards.open_tab = game;
      if (!o->cards_journal.empty()) g.cards.journals[game] = o->cards_journal;
    }
    g.cards.crossfire_metatypes = assets_dir() + "/crossfire/metatypes.yaml";
    if (!fs::exists(g.cards.crossfire_metatypes)) g.cards.crossfire_metatypes.clear();
    if (!o->calibrate.empty()) {
      const std::string& src = o->calibrate;
      const bool synthetic = src == "synthetic" || src.rfind("synthetic:", 0) == 0;
      const bool camera = src.rfind("cam:", 0) == 0;
      if (synthetic && src.size() > 10 &&
          src.find_first_not_of("0123456789", 10) != std::string::npos)
        throw UsageError("--calibrate synthetic:SEED needs a number, e.g. synthetic:3");
      if (camera &&
          (src.size() == 4 || src.find_first_not_of("0123456789", 4) != std::string::npos))
        throw UsageError("--calibrate cam:N needs a camera number, e.g. cam:0");
      if (!synthetic && !camera && !fs::exists(src))
        throw DataException({src, 0, "", "a video file, cam:N or synthetic[:SEED]"});
      overlay::CalibrationFeedOptions feed;
      feed.source = src;
      feed.out_file = o->calibrate_out;
      g.calibration = feed;
    }
    if (!o->source.empty()) {
      if (!overlay::camera_supported())
        throw UsageError("--source: this build has no vision module (the camera picture)");
#if DUELS_OVERLAY_CAMERA
      overlay::CameraFeedOptions cam;
      cam.source = o->source;
      cam.calib_file = o->calib;
      cam.base_map = o->bases;
      cam.assets_dir = assets_dir();
      const bool synthetic = o->source.rfind("synthetic:", 0) == 0;
      if (synthetic) cam.stream_fps = kWebcamFps;
      if (!synthetic && o->calib.empty())
        throw UsageError("--source " + o->source + " needs --calib FILE (the table registration)");
      if (!synthetic && o->bases.empty())
        throw UsageError("--source " + o->source + " needs --bases FILE (marker → figure)");
      g.camera = cam;
#endif
    } else if (!o->calib.empty() || !o->bases.empty()) {
      throw UsageError("--calib and --bases go with --source");
    }
    g.frames = o->frames;
    g.screenshot = o->screenshot;
    g.ui_script = o->ui_script;
    g.scale = o->scale;
    g.reset_layout = o->reset_layout;
    std::vector<std::string> team_names;
    if (g.new_match) {
      for (const auto& t : g.new_match->teams)
        team_names.push_back(t.name);
    } else if (!o->match.empty()) {
      for (const auto& t : match::replay(match::read_journal(o->match)).setup.teams)
        team_names.push_back(t.name);
    }
    g.session.ai_teams.assign(team_names.size(), false);
    for (const auto& a : o->ai) {
      bool found = false;
      for (std::size_t t = 0; t < team_names.size(); ++t) {
        if (a == team_names[t] || a == std::to_string(t + 1)) {
          g.session.ai_teams[t] = true;
          found = true;
        }
      }
      if (!found) {
        throw UsageError(
            fmt::format("--ai: no team '{}' in this match (teams: 1..{})", a, team_names.size()));
      }
    }
    overlay::GuiResult r;
    try {
      r = overlay::run_gui(std::move(g));
    } catch (const overlay::GuiUnavailable& e) {
      throw Unavailable(std::string(e.what()) +
                        "; the same match can be played with `duels match resume`");
    }
    if (o->json) {
      nlohmann::json j{{"journal", r.journal},
                       {"frames", r.frames},
                       {"median_frame_ms", r.median_frame_ms()},
                       {"script_actions", r.script_actions},
                       {"script_finished", r.script_finished}};
      if (!o->screenshot.empty()) j["screenshot"] = o->screenshot;
      if (!r.script_error.empty()) j["script_error"] = r.script_error;
      for (const auto& [game, t] : r.card_tables)
        j["cards"][game] = {{"journal", t.first}, {"commands", t.second}};
      if (!r.vision.empty()) {
        for (const auto& v : r.vision)
          j["vision"].push_back({{"figure", v.figure},
                                 {"x", v.centre_in.x},
                                 {"y", v.centre_in.y},
                                 {"confidence", v.confidence}});
      }
      if (r.calibration) {
        const auto& st = r.calibration->status;
        j["calibration"] = {{"frames", r.calibration->frame},
                            {"views", st.views_accepted},
                            {"coverage", st.coverage.covered_fraction()},
                            {"done", st.done}};
        if (st.calibration) {
          const auto& k = st.calibration->intrinsics;
          j["calibration"]["rms_px"] = st.calibration->rms_px;
          j["calibration"]["fx"] = k.fx();
          j["calibration"]["fy"] = k.fy();
          j["calibration"]["cx"] = k.cx();
          j["calibration"]["cy"] = k.cy();
        }
      }
      std::cout << j.dump() << "\n";
    } else {
      std::cout << fmt::format("{}\n{} frames, median {:.2f} ms to build and draw a frame\n",
                               r.journal.empty()
                                   ? std::string("No match was played (no journal written)")
                                   : "Match journal: " + r.journal,
                               r.frames, r.median_frame_ms());
      if (!o->screenshot.empty()) std::cout << "Screenshot: " << o->screenshot << "\n";
    }
    if (!r.script_error.empty()) throw std::runtime_error(r.script_error);
    if (!o->ui_script.empty() && !r.script_finished) {
      throw std::runtime_error(
          fmt::format("the window closed after {} actions of the UI script (--frames too small?)",
                      r.script_actions));
    }
  });
}

DUELS_COMMAND(60, add_gui);

}  // namespace
}  // namespace duels::app
