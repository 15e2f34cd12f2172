// The camera picture with everything the program knows drawn over it in perspective: each base's
// outline, name and dials; the selected figure's tape rings on the table plane (ellipses in the
// picture); the line of fire to the target. Hover a base in the picture to target it.
#include <GL/gl.h>
#include <fmt/format.h>
#include <imgui.h>

#include <opencv2/imgproc.hpp>

#include <array>
#include <cmath>
#include <cstdint>
#include <numbers>
#include <optional>

#include "dice/notation.hpp"
#include "duels/geometry_raster.hpp"
#include "overlay/panels/panels.hpp"
#include "overlay/session.hpp"

namespace duels::overlay {

namespace {

const FigureState& fig(const GameState& s, FigureId f) {
  return s.figures[static_cast<std::size_t>(f)];
}

}  // namespace

CameraPanel::CameraPanel(CameraFeed* feed)
    : Panel("Camera", {0.0f, 0.0f, 0.42f, 0.64f}), feed_(feed) {
  visible = feed_ != nullptr;
}

void CameraPanel::release_graphics() {
  for (unsigned* t : {&texture_, &reach_texture_}) {
    if (*t != 0) {
      const GLuint id = *t;
      glDeleteTextures(1, &id);
      *t = 0;
    }
  }
}

void CameraPanel::draw_reach(UiContext& ctx, const CameraSnapshot& snap, float x, float y, float w,
                             float h, double screen_per_px) {
  Session& s = *ctx.session;
  if (!s.move.active) return;
  const ReachResult* r = s.reach();
  if (r == nullptr || r->cols <= 0 || r->rows <= 0) return;
  const calib::TablePlane& plane = snap.plane;
  // Where the table's corners land tells whether the camera (or the picture's size) changed.
  const auto c0 = plane.table_to_image({0, 0, 0});
  const auto c1 = plane.table_to_image({plane.table().width_in, plane.table().depth_in, 0});
  if (!c0 || !c1) return;
  const std::array<double, 5> map_key{std::floor(w), screen_per_px, c0->x + c0->y, c1->x, c1->y};
  const int cols = std::max(1, static_cast<int>(w) / 2);
  const int rows = std::max(1, static_cast<int>(h) / 2);
  if (map_key != table_map_key_ || table_x_.cols != cols || table_x_.rows != rows) {
    table_x_.create(rows, cols, CV_32F);
    table_y_.create(rows, cols, CV_32F);
    const double step = static_cast<double>(w) / cols;
    for (int v = 0; v < rows; ++v) {
      for (int u = 0; u < cols; ++u) {
        const cv::Point2d cam_px{(u + 0.5) * step / screen_per_px,
                                 (v + 0.5) * step / screen_per_px};
        const auto t = plane.image_to_table(cam_px, 0.0);
        table_x_.at<float>(v, u) = t ? static_cast<float>(t->x) : -1e6f;
        table_y_.at<float>(v, u) = t ? static_cast<float>(t->y) : -1e6f;
      }
    }
    table_map_key_ = map_key;
    reach_key_ = {};
  }
  const std::array<double, 7> key{static_cast<double>(s.version()),
                                  static_cast<double>(s.move_allowance_in()),
                                  r->move_in,
                                  static_cast<double>(r->first_col),
                                  static_cast<double>(r->first_row),
                                  map_key[0],
                                  map_key[2]};
  if (reach_texture_ == 0) {
    GLuint t = 0;
    glGenTextures(1, &t);
    reach_texture_ = t;
    reach_key_ = {};
  }
  if (key != reach_key_) {
    // Mask cell of every sample: (x / cell − first column, y / cell − first row).
    const cv::Mat mask(r->rows, r->cols, CV_8U, const_cast<std::uint8_t*>(r->mask.data()));
    cv::Mat mx = table_x_ * (1.0 / r->cell_in) - r->first_col;
    cv::Mat my = table_y_ * (1.0 / r->cell_in) - r->first_row;
    cv::Mat inside;
    cv::remap(mask, inside, mx, my, cv::INTER_NEAREST, cv::BORDER_CONSTANT, cv::Scalar(0));
    cv::Mat rgba(inside.size(), CV_8UC4, cv::Scalar(0, 0, 0, 0));
    rgba.setTo(cv::Scalar(colours::kReach.r, colours::kReach.g, colours::kReach.b, 95), inside);
    glBindTexture(GL_TEXTURE_2D, reach_texture_);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_LINEAR);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_LINEAR);
    glPixelStorei(GL_UNPACK_ALIGNMENT, 1);
    glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA, rgba.cols, rgba.rows, 0, GL_RGBA, GL_UNSIGNED_BYTE,
                 rgba.data);
    reach_key_ = key;
  }
  const float step = w / static_cast<float>(cols);
  const float x1 = x + std::min(w, step * static_cast<float>(cols));
  const float y1 = y + std::min(h, step * static_cast<float>(rows));
  ImGui::GetWindowDrawList()->AddImage(
      reinterpret_cast<ImTextureID>(static_cast<std::intptr_t>(reach_texture_)), {x, y}, {x1, y1});
  ctx.widgets.add({"camera reach", "camera reach", x, y, x1, y1, true, WidgetKind::Field});
}

