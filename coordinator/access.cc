#include "coordinator/access.h"

#include "absl/strings/str_cat.h"
#include "base/loopback.h"
#include "base/quote.h"

namespace qipu::coordinator {

const std::vector<MethodAccess>& AccessTable() {
  static const auto* const kTable = new std::vector<MethodAccess>{
      // Probes and load balancers.
      {"/grpc.health.v1.Health/Check", Access::kOpen},
      {"/grpc.health.v1.Health/Watch", Access::kOpen},
      // The API's schema: whoever may read.
      {"/grpc.reflection.v1alpha.ServerReflection/ServerReflectionInfo",
       Access::kReader},
      // Jobs: operators submit and cancel; status is for readers too (the
      // `qipu job status` of a dashboard).
      {"/qipu.v1.JobService/SubmitJob", Access::kOperator},
      {"/qipu.v1.JobService/GetJobStatus", Access::kReader},
      {"/qipu.v1.JobService/CancelJob", Access::kOperator},
      // Workers.
      {"/qipu.v1.WorkService/LeaseWork", Access::kWorker},
      {"/qipu.v1.WorkService/RenewLease", Access::kWorker},
      {"/qipu.v1.WorkService/ReturnLease", Access::kWorker},
      {"/qipu.v1.WorkService/UploadGames", Access::kWorker},
      // Queries.
      {"/qipu.v1.QueryService/Openings", Access::kReader},
      {"/qipu.v1.QueryService/Ko", Access::kReader},
      {"/qipu.v1.QueryService/Cycles", Access::kReader},
      {"/qipu.v1.QueryService/Results", Access::kReader},
      {"/qipu.v1.QueryService/GetGame", Access::kReader},
      {"/qipu.v1.QueryService/Pattern", Access::kReader},
      {"/qipu.v1.QueryService/Games", Access::kReader},
      {"/qipu.v1.QueryService/Players", Access::kReader},
      // Corpora: importing writes games, exporting reads them.
      {"/qipu.v1.CorpusService/Import", Access::kOperator},
      {"/qipu.v1.CorpusService/Export", Access::kReader},
      {"/qipu.v1.CorpusService/SetAliases", Access::kOperator},
      // Training batches.
      {"/qipu.v1.TrainingService/Batches", Access::kReader},
      // Tournaments: reading for readers, every change for operators.
      {"/qipu.v1.TournamentService/Create", Access::kOperator},
      {"/qipu.v1.TournamentService/Get", Access::kReader},
      {"/qipu.v1.TournamentService/List", Access::kReader},
      {"/qipu.v1.TournamentService/AddPlayer", Access::kOperator},
      {"/qipu.v1.TournamentService/Withdraw", Access::kOperator},
      {"/qipu.v1.TournamentService/AddWarnings", Access::kOperator},
      {"/qipu.v1.TournamentService/Pair", Access::kOperator},
      {"/qipu.v1.TournamentService/SetResult", Access::kOperator},
      {"/qipu.v1.TournamentService/RecordGame", Access::kOperator},
      {"/qipu.v1.TournamentService/EditPlayer", Access::kOperator},
      {"/qipu.v1.TournamentService/SitOut", Access::kOperator},
      {"/qipu.v1.TournamentService/EditPairing", Access::kOperator},
      // Administration (with --auth off: from this host only,
      // CheckLocalCaller).
      {"/qipu.v1.AdminService/Backup", Access::kOperator},
      // Tokens (the same).
      {"/qipu.v1.TokenService/Create", Access::kOperator},
      {"/qipu.v1.TokenService/List", Access::kOperator},
      {"/qipu.v1.TokenService/Revoke", Access::kOperator},
  };
  return *kTable;
}

Access RequiredAccess(absl::string_view method) {
  // About 30 entries: a linear scan costs less than the token's hash.
  for (const MethodAccess& m : AccessTable()) {
    if (method == m.method) return m.access;
  }
  return Access::kOperator;
}

bool Allows(qipu::v1::Role role, Access access) {
  switch (access) {
    case Access::kOpen:
      return true;
    case Access::kReader:
      return role == qipu::v1::ROLE_READER || role == qipu::v1::ROLE_OPERATOR;
    case Access::kWorker:
      return role == qipu::v1::ROLE_WORKER || role == qipu::v1::ROLE_OPERATOR;
    case Access::kOperator:
      return role == qipu::v1::ROLE_OPERATOR;
  }
  return false;
}

std::string RoleName(qipu::v1::Role role) {
  switch (role) {
    case qipu::v1::ROLE_READER:
      return "reader";
    case qipu::v1::ROLE_WORKER:
      return "worker";
    case qipu::v1::ROLE_OPERATOR:
      return "operator";
    default:
      return "unspecified";
  }
}

absl::StatusOr<qipu::v1::Role> ParseRole(absl::string_view name) {
  for (qipu::v1::Role r : {qipu::v1::ROLE_READER, qipu::v1::ROLE_WORKER,
                           qipu::v1::ROLE_OPERATOR}) {
    if (name == RoleName(r)) return r;
  }
  return absl::InvalidArgumentError(absl::StrCat(
      "role ", base::QuoteInput(name), " is none of reader, worker, operator"));
}

std::string AccessName(Access access) {
  switch (access) {
    case Access::kOpen:
      return "open";
    case Access::kReader:
      return "reader";
    case Access::kWorker:
      return "worker";
    case Access::kOperator:
      return "operator";
  }
  return "operator";
}

absl::Status CheckLocalCaller(absl::string_view peer, absl::string_view rpc) {
  if (base::IsLocalPeer(peer)) return absl::OkStatus();
  return absl::PermissionDeniedError(absl::StrCat(
      rpc, " from ", base::QuoteInput(peer, 80),
      ": this coordinator runs with --auth off, so it takes token and admin "
      "calls only from its own host (loopback); run the command there "
      "(--server 127.0.0.1:PORT), or restart the coordinator with --auth "
      "required and call with an operator token"));
}

}  // namespace qipu::coordinator
