#include "cli/serve/state_publisher.h"

#include <utility>

namespace dra::cli::serve {

void StatePublisher::Publish(DashboardState state) {
  MutexLock lock(mu_);
  state.generation = ++generation_;
  current_ = std::make_shared<const DashboardState>(std::move(state));
  cv_.NotifyAll();
}

std::shared_ptr<const DashboardState> StatePublisher::Current() const {
  MutexLock lock(mu_);
  return current_;
}

std::shared_ptr<const DashboardState> StatePublisher::WaitForNewer(
    std::uint64_t seen, std::chrono::milliseconds timeout) {
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  MutexLock lock(mu_);
  while (!closed_ && (current_ == nullptr || current_->generation == seen)) {
    if (cv_.WaitUntil(mu_, deadline) == std::cv_status::timeout) return nullptr;
  }
  if (closed_) return nullptr;
  return current_;
}

void StatePublisher::Close() {
  MutexLock lock(mu_);
  closed_ = true;
  cv_.NotifyAll();
}

bool StatePublisher::closed() const {
  MutexLock lock(mu_);
  return closed_;
}

}  // namespace dra::cli::serve
