// The window: GLFW + OpenGL 3.3 core + Dear ImGui, the frame loop (Dear ImGui's
// example_glfw_opengl3 shape), fonts and DPI scale, the layout file, keyboard shortcuts, UI
// scripts and screenshots.
#include "overlay/gui.hpp"

#include <GL/gl.h>
#include <GLFW/glfw3.h>
#include <fmt/format.h>
#include <imgui.h>
#include <imgui_impl_glfw.h>
#include <imgui_impl_opengl3.h>

#if defined(__SANITIZE_ADDRESS__)
#include <dlfcn.h>
#include <link.h>
#endif

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <opencv2/core.hpp>
#include <opencv2/imgcodecs.hpp>

#include "common/atomic_file.hpp"
#include "dice/roller.hpp"
#include "overlay/panels/panels.hpp"
#include "overlay/script_driver.hpp"

namespace duels::overlay {

namespace {

namespace fs = std::filesystem;

// The glyphs the overlay uses beyond Latin-1: Greek (σ), dashes, bullet, ellipsis, arrows, ≥, ▶, ●,
// ✓ and ✗.
constexpr ImWchar kGlyphRanges[] = {0x0020, 0x00FF, 0x0391, 0x03C9, 0x2010, 0x2027, 0x2190,
                                    0x2193, 0x2212, 0x2212, 0x2260, 0x2265, 0x25B6, 0x25B6,
                                    0x25CF, 0x25CF, 0x2713, 0x2717, 0};

// Debian's fonts-dejavu-core, loaded at run time (not copied into the repository).
constexpr const char* kFontDirs[] = {"/usr/share/fonts/truetype/dejavu",
                                     "/usr/local/share/fonts/truetype/dejavu"};

std::string find_font(const char* file) {
  if (const char* dir = std::getenv("DUELS_FONT_DIR")) {
    if (fs::exists(fs::path(dir) / file)) return (fs::path(dir) / file).string();
  }
  for (const char* dir : kFontDirs) {
    if (fs::exists(fs::path(dir) / file)) return (fs::path(dir) / file).string();
  }
  return {};
}

std::string new_journal_path(const GuiOptions& o, std::uint64_t seed) {
  if (!o.new_journal.empty()) return o.new_journal;
  const fs::path dir = fs::path(match::data_dir()) / "matches";
  fs::create_directories(dir);
  std::string stamp = match::utc_now();
  std::erase(stamp, ':');
  std::erase(stamp, '-');
  for (int k = 0;; ++k) {
    const fs::path p = dir / fmt::format("{}-{}-{}{}.jsonl", o.journal_prefix, stamp, seed % 100000,
                                         k == 0 ? "" : fmt::format("-{}", k));
    if (!fs::exists(p)) return p.string();
  }
}

void save_screenshot(const std::string& path, int width, int height) {
  std::vector<std::uint8_t> rgb(static_cast<std::size_t>(width) * static_cast<std::size_t>(height) *
                                3);
  glPixelStorei(GL_PACK_ALIGNMENT, 1);
  glReadBuffer(GL_BACK);
  glReadPixels(0, 0, width, height, GL_RGB, GL_UNSIGNED_BYTE, rgb.data());
  cv::Mat bgr(height, width, CV_8UC3);
  for (int y = 0; y < height; ++y) {
    const std::uint8_t* src =
        rgb.data() + static_cast<std::size_t>(height - 1 - y) * static_cast<std::size_t>(width) * 3;
    auto* dst = bgr.ptr<std::uint8_t>(y);
    for (int x = 0; x < width; ++x) {
      dst[x * 3 + 0] = src[x * 3 + 2];
      dst[x * 3 + 1] = src[x * 3 + 1];
      dst[x * 3 + 2] = src[x * 3 + 0];
    }
  }
  if (fs::path(path).has_parent_path()) fs::create_directories(fs::path(path).parent_path());
  std::vector<uchar> png;
  if (!cv::imencode(".png", bgr, png, {cv::IMWRITE_PNG_COMPRESSION, 9})) {
    throw DataException({path, 0, "", "a picture OpenCV can encode as PNG"});
  }
  write_file_atomically(path,
                        std::string_view(reinterpret_cast<const char*>(png.data()), png.size()));
}

// Keyboard shortcuts for everything frequent. Not while a text field has the keyboard.
void shortcuts(Session& s) {
  const ImGuiIO& io = ImGui::GetIO();
  if (io.WantTextInput) return;
  const GameState st = s.state();  // a copy: each action below may replace the match state
  if (io.KeyCtrl) {
    if (ImGui::IsKeyPressed(GLFW_KEY_Z, false)) {
      if (io.KeyShift) {
        s.redo();
      } else {
        s.undo();
      }
    } else if (ImGui::IsKeyPressed(GLFW_KEY_Y, false)) {
      s.redo();
    }
    return;
  }
  const bool roll_stage = st.attack && st.attack->stage == AttackStage::Roll;
  if (ImGui::IsKeyPressed(GLFW_KEY_SPACE, false)) {
    if (roll_stage && !s.wizard.rolling) {
      s.start_virtual_roll();
    } else if (roll_stage && s.wizard.rolling->settled) {
      s.apply_settled_roll();
    } else if (!roll_stage) {
      s.roll_pool();
    }
    return;
  }
  if (st.attack && st.attack->stage == AttackStage::Damage) {
    constexpr std::array<std::pair<int, DialKind>, 3> kDialKeys = {
        std::pair{GLFW_KEY_1, DialKind::Head}, std::pair{GLFW_KEY_2, DialKind::Weapon},
        std::pair{GLFW_KEY_3, DialKind::Body}};
    for (const auto& [key, dial] : kDialKeys) {
      if (ImGui::IsKeyPressed(key, false) ||
          ImGui::IsKeyPressed(GLFW_KEY_KP_0 + (key - GLFW_KEY_0), false)) {
        s.assign_damage(dial);
        return;
      }
    }
  }
  if (ImGui::IsKeyPressed(GLFW_KEY_ENTER, false) || ImGui::IsKeyPressed(GLFW_KEY_KP_ENTER, false)) {
    if (st.attack && st.attack->stage == AttackStage::Dodge) {
      s.choose_dodge(s.wizard.dodge_pick.empty());
    } else if (!st.attack && !s.wizard.attack_pick.empty()) {
      s.declare_attack();
    }
    return;
  }
  if (ImGui::IsKeyPressed(GLFW_KEY_ESCAPE, false)) {
    if (s.move.active) {
      s.cancel_move();
    } else if (s.target_locked) {
      s.target_locked = false;
      s.target.reset();
    } else {
      s.selected.reset();
    }
  }
  if (ImGui::IsKeyPressed(GLFW_KEY_M, false) && s.selected) s.begin_move(*s.selected);
}

constexpr const char* kShortcutHelp =
    "space      roll (the attack's dice when the roll is due, else the dice roller's pool)\n"
    "enter      attack with the picked dice / dodge with the picked dice (none: no dodge)\n"
    "1 2 3      put the damage on Head, Weapon, Body\n"
    "m          move the selected figure\n"
    "escape     cancel the move, drop the target, drop the selection\n"
    "ctrl+Z     undo (journaled)      ctrl+Y, ctrl+shift+Z   redo\n"
    "mouse      click a base to select it, an enemy base to target it; drag a base to\n"
    "           put it where it really stands (a manual override, journaled)";

#if defined(__SANITIZE_ADDRESS__)
// Sanitizer builds only: the GL driver (Mesa's swrast_dri) and its helpers are unloaded when
// GLFW shuts down, so LeakSanitizer, which looks at exit, sees their allocations from
// "<unknown module>" and cannot match them to the system-library suppressions in
// .ci/lsan.supp. Every library loaded so far is kept mapped until exit.
void keep_libraries_loaded_for_leak_reports() {
  dl_iterate_phdr(
      [](dl_phdr_info* info, std::size_t, void*) -> int {
        if (info->dlpi_name != nullptr && info->dlpi_name[0] != '\0') {
          // A second reference that is never closed: the library stays to the end.
          (void)dlopen(info->dlpi_name, RTLD_LAZY | RTLD_NOLOAD | RTLD_NODELETE);
        }
        return 0;
      },
      nullptr);
}
#endif

struct GlfwSession {
  GLFWwindow* window = nullptr;
  ~GlfwSession() {
#if defined(__SANITIZE_ADDRESS__)
    keep_libraries_loaded_for_leak_reports();
#endif
    if (window != nullptr) glfwDestroyWindow(window);
    glfwTerminate();
  }
};

}  // namespace

double GuiResult::median_frame_ms() const {
  if (frame_ms.empty()) return 0;
  std::vector<double> v = frame_ms;
  std::nth_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(v.size() / 2), v.end());
  return v[v.size() / 2];
}

