#include "tests/ops/any_rpc.h"

#include <algorithm>
#include <filesystem>
#include <memory>

#include "absl/strings/str_cat.h"
#include "base/channel.h"
#include "base/raw_stream.h"
#include "coordinator/coordinator.h"
#include "google/protobuf/dynamic_message.h"
#include "google/protobuf/text_format.h"
#include "grpcpp/client_context.h"
#include "gtest/gtest.h"

namespace qipu::testing {

namespace pb = ::google::protobuf;

std::vector<const pb::MethodDescriptor*> QipuMethods() {
  // The coordinator serves every service: referencing it links in their
  // generated code, which registers their descriptors.
  static auto* volatile const link_coordinator =
      &coordinator::Coordinator::Start;
  (void)link_coordinator;
  std::vector<std::string> files;
  for (const auto& e : std::filesystem::directory_iterator(
           std::string(QIPU_SOURCE_DIR) + "/proto/qipu/v1")) {
    if (e.path().extension() == ".proto") {
      files.push_back("qipu/v1/" + e.path().filename().string());
    }
  }
  std::sort(files.begin(), files.end());
  std::vector<const pb::MethodDescriptor*> out;
  for (const std::string& name : files) {
    const pb::FileDescriptor* f =
        pb::DescriptorPool::generated_pool()->FindFileByName(name);
    if (f == nullptr) {
      ADD_FAILURE() << name
                    << " is not linked into this test: no service of it is "
                       "served by coordinator::Coordinator?";
      continue;
    }
    for (int s = 0; s < f->service_count(); ++s) {
      for (int m = 0; m < f->service(s)->method_count(); ++m) {
        out.push_back(f->service(s)->method(m));
      }
    }
  }
  return out;
}

std::string MethodPath(const pb::MethodDescriptor* m) {
  return absl::StrCat("/", m->service()->full_name(), "/", m->name());
}

absl::StatusOr<std::string> RequestBytes(const pb::Descriptor* type,
                                         const std::string& text) {
  pb::DynamicMessageFactory factory;
  std::unique_ptr<pb::Message> msg(factory.GetPrototype(type)->New());
  if (!pb::TextFormat::ParseFromString(text, msg.get())) {
    return absl::InvalidArgumentError(
        absl::StrCat("not a ", type->full_name(), " in text format: ", text));
  }
  return msg->SerializeAsString();
}

RawCallResult CallRaw(
    const std::shared_ptr<grpc::Channel>& channel, const std::string& path,
    const std::vector<std::string>& frames,
    const std::vector<std::pair<std::string, std::string>>& metadata,
    absl::Duration timeout, int cancel_after) {
  RawCallResult out;
  base::RawBidiMethod method(channel, path);
  grpc::ClientContext ctx;
  base::SetDeadline(&ctx, timeout);
  for (const auto& [k, v] : metadata) ctx.AddMetadata(k, v);
  std::unique_ptr<base::RawClientStream> stream = method.Open(&ctx);
  for (const std::string& f : frames) {
    grpc::Slice slice(f);
    grpc::ByteBuffer buffer(&slice, 1);
    if (!stream->Write(buffer)) break;
  }
  stream->WritesDone();
  grpc::ByteBuffer reply;
  while (stream->Read(&reply)) {
    std::vector<grpc::Slice> slices;
    std::string bytes;
    if (reply.Dump(&slices).ok()) {
      for (const grpc::Slice& s : slices) {
        bytes.append(reinterpret_cast<const char*>(s.begin()), s.size());
      }
    }
    out.responses.push_back(std::move(bytes));
    if (cancel_after > 0 &&
        out.responses.size() >= static_cast<size_t>(cancel_after)) {
      ctx.TryCancel();
    }
  }
  out.status = stream->Finish();
  return out;
}

}  // namespace qipu::testing
