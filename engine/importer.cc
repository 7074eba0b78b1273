#include "engine/importer.h"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <optional>
#include <utility>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/time/clock.h"
#include "engine/game_format.h"
#include "engine/prepare.h"
#include "rules/record_note.h"
#include "rules/result.h"
#include "rules/sgf_reader.h"

namespace qipu::engine {

absl::Status ValidateImportSettings(const ImportSettings& s) {
  if (s.source.empty() || s.source.size() > 100) {
    return absl::InvalidArgumentError(
        "source: give a name of 1..100 characters");
  }
  for (char c : s.source) {
    if (static_cast<unsigned char>(c) < 0x20 || c == 0x7F) {
      return absl::InvalidArgumentError(
          "source: control characters are not allowed");
    }
  }
  if (absl::StartsWith(s.source, "job:")) {
    return absl::InvalidArgumentError(
        "source: names starting with 'job:' are self-play jobs' sources");
  }
  if (s.index_depth < 0 || s.index_depth > kMaxIndexDepth) {
    return absl::InvalidArgumentError(absl::StrCat(
        "index_depth: ", s.index_depth, " is outside 0..", kMaxIndexDepth));
  }
  return absl::OkStatus();
}

void ImportSummary::Add(const qipu::v1::ImportResponse& file) {
  ++files;
  games += file.games();
  imported += file.imported();
  duplicates += file.duplicates();
  rejected += file.rejected();
  noted += file.noted();
  cut += file.cut();
  kept.insert(kept.end(), file.kept().begin(), file.kept().end());
  errors.insert(errors.end(), file.errors().begin(), file.errors().end());
  skipped.insert(skipped.end(), file.skipped().begin(), file.skipped().end());
  for (const auto& [kind, n] : file.normalised()) normalised[kind] += n;
}

bool NormaliseFoxResult(rules::GameRecord* r) {
  bool fox = false;
  bool stones = false;
  for (const rules::RecordNote& n : r->notes) {
    if (n.kind == rules::NoteKind::kFoxKomi) {
      fox = true;
      stones = stones || n.stones;
    }
    // A second AP (the first is in `extra`) naming Fox's client.
    if (n.kind == rules::NoteKind::kRepeatedProperty && n.property == "AP" &&
        absl::StartsWith(n.value, "foxwq")) {
      fox = true;
    }
  }
  for (const auto& [name, value] : r->extra) {
    if (name == "AP" &&
        absl::StrContains(absl::AsciiStrToLower(value), "foxwq"))
      fox = true;
  }
  if (!fox) return false;
  const rules::GameResult& read = r->result.value;
  if (read.reason != rules::EndReason::kScore || read.margin < 0 ||
      (read.winner != rules::Winner::kBlack &&
       read.winner != rules::Winner::kWhite)) {
    return false;
  }
  const double m = read.margin;
  const double grid = stones ? 0.25 : 0.5;
  const bool on_grid = std::fabs(m / grid - std::round(m / grid)) < 1e-9;
  // The text stays as written (Meta.record_result); the value is the
  // normalised result.
  if (m < 0.25 || !on_grid) {
    r->notes.push_back({.kind = rules::NoteKind::kFoxResultArtefact,
                        .value = r->result.text,
                        .stones = stones});
    r->result.value.margin = -1;  // "B+": the winner, margin unknown
    return true;
  }
  if (!stones) return false;
  const rules::GameResult points{read.winner, rules::EndReason::kScore, 2 * m};
  r->notes.push_back({.kind = rules::NoteKind::kFoxResultInStones,
                      .value = r->result.text,
                      .read = rules::ResultToSgf(points)});
  r->result.value = points;
  return true;
}

// --- Importer -----------------------------------------------------------

struct Importer::FileJob {
  // One prepared game and the kinds of its normalisations.
  struct Prepared {
    PreparedGame game;
    std::vector<std::string> kinds;
    // PreparedImport::kept, kept_move, kept_note.
    std::string kept;
    int kept_move = 0;
    std::string kept_note;
  };

