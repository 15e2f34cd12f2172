// The live renderer (the demo camera) against the exact renderer: same pictures without noise,
// only what changed repainted, and noise of the right strength.
#include <gtest/gtest.h>

#include <opencv2/core.hpp>

#include <memory>
#include <string>

#include "test_paths.hpp"
#include "vision/render.hpp"
#include "vision/scene.hpp"

namespace duels::vision {
namespace {

SceneSpec demo_scene(double noise, int supersample) {
  SceneSpec s = load_named_scene("demo", duels_test::source_dir() + "/assets");
  s.look.noise_sigma = noise;
  s.look.supersample = supersample;
  // A smaller picture keeps the test quick; the scene's motion is unchanged.
  s.camera.image_size = cv::Size(640, 360);
  s.camera.camera_matrix(0, 0) /= 3;
  s.camera.camera_matrix(1, 1) /= 3;
  s.camera.camera_matrix(0, 2) /= 3;
  s.camera.camera_matrix(1, 2) /= 3;
  return s;
}

double max_difference(const cv::Mat& a, const cv::Mat& b) {
  double worst = 0;
  cv::Mat d;
  cv::absdiff(a, b, d);
  cv::minMaxLoc(d.reshape(1), nullptr, &worst);
  return worst;
}

// Frames through the demo's whole script: still, a base walking and turning, a hand sweeping,
// the scene looping back to its start, and a jump out of order.
const std::int64_t kFrames[] = {0,  1,  2,  19, 20, 21,  25, 30, 41, 50, 51,
                                55, 60, 61, 70, 71, 119, 0,  1,  64, 3};

void expect_same_as_exact(int supersample) {
  auto scene = std::make_shared<const SceneRenderer>(demo_scene(0, supersample));
  LiveRenderer live(scene);
  for (std::int64_t i : kFrames) {
    FrameTruth exact_truth;
    FrameTruth live_truth;
    const cv::Mat exact = scene->render(i, &exact_truth);
    const cv::Mat fast = live.render(i, &live_truth);
    ASSERT_EQ(exact.size(), fast.size());
    ASSERT_EQ(exact.type(), fast.type());
    EXPECT_EQ(max_difference(exact, fast), 0) << "frame " << i;
    ASSERT_EQ(exact_truth.bases.size(), live_truth.bases.size());
    EXPECT_EQ(exact_truth.bases[0].centre_in, live_truth.bases[0].centre_in);
  }
}

TEST(LiveRenderer, SamePicturesAsTheExactRendererWithoutNoise) {
  expect_same_as_exact(1);
}

TEST(LiveRenderer, SamePicturesWhenSupersampled) {
  expect_same_as_exact(2);
}

TEST(LiveRenderer, RepaintsOnlyWhatChanged) {
  auto scene = std::make_shared<const SceneRenderer>(demo_scene(0, 1));
  LiveRenderer live(scene);
  (void)live.render(0);
  EXPECT_EQ(live.last_dirty_share(), 1);
  (void)live.render(1);  // both bases stand still for the first two seconds
  EXPECT_EQ(live.last_dirty_share(), 0);
  (void)live.render(25);  // Razor walks: its base and figure, not the table
  EXPECT_GT(live.last_dirty_share(), 0);
  EXPECT_LT(live.last_dirty_share(), 0.2);
  (void)live.render(26);
  EXPECT_GT(live.last_dirty_share(), 0);
  EXPECT_LT(live.last_dirty_share(), 0.2);
}

TEST(LiveRenderer, NoiseOfTheScenesStrengthChangingEveryFrame) {
  auto noisy = std::make_shared<const SceneRenderer>(demo_scene(2.0, 1));
  auto clean = std::make_shared<const SceneRenderer>(demo_scene(0, 1));
  LiveRenderer live(noisy);
  const cv::Mat a = live.render(0);
  const cv::Mat b = live.render(1);
  const cv::Mat truth = clean->render(0);
  cv::Mat da;
  cv::Mat db;
  a.convertTo(da, CV_32F);
  truth.convertTo(db, CV_32F);
  cv::Scalar mean;
  cv::Scalar sd;
  const cv::Mat delta = da - db;
  cv::meanStdDev(delta.reshape(1), mean, sd);
  EXPECT_NEAR(mean[0], 0, 0.3);
  EXPECT_NEAR(sd[0], 2.0, 0.3);  // the scene's noise: 2 grey levels
  EXPECT_GT(max_difference(a, b), 0) << "the noise must change between frames";
}

}  // namespace
}  // namespace duels::vision
