// Process test: `qipu job submit` and `qipu job status --server` against a
// qipu-coordinator process. A submitted job is what the flags asked for (as
// the coordinator reports it), its status follows a worker process playing
// it to the end, `status` without --job lists every job, and bad flags, an
// unknown job and an unreachable coordinator are refused with a reason.
#include <signal.h>

#include <cstdint>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"
#include "nlohmann/json.hpp"
#include "tests/common/tcp_proxy.h"
#include "tests/ops/process_fixture.h"

namespace qipu::testing {
namespace {

TEST(OpsJobCommand, SubmitAndStatusThroughACoordinator) {
  TempDir tmp;
  ASSERT_FALSE(tmp.path().empty());
  CoordinatorProcess coord(tmp.Sub("db"), tmp.Sub("coordinator"));
  ASSERT_TRUE(coord.Start().ok()) << coord.LogTail();
  const std::string server = coord.address();

  const Ran submit =
      RunQipu(tmp.path(), "submit",
              {"job", "submit", "--server", server, "--games", "80", "--size",
               "9", "--rules", "tromp-taylor", "--seed", "4711", "--json"});
  ASSERT_EQ(submit.status, 0) << submit.err;
  const nlohmann::json s = LastJsonLine(submit.out);
  ASSERT_TRUE(s.is_object()) << submit.out;
  const uint64_t job = s.value("job", uint64_t{0});
  ASSERT_GT(job, 0u) << submit.out;
  EXPECT_EQ(s.value("seed", uint64_t{0}), 4711u);
  // The coordinator has the job as asked.
  Client client(server);
  auto st = client.JobStatus(job);
  ASSERT_TRUE(st.ok()) << st.status();
  EXPECT_EQ(st->requested(), 80u);
  EXPECT_EQ(st->config().width(), 9u);
  EXPECT_EQ(st->config().rules().preset(), "tromp-taylor");
  EXPECT_EQ(st->config().seed(), 4711u);
  // A second job, in text form.
  const Ran text = RunQipu(
      tmp.path(), "submit2",
      {"job", "submit", "--server", server, "--games", "5", "--size", "13"});
  ASSERT_EQ(text.status, 0) << text.err;
  EXPECT_NE(text.out.find(absl::StrCat("job ", job + 1, " submitted")),
            std::string::npos)
      << text.out;

  // Nothing played yet.
  const std::string id = absl::StrCat(job);
  Ran status =
      RunQipu(tmp.path(), "status0",
              {"job", "status", "--server", server, "--job", id, "--json"});
  ASSERT_EQ(status.status, 0) << status.err;
  nlohmann::json j = LastJsonLine(status.out);
  EXPECT_EQ(j.value("job", uint64_t{0}), job) << status.out;
  EXPECT_EQ(j.value("requested", uint64_t{0}), 80u);
  EXPECT_EQ(j.value("done", uint64_t{1}), 0u);
  EXPECT_EQ(j.value("state", ""), "running");
  EXPECT_EQ(j.value("size", 0), 9);
  EXPECT_EQ(j.value("rules", ""), "tromp-taylor");

  // A worker plays the first job (jobs go oldest first) and is stopped.
  auto worker = StartWorker(server, tmp.path(), "w", /*threads=*/2,
                            /*lease_games=*/40, {"--job", id});
  ASSERT_TRUE(worker.ok()) << worker.status();
  ASSERT_TRUE(WaitUntil(
      [&] {
        auto now = client.JobStatus(job);
        return now.ok() && now->state() == qipu::v1::JOB_STATE_DONE;
      },
      absl::Seconds(120) * kSlowdown, absl::Milliseconds(20)))
      << (*worker)->StderrTail();
  (*worker)->Kill(SIGTERM);
  EXPECT_EQ((*worker)->Wait(absl::Seconds(30) * kSlowdown), 0)
      << (*worker)->StderrTail();
  // Its leases come back (returned, or closed once all their games are
  // stored).
  EXPECT_TRUE(WaitUntil(
      [&] {
        auto now = client.JobStatus(job);
        return now.ok() && now->open_leases() == 0;
      },
      absl::Seconds(30) * kSlowdown, absl::Milliseconds(20)));
  status =
      RunQipu(tmp.path(), "status1",
              {"job", "status", "--server", server, "--job", id, "--json"});
  ASSERT_EQ(status.status, 0) << status.err;
  j = LastJsonLine(status.out);
  EXPECT_EQ(j.value("done", uint64_t{0}), 80u) << status.out;
  EXPECT_EQ(j.value("rejected", uint64_t{1}), 0u);
  EXPECT_EQ(j.value("state", ""), "done");
  EXPECT_EQ(j.value("open_leases", uint64_t{1}), 0u);

  // Every job, as a list; and as a table.
  status = RunQipu(tmp.path(), "status-all",
                   {"job", "status", "--server", server, "--json"});
  ASSERT_EQ(status.status, 0) << status.err;
  j = LastJsonLine(status.out);
  ASSERT_TRUE(j.contains("jobs")) << status.out;
  ASSERT_EQ(j["jobs"].size(), 2u) << status.out;
  EXPECT_EQ(j["jobs"][0].value("state", ""), "done");
  EXPECT_EQ(j["jobs"][1].value("requested", uint64_t{0}), 5u);
  EXPECT_EQ(j["jobs"][1].value("size", 0), 13);
  EXPECT_EQ(j["jobs"][1].value("state", ""), "running");
  status = RunQipu(tmp.path(), "status-table",
                   {"job", "status", "--server", server});
  ASSERT_EQ(status.status, 0) << status.err;
  EXPECT_NE(status.out.find("80/80"), std::string::npos) << status.out;
  EXPECT_NE(status.out.find("0/5"), std::string::npos) << status.out;

  // Refusals: bad flags (2, before any call), an unknown job (1).
  const Ran size = RunQipu(
      tmp.path(), "bad-size",
      {"job", "submit", "--server", server, "--games", "5", "--size", "40"});
  EXPECT_EQ(size.status, 2);
  EXPECT_NE(size.err.find("size"), std::string::npos) << size.err;
  const Ran unknown =
      RunQipu(tmp.path(), "unknown",
              {"job", "status", "--server", server, "--job", "999"});
  EXPECT_EQ(unknown.status, 1);
  EXPECT_NE(unknown.err.find("999"), std::string::npos) << unknown.err;
  EXPECT_EQ(coord.Stop(), 0) << coord.LogTail();
}

TEST(OpsJobCommand, AnUnreachableCoordinatorIsAnErrorNotAHang) {
  TempDir tmp;
  ASSERT_FALSE(tmp.path().empty());
  RefusingPort nobody;
  ASSERT_NE(nobody.port(), 0);
  const Ran submit = RunQipu(tmp.path(), "submit",
                             {"job", "submit", "--server", nobody.address(),
                              "--games", "5", "--size", "9"});
  EXPECT_EQ(submit.status, 1);
  EXPECT_NE(submit.err.find("is the coordinator running at that address?"),
            std::string::npos)
      << submit.err;
  const Ran status = RunQipu(tmp.path(), "status",
                             {"job", "status", "--server", nobody.address()});
  EXPECT_EQ(status.status, 1);
  EXPECT_NE(status.err.find("qipu job status: "), std::string::npos)
      << status.err;
}

}  // namespace
}  // namespace qipu::testing
