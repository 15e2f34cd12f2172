#pragma once
/// @file The whole per-frame vision pipeline in marker mode: detect markers → locate bases on
/// the table → track → measure. Plus the glue that gets its inputs: the base map and table
/// plane of a synthetic scene, and the table plane of a calibration file.

#include <opencv2/core.hpp>

#include <array>
#include <optional>
#include <string>
#include <vector>

#include "calib/table.hpp"
#include "common/error.hpp"
#include "vision/markers.hpp"
#include "vision/naming.hpp"
#include "vision/ring.hpp"
#include "vision/scene.hpp"
#include "vision/tracker.hpp"

namespace duels::calib {
struct CameraFile;
}

namespace duels::vision {

/// The second look for small markers: far from the camera a marker is a few pixels per cell
/// and the first pass over the whole frame can miss it. Bases the map knows but the first pass
/// did not find get another look, enlarged: where a tracked base was last seen (every frame),
/// and over the whole band of the picture where markers are small (every `discovery_every`
/// frames, for bases not yet seen).
struct SecondLookOptions {
  bool enabled = true;
  double small_marker_px = 24;  ///< markers whose projected side is below this count as small
  double upscale = 1.5;         ///< enlargement of the second look (1.5 read the most in tests)
  int discovery_every = 10;     ///< frames between looks over the whole small-marker band
};

/// One frame through the pipeline: the raw detections (for drawing/debugging) and the state.
struct PipelineResult {
  std::vector<Detection> detections;
  std::vector<BaseObservation> observations;
  TableState state;
  int second_looks = 0;             ///< regions looked at again this frame
  int found_on_second = 0;          ///< markers only the second look found
  std::vector<RingSighting> rings;  ///< rings seen this frame (named or not yet)
};

/// How rings earn their identity: codes are read every frame and, while a ring stands still,
/// added up over frames; every frame the rings of one size are named together (each code in
/// play to at most one ring, the most evidence in total), and a ring is named only when every
/// other choice would cost clearly less evidence; a ring keeps the identity it earned while it
/// is tracked (it may then move, turn or be hidden briefly).
struct RingIdentityOptions {
  double min_score = 0.7;           ///< agreement of the accumulated code with its code
  double min_sectors = 1.0;         ///< evidence for it, in clearly seen cells a frame
  double min_margin_sectors = 0.5;  ///< the best naming beats every other (another code
                                    ///< for this ring, or none) by this much evidence
  double seen_once_margin = 1.5;    ///< a ring fitted loosely in the one frame it was seen
                                    ///< is named then only by this margin (else when seen
                                    ///< again)
  double min_black_cells = 0.25;    ///< a ring whose readings hold less black (cells a frame,
                                    ///< ring_black_cells) is not reported unnamed
  /// Issue 51's rules, against what covers the print in play (dice, figures of a real shape, a
  /// lamp's shadows); each can be turned off to measure what it does:
  double margin_over_against = 1.0;     ///< the margin must also reach this many times the
                                        ///< evidence against the ring's own code
  bool exclusion_needs_tight = true;    ///< a ring named only by exclusion has fitted tightly
  bool unnamed_needs_tight_run = true;  ///< an unnamed ring is reported once it has fitted
                                        ///< tightly and been seen settled_frames in a row
  double keep_sectors = 1.0;            ///< a named ring's bonus for keeping its name
  double still_in = 0.15;               ///< a ring within this of its last place is standing still
  double follow_in = 1.5;               ///< a ring within this of a tracked one is the same ring
  int settled_frames = 3;               ///< a ring seen standing still this many frames, and
  double settled_hold_s = 1.0;          ///< seen within this long, keeps its place: a ring fitted
  double jump_in = 0.5;                 ///< over it, farther than this from it, is not believed
  double forget_s = 3.0;                ///< a ring not seen for this long is forgotten
  bool skip_corner_markers = true;      ///< no ring is looked for on the table's corner markers
  /// The table's own markers where the calibration put them (corners in table inches, on the
  /// table; see table_markers_from_calibration): no ring is looked for on them either, even
  /// where the camera sees one only in part and cannot find it.
  std::vector<std::array<cv::Point2d, 4>> table_markers_in;
  /// A ring within this of a match spot (Pipeline::set_match_spots) stands where the match has
  /// that figure (the window's move proposals take a base settled farther than 0.5" from its
  /// journaled spot as moved, overlay/move_proposal.hpp).
  double match_spot_in = 0.5;
  int search_every = 5;  ///< frames between searches of the whole table for rings (between
                         ///< them the rings followed and the last search's candidates are
                         ///< measured at their places)
};

/// Detector, base map, table plane and tracker together. Frames must have the calibration's
/// resolution (a DataException says so otherwise).
class Pipeline {
 public:
  Pipeline(calib::TablePlane plane, BaseMap map, DetectorOptions detector = {},
           TrackerOptions tracker = {}, SecondLookOptions second = {},
           RingIdentityOptions rings = {});
  PipelineResult process(const cv::Mat& image, std::int64_t frame, double time_s);
  /// The player names a ring the camera cannot name (its code hidden, or not the one in the
  /// map): the ring seen where `near_in` points (its centre within the ring's radius of the
  /// point, table inches) from the next frame it is seen in, or, when the point is rougher, the
  /// ring seen nearest it within 3" once the name has waited a second, is reported as `figure`'s
  /// base while it is followed (moving, turning, hidden up to RingIdentityOptions::forget_s),
  /// whatever its code reads; a ring named so by its code gives the name up. Lost for longer, the
  /// name comes back to a ring that shows again within an inch of where it was last seen and that
  /// its code does not name (a base under a hand for a while), until the figure's code is read on
  /// another ring or the player names again. Gives the figure's marker id, or why not: a figure not
  /// in the map, or whose base carries a square marker (named by the marker itself).
  Expected<int, std::string> name_near(cv::Point2d near_in, const std::string& figure);
  /// Where the match has its figures' bases (all of them, replacing the last call's; empty: no
  /// match). A ring seen within match_spot_in of a figure's spot is that figure's base from then
  /// on while it is followed, as if the player had named it, whatever its code reads (dice lie
  /// on it every round). Since one figure moves at a time, when every spot the camera has seen
  /// held but one holds its ring in a frame, the one ring seen off every spot (settled, fitted
  /// tightly, proven a base, come after the spot emptied) is the missing figure's, moved: it is
  /// named so unless its code reads clearly against that figure's. A ring off every spot is
  /// named by its code only when it reads its code better than every code the match placed, and
  /// reported unnamed only while it may be a figure (a spot emptied before it came, a spot never
  /// seen held, or a figure of the match the map lacks). A base unseen longer than the tracker
  /// keeps it stays occluded, not lost, where the match has it. Names the player gives
  /// (name_near) come first; figures on square-marker bases are left to their markers.
  void set_match_spots(const std::vector<MatchSpot>& spots);
  /// The names given by name_near that no ring has taken yet, in the order given.
  [[nodiscard]] std::vector<WaitingName> waiting_names() const;
  [[nodiscard]] const calib::TablePlane& plane() const { return plane_; }
  [[nodiscard]] const BaseMap& map() const { return map_; }
  /// The part of the picture where the map's smallest marker is small (empty when none is).
  [[nodiscard]] cv::Rect small_marker_band() const { return band_; }

