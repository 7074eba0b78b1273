// Renderings of job statuses (qipu.v1.JobStatus) for `qipu job`.
#ifndef QIPU_REPORT_JOB_REPORT_H_
#define QIPU_REPORT_JOB_REPORT_H_

#include <string>
#include <vector>

#include "nlohmann/json.hpp"
#include "qipu/v1/work.pb.h"

namespace qipu::report {

// "running", "done" or "cancelled".
const char* JobStateName(qipu::v1::JobState s);

// {job, requested, done, rejected, state, open_leases, size, rules, seed}.
// Pure; thread-safe.
nlohmann::json JobJson(const qipu::v1::JobStatus& s);

// A table: job, state, stored/requested, rejected, leases, size, rules.
std::string JobsText(const std::vector<qipu::v1::JobStatus>& jobs);

}  // namespace qipu::report

#endif  // QIPU_REPORT_JOB_REPORT_H_
