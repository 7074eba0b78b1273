#include "coordinator/metrics.h"

#include <exception>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "engine/ingest.h"
#include "engine/jobs.h"

namespace qipu::coordinator {

class Metrics::Sampled : public prometheus::Collectable {
 public:
  explicit Sampled(Metrics* metrics) : metrics_(metrics) {}
  std::vector<prometheus::MetricFamily> Collect() const override {
    metrics_->RunSampler();
    return metrics_->registry_->Collect();
  }

 private:
  Metrics* const metrics_;
};

Metrics::Metrics()
    : registry_(std::make_shared<prometheus::Registry>()),
      sampled_(std::make_shared<Sampled>(this)) {
  auto& games = prometheus::BuildCounter()
                    .Name("qipu_games_total")
                    .Help("Uploaded or imported games by outcome")
                    .Register(*registry_);
  accepted_ = &games.Add({{"outcome", "accepted"}});
  rejected_ = &games.Add({{"outcome", "rejected"}});
  duplicate_ = &games.Add({{"outcome", "duplicate"}});
  imported_ = &games.Add({{"outcome", "imported"}});
  queries_ = &prometheus::BuildCounter()
                  .Name("qipu_queries_total")
                  .Help("Queries answered")
                  .Register(*registry_)
                  .Add({});
  latency_ = &prometheus::BuildHistogram()
                  .Name("qipu_ingest_latency_seconds")
                  .Help("From receipt of an uploaded game to its ack")
                  .Register(*registry_)
                  .Add({}, prometheus::Histogram::BucketBoundaries{
                               0.0005, 0.001, 0.002, 0.005, 0.01, 0.02, 0.05,
                               0.1, 0.2, 0.5, 1, 2, 5});
  auto& leases = prometheus::BuildGauge()
                     .Name("qipu_leases")
                     .Help("Leases open now, and expired since start")
                     .Register(*registry_);
  leases_open_ = &leases.Add({{"state", "open"}});
  leases_expired_ = &leases.Add({{"state", "expired"}});
  queue_depth_ = &prometheus::BuildGauge()
                      .Name("qipu_ingest_queue_depth")
                      .Help("Games waiting for the ingest committer")
                      .Register(*registry_)
                      .Add({});
  games_queued_ = &prometheus::BuildGauge()
                       .Name("qipu_job_games_pending")
                       .Help("Games of running jobs not yet stored")
                       .Register(*registry_)
                       .Add({});
  cf_bytes_ = &prometheus::BuildGauge()
                   .Name("qipu_rocksdb_bytes")
                   .Help("RocksDB size per column family and kind")
                   .Register(*registry_);
  cf_keys_ = &prometheus::BuildGauge()
                  .Name("qipu_rocksdb_estimated_keys")
                  .Help("RocksDB estimated keys per column family")
                  .Register(*registry_);
  block_cache_ = &prometheus::BuildGauge()
                      .Name("qipu_rocksdb_block_cache_bytes")
                      .Help("Block cache usage")
                      .Register(*registry_)
                      .Add({});
  storage_writable_ = &prometheus::BuildGauge()
                           .Name("qipu_storage_writable")
                           .Help(
                               "1 while the database takes writes, 0 while "
                               "an error (full disk, ...) stops them")
                           .Register(*registry_)
                           .Add({});
  index_buffered_entries_ =
      &prometheus::BuildGauge()
           .Name("qipu_position_index_buffered_entries")
           .Help("Opening-index entries in memory, not yet in SST files")
           .Register(*registry_)
           .Add({});
  auto& flushes = prometheus::BuildGauge()
                      .Name("qipu_position_index_flushes")
                      .Help(
                          "Opening-index files written since start, by "
                          "outcome")
                      .Register(*registry_);
  index_flushes_ = &flushes.Add({{"outcome", "ok"}});
  index_failed_flushes_ = &flushes.Add({{"outcome", "failed"}});
}

absl::Status Metrics::Serve(const std::string& listen) {
  try {
    exposer_ = std::make_unique<prometheus::Exposer>(listen, 2);
  } catch (const std::exception& e) {
    return absl::UnavailableError(
        absl::StrCat("cannot serve metrics on ", listen, ": ", e.what()));
  }
  exposer_->RegisterCollectable(sampled_);
  return absl::OkStatus();
}

Metrics::~Metrics() {
  // The endpoint's threads stop before the metrics they read go away.
  exposer_.reset();
}

void Metrics::SetSampler(std::function<void()> sampler) {
  absl::MutexLock lock(&sampler_mu_);
  sampler_ = std::move(sampler);
}

void Metrics::RunSampler() {
  absl::MutexLock lock(&sampler_mu_);
  if (sampler_) sampler_();
}

int Metrics::port() const {
  if (exposer_ == nullptr) return 0;
  auto ports = exposer_->GetListeningPorts();
  return ports.empty() ? 0 : ports[0];
}

void Metrics::Sample(const engine::JobManager& jobs,
                     const engine::Ingestor& ingest,
                     const store::StoreSizes& sizes, bool storage_writable) {
  storage_writable_->Set(storage_writable ? 1 : 0);
  leases_open_->Set(jobs.open_leases());
  leases_expired_->Set(static_cast<double>(jobs.expired_leases()));
  queue_depth_->Set(ingest.queue_depth());
  games_queued_->Set(static_cast<double>(jobs.queued_games()));
  for (const auto& cf : sizes.column_families) {
    cf_bytes_->Add({{"cf", cf.name}, {"kind", "sst"}})
        .Set(static_cast<double>(cf.sst_bytes));
    cf_bytes_->Add({{"cf", cf.name}, {"kind", "memtable"}})
        .Set(static_cast<double>(cf.memtable_bytes));
    cf_keys_->Add({{"cf", cf.name}})
        .Set(static_cast<double>(cf.estimated_keys));
  }
  block_cache_->Set(static_cast<double>(sizes.block_cache_usage));
  cf_bytes_->Add({{"cf", "positions"}, {"kind", "buffer"}})
      .Set(static_cast<double>(sizes.index.buffered_bytes));
  index_buffered_entries_->Set(
      static_cast<double>(sizes.index.buffered_entries));
  index_flushes_->Set(static_cast<double>(sizes.index.flushes));
  index_failed_flushes_->Set(static_cast<double>(sizes.index.failed_flushes));
}

}  // namespace qipu::coordinator