  uint64_t seq = 0;
  std::string name;
  // Read by a pool thread when set; else `data` holds the bytes.
  std::optional<std::string> path;
  std::string data;
  ImportSettings settings;
  FileDone done;
  absl::Time now;
  // Written by Parse(), then by Prepare() (disjoint chunks), then read by
  // Submit(): each phase happens-after the previous one.
  std::vector<rules::GameRecord> records;
  std::vector<std::optional<Prepared>> prepared;
  std::atomic<int> chunks_left{0};

  absl::Mutex mu;
  qipu::v1::ImportResponse response ABSL_GUARDED_BY(mu);
  // Outstanding work: 1 until submitted, plus one per game in the Ingestor.
  int holds ABSL_GUARDED_BY(mu) = 1;
};

Importer::Importer(store::ConfigRegistry* configs, Ingestor* ingest,
                   const ImporterOptions& options)
    : configs_(configs), ingest_(ingest), options_(options) {
  const int n = std::max(1, options_.threads);
  for (int i = 0; i < n; ++i) threads_.emplace_back([this] { Run(); });
}

Importer::~Importer() {
  {
    absl::MutexLock lock(&mu_);
    auto idle = [this]() ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_) {
      return in_flight_ == 0;
    };
    mu_.Await(absl::Condition(&idle));
    stopping_ = true;
  }
  for (std::thread& t : threads_) t.join();
}

void Importer::ImportBytes(std::string name, std::string data,
                           const ImportSettings& settings, FileDone done) {
  auto job = std::make_shared<FileJob>();
  job->name = std::move(name);
  job->data = std::move(data);
  job->settings = settings;
  job->done = std::move(done);
  Enqueue(std::move(job));
}

void Importer::ImportFile(std::string path, const ImportSettings& settings,
                          FileDone done) {
  auto job = std::make_shared<FileJob>();
  job->name = path;
  job->path = std::move(path);
  job->settings = settings;
  job->done = std::move(done);
  Enqueue(std::move(job));
}

void Importer::Enqueue(std::shared_ptr<FileJob> job) {
  absl::MutexLock lock(&mu_);
  auto room = [this]() ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_) {
    return in_flight_ < std::max(1, options_.max_files_in_flight);
  };
  mu_.Await(absl::Condition(&room));
  job->seq = next_queued_++;
  ++in_flight_;
  tasks_.push_back(Task{std::move(job), -1});
}

void Importer::Run() {
  for (;;) {
    Task t;
    {
      absl::MutexLock lock(&mu_);
      auto ready = [this]() ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_) {
        return stopping_ || !tasks_.empty();
      };
      mu_.Await(absl::Condition(&ready));
      if (tasks_.empty()) return;
      t = std::move(tasks_.front());
      tasks_.pop_front();
    }
    if (t.chunk < 0) {
      Parse(t.job);
    } else {
      Prepare(t.job, t.chunk);
    }
  }
}

