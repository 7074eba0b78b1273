// The flag groups the qipu commands share, each registered on a command
// with Add() and turned into what the libraries take: the rule flags into
// rules::Rules, the job flags into a SubmitJobRequest, the filter flags
// into a qipu.v1.Filter, the target flags into a backend::Target.
// InvalidArgument errors name the flag.
#ifndef QIPU_OPS_FLAGS_H_
#define QIPU_OPS_FLAGS_H_

#include <cstdint>
#include <optional>
#include <string>

#include "CLI/CLI.hpp"
#include "absl/status/statusor.h"
#include "backend/target.h"
#include "qipu/v1/query.pb.h"
#include "qipu/v1/train.pb.h"
#include "qipu/v1/work.pb.h"
#include "rules/rules.h"

namespace qipu::ops {

// --rules NAME, --ko, --cycle, --suicide, --komi.
struct RuleFlags {
  std::string preset;
  std::string ko;
  std::string cycle;
  bool suicide = false;
  std::optional<double> komi;

  // Registers the flags on `cmd`.
  void Add(CLI::App* cmd);
  // The rules: the preset (when given), else `fallback`; then the axis
  // overrides.
  absl::StatusOr<rules::Rules> Resolve(const rules::Rules& fallback) const;
};

// The job flags of `job submit`, `local` and the benchmarks: --games,
// --size, the rule flags, --handicap, --policy (both colours),
// --black-policy, --white-policy (each overrides --policy for its colour),
// --index-depth, --seed.
struct JobSpecFlags {
  uint64_t games = 1000;
  int size = 9;
  RuleFlags rules;
  int handicap = 0;
  std::string policy = "random";
  std::string black_policy;
  std::string white_policy;
  int index_depth = 30;
  // Random when not given (printed, so a run can be repeated).
  std::optional<uint64_t> seed;

  void Add(CLI::App* cmd);
  // The request, its policy specs canonical (InvalidArgument naming the
  // flag of a bad spec, and why). Draws the seed once when none was given.
  absl::StatusOr<qipu::v1::SubmitJobRequest> Request() const;
};

// The filters of queries and exports: --size N|WxH, --rules (preset or
// axes), --komi, --handicap, --source, --policy, --records, --from, --to.
struct FilterFlags {
  std::string size;
  std::string rules;
  std::optional<double> komi;
  std::optional<uint32_t> handicap;
  std::string source;
  // --job N: the source job:N.
  std::optional<uint64_t> job;
  std::string policy;
  // all, clean, noted, cut (Filter.records); empty: all.
  std::string records;
  uint32_t from = 0;
  uint32_t to = 0;

  void Add(CLI::App* cmd);
  // The filter, through backend/query_args.h's FilterFromArgs() like `qipu
  // query` and the HTTP API (the query engine checks the values further).
  absl::StatusOr<qipu::v1::Filter> ToProto() const;
};

// What `train export` and `bench train` ask for: the filter flags, --cycles,
// --drop-void, --positions-per-game K | --all-positions, --pos-len,
// --symmetries, --seed, --min-move, --shuffle-window, --recent-games,
// --max-rows (batch size and cursor are the command's).
struct TrainingFlags {
  FilterFlags filter;
  std::string cycles = "any";
  bool drop_void = false;
  uint32_t positions_per_game = 0;
  bool all_positions = false;
  uint32_t pos_len = 19;
  uint32_t symmetries = 1;
  uint64_t seed = 0;
  uint32_t min_move = 0;
  uint32_t shuffle_window = 0;
  uint64_t recent_games = 0;
  uint64_t max_rows = 0;
  std::string weight_by = "constant";
  float row_weight = 1.0f;
  bool ladders = false;
  std::string order = "date";
  bool skip_oversize = false;

  void Add(CLI::App* cmd);
  // The request (the planner checks the values further).
  absl::StatusOr<qipu::v1::TrainingRequest> Request() const;
};

// How to reach a coordinator securely: --token T (or the environment's
// QIPU_TOKEN), --tls-ca FILE, --tls-cert FILE --tls-key FILE (mTLS),
// --tls-server-name NAME. Shared by the target flags and the commands
// that dial a server of their own.
struct SecurityFlags {
  std::string token;
  std::string tls_ca;
  std::string tls_cert;
  std::string tls_key;
  std::string tls_server_name;

  void Add(CLI::App* cmd);
  // The files read and checked into `tls`, the token into `token`
  // (InvalidArgument naming the flag; a file's error).
  absl::Status Resolve(base::ClientTls* tls, std::string* token) const;
};

// --server HOST:PORT or --db DIR, --timeout SECONDS per call, and the
// security flags for --server.
struct TargetFlags {
  std::string server;
  std::string db;
  double timeout_s = 30;
  SecurityFlags security;

  // Registers the flags; `what` describes the calls the timeout bounds.
  void Add(CLI::App* cmd, double default_timeout_s = 30,
           const std::string& what = "Deadline per call, seconds");
  // The target; exactly one of --server and --db must be given.
  absl::StatusOr<backend::Target> ToTarget() const;
};

}  // namespace qipu::ops

#endif  // QIPU_OPS_FLAGS_H_
