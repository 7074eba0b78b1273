#include "ops/job_spec.h"

#include "absl/random/random.h"
#include "absl/strings/str_cat.h"
#include "proto/convert.h"
#include "rules/coord.h"
#include "rules/scoring.h"

namespace qipu::ops {

void JobSpecFlags::Add(CLI::App* cmd) {
  cmd->add_option("--games", games, "Number of games")
      ->check(CLI::Range(uint64_t{1}, uint64_t{100000000}))
      ->capture_default_str();
  cmd->add_option("--size", size, "Board size (2..25)")->capture_default_str();
  rules.Add(cmd);
  cmd->add_option("--handicap", handicap, "Fixed handicap stones (0, 2..9)")
      ->capture_default_str();
  cmd->add_option("--policy", policy, "Playout policy (random)")
      ->capture_default_str();
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
  c->set_index_depth(static_cast<uint32_t>(index_depth));
  if (seed) {
    c->set_seed(*seed);
  } else {
    absl::BitGen gen;
    c->set_seed(absl::Uniform<uint64_t>(gen) >> 11);
  }
  return req;
}

}  // namespace qipu::ops