void Importer::Parse(const std::shared_ptr<FileJob>& job) {
  job->now = absl::Now();
  absl::Status read = absl::OkStatus();
  if (job->path.has_value()) {
    auto data = ReadImportFile(*job->path, options_.max_file_bytes);
    if (data.ok()) {
      job->data = *std::move(data);
    } else {
      read = data.status();
    }
  } else if (job->data.size() > options_.max_file_bytes) {
    read = absl::ResourceExhaustedError(
        absl::StrCat("the file is larger than the import limit of ",
                     options_.max_file_bytes, " bytes"));
  }
  std::vector<qipu::v1::ImportError> errors;
  // Games of other games than Go.
  std::vector<qipu::v1::ImportError> skipped;
  uint32_t games = 0;
  if (!read.ok()) {
    errors.push_back(ImportErrorRow(job->name, 0, 0, 0, read.message()));
  } else if (IsJsonlName(job->name)) {
    absl::string_view d = job->data;
    int number = 0;
    for (size_t start = 0; start < d.size();) {
      size_t end = d.find('\n', start);
      if (end == absl::string_view::npos) end = d.size();
      const absl::string_view line =
          absl::StripTrailingAsciiWhitespace(d.substr(start, end - start));
      if (!absl::StripAsciiWhitespace(line).empty()) {
        ++number;
        ++games;
        auto record = JsonLineToRecord(line);
        if (record.ok()) {
          record->game_number = number;
          record->byte_offset = start;
          job->records.push_back(*std::move(record));
        } else {
          errors.push_back(ImportErrorRow(
              job->name, number, start, 0,
              absl::StrCat("line ", number, ": ", record.status().message())));
        }
      }
      start = end + 1;
    }
  } else {
    rules::SgfCollection c = rules::ReadSgf(job->data);
    for (const rules::SgfError& e : c.errors) {
      // Game 0: the file as a whole (not SGF, malformed UTF-16).
      if (e.game_number != 0) ++games;
      errors.push_back(
          ImportErrorRow(job->name, e.game_number, e.byte_offset, 0, e.reason));
    }
    for (const rules::SgfSkippedGame& g : c.skipped) {
      skipped.push_back(
          ImportErrorRow(job->name, g.game_number, g.byte_offset, 0, g.reason));
    }
    games += static_cast<uint32_t>(c.games.size() + c.skipped.size());
    job->records = std::move(c.games);
  }
  job->data.clear();
  job->data.shrink_to_fit();
  {
    absl::MutexLock lock(&job->mu);
    job->response.set_file(job->name);
    job->response.set_games(games);
    uint32_t rejected = 0;
    for (auto& e : errors) {
      if (e.game() != 0) ++rejected;
      *job->response.add_errors() = std::move(e);
    }
    job->response.set_rejected(rejected);
    for (auto& g : skipped) *job->response.add_skipped() = std::move(g);
  }
  const int n = static_cast<int>(job->records.size());
  job->prepared.resize(n);
  if (n == 0) {
    Release(job);
    return;
  }
  const int per = std::max(1, options_.chunk_games);
  const int chunks = (n + per - 1) / per;
  job->chunks_left = chunks;
  if (chunks > 1) {
    absl::MutexLock lock(&mu_);
    for (int k = chunks - 1; k >= 1; --k) tasks_.push_front(Task{job, k});
  }
  Prepare(job, 0);
}

void Importer::Prepare(const std::shared_ptr<FileJob>& job, int chunk) {
  const int per = std::max(1, options_.chunk_games);
  const int n = static_cast<int>(job->records.size());
  ImportContext ctx;
  ctx.source = job->settings.source;
  ctx.file = job->name;
  ctx.index_depth = job->settings.index_depth;
  ctx.now = job->now;
  ctx.strict = job->settings.strict;
  for (int i = chunk * per; i < std::min(n, (chunk + 1) * per); ++i) {
    rules::GameRecord& record = job->records[i];
    // Meta.record_result keeps the RE as written (record.result.text).
    NormaliseFoxResult(&record);
    int illegal_move = 0;
    auto p = PrepareImport(record, ctx, configs_, &illegal_move);
    if (!p.ok()) {
      absl::MutexLock lock(&job->mu);
      job->response.set_rejected(job->response.rejected() + 1);
      *job->response.add_errors() = ImportErrorRow(
          job->name, record.game_number, record.byte_offset,
          static_cast<uint32_t>(illegal_move), p.status().message());
      continue;
    }
    FileJob::Prepared out;
    out.game = std::move(p->game);
    out.kept = std::move(p->kept);
    out.kept_move = p->kept_move;
    out.kept_note = std::move(p->kept_note);
    out.kinds.reserve(p->notes.size());
    for (const rules::RecordNote& note : p->notes) {
      out.kinds.push_back(rules::NoteKindText(note));
    }
    job->prepared[i] = std::move(out);
  }
  if (job->chunks_left.fetch_sub(1) == 1) Release(job);
}

void Importer::Release(std::shared_ptr<FileJob> job) {
  {
    absl::MutexLock lock(&seq_mu_);
    ready_.emplace(job->seq, std::move(job));
    if (releasing_) return;
    releasing_ = true;
  }
  for (;;) {
    std::shared_ptr<FileJob> next;
    {
      absl::MutexLock lock(&seq_mu_);
      auto it = ready_.find(next_release_);
      if (it == ready_.end()) {
        releasing_ = false;
        return;
      }
      next = std::move(it->second);
      ready_.erase(it);
      ++next_release_;
    }
    Submit(next);
  }
}

