// Process test: the Prometheus endpoint of a running qipu-coordinator.
// A worker process plays a small job; the page then shows what an
// operator watches -- games by outcome, leases, ingest latency and queue
// depth, RocksDB sizes, storage health, the opening index's buffer -- with
// the values the job implies, and keeps answering scrape after scrape.
//
// The endpoint is civetweb (through prometheus-cpp), whose threads have
// 100 KB stacks; glibc carves a process's static thread-local storage out
// of every thread's stack, so large thread_local objects in qipu once left
// civetweb too little and crashed the coordinator at its first scrape
// (under the sanitizers, where library calls take more stack). The second
// test keeps the binaries' static TLS small.
#include <elf.h>
#include <signal.h>

#include <cstdint>
#include <fstream>
#include <memory>
#include <optional>
#include <string>

#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"
#include "tests/ops/process_fixture.h"

namespace qipu::testing {
namespace {

constexpr uint64_t kMetricsGames = 120;

TEST(OpsMetrics, PageShowsAFinishedJobAndKeepsAnswering) {
  TempDir tmp;
  ASSERT_FALSE(tmp.path().empty());
  CoordinatorProcess coord(tmp.Sub("db"), tmp.Sub("coordinator"),
                           {"--metrics", "127.0.0.1:0"});
  ASSERT_TRUE(coord.Start().ok()) << coord.LogTail();
  const int port = coord.metrics_port();
  ASSERT_GT(port, 0) << coord.process()->Stdout();

  // Before any game: the page answers, with zero counts.
  auto page = ScrapeMetrics(port);
  ASSERT_TRUE(page.ok()) << page.status() << "\n" << coord.LogTail();
  EXPECT_EQ(MetricValue(*page, "qipu_games_total{outcome=\"accepted\"}"), 0);
  EXPECT_EQ(MetricValue(*page, "qipu_storage_writable"), 1);

  auto client = std::make_unique<Client>(coord.address());
  auto job = client->SubmitJob(kMetricsGames, JobConfigFor(9, 4242));
  ASSERT_TRUE(job.ok()) << job.status();
  auto worker = StartWorker(coord.address(), tmp.path(), "w", /*threads=*/2,
                            /*lease_games=*/50);
  ASSERT_TRUE(worker.ok()) << worker.status();
  ASSERT_TRUE(WaitUntil(
      [&] {
        auto st = client->JobStatus(*job);
        return st.ok() && st->state() == qipu::v1::JOB_STATE_DONE;
      },
      absl::Seconds(60) * kSlowdown, absl::Milliseconds(20)))
      << coord.LogTail() << (*worker)->StderrTail();
  (*worker)->Kill(SIGTERM);
  EXPECT_EQ((*worker)->Wait(absl::Seconds(30) * kSlowdown), 0)
      << (*worker)->StderrTail();

  // Gauges are sampled on the coordinator's tick: wait for the sample
  // that follows the job's end.
  std::string last;
  const bool settled = WaitUntil(
      [&] {
        auto p = ScrapeMetrics(port);
        if (!p.ok()) return false;
        last = *p;
        return MetricValue(last, "qipu_leases{state=\"open\"}") == 0 &&
               MetricValue(last, "qipu_job_games_pending") == 0;
      },
      absl::Seconds(10) * kSlowdown, absl::Milliseconds(50));
  ASSERT_TRUE(settled) << last << "\n" << coord.LogTail();
  EXPECT_EQ(MetricValue(last, "qipu_games_total{outcome=\"accepted\"}"),
            static_cast<double>(kMetricsGames));
  EXPECT_EQ(MetricValue(last, "qipu_games_total{outcome=\"rejected\"}"), 0);
  EXPECT_EQ(MetricValue(last, "qipu_leases{state=\"expired\"}"), 0);
  EXPECT_EQ(MetricValue(last, "qipu_ingest_queue_depth"), 0);
  // One latency sample per acknowledged game.
  EXPECT_EQ(MetricValue(last, "qipu_ingest_latency_seconds_count"),
            static_cast<double>(kMetricsGames));
  EXPECT_EQ(MetricValue(last, "qipu_storage_writable"), 1);
  for (const char* name :
       {"qipu_rocksdb_bytes{cf=\"games\",kind=\"memtable\"}",
        "qipu_rocksdb_bytes{cf=\"positions\",kind=\"buffer\"}",
        "qipu_rocksdb_block_cache_bytes",
        "qipu_position_index_buffered_entries",
        "qipu_position_index_flushes{outcome=\"failed\"}"}) {
    EXPECT_TRUE(MetricValue(last, name).has_value()) << name << "\n" << last;
  }
  // The games' records are in the games family's memtable or files.
  const double games_bytes =
      MetricValue(last, "qipu_rocksdb_bytes{cf=\"games\",kind=\"memtable\"}")
          .value_or(0) +
      MetricValue(last, "qipu_rocksdb_bytes{cf=\"games\",kind=\"sst\"}")
          .value_or(0);
  EXPECT_GT(games_bytes, 0) << last;
  // Every query answered is counted (counters need no sampling tick).
  const double queries_before =
      MetricValue(last, "qipu_queries_total").value_or(-1);
  EXPECT_GE(queries_before, 0) << last;
  (void)client->Results({});  // answered or refused, it is counted
  (void)client->Ko({});
  auto after = ScrapeMetrics(port);
  ASSERT_TRUE(after.ok()) << after.status();
  EXPECT_EQ(MetricValue(*after, "qipu_queries_total"), queries_before + 2);

  // Scrape after scrape, the endpoint answers and the process lives.
  for (int i = 0; i < 20; ++i) {
    auto p = ScrapeMetrics(port);
    ASSERT_TRUE(p.ok()) << "scrape " << i << ": " << p.status() << "\n"
                        << coord.LogTail();
  }
  ASSERT_TRUE(coord.process()->IsRunning()) << coord.LogTail();
  client.reset();
  EXPECT_EQ(coord.Stop(), 0) << coord.LogTail();
}

// The memory size of the PT_TLS segment of the ELF file at `path` (0 when
// it has none), or nullopt when it cannot be read as a 64-bit ELF file.
std::optional<uint64_t> StaticTlsBytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  Elf64_Ehdr eh{};
  if (!in.read(reinterpret_cast<char*>(&eh), sizeof(eh))) return std::nullopt;
  if (eh.e_ident[EI_MAG0] != ELFMAG0 || eh.e_ident[EI_MAG1] != ELFMAG1 ||
      eh.e_ident[EI_CLASS] != ELFCLASS64 ||
      eh.e_phentsize != sizeof(Elf64_Phdr)) {
    return std::nullopt;
  }
  for (int i = 0; i < eh.e_phnum; ++i) {
    Elf64_Phdr ph{};
    in.seekg(static_cast<std::streamoff>(eh.e_phoff + i * sizeof(ph)));
    if (!in.read(reinterpret_cast<char*>(&ph), sizeof(ph))) return std::nullopt;
    if (ph.p_type == PT_TLS) return ph.p_memsz;
  }
  return 0;
}

TEST(OpsMetrics, BinariesKeepTheirStaticThreadLocalStorageSmall) {
  // Large per-thread state belongs on the heap (a thread_local pointer).
  constexpr uint64_t kLimit = 16 << 10;
  for (const std::string& binary :
       {std::string(kCoordinatorBinary), std::string(kWorkerBinary),
        std::string(kQipuBinary)}) {
    auto tls = StaticTlsBytes(binary);
    ASSERT_TRUE(tls.has_value()) << binary << " is not a readable ELF file";
    EXPECT_LT(*tls, kLimit)
        << binary << " has " << *tls << " bytes of static thread-local storage";
  }
}

}  // namespace
}  // namespace qipu::testing
