#include "overlay/odds_worker.hpp"

namespace duels::overlay {

namespace {
// Answers kept; a match asks a few dozen distinct questions per round.
constexpr std::size_t kCacheLimit = 256;
}  // namespace

OddsWorker::OddsWorker(bool threaded) : threaded_(threaded) {
  if (threaded_) thread_ = std::thread([this] { run(); });
}

OddsWorker::~OddsWorker() {
  {
    std::lock_guard lock(mutex_);
    stop_ = true;
    queued_.reset();
  }
  wake_.notify_all();
  if (thread_.joinable()) thread_.join();
}

std::shared_ptr<const OddsAnswer> OddsWorker::get(const std::string& key,
                                                  const std::function<OddsAnswer()>& work) {
  if (!threaded_) {
    if (auto it = cache_.find(key); it != cache_.end()) return it->second;
    auto answer = std::make_shared<const OddsAnswer>(work());
    if (cache_.size() >= kCacheLimit) cache_.clear();
    cache_[key] = answer;
    return answer;
  }
  std::lock_guard lock(mutex_);
  if (auto it = cache_.find(key); it != cache_.end()) return it->second;
  if (working_on_ != key && (!queued_ || queued_->first != key)) {
    queued_.emplace(key, work);
    wake_.notify_one();
  }
  return nullptr;
}

bool OddsWorker::busy() const {
  std::lock_guard lock(mutex_);
  return queued_.has_value() || !working_on_.empty();
}

void OddsWorker::run() {
  std::unique_lock lock(mutex_);
  while (true) {
    wake_.wait(lock, [this] { return stop_ || queued_.has_value(); });
    if (stop_) return;
    auto job = std::move(*queued_);
    queued_.reset();
    working_on_ = job.first;
    lock.unlock();
    auto answer = std::make_shared<const OddsAnswer>(job.second());
    lock.lock();
    if (cache_.size() >= kCacheLimit) cache_.clear();
    cache_[job.first] = std::move(answer);
    working_on_.clear();
  }
}

}  // namespace duels::overlay