void Importer::Submit(const std::shared_ptr<FileJob>& job) {
  std::vector<std::optional<FileJob::Prepared>> prepared =
      std::move(job->prepared);
  for (size_t i = 0; i < prepared.size(); ++i) {
    if (!prepared[i].has_value()) continue;
    const int number = job->records[i].game_number;
    const size_t offset = job->records[i].byte_offset;
    {
      absl::MutexLock lock(&job->mu);
      ++job->holds;
    }
    ingest_->Submit(
        std::move(prepared[i]->game),
        [this, job, number, offset, kinds = std::move(prepared[i]->kinds),
         kept = std::move(prepared[i]->kept),
         kept_move = prepared[i]->kept_move,
         kept_note = std::move(prepared[i]->kept_note)](
            absl::StatusOr<IngestOutcome> r) {
          {
            absl::MutexLock lock(&job->mu);
            qipu::v1::ImportResponse& resp = job->response;
            if (!r.ok()) {
              resp.set_rejected(resp.rejected() + 1);
              *resp.add_errors() = ImportErrorRow(
                  job->name, number, offset, 0,
                  absl::StrCat("not stored: ", r.status().message()));
            } else {
              if (*r == IngestOutcome::kStored) {
                resp.set_imported(resp.imported() + 1);
                if (!kept.empty()) {
                  if (kept == "cut") {
                    resp.set_cut(resp.cut() + 1);
                  } else {
                    resp.set_noted(resp.noted() + 1);
                  }
                  *resp.add_kept() = ImportErrorRow(
                      job->name, number, offset,
                      static_cast<uint32_t>(kept_move), kept_note);
                }
              } else {
                resp.set_duplicates(resp.duplicates() + 1);
              }
              auto& counts = *resp.mutable_normalised();
              for (const std::string& k : kinds) ++counts[k];
            }
          }
          Finish(job);
        });
  }
  job->records.clear();
  job->records.shrink_to_fit();
  Finish(job);
}

void Importer::Finish(const std::shared_ptr<FileJob>& job) {
  qipu::v1::ImportResponse resp;
  {
    absl::MutexLock lock(&job->mu);
    if (--job->holds > 0) return;
    resp = std::move(job->response);
  }
  // Errors of the parse and prepare phases, by game then offset.
  auto* errors = resp.mutable_errors();
  std::stable_sort(
      errors->begin(), errors->end(),
      [](const qipu::v1::ImportError& a, const qipu::v1::ImportError& b) {
        return a.game() < b.game();
      });
  std::stable_sort(
      resp.mutable_kept()->begin(), resp.mutable_kept()->end(),
      [](const qipu::v1::ImportError& a, const qipu::v1::ImportError& b) {
        return a.game() < b.game();
      });
  if (job->done) job->done(std::move(resp));
  absl::MutexLock lock(&mu_);
  --in_flight_;
}

ImportSummary Importer::ImportPaths(const std::vector<std::string>& paths,
                                    const ImportSettings& settings,
                                    const ProgressFn& progress) {
  const absl::Time t0 = absl::Now();
  ImportFileList list = ListImportFiles(paths);
  const size_t n = list.files.size();
  absl::Mutex mu;
  std::vector<qipu::v1::ImportResponse> results(n);
  size_t done = 0;
  ImportProgress state;
  state.files_total = n;
  for (size_t i = 0; i < n; ++i) {
    ImportFile(list.files[i], settings, [&, i](qipu::v1::ImportResponse r) {
      absl::MutexLock lock(&mu);
      ++state.files_done;
      state.games += r.games();
      state.imported += r.imported();
      state.duplicates += r.duplicates();
      state.rejected += r.rejected();
      results[i] = std::move(r);
      ++done;
      if (progress) progress(state);
    });
  }
  {
    absl::MutexLock lock(&mu);
    auto all_done = [&]() { return done == n; };
    mu.Await(absl::Condition(&all_done));
  }
  ImportSummary summary;
  summary.errors = std::move(list.errors);
  for (const auto& r : results) summary.Add(r);
  summary.seconds = absl::ToDoubleSeconds(absl::Now() - t0);
  return summary;
}

}  // namespace qipu::engine
