// Frame sources: folders (decode failures skipped and counted, loop), videos (end, loop),
// source specifications, and a camera that is not there (retry, never fatal).
#include <gtest/gtest.h>

#include <opencv2/imgcodecs.hpp>

#include <filesystem>
#include <fstream>

#include "common/error.hpp"
#include "vision/source.hpp"

namespace duels::vision {
namespace {

namespace fs = std::filesystem;

fs::path fresh_dir(const std::string& name) {
  const fs::path dir =
      fs::temp_directory_path() / ("duels_vision_" + name + "_" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir;
}

TEST(Source, FolderSkipsAndCountsUndecodableFiles) {
  const fs::path dir = fresh_dir("folder");
  for (int i = 0; i < 3; ++i) {
    cv::imwrite((dir / ("f" + std::to_string(i * 2) + ".png")).string(),
                cv::Mat(8, 8, CV_8UC3, cv::Scalar::all(40 * i)));
  }
  std::ofstream(dir / "f1.png") << "not a png";
  auto source = open_folder(dir.string(), {});
  Frame f;
  int frames = 0;
  double last_t = -1;
  while (source->read(f) == ReadStatus::kFrame) {
    EXPECT_GT(f.time_s, last_t);
    last_t = f.time_s;
    ++frames;
  }
  EXPECT_EQ(frames, 3);
  EXPECT_EQ(source->stats().decode_failures, 1);
  EXPECT_NE(source->stats().last_problem.find("f1.png"), std::string::npos);
}

// A folder where not one file decodes is a mistake to report, not "0 frames, done".
TEST(Source, FolderWithNothingDecodableIsADataError) {
  const fs::path dir = fresh_dir("undecodable");
  std::ofstream(dir / "a.png") << "not a png";
  std::ofstream(dir / "b.jpg") << "\xff\xd8 not a jpeg either";
  auto source = open_folder(dir.string(), {});
  Frame f;
  try {
    source->read(f);
    FAIL() << "no error for a folder without one decodable image";
  } catch (const DataException& e) {
    const std::string msg = e.what();
    EXPECT_NE(msg.find("none of its 2 image files could be read"), std::string::npos) << msg;
  }
}

TEST(Source, FolderLoopsWhenAsked) {
  const fs::path dir = fresh_dir("loop");
  cv::imwrite((dir / "a.png").string(), cv::Mat(8, 8, CV_8UC1, cv::Scalar(1)));
  SourceOptions o;
  o.loop = true;
  auto source = open_folder(dir.string(), o);
  Frame f;
  for (int i = 0; i < 5; ++i)
    ASSERT_EQ(source->read(f), ReadStatus::kFrame);
  EXPECT_EQ(source->stats().loops, 4);
  EXPECT_EQ(f.index, 4);
}

TEST(Source, MissingFolderOrVideoIsADataError) {
  EXPECT_THROW(open_folder("/nonexistent/duels", {}), DataException);
  EXPECT_THROW(open_video("/nonexistent/duels.mkv", {}), DataException);
  const fs::path dir = fresh_dir("bad_video");
  std::ofstream(dir / "x.mkv") << "garbage";
  EXPECT_THROW(open_video((dir / "x.mkv").string(), {}), DataException);
}

TEST(Source, VideoEndsOrLoops) {
  const fs::path dir = fresh_dir("video");
  const std::string path = (dir / "clip.avi").string();
  {
    FrameSink sink(path, 10);
    for (int i = 0; i < 4; ++i)
      sink.write(cv::Mat(64, 64, CV_8UC3, cv::Scalar::all(50 * i)));
  }
  {
    auto source = open_video(path, {});
    Frame f;
    int n = 0;
    while (source->read(f) == ReadStatus::kFrame) {
      EXPECT_NEAR(f.time_s, n / 10.0, 1e-6);
      ++n;
    }
    EXPECT_EQ(n, 4);
  }
  SourceOptions o;
  o.loop = true;
  auto source = open_video(path, o);
  Frame f;
  for (int i = 0; i < 10; ++i)
    ASSERT_EQ(source->read(f), ReadStatus::kFrame);
  EXPECT_EQ(source->stats().loops, 2);
  EXPECT_NEAR(f.time_s, 0.9, 1e-6);  // time keeps running across loops
}

TEST(Source, MissingCameraIsRetriedNotFatal) {
  SourceOptions o;
  o.retry_attempts = 2;
  o.retry_wait_s = 0.0;
  auto source = open_camera(97, o);
  Frame f;
  EXPECT_EQ(source->read(f), ReadStatus::kRetry);
  EXPECT_FALSE(source->stats().last_problem.empty());
  EXPECT_EQ(source->read(f), ReadStatus::kRetry);
  EXPECT_EQ(source->read(f), ReadStatus::kEnd);
  EXPECT_EQ(source->stats().reconnects, 1);
}

TEST(Source, SpecsAreParsed) {
  EXPECT_EQ(parse_source_spec("cam:2").kind, SourceKind::kCamera);
  EXPECT_EQ(parse_source_spec("cam:2").camera_index, 2);
  EXPECT_THROW(parse_source_spec("cam:x"), DataException);
  EXPECT_EQ(parse_source_spec("synthetic:demo").kind, SourceKind::kSynthetic);
  EXPECT_EQ(parse_source_spec("synthetic:demo").path, "demo");
  EXPECT_EQ(parse_source_spec("rtsp://host/stream").kind, SourceKind::kStream);
  EXPECT_EQ(parse_source_spec("/tmp").kind, SourceKind::kFolder);
  EXPECT_EQ(parse_source_spec("match.mkv").kind, SourceKind::kVideo);
}

TEST(Source, GeneratorStopsWhenItSaysSo) {
  auto source = open_generator("gen", [](std::int64_t i, Frame& f) {
    f.image = cv::Mat(2, 2, CV_8UC1);
    f.time_s = static_cast<double>(i);
    return i < 3;
  });
  Frame f;
  int n = 0;
  while (source->read(f) == ReadStatus::kFrame)
    ++n;
  EXPECT_EQ(n, 3);
}

}  // namespace
}  // namespace duels::vision
