#include "ops/corpus_cli.h"

#include <unistd.h>

#include <algorithm>
#include <utility>
#include <vector>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "grpcpp/create_channel.h"
#include "grpcpp/security/credentials.h"
#include "grpcpp/support/channel_arguments.h"

namespace qipu::ops {

absl::StatusOr<std::unique_ptr<LocalCorpus>> LocalCorpus::Open(
    const std::string& dir, bool create,
    const coordinator::ImporterOptions& import, bool sync) {
  std::unique_ptr<LocalCorpus> c(new LocalCorpus());
  store::StoreOptions so;
  so.create_if_missing = create;
  so.sync = sync;
  auto st = store::Store::Open(dir, so);
  if (!st.ok()) {
    if (absl::IsUnavailable(st.status()) &&
        absl::StrContains(absl::AsciiStrToLower(st.status().message()),
                          "lock")) {
      return absl::FailedPreconditionError(
          absl::StrCat(st.status().message(),
                       " (a running coordinator holds it: use --server ADDR)"));
    }
    return st.status();
  }
  c->store_ = *std::move(st);
  c->configs_ = std::make_unique<store::ConfigRegistry>(c->store_.get());
  if (absl::Status s = c->configs_->Load(); !s.ok()) return s;
  c->ingest_ = std::make_unique<coordinator::Ingestor>(
      c->store_.get(), coordinator::IngestOptions{}, nullptr);
  c->importer_ = std::make_unique<coordinator::Importer>(
      c->configs_.get(), c->ingest_.get(), import);
  return c;
}

LocalCorpus::~LocalCorpus() {
  importer_.reset();
  if (ingest_ != nullptr) ingest_->Stop();
  ingest_.reset();
  configs_.reset();
  store_.reset();
}

ImportProgressBar::ImportProgressBar(bool enabled)
    : enabled_(enabled && isatty(STDERR_FILENO) == 1),
      start_(std::chrono::steady_clock::now()),
      last_(start_) {}

ImportProgressBar::~ImportProgressBar() {
  if (drawn_) std::fprintf(stderr, "\r\033[K");
}

void ImportProgressBar::Update(const coordinator::ImportProgress& p) {
  if (!enabled_) return;
  const auto now = std::chrono::steady_clock::now();
  if (drawn_ && p.files_done != p.files_total &&
      now - last_ < std::chrono::milliseconds(100)) {
    return;
  }
  last_ = now;
  drawn_ = true;
  constexpr int kWidth = 30;
  const double frac = p.files_total == 0
                          ? 1.0
                          : static_cast<double>(p.files_done) / p.files_total;
  const int fill = static_cast<int>(frac * kWidth);
  std::string bar(static_cast<size_t>(fill), '=');
  if (fill < kWidth) bar += '>';
  bar.resize(kWidth, ' ');
  const double secs = std::chrono::duration<double>(now - start_).count();
  std::fprintf(stderr,
               "\r\033[K[%s] %llu/%llu files  %llu games  %llu new  %llu dup  "
               "%llu rejected  %.0f games/s",
               bar.c_str(), static_cast<unsigned long long>(p.files_done),
               static_cast<unsigned long long>(p.files_total),
               static_cast<unsigned long long>(p.games),
               static_cast<unsigned long long>(p.imported),
               static_cast<unsigned long long>(p.duplicates),
               static_cast<unsigned long long>(p.rejected),
               secs > 0 ? p.games / secs : 0.0);
  std::fflush(stderr);
}

nlohmann::ordered_json SummaryJson(const coordinator::ImportSummary& s) {
  nlohmann::ordered_json errors = nlohmann::ordered_json::array();
  for (const qipu::v1::ImportError& e : s.errors) {
    errors.push_back({{"file", e.file()},
                      {"game", e.game()},
                      {"byte_offset", e.byte_offset()},
                      {"move", e.move()},
                      {"reason", e.reason()}});
  }
  nlohmann::ordered_json normalised = nlohmann::ordered_json::object();
  for (const auto& [kind, n] : s.normalised) normalised[kind] = n;
  nlohmann::ordered_json j = {
      {"files", s.files},
      {"games", s.games},
      {"imported", s.imported},
      {"duplicates", s.duplicates},
      {"rejected", s.rejected},
      {"errors", std::move(errors)},
      {"normalised", std::move(normalised)},
      {"seconds", s.seconds},
      {"games_per_sec", s.seconds > 0 ? s.games / s.seconds : 0.0}};
  return j;
}

void PrintSummary(std::FILE* out, const coordinator::ImportSummary& s,
                  size_t max_errors) {
  std::fprintf(out,
               "files %llu  games %llu  imported %llu  duplicates %llu  "
               "rejected %llu  errors %zu  (%.2f s, %.0f games/s)\n",
               static_cast<unsigned long long>(s.files),
               static_cast<unsigned long long>(s.games),
               static_cast<unsigned long long>(s.imported),
               static_cast<unsigned long long>(s.duplicates),
               static_cast<unsigned long long>(s.rejected), s.errors.size(),
               s.seconds, s.seconds > 0 ? s.games / s.seconds : 0.0);
  if (!s.normalised.empty()) {
    std::vector<std::pair<uint64_t, std::string>> kinds;
    for (const auto& [k, n] : s.normalised) kinds.emplace_back(n, k);
    std::stable_sort(
        kinds.begin(), kinds.end(),
        [](const auto& a, const auto& b) { return a.first > b.first; });
    std::fprintf(out, "normalised:\n");
    for (const auto& [n, k] : kinds) {
      std::fprintf(out, "  %8llu  %s\n", static_cast<unsigned long long>(n),
                   k.c_str());
    }
  }
  if (!s.errors.empty()) std::fprintf(out, "errors:\n");
  for (size_t i = 0; i < s.errors.size() && i < max_errors; ++i) {
    const qipu::v1::ImportError& e = s.errors[i];
    std::string where = e.file();
    if (e.game() != 0) absl::StrAppend(&where, ": game ", e.game());
    if (e.move() != 0) {
      absl::StrAppend(&where, ", move ", e.move());
    } else if (e.game() != 0) {
      absl::StrAppend(&where, ", byte ", e.byte_offset());
    }
    std::fprintf(out, "  %s: %s\n", where.c_str(), e.reason().c_str());
  }
  if (s.errors.size() > max_errors) {
    std::fprintf(out, "  ... %zu more (--json lists them all)\n",
                 s.errors.size() - max_errors);
  }
}

std::shared_ptr<grpc::Channel> CoordinatorChannel(const std::string& address,
                                                  int max_message_bytes) {
  grpc::ChannelArguments args;
  args.SetMaxSendMessageSize(max_message_bytes);
  args.SetMaxReceiveMessageSize(max_message_bytes);
  return grpc::CreateCustomChannel(address, grpc::InsecureChannelCredentials(),
                                   args);
}

void PrintError(const char* command, const std::string& what,
                const std::string& why) {
  std::fprintf(stderr, "qipu %s: %s: %s\n", command, what.c_str(), why.c_str());
}

}  // namespace qipu::ops
