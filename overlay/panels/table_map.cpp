// The top-down map of the table: everything in table inches, drawn with Dear ImGui's draw list;
// the reachable region is a texture (one texel per raster cell).
#include <GL/gl.h>
#include <fmt/format.h>
#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <numbers>

#include "dice/notation.hpp"
#include "duels/geometry_raster.hpp"
#include "overlay/panels/panels.hpp"
#include "overlay/session.hpp"

namespace duels::overlay {

namespace {

ImU32 col(Rgba c) {
  return c.packed();
}

const FigureState& fig(const GameState& s, FigureId f) {
  return s.figures[static_cast<std::size_t>(f)];
}

void dashed_line(ImDrawList* dl, ImVec2 a, ImVec2 b, Rgba colour, float thickness, float dash) {
  ui::dashed_line(dl, {a.x, a.y}, {b.x, b.y}, colour, thickness, dash);
}

std::string colour_list(const std::vector<dice::Colour>& colours) {
  std::string s;
  for (auto c : colours)
    s += (s.empty() ? "" : ", ") + std::string(dice::colour_name(c));
  return s.empty() ? "none" : s;
}

}  // namespace

TableMapPanel::TableMapPanel() : Panel("Table", {0, 0, 0.42f, 0.64f}) {}

void TableMapPanel::release_graphics() {
  if (reach_texture_ != 0) {
    const GLuint t = reach_texture_;
    glDeleteTextures(1, &t);
    reach_texture_ = 0;
  }
}

void TableMapPanel::draw_content(UiContext& ctx) {
  Session& s = *ctx.session;
  const GameState st = s.state();    // a copy: an action below may replace the match state
  const TableView view = s.table();  // a copy, like the state
  const ImGuiIO& io = ImGui::GetIO();

  // What a click does now.
  std::optional<FigureId> placing;
  if (st.phase == Phase::PlaceFigures && s.live()) {
    for (FigureId f = 0; f < static_cast<FigureId>(st.figures.size()); ++f) {
      if (fig(st, f).team == st.placing && !fig(st, f).position) {
        placing = f;
        break;
      }
    }
  }
  if (placing) {
    ui::text_coloured(okabe_ito::kOrange,
                      fmt::format("Click the table to place {} ({} of {} from opposing bases).",
                                  fig(st, *placing).def.name, "at least",
                                  fmt::format("{:.0f}\"", st.options.placement_distance_in)));
  } else if (s.move.active) {
    ui::text_coloured(colours::kReach,
                      fmt::format("Moving {}: up to {}\". Click a spot in the shaded area "
                                  "(right-click to cancel).",
                                  fig(st, s.move.figure).def.name, s.move_allowance_in()));
  } else {
    ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
    ui::text_wrapped(
        "Click a base to select it, an enemy base to target it; drag a base to put it where it "
        "really stands.");
    ImGui::PopStyleColor();
  }

  const float line = ImGui::GetTextLineHeightWithSpacing();
  ImVec2 avail = ImGui::GetContentRegionAvail();
  // Below the map: the words, and a card per move the camera saw (a fixed height, so the map
  // stays put while an end point is dragged and the verdict changes). With the camera on, room
  // for two cards is kept even before any move, so the map does not jump under the hand when
  // one appears.
  const float card_h = 4.5f * line;
  const std::size_t cards =
      std::max(s.proposals().size(),
               s.vision_active() ? std::min<std::size_t>(2, view.bases.size()) : std::size_t{0});
  avail.y -= 3 * line + card_h * static_cast<float>(cards);
  if (avail.x < 60 || avail.y < 60) return;
  const ImVec2 p = ImGui::GetCursorScreenPos();
  ImGui::InvisibleButton("##map", avail,
                         ImGuiButtonFlags_MouseButtonLeft | ImGuiButtonFlags_MouseButtonRight);
  const bool hovered = ImGui::IsItemHovered();
  const float margin = 20 * ctx.scale;
  const MapTransform t =
      fit_map(view.table, p.x + margin, p.y + margin, avail.x - 2 * margin, avail.y - 2 * margin);
  ctx.widgets.next_map = t;
  const float ppi = t.px_per_in;
  auto S = [&](Vec2 v) {
    const auto a = t.to_screen(v);
    return ImVec2{a[0], a[1]};
  };
  const ImVec2 mouse = io.MousePos;
  const Vec2 mouse_in = t.to_table(mouse.x, mouse.y);
  const BaseView* under = hovered ? view.base_at(mouse_in) : nullptr;
  s.hovered = under != nullptr ? std::optional<FigureId>(under->figure) : std::nullopt;

  // The target to measure to: a hovered enemy of the selected figure, else the wizard's target.
  std::optional<FigureId> shown_target;
  if (s.selected && !st.attack) {
    if (under != nullptr && under->figure != *s.selected &&
        fig(st, under->figure).team != fig(st, *s.selected).team) {
      shown_target = under->figure;
      if (st.phase == Phase::Turns) s.set_target(under->figure, false);
    } else if (s.target && fig(st, *s.target).team != fig(st, *s.selected).team) {
      shown_target = s.target;
    }
  }
  if (st.attack) shown_target = st.attack->target;
  const std::optional<FigureId> shown_attacker = st.attack ? st.attack->attacker : s.selected;

  ImDrawList* dl = ImGui::GetWindowDrawList();
  dl->PushClipRect(p, {p.x + avail.x, p.y + avail.y}, true);
  // Labels are drawn last, kept from covering each other (names first).
  LabelPlacer labels;
  auto text = [&](ImVec2 at, Rgba colour, std::string words, int priority, float fit_px = 0) {
    labels.add(at.x, at.y, colour, std::move(words), priority, fit_px);
  };
  const double W = view.table.width_in;
  const double D = view.table.depth_in;
  dl->AddRectFilled(S({0, D}), S({W, 0}), col(colours::kTable));
  for (double x = 6; x < W; x += 6)
    dl->AddLine(S({x, 0}), S({x, D}), col(colours::kGrid));
  for (double y = 6; y < D; y += 6)
    dl->AddLine(S({0, y}), S({W, y}), col(colours::kGrid));
  for (double x = 0; x <= W + 1e-9; x += 12) {
    const ImVec2 a = S({x, 0});
    const std::string n = fmt::format("{:.0f}", x);
    const ImVec2 sz = ImGui::CalcTextSize(n.c_str());
    dl->AddText({a.x - 6, a.y + 2}, col(colours::kTextDim), n.c_str());
    labels.reserve(a.x - 6, a.y + 2, a.x - 6 + sz.x, a.y + 2 + sz.y);
  }
  for (double y = 12; y <= D + 1e-9; y += 12) {
    const ImVec2 a = S({0, y});
    const std::string n = fmt::format("{:.0f}", y);
    const ImVec2 sz = ImGui::CalcTextSize(n.c_str());
    dl->AddText({a.x - 18 * ctx.scale, a.y - 7}, col(colours::kTextDim), n.c_str());
    labels.reserve(a.x - 18 * ctx.scale, a.y - 7, a.x - 18 * ctx.scale + sz.x, a.y - 7 + sz.y);
  }
  dl->AddRect(S({0, D}), S({W, 0}), col({150, 150, 140}), 0, 0, 2);

  // The reachable region while moving.
  if (s.move.active) {
    if (const ReachResult* r = s.reach(); r != nullptr && r->cols > 0 && r->rows > 0) {
      if (reach_texture_ == 0 || reach_version_ != s.version() ||
          reach_allowance_ != s.move_allowance_in()) {
        std::vector<std::uint8_t> rgba(static_cast<std::size_t>(r->cols * r->rows) * 4, 0);
        for (std::size_t i = 0; i < r->mask.size(); ++i) {
          if (r->mask[i] == 0) continue;
          rgba[i * 4 + 0] = colours::kReach.r;
          rgba[i * 4 + 1] = colours::kReach.g;
          rgba[i * 4 + 2] = colours::kReach.b;
          rgba[i * 4 + 3] = 105;
        }
        if (reach_texture_ == 0) {
          GLuint tex = 0;
          glGenTextures(1, &tex);
          reach_texture_ = tex;
        }
        glBindTexture(GL_TEXTURE_2D, reach_texture_);
        glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_LINEAR);
        glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
        glPixelStorei(GL_UNPACK_ALIGNMENT, 1);
        glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA, r->cols, r->rows, 0, GL_RGBA, GL_UNSIGNED_BYTE,
                     rgba.data());
        reach_version_ = s.version();
        reach_allowance_ = s.move_allowance_in();
      }
      const double x0 = r->first_col * r->cell_in;
      const double y0 = r->first_row * r->cell_in;
      const double x1 = (r->first_col + r->cols) * r->cell_in;
      const double y1 = (r->first_row + r->rows) * r->cell_in;
      dl->AddImage(reinterpret_cast<ImTextureID>(static_cast<std::intptr_t>(reach_texture_)),
                   S({x0, y1}), S({x1, y0}), {0, 1}, {1, 0});
    }
  }

  // Terrain: pieces down block; pieces not placed yet are outlines.
  auto draw_shape = [&](const Shape& shape, ImU32 fill, ImU32 outline, float thickness) {
    if (shape.kind == Shape::Kind::Circle) {
      if (fill != 0)
        dl->AddCircleFilled(S(shape.circle.centre),
                            static_cast<float>(shape.circle.radius_in) * ppi, fill);
      dl->AddCircle(S(shape.circle.centre), static_cast<float>(shape.circle.radius_in) * ppi,
                    outline, 48, thickness);
      return;
    }
    if (fill != 0) {
      for (const auto& tri : triangulate(shape.polygon))
        dl->AddTriangleFilled(S(tri[0]), S(tri[1]), S(tri[2]), fill);
    }
    std::vector<ImVec2> pts;
    for (const auto& v : shape.polygon)
      pts.push_back(S(v));
    dl->AddPolyline(pts.data(), static_cast<int>(pts.size()), outline, ImDrawFlags_Closed,
                    thickness);
  };
  auto shape_centre = [](const Shape& shape) {
    if (shape.kind == Shape::Kind::Circle) return shape.circle.centre;
    Vec2 c;
    for (const auto& v : shape.polygon)
      c = c + v;
    return c / static_cast<double>(std::max<std::size_t>(1, shape.polygon.size()));
  };
  for (const auto& piece : view.unplaced) {
    draw_shape(piece.shape, col(colours::kTerrainUnplaced), col({150, 150, 140, 140}), 1);
    text(S(shape_centre(piece.shape)), colours::kTextDim, piece.id + " (not placed)", 3);
  }
  for (const auto& piece : view.terrain) {
    draw_shape(piece.shape, col(colours::kTerrain), col({190, 185, 175}), 1.5f);
    text(S(shape_centre(piece.shape)), colours::kText, piece.id, 2);
  }

  // The selected figure's tape: a ring per track at the farthest edge-to-edge reach.
  if (shown_attacker) {
    if (const BaseView* b = view.base_of(*shown_attacker)) {
      const auto rings = tape_range_rings(b->disc, fig(st, *shown_attacker).def.tape.tracks);
      int k = 0;
      for (const auto& ring : rings) {
        const Rgba c = die_face_colour(ring.colour);
        const Rgba ring_colour = ring.colour == dice::Colour::Black ? Rgba{150, 150, 150} : c;
        dl->AddCircle(S(b->disc.centre), static_cast<float>(ring.radius_in) * ppi,
                      col(ring_colour.with_alpha(210)), 96, 2);
        const double angle = std::numbers::pi / 2 - 0.35 * k++;
        const Vec2 at = b->disc.centre + Vec2{std::cos(angle), std::sin(angle)} * ring.radius_in;
        text(S(at), colours::kText,
             fmt::format("{} {:.0f}\"", dice::colour_name(ring.colour),
                         ring.radius_in - b->disc.radius_in),
             2);
      }
    }
  }

  // The measurement to the target.
  std::optional<AttackMeasure> measured;
  if (shown_attacker && shown_target) {
    measured = s.measure(*shown_attacker, *shown_target);
    if (!measured->valid) measured.reset();
  }
  const AttackMeasure* m = measured ? &*measured : nullptr;
  if (m != nullptr) {
    if (m->lof.clear) {
      const ImVec2 a = S(m->lof.witness.a);
      const ImVec2 b = S(m->lof.witness.b);
      dl->AddLine(a, b, col(colours::kLineClear), 4 * ctx.scale);
      dl->AddCircleFilled(a, 4 * ctx.scale, col(colours::kLineClear));
      dl->AddCircleFilled(b, 4 * ctx.scale, col(colours::kLineClear));
      text({(a.x + b.x) / 2, (a.y + b.y) / 2 - 14 * ctx.scale}, colours::kLineClear,
           fmt::format("clear \u00b7 gap {:.2f}\" \u00b7 usable: {}", m->measurement.gap_in,
                       colour_list(m->usable)),
           1, std::hypot(b.x - a.x, b.y - a.y));
    } else {
      const ImVec2 a = S(m->centre_line.a);
      const ImVec2 b = S(m->centre_line.b);
      dashed_line(dl, a, b, colours::kLineBlocked, 3 * ctx.scale, 9 * ctx.scale);
      std::string by;
      for (const auto& id : m->blocker_ids) {
        by += (by.empty() ? "" : ", ") + id;
        for (const auto& piece : view.terrain) {
          if (piece.id == id) draw_shape(piece.shape, 0, col(colours::kLineBlocked), 4);
        }
        for (const auto& base : view.bases) {
          if (base.name == id)
            dl->AddCircle(S(base.disc.centre),
                          static_cast<float>(base.disc.radius_in) * ppi + 3 * ctx.scale,
                          col(colours::kLineBlocked), 48, 4);
        }
      }
      text(
          {(a.x + b.x) / 2, (a.y + b.y) / 2 - 14 * ctx.scale}, colours::kLineBlocked,
          fmt::format("BLOCKED by {} \u00b7 gap {:.2f}\"", by.empty() ? "?" : by, m->centre_gap_in),
          1, std::hypot(b.x - a.x, b.y - a.y));
    }
  }

  // Bases.
  for (const auto& b : view.bases) {
    const ImVec2 c = S(b.disc.centre);
    const float r = static_cast<float>(b.disc.radius_in) * ppi;
    const Rgba tc = team_colour(b.team);
    dl->AddCircleFilled(c, r, col(tc.with_alpha(dragging_ && b.figure == drag_figure_ ? 70 : 170)),
                        40);
    dl->AddCircle(c, r, col(tc), 40, 2);
    if (s.selected == b.figure) dl->AddCircle(c, r + 3 * ctx.scale, col(colours::kSelected), 40, 3);
    if (shown_target == b.figure) {
      dl->AddCircle(c, r + 5 * ctx.scale, col(colours::kText), 40, 1.5f);
      dashed_line(dl, {c.x - r - 9 * ctx.scale, c.y}, {c.x - r - 2, c.y}, colours::kText, 2, 3);
      dashed_line(dl, {c.x + r + 2, c.y}, {c.x + r + 9 * ctx.scale, c.y}, colours::kText, 2, 3);
    }
    const FigureState& f = fig(st, b.figure);
    std::string name = b.name;
    if (b.source == PositionSource::Manual) name += " (by hand)";
    if (b.source == PositionSource::Vision) name += " (camera)";
    text({c.x, c.y - r - 10 * ctx.scale}, colours::kText, name, 0);
    text({c.x, c.y + r + 10 * ctx.scale}, colours::kTextDim,
         fmt::format(
             "H{} W{} B{}{}", f.value(DialKind::Head), f.value(DialKind::Weapon),
             f.value(DialKind::Body),
             f.bullet_holes() > 0 ? fmt::format(" {}\u25cf", f.bullet_holes()) : std::string()),
         1);
    ctx.widgets.add(
        {b.name, "base:" + b.name, c.x - r, c.y - r, c.x + r, c.y + r, true, WidgetKind::Base});
  }

  // Moves the camera saw: the journaled spot (dashed), the engine's path, the proposed end
  // (a ring to drag); an illegal one has its base ringed in vermillion.
  for (const auto& [f, prop] : s.proposals()) {
    const bool ok = prop.legal();
    const Rgba pc = ok ? colours::kGood : colours::kWarning;
    const float r = static_cast<float>(fig(st, f).def.base_diameter_in / 2) * ppi;
    const ImVec2 from = S(prop.from);
    for (int i = 0; i < 24; i += 2) {  // the spot the match has: a dashed ring
      const double a0 = 2 * std::numbers::pi * i / 24;
      const double a1 = 2 * std::numbers::pi * (i + 1) / 24;
      dl->AddLine({from.x + r * static_cast<float>(std::cos(a0)),
                   from.y + r * static_cast<float>(std::sin(a0))},
                  {from.x + r * static_cast<float>(std::cos(a1)),
                   from.y + r * static_cast<float>(std::sin(a1))},
                  col(team_colour(fig(st, f).team)), 2);
    }
    const ImVec2 end = S(prop.to);
    if (!prop.path.empty()) {
      std::vector<ImVec2> pts;
      for (const auto& v : prop.path)
        pts.push_back(S(v));
      dl->AddPolyline(pts.data(), static_cast<int>(pts.size()), col(pc), 0, 3 * ctx.scale);
    } else {
      dashed_line(dl, from, end, pc, 2.5f * ctx.scale, 7 * ctx.scale);
    }
    dl->AddCircle(end, r, col(pc), 40, 3 * ctx.scale);
    dl->AddCircleFilled(end, 4 * ctx.scale, col(pc));
    if (!ok) {
      // The base where it really stands, flagged.
      const ImVec2 at = S(prop.tracked);
      dl->AddCircle(at, r + 6 * ctx.scale, col(colours::kWarning), 40, 4 * ctx.scale);
    }
    text({end.x, end.y + r + 24 * ctx.scale}, pc,
         ok ? fmt::format("{:.2f}\" of {}\" \u2014 legal", prop.length_in, prop.allowance_in)
            : fmt::format("{} \u2014 {}", prop.name, verdict_words(prop.verdict)),
         -1);
    ctx.widgets.add({"move end " + prop.name, "move end:" + prop.name, end.x - r, end.y - r,
                     end.x + r, end.y + r, true, WidgetKind::Field});
  }

  // Moving: the path to the spot under the mouse.
  if (s.move.active && hovered && under == nullptr) {
    const PathResult path = s.move_path(mouse_in);
    if (path.found) {
      const auto pts_in = path.polyline(0.05);
      std::vector<ImVec2> pts;
      for (const auto& v : pts_in)
        pts.push_back(S(v));
      const bool fits = path.length_in <= s.move_allowance_in() + 1e-9;
      const Rgba pc = fits ? colours::kReach : colours::kLineBlocked;
      dl->AddPolyline(pts.data(), static_cast<int>(pts.size()), col(pc), 0, 2.5f * ctx.scale);
      text({mouse.x, mouse.y - 16 * ctx.scale}, pc,
           fmt::format("{:.2f}\"{}", path.length_in, fits ? "" : " (too far)"), -1);
    }
  }
  if (placing && hovered) {
    const float r = static_cast<float>(fig(st, *placing).def.base_diameter_in / 2) * ppi;
    dl->AddCircle(mouse, r, col(team_colour(fig(st, *placing).team)), 40, 2);
  }
  if (dragging_ && drag_figure_ >= 0) {
    const float r = static_cast<float>(fig(st, drag_figure_).def.base_diameter_in / 2) * ppi;
    dl->AddCircle(mouse, r, col(colours::kSelected), 40, 2);
    text({mouse.x, mouse.y - r - 10 * ctx.scale}, colours::kSelected,
         fmt::format("{} by hand ({:.1f}, {:.1f})", fig(st, drag_figure_).def.name, mouse_in.x,
                     mouse_in.y),
         -1);
  }
