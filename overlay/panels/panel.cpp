#include <imgui.h>

#include "overlay/panels/panels.hpp"

namespace duels::overlay {

void Panel::draw(UiContext& ctx, float x, float y, float w, float h) {
  if (!visible) return;
  ImGui::SetNextWindowPos({x + placement_.x * w, y + placement_.y * h}, ImGuiCond_FirstUseEver);
  ImGui::SetNextWindowSize({placement_.w * w, placement_.h * h}, ImGuiCond_FirstUseEver);
  if (ImGui::Begin(title_.c_str(), &visible, ImGuiWindowFlags_NoCollapse)) {
    const ImVec2 pos = ImGui::GetWindowPos();
    const ImVec2 size = ImGui::GetWindowSize();
    last_rect_ = {pos.x, pos.y, size.x, size.y};
    draw_content(ctx);
  }
  ImGui::End();
}

}  // namespace duels::overlay
