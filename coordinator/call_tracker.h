// CallTracker: counts the coordinator's RPCs in progress, so that a
// graceful stop waits for them -- and only for them. gRPC's own
// Server::Shutdown(deadline) also waits for connections that are open but
// carry no call (a client that connected and sent nothing, a TCP health
// probe): one of those held every stop for its whole grace period.
//
// The count comes from a server interceptor, created with each call and
// destroyed when the call ends. Streams that live as long as their client
// does and carry no work -- health Watch, reflection -- are not counted.
#ifndef QIPU_COORDINATOR_CALL_TRACKER_H_
#define QIPU_COORDINATOR_CALL_TRACKER_H_

#include <memory>

#include "absl/base/thread_annotations.h"
#include "absl/synchronization/mutex.h"
#include "absl/time/time.h"
#include "grpcpp/support/server_interceptor.h"

namespace qipu::coordinator {

// Thread-safe. Must outlive the server it counts for.
class CallTracker {
 public:
  CallTracker() = default;
  CallTracker(const CallTracker&) = delete;
  CallTracker& operator=(const CallTracker&) = delete;

  // An interceptor factory for grpc::ServerBuilder::experimental()
  // .SetInterceptorCreators(); the factory refers to this tracker.
  std::unique_ptr<grpc::experimental::ServerInterceptorFactoryInterface>
  NewFactory();

  // Calls in progress now.
  int active() const;

  // Blocks until no call is in progress or `deadline` has passed; true
  // when idle.
  bool WaitIdle(absl::Time deadline) const;

  // Called by the interceptors.
  void Begin();
  void End();

 private:
  mutable absl::Mutex mu_;
  int active_ ABSL_GUARDED_BY(mu_) = 0;
};

}  // namespace qipu::coordinator

#endif  // QIPU_COORDINATOR_CALL_TRACKER_H_
