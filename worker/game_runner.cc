#include "worker/game_runner.h"

#include <pthread.h>

#include <algorithm>
#include <utility>

#include "absl/strings/str_cat.h"
#include "proto/convert.h"
#include "proto/job_policies.h"
#include "qipu/v1/game.pb.h"
#include "rules/coord.h"
#include "rules/game.h"
#include "rules/scoring.h"
#include "rules/selfplay.h"
#include "spdlog/spdlog.h"

namespace qipu::worker {

absl::StatusOr<std::unique_ptr<GameRunner>> GameRunner::Create(
    const GameRunnerOptions& options, Lease work, GameQueue* queue) {
  if (options.threads < 1 || options.threads > 256) {
    return absl::InvalidArgumentError(
        absl::StrCat("threads must be in 1..256, not ", options.threads));
  }
  const qipu::v1::JobConfig& c = work.config;
  const wire::ColourPolicies policies = wire::JobPolicies(c);
  const int width = static_cast<int>(c.width());
  const int height = static_cast<int>(c.height());
  if (absl::Status s = rules::ValidateSize(width, height); !s.ok()) {
    return absl::InvalidArgumentError(
        absl::StrCat("config.width/height: ", s.message()));
  }
  absl::StatusOr<rules::Rules> r = wire::RulesFromProto(c.rules());
  if (!r.ok()) {
    return absl::InvalidArgumentError(
        absl::StrCat("config.rules: ", r.status().message()));
  }
  if (c.handicap() > 0) {
    if (auto h =
            rules::FixedHandicap(width, height, static_cast<int>(c.handicap()));
        !h.ok()) {
      return absl::InvalidArgumentError(
          absl::StrCat("config.handicap: ", h.status().message()));
    }
  }
  // Games through policies: one pair per thread that will play, made now
  // so that a policy this worker cannot make refuses the lease.
  std::vector<std::unique_ptr<PolicyGame>> players;
  if (!policies.light()) {
    const size_t n = std::min<size_t>(static_cast<size_t>(options.threads),
                                      work.indices.size());
    for (size_t i = 0; i < n; ++i) {
      absl::StatusOr<std::unique_ptr<PolicyGame>> g =
          PolicyGame::Create(policies);
      if (!g.ok()) {
        return absl::Status(g.status().code(),
                            absl::StrCat("config: ", g.status().message()));
      }
      players.push_back(*std::move(g));
    }
  }
  return std::unique_ptr<GameRunner>(
      new GameRunner(options, std::move(work), *r, std::move(players), queue));
}

GameRunner::GameRunner(const GameRunnerOptions& options, Lease work,
                       const rules::Rules& rules,
                       std::vector<std::unique_ptr<PolicyGame>> players,
                       GameQueue* queue)
    : options_(options),
      work_(std::move(work)),
      rules_(rules),
      policies_(wire::JobPolicies(work_.config)),
      players_(std::move(players)),
      queue_(queue),
      done_(work_.indices.size(), false) {}

GameRunner::~GameRunner() {
  Stop(StopMode::kAbandon);
  Wait().IgnoreError();
}

void GameRunner::Start() {
  absl::MutexLock lock(&mu_);
  if (started_) return;
  started_ = true;
  const size_t n = std::min<size_t>(static_cast<size_t>(options_.threads),
                                    work_.indices.size());
  running_ = n;
  if (n == 0) all_taken_ = true;
  for (size_t i = 0; i < n; ++i) {
    threads_.emplace_back([this, i] {
      // Named for top -H and profilers (at most 15 characters).
      pthread_setname_np(pthread_self(), "qipu-play");
      if (players_.empty()) {
        Run();
      } else {
        RunPolicies(players_[i].get());
      }
      absl::MutexLock lock(&mu_);
      --running_;
    });
  }
}

void GameRunner::WaitAllTaken() {
  absl::MutexLock lock(&mu_);
  if (!started_) return;
  auto ready = [this]() ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_) {
    return all_taken_ || running_ == 0;
  };
  mu_.Await(absl::Condition(&ready));
}

