#include "gtp/analyze_info.h"

#include <algorithm>
#include <cmath>
#include <utility>

#include "absl/container/flat_hash_set.h"
#include "absl/strings/ascii.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"
#include "rules/coord.h"

namespace qipu::gtp {
namespace {

// Keys whose value is a list running to the next `info` or list key
// (KataGo writes these after the scalars; `pv` is the principal
// variation).
bool IsListKey(absl::string_view key) {
  return key == "pv" || key == "pvVisits" || key == "pvEdgeVisits" ||
         key == "ownership" || key == "ownershipStdev" ||
         key == "movesOwnership" || key == "movesOwnershipStdev";
}

// The parser of one line: its number (1-based) for errors.
class LineParser {
 public:
  LineParser(int line, int width, int height, AnalyzeDialect dialect)
      : line_(line), width_(width), height_(height), dialect_(dialect) {}

  // Parses the `info` entries of `tokens` (tokens[0] == "info") into *out.
  absl::Status Parse(const std::vector<absl::string_view>& tokens,
                     std::vector<AnalyzedMove>* out) const {
    absl::flat_hash_set<rules::Point> seen;
    size_t i = 0;
    while (i < tokens.size()) {
      if (tokens[i] != "info") return Bad(tokens[i], "expected info");
      ++i;
      AnalyzedMove m;
      bool has_move = false;
      bool has_visits = false;
      while (i < tokens.size() && tokens[i] != "info") {
        const absl::string_view key = tokens[i++];
        if (IsListKey(key)) {
          while (i < tokens.size() && tokens[i] != "info" &&
                 !IsListKey(tokens[i])) {
            if (key == "pv") m.pv.emplace_back(tokens[i]);
            ++i;
          }
          continue;
        }
        if (i >= tokens.size() || tokens[i] == "info") {
          return Bad(key, "a key without a value");
        }
        const absl::string_view value = tokens[i++];
        if (key == "move") {
          absl::StatusOr<rules::Point> p =
              rules::ParseGtpPoint(value, width_, height_);
          if (!p.ok() || *p == rules::kResign) {
            return Bad(value, absl::StrCat("not a vertex of the ", width_, "x",
                                           height_, " board"));
          }
          m.point = *p;
          has_move = true;
        } else if (key == "visits") {
          if (!absl::SimpleAtoi(value, &m.visits) || m.visits < 0) {
            return Bad(value, "visits must be a count");
          }
          has_visits = true;
        } else if (key == "winrate" || key == "prior" || key == "lcb") {
          double v = 0;
          if (!absl::SimpleAtod(value, &v) || !std::isfinite(v)) {
            return Bad(value, absl::StrCat(key, " is not a number"));
          }
          if (dialect_ == AnalyzeDialect::kLeelaZero) v /= 10000.0;
          // KataGo's LCB may fall below 0 (or rise above 1): clamp it.
          if (key == "lcb") v = std::clamp(v, 0.0, 1.0);
          if (v < 0 || v > 1) {
            return Bad(value, absl::StrCat(key, " is outside [0, 1]"));
          }
          (key == "winrate" ? m.winrate : key == "prior" ? m.prior : m.lcb) = v;
        } else if (key == "order") {
          if (!absl::SimpleAtoi(value, &m.order) || m.order < 0) {
            return Bad(value, "order must be a rank");
          }
        } else if (key == "scoreLead" || key == "scoreMean") {
          double v = 0;
          if (!absl::SimpleAtod(value, &v) || !std::isfinite(v)) {
            return Bad(value, absl::StrCat(key, " is not a number"));
          }
          (key == "scoreLead" ? m.score_lead : m.score_mean) = v;
        }
        // Other scalar keys (utility, scoreStdev, ...) are skipped.
      }
      if (!has_move || !has_visits) {
        return Bad("info", "an entry without move or visits");
      }
      if (!seen.insert(m.point).second) {
        return Bad(tokens[i - 1], "a move twice in one set");
      }
      out->push_back(std::move(m));
    }
    return absl::OkStatus();
  }

 private:
  absl::Status Bad(absl::string_view token, absl::string_view why) const {
    return absl::InvalidArgumentError(absl::StrCat(
        "analyze response line ", line_, ", at \"", token, "\": ", why));
  }

  int line_;
  int width_;
  int height_;
  AnalyzeDialect dialect_;
};

}  // namespace

absl::StatusOr<AnalyzeReport> ParseAnalyzeResponse(absl::string_view text,
                                                   int width, int height,
                                                   AnalyzeDialect dialect) {
  AnalyzeReport report;
  int line_number = 0;
  for (absl::string_view line : absl::StrSplit(text, '\n')) {
    ++line_number;
    line = absl::StripAsciiWhitespace(line);
    if (absl::ConsumePrefix(&line, "=")) {
      // The response's first line ("=" or "=<id>"), maybe followed by text.
      while (!line.empty() && absl::ascii_isdigit(line.front())) {
        line.remove_prefix(1);
      }
      line = absl::StripAsciiWhitespace(line);
    }
    if (line.empty()) continue;
    const std::vector<absl::string_view> tokens =
        absl::StrSplit(line, ' ', absl::SkipWhitespace());
    if (tokens[0] == "play") {
      if (tokens.size() != 2) {
        return absl::InvalidArgumentError(absl::StrCat(
            "analyze response line ", line_number, ": play takes one vertex"));
      }
      report.play = std::string(tokens[1]);
      continue;
    }
    // Lines after play are pondering on the opponent's turn.
    if (tokens[0] != "info" || !report.play.empty()) continue;
    std::vector<AnalyzedMove> moves;
    LineParser parser(line_number, width, height, dialect);
    if (absl::Status s = parser.Parse(tokens, &moves); !s.ok()) return s;
    report.moves = std::move(moves);
  }
  return report;
}

}  // namespace qipu::gtp
