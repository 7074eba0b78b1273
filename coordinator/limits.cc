#include "coordinator/limits.h"

#include <utility>

#include "absl/strings/str_cat.h"

namespace qipu::coordinator {

std::string ClientOfPeer(absl::string_view peer) {
  const size_t colon = peer.rfind(':');
  const size_t scheme = peer.find(':');
  // "ipv4:HOST:PORT", "ipv6:[HOST]:PORT" (brackets maybe %-escaped): the
  // last colon separates the port when it is not the scheme's own.
  if (colon == absl::string_view::npos || colon == scheme) {
    return std::string(peer);
  }
  const absl::string_view port = peer.substr(colon + 1);
  for (char c : port) {
    if (c < '0' || c > '9') return std::string(peer);
  }
  return std::string(peer.substr(0, colon));
}

StreamLimiter::Slot& StreamLimiter::Slot::operator=(Slot&& o) noexcept {
  if (this != &o) {
    if (owner_ != nullptr) owner_->Release(client_);
    owner_ = o.owner_;
    client_ = std::move(o.client_);
    o.owner_ = nullptr;
  }
  return *this;
}

StreamLimiter::Slot::~Slot() {
  if (owner_ != nullptr) owner_->Release(client_);
}

absl::StatusOr<StreamLimiter::Slot> StreamLimiter::Acquire(
    absl::string_view peer, absl::string_view rpc) {
  std::string client = ClientOfPeer(peer);
  absl::MutexLock lock(&mu_);
  int& n = open_[client];
  if (max_ > 0 && n >= max_) {
    return absl::ResourceExhaustedError(absl::StrCat(
        rpc, ": at most ", max_, " concurrent streams per client (", client,
        " has ", n, " open); retry when one of them ends"));
  }
  ++n;
  return Slot(this, std::move(client));
}

int StreamLimiter::open(absl::string_view peer) const {
  absl::MutexLock lock(&mu_);
  auto it = open_.find(ClientOfPeer(peer));
  return it == open_.end() ? 0 : it->second;
}

void StreamLimiter::Release(const std::string& client) {
  absl::MutexLock lock(&mu_);
  auto it = open_.find(client);
  if (it == open_.end()) return;
  if (--it->second <= 0) open_.erase(it);
}

absl::StatusOr<StreamLimiter::Slot> AcquireStream(StreamLimiter* limiter,
                                                  absl::string_view peer,
                                                  absl::string_view rpc) {
  if (limiter == nullptr) return StreamLimiter::Slot();
  return limiter->Acquire(peer, rpc);
}

}  // namespace qipu::coordinator