bool camera_supported() {
  return DUELS_OVERLAY_CAMERA != 0;
}

bool display_advertised() {
  const char* x = std::getenv("DISPLAY");
  const char* w = std::getenv("WAYLAND_DISPLAY");
  return (x != nullptr && *x != '\0') || (w != nullptr && *w != '\0');
}

std::string layout_file() {
  fs::path base;
  if (const char* xdg = std::getenv("XDG_CONFIG_HOME"); xdg != nullptr && *xdg == '/') {
    base = xdg;
  } else if (const char* home = std::getenv("HOME"); home != nullptr && *home != '\0') {
    base = fs::path(home) / ".config";
  } else {
    base = fs::temp_directory_path();
  }
  return (base / "duels-companion" / "imgui.ini").string();
}

GuiResult run_gui(GuiOptions o) {
  // The match and the script first: their mistakes are reported without a window. A new
  // match's journal is created only once the window is open (no stray journal without one).
  std::optional<match::DuelsMatch> match;
  if (!o.match_path.empty()) {
    match.emplace(match::DuelsMatch::resume(o.match_path));
  } else if (o.new_match) {
    if (auto g = new_game(*o.new_match); !g) throw std::invalid_argument(g.error().reason);
  }
  // Without a match (only the card games, calibration or the editor were asked for) there is
  // no journal until the team builder starts one.
  std::optional<ScriptDriver> script;
  if (!o.ui_script.empty()) script.emplace(load_ui_script(o.ui_script), o.script_timeout_s);
  GuiResult result;

  glfwSetErrorCallback(nullptr);
  if (glfwInit() == GLFW_FALSE) {
    throw GuiUnavailable("no display: GLFW could not start (is DISPLAY or WAYLAND_DISPLAY set?)");
  }
  GlfwSession glfw;
  glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 3);
  glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 3);
  glfwWindowHint(GLFW_OPENGL_PROFILE, GLFW_OPENGL_CORE_PROFILE);
  glfwWindowHint(GLFW_OPENGL_FORWARD_COMPAT, GLFW_TRUE);
  glfwWindowHint(GLFW_SCALE_TO_MONITOR, GLFW_TRUE);
  glfw.window = glfwCreateWindow(o.width, o.height, o.title.c_str(), nullptr, nullptr);
  if (glfw.window == nullptr) {
    throw GuiUnavailable("no window: OpenGL 3.3 core could not be created on this display");
  }
  glfwMakeContextCurrent(glfw.window);
  if (!match && o.new_match) {
    const std::uint64_t seed = o.seed.value_or(dice::fresh_seed());
    match.emplace(match::DuelsMatch::create(new_journal_path(o, seed), *o.new_match, seed));
  }
  if (const GLubyte* r = glGetString(GL_RENDERER); r != nullptr)
    result.renderer = reinterpret_cast<const char*>(r);
  const bool unattended = o.frames > 0 || script.has_value();
  glfwSwapInterval(unattended ? 0 : 1);

  IMGUI_CHECKVERSION();
  ImGui::CreateContext();
  ImGuiIO& io = ImGui::GetIO();
  const std::string ini = layout_file();
  std::error_code ec;
  fs::create_directories(fs::path(ini).parent_path(), ec);
  if (o.reset_layout) fs::remove(ini, ec);
  io.IniFilename = ini.c_str();

  float scale = o.scale;
  if (scale <= 0) {
    float sx = 1;
    float sy = 1;
    glfwGetWindowContentScale(glfw.window, &sx, &sy);
    scale = std::clamp(sx, 1.0f, 3.0f);
  }
  ImGui::StyleColorsDark();
  ImGuiStyle& style = ImGui::GetStyle();
  style.WindowRounding = 4;
  // Opaque panels: a panel on top of another must not show the one below through it.
  style.Colors[ImGuiCol_WindowBg].w = 1.0f;
  style.FrameRounding = 3;
  style.ScaleAllSizes(scale);
  ImFont* big_font = nullptr;
  if (const std::string regular = find_font("DejaVuSans.ttf"); !regular.empty()) {
    io.Fonts->AddFontFromFileTTF(regular.c_str(), 16 * scale, nullptr, kGlyphRanges);
    const std::string bold = find_font("DejaVuSans-Bold.ttf");
    big_font = io.Fonts->AddFontFromFileTTF(bold.empty() ? regular.c_str() : bold.c_str(),
                                            24 * scale, nullptr, kGlyphRanges);
  } else {
    ImFontConfig cfg;
    cfg.SizePixels = 13 * scale;
    io.Fonts->AddFontDefault(&cfg);
  }
  ImGui_ImplGlfw_InitForOpenGL(glfw.window, true);
  ImGui_ImplOpenGL3_Init("#version 330 core");

  std::vector<std::unique_ptr<Panel>> panels;
  {
    // The match on the table, when there is one (else it starts from the team builder).
    std::unique_ptr<Session> session;
    const auto open_session = [&](match::DuelsMatch m) {
      result.journal = m.path();
      SessionOptions so = o.session;
      if (so.ui_seed == 0) so.ui_seed = m.seed() ^ (m.history().last_seq * 7919 + 1);
      if (so.ai_teams.size() < m.state().teams.size()) so.ai_teams.resize(m.state().teams.size());
      session = std::make_unique<Session>(std::move(m), o.layout, so);
    };
    if (match) open_session(std::move(*match));
    std::optional<MatchSetup> start_request;
    StatusLine idle_status;
#if DUELS_OVERLAY_CAMERA
    std::unique_ptr<CameraFeed> camera;
    if (o.camera) camera = std::make_unique<CameraFeed>(*o.camera);
    std::int64_t camera_frame = -1;
    const Session* spots_session = nullptr;  // the match whose spots the camera was told last,
    std::uint64_t spots_version = 0;         // at this version
#endif
    panels.push_back(std::make_unique<TableMapPanel>());
    panels.push_back(std::make_unique<TurnTrackerPanel>());
    panels.push_back(std::make_unique<CombatWizardPanel>());
    panels.push_back(std::make_unique<FiguresPanel>());
    panels.push_back(std::make_unique<LogPanel>());
    panels.push_back(std::make_unique<DiceRollerPanel>());
    auto cards_owner = std::make_unique<CardGamesPanel>(o.cards);
    CardGamesPanel* cards_panel = cards_owner.get();
    panels.push_back(std::move(cards_owner));
    auto calib_owner = std::make_unique<CalibrationPanel>(
        o.calibration.value_or(CalibrationFeedOptions{}), o.calibration.has_value());
    CalibrationPanel* calib_panel = calib_owner.get();
    panels.push_back(std::move(calib_owner));
    // Panels that need a match on the table (the first six, and the camera's).
    const auto needs_match = [](const Panel& p) {
      return !dynamic_cast<const CardGamesPanel*>(&p) &&
             !dynamic_cast<const CalibrationPanel*>(&p) &&
             !dynamic_cast<const FigureEditorPanel*>(&p) &&
             !dynamic_cast<const TeamBuilderPanel*>(&p);
    };
    std::unique_ptr<EditorLibrary> editor_library;
    if (o.assets) {
      editor_library = std::make_unique<EditorLibrary>(*o.assets);
      auto editor = std::make_unique<FigureEditorPanel>(*editor_library);
      auto builder = std::make_unique<TeamBuilderPanel>(*editor_library);
      editor->visible = builder->visible = o.open_editor;
      panels.push_back(std::move(editor));
      panels.push_back(std::move(builder));
    }
    if (!session) {
      // No match: the card games (or the calibration wizard, or the editor) fill the window.
      for (auto& p : panels) {
        if (dynamic_cast<CardGamesPanel*>(p.get()) && !o.open_editor && !o.calibration)
          p->place({0, 0, 1, 1});
        if (dynamic_cast<CalibrationPanel*>(p.get())) p->place({0, 0, 1, 1});
      }
    }
#if DUELS_OVERLAY_CAMERA
    CameraPanel* camera_panel = nullptr;
    if (camera) {
      // The camera takes the table's place; the map moves to the right, the figures below it.
      panels[0]->place({0.70f, 0, 0.30f, 0.64f});
      panels[3]->place({0.70f, 0.64f, 0.30f, 0.36f});
      panels[5]->visible = false;
      static_cast<TableMapPanel*>(panels[0].get())->set_camera(camera.get());
      auto owner = std::make_unique<CameraPanel>(camera.get());
      camera_panel = owner.get();
      panels.insert(panels.begin(), std::move(owner));
    }
#endif
    WidgetRegistry widgets;
    UiContext ctx{session.get(), widgets, scale, big_font};
    ctx.idle_status = &idle_status;
    ctx.start_match = [&start_request](const MatchSetup& setup) { start_request = setup; };
    int frames_after_script = 0;
    bool show_help = false;

    while (glfwWindowShouldClose(glfw.window) == GLFW_FALSE) {
      glfwPollEvents();
      const auto t0 = std::chrono::steady_clock::now();
      ImGui_ImplOpenGL3_NewFrame();
      ImGui_ImplGlfw_NewFrame();
      widgets.begin_frame();
      if (script) script->feed(io, widgets, glfwGetTime());
      ImGui::NewFrame();
      if (start_request && !session) {
        // The team builder's Start match: the journal is made now, not before.
        const std::uint64_t seed = o.seed.value_or(dice::fresh_seed());
        try {
          open_session(match::DuelsMatch::create(new_journal_path(o, seed), *start_request, seed));
          ctx.session = session.get();
          session->set_status("Match started: " + fs::path(result.journal).filename().string(),
                              false);
          for (auto& p : panels) {
            if (dynamic_cast<FigureEditorPanel*>(p.get()) ||
                dynamic_cast<TeamBuilderPanel*>(p.get()))
              p->visible = false;
          }
        } catch (const std::exception& e) {
          idle_status = {e.what(), true};
        }
      }
      start_request.reset();
      if (session) session->tick(glfwGetTime());
#if DUELS_OVERLAY_CAMERA
      if (camera) {
        // The newest vision snapshot, if any: positions go to the session (never waited for).
        const auto snap = camera->snapshot();
        // Where the match has its figures: the camera's memory (a ring there keeps its name
        // under the dice), told again whenever the live match changes.
        if (session && session->live() &&
            (session.get() != spots_session || session->version() != spots_version)) {
          spots_session = session.get();
          spots_version = session->version();
          camera->set_match_spots(match_spots(session->state(), session->overrides()));
        }
        if (snap->frame != camera_frame && snap->connected) {
          if (camera_frame < 0) result.camera_live_from_frame = result.frames;
          camera_frame = snap->frame;
          result.vision = vision_positions(snap->table);
          if (session) session->set_vision(result.vision, unnamed_discs(snap->table));
        }
      }
#endif
      if (session) shortcuts(*session);

      float menu_h = 0;
      if (!o.bare && ImGui::BeginMainMenuBar()) {
        menu_h = ImGui::GetWindowSize().y;
        if (ImGui::BeginMenu("Match")) {
          if (ImGui::MenuItem("Undo", "ctrl+Z", false, session && session->live())) session->undo();
          if (ImGui::MenuItem("Redo", "ctrl+Y", false, session != nullptr)) session->redo();
          if (ImGui::MenuItem("Export report", nullptr, false, session != nullptr))
            session->export_report();
          ImGui::Separator();
          if (ImGui::MenuItem("Quit")) glfwSetWindowShouldClose(glfw.window, GLFW_TRUE);
          ImGui::EndMenu();
        }
        if (ImGui::BeginMenu("View")) {
          for (auto& p : panels) {
            if (session || !needs_match(*p))
              ImGui::MenuItem(p->title().c_str(), nullptr, &p->visible);
          }
          ImGui::EndMenu();
        }
        if (ImGui::BeginMenu("Help")) {
          if (ImGui::MenuItem("Keyboard and mouse")) show_help = true;
          ImGui::EndMenu();
        }
        ImGui::Separator();
        ImGui::TextDisabled("%s",
                            session ? fs::path(session->journal_path()).filename().string().c_str()
                                    : "no match open");
        ImGui::Separator();
        const StatusLine& st = session ? session->status() : idle_status;
        if (!st.text.empty()) {
          ImGui::PushStyleColor(ImGuiCol_Text,
                                (st.error ? colours::kWarning : colours::kText).packed());
          ImGui::TextUnformatted(st.text.c_str());
          ImGui::PopStyleColor();
        }
        ImGui::EndMainMenuBar();
      }
      const ImVec2 display = io.DisplaySize;
      {
        std::vector<Panel*> all;
        for (auto& p : panels) {
          if (session || !needs_match(*p)) all.push_back(p.get());
        }
        decide_panel_backgrounds(all);
      }
      for (auto& p : panels) {
        if (!o.bare && (session || !needs_match(*p)))
          p->draw(ctx, 0, menu_h, display.x, display.y - menu_h);
      }
      if (show_help) {
        ImGui::OpenPopup("Keyboard and mouse");
        show_help = false;
      }
      if (ImGui::BeginPopupModal("Keyboard and mouse", nullptr,
                                 ImGuiWindowFlags_AlwaysAutoResize)) {
        ImGui::TextUnformatted(kShortcutHelp);
        if (ImGui::Button("Close")) ImGui::CloseCurrentPopup();
        ImGui::EndPopup();
      }

      ImGui::Render();
      int fb_w = 0;
      int fb_h = 0;
      glfwGetFramebufferSize(glfw.window, &fb_w, &fb_h);
      glViewport(0, 0, fb_w, fb_h);
      // The panels' own background colour: a panel overlapping no other leaves its background
      // to this clear (see decide_panel_backgrounds).
      const ImVec4 bg = ImGui::GetStyle().Colors[ImGuiCol_WindowBg];
      glClearColor(bg.x, bg.y, bg.z, 1.0f);
      glClear(GL_COLOR_BUFFER_BIT);
      const ImDrawData* draw = ImGui::GetDrawData();
      result.last_vertices = draw->TotalVtxCount;
      result.last_draw_calls = 0;
      for (int i = 0; i < draw->CmdListsCount; ++i)
        result.last_draw_calls += draw->CmdLists[i]->CmdBuffer.Size;
      ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
      if (o.finish_each_frame) glFinish();
      result.frame_ms.push_back(
          std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
      ++result.frames;

      if (script) {
        if (auto shot = script->take_screenshot_request()) save_screenshot(*shot, fb_w, fb_h);
        if (script->done()) ++frames_after_script;
      }
      const bool last = (o.frames > 0 && result.frames >= o.frames) || frames_after_script >= 2;
      if (last) {
        if (!o.screenshot.empty()) save_screenshot(o.screenshot, fb_w, fb_h);
        glfwSetWindowShouldClose(glfw.window, GLFW_TRUE);
      }
      glfwSwapBuffers(glfw.window);
    }
    if (script) {
      result.script_error = script->error();
      result.script_actions = script->actions_done();
      result.script_finished = script->done() && !script->failed();
    }
    // One more begin_frame moves the last frame's widgets to "on screen".
    widgets.begin_frame();
    result.map = widgets.map;
    result.widgets = widgets.on_screen();
    result.calibration = calib_panel->snapshot();
#if DUELS_OVERLAY_CAMERA
    if (camera) {
      result.camera = camera->snapshot();
      result.camera_view = camera_panel->last_view();
      camera->stop();
    }
#endif
    for (const std::string& game : card_games()) {
      if (const CardTable* t = cards_panel->table(game))
        result.card_tables[game] = {t->journal(), t->commands()};
    }
    for (auto& p : panels) {
      result.windows[p->title()] = p->last_rect();
      p->release_graphics();
    }
  }
  ImGui_ImplOpenGL3_Shutdown();
  ImGui_ImplGlfw_Shutdown();
  ImGui::DestroyContext();
  return result;
}

}  // namespace duels::overlay
