// The calibration wizard: live board detection, coverage, progress, RMS, hints.
#include <GL/gl.h>
#include <fmt/format.h>
#include <imgui.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <filesystem>

#include "calib/camera_file.hpp"
#include "match/duels_match.hpp"
#include "overlay/panels/panels.hpp"

namespace duels::overlay {

namespace {

const char* phase_words(calib::LivePhase p) {
  switch (p) {
    case calib::LivePhase::kNoBoard:
      return "no board in the picture";
    case calib::LivePhase::kMoving:
      return "board seen, moving";
    case calib::LivePhase::kHolding:
      return "board still: hold it\u2026";
    case calib::LivePhase::kCaptured:
      return "captured";
    case calib::LivePhase::kNothingNew:
      return "nothing new here: move or tilt the board";
    case calib::LivePhase::kDone:
      return "calibrated";
  }
  return "?";
}

}  // namespace

CalibrationPanel::CalibrationPanel(CalibrationFeedOptions options, bool autostart)
    : Panel("Calibration", {0.0f, 0.0f, 0.58f, 0.64f}), options_(std::move(options)) {
  visible = autostart;
  if (autostart) feed_ = std::make_unique<CalibrationFeed>(options_);
}

CalibrationPanel::~CalibrationPanel() = default;

std::shared_ptr<const CalibrationSnapshot> CalibrationPanel::snapshot() const {
  return feed_ ? feed_->snapshot() : nullptr;
}

void CalibrationPanel::release_graphics() {
  if (texture_ != 0) {
    const GLuint t = texture_;
    glDeleteTextures(1, &t);
    texture_ = 0;
  }
}

void CalibrationPanel::draw_content(UiContext& ctx) {
  const auto snap = snapshot();
  const bool running = snap && snap->running;
  if (ui::button(ctx, running ? "Restart calibration" : "Start calibration")) {
    feed_.reset();
    feed_ = std::make_unique<CalibrationFeed>(options_);
  }
  ImGui::SameLine();
  if (ui::button(ctx, "Stop calibration", running)) feed_->stop();
  ImGui::SameLine();
  ImGui::TextDisabled("source: %s", snap ? snap->source.c_str() : options_.source.c_str());
  if (!snap) {
    ui::text_wrapped(
        "Hold the printed board (duels calibrate print) in front of the camera; the wizard "
        "captures a view whenever the board is still and the view adds something new.");
    return;
  }
  if (!snap->error.empty()) ui::text_coloured(colours::kWarning, snap->error);
  const calib::LiveStatus& st = snap->status;

  // Progress, what is happening, what to do next.
  const int needed = std::max(st.views_needed, 1);
  ImGui::ProgressBar(static_cast<float>(std::clamp(st.progress, 0.0, 1.0)), {-1, 0},
                     fmt::format("{} of ~{} views", st.views_accepted, needed).c_str());
  ui::text_coloured(st.done                                   ? colours::kGood
                    : st.phase == calib::LivePhase::kCaptured ? okabe_ito::kYellow
                                                              : colours::kText,
                    fmt::format("{}{}", phase_words(st.phase),
                                st.event.empty() ? std::string() : " \u00b7 " + st.event));
  if (st.done) ui::record_last_item(ctx, "Calibration done", WidgetKind::Field, true);
  if (!st.hint.empty()) ui::text_coloured(okabe_ito::kOrange, "Next: " + st.hint);

  // The picture with the corners found and the coverage map over it.
  const ImVec2 avail = ImGui::GetContentRegionAvail();
  // Room under the picture for the tilts and numbers, and once calibrated the table and save.
  const float text_h = (st.calibration ? 12.5f : 5.0f) * ImGui::GetTextLineHeightWithSpacing();
  if (!snap->image.empty() && avail.x > 40 && avail.y > text_h + 40) {
    const cv::Mat& img = snap->image;
    if (texture_ == 0) {
      GLuint t = 0;
      glGenTextures(1, &t);
      texture_ = t;
    }
    if (texture_frame_ != snap->frame) {
      cv::Mat rgba(img.rows, img.cols, CV_8UC4);
      for (int y = 0; y < img.rows; ++y) {
        const auto* src = img.ptr<std::uint8_t>(y);
        auto* dst = rgba.ptr<std::uint8_t>(y);
        for (int x = 0; x < img.cols; ++x) {
          dst[4 * x] = dst[4 * x + 1] = dst[4 * x + 2] = src[x];
          dst[4 * x + 3] = 255;
        }
      }
      glBindTexture(GL_TEXTURE_2D, texture_);
      glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_LINEAR);
      glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_LINEAR);
      glPixelStorei(GL_UNPACK_ALIGNMENT, 1);
      glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA, img.cols, img.rows, 0, GL_RGBA, GL_UNSIGNED_BYTE,
                   rgba.data);
      texture_frame_ = snap->frame;
    }
    // Once the table is registered, the coverage map shares the row with the picture.
    const bool coverage = table_ && table_->coverage;
    const float picture_w = coverage ? avail.x * 0.5f : avail.x;
    const float k = std::min(picture_w / static_cast<float>(img.cols),
                             (avail.y - text_h) / static_cast<float>(img.rows));
    const ImVec2 size{static_cast<float>(img.cols) * k, static_cast<float>(img.rows) * k};
    const ImVec2 p = ImGui::GetCursorScreenPos();
    ImGui::Image(reinterpret_cast<ImTextureID>(static_cast<std::intptr_t>(texture_)), size);
    ui::record_last_item(ctx, "calibration picture", WidgetKind::Field, true);
    ImDrawList* dl = ImGui::GetWindowDrawList();
    const calib::CoverageMap& cov = st.coverage;
    if (cov.cols > 0 && cov.rows > 0) {
      int most = 1;
      for (int c : cov.corners)
        most = std::max(most, c);
      const float cw = size.x / static_cast<float>(cov.cols);
      const float ch = size.y / static_cast<float>(cov.rows);
      for (int r = 0; r < cov.rows; ++r) {
        for (int c = 0; c < cov.cols; ++c) {
          const ImVec2 a{p.x + static_cast<float>(c) * cw, p.y + static_cast<float>(r) * ch};
          const ImVec2 b{a.x + cw, a.y + ch};
          const int n = cov.at(c, r);
          if (n > 0) {
            const auto alpha = static_cast<std::uint8_t>(50 + 90 * n / most);
            dl->AddRectFilled(a, b, colours::kGood.with_alpha(alpha).packed());
          }
          dl->AddRect(a, b, Rgba{255, 255, 255, 40}.packed());
        }
      }
    }
    for (const auto& c : snap->corners) {
      dl->AddCircle({p.x + c.x * k, p.y + c.y * k}, 3.5f * ctx.scale, okabe_ito::kYellow.packed(),
                    12, 1.5f);
    }
    if (coverage) {
      ImGui::SameLine();
      ImGui::BeginGroup();
      draw_coverage(ctx, *table_->coverage, size.y);
      ImGui::EndGroup();
    }
  }

  // Tilts still wanted, the numbers.
  std::string tilts = "tilts:";
  for (int t = 0; t < calib::kTiltCount; ++t) {
    const auto tilt = static_cast<calib::Tilt>(t);
    tilts += fmt::format("  {} {}", st.tilts[static_cast<std::size_t>(t)] > 0 ? "\u2713" : "\u2013",
                         calib::describe(tilt));
  }
  ui::text_wrapped(tilts);
  ImGui::Text("coverage %.0f%% of the picture \u00b7 frame %lld \u00b7 %.0f frames/s",
              100 * st.coverage.covered_fraction(), static_cast<long long>(snap->frame),
              snap->frames_per_s);
  if (st.calibration) {
    const auto& c = *st.calibration;
    ImGui::Text("RMS %.3f px \u00b7 fx %.1f fy %.1f cx %.1f cy %.1f", c.rms_px, c.intrinsics.fx(),
                c.intrinsics.fy(), c.intrinsics.cx(), c.intrinsics.cy());
    ImGui::TextDisabled("\u03c3/f: fx %.4f fy %.4f cx %.4f cy %.4f (stop below %.4f)",
                        st.std_relative[0], st.std_relative[1], st.std_relative[2],
                        st.std_relative[3], options_.live.std_limit);
  } else {
    ImGui::TextDisabled("RMS and intrinsics after %d views", options_.live.min_views);
  }
  draw_table_and_save(ctx, *snap);
}

