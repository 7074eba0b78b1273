#include "coordinator/call_tracker.h"

#include <cstring>

namespace qipu::coordinator {
namespace {

// Lives exactly as long as its call: counts it in and out.
class CountingInterceptor final : public grpc::experimental::Interceptor {
 public:
  explicit CountingInterceptor(CallTracker* tracker) : tracker_(tracker) {
    tracker_->Begin();
  }
  ~CountingInterceptor() override { tracker_->End(); }

  void Intercept(grpc::experimental::InterceptorBatchMethods* m) override {
    m->Proceed();
  }

 private:
  CallTracker* const tracker_;
};

class CountingFactory final
    : public grpc::experimental::ServerInterceptorFactoryInterface {
 public:
  explicit CountingFactory(CallTracker* tracker) : tracker_(tracker) {}

  grpc::experimental::Interceptor* CreateServerInterceptor(
      grpc::experimental::ServerRpcInfo* info) override {
    // Streams that stay open while their client runs and do no work.
    static constexpr const char* kNotCounted[] = {
        "/grpc.health.v1.Health/Watch",
        "/grpc.reflection.v1alpha.ServerReflection/ServerReflectionInfo",
    };
    for (const char* m : kNotCounted) {
      if (info->method() != nullptr && std::strcmp(info->method(), m) == 0) {
        return nullptr;
      }
    }
    return new CountingInterceptor(tracker_);
  }

 private:
  CallTracker* const tracker_;
};

}  // namespace

std::unique_ptr<grpc::experimental::ServerInterceptorFactoryInterface>
CallTracker::NewFactory() {
  return std::make_unique<CountingFactory>(this);
}

int CallTracker::active() const {
  absl::MutexLock lock(&mu_);
  return active_;
}

bool CallTracker::WaitIdle(absl::Time deadline) const {
  absl::MutexLock lock(&mu_);
  auto idle = [this]()
                  ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_) { return active_ == 0; };
  return mu_.AwaitWithDeadline(absl::Condition(&idle), deadline);
}

void CallTracker::Begin() {
  absl::MutexLock lock(&mu_);
  ++active_;
}

void CallTracker::End() {
  absl::MutexLock lock(&mu_);
  --active_;
}

}  // namespace qipu::coordinator