#if DUELS_OVERLAY_CAMERA
  // Bases the camera sees but cannot name: dashed where they stand; a click on one asks whose
  // base it is, as on the camera picture.
  std::shared_ptr<const CameraSnapshot> snap;
  if (camera_ != nullptr) {
    snap = camera_->snapshot();
    int unnamed = 0;
    for (const auto& u : snap->table.unnamed) {
      const ImVec2 c = S({u.centre_in.x, u.centre_in.y});
      const float r = static_cast<float>(u.radius_in) * ppi;
      for (int k = 0; k < 18; ++k) {  // 18 dashes of 10°, as on the camera picture
        const float a = static_cast<float>(2 * std::numbers::pi * k / 18);
        dl->PathArcTo(c, r, a, a + static_cast<float>(std::numbers::pi / 18), 4);
        dl->PathStroke(col(colours::kUnnamed), 0, 2.5f * ctx.scale);
      }
      text({c.x, c.y - r - 10 * ctx.scale}, colours::kUnnamed,
           "not named: click it to say whose it is", 1);
      const std::string name = fmt::format("map unnamed base {}", ++unnamed);
      ctx.widgets.add({name, name, c.x - r, c.y - r, c.x + r, c.y + r, true, WidgetKind::Field});
    }
  }
#endif
  labels.draw(dl);
  dl->PopClipRect();

  // A base the camera cannot name under the mouse (its place kept for the naming menu).
  const auto unnamed_at = [&](Vec2 at) {
#if DUELS_OVERLAY_CAMERA
    if (!snap) return false;
    for (const auto& u : snap->table.unnamed) {
      if (on_unnamed_base(u, {at.x, at.y})) {
        naming_at_ = u.centre_in;
        return true;
      }
    }
#endif
    (void)at;
    return false;
  };

  // Mouse: press, then either drag the end point of a move the camera saw (judged again as it
  // goes), drag a base (manual override), or click.
  if (hovered && ImGui::IsMouseClicked(0)) {
    pressed_ = true;
    press_x_ = mouse.x;
    press_y_ = mouse.y;
    drag_figure_ = (under != nullptr && !s.move.active && !placing) ? under->figure : -1;
    dragging_ = false;
    press_proposal_ = -1;
    for (const auto& [f, prop] : s.proposals()) {
      const float r = static_cast<float>(fig(st, f).def.base_diameter_in / 2) * ppi;
      const ImVec2 end = S(prop.to);
      if (std::hypot(mouse.x - end.x, mouse.y - end.y) <= r) press_proposal_ = f;
    }
  }
  const bool moved_far = std::hypot(mouse.x - press_x_, mouse.y - press_y_) > 5 * ctx.scale;
  if (pressed_ && press_proposal_ >= 0 && ImGui::IsMouseDown(0) && moved_far)
    dragging_proposal_ = press_proposal_;
  if (dragging_proposal_ >= 0) {
    const auto it = s.proposals().find(dragging_proposal_);
    if (it != s.proposals().end() && norm(it->second.to - mouse_in) > 0.02)
      s.correct_proposal(dragging_proposal_, mouse_in);
    if (it == s.proposals().end() || !ImGui::IsMouseDown(0)) {
      dragging_proposal_ = -1;
      press_proposal_ = -1;
      pressed_ = false;
    }
  } else if (pressed_ && drag_figure_ >= 0 && ImGui::IsMouseDown(0) && moved_far) {
    dragging_ = true;
  }
  if (pressed_ && ImGui::IsMouseReleased(0) && dragging_proposal_ < 0) {
    press_proposal_ = -1;
    if (dragging_ && drag_figure_ >= 0) {
      s.override_position(drag_figure_, mouse_in);
    } else if (hovered) {
      if (placing) {
        s.place_figure(*placing, mouse_in);
      } else if (s.move.active) {
        if (under == nullptr) s.move_to(mouse_in);
      } else if (under == nullptr && unnamed_at(mouse_in)) {
        ImGui::OpenPopup("name base");
      } else if (under != nullptr) {
        if (s.selected && under->figure != *s.selected &&
            fig(st, under->figure).team != fig(st, *s.selected).team) {
          s.set_target(under->figure, true);
        } else if (s.selected != under->figure) {
          s.select(under->figure);
        }
      }
    }
    pressed_ = false;
    dragging_ = false;
    drag_figure_ = -1;
  }
  if (hovered && ImGui::IsMouseClicked(1)) {
    if (s.move.active) {
      s.cancel_move();
    } else if (under != nullptr) {
      menu_figure_ = under->figure;
      ImGui::OpenPopup("base menu");
    }
  }
