// A real Coordinator for the worker's service tests: a fresh RocksDB in a
// temp dir, serving on 127.0.0.1 on an ephemeral port. A test that
// restarts it puts a TcpProxy (tests/common/tcp_proxy.h) in front, so
// that its workers find the new one without anyone reusing a freed port.
#ifndef QIPU_TESTS_WORKER_COORDINATOR_FIXTURE_H_
#define QIPU_TESTS_WORKER_COORDINATOR_FIXTURE_H_

#include <cstdint>
#include <functional>
#include <memory>
#include <string>

#include "absl/strings/str_cat.h"
#include "absl/time/clock.h"
#include "absl/time/time.h"
#include "coordinator/coordinator.h"
#include "gtest/gtest.h"
#include "qipu/v1/work.pb.h"

namespace qipu::worker::testing {

struct CoordinatorSetup {
  int lease_games = 64;
  absl::Duration lease_ttl = absl::Seconds(30);
  // RocksDB's file I/O goes through this Env when set (fault injection).
  rocksdb::Env* env = nullptr;
  // fsync the WAL per commit (false: --no-sync).
  bool sync = true;
  // The upload streams' window and validation helpers (-1: the default).
  int upload_window = 1024;
  int validate_threads = -1;
};

inline std::unique_ptr<coordinator::Coordinator> StartCoordinator(
    const std::string& db_dir, const CoordinatorSetup& setup = {}) {
  coordinator::CoordinatorOptions o;
  o.db_dir = db_dir;
  o.listen = "127.0.0.1:0";
  o.jobs.lease_games = setup.lease_games;
  o.jobs.lease_ttl = setup.lease_ttl;
  o.store.block_cache_bytes = 8u << 20;
  o.store.write_buffer_bytes = 4u << 20;
  o.store.total_write_buffer_bytes = 16u << 20;
  o.store.env = setup.env;
  o.store.sync = setup.sync;
  o.work.upload_window = setup.upload_window;
  o.work.validate_threads = setup.validate_threads;
  o.store.resume_every = absl::Milliseconds(50);
  o.tick = absl::Milliseconds(50);
  absl::StatusOr<std::unique_ptr<coordinator::Coordinator>> c =
      coordinator::Coordinator::Start(o);
  EXPECT_TRUE(c.ok()) << c.status();
  return c.ok() ? std::move(*c) : nullptr;
}

inline uint64_t SubmitJob(coordinator::Coordinator& c, uint64_t games,
                          const qipu::v1::JobConfig& config) {
  absl::StatusOr<uint64_t> job = c.jobs().Submit(games, config);
  EXPECT_TRUE(job.ok()) << job.status();
  return job.ok() ? *job : 0;
}

inline qipu::v1::JobStatus JobStatusOf(coordinator::Coordinator& c,
                                       uint64_t job) {
  auto s = c.jobs().Status(job);
  EXPECT_TRUE(s.ok() && s->size() == 1) << s.status();
  return s.ok() && s->size() == 1 ? (*s)[0] : qipu::v1::JobStatus();
}

#if defined(__SANITIZE_ADDRESS__)
// How much slower everything runs in a sanitizer build.
inline constexpr int kSlowdown = 4;
#else
inline constexpr int kSlowdown = 1;
#endif

// Polls `done` every few milliseconds until it holds or `timeout` passes
// (a deadline for what should happen, generous for a loaded machine: the
// test waits only as long as the condition takes).
inline bool WaitFor(const std::function<bool()>& done,
                    absl::Duration timeout = absl::Seconds(60) * kSlowdown) {
  const absl::Time until = absl::Now() + timeout;
  while (!done()) {
    if (absl::Now() > until) return false;
    absl::SleepFor(absl::Milliseconds(5));
  }
  return true;
}

}  // namespace qipu::worker::testing

#endif  // QIPU_TESTS_WORKER_COORDINATOR_FIXTURE_H_
