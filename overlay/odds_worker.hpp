#pragma once
/// @file Exact odds worked out off the UI thread. Ranking every attack subset against every
/// dodge answer can take a good part of a second; the frame asks each time it draws and shows
/// "working out the odds" until the answer is there, so the window never waits.

#include <condition_variable>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "duels/odds.hpp"

namespace duels::overlay {

/// An advisor answer: ranked attack choices (each with the defender's best dodge), or the dodge
/// choices against a declared attack.
struct OddsAnswer {
  std::vector<Advice> attacks;
  std::vector<AdvisedDodge> dodges;
};

/// One worker thread with a one-slot queue (the newest question replaces a waiting one) and a
/// cache of answers by key. Built with `threaded = false` it answers at once (tests, benches).
class OddsWorker {
 public:
  explicit OddsWorker(bool threaded = true);
  ~OddsWorker();
  OddsWorker(const OddsWorker&) = delete;
  OddsWorker& operator=(const OddsWorker&) = delete;

  /// The answer for `key` when known; otherwise queues `work` for it and returns nullptr.
  std::shared_ptr<const OddsAnswer> get(const std::string& key,
                                        const std::function<OddsAnswer()>& work);
  /// Whether a question is being worked on or waiting.
  [[nodiscard]] bool busy() const;

 private:
  void run();

  bool threaded_;
  mutable std::mutex mutex_;
  std::condition_variable wake_;
  std::map<std::string, std::shared_ptr<const OddsAnswer>> cache_;
  std::optional<std::pair<std::string, std::function<OddsAnswer()>>> queued_;
  std::string working_on_;
  bool stop_ = false;
  std::thread thread_;
};

}  // namespace duels::overlay
