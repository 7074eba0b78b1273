#include "policy/mcts_options.h"

#include <algorithm>
#include <cmath>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "base/quote.h"

namespace qipu::policy {
namespace {

constexpr const char* kKeys =
    "c, expand, nodes, playout, playouts, prior, rave, resign, reuse, seed, "
    "threads";

absl::Status BadValue(const std::string& key, const std::string& value,
                      absl::string_view accepted) {
  return absl::InvalidArgumentError(absl::StrCat(
      "mcts: bad value ", base::QuoteInput(value, base::kMaxQuotedBytes, '"'),
      " for ", key, " (accepted: ", accepted, ")"));
}

absl::Status ParseInt(const std::string& key, const std::string& value,
                      int64_t lo, int64_t hi, int64_t* out) {
  int64_t v;
  if (!absl::SimpleAtoi(value, &v) || v < lo || v > hi) {
    return BadValue(key, value,
                    absl::StrCat("an integer from ", lo, " to ", hi));
  }
  *out = v;
  return absl::OkStatus();
}

// A number in [lo, hi], rounded to what its canonical text says (so that a
// policy behaves exactly as its canonical spec reads).
absl::Status ParseReal(const std::string& key, const std::string& value,
                       double lo, double hi, double* out) {
  double v;
  if (!absl::SimpleAtod(value, &v) || !std::isfinite(v) || v < lo || v > hi) {
    return BadValue(key, value, absl::StrCat("a number from ", lo, " to ", hi));
  }
  const bool ok = absl::SimpleAtod(absl::StrCat(v), out);
  (void)ok;
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<MctsOptions> ParseMctsOptions(
    const std::vector<std::pair<std::string, std::string>>& args) {
  MctsOptions o;
  for (const auto& [key, value] : args) {
    absl::Status s;
    int64_t i = 0;
    if (key == "playouts") {
      s = ParseInt(key, value, 1, 100'000'000, &o.playouts);
    } else if (key == "threads") {
      s = ParseInt(key, value, 1, 64, &i);
      o.threads = static_cast<int>(i);
    } else if (key == "playout") {
      absl::StatusOr<PlayoutKind> k = ParsePlayoutKind(value);
      if (!k.ok()) {
        s = BadValue(key, value, "random, pattern");
      } else {
        o.playout = *k;
      }
    } else if (key == "seed") {
      uint64_t seed;
      if (!absl::SimpleAtoi(value, &seed)) {
        s = BadValue(key, value, "an integer from 0 to 2^64-1");
      } else {
        o.seed = seed;
      }
    } else if (key == "c") {
      s = ParseReal(key, value, 0, 10, &o.c);
    } else if (key == "prior") {
      s = ParseInt(key, value, 0, 1000, &i);
      o.prior = static_cast<int>(i);
    } else if (key == "rave") {
      s = ParseReal(key, value, 0, 1e9, &o.rave);
    } else if (key == "resign") {
      s = ParseReal(key, value, 0, 0.5, &o.resign);
    } else if (key == "reuse") {
      s = ParseInt(key, value, 0, 1, &i);
      o.reuse = i != 0;
    } else if (key == "expand") {
      s = ParseInt(key, value, 1, 1000, &i);
      o.expand = static_cast<int>(i);
    } else if (key == "nodes") {
      s = ParseInt(key, value, 1000, 100'000'000, &o.nodes);
    } else {
      s = absl::InvalidArgumentError(
          absl::StrCat("mcts: unknown key ",
                       base::QuoteInput(key, base::kMaxQuotedBytes, '"'),
                       " (accepted: ", kKeys, ")"));
    }
    if (!s.ok()) return s;
  }
  return o;
}

std::string MctsSpec(const MctsOptions& o) {
  const MctsOptions d;
  // In key order.
  std::vector<std::string> args;
  if (o.c != d.c) args.push_back(absl::StrCat("c=", o.c));
  if (o.expand != d.expand) args.push_back(absl::StrCat("expand=", o.expand));
  if (o.nodes != d.nodes) args.push_back(absl::StrCat("nodes=", o.nodes));
  if (o.playout != d.playout) {
    args.push_back(absl::StrCat("playout=", PlayoutKindName(o.playout)));
  }
  if (o.playouts != d.playouts) {
    args.push_back(absl::StrCat("playouts=", o.playouts));
  }
  if (o.prior != d.prior) args.push_back(absl::StrCat("prior=", o.prior));
  if (o.rave != d.rave) args.push_back(absl::StrCat("rave=", o.rave));
  if (o.resign != d.resign) args.push_back(absl::StrCat("resign=", o.resign));
  if (o.reuse != d.reuse)
    args.push_back(absl::StrCat("reuse=", o.reuse ? 1 : 0));
  if (o.seed.has_value()) args.push_back(absl::StrCat("seed=", *o.seed));
  if (o.threads != d.threads) {
    args.push_back(absl::StrCat("threads=", o.threads));
  }
  if (args.empty()) return "mcts";
  return absl::StrCat("mcts:", absl::StrJoin(args, ","));
}

}  // namespace qipu::policy