void CalibrationPanel::draw_table_and_save(UiContext& ctx, const CalibrationSnapshot& snap) {
  const calib::LiveStatus& st = snap.status;
  if (!st.calibration) return;
  ImGui::Separator();
  // 2. The table: its corner markers in a frame of the same source, the pose, the error in
  // inches over the table.
  const bool busy = registering_.valid();
  if (busy && registering_.wait_for(std::chrono::seconds(0)) == std::future_status::ready) {
    table_ = registering_.get();
  }
  const TableSetupOptions& t = options_.table;
  if (ui::button(ctx, "Register the table", !snap.running && !registering_.valid())) {
    table_.reset();
    registering_ =
        std::async(std::launch::async, [source = options_.source, lens = *st.calibration, t] {
          return register_table_from_source(source, lens, t);
        });
  }
  ImGui::SameLine();
  ImGui::TextDisabled("%gx%g\" table, markers 0-3 (%g\", %g\" from the edges)", t.table.width_in,
                      t.table.depth_in, t.marker_in, t.inset_in);
  if (registering_.valid()) {
    ImGui::TextUnformatted("registering: looking for the four corner markers\u2026");
  } else if (table_) {
    if (table_->registration) {
      const calib::TablePlane& plane = table_->registration->plane;
      const cv::Point3d eye = plane.camera_position_in();
      ui::text_coloured(
          colours::kGood,
          fmt::format("table registered \u00b7 {} \u00b7 RMS {:.3f} px",
                      table_->registration->points.method, table_->registration->rms_px));
      ui::record_last_item(ctx, "table registered", WidgetKind::Field, true);
      ImGui::Text("camera %.1f\" above the table, over (%.1f, %.1f), tilted %.0f\u00b0", eye.z,
                  eye.x, eye.y, plane.camera_tilt_deg());
      if (table_->accuracy) {
        const calib::AccuracyReport& a = *table_->accuracy;
        ImGui::Text(
            "expected measuring error: RMS %.3f\" \u00b7 95%% under %.3f\" \u00b7 near "
            "edge %.3f\", far edge %.3f\"",
            a.rms_in, a.p95_in, a.near_rms_in, a.far_rms_in);
      }
    }
    if (!table_->error.empty()) ui::text_coloured_wrapped(colours::kWarning, table_->error);
  } else {
    ImGui::TextDisabled("Then put the corner markers down and register the table (optional).");
  }
  // 3. Save: the lens, and the table when registered, in one OpenCV-compatible file.
  if (save_path_.empty()) {
    save_path_ = !options_.out_file.empty()
                     ? options_.out_file
                     : (std::filesystem::path(match::data_dir()) / "camera.yml").string();
  }
  if (ui::button(ctx, "Save calibration", !snap.running)) {
    try {
      const calib::CameraFile file = wizard_camera_file(
          *st.calibration, options_.pattern, table_ && table_->registration ? &*table_ : nullptr);
      const std::filesystem::path dir = std::filesystem::path(save_path_).parent_path();
      if (!dir.empty()) std::filesystem::create_directories(dir);
      calib::write_camera_file(save_path_, file);
      saved_ =
          fmt::format("saved {}{}", save_path_, file.table ? " (lens and table)" : " (lens only)");
    } catch (const std::exception& e) {
      saved_ = std::string("not saved: ") + e.what();
    }
  }
  ImGui::SameLine();
  ImGui::TextDisabled("%s", save_path_.c_str());
  if (!saved_.empty()) {
    const bool ok = saved_.rfind("saved", 0) == 0;
    ui::text_coloured_wrapped(ok ? colours::kGood : colours::kWarning, saved_);
    if (ok) ui::record_last_item(ctx, "calibration saved", WidgetKind::Field, true);
  }
}