void GameRunner::Stop(StopMode mode) {
  stop_.store(true);
  {
    absl::MutexLock lock(&mu_);
    all_taken_ = true;
  }
  if (mode == StopMode::kAbandon) {
    abandon_.store(true);
    // Threads blocked in Push() re-check `abandon_` when the queue's
    // mutex is released.
    queue_->Wake();
  }
}

absl::Status GameRunner::Wait() {
  std::vector<std::thread> threads;
  {
    absl::MutexLock lock(&mu_);
    if (!started_) return error_;
    if (joining_) {
      // Another caller is joining: wait for it to finish.
      mu_.Await(absl::Condition(&joined_));
      return error_;
    }
    joining_ = true;
    threads.swap(threads_);
  }
  for (std::thread& t : threads) t.join();
  absl::MutexLock lock(&mu_);
  joined_ = true;
  return error_;
}

std::vector<uint64_t> GameRunner::Unplayed() const {
  absl::MutexLock lock(&mu_);
  std::vector<uint64_t> out;
  for (size_t i = 0; i < done_.size(); ++i) {
    if (!done_[i]) out.push_back(work_.indices[i]);
  }
  return out;
}

void GameRunner::Run() {
  rules::SelfPlaySpec spec = wire::SelfPlaySpecFor(work_.config, rules_);
  // Reused across games: PlaySelfPlay() resets it without allocating.
  rules::Game game(spec.width, spec.height, spec.rules);
  rules::SelfPlayOutcome outcome;
  qipu::v1::Game proto;
  while (!stop_.load()) {
    const size_t i = next_.fetch_add(1);
    if (i >= work_.indices.size()) break;
    if (i + 1 == work_.indices.size()) {
      absl::MutexLock lock(&mu_);
      all_taken_ = true;
    }
    spec.index = work_.indices[i];
    if (absl::Status s = rules::PlaySelfPlay(spec, &game, &outcome); !s.ok()) {
      spdlog::error("lease {} job {} game {}: {}", work_.lease_id, work_.job,
                    spec.index, s.ToString());
      absl::MutexLock lock(&mu_);
      if (error_.ok()) error_ = s;
      break;
    }
    if (abandon_.load()) break;
    wire::SelfPlayToProto(game, spec, outcome, work_.job, options_.worker,
                          &proto);
    if (!Queue(i, spec.index, proto)) break;
  }
}

bool GameRunner::Queue(size_t i, uint64_t index, const qipu::v1::Game& proto) {
  FinishedGame g;
  g.key = GameKey{work_.job, index};
  g.lease_id = work_.lease_id;
  proto.SerializeToString(&g.game);
  if (!queue_->Push(std::move(g), &abandon_)) return false;
  {
    absl::MutexLock lock(&mu_);
    done_[i] = true;
  }
  queued_.fetch_add(1);
  return true;
}

void GameRunner::RunPolicies(PolicyGame* player) {
  rules::SelfPlaySpec spec = wire::SelfPlaySpecFor(work_.config, rules_);
  rules::Game game(spec.width, spec.height, spec.rules);
  PolicyGameOutcome outcome;
  qipu::v1::Game proto;
  while (!stop_.load()) {
    const size_t i = next_.fetch_add(1);
    if (i >= work_.indices.size()) break;
    if (i + 1 == work_.indices.size()) {
      absl::MutexLock lock(&mu_);
      all_taken_ = true;
    }
    spec.index = work_.indices[i];
    if (absl::Status s = player->Play(spec, &game, &outcome); !s.ok()) {
      spdlog::error("lease {} job {} game {}: {}", work_.lease_id, work_.job,
                    spec.index, s.ToString());
      absl::MutexLock lock(&mu_);
      if (error_.ok()) error_ = s;
      break;
    }
    if (!outcome.detail.empty() &&
        outcome.policy_result.reason == rules::EndReason::kOther) {
      spdlog::warn("lease {} job {} game {}: {}", work_.lease_id, work_.job,
                   spec.index, outcome.detail);
    }
    if (abandon_.load()) break;
    PolicyGameToProto(game, spec, outcome, policies_, work_.job,
                      options_.worker, &proto);
    if (!Queue(i, spec.index, proto)) break;
  }
}

}  // namespace qipu::worker