 private:
  std::vector<cv::Rect> second_look_regions(const std::vector<Detection>& found,
                                            std::int64_t frame) const;
  std::vector<BaseObservation> ring_observations(const cv::Mat& gray, double time_s,
                                                 std::vector<RingSighting>& seen,
                                                 std::vector<UnnamedBase>& unnamed);
  void name_rings(std::size_t finder, const std::vector<char>& updated);
  // The one nameless ring among `rows` (the rings of `finder` seen this frame, `agree` their
  // agreement with each of its codes) named with the one code no ring holds, when that is
  // safe (see the definition).
  void name_by_elimination(std::size_t finder, const std::vector<std::size_t>& rows,
                           const std::vector<std::vector<RingAgreement>>& agree,
                           const std::vector<char>& updated);

  struct RingTrack {
    std::size_t finder = 0;
    cv::Point2d centre;
    std::vector<float> code_sum;  // Σ weight·sample while standing still
    std::vector<float> weight_sum;
    int id = -1;
    double score = 0;
    double facing_deg = 0;
    double last_seen_s = 0;
    double first_seen_s = 0;       // when it was first fitted (the track began)
    int frames = 0;                // while standing still
    int tight_frames = 0;          // of those, the frames its rim passed the tight fit
    int whole_frames = 0;          // of those, the frames its rim held kLooseRimRays points or more
    int in_a_row = 0;              // frames it was seen in, one after another, up to its last
    bool loose_now = false;        // its rim passed only the loose fit in the last frame
    std::int64_t last_frame = -2;  // the frame (processed_) it was last seen in
    bool pinned = false;           // named by the player (name_near) or the match (a ring on a
                                   // match spot, or the moved figure): its code does not rename it
    bool by_match = false;         // pinned by the match, not the player
    bool beside_marker = false;    // first fitted beside a corner marker: reported once named,
                                   // by seen_once_margin
  };
  struct PendingName {
    cv::Point2d near_in;
    int marker_id = -1;
    std::optional<double> since_s;  // the first frame it waited at
  };
  // A name the player gave goes to the ring seen where it points (its centre within the ring's
  // radius of the point) at once, otherwise, once it has waited, to the ring seen nearest the
  // point within reach (vision/naming.hpp).
  void apply_pending_names(const std::vector<char>& updated, double time_s);
  // A ring the player named that the camera lost for longer than forget_s: where it was last
  // seen, so that the name comes back when it shows there again (a hand held over it, a figure
  // leaning across it) unnamed by its code.
  struct RememberedName {
    cv::Point2d at;
    int marker_id = -1;
    std::size_t finder = 0;
  };
  void recall_names(const std::vector<char>& updated);
  // The match's memory (set_match_spots): rings on spots take their figures' names, then the one
  // ring seen off every spot while one spot is empty takes that spot's figure's.
  struct Spot {
    cv::Point2d at;
    int marker_id = -1;
    std::size_t finder = 0;
    double last_held_s = -1e300;  // the last frame a ring of it was seen (on it, or named so)
    bool empty = false;           // held before, and not this frame
  };
  // Whether an unnamed ring may be reported: without a match always; in one, only while it may
  // be a figure moved (see the definition).
  [[nodiscard]] bool may_be_moved(const RingTrack& t) const;
  // Whether a ring stands (or would, at `at`) farther than match_spot_in from its name's spot in
  // the match.
  [[nodiscard]] bool off_its_spot(const RingTrack& t,
                                  std::optional<cv::Point2d> at = std::nullopt) const;
  // The finder whose codes hold `marker_id` (its ring's size and style); ring_codes_.size()
  // when none does.
  [[nodiscard]] std::size_t finder_of(int marker_id) const;
  // Whether the player named a ring `marker_id`'s base (name_near): that stands over the match.
  [[nodiscard]] bool named_by_player(int marker_id) const;
  // No ring carries `marker_id`'s name any more (it is about to go to another).
  void drop_name(int marker_id);
  void apply_match_spots(const std::vector<char>& updated);
  void name_moved_figure(const std::vector<char>& updated, double time_s);
  // The ring track of `finder` seen this frame (`updated`) nearest `at`, closer than
  // `within_in` (and unnamed, when `unnamed_only`); ring_tracks_.size() when there is none.
  [[nodiscard]] std::size_t nearest_seen_ring(std::size_t finder, cv::Point2d at, double within_in,
                                              const std::vector<char>& updated,
                                              bool unnamed_only) const;
  // Names a ring track as the player said: its code does not rename it.
  static void pin(RingTrack& t, int marker_id);

