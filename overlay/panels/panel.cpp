#include <imgui.h>

#include <algorithm>

#include "overlay/panels/panels.hpp"

namespace duels::overlay {

void Panel::draw(UiContext& ctx, float x, float y, float w, float h) {
  if (!visible) return;
  ImGui::SetNextWindowPos({x + placement_.x * w, y + placement_.y * h}, ImGuiCond_FirstUseEver);
  ImGui::SetNextWindowSize({placement_.w * w, placement_.h * h}, ImGuiCond_FirstUseEver);
  ImGuiWindowFlags flags = ImGuiWindowFlags_NoCollapse;
  if (!opaque_) flags |= ImGuiWindowFlags_NoBackground;
  if (ImGui::Begin(title_.c_str(), &visible, flags)) {
    const ImVec2 pos = ImGui::GetWindowPos();
    const ImVec2 size = ImGui::GetWindowSize();
    last_rect_ = {pos.x, pos.y, size.x, size.y};
    draw_content(ctx);
  }
  ImGui::End();
}

void decide_panel_backgrounds(const std::vector<Panel*>& panels) {
  auto overlap = [](const std::array<float, 4>& a, const std::array<float, 4>& b) {
    // Sharing an edge (or a pixel of rounding) is not overlapping.
    const float w = std::min(a[0] + a[2], b[0] + b[2]) - std::max(a[0], b[0]);
    const float h = std::min(a[1] + a[3], b[1] + b[3]) - std::max(a[1], b[1]);
    return w > 1.5f && h > 1.5f;
  };
  for (Panel* p : panels) {
    if (!p->visible) continue;
    const auto& r = p->last_rect();
    bool opaque = r[2] <= 0 || r[3] <= 0;  // not drawn yet: its place is unknown
    for (const Panel* q : panels) {
      if (q == p || !q->visible || opaque) continue;
      opaque = overlap(r, q->last_rect());
    }
    p->set_opaque(opaque);
  }
}

}  // namespace duels::overlay
