// Prometheus metrics of the coordinator (prometheus-cpp), served as text
// on --metrics HOST:PORT at /metrics: games accepted / rejected /
// duplicate, leases open / expired, ingest latency, queue depth, RocksDB
// sizes, the position index's buffer and flushes. Counters are updated by
// the services; gauges are refreshed by Sample(), which the sampler set
// with SetSampler() calls before every scrape, so that a page is never
// older than its request. Thread-safe (prometheus-cpp metrics are).
#ifndef QIPU_COORDINATOR_METRICS_H_
#define QIPU_COORDINATOR_METRICS_H_

#include <functional>
#include <memory>
#include <string>

#include "absl/base/thread_annotations.h"
#include "absl/status/statusor.h"
#include "absl/synchronization/mutex.h"
#include "prometheus/collectable.h"
#include "prometheus/counter.h"
#include "prometheus/exposer.h"
#include "prometheus/gauge.h"
#include "prometheus/histogram.h"
#include "prometheus/registry.h"
#include "store/store.h"

namespace qipu::engine {
class JobManager;
class Ingestor;
}  // namespace qipu::engine

namespace qipu::coordinator {

class Metrics {
 public:
  Metrics();
  ~Metrics();

  // Starts the HTTP endpoint on `listen` ("127.0.0.1:9464"; port 0 picks
  // one). Unavailable when the address cannot be bound.
  absl::Status Serve(const std::string& listen);
  // The bound port, or 0 when not serving.
  int port() const;

  // Refreshes the gauges from the job manager, ingestor, store sizes and
  // whether the store takes writes.
  void Sample(const engine::JobManager& jobs, const engine::Ingestor& ingest,
              const store::StoreSizes& sizes, bool storage_writable);
  // `sampler` (typically a call of Sample() with the coordinator's parts)
  // runs before each scrape; an empty function stops that. Replacing it
  // waits for a sample in progress, so once SetSampler({}) returns, what
  // the old sampler used may be destroyed.
  void SetSampler(std::function<void()> sampler);

  prometheus::Counter& games_accepted() { return *accepted_; }
  prometheus::Counter& games_rejected() { return *rejected_; }
  prometheus::Counter& games_duplicate() { return *duplicate_; }
  prometheus::Counter& games_imported() { return *imported_; }
  prometheus::Counter& queries() { return *queries_; }
  // Seconds from receipt of an uploaded game to its acknowledgement.
  prometheus::Histogram& ingest_latency() { return *latency_; }

  prometheus::Registry& registry() { return *registry_; }

 private:
  // What the endpoint serves: the registry, sampled first.
  class Sampled;
  void RunSampler();

  std::shared_ptr<prometheus::Registry> registry_;
  std::shared_ptr<Sampled> sampled_;
  absl::Mutex sampler_mu_;
  std::function<void()> sampler_ ABSL_GUARDED_BY(sampler_mu_);
  std::unique_ptr<prometheus::Exposer> exposer_;
  prometheus::Counter* accepted_;
  prometheus::Counter* rejected_;
  prometheus::Counter* duplicate_;
  prometheus::Counter* imported_;
  prometheus::Counter* queries_;
  prometheus::Histogram* latency_;
  prometheus::Gauge* leases_open_;
  prometheus::Gauge* leases_expired_;
  prometheus::Gauge* queue_depth_;
  prometheus::Gauge* games_queued_;
  prometheus::Family<prometheus::Gauge>* cf_bytes_;
  prometheus::Family<prometheus::Gauge>* cf_keys_;
  prometheus::Gauge* block_cache_;
  prometheus::Gauge* storage_writable_;
  prometheus::Gauge* index_buffered_entries_;
  prometheus::Gauge* index_flushes_;
  prometheus::Gauge* index_failed_flushes_;
};

}  // namespace qipu::coordinator

#endif  // QIPU_COORDINATOR_METRICS_H_
