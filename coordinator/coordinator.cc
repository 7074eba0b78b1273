#include "coordinator/coordinator.h"

#include "absl/strings/str_cat.h"
#include "base/loopback.h"
#include "base/quote.h"
#include "coordinator/admin_service.h"
#include "coordinator/corpus_service.h"
#include "coordinator/query_service.h"
#include "coordinator/request_guard.h"
#include "coordinator/token_service.h"
#include "coordinator/tournament_service.h"
#include "coordinator/training_service.h"
#include "grpcpp/ext/proto_server_reflection_plugin.h"
#include "grpcpp/health_check_service_interface.h"
#include "grpcpp/server_builder.h"
#include "grpcpp/support/server_interceptor.h"
#include "spdlog/spdlog.h"

namespace qipu::coordinator {

absl::Status CheckExposure(absl::string_view flag, absl::string_view address,
                           bool guarded, bool insecure) {
  if (guarded || insecure || base::IsLoopbackListen(address)) {
    return absl::OkStatus();
  }
  const absl::string_view exposed = flag == "--http"
                                        ? "could read every stored game"
                                        : "could submit, cancel and import";
  return absl::FailedPreconditionError(absl::StrCat(
      flag, " ", base::QuoteInput(address, 80),
      " is not a loopback address and --auth is off: anyone who reaches it ",
      exposed,
      "; give --auth required (first operator token: `qipu token create "
      "--role operator --db DIR`)",
      flag == "--http" ? "" : ", client certificates (--tls-client-ca)",
      ", or --insecure on a network you trust"));
}

bool GrpcGuarded(const CoordinatorOptions& options) {
  return options.auth_required || !options.tls.client_ca_pem.empty();
}

absl::StatusOr<std::unique_ptr<Coordinator>> Coordinator::Start(
    const CoordinatorOptions& options) {
  if (absl::Status s = CheckExposure("--listen", options.listen,
                                     GrpcGuarded(options), options.insecure);
      !s.ok()) {
    return s;
  }
  std::unique_ptr<Coordinator> c(new Coordinator());
  c->options_ = options;
  engine::EngineOptions eo;
  eo.create = options.store.create_if_missing;
  eo.store = options.store;
  eo.jobs = options.jobs;
  eo.ingest = options.ingest;
  eo.importer = options.import;
  eo.eager = true;
  auto opened = engine::Engine::Open(options.db_dir, eo);
  if (!opened.ok()) return opened.status();
  c->engine_ = *std::move(opened);
  c->jobs_ = *c->engine_->jobs();
  c->ingest_ = *c->engine_->ingestor();
  c->importer_ = *c->engine_->importer();
  engine::JobManager* jobs = c->jobs_;
  const engine::TokenRegistry::Counts counts = c->engine_->tokens()->Count();
  spdlog::info(
      "coordinator: auth {}; the database holds {} tokens ({} active, "
      "{} revoked)",
      options.auth_required ? "required" : "off",
      counts.active + counts.revoked, counts.active, counts.revoked);
  if (!options.auth_required && counts.active > 0) {
    spdlog::warn(
        "coordinator: --auth is off, so the database's {} active tokens are "
        "not checked: every caller is trusted{}",
        counts.active,
        options.insecure ? " (--insecure: also callers from the network)" : "");
  }
  if (options.auth_required &&
      c->engine_->tokens()->ActiveCount(qipu::v1::ROLE_OPERATOR) == 0) {
    spdlog::warn(
        "coordinator: --auth required but the database has no operator "
        "token: stop and make one with `qipu token create --role operator "
        "--db {}`",
        options.db_dir);
  }
  if (!options.metrics_listen.empty()) {
    c->metrics_.SetSampler([raw = c.get()] {
      raw->metrics_.Sample(*raw->jobs_, *raw->ingest_, raw->store().Sizes(),
                           !raw->store().health().failing());
    });
    if (absl::Status s = c->metrics_.Serve(options.metrics_listen); !s.ok()) {
      return s;
    }
  }

  grpc::EnableDefaultHealthCheckService(true);
  grpc::reflection::InitProtoReflectionServerBuilderPlugin();
  grpc::ServerBuilder builder;
  builder.AddListeningPort(
      options.listen,
      MakeServerCredentials(
          options.tls, options.auth_required ? c->engine_->tokens() : nullptr),
      &c->port_);
  builder.SetMaxReceiveMessageSize(options.max_message_bytes);
  builder.SetMaxSendMessageSize(options.max_message_bytes);
  // Keep a few sync-server pollers alive: with the defaults (1..2) every
  // burst of concurrent queries spawns and reaps threads.
  using SyncOption = grpc::ServerBuilder::SyncServerOption;
  builder.SetSyncServerOption(SyncOption::MIN_POLLERS, 2);
  builder.SetSyncServerOption(SyncOption::MAX_POLLERS, 8);
  std::vector<
      std::unique_ptr<grpc::experimental::ServerInterceptorFactoryInterface>>
      interceptors;
  interceptors.push_back(c->calls_.NewFactory());
  // Unparseable requests answered INVALID_ARGUMENT, status messages capped.
  interceptors.push_back(NewRequestGuardFactory());
  builder.experimental().SetInterceptorCreators(std::move(interceptors));
  c->streams_ =
      std::make_unique<StreamLimiter>(options.limits.max_streams_per_client);
  c->services_.push_back(std::make_unique<JobServiceImpl>(jobs));
  WorkServiceOptions work_options = options.work;
  work_options.streams = c->streams_.get();
  auto work = std::make_unique<WorkServiceImpl>(jobs, c->ingest_, &c->metrics_,
                                                work_options);
  c->work_ = work.get();
  c->services_.push_back(std::move(work));
  c->pattern_queue_ = std::make_unique<QueryQueue>(
      options.limits.pattern_threads > 0 ? options.limits.pattern_threads
                                         : DefaultPatternThreads(),
      options.limits.pattern_queue, "qipu-patterns");
  c->services_.push_back(std::make_unique<QueryServiceImpl>(
      &c->engine_->queries(), &c->metrics_.queries(), c->pattern_queue_.get()));
  CorpusServiceOptions corpus;
  corpus.streams = c->streams_.get();
  corpus.max_export_games = options.limits.max_export_games;
  corpus.max_export_time = options.limits.max_export_time;
  c->services_.push_back(
      std::make_unique<CorpusServiceImpl>(c->importer_, &c->store(), corpus));
  TrainingServiceOptions training = options.training;
  training.streams = c->streams_.get();
  c->services_.push_back(
      std::make_unique<TrainingServiceImpl>(&c->store(), training));
  c->services_.push_back(
      std::make_unique<TournamentServiceImpl>(&c->engine_->tournaments()));
  // With auth off, token and admin calls only from this host.
  const bool local_only = !options.auth_required;
  c->services_.push_back(
      std::make_unique<AdminServiceImpl>(&c->store(), local_only));
  c->services_.push_back(std::make_unique<TokenServiceImpl>(
      c->engine_->tokens().get(), local_only));
  for (auto& s : c->services_) builder.RegisterService(s.get());
  c->server_ = builder.BuildAndStart();
  if (c->server_ == nullptr || c->port_ == 0) {
    return absl::UnavailableError(
        absl::StrCat("cannot listen on ", options.listen,
                     " (address in use or not local?)"));
  }
  const size_t colon = options.listen.rfind(':');
  c->address_ = absl::StrCat(options.listen.substr(0, colon), ":", c->port_);
  c->server_->GetHealthCheckService()->SetServingStatus(true);
  c->ticker_ = std::thread([raw = c.get()] { raw->Tick(); });
  spdlog::info("coordinator: serving on {} ({}{}, auth {}) with database {}",
               c->address_, options.tls.enabled() ? "TLS" : "plain text",
               options.tls.client_ca_pem.empty() ? "" : ", client certificates",
               options.auth_required ? "required" : "off", options.db_dir);
  return c;
}

Coordinator::~Coordinator() { Shutdown(); }

std::shared_ptr<grpc::Channel> Coordinator::InProcessChannel() {
  grpc::ChannelArguments args;
  args.SetMaxReceiveMessageSize(options_.max_message_bytes);
  args.SetMaxSendMessageSize(options_.max_message_bytes);
  return server_->InProcessChannel(args);
}

void Coordinator::Tick() {
  bool serving = true;
  while (!stop_.WaitForNotificationWithTimeout(options_.tick)) {
    jobs_->ExpireLeases(absl::Now());
    const bool writable = !store().health().failing();
    // Health checks report NOT_SERVING while the store refuses writes, so
    // that load balancers and operators see it; SERVING again after.
    if (writable != serving) {
      absl::MutexLock lock(&shutdown_mu_);
      if (!shut_down_) {
        server_->GetHealthCheckService()->SetServingStatus(writable);
        serving = writable;
      }
    }
  }
}

void Coordinator::Shutdown(absl::Duration grace) {
  {
    absl::MutexLock lock(&shutdown_mu_);
    if (shut_down_) return;
    shut_down_ = true;
  }
  spdlog::info("coordinator: shutting down");
  if (server_ != nullptr) {
    server_->GetHealthCheckService()->SetServingStatus(false);
    // Upload streams stay open as long as their workers run: end them
    // once their acks are out, so that the server's shutdown does not
    // wait its whole grace period for them.
    const absl::Time deadline = absl::Now() + grace;
    work_->Drain(deadline);
    // The calls in progress finish (until the deadline); then the server
    // stops at once. Left to itself, Shutdown(deadline) would also wait
    // out the deadline for connections that carry no call. A call that
    // arrives between the two steps is cancelled (clients retry CANCELLED).
    if (!calls_.WaitIdle(deadline)) {
      spdlog::warn(
          "coordinator: {} calls still running after the grace "
          "period; cancelling them",
          calls_.active());
    }
    // Pattern searches still waiting are answered UNAVAILABLE (gRPC's
    // shutdown would wait for their turn); running ones finish.
    pattern_queue_->Stop();
    server_->Shutdown(absl::ToChronoTime(absl::Now()));
  }
  if (pattern_queue_ != nullptr) pattern_queue_->Stop();
  stop_.Notify();
  if (ticker_.joinable()) ticker_.join();
  // Scrapes stop sampling what is about to be destroyed.
  metrics_.SetSampler({});
  // The importer finishes, queued games are committed, the database is
  // closed; the server (and its credentials' share of the token registry)
  // goes first.
  if (ingest_ != nullptr) ingest_->Stop();
  server_.reset();
  if (engine_ != nullptr) engine_->Close();
  jobs_ = nullptr;
  ingest_ = nullptr;
  importer_ = nullptr;
  engine_.reset();
  stopped_.Notify();
}

void Coordinator::Wait() { stopped_.WaitForNotification(); }

}  // namespace qipu::coordinator
