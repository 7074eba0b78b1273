#include "web/http_server.h"

#include <algorithm>
#include <cstring>
#include <deque>
#include <exception>
#include <thread>

#include "absl/base/thread_annotations.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "absl/synchronization/mutex.h"
#include "absl/synchronization/notification.h"
#include "civetweb.h"
#include "spdlog/spdlog.h"

namespace qipu::web {
namespace {

int HexValue(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

// One request handed from a civetweb thread to a worker.
struct HttpTask {
  const HttpRequest* request;
  HttpResponse response;
  absl::Notification done;
};

}  // namespace

bool PercentDecode(const std::string& in, bool plus_is_space,
                   std::string* out) {
  out->clear();
  out->reserve(in.size());
  for (size_t i = 0; i < in.size(); ++i) {
    const char c = in[i];
    if (c == '%') {
      if (i + 2 >= in.size()) return false;
      const int hi = HexValue(in[i + 1]);
      const int lo = HexValue(in[i + 2]);
      if (hi < 0 || lo < 0) return false;
      out->push_back(static_cast<char>(hi * 16 + lo));
      i += 2;
    } else if (c == '+' && plus_is_space) {
      out->push_back(' ');
    } else {
      out->push_back(c);
    }
  }
  return true;
}

bool ParseQueryString(const std::string& query,
                      std::vector<std::pair<std::string, std::string>>* out) {
  out->clear();
  for (absl::string_view part : absl::StrSplit(query, '&', absl::SkipEmpty())) {
    const size_t eq = part.find('=');
    std::string name;
    std::string value;
    if (!PercentDecode(std::string(part.substr(0, eq)), true, &name)) {
      return false;
    }
    if (eq != absl::string_view::npos &&
        !PercentDecode(std::string(part.substr(eq + 1)), true, &value)) {
      return false;
    }
    out->emplace_back(std::move(name), std::move(value));
  }
  return true;
}

struct HttpServer::Impl {
  HttpHandler handler;
  mg_context* ctx = nullptr;

  absl::Mutex mu;
  std::deque<HttpTask*> queue ABSL_GUARDED_BY(mu);
  bool stopping ABSL_GUARDED_BY(mu) = false;
  std::vector<std::thread> workers;

  // Runs `task` on a worker thread and waits for it.
  void Run(HttpTask* task) {
    {
      absl::MutexLock lock(&mu);
      queue.push_back(task);
    }
    task->done.WaitForNotification();
  }

  void Work() {
    for (;;) {
      HttpTask* task = nullptr;
      {
        absl::MutexLock lock(&mu);
        mu.Await(absl::Condition(
            +[](Impl* self) ABSL_EXCLUSIVE_LOCKS_REQUIRED(self->mu) {
              return self->stopping || !self->queue.empty();
            },
            this));
        if (queue.empty()) return;
        task = queue.front();
        queue.pop_front();
      }
      // The handler must not throw; if it does anyway (a library's
      // exception), the caller gets a 500 and the server lives on.
      try {
        task->response = handler(*task->request);
      } catch (const std::exception& e) {
        spdlog::error("http: {} {}: {}", task->request->method,
                      task->request->path, e.what());
        task->response = HttpResponse{};
        task->response.status = 500;
        task->response.body = R"json({"error":"internal error"})json";
      }
      task->done.Notify();
    }
  }

