#include "ops/flags.h"

#include <utility>
#include <vector>

#include "absl/random/random.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/time/time.h"
#include "backend/query_args.h"
#include "proto/convert.h"
#include "proto/job_policies.h"
#include "rules/coord.h"
#include "rules/scoring.h"

namespace qipu::ops {

void RuleFlags::Add(CLI::App* cmd) {
  cmd->add_option("--rules", preset,
                  "Rule preset: chinese, chinese-superko, tromp-taylor, aga, "
                  "new-zealand");
  cmd->add_option("--ko", ko, "Override: simple, positional, situational");
  cmd->add_option("--cycle", cycle,
                  "Override the balanced-cycle outcome: no-result, draw, "
                  "replay, none (with --ko simple: every repetition legal, "
                  "recorded as a continued cycle)");
  cmd->add_flag("--suicide", suicide, "Override: multi-stone suicide legal");
  cmd->add_option("--komi", komi,
                  "Override the komi (points, multiple of 0.5)");
}

absl::StatusOr<rules::Rules> RuleFlags::Resolve(
    const rules::Rules& fallback) const {
  rules::Rules r = fallback;
  if (!preset.empty()) {
    auto p = rules::PresetRules(preset);
    if (!p.ok()) {
      return absl::InvalidArgumentError(
          absl::StrCat("--rules: ", p.status().message()));
    }
    r = *p;
  }
  if (!ko.empty()) {
    auto k = rules::ParseKoRule(ko);
    if (!k.ok()) {
      return absl::InvalidArgumentError(
          absl::StrCat("--ko: ", k.status().message()));
    }
    r.ko = *k;
  }
  if (!cycle.empty()) {
    auto c = rules::ParseCycleRule(cycle);
    if (!c.ok()) {
      return absl::InvalidArgumentError(
          absl::StrCat("--cycle: ", c.status().message()));
    }
    r.cycle = *c;
  }
  if (suicide) r.multi_stone_suicide = true;
  if (komi) {
    if (absl::Status s = rules::ValidateKomi(*komi); !s.ok()) {
      return absl::InvalidArgumentError(absl::StrCat("--komi: ", s.message()));
    }
    r.komi = *komi;
  }
  return r;
}

void JobSpecFlags::Add(CLI::App* cmd) {
  cmd->add_option("--games", games, "Number of games")
      ->check(CLI::Range(uint64_t{1}, uint64_t{100000000}))
      ->capture_default_str();
  cmd->add_option("--size", size, "Board size (2..25)")->capture_default_str();
  rules.Add(cmd);
  cmd->add_option("--handicap", handicap, "Fixed handicap stones (0, 2..9)")
      ->capture_default_str();
  cmd->add_option("--policy", policy,
                  "Policy of both colours: random, pattern, "
                  "mcts[:playouts=N,threads=T,...] or gtp:<command line>")
      ->capture_default_str();
  cmd->add_option("--black-policy", black_policy,
                  "Black's policy (default: --policy)");
  cmd->add_option("--white-policy", white_policy,
                  "White's policy (default: --policy)");
  cmd->add_option("--index-depth", index_depth,
                  "Plies of each game in the opening index")
      ->check(CLI::Range(0, 1000))
      ->capture_default_str();
  cmd->add_option("--seed", seed, "Base seed (default: random, printed)");
}

absl::StatusOr<qipu::v1::SubmitJobRequest> JobSpecFlags::Request() const {
  if (absl::Status s = rules::ValidateSize(size, size); !s.ok()) {
    return absl::InvalidArgumentError(absl::StrCat("--size: ", s.message()));
  }
  auto r = rules.Resolve(rules::Rules{});
  if (!r.ok()) return r.status();
  if (handicap != 0) {
    if (auto h = rules::FixedHandicap(size, size, handicap); !h.ok()) {
      return absl::InvalidArgumentError(
          absl::StrCat("--handicap: ", h.status().message()));
    }
  }
  qipu::v1::SubmitJobRequest req;
  req.set_games(games);
  qipu::v1::JobConfig* c = req.mutable_config();
  c->set_width(static_cast<uint32_t>(size));
  c->set_height(static_cast<uint32_t>(size));
  *c->mutable_rules() = wire::RulesToProto(*r);
  c->set_handicap(static_cast<uint32_t>(handicap));
  c->set_policy(policy);
  c->set_black_policy(black_policy);
  c->set_white_policy(white_policy);
  if (absl::Status s = wire::CanonicalizeJobPolicies(c); !s.ok()) {
    // "config.black_policy: ..." -> "--black-policy: ...".
    std::string m(s.message());
    for (const auto& [field, flag] :
         {std::pair<std::string, std::string>{"config.black_policy",
                                              "--black-policy"},
          {"config.white_policy", "--white-policy"},
          {"config.policy", "--policy"}}) {
      if (absl::StartsWith(m, field)) m = flag + m.substr(field.size());
    }
    return absl::InvalidArgumentError(m);
  }
  c->set_index_depth(static_cast<uint32_t>(index_depth));
  if (seed) {
    c->set_seed(*seed);
  } else {
    absl::BitGen gen;
    c->set_seed(absl::Uniform<uint64_t>(gen) >> 11);
  }
  return req;
}

void FilterFlags::Add(CLI::App* cmd) {
  cmd->add_option("--size", size, "Board size N or WxH");
  cmd->add_option(
      "--rules", rules,
      "Rules: a preset (chinese, chinese-superko, tromp-taylor, "
      "aga, new-zealand) or axes like \"ko=positional cycle=draw\"");
  cmd->add_option("--komi", komi, "Komi");
  cmd->add_option("--handicap", handicap, "Handicap stones (0 = even games)");
  cmd->add_option(
      "--source", source,
      "Source: job:<id> for a self-play job, or an import source name");
  cmd->add_option("--job", job, "Self-play job id (the source job:<id>)");
  cmd->add_option("--policy", policy,
                  "Games where either colour played this policy (its spec, "
                  "or a prefix at a token boundary: mcts, gtp:gnugo), or "
                  "import for imported games");
  cmd->add_option("--records", records,
                  "Imported records by how they were kept: all (default), "
                  "clean, noted (kept against their rules, cut ones too), "
                  "cut");
  cmd->add_option("--from", from, "First day, YYYYMMDD");
  cmd->add_option("--to", to, "Last day, YYYYMMDD");
}

absl::StatusOr<qipu::v1::Filter> FilterFlags::ToProto() const {
  // The same mapping as `qipu query` and the HTTP API (backend/query_args.h).
  backend::QueryArgs args;
  if (!size.empty()) args.emplace_back("size", size);
  if (!rules.empty()) args.emplace_back("rules", rules);
  if (komi) args.emplace_back("komi", absl::StrCat(*komi));
  if (handicap) args.emplace_back("handicap", absl::StrCat(*handicap));
  if (!source.empty()) args.emplace_back("source", source);
  if (job) args.emplace_back("job", absl::StrCat(*job));
  if (!policy.empty()) args.emplace_back("policy", policy);
  if (!records.empty()) args.emplace_back("records", records);
  if (from != 0) args.emplace_back("from", absl::StrCat(from));
  if (to != 0) args.emplace_back("to", absl::StrCat(to));
  return backend::FilterFromArgs(args, "--");
}

void SecurityFlags::Add(CLI::App* cmd) {
  cmd->add_option("--token", token,
                  "Access token of the coordinator (--auth required); "
                  "default: the environment's QIPU_TOKEN")
      ->envname("QIPU_TOKEN");
  cmd->add_option("--tls-ca", tls_ca,
                  "TLS: CA certificate (PEM) the coordinator's certificate "
                  "must chain to");
  cmd->add_option("--tls-cert", tls_cert,
                  "mTLS: this client's certificate (PEM), with --tls-key");
  cmd->add_option("--tls-key", tls_key,
                  "mTLS: this client's private key (PEM)");
  cmd->add_option("--tls-server-name", tls_server_name,
                  "TLS: name the coordinator's certificate must carry "
                  "(default: the host of --server)");
}

absl::Status SecurityFlags::Resolve(base::ClientTls* tls,
                                    std::string* token_out) const {
  if (absl::Status s = base::LoadClientTls(tls_ca, tls_cert, tls_key, tls);
      !s.ok()) {
    return s;
  }
  if (!tls_server_name.empty() && tls_ca.empty()) {
    return absl::InvalidArgumentError(
        "--tls-server-name: needs TLS (--tls-ca)");
  }
  tls->server_name = tls_server_name;
  if (absl::Status s = base::ValidateToken(token, "--token"); !s.ok()) {
    return s;
  }
  *token_out = token;
  return absl::OkStatus();
}

void TargetFlags::Add(CLI::App* cmd, double default_timeout_s,
                      const std::string& what) {
  timeout_s = default_timeout_s;
  cmd->add_option("--server", server, "Coordinator address HOST:PORT (gRPC)");
  cmd->add_option("--db", db,
                  "Database directory, opened here (not one a running "
                  "coordinator holds)");
  cmd->add_option("--timeout", timeout_s, what)
      ->check(CLI::Range(0.01, 7 * 86400.0))
      ->capture_default_str();
  security.Add(cmd);
}

absl::StatusOr<backend::Target> TargetFlags::ToTarget() const {
  backend::Target t;
  t.server = server;
  t.db = db;
  t.timeout = absl::Seconds(timeout_s);
  if (absl::Status s = backend::ValidateTarget(t); !s.ok()) return s;
  if (!server.empty()) {
    if (absl::Status s = security.Resolve(&t.tls, &t.token); !s.ok()) {
      return s;
    }
  }
  return t;
}

void TrainingFlags::Add(CLI::App* cmd) {
  filter.Add(cmd);
  cmd->add_option("--cycles", cycles,
                  "Games with cycles (with), without (without) or any")
      ->check(CLI::IsMember({"any", "with", "without"}))
      ->capture_default_str();
  cmd->add_flag("--drop-void", drop_void,
                "Skip games without a result (otherwise flagged void)");
  auto* k = cmd->add_option("--positions-per-game", positions_per_game,
                            "Positions sampled per game (default: all)");
  cmd->add_flag("--all-positions", all_positions, "Every position of a game")
      ->excludes(k);
  cmd->add_option("--pos-len", pos_len, "Side rows are padded to")
      ->capture_default_str();
  cmd->add_option("--symmetries", symmetries,
                  "1, or 8 for a random board symmetry per row")
      ->check(CLI::IsMember({1, 8}))
      ->capture_default_str();
  cmd->add_option("--seed", seed, "Seed of sampling, symmetries, mixing")
      ->capture_default_str();
  cmd->add_option("--min-move", min_move, "Skip positions before this move")
      ->capture_default_str();
  cmd->add_option("--shuffle-window", shuffle_window,
                  "Rows mixed before they go out (0 = game order)")
      ->capture_default_str();
  cmd->add_option("--recent-games", recent_games,
                  "Only the last N games of the selection (0 = all)")
      ->capture_default_str();
  cmd->add_option("--max-rows", max_rows, "Stop after N rows (0 = all)")
      ->capture_default_str();
  cmd->add_option("--weight-by", weight_by,
                  "Row weights: constant (--row-weight), length "
                  "(--row-weight x 100 / the rows of the row's game) or "
                  "recency (--row-weight x 2 (rank + 1) / (games + 1) of the "
                  "game's rank in date order, 0 the oldest; needs --order "
                  "date)")
      ->check(CLI::IsMember({"constant", "length", "recency"}))
      ->capture_default_str();
  cmd->add_option("--order", order,
                  "Games in date order (when played: self-play by the time "
                  "stored, imports by their DT; then id) or key order (job "
                  "and index, then content hash)")
      ->check(CLI::IsMember({"date", "key"}))
      ->capture_default_str();
  cmd->add_flag("--skip-oversize", skip_oversize,
                "Leave out (and count) games whose board is larger than "
                "--pos-len instead of refusing the selection");
  cmd->add_flag("--ladders", ladders,
                "Fill KataGo's ladder planes 14-17 (rows are several times "
                "slower to make; otherwise 0)");
  cmd->add_option("--row-weight", row_weight,
                  "Scale of the row weights (KataGo's globalTargetsNC 25)")
      ->check(CLI::Range(1e-6, 1000.0))
      ->capture_default_str();
}

absl::StatusOr<qipu::v1::TrainingRequest> TrainingFlags::Request() const {
  qipu::v1::TrainingRequest req;
  absl::StatusOr<qipu::v1::Filter> f = filter.ToProto();
  if (!f.ok()) return f.status();
  *req.mutable_filter() = *std::move(f);
  req.set_cycles(cycles == "with"      ? qipu::v1::CYCLE_SELECTION_WITH
                 : cycles == "without" ? qipu::v1::CYCLE_SELECTION_WITHOUT
                                       : qipu::v1::CYCLE_SELECTION_ANY);
  req.set_drop_void(drop_void);
  req.set_pos_len(pos_len);
  req.set_symmetries(symmetries);
  req.set_seed(seed);
  req.set_positions_per_game(all_positions ? 0 : positions_per_game);
  req.set_min_move(min_move);
  req.set_shuffle_window(shuffle_window);
  req.set_recent_games(recent_games);
  req.set_max_rows(max_rows);
  req.set_weight_by(weight_by);
  req.set_row_weight(row_weight);
  req.set_ladder_planes(ladders);
  req.set_order(order == "key" ? qipu::v1::TRAINING_ORDER_KEY
                               : qipu::v1::TRAINING_ORDER_DATE);
  req.set_skip_oversize(skip_oversize);
  return req;
}

}  // namespace qipu::ops