void CameraPanel::draw_content(UiContext& ctx) {
  if (feed_ == nullptr) {
    ImGui::TextDisabled("No camera: start with --source cam:N|FILE|synthetic:demo.");
    return;
  }
  Session& s = *ctx.session;
  const auto snap = feed_->snapshot();
  const GameState st = s.state();
  const TableView view = s.table();
  int settled = 0;
  for (const auto& b : snap->table.bases)
    settled += b.state == vision::BaseState::kSettled ? 1 : 0;
  ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
  ui::text_wrapped(fmt::format(
      "{} \u00b7 frame {} \u00b7 vision {:.1f} frames/s ({:.0f} ms "
      "capture, {:.0f} ms vision)",
      snap->source_name, snap->frame, snap->frames_per_s, snap->capture_ms, snap->vision_ms));
  ImGui::PopStyleColor();
  const std::string seen = fmt::format("bases seen {}", snap->table.bases.size());
  const std::string unnamed_count =
      snap->table.unnamed.empty() ? std::string()
                                  : fmt::format(" \u00b7 {} not named", snap->table.unnamed.size());
  ImGui::Text("%s \u00b7 %d settled%s", seen.c_str(), settled, unnamed_count.c_str());
  ui::record_last_item(ctx, seen, WidgetKind::Field, true);
  if (!snap->naming_problem.empty())
    ui::text_coloured_wrapped(colours::kWarning, "Not named: " + snap->naming_problem);
  if (!snap->error.empty()) {
    ui::text_coloured_wrapped(colours::kWarning, "The camera could not start: " + snap->error);
    return;
  }
  const bool lost = !snap->connected && (snap->frame >= 0 || !snap->problem.empty());
  if (lost || snap->ended) {
    const std::string text =
        snap->ended ? std::string("The video has ended: the match goes on by hand on the map.")
                    : fmt::format(
                          "CAMERA LOST \u2014 reconnecting{}{} \u00b7 the match goes on by hand: "
                          "drag the bases on the Table map.",
                          snap->reconnects > 0
                              ? fmt::format(" (it came back {} times before)", snap->reconnects)
                              : std::string(),
                          snap->problem.empty() ? "" : " \u00b7 " + snap->problem);
    ImGui::PushStyleColor(ImGuiCol_ChildBg, colours::kWarning.packed());
    ImGui::BeginChild("banner", {0, 2.2f * ImGui::GetTextLineHeightWithSpacing()}, false);
    ui::text_coloured_wrapped({255, 255, 255}, text);
    ImGui::EndChild();
    ImGui::PopStyleColor();
    ui::record_last_item(ctx, "camera lost", WidgetKind::Field, true);
  }
  if (snap->picture.empty()) {
    ImGui::TextDisabled("waiting for the first frame\u2026");
    return;
  }
  const cv::Mat& pic = snap->picture;
  if (texture_ == 0) {
    GLuint t = 0;
    glGenTextures(1, &t);
    texture_ = t;
  }
  const ImVec2 avail = ImGui::GetContentRegionAvail();
  if (avail.x < 40 || avail.y < 40) return;
  // The camera's aspect decides the size on screen; the vision thread then scales the picture
  // to exactly that width, so it is drawn 1:1 (nearest texel: the cheapest for a software
  // renderer, and sharp).
  const double cam_w = static_cast<double>(pic.cols) / snap->picture_scale;
  const double cam_h = static_cast<double>(pic.rows) / snap->picture_scale;
  const float fit = static_cast<float>(
      std::min(static_cast<double>(avail.x) / cam_w, static_cast<double>(avail.y) / cam_h));
  const float shown_w = std::floor(static_cast<float>(cam_w) * fit);
  feed_->set_display_width(static_cast<int>(shown_w));
  const bool one_to_one = std::abs(static_cast<float>(pic.cols) - shown_w) < 0.5f;
  if (texture_frame_ != snap->frame) {
    glBindTexture(GL_TEXTURE_2D, texture_);
    glPixelStorei(GL_UNPACK_ALIGNMENT, 1);
    glPixelStorei(GL_UNPACK_ROW_LENGTH, static_cast<GLint>(pic.step / pic.elemSize()));
    if (pic.cols == texture_size_[0] && pic.rows == texture_size_[1]) {
      glTexSubImage2D(GL_TEXTURE_2D, 0, 0, 0, pic.cols, pic.rows, GL_BGR, GL_UNSIGNED_BYTE,
                      pic.data);
    } else {
      glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, pic.cols, pic.rows, 0, GL_BGR, GL_UNSIGNED_BYTE,
                   pic.data);
      texture_size_ = {pic.cols, pic.rows};
    }
    glPixelStorei(GL_UNPACK_ROW_LENGTH, 0);
    texture_frame_ = snap->frame;
  }
  const GLint filter = one_to_one ? GL_NEAREST : GL_LINEAR;
  glBindTexture(GL_TEXTURE_2D, texture_);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, filter);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, filter);
  const float k = one_to_one ? 1.0f : shown_w / static_cast<float>(pic.cols);
  const ImVec2 size{static_cast<float>(pic.cols) * k, static_cast<float>(pic.rows) * k};
  const ImVec2 cursor = ImGui::GetCursorScreenPos();
  const ImVec2 p{std::floor(cursor.x), std::floor(cursor.y)};  // whole pixels: texels 1:1
  if (p.x != cursor.x || p.y != cursor.y) ImGui::SetCursorScreenPos(p);
  // The picture is opaque: drawn without blending (a software renderer then skips reading
  // what is under it), the backend's state restored right after.
  ImDrawList* picture_dl = ImGui::GetWindowDrawList();
  picture_dl->AddCallback([](const ImDrawList*, const ImDrawCmd*) { glDisable(GL_BLEND); },
                          nullptr);
  ImGui::Image(reinterpret_cast<ImTextureID>(static_cast<std::intptr_t>(texture_)), size);
  picture_dl->AddCallback(ImDrawCallback_ResetRenderState, nullptr);
  const bool hovered = ImGui::IsItemHovered();
  const bool clicked = ImGui::IsItemClicked(0);
  ui::record_last_item(ctx, "camera picture", WidgetKind::Field, true);
  // Screen pixels per camera pixel.
  const double screen_per_px = snap->picture_scale * static_cast<double>(k);
  last_view_ = {p.x, p.y, static_cast<float>(screen_per_px)};
  const calib::TablePlane& plane = snap->plane;
  auto to_screen = [&](Vec2 t, double z = 0) -> std::optional<ImVec2> {
    const auto px = plane.table_to_image({t.x, t.y, z});
    if (!px) return std::nullopt;
    return ImVec2{p.x + static_cast<float>(px->x * screen_per_px),
                  p.y + static_cast<float>(px->y * screen_per_px)};
  };
  ImDrawList* dl = ImGui::GetWindowDrawList();
  dl->PushClipRect(p, {p.x + size.x, p.y + size.y}, true);
  // The reachable region while moving, shaded on the table as the camera sees it.
  draw_reach(ctx, *snap, p.x, p.y, size.x, size.y, screen_per_px);
  // Labels are drawn last, kept from covering each other (the bases' names first).
  LabelPlacer labels;
  auto label = [&](ImVec2 at, Rgba colour, std::string text, int priority) {
    labels.add(at.x, at.y, colour, std::move(text), priority);
  };
  // A circle on the table plane, as the camera sees it (an ellipse, bent by the lens).
  // Dashed: 18 dashes of 10°, 10° apart.
  auto ring = [&](Vec2 centre, double radius_in, Rgba colour, float thickness, double z = 0,
                  bool dashed = false) {
    constexpr int kSegments = 72;
    std::array<std::optional<ImVec2>, kSegments> at;
    for (int i = 0; i < kSegments; ++i) {
      const double a = 2 * std::numbers::pi * i / kSegments;
      at[static_cast<std::size_t>(i)] =
          to_screen(centre + Vec2{std::cos(a), std::sin(a)} * radius_in, z);
    }
    if (dashed) {
      for (std::size_t i = 0; i < at.size(); i += 4) {
        if (!at[i] || !at[i + 1] || !at[i + 2]) continue;
        const std::array<ImVec2, 3> dash = {*at[i], *at[i + 1], *at[i + 2]};
        dl->AddPolyline(dash.data(), 3, colour.packed(), 0, thickness);
      }
      return;
    }
    std::vector<ImVec2> pts;
    for (const auto& q : at) {
      if (q) pts.push_back(*q);
    }
    if (pts.size() > 2)
      dl->AddPolyline(pts.data(), static_cast<int>(pts.size()), colour.packed(), ImDrawFlags_Closed,
                      thickness);
  };

  // Hover / click a base in the picture: its ray meets the plane of the bases' tops.
  const ImVec2 mouse = ImGui::GetIO().MousePos;
  const cv::Point2d cam_px{(mouse.x - p.x) / screen_per_px, (mouse.y - p.y) / screen_per_px};
  std::optional<FigureId> under;
  if (hovered) {
    for (double z : {0.75, 0.0}) {
      if (auto t = plane.image_to_table(cam_px, z)) {
        if (const BaseView* b = view.base_at({t->x, t->y})) {
          under = b->figure;
          break;
        }
      }
    }
  }
  // A click on a base the camera cannot name (within its dashed outline) asks whose it is,
  // before anything else under it.
  bool naming = false;
  if (hovered && clicked) {
    for (const auto& u : snap->table.unnamed) {
      const auto t = plane.image_to_table(cam_px, u.top_height_in);
      if (t && on_unnamed_base(u, *t)) {
        naming_at_ = u.centre_in;
        naming = true;
        ImGui::OpenPopup("name base");
        break;
      }
    }
  }
  if (under && !naming) {
    if (s.selected && *under != *s.selected && fig(st, *under).team != fig(st, *s.selected).team &&
        !st.attack) {
      if (st.phase == Phase::Turns) s.set_target(*under, clicked);
    } else if (clicked) {
      s.select(*under);
    }
  }

  const std::optional<FigureId> attacker = st.attack ? st.attack->attacker : s.selected;
  // The target as a plain id (-1: none).
  FigureId target = st.attack ? st.attack->target : s.target.value_or(-1);
  if (target >= 0 && attacker && fig(st, target).team == fig(st, *attacker).team) target = -1;

  // The selected figure's tape: a ring per track on the table plane.
  if (attacker) {
    if (const BaseView* b = view.base_of(*attacker)) {
      for (const auto& r : tape_range_rings(b->disc, fig(st, *attacker).def.tape.tracks)) {
        const Rgba c =
            r.colour == dice::Colour::Black ? Rgba{150, 150, 150} : die_face_colour(r.colour);
        ring(b->disc.centre, r.radius_in, c.with_alpha(220), 2.0f * ctx.scale);
        // The label on the near side (toward the camera, away from the names above the
        // bases) when that part of the ring is on the table, else on the far side.
        const Vec2 near = b->disc.centre - Vec2{0, r.radius_in};
        const Vec2 at = near.y >= 0 ? near : b->disc.centre + Vec2{0, r.radius_in};
        if (auto q = to_screen(at))
          label(*q, colours::kText,
                fmt::format("{} {:.0f}\"", dice::colour_name(r.colour),
                            r.radius_in - b->disc.radius_in),
                2);
      }
    }
  }
  // The line of fire to the target.
  if (attacker && target >= 0) {
    const AttackMeasure& m = s.measure(*attacker, target);
    if (m.valid) {
      const Segment seg = m.lof.clear ? m.lof.witness : m.centre_line;
      const auto a = to_screen(seg.a);
      const auto b = to_screen(seg.b);
      if (a && b) {
        const Rgba c = m.lof.clear ? colours::kLineClear : colours::kLineBlocked;
        if (m.lof.clear) {
          dl->AddLine(*a, *b, c.packed(), 4 * ctx.scale);
        } else {
          ui::dashed_line(dl, {a->x, a->y}, {b->x, b->y}, c, 3 * ctx.scale, 9 * ctx.scale);
        }
        std::string by;
        for (const auto& id : m.blocker_ids) {
          by += (by.empty() ? "" : ", ") + id;
          // The blocker itself, outlined in vermillion on the table.
          for (const auto& piece : view.terrain) {
            if (piece.id != id) continue;
            if (piece.shape.kind == Shape::Kind::Circle) {
              ring(piece.shape.circle.centre, piece.shape.circle.radius_in, c, 4 * ctx.scale);
            } else {
              std::vector<ImVec2> pts;
              const auto& poly = piece.shape.polygon;
              for (std::size_t e = 0; e < poly.size(); ++e) {
                const Vec2 p0 = poly[e];
                const Vec2 p1 = poly[(e + 1) % poly.size()];
                for (int step = 0; step < 8; ++step) {  // edges bend a little through the lens
                  if (auto q = to_screen(p0 + (p1 - p0) * (step / 8.0))) pts.push_back(*q);
                }
              }
              if (pts.size() > 2) {
                dl->AddPolyline(pts.data(), static_cast<int>(pts.size()), c.packed(),
                                ImDrawFlags_Closed, 4 * ctx.scale);
              }
            }
          }
          for (const auto& base : view.bases) {
            if (base.name == id)
              ring(base.disc.centre, base.disc.radius_in + 0.25, c, 4 * ctx.scale);
          }
        }
        std::string usable;
        for (auto colour : m.usable)
          usable += (usable.empty() ? "" : ", ") + std::string(dice::colour_name(colour));
        label({(a->x + b->x) / 2, (a->y + b->y) / 2 - 16 * ctx.scale}, c,
              m.lof.clear ? fmt::format("clear \u00b7 gap {:.2f}\" \u00b7 usable: {}",
                                        m.measurement.gap_in, usable.empty() ? "none" : usable)
                          : fmt::format("BLOCKED by {}", by.empty() ? "?" : by),
              1);
      }
    }
  }
  // Moves the camera saw: the journaled spot, the engine's path, the proposed end; a base moved
  // illegally is ringed in vermillion until it is put back or a legal spot is confirmed.
  for (const auto& [f, prop] : s.proposals()) {
    const bool ok = prop.legal();
    const Rgba pc = ok ? colours::kGood : colours::kWarning;
    const double r_in = fig(st, f).def.base_diameter_in / 2;
    ring(prop.from, r_in, team_colour(fig(st, f).team).with_alpha(150), 1.5f * ctx.scale);
    std::vector<ImVec2> pts;
    const std::vector<Vec2> line =
        prop.path.empty() ? std::vector<Vec2>{prop.from, prop.to} : prop.path;
    for (std::size_t i = 0; i + 1 < line.size(); ++i) {
      for (int j = 0; j < 6; ++j) {  // straight on the table, bent a little through the lens
        if (auto q = to_screen(line[i] + (line[i + 1] - line[i]) * (j / 6.0))) pts.push_back(*q);
      }
    }
    if (auto q = to_screen(line.back())) pts.push_back(*q);
    if (pts.size() >= 2)
      dl->AddPolyline(pts.data(), static_cast<int>(pts.size()), pc.packed(), 0, 3 * ctx.scale);
    ring(prop.to, r_in, pc, 3 * ctx.scale);
    if (!ok) {
      ring(prop.tracked, r_in + 0.6, colours::kWarning, 6 * ctx.scale);
      ring(prop.tracked, r_in + 1.0, colours::kWarning, 2 * ctx.scale);
    }
    if (auto q = to_screen(prop.tracked, 5.0)) {  // above the figure's name and dials
      label({q->x, q->y - 3.4f * ImGui::GetTextLineHeight()}, pc,
            ok ? fmt::format("{:.2f}\" of {}\" \u2014 legal: Confirm on the map", prop.length_in,
                             prop.allowance_in)
               : fmt::format("NOT APPLIED \u2014 {}", verdict_words(prop.verdict)),
            0);
    }
  }
  // Bases: outline on the table, name and dials above.
  for (const auto& b : view.bases) {
    const Rgba tc = team_colour(b.team);
    ring(b.disc.centre, b.disc.radius_in, tc, 3.0f * ctx.scale);
    if (s.selected == b.figure)
      ring(b.disc.centre, b.disc.radius_in + 0.3, colours::kSelected, 3.0f * ctx.scale);
    if (target == b.figure)
      ring(b.disc.centre, b.disc.radius_in + 0.3, colours::kText, 1.5f * ctx.scale);
    const FigureState& f = fig(st, b.figure);
    if (auto q = to_screen(b.disc.centre, 5.0)) {
      std::string state;
      for (const auto& t : snap->table.bases) {
        if (t.figure == b.name) state = " \u00b7 " + vision::to_string(t.state);
      }
      if (b.source == PositionSource::Manual) state = " \u00b7 by hand";
      const float up = 2.2f * ImGui::GetTextLineHeight();
      label({q->x, q->y - up}, ui::team_text_colour(b.team), b.name + state, 0);
      label({q->x, q->y - up + ImGui::GetTextLineHeight() + 4}, colours::kText,
            fmt::format("H{} W{} B{}", f.value(DialKind::Head), f.value(DialKind::Weapon),
                        f.value(DialKind::Body)),
            0);
    }
    if (auto q = to_screen(b.disc.centre)) {
      const float r = 6 * ctx.scale;
      ctx.widgets.add({"camera base " + b.name, "camera base " + b.name, q->x - r, q->y - r,
                       q->x + r, q->y + r, true, WidgetKind::Field});
    }
  }
  // Bases the camera sees but cannot name (their code unread from here, or carried by no base
  // in the base map): a dashed outline where their top is, and what to do. Clicked, a menu of
  // the figures whose bases carry rings names it.
  int unnamed = 0;
  for (const auto& u : snap->table.unnamed) {
    const Vec2 c{u.centre_in.x, u.centre_in.y};
    ring(c, u.radius_in, colours::kUnnamed, 3.0f * ctx.scale, u.top_height_in, true);
    if (auto q = to_screen(c, 5.0)) {  // where a named base's name goes (above its figure)
      label({q->x, q->y - 2.2f * ImGui::GetTextLineHeight()}, colours::kUnnamed,
            "base not named: click it to say whose it is", 1);
    }
    if (auto q = to_screen(c, u.top_height_in)) {  // its top, where it is clicked
      const float r = 6 * ctx.scale;
      const std::string name = fmt::format("camera unnamed base {}", ++unnamed);
      ctx.widgets.add(
          {name, name, q->x - r, q->y - r, q->x + r, q->y + r, true, WidgetKind::Field});
    }
  }
  labels.draw(dl);
  dl->PopClipRect();
  naming_menu(ctx, *feed_, *snap, naming_at_);
}

void naming_menu(UiContext& ctx, CameraFeed& feed, const CameraSnapshot& snap, cv::Point2d at) {
  if (!ImGui::BeginPopup("name base")) return;
  ImGui::TextDisabled("Whose base is this?");
  for (const auto& figure : snap.ring_figures) {
    // Figures the camera already follows by their code are listed too: the player's word wins
    // (that ring then gives the name up).
    if (ImGui::MenuItem(figure.c_str())) feed.name_base(at, figure);
    ui::record_last_item(ctx, "name as " + figure, WidgetKind::Button, true);
  }
  ImGui::EndPopup();
}

}  // namespace duels::overlay
