// The match as the camera's memory (issue 51): in a match the program knows where every figure
// was placed and where each move ended, so a ring standing there keeps its figure's name whatever
// dice lie on it, and a figure moved is named by the spot it left (one figure moves at a time).
// A scripted evening on a table (vision/evening.hpp) must never show a name at a wrong place.
#include <gtest/gtest.h>

#include <cstdio>
#include <string>

#include "vision/evening.hpp"
#include "vision/pipeline.hpp"
#include "vision/render.hpp"

namespace duels::vision {
namespace {

CoverageScenario camera_720p() {
  for (CoverageScenario sc : standard_coverage_scenarios(BaseTargetKind::kRing2)) {
    if (sc.name.find("720p 70deg") != std::string::npos) return sc;
  }
  ADD_FAILURE() << "no 720p 70deg scenario";
  return {};
}

// A small table for the scripted scenes below: three ring bases standing apart, figures on them,
// no dice yet.
SceneSpec three_bases() {
  CoverageScenario sc = camera_720p();
  sc.bases = 3;
  sc.packed = 0;
  sc.frames = 40;
  SceneSpec s = coverage_scene(sc, 3);
  s.duration_s = 4;
  return s;
}

// Dice that hide a base's code: six on its top, all round the ring, from `on_s`.
void cover_code(SceneBaseSpec& base, double on_s, cv::RNG& rng) {
  SceneBaseSpec fresh = base;
  fresh.dice.clear();
  put_dice_on(fresh, 6, rng);
  for (DieSpec d : fresh.dice) {
    d.t_on_s = on_s;
    base.dice.push_back(d);
  }
}

struct Played {
  int wrong = 0;       // a name reported (seen) more than 1" from its base, frames
  int named_last = 0;  // bases named at their place at the last frame
};

// Renders the scene frame by frame through the pipeline, telling it `spots` from `spots_from_s`
// on (none before; never when empty).
Played play(const SceneSpec& spec, const std::vector<MatchSpot>& spots, double spots_from_s = 0) {
  SceneRenderer renderer(spec);
  RingIdentityOptions rings;
  rings.table_markers_in = table_markers_of(scene_corner_markers(spec));
  Pipeline pipeline(plane_from_scene(spec), base_map_from_scene(spec), {}, {}, {}, rings);
  Played run;
  const int frames = spec.frame_count();
  for (int f = 0; f < frames; ++f) {
    FrameTruth truth;
    const cv::Mat frame = degrade(renderer.render(f, &truth), typical_webcam(), f);
    const double t = f / spec.fps;
    if (!spots.empty() && t >= spots_from_s - 1e-9) pipeline.set_match_spots(spots);
    const PipelineResult r = pipeline.process(frame, f, t);
    run.named_last = 0;
    for (const TrackedBase& b : r.state.bases) {
      for (const BaseTruth& x : truth.bases) {
        if (x.marker_id != b.marker_id) continue;
        const bool there = cv::norm(b.centre_in - x.centre_in) <= 1.0;
        if (!b.stale() && !there) ++run.wrong;
        if (!b.stale() && there && f == frames - 1) ++run.named_last;
      }
    }
  }
  return run;
}

std::vector<MatchSpot> spots_of(const SceneSpec& spec) {
  std::vector<MatchSpot> out;
  for (const auto& b : spec.bases)
    out.push_back({b.figure.empty() ? b.id : b.figure, base_pose_at(b, 0).centre_in});
  return out;
}

// Six dice round each ring from the first frame: the camera alone cannot read the codes (and
// must not guess them); told where the match has the figures, it names every base at its place.
TEST(Evening, ARingWhereTheMatchHasAFigureKeepsItsNameUnderDice) {
  SceneSpec spec = three_bases();
  cv::RNG rng(5);
  for (auto& b : spec.bases)
    cover_code(b, 0, rng);
  const Played alone = play(spec, {});
  EXPECT_EQ(alone.wrong, 0);
  const Played remembered = play(spec, spots_of(spec));
  EXPECT_EQ(remembered.wrong, 0);
  EXPECT_EQ(remembered.named_last, 3);
  EXPECT_GT(remembered.named_last, alone.named_last) << "the camera alone named them too: the "
                                                        "dice did not hide the codes";
}

// A figure whose code is hidden under its dice is moved 6" and the match is not told yet (the
// player has not confirmed the move): its spot is empty, every other spot holds its ring, and the
// one ring standing elsewhere is that figure's.
TEST(Evening, AMovedFigureIsNamedByTheSpotItLeft) {
  SceneSpec spec = three_bases();
  cv::RNG rng(6);
  for (auto& b : spec.bases)
    cover_code(b, 0, rng);
  const std::vector<MatchSpot> spots = spots_of(spec);
  SceneBaseSpec& mover = spec.bases.front();
  const Keyframe from = mover.path.front();
  // 6" away, in the direction with the most room (the table's middle).
  cv::Point2d dir = cv::Point2d(30, 30) - cv::Point2d(from.x_in, from.y_in);
  dir /= cv::norm(dir);
  mover.path.push_back({1.0, from.x_in, from.y_in, from.angle_deg});
  mover.path.push_back({1.6, from.x_in + 6 * dir.x, from.y_in + 6 * dir.y, from.angle_deg});
  const Played r = play(spec, spots);
  EXPECT_EQ(r.wrong, 0);
  EXPECT_EQ(r.named_last, 3);
}

// An evening on a table of the bench: bases placed, 3-6 dice put on every base at each round's
// start with a hand sweeping over the table, figures of a real one's shape moved one at a time
// under a hand, dice taken off as they are rolled (`duels bench evening --seeds 1 --rounds 1
// --moves 3 --no-lamp`; the lamp's whole-picture repaints make it slow for a unit test).
TEST(Evening, AScriptedEveningShowsNoNameAtAWrongPlace) {
  EveningScenario ev;
  ev.table = camera_720p();
  ev.table.seeds = 1;
  ev.table.first_seed = 1;
  ev.table.dice_min = 3;
  ev.table.dice_max = 6;
  ev.table.posed = true;
  ev.rounds = 1;
  ev.moves_per_round = 3;
  const EveningResult r = run_evening(ev);
  std::printf(
      "evening, table 1: right %.2f %% (%.2f %% of the bases in sight), worst frame %.1f "
      "%%, wrong %ld, false rings %ld\n",
      100 * r.right_share(), 100 * r.right_in_sight_share(), 100 * r.worst_frame, r.wrong,
      r.false_rings);
  EXPECT_EQ(r.wrong, 0);
  EXPECT_EQ(r.false_rings, 0);
  EXPECT_EQ(r.moves, 3);
  // Measured: 98.2 % right, 95.8 % of the bases in sight (the goal, 99 %, is not reached: a base
  // whose rim its dice cover is not found after it is moved, and one hidden in a packed group is
  // named late).
  EXPECT_GE(r.right_share(), 0.97);
  EXPECT_GE(r.right_in_sight_share(), 0.95);
}

}  // namespace
}  // namespace duels::vision
