#include "ops/cli_util.h"

#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <sstream>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "grpcpp/create_channel.h"

namespace qipu::ops {

std::shared_ptr<grpc::Channel> Dial(const std::string& address) {
  grpc::ChannelArguments args;
  args.SetMaxReceiveMessageSize(64 << 20);
  args.SetMaxSendMessageSize(64 << 20);
  return grpc::CreateCustomChannel(address, grpc::InsecureChannelCredentials(),
                                   args);
}

void SetDeadline(grpc::ClientContext* ctx, double seconds) {
  ctx->set_deadline(
      std::chrono::system_clock::now() +
      std::chrono::milliseconds(static_cast<int64_t>(seconds * 1000)));
}

bool IsTerminal(int fd) { return isatty(fd) == 1; }

absl::StatusOr<std::string> ReadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    const int e = errno;
    const std::string why = std::strerror(e);
    if (e == ENOENT) return absl::NotFoundError(absl::StrCat(path, ": ", why));
    if (e == EACCES) {
      return absl::PermissionDeniedError(absl::StrCat(path, ": ", why));
    }
    return absl::UnavailableError(absl::StrCat(path, ": ", why));
  }
  std::ostringstream ss;
  ss << in.rdbuf();
  if (in.bad())
    return absl::UnavailableError(absl::StrCat(path, ": read error"));
  return ss.str();
}

ProgressBar::ProgressBar(std::string label, uint64_t total)
    : label_(std::move(label)),
      total_(total),
      enabled_(IsTerminal(2)),
      start_(std::chrono::steady_clock::now()) {}

ProgressBar::~ProgressBar() { Finish(); }

void ProgressBar::Update(uint64_t done, const std::string& suffix) {
  last_done_ = done;
  last_suffix_ = suffix;
  if (!enabled_) return;
  const auto now = std::chrono::steady_clock::now();
  if (now - last_draw_ < std::chrono::milliseconds(100) &&
      !(total_ != 0 && done >= total_)) {
    return;
  }
  last_draw_ = now;
  const double secs = std::chrono::duration<double>(now - start_).count();
  const double rate = secs > 0 ? done / secs : 0;
  std::string bar;
  if (total_ != 0) {
    const int width = 30;
    const int filled =
        static_cast<int>(width * std::min<double>(1.0, double(done) / total_));
    bar = "[" + std::string(filled, '#') + std::string(width - filled, '.') +
          "] ";
    bar += absl::StrFormat("%d/%d", done, total_);
  } else {
    bar = absl::StrCat(done);
  }
  std::fprintf(stderr, "\r\033[K%s %s  %.0f/s %s", label_.c_str(), bar.c_str(),
               rate, suffix.c_str());
  std::fflush(stderr);
}

void ProgressBar::Finish() {
  if (finished_) return;
  finished_ = true;
  if (!enabled_) return;
  last_draw_ = {};
  Update(last_done_, last_suffix_);
  std::fprintf(stderr, "\n");
}

void PrintTable(const std::vector<std::string>& header,
                const std::vector<std::vector<std::string>>& rows) {
  std::vector<size_t> width(header.size(), 0);
  auto measure = [&](const std::vector<std::string>& r) {
    for (size_t i = 0; i < r.size() && i < width.size(); ++i) {
      // Count UTF-8 code points, not bytes.
      size_t n = 0;
      for (unsigned char c : r[i]) n += (c & 0xC0) != 0x80;
      width[i] = std::max(width[i], n);
    }
  };
  measure(header);
  for (const auto& r : rows) measure(r);
  auto print = [&](const std::vector<std::string>& r) {
    std::string line;
    for (size_t i = 0; i < r.size() && i < width.size(); ++i) {
      size_t n = 0;
      for (unsigned char c : r[i]) n += (c & 0xC0) != 0x80;
      line += r[i];
      if (i + 1 < r.size()) line += std::string(width[i] - n + 2, ' ');
    }
    std::printf("%s\n", line.c_str());
  };
  print(header);
  size_t total = 0;
  for (size_t w : width) total += w + 2;
  std::printf("%s\n", std::string(total > 2 ? total - 2 : 0, '-').c_str());
  for (const auto& r : rows) print(r);
}

void RuleFlags::Add(CLI::App* cmd) {
  cmd->add_option("--rules", preset,
                  "Rule preset: chinese, chinese-superko, tromp-taylor, aga, "
                  "new-zealand");
  cmd->add_option("--ko", ko, "Override: simple, positional, situational");
  cmd->add_option("--cycle", cycle,
                  "Override the balanced-cycle outcome: no-result, draw, "
                  "replay, none");
  cmd->add_flag("--suicide", suicide, "Override: multi-stone suicide legal");
  cmd->add_option("--komi", komi,
                  "Override the komi (points, multiple of 0.5)");
}

absl::StatusOr<rules::Rules> RuleFlags::Resolve(
    const rules::Rules& fallback) const {
  rules::Rules r = fallback;
  if (!preset.empty()) {
    auto p = rules::PresetRules(preset);
    if (!p.ok())
      return absl::InvalidArgumentError(
          absl::StrCat("--rules: ", p.status().message()));
    r = *p;
  }
  if (!ko.empty()) {
    auto k = rules::ParseKoRule(ko);
    if (!k.ok())
      return absl::InvalidArgumentError(
          absl::StrCat("--ko: ", k.status().message()));
    r.ko = *k;
  }
  if (!cycle.empty()) {
    auto c = rules::ParseCycleRule(cycle);
    if (!c.ok())
      return absl::InvalidArgumentError(
          absl::StrCat("--cycle: ", c.status().message()));
    r.cycle = *c;
  }
  if (suicide) r.multi_stone_suicide = true;
  if (komi) {
    if (absl::Status s = rules::ValidateKomi(*komi); !s.ok()) {
      return absl::InvalidArgumentError(absl::StrCat("--komi: ", s.message()));
    }
    r.komi = *komi;
  }
  return r;
}

}  // namespace qipu::ops
