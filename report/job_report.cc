#include "report/job_report.h"

#include "absl/strings/str_cat.h"
#include "base/console.h"

namespace qipu::report {

const char* JobStateName(qipu::v1::JobState s) {
  switch (s) {
    case qipu::v1::JOB_STATE_DONE:
      return "done";
    case qipu::v1::JOB_STATE_CANCELLED:
      return "cancelled";
    default:
      return "running";
  }
}

nlohmann::json JobJson(const qipu::v1::JobStatus& s) {
  return {{"job", s.job()},
          {"requested", s.requested()},
          {"done", s.done()},
          {"rejected", s.rejected()},
          {"state", JobStateName(s.state())},
          {"open_leases", s.open_leases()},
          {"size", s.config().width()},
          {"rules", s.config().rules().preset()},
          {"seed", s.config().seed()}};
}

std::string JobsText(const std::vector<qipu::v1::JobStatus>& jobs) {
  std::vector<std::vector<std::string>> rows;
  for (const auto& j : jobs) {
    rows.push_back({absl::StrCat(j.job()), JobStateName(j.state()),
                    absl::StrCat(j.done(), "/", j.requested()),
                    absl::StrCat(j.rejected()), absl::StrCat(j.open_leases()),
                    absl::StrCat(j.config().width(), "x", j.config().height()),
                    j.config().rules().preset()});
  }
  return base::FormatTable(
      {"job", "state", "stored", "rejected", "leases", "size", "rules"}, rows);
}

}  // namespace qipu::report
