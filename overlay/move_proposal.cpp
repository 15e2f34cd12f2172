#include "overlay/move_proposal.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>

#include "common/names.hpp"
#include "duels/engine.hpp"
#include "duels/table_rules.hpp"

namespace duels::overlay {

namespace {

const std::vector<DieRoll>& rolls_of(const MoveRolls& rolls, FigureId f) {
  static const std::vector<DieRoll> kNone;
  const auto it = rolls.find(f);
  return it == rolls.end() ? kNone : it->second;
}

// A table check that failed, by what failed.
ProposalVerdict classify(const GameState& s, FigureId f, const MoveCheck& m, Vec2 to) {
  if (m.code == RejectCode::BadTarget) {
    const double r = s.figures[static_cast<std::size_t>(f)].def.base_diameter_in / 2;
    const auto& t = s.table.bounds;
    const double eps = 1e-9;
    const bool inside = to.x - r >= -eps && to.y - r >= -eps && to.x + r <= t.width_in + eps &&
                        to.y + r <= t.depth_in + eps;
    return inside ? ProposalVerdict::Overlaps : ProposalVerdict::OffTable;
  }
  if (m.code == RejectCode::TooFar)
    return m.path.found ? ProposalVerdict::TooFar : ProposalVerdict::NoWay;
  return ProposalVerdict::NoWay;
}

}  // namespace

std::string_view verdict_words(ProposalVerdict verdict) {
  switch (verdict) {
    case ProposalVerdict::Legal:
      return "legal";
    case ProposalVerdict::TooFar:
      return "too far";
    case ProposalVerdict::NoWay:
      return "path blocked";
    case ProposalVerdict::Overlaps:
      return "overlaps";
    case ProposalVerdict::OffTable:
      return "off the table";
    case ProposalVerdict::NotNow:
      return "not now";
  }
  return "?";
}

std::string MoveProposal::summary() const {
  const std::string where = fmt::format("({:.1f}, {:.1f})", to.x, to.y);
  if (legal()) {
    return fmt::format("{} moved {:.2f}\" of {}\" to {}: legal", name, length_in, allowance_in,
                       where);
  }
  return fmt::format("{} moved to {}: {} \u2014 {}", name, where, verdict_words(verdict), reason);
}

MoveProposal evaluate_move(const GameState& s, FigureId figure, Vec2 tracked, Vec2 to,
                           const std::vector<DieRoll>& rolls) {
  const FigureState& f = s.figures[static_cast<std::size_t>(figure)];
  MoveProposal p;
  p.figure = figure;
  p.name = f.def.name;
  if (f.position) p.from = Vec2{f.position->x, f.position->y};
  p.tracked = tracked;
  p.to = to;
  p.allowance_in = move_allowance(f, rolls);
  p.command = Move{figure, rolls, std::nullopt, Point{to.x, to.y}};
  const MoveCheck m = check_move(s, figure, Point{to.x, to.y}, p.allowance_in);
  if (m.path.found) {
    p.length_in = m.path.length_in;
    p.path = m.path.polyline(0.05);
  }
  // The engine has the last word (whose turn, moved already, the dice); the table check says
  // what is wrong with the spot or the path.
  const std::optional<Rejection> r = legal(s, Command{p.command});
  if (!r) {
    p.verdict = ProposalVerdict::Legal;
    return p;
  }
  p.reason = r->reason;
  p.verdict =
      (!m.ok && r->reason == m.reason) ? classify(s, figure, m, to) : ProposalVerdict::NotNow;
  return p;
}

const MoveProposal* MoveWatcher::proposal(FigureId figure) const {
  const auto it = proposals_.find(figure);
  return it == proposals_.end() ? nullptr : &it->second;
}

std::vector<FigureId> MoveWatcher::observe(const GameState& s,
                                           const std::vector<TrackedBasePosition>& seen,
                                           const MoveRolls& rolls) {
  std::vector<FigureId> news;
  for (FigureId f = 0; f < static_cast<FigureId>(s.figures.size()); ++f) {
    const FigureState& fs = s.figures[static_cast<std::size_t>(f)];
    if (fs.eliminated || !fs.position) {
      tracks_.erase(f);
      proposals_.erase(f);
      continue;
    }
    const TrackedBasePosition* t = nullptr;
    for (const auto& b : seen) {
      if (b.confidence >= 0.5 && same_name(b.figure, fs.def.name)) t = &b;
    }
    if (t == nullptr) continue;  // not seen this frame: whatever was proposed stays
    Track& tr = tracks_[f];
    tr.recent.push_back(t->centre_in);
    while (static_cast<int>(tr.recent.size()) > std::max(1, settings_.settle_frames))
      tr.recent.pop_front();
    Vec2 mean{0, 0};
    for (const Vec2& v : tr.recent)
      mean = mean + v;
    mean = mean * (1.0 / static_cast<double>(tr.recent.size()));
    bool still = static_cast<int>(tr.recent.size()) >= settings_.settle_frames;
    for (const Vec2& v : tr.recent)
      still = still && norm(v - mean) <= settings_.still_in;
    auto it = proposals_.find(f);
    if (!still) {
      // Picked up or moving: a proposal waits (cannot be confirmed) until the base settles.
      if (it != proposals_.end() && norm(t->centre_in - it->second.tracked) > settings_.still_in)
        it->second.moving = true;
      continue;
    }
    tr.settled = mean;
    const Vec2 journaled{fs.position->x, fs.position->y};
    if (tr.accepted && norm(journaled - tr.accepted_at) > 1e-6) tr.accepted.reset();  // undone
    if (tr.accepted) {
      if (norm(mean - *tr.accepted) <= settings_.moved_in) {
        if (it != proposals_.end()) proposals_.erase(it);
        continue;
      }
      tr.accepted.reset();  // moved again since the confirmed move
    }
    if (norm(mean - journaled) <= settings_.moved_in) {
      // Where the match has it (or put back there): nothing to propose, no flag.
      if (it != proposals_.end()) proposals_.erase(it);
      continue;
    }
    if (it != proposals_.end() && norm(mean - it->second.tracked) <= settings_.moved_in) {
      // Still standing where it was proposed: keep the player's correction.
      if (it->second.moving) {
        it->second.moving = false;
        MoveProposal again =
            evaluate_move(s, f, it->second.tracked, it->second.to, rolls_of(rolls, f));
        again.corrected = it->second.corrected;
        it->second = std::move(again);
      }
      continue;
    }
    // A new resting place: propose the move from the journaled spot to it.
    MoveProposal p = evaluate_move(s, f, mean, mean, rolls_of(rolls, f));
    const bool news_worthy = it == proposals_.end() || it->second.verdict != p.verdict ||
                             norm(it->second.to - p.to) > settings_.moved_in;
    proposals_[f] = std::move(p);
    if (news_worthy) news.push_back(f);
  }
  return news;
}

void MoveWatcher::recheck(const GameState& s, const MoveRolls& rolls) {
  for (auto it = proposals_.begin(); it != proposals_.end();) {
    const FigureId f = it->first;
    const FigureState* fs = f >= 0 && f < static_cast<FigureId>(s.figures.size())
                                ? &s.figures[static_cast<std::size_t>(f)]
                                : nullptr;
    if (fs == nullptr || fs->eliminated || !fs->position ||
        norm(it->second.tracked - Vec2{fs->position->x, fs->position->y}) <= settings_.moved_in) {
      it = proposals_.erase(it);
      continue;
    }
    MoveProposal again = evaluate_move(s, f, it->second.tracked, it->second.to, rolls_of(rolls, f));
    again.corrected = it->second.corrected;
    again.moving = it->second.moving;
    it->second = std::move(again);
    ++it;
  }
}

bool MoveWatcher::correct(const GameState& s, FigureId figure, Vec2 to, const MoveRolls& rolls) {
  auto it = proposals_.find(figure);
  if (it == proposals_.end()) return false;
  MoveProposal again = evaluate_move(s, figure, it->second.tracked, to, rolls_of(rolls, figure));
  again.corrected = true;
  again.moving = it->second.moving;
  it->second = std::move(again);
  return true;
}

void MoveWatcher::confirmed(FigureId figure) {
  auto it = proposals_.find(figure);
  if (it == proposals_.end()) return;
  tracks_[figure].accepted = it->second.tracked;
  tracks_[figure].accepted_at = it->second.to;
  proposals_.erase(it);
}

}  // namespace duels::overlay