  // civetweb's request callback.
  static int Handle(mg_connection* conn, void* cbdata) {
    Impl* self = static_cast<Impl*>(cbdata);
    const mg_request_info* ri = mg_get_request_info(conn);
    HttpRequest req;
    req.method = ri->request_method != nullptr ? ri->request_method : "";
    req.path = ri->local_uri != nullptr ? ri->local_uri : "/";
    if (const char* auth = mg_get_header(conn, "Authorization")) {
      req.authorization = auth;
    }
    HttpTask task;
    task.request = &req;
    if (ri->query_string != nullptr &&
        !ParseQueryString(ri->query_string, &req.query)) {
      task.response.status = 400;
      task.response.body =
          R"json({"error":"malformed query string (a bad %XX escape)"})json";
    } else {
      self->Run(&task);
    }
    const HttpResponse& r = task.response;
    std::string head = absl::StrCat(
        "HTTP/1.1 ", r.status, " ", mg_get_response_code_text(conn, r.status),
        "\r\nContent-Type: ", r.content_type,
        "\r\nContent-Length: ", r.body.size(),
        "\r\nCache-Control: no-store\r\nX-Content-Type-Options: nosniff\r\n");
    for (const auto& [name, value] : r.headers) {
      absl::StrAppend(&head, name, ": ", value, "\r\n");
    }
    head += "\r\n";
    // One write: headers and body in separate segments would wait for
    // the client's delayed ACK (Nagle), 40 ms on every kept-alive request.
    if (req.method != "HEAD") head += r.body;
    mg_write(conn, head.data(), head.size());
    return r.status;
  }
};

absl::StatusOr<std::unique_ptr<HttpServer>> HttpServer::Start(
    const HttpServerOptions& options, HttpHandler handler) {
  const size_t colon = options.listen.rfind(':');
  int port = 0;
  if (colon == std::string::npos || colon == 0 ||
      !absl::SimpleAtoi(options.listen.substr(colon + 1), &port) || port < 0 ||
      port > 65535) {
    return absl::InvalidArgumentError(
        absl::StrCat("--http: '", options.listen,
                     "' is not HOST:PORT (like 127.0.0.1:8080)"));
  }
  auto server = std::unique_ptr<HttpServer>(new HttpServer());
  server->impl_ = std::make_unique<Impl>();
  Impl* impl = server->impl_.get();
  impl->handler = std::move(handler);
  const int threads = std::max(1, options.threads);
  for (int i = 0; i < threads; ++i) {
    impl->workers.emplace_back([impl] { impl->Work(); });
  }
  mg_init_library(0);
  const std::string num_threads = absl::StrCat(2 * threads);
  const char* mg_options[] = {"listening_ports",
                              options.listen.c_str(),
                              "num_threads",
                              num_threads.c_str(),
                              "request_timeout_ms",
                              "30000",
                              "enable_keep_alive",
                              "yes",
                              nullptr};
  mg_callbacks callbacks;
  std::memset(&callbacks, 0, sizeof(callbacks));
  // civetweb logs its errors through this callback; they go to spdlog.
  callbacks.log_message = +[](const mg_connection*, const char* message) {
    spdlog::warn("http: {}", message);
    return 1;
  };
  impl->ctx = mg_start(&callbacks, impl, mg_options);
  if (impl->ctx == nullptr) {
    mg_exit_library();
    server->Stop();
    return absl::UnavailableError(
        absl::StrCat("--http: cannot serve on ", options.listen,
                     " (address in use or not this host's)"));
  }
  mg_set_request_handler(impl->ctx, "/", &Impl::Handle, impl);
  mg_server_port ports[4];
  std::memset(ports, 0, sizeof(ports));
  const int n = mg_get_server_ports(impl->ctx, 4, ports);
  server->port_ = n > 0 ? ports[0].port : port;
  server->address_ =
      absl::StrCat(options.listen.substr(0, colon), ":", server->port_);
  return server;
}

void HttpServer::Stop() {
  if (impl_ == nullptr) return;
  if (impl_->ctx != nullptr) {
    // Waits for the connection threads, so no request is in flight after.
    mg_stop(impl_->ctx);
    impl_->ctx = nullptr;
    mg_exit_library();
  }
  {
    absl::MutexLock lock(&impl_->mu);
    impl_->stopping = true;
  }
  for (std::thread& t : impl_->workers) t.join();
  impl_->workers.clear();
}

HttpServer::~HttpServer() { Stop(); }

}  // namespace qipu::web
