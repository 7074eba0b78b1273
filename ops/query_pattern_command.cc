// `qipu query pattern`: games in which a local pattern appeared (Kombilo's
// pattern search), where it first appeared, the moves played next with
// their counts and win rates, and the games, paged -- against a
// coordinator (--server) or a database opened here (--db). The filters are
// the other queries' (--size sets the board, default 19).
//
//   qipu query pattern --db ./qipu-data --pattern '..../.X../..O./....'
//   --corner qipu query pattern --db ./qipu-data --pattern joseki.txt --anchor
//   Q16 qipu query pattern --server host:7070 --pattern 'XO/OX' --anywhere
//   --json
//
// Exit status: 0 answered, 1 the query failed, 2 bad flags or pattern.
#include <cstdio>
#include <filesystem>
#include <memory>
#include <string>

#include "absl/status/status.h"
#include "backend/query_client.h"
#include "base/console.h"
#include "base/files.h"
#include "ops/commands.h"
#include "ops/flags.h"
#include "report/pattern_report.h"

namespace qipu::ops {
namespace {

struct QueryPatternFlags {
  TargetFlags target;
  FilterFlags filter;
  bool json = false;
  std::string pattern;
  bool anywhere = false;
  bool corner = false;
  bool side = false;
  std::string anchor;
  bool colour_swap = false;
  uint32_t page_size = 0;
  std::string page_token;
};

int QueryPatternFail(const absl::Status& s) {
  return base::Fail("query pattern", s.message(),
                    absl::IsInvalidArgument(s) ? 2 : 1);
}

// --pattern's text: the file's contents when a file of that name exists.
absl::StatusOr<std::string> QueryPatternText(const std::string& arg) {
  std::error_code ec;
  if (!std::filesystem::is_regular_file(arg, ec)) return arg;
  if (std::filesystem::file_size(arg, ec) > (1u << 16) && !ec) {
    return absl::InvalidArgumentError("pattern: file " + arg +
                                      " is larger than 64 KB");
  }
  return base::ReadFile(arg);
}

int RunQueryPattern(const QueryPatternFlags& f) {
  auto filter = f.filter.ToProto();
  if (!filter.ok()) return QueryPatternFail(filter.status());
  auto text = QueryPatternText(f.pattern);
  if (!text.ok()) return QueryPatternFail(text.status());
  qipu::v1::PatternRequest req;
  *req.mutable_filter() = *filter;
  req.set_pattern(*text);
  req.set_placement(f.anywhere ? qipu::v1::PATTERN_PLACEMENT_ANYWHERE
                    : f.corner ? qipu::v1::PATTERN_PLACEMENT_CORNER
                    : f.side   ? qipu::v1::PATTERN_PLACEMENT_SIDE
                               : qipu::v1::PATTERN_PLACEMENT_FIXED);
  req.set_anchor(f.anchor);
  req.set_colour_swap(f.colour_swap);
  req.set_page_size(f.page_size);
  req.set_page_token(f.page_token);
  auto target = f.target.ToTarget();
  if (!target.ok()) return QueryPatternFail(target.status());
  auto client = backend::QueryClient::Open(*target);
  if (!client.ok()) return QueryPatternFail(client.status());
  auto r = (*client)->Pattern(req);
  if (!r.ok()) return QueryPatternFail(r.status());
  if (f.json) {
    std::printf("%s\n", report::PatternJson(*r).dump().c_str());
  } else {
    std::fputs(report::PatternText(*r).c_str(), stdout);
  }
  return 0;
}

}  // namespace

void AddQueryPatternCommand(CLI::App* query, int* exit_code) {
  auto f = std::make_shared<QueryPatternFlags>();
  CLI::App* cmd = query->add_subcommand(
      "pattern",
      "Games in which a local pattern appeared (all 8 symmetries), the move "
      "where it first did, the continuations with win rates, and the games");
  f->target.Add(cmd, 60, "Deadline of the query, seconds");
  cmd->add_flag("--json", f->json, "Print one JSON object");
  f->filter.Add(cmd);
  cmd->add_option("--pattern", f->pattern,
                  "The pattern, or a file holding it: rows of equal length, "
                  "top row first, separated by '/' or new lines; X black, O "
                  "white, . empty, * any, x black or empty, o white or empty")
      ->required();
  CLI::Option* anywhere =
      cmd->add_flag("--anywhere", f->anywhere, "The pattern at any offset");
  CLI::Option* corner = cmd->add_flag(
      "--corner", f->corner, "The pattern in any corner (top-left at A19)");
  CLI::Option* side =
      cmd->add_flag("--side", f->side, "The pattern's top row on any edge");
  anywhere->excludes(corner)->excludes(side);
  corner->excludes(side);
  cmd->add_option("--anchor", f->anchor,
                  "GTP vertex of the pattern's top-left cell: where it stands "
                  "(and its symmetric images) without --anywhere/--corner/"
                  "--side, and the frame continuations are shown in "
                  "(default: the top-left corner)");
  cmd->add_flag("--colour-swap", f->colour_swap,
                "Also match the pattern with the colours swapped");
  cmd->add_option("--page-size", f->page_size,
                  "Games per page (default 50, at most 1000)");
  cmd->add_option("--page-token", f->page_token,
                  "The next_page_token of the previous page");
  cmd->callback([f, exit_code] { *exit_code = RunQueryPattern(*f); });
}

}  // namespace qipu::ops
