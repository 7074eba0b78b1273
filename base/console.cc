#include "base/console.h"

#include <unistd.h>

#include <algorithm>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"

namespace qipu::base {

bool IsTerminal(int fd) { return isatty(fd) == 1; }

ProgressBar::ProgressBar(std::string label, uint64_t total, bool enabled)
    : label_(std::move(label)),
      total_(total),
      enabled_(enabled && IsTerminal(STDERR_FILENO)),
      start_(std::chrono::steady_clock::now()) {}

ProgressBar::~ProgressBar() { Finish(); }

void ProgressBar::Update(uint64_t done, const std::string& suffix) {
  last_done_ = done;
  last_suffix_ = suffix;
  if (!enabled_ || finished_) return;
  const auto now = std::chrono::steady_clock::now();
  if (drawn_ && now - last_draw_ < std::chrono::milliseconds(100) &&
      !(total_ != 0 && done >= total_)) {
    return;
  }
  last_draw_ = now;
  drawn_ = true;
  const double secs = std::chrono::duration<double>(now - start_).count();
  const double rate = secs > 0 ? done / secs : 0;
  std::string bar;
  if (total_ != 0) {
    constexpr int kWidth = 30;
    const int filled = static_cast<int>(
        kWidth * std::min<double>(1.0, static_cast<double>(done) / total_));
    bar = absl::StrCat("[", std::string(filled, '#'),
                       std::string(kWidth - filled, '.'), "] ", done, "/",
                       total_);
  } else {
    bar = absl::StrCat(done);
  }
  std::fprintf(stderr, "\r\033[K%s%s%s  %.0f/s %s", label_.c_str(),
               label_.empty() ? "" : " ", bar.c_str(), rate, suffix.c_str());
  std::fflush(stderr);
}

void ProgressBar::Finish(bool clear) {
  if (finished_) return;
  if (!enabled_ || !drawn_) {
    finished_ = true;
    return;
  }
  if (clear) {
    std::fprintf(stderr, "\r\033[K");
  } else {
    drawn_ = false;  // draw now, whatever the time since the last one
    Update(last_done_, last_suffix_);
    std::fprintf(stderr, "\n");
  }
  std::fflush(stderr);
  finished_ = true;
}

namespace {

// UTF-8 code points of `s`.
size_t Width(const std::string& s) {
  size_t n = 0;
  for (unsigned char c : s) n += (c & 0xC0) != 0x80;
  return n;
}

}  // namespace

std::string FormatTable(const std::vector<std::string>& header,
                        const std::vector<std::vector<std::string>>& rows) {
  std::vector<size_t> width(header.size(), 0);
  auto measure = [&](const std::vector<std::string>& r) {
    for (size_t i = 0; i < r.size() && i < width.size(); ++i) {
      width[i] = std::max(width[i], Width(r[i]));
    }
  };
  measure(header);
  for (const auto& r : rows) measure(r);
  std::string out;
  auto line = [&](const std::vector<std::string>& r) {
    for (size_t i = 0; i < r.size() && i < width.size(); ++i) {
      out += r[i];
      if (i + 1 < r.size()) out.append(width[i] - Width(r[i]) + 2, ' ');
    }
    out += '\n';
  };
  line(header);
  size_t total = 0;
  for (size_t w : width) total += w + 2;
  out.append(total > 2 ? total - 2 : 0, '-');
  out += '\n';
  for (const auto& r : rows) line(r);
  return out;
}

void PrintTable(const std::vector<std::string>& header,
                const std::vector<std::vector<std::string>>& rows,
                std::FILE* out) {
  std::fputs(FormatTable(header, rows).c_str(), out);
}

void PrintError(absl::string_view command, absl::string_view what,
                absl::string_view why) {
  std::string line = absl::StrCat("qipu ", command, ": ", what);
  if (!why.empty()) absl::StrAppend(&line, ": ", why);
  std::fprintf(stderr, "%s\n", line.c_str());
}

int Fail(absl::string_view command, absl::string_view what, int exit_code) {
  PrintError(command, what);
  return exit_code;
}

int Fail(absl::string_view command, absl::string_view what,
         absl::string_view why, int exit_code) {
  PrintError(command, what, why);
  return exit_code;
}

int Fail(absl::string_view command, const absl::Status& status, int exit_code) {
  if (absl::IsInvalidArgument(status)) {
    return Fail(command, status.message(), exit_code);
  }
  return Fail(command, status.ToString(), exit_code);
}

}  // namespace qipu::base
