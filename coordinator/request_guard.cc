#include "coordinator/request_guard.h"

#include <string>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_replace.h"
#include "base/quote.h"
#include "google/protobuf/descriptor.h"
#include "spdlog/spdlog.h"

namespace qipu::coordinator {
namespace {

using grpc::experimental::InterceptionHookPoints;
using grpc::experimental::ServerRpcInfo;

// "qipu.v1.SubmitJobRequest" for "/qipu.v1.JobService/SubmitJob"; the
// path itself (quoted) when the generated pool does not know it.
std::string RequestTypeOf(const char* path) {
  std::string name = path != nullptr ? path : "";
  if (!name.empty() && name[0] == '/') name.erase(0, 1);
  const std::string dotted = absl::StrReplaceAll(name, {{"/", "."}});
  const google::protobuf::MethodDescriptor* m =
      google::protobuf::DescriptorPool::generated_pool()->FindMethodByName(
          dotted);
  if (m == nullptr) {
    return absl::StrCat("request of ", base::QuoteInput(name));
  }
  return m->input_type()->full_name();
}

// One per call (see the header).
class RequestGuard final : public grpc::experimental::Interceptor {
 public:
  explicit RequestGuard(ServerRpcInfo* info)
      : info_(info),
        single_request_(info->type() == ServerRpcInfo::Type::UNARY ||
                        info->type() == ServerRpcInfo::Type::SERVER_STREAMING) {
  }

  void Intercept(grpc::experimental::InterceptorBatchMethods* m) override {
    if (single_request_ &&
        m->QueryInterceptionHookPoint(
            InterceptionHookPoints::POST_RECV_MESSAGE) &&
        m->GetRecvMessage() == nullptr) {
      // The one request did not deserialize (or never came).
      unparsed_ = true;
    }
    if (m->QueryInterceptionHookPoint(
            InterceptionHookPoints::PRE_SEND_STATUS)) {
      const grpc::Status status = m->GetSendStatus();
      if (unparsed_) {
        const std::string type = RequestTypeOf(info_->method());
        spdlog::debug("request: {} ({}): unparseable request bytes",
                      base::QuoteInput(info_->method() ? info_->method() : ""),
                      type);
        m->ModifySendStatus(grpc::Status(
            grpc::StatusCode::INVALID_ARGUMENT,
            absl::StrCat("request: the bytes received are not a valid ", type,
                         " (they do not parse as that protobuf message); "
                         "nothing was done")));
      } else if (status.error_message().size() > base::kMaxMessageBytes) {
        m->ModifySendStatus(grpc::Status(
            status.error_code(), base::CapMessage(status.error_message()),
            status.error_details()));
      }
    }
    m->Proceed();
  }

 private:
  ServerRpcInfo* const info_;
  // Unary and server-streaming calls carry exactly one request message.
  const bool single_request_;
  bool unparsed_ = false;
};

class RequestGuardFactory final
    : public grpc::experimental::ServerInterceptorFactoryInterface {
 public:
  grpc::experimental::Interceptor* CreateServerInterceptor(
      ServerRpcInfo* info) override {
    return new RequestGuard(info);
  }
};

}  // namespace

std::unique_ptr<grpc::experimental::ServerInterceptorFactoryInterface>
NewRequestGuardFactory() {
  return std::make_unique<RequestGuardFactory>();
}

}  // namespace qipu::coordinator