void CalibrationPanel::draw_coverage(UiContext& ctx, const calib::TableCoverage& map,
                                     float height) {
  ui::text_wrapped(fmt::format(
      "where the base markers ({:g}\") can be read: {:.0f}% of the table (near third {:.0f}%, "
      "middle {:.0f}%, far {:.0f}%)",
      map.target.side_in, 100 * map.readable_share, 100 * map.readable_by_third[0],
      100 * map.readable_by_third[1], 100 * map.readable_by_third[2]));
  // The table seen from above, far edge on top: green read, orange near the limit, vermillion
  // too small, grey outside the picture.
  const float line = ImGui::GetTextLineHeightWithSpacing();
  const float side = std::max(40.0f * ctx.scale, std::min(220.0f * ctx.scale, height - 6 * line));
  const float k = side / static_cast<float>(std::max(map.table.width_in, map.table.depth_in));
  const ImVec2 origin = ImGui::GetCursorScreenPos();
  const float depth_px = static_cast<float>(map.table.depth_in) * k;
  ImDrawList* draw = ImGui::GetWindowDrawList();
  for (int r = 0; r < map.rows; ++r) {
    for (int c = 0; c < map.cols; ++c) {
      const calib::TableCoverageCell& cell = map.at(c, r);
      Rgba colour{110, 110, 110};
      switch (calib::readability(cell, map.target)) {
        case calib::Readability::kOutOfView:
          break;
        case calib::Readability::kTooSmall:
          colour = colours::kWarning;
          break;
        case calib::Readability::kNearLimit:
          colour = okabe_ito::kOrange;
          break;
        case calib::Readability::kReadable:
          colour = colours::kGood;
          break;
      }
      const float x0 = origin.x + static_cast<float>(c * map.cell_in) * k;
      const float y1 = origin.y + depth_px - static_cast<float>(r * map.cell_in) * k;
      draw->AddRectFilled({x0, y1 - static_cast<float>(map.cell_in) * k},
                          {x0 + static_cast<float>(map.cell_in) * k, y1}, colour.packed());
    }
  }
  ImGui::Dummy({static_cast<float>(map.table.width_in) * k, depth_px});
  ui::record_last_item(ctx, "coverage map", WidgetKind::Field, true);
  const bool fine = map.readable_share >= 0.999;
  for (const std::string& advice : map.advice) {
    ui::text_coloured_wrapped(fine ? colours::kGood : colours::kWarning, advice);
  }
  // Labelled with the first line, so scripts and tests can read the advice.
  ui::record_last_item(ctx, "coverage: " + map.advice.front(), WidgetKind::Field, true);
}

}  // namespace duels::overlay
