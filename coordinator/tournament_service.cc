#include "coordinator/tournament_service.h"

#include <utility>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "base/grpc_status.h"
#include "proto/metadata_keys.h"
#include "spdlog/spdlog.h"

namespace qipu::coordinator {
namespace {

// The first value of auth property `name`, or "".
std::string Property(const grpc::AuthContext& auth, const char* name) {
  const std::vector<grpc::string_ref> values = auth.FindPropertyValues(name);
  return values.empty() ? std::string()
                        : std::string(values[0].data(), values[0].size());
}

// At most 64 printable ASCII bytes of a name the client gives.
std::string Printable(absl::string_view s) {
  std::string out;
  for (const char c : s.substr(0, 64)) {
    out.push_back(c >= 0x20 && c < 0x7f ? c : '?');
  }
  return out;
}

}  // namespace

std::string CallerOf(const grpc::ServerContext& ctx) {
  const std::shared_ptr<const grpc::AuthContext> auth = ctx.auth_context();
  if (auth != nullptr) {
    const std::string id = Property(*auth, "qipu_token_id");
    if (!id.empty()) {
      const std::string name = Property(*auth, "qipu_token_name");
      return absl::StrCat("token ", id,
                          name.empty() ? "" : absl::StrCat(" '", name, "'"),
                          " (", Property(*auth, "qipu_role"), ")");
    }
  }
  std::string user = "unknown";
  const auto& md = ctx.client_metadata();
  if (auto it = md.find(wire::kCallerUserKey);
      it != md.end() && it->second.size() > 0) {
    user = Printable(absl::string_view(it->second.data(), it->second.size()));
  }
  // "ipv4:127.0.0.1:40312" -> "127.0.0.1"; other forms as they are.
  std::string peer = ctx.peer();
  for (const absl::string_view scheme : {"ipv4:", "ipv6:"}) {
    if (absl::StartsWith(peer, scheme)) {
      peer = peer.substr(scheme.size());
      const size_t colon = peer.rfind(':');
      if (colon != std::string::npos) peer.resize(colon);
    }
  }
  return absl::StrCat(user, " (no token, ", peer, ")");
}

grpc::Status TournamentServiceImpl::Create(
    grpc::ServerContext*, const qipu::v1::CreateTournamentRequest* req,
    qipu::v1::TournamentResponse* resp) {
  return base::Answer("tournament Create", tournaments_->Create(*req), resp);
}

grpc::Status TournamentServiceImpl::Get(grpc::ServerContext*,
                                        const qipu::v1::TournamentRequest* req,
                                        qipu::v1::TournamentResponse* resp) {
  return base::Answer("tournament Get", tournaments_->Get(*req), resp);
}

grpc::Status TournamentServiceImpl::List(
    grpc::ServerContext*, const qipu::v1::ListTournamentsRequest* req,
    qipu::v1::ListTournamentsResponse* resp) {
  return base::Answer("tournament List", tournaments_->List(*req), resp);
}

grpc::Status TournamentServiceImpl::AddPlayer(
    grpc::ServerContext*, const qipu::v1::AddPlayerRequest* req,
    qipu::v1::TournamentResponse* resp) {
  return base::Answer("tournament AddPlayer", tournaments_->AddPlayer(*req),
                      resp);
}

grpc::Status TournamentServiceImpl::Withdraw(
    grpc::ServerContext* ctx, const qipu::v1::WithdrawRequest* req,
    qipu::v1::TournamentResponse* resp) {
  return base::Answer("tournament Withdraw",
                      tournaments_->Withdraw(*req, CallerOf(*ctx)), resp);
}

grpc::Status TournamentServiceImpl::AddWarnings(
    grpc::ServerContext*, const qipu::v1::WarningsRequest* req,
    qipu::v1::TournamentResponse* resp) {
  return base::Answer("tournament AddWarnings", tournaments_->AddWarnings(*req),
                      resp);
}

grpc::Status TournamentServiceImpl::Pair(grpc::ServerContext*,
                                         const qipu::v1::PairRequest* req,
                                         qipu::v1::PairResponse* resp) {
  return base::Answer("tournament Pair", tournaments_->Pair(*req), resp);
}

grpc::Status TournamentServiceImpl::SetResult(
    grpc::ServerContext* ctx, const qipu::v1::SetResultRequest* req,
    qipu::v1::TournamentResponse* resp) {
  return base::Answer("tournament SetResult",
                      tournaments_->SetResult(*req, CallerOf(*ctx)), resp);
}

grpc::Status TournamentServiceImpl::RecordGame(
    grpc::ServerContext* ctx, const qipu::v1::RecordGameRequest* req,
    qipu::v1::TournamentResponse* resp) {
  return base::Answer("tournament RecordGame",
                      tournaments_->RecordGame(*req, CallerOf(*ctx)), resp);
}

grpc::Status TournamentServiceImpl::EditPlayer(
    grpc::ServerContext*, const qipu::v1::EditPlayerRequest* req,
    qipu::v1::TournamentResponse* resp) {
  return base::Answer("tournament EditPlayer", tournaments_->EditPlayer(*req),
                      resp);
}

grpc::Status TournamentServiceImpl::SitOut(grpc::ServerContext*,
                                           const qipu::v1::SitOutRequest* req,
                                           qipu::v1::TournamentResponse* resp) {
  return base::Answer("tournament SitOut", tournaments_->SitOut(*req), resp);
}

grpc::Status TournamentServiceImpl::EditPairing(
    grpc::ServerContext* ctx, const qipu::v1::EditPairingRequest* req,
    qipu::v1::TournamentResponse* resp) {
  return base::Answer("tournament EditPairing",
                      tournaments_->EditPairing(*req, CallerOf(*ctx)), resp);
}

}  // namespace qipu::coordinator
