// Renderings of a local run (local_run.h) for `qipu local`: the summary as
// one JSON object or as text for a newcomer, the line that says a run
// started (when there is no progress bar), and the note on jobs earlier
// runs left unfinished.
#ifndef QIPU_LOCAL_LOCAL_REPORT_H_
#define QIPU_LOCAL_LOCAL_REPORT_H_

#include <string>

#include "local/local_run.h"
#include "nlohmann/json.hpp"
#include "qipu/v1/work.pb.h"

namespace qipu::local {

// {job, seed, games, seconds, games_per_sec, black_wins, white_wins,
//  draws, void, ko_captures_mean, games_with_ko, cycles [{class, outcome,
//  cycles, games}], top_openings [{move, games, black_wins}], db}, plus
// interrupted/cancelled and requested when the run ended early. Pure.
nlohmann::json SummaryJson(const LocalSummary& s);

// The summary for people: results, ko, cycles, top openings and the query
// that asks more. Pure.
std::string SummaryText(const LocalSummary& s);

// "qipu local: job N started: G games of WxH RULES, database DIR\n".
std::string StartLine(uint64_t job, uint64_t requested,
                      const qipu::v1::JobConfig& config, const std::string& db);

// What is left of job `st` of an earlier run and how to continue or end it.
std::string UnfinishedJobNote(const qipu::v1::JobStatus& st,
                              const std::string& db);

}  // namespace qipu::local

#endif  // QIPU_LOCAL_LOCAL_REPORT_H_
