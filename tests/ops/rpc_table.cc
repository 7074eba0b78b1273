#include "tests/ops/rpc_table.h"

#include "absl/strings/str_cat.h"
#include "absl/strings/str_replace.h"
#include "tests/ops/process_fixture.h"

namespace qipu::testing {
namespace {

using grpc::StatusCode;

// A method anyone may call (health checks): `c` for every caller.
constexpr Codes Open(StatusCode c) { return {c, c, c, c, c}; }
// Readers and operators get `c`; workers are denied.
constexpr Codes Readers(StatusCode c) {
  return {kUnauth, kDenied, c, kUnauth, c};
}
// Workers and operators get `c`; readers are denied.
constexpr Codes Workers(StatusCode c) {
  return {kUnauth, c, kDenied, kUnauth, c};
}
// Only operators get `c`.
constexpr Codes Operators(StatusCode c) {
  return {kUnauth, kDenied, kDenied, kUnauth, c};
}

}  // namespace

const std::vector<Row>& RpcTable() {
  static const auto* const rows = new std::vector<Row>{
      {"/grpc.health.v1.Health/Check",
       {""},
       Open(StatusCode::OK),
       "/api/v1/health"},
      {"/grpc.health.v1.Health/Watch",
       {""},
       Open(StatusCode::CANCELLED),
       "",
       /*cancel_after=*/1},
      {"/grpc.reflection.v1alpha.ServerReflection/ServerReflectionInfo",
       {"list_services: ''"},
       Readers(StatusCode::OK),
       ""},

      {"/qipu.v1.JobService/SubmitJob",
       {"games: 2 config { $CONFIG }"},
       Operators(StatusCode::OK),
       ""},
      {"/qipu.v1.JobService/GetJobStatus",
       {"job: 1"},
       Readers(StatusCode::OK),
       ""},
      {"/qipu.v1.JobService/CancelJob",
       {"job: 2"},
       Operators(StatusCode::OK),
       ""},

      // Job 1 has two games: the worker leases one, the operator the other.
      {"/qipu.v1.WorkService/LeaseWork",
       {"worker: 'w' max_games: 1 job: 1"},
       Workers(StatusCode::OK),
       ""},
      {"/qipu.v1.WorkService/RenewLease",
       {"lease_id: 'no-such-lease' worker: 'w'"},
       Workers(StatusCode::NOT_FOUND),
       ""},
      {"/qipu.v1.WorkService/ReturnLease",
       {"lease_id: 'no-such-lease' worker: 'w'"},
       Workers(StatusCode::NOT_FOUND),
       ""},
      {"/qipu.v1.WorkService/UploadGames", {}, Workers(StatusCode::OK), ""},

      {"/qipu.v1.QueryService/Openings",
       {"filter { width: 9 height: 9 }"},
       Readers(StatusCode::OK),
       "/api/v1/openings?size=9"},
      {"/qipu.v1.QueryService/Ko", {""}, Readers(StatusCode::OK), "/api/v1/ko"},
      {"/qipu.v1.QueryService/Cycles",
       {""},
       Readers(StatusCode::OK),
       "/api/v1/cycles"},
      {"/qipu.v1.QueryService/Results",
       {""},
       Readers(StatusCode::OK),
       "/api/v1/results"},
      {"/qipu.v1.QueryService/GetGame",
       {"id: 's1-0'"},
       Readers(StatusCode::NOT_FOUND),
       "/api/v1/game/s1-0"},
      {"/qipu.v1.QueryService/Pattern",
       {"filter { width: 9 height: 9 } pattern: 'X' "
        "placement: PATTERN_PLACEMENT_ANYWHERE"},
       Readers(StatusCode::OK),
       "/api/v1/pattern?size=9&pattern=X"},
      {"/qipu.v1.QueryService/Games",
       {"filter { width: 9 height: 9 player: 'a' }"},
       Readers(StatusCode::OK),
       "/api/v1/games?size=9&player=a"},
      {"/qipu.v1.QueryService/Players",
       {"prefix: 'a'"},
       Readers(StatusCode::OK),
       "/api/v1/players?prefix=a"},

      {"/qipu.v1.CorpusService/Import",
       {"file: 'a.sgf' data: '(;GM[1]FF[4]SZ[9];B[ee];W[cc])'"},
       Operators(StatusCode::OK),
       ""},
      {"/qipu.v1.CorpusService/Export",
       {"limit: 1"},
       Readers(StatusCode::OK),
       ""},
      {"/qipu.v1.CorpusService/SetAliases",
       {"text: 'Ke Jie, 柯洁' file: 'aliases.txt'"},
       Operators(StatusCode::OK),
       ""},

      {"/qipu.v1.TrainingService/Batches",
       {"batch_size: 1 max_rows: 1"},
       Readers(StatusCode::OK),
       ""},

      {"/qipu.v1.TournamentService/Create",
       {"name: 'cup' system: TOURNAMENT_SYSTEM_ROUND_ROBIN"},
       Operators(StatusCode::OK),
       ""},
      {"/qipu.v1.TournamentService/Get",
       {"tournament: '1'"},
       Readers(StatusCode::OK),
       ""},
      {"/qipu.v1.TournamentService/List", {""}, Readers(StatusCode::OK), ""},
      {"/qipu.v1.TournamentService/AddPlayer",
       {"tournament: '1' name: 'p1'"},
       Operators(StatusCode::OK),
       ""},
      {"/qipu.v1.TournamentService/EditPlayer",
       {"tournament: '1' name: 'p1' rating: 1500"},
       Operators(StatusCode::OK),
       ""},
      {"/qipu.v1.TournamentService/SitOut",
       {"tournament: '1' name: 'p1' round: 1"},
       // Tournament 1 is a round-robin: the operator reaches the check.
       Operators(StatusCode::FAILED_PRECONDITION),
       ""},
      {"/qipu.v1.TournamentService/AddWarnings",
       {"tournament: '1' name: 'p1' count: 1"},
       Operators(StatusCode::OK),
       ""},
      {"/qipu.v1.TournamentService/Withdraw",
       {"tournament: '1' name: 'p1'"},
       Operators(StatusCode::OK),
       ""},
      {"/qipu.v1.TournamentService/Pair",
       {"tournament: '1'"},
       Operators(StatusCode::FAILED_PRECONDITION),
       ""},
      {"/qipu.v1.TournamentService/SetResult",
       {"tournament: '1' round: 1 table: 1"},
       Operators(StatusCode::INVALID_ARGUMENT),
       ""},
      {"/qipu.v1.TournamentService/RecordGame",
       {"tournament: '1' round: 1 table: 1"},
       Operators(StatusCode::INVALID_ARGUMENT),
       ""},

      {"/qipu.v1.TournamentService/EditPairing",
       {"tournament: '1' kind: PAIRING_EDIT_UNPAIR first: 'p1'"},
       Operators(StatusCode::FAILED_PRECONDITION),
       ""},

      {"/qipu.v1.AdminService/Backup",
       {"to: '$BACKUP'"},
       Operators(StatusCode::OK),
       ""},

      {"/qipu.v1.TokenService/Create",
       {"role: ROLE_READER name: 'table'"},
       Operators(StatusCode::OK),
       ""},
      {"/qipu.v1.TokenService/List", {""}, Operators(StatusCode::OK), ""},
      {"/qipu.v1.TokenService/Revoke",
       {"id: $SPARE"},
       Operators(StatusCode::OK),
       ""},
  };
  return *rows;
}

std::string FillRequest(const std::string& text, const TableValues& values) {
  return absl::StrReplaceAll(
      text, {{"$CONFIG", JobConfigFor(9, 7).ShortDebugString()},
             {"$BACKUP", values.backup_dir},
             {"$SPARE", absl::StrCat(values.spare_token)}});
}

}  // namespace qipu::testing