#if DUELS_OVERLAY_CAMERA
  if (camera_ != nullptr && snap) naming_menu(ctx, *camera_, *snap, naming_at_);
#endif
  if (ImGui::BeginPopup("base menu")) {
    if (menu_figure_ >= 0 && menu_figure_ < static_cast<int>(st.figures.size())) {
      const FigureState& f = fig(st, menu_figure_);
      ImGui::TextDisabled("%s", f.def.name.c_str());
      if (ImGui::MenuItem("Select")) s.select(menu_figure_);
      if (s.selected && fig(st, *s.selected).team != f.team &&
          ImGui::MenuItem("Target of the selected figure"))
        s.set_target(menu_figure_, true);
      if (can_act(st, menu_figure_) && !f.moved && ImGui::MenuItem("Move\u2026"))
        s.begin_move(menu_figure_);
      if (s.overrides().count(menu_figure_) > 0 &&
          ImGui::MenuItem("Back to where the match has it"))
        s.clear_override(menu_figure_);
    }
    ImGui::EndPopup();
  }

  // In words, below the map: where the mouse is, and the measurement (never only a colour).
  if (hovered) {
    ImGui::Text("(%.1f, %.1f)", mouse_in.x, mouse_in.y);
  } else {
    ImGui::TextDisabled("table %.0f\" \u00d7 %.0f\"", W, D);
  }
  if (m != nullptr) {
    ImGui::SameLine();
    const std::string who = fmt::format("{} \u2192 {}: ", fig(st, *shown_attacker).def.name,
                                        fig(st, *shown_target).def.name);
    if (m->lof.clear) {
      ui::text_coloured_wrapped(
          colours::kLineClear,
          fmt::format("{}gap {:.2f}\" edge to edge, line of fire clear, usable: {}", who,
                      m->measurement.gap_in, colour_list(m->usable)));
    } else {
      std::string by;
      for (const auto& id : m->blocker_ids)
        by += (by.empty() ? "" : ", ") + id;
      ui::text_coloured_wrapped(colours::kLineBlocked,
                                fmt::format("{}gap {:.2f}\", NO line of fire (blocked by {})", who,
                                            m->centre_gap_in, by));
    }
  }

  // Moves the camera saw: the engine's verdict, Confirm for a legal one (never applied alone).
  std::optional<FigureId> confirm;
  const std::map<FigureId, MoveProposal> proposals = s.proposals();  // a copy: Confirm changes it
  for (const auto& [f, prop] : proposals) {
    const float card_top = ImGui::GetCursorPosY();
    const Rgba pc = prop.legal() ? colours::kGood : colours::kWarning;
    ui::text_coloured_wrapped(
        pc, fmt::format("Camera: {}{}", prop.summary(), prop.moving ? " (still moving)" : ""));
    ui::record_last_item(ctx, "camera move " + prop.name, WidgetKind::Field, true);
    if (prop.legal()) {
      if (ui::button(
              ctx, "Confirm " + prop.name + "'s move", !prop.moving && s.live(),
              prop.moving ? "wait until the base stands still" : "the log is showing the past"))
        confirm = f;
    } else {
      ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
      ui::text_wrapped(
          fmt::format("NOT applied. Put {} back at ({:.1f}, {:.1f}), or drag the "
                      "ringed end point to a legal spot.",
                      prop.name, prop.from.x, prop.from.y));
      ImGui::PopStyleColor();
    }
    ImGui::SetCursorPosY(std::max(ImGui::GetCursorPosY(), card_top + card_h));
  }
  if (confirm) s.confirm_proposal(*confirm);
}

}  // namespace duels::overlay