  calib::TablePlane plane_;
  BaseMap map_;
  MarkerDetector detector_;
  Tracker tracker_;
  SecondLookOptions second_;
  cv::Rect band_;
  std::vector<TrackedBase> last_;  ///< the previous frame's bases
  RingIdentityOptions ring_options_;
  std::vector<RingFinder> ring_finders_;      ///< one per base size carrying rings
  std::vector<std::vector<int>> ring_codes_;  ///< the codes in play, per finder
  std::vector<RingTrack> ring_tracks_;
  std::vector<PendingName> pending_names_;  ///< names the player gave, for rings not yet seen
  std::vector<RememberedName> remembered_names_;
  std::vector<Spot> spots_;       ///< the match's spots of ring bases (set_match_spots)
  bool foreign_figures_ = false;  ///< the match has figures the base map lacks
  bool in_match_ = false;         ///< set_match_spots was given a match's figures
  /// Per finder, where no ring is looked for (vision/markers.hpp's marker_keep_out, at its
  /// tops' height): round the table markers of the options (`known_keep_out_`, fixed) and the
  /// table's corner markers (ids 0-3) as last seen, whose black and white corners look like
  /// pieces of a rim. Those are looked for every `kCornerEvery` frames (they do not move).
  std::vector<std::vector<std::vector<cv::Point2f>>> known_keep_out_;
  std::vector<std::vector<std::vector<cv::Point2f>>> ring_keep_out_;
  static constexpr int kCornerEvery = 50;
  bool any_square_ = false;
  cv::Mat chroma_;  ///< the frame's colour (ring_chroma), for the rings' code reading
  std::int64_t processed_ = 0;
};

/// The base map of a synthetic scene (its bases' markers, sizes and offsets).
BaseMap base_map_from_scene(const SceneSpec& scene);
/// The exact table plane of a synthetic scene's camera.
calib::TablePlane plane_from_scene(const SceneSpec& scene);
/// The table plane stored in a calibration file. Throws DataException when the file has no
/// table registration.
calib::TablePlane plane_from_calibration(const std::string& path);
/// The same from a calibration file already read (`path` names it in the error).
calib::TablePlane plane_from_calibration(const calib::CameraFile& file, const std::string& path);
/// The table markers a calibration file's table registration was solved from (the corners of
/// each marker, table inches), for RingIdentityOptions::table_markers_in. Empty when the table
/// was registered otherwise (a board) or the file has no registration.
std::vector<std::array<cv::Point2d, 4>> table_markers_from_calibration(const std::string& path);
/// The same from a calibration file already read.
std::vector<std::array<cv::Point2d, 4>> table_markers_from_calibration(
    const calib::CameraFile& file);
/// The table markers of a marker layout (its squares' corners, table inches).
std::vector<std::array<cv::Point2d, 4>> table_markers_of(const calib::MarkerLayout& layout);

}  // namespace duels::vision
