// Live calibration driven by synthetic video: the board moves between poses and pauses at each;
// captures happen only when it is still and the view adds something; guidance follows.
#include <gtest/gtest.h>

#include <opencv2/calib3d.hpp>

#include <cmath>

#include "calib/live.hpp"
#include "fixtures.hpp"

namespace duels::calib {
namespace {

using testing::chessboard_9x6;

Pose lerp(const Pose& a, const Pose& b, double t) {
  return {a.rvec * (1 - t) + b.rvec * t, a.tvec * (1 - t) + b.tvec * t};
}

// One frame of the synthetic video: which pose, and whether the board is pausing.
struct VideoFrame {
  Pose pose;
  bool still = false;
  int still_index = 0;  // frames since the pause began
};

std::vector<VideoFrame> script(const std::vector<Pose>& poses, int move_frames, int still_frames) {
  std::vector<VideoFrame> frames;
  for (std::size_t i = 0; i < poses.size(); ++i) {
    if (i > 0) {
      for (int k = 1; k <= move_frames; ++k) {
        frames.push_back(
            {lerp(poses[i - 1], poses[i], static_cast<double>(k) / (move_frames + 1)), false, 0});
      }
    }
    for (int k = 0; k < still_frames; ++k)
      frames.push_back({poses[i], true, k});
  }
  return frames;
}

LiveOptions quick_options() {
  LiveOptions o;
  o.still_frames = 4;
  return o;
}

// A whole synthetic video and the calibrator's answer to each frame.
struct VideoRun {
  std::vector<LiveStatus> statuses;
  std::vector<VideoFrame> frames;
};

// Renders and feeds a 640x360 video of 24 pauses (4 moving frames, 6 still frames each).
const VideoRun& video_run() {
  static const VideoRun run = [] {
    VideoRun r;
    const Intrinsics cam = testing::webcam_640();
    const SyntheticCamera synth(cam, 1);  // no supersampling: the logic is under test here
    const auto tex = board_texture(chessboard_9x6(), 2.0);
    r.frames = script(calibration_poses(cam, chessboard_9x6(), 24, 31), 4, 6);
    LiveCalibrator live(cam.image_size, quick_options());
    for (std::size_t i = 0; i < r.frames.size(); ++i) {
      const cv::Mat frame = synth.render(tex, r.frames[i].pose, {0.5, 2.0, 1000 + i});
      r.statuses.push_back(feed_frame(live, frame, chessboard_9x6()));
      if (live.status().done) break;
    }
    return r;
  }();
  return run;
}

TEST(LiveVideo, CapturesOnlyWhenTheBoardIsStill) {
  const VideoRun& run = video_run();
  int captures = 0;
  for (std::size_t i = 0; i < run.statuses.size(); ++i) {
    if (run.statuses[i].phase == LivePhase::kCaptured ||
        (run.statuses[i].phase == LivePhase::kDone && !run.statuses[i].event.empty())) {
      ++captures;
      EXPECT_TRUE(run.frames[i].still) << "frame " << i;
      EXPECT_GE(run.frames[i].still_index, quick_options().still_frames - 1) << "frame " << i;
    }
  }
  EXPECT_GE(captures, quick_options().min_views);
}

TEST(LiveVideo, StopsWhenTheStdDeviationsAreSmallAndTheResultIsRight) {
  const LiveStatus& last = video_run().statuses.back();
  ASSERT_TRUE(last.done) << "views " << last.views_accepted << " hint: " << last.hint;
  ASSERT_TRUE(last.calibration);
  for (double s : last.std_relative)
    EXPECT_LE(s, quick_options().std_limit);
  const Intrinsics truth = testing::webcam_640();
  EXPECT_LT(std::abs(last.calibration->intrinsics.fx() / truth.fx() - 1), 0.01);
  EXPECT_LT(std::abs(last.calibration->intrinsics.cy() / truth.cy() - 1), 0.01);
  EXPECT_DOUBLE_EQ(last.progress, 1.0);
  EXPECT_NE(last.hint.find("done"), std::string::npos);
  std::printf("live: done after %zu frames, %d views, rms %.3f px, fx %.2f (truth %.2f)\n",
              video_run().statuses.size(), last.views_accepted, last.calibration->rms_px,
              last.calibration->intrinsics.fx(), truth.fx());
}

TEST(LiveVideo, CoverageAndTiltsGrowAndProgressRises) {
  const auto& st = video_run().statuses;
  EXPECT_GE(st.back().coverage.covered_fraction(), quick_options().min_coverage);
  int tilts_seen = 0;
  for (int n : st.back().tilts)
    tilts_seen += n > 0 ? 1 : 0;
  EXPECT_GE(tilts_seen, 3);
  double last_progress = 0;
  double last_coverage = 0;
  for (const auto& s : st) {
    EXPECT_GE(s.coverage.covered_fraction() + 1e-12, last_coverage);
    last_coverage = s.coverage.covered_fraction();
    EXPECT_GE(s.progress, 0.0);
    EXPECT_LE(s.progress, 1.0);
    last_progress = s.progress;
  }
  EXPECT_EQ(last_progress, 1.0);
}

TEST(LiveVideo, EveryFrameHasAHint) {
  bool said_hold = false;
  bool said_captured = false;
  for (const auto& s : video_run().statuses) {
    EXPECT_FALSE(s.hint.empty());
    said_hold = said_hold || s.hint == "hold the board still";
    said_captured = said_captured || s.hint.rfind("captured; now ", 0) == 0;
  }
  EXPECT_TRUE(said_hold);
  EXPECT_TRUE(said_captured);
}

// From here on, views are fed directly (exact projections): no rendering needed.
std::optional<BoardView> view_at(const Pose& pose, double noise, cv::RNG& rng) {
  BoardView v = project_board(testing::webcam_640(), chessboard_9x6(), pose);
  jitter_corners(v, noise, rng);
  return v;
}

TEST(LiveCalibrator, NoBoardAsksForTheBoard) {
  LiveCalibrator live({640, 360});
  const LiveStatus& s = live.feed(std::nullopt);
  EXPECT_EQ(s.phase, LivePhase::kNoBoard);
  EXPECT_EQ(s.hint, "show the whole board to the camera");
  EXPECT_EQ(s.views_accepted, 0);
  EXPECT_EQ(s.coverage.corners.size(), 48u);
}

TEST(LiveCalibrator, AMovingBoardIsNeverCaptured) {
  LiveCalibrator live({640, 360}, quick_options());
  const auto poses = calibration_poses(testing::webcam_640(), chessboard_9x6(), 6, 4);
  cv::RNG rng(1);
  for (const auto& f : script(poses, 10, 1)) {  // never more than one frame at a pose
    live.feed(view_at(f.pose, 0.05, rng));
    EXPECT_NE(live.status().phase, LivePhase::kCaptured);
  }
  EXPECT_EQ(live.status().views_accepted, 0);
}

TEST(LiveCalibrator, SameViewTwiceIsNotCapturedTwice) {
  LiveCalibrator live({640, 360}, quick_options());
  const auto poses = calibration_poses(testing::webcam_640(), chessboard_9x6(), 2, 8);
  cv::RNG rng(2);
  // pose 0 (still), pose 1 (still), back to pose 0 (still).
  for (const auto& f : script({poses[0], poses[1], poses[0]}, 3, 6)) {
    live.feed(view_at(f.pose, 0.02, rng));
  }
  EXPECT_EQ(live.status().views_accepted, 2);
  EXPECT_EQ(live.status().phase, LivePhase::kNothingNew);
  EXPECT_EQ(live.status().hint.rfind("nothing new here; ", 0), 0u) << live.status().hint;
}

TEST(LiveCalibrator, HintPointsAtTheEmptyCorner) {
  LiveCalibrator live({640, 360}, quick_options());
  // A small board held in the bottom-right quarter only.
  const Intrinsics cam = testing::webcam_640();
  cv::RNG rng(3);
  Pose pose;
  pose.rvec = cv::Vec3d(0, 0, 0);
  pose.tvec = cv::Vec3d(10, 40, 900);
  for (int k = 0; k < 6; ++k)
    live.feed(view_at(pose, 0.02, rng));
  ASSERT_EQ(live.status().views_accepted, 1);
  EXPECT_NE(live.status().hint.find("top-left corner"), std::string::npos) << live.status().hint;
  (void)cam;
}

TEST(LiveCalibrator, TiltIsClassifiedFromThePose) {
  LiveCalibrator live({640, 360}, quick_options());
  cv::RNG rng(4);
  Pose pose;
  pose.tvec = cv::Vec3d(-100, -60, 600);
  // Rotating +35 degrees about the camera's y axis brings the board's right side closer.
  pose.rvec = cv::Vec3d(0, 35 * CV_PI / 180, 0);
  live.feed(view_at(pose, 0.02, rng));
  ASSERT_TRUE(live.status().current_tilt);
  EXPECT_EQ(*live.status().current_tilt, Tilt::kRightCloser);
  // +35 degrees about x lifts the board's bottom edge away: its top edge comes closer.
  pose.rvec = cv::Vec3d(35 * CV_PI / 180, 0, 0);
  live.feed(view_at(pose, 0.02, rng));
  EXPECT_EQ(*live.status().current_tilt, Tilt::kTopCloser);
  pose.rvec = cv::Vec3d(-35 * CV_PI / 180, 0, 0);
  live.feed(view_at(pose, 0.02, rng));
  EXPECT_EQ(*live.status().current_tilt, Tilt::kBottomCloser);
  pose.rvec = cv::Vec3d(0.05, -0.05, 0.3);
  live.feed(view_at(pose, 0.02, rng));
  EXPECT_EQ(*live.status().current_tilt, Tilt::kFacing);
}

TEST(LiveCalibrator, BadViewIsDroppedAndReported) {
  LiveOptions o = quick_options();
  o.min_views = 6;
  o.min_new_cells = 1;
  LiveCalibrator live({640, 360}, o);
  const auto poses = calibration_poses(testing::webcam_640(), chessboard_9x6(), 12, 12);
  cv::RNG rng(5);
  std::string events;
  for (std::size_t i = 0; i < poses.size(); ++i) {
    // View 2 is a misdetected board: its corners are 2.5 px off, the same in every frame.
    auto v = view_at(poses[i], 0.02, rng);
    if (i == 2) jitter_corners(*v, 2.5, rng);
    for (int k = 0; k < 5; ++k)
      events += live.feed(v).event + "\n";
  }
  EXPECT_NE(events.find("dropped"), std::string::npos) << events;
  for (const auto& view : live.views())
    EXPECT_NE(view.name, "frame 15");  // view 2's capture
}

}  // namespace
}  // namespace duels::calib
