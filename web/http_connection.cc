#include "web/http_connection.h"

#include <chrono>
#include <memory>
#include <optional>
#include <type_traits>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/time/time.h"
#include "boost/asio/dispatch.hpp"
#include "boost/asio/post.hpp"
#include "boost/asio/ssl.hpp"
#include "boost/asio/write.hpp"
#include "boost/beast/core.hpp"
#include "boost/beast/http.hpp"
#include "boost/beast/ssl.hpp"
#include "spdlog/spdlog.h"

namespace qipu::web {
namespace {

namespace net = boost::asio;
namespace ssl = boost::asio::ssl;
namespace beast = boost::beast;
namespace http = boost::beast::http;
using tcp = boost::asio::ip::tcp;
using ErrorCode = boost::system::error_code;

std::chrono::steady_clock::duration Chrono(absl::Duration d) {
  return std::chrono::duration_cast<std::chrono::steady_clock::duration>(
      absl::ToChronoNanoseconds(d));
}

// How long a closing connection waits for the client to take the last
// answer (and, over TLS, for its close_notify) before the socket goes.
constexpr absl::Duration kLinger = absl::Seconds(2);

// One connection: reads a request, hands it to the pool, writes the
// answer, and again while the client keeps it alive. Everything runs on
// the connection's strand; the session lives as long as an operation of
// it is pending (shared_from_this in every handler).
template <class Stream>
class Session : public std::enable_shared_from_this<Session<Stream>> {
 public:
  static constexpr bool kTls = !std::is_same_v<Stream, beast::tcp_stream>;

  // `host` outlives the session (see ServeConnection()).
  template <class... StreamArgs>
  Session(ConnectionHost* host, std::string address, StreamArgs&&... args)
      : host_(host),
        address_(std::move(address)),
        stream_(std::forward<StreamArgs>(args)...) {}
  ~Session() { host_->Release(address_); }

  // Begins on the connection's strand.
  void Start() {
    net::dispatch(
        stream_.get_executor(),
        beast::bind_front_handler(&Session::Run, this->shared_from_this()));
  }

 private:
  beast::tcp_stream& lowest() { return beast::get_lowest_layer(stream_); }

  void Run() {
    // One deadline for the handshake and the first header.
    lowest().expires_after(Chrono(host_->options().header_deadline));
    if constexpr (kTls) {
      stream_.async_handshake(
          ssl::stream_base::server,
          beast::bind_front_handler(&Session::OnHandshake,
                                    this->shared_from_this()));
    } else {
      ReadHeader();
    }
  }

  void OnHandshake(ErrorCode ec) {
    if (ec) return Drop(ec, "TLS handshake");
    ReadHeader();
  }

  // A kept-alive connection: waits (idle timeout) for the next request's
  // first bytes, then gives its header the header deadline.
  void WaitNext() {
    if (buffer_.size() > 0) {
      lowest().expires_after(Chrono(host_->options().header_deadline));
      return ReadHeader();
    }
    lowest().expires_after(Chrono(host_->options().idle_timeout));
    stream_.async_read_some(
        buffer_.prepare(4096),
        beast::bind_front_handler(&Session::OnFirstBytes,
                                  this->shared_from_this()));
  }

  void OnFirstBytes(ErrorCode ec, size_t n) {
    if (ec) return Drop(ec, "idle");
    buffer_.commit(n);
    lowest().expires_after(Chrono(host_->options().header_deadline));
    ReadHeader();
  }

  void ReadHeader() {
    parser_.emplace();
    parser_->header_limit(
        static_cast<uint32_t>(host_->options().max_header_bytes));
    parser_->body_limit(host_->options().max_body_bytes);
    http::async_read_header(stream_, buffer_, *parser_,
                            beast::bind_front_handler(
                                &Session::OnHeader, this->shared_from_this()));
  }

  void OnHeader(ErrorCode ec, size_t) {
    if (ec) return OnReadError(ec);
    if (parser_->is_done()) return OnRequest();
    lowest().expires_after(Chrono(host_->options().body_deadline));
    http::async_read(
        stream_, buffer_, *parser_,
        beast::bind_front_handler(&Session::OnBody, this->shared_from_this()));
  }

  void OnBody(ErrorCode ec, size_t) {
    if (ec) return OnReadError(ec);
    OnRequest();
  }

  void OnReadError(ErrorCode ec) {
    if (ec == http::error::header_limit) {
      return Reply(ErrorBytes(
          431, absl::StrCat("request header over ",
                            host_->options().max_header_bytes, " bytes")));
    }
    if (ec == http::error::body_limit) {
      return Reply(ErrorBytes(
          413, absl::StrCat("request body over ",
                            host_->options().max_body_bytes, " bytes")));
    }
    if (ec.category() == ErrorCode(http::error::bad_target).category() &&
        ec != http::error::end_of_stream &&
        ec != http::error::partial_message) {
      return Reply(ErrorBytes(
          400, absl::StrCat("malformed HTTP request: ", ec.message())));
    }
    Drop(ec, "read");
  }

  // A full request: to the pool, unless the server is stopping.
  void OnRequest() {
    http::request<http::string_body> msg = parser_->release();
    parser_.reset();
    keep_alive_ = msg.keep_alive();
    const bool http10 = msg.version() < 11;
    HttpRequest req;
    req.method = std::string(msg.method_string());
    const std::string target(msg.target());
    const size_t q = target.find('?');
    if (!PercentDecode(target.substr(0, q), false, &req.path)) {
      return Reply(ErrorBytes(400, "malformed path (a bad %XX escape)"));
    }
    if (q != std::string::npos &&
        !ParseQueryString(target.substr(q + 1), &req.query)) {
      return Reply(
          ErrorBytes(400, "malformed query string (a bad %XX escape)"));
    }
    // Every Authorization header counted: two are refused (api.cc), as
    // two `authorization` metadata entries are on the gRPC port.
    req.authorization_count = 0;
    for (auto [it, end] = msg.equal_range(http::field::authorization);
         it != end; ++it) {
      if (req.authorization_count++ == 0) {
        req.authorization = std::string(it->value());
      }
    }
    if (!host_->BeginRequest()) return Close();
    // The handler may take its time: no deadline until the answer.
    lowest().expires_never();
    host_->Submit(
        [self = this->shared_from_this(), req = std::move(req), http10] {
          const HttpResponse r = self->host_->Call(req);
          std::string wire =
              ResponseBytes(r, req.method == "HEAD", self->keep_alive_, http10);
          net::post(self->stream_.get_executor(),
                    [self, wire = std::move(wire)]() mutable {
                      self->Write(std::move(wire));
                    });
        });
  }

  // Writes the handler's answer (one of the requests in flight).
  void Write(std::string wire) {
    out_ = std::move(wire);
    lowest().expires_after(Chrono(host_->options().write_deadline));
    net::async_write(
        stream_, net::buffer(out_),
        beast::bind_front_handler(&Session::OnWrite, this->shared_from_this()));
  }

  void OnWrite(ErrorCode ec, size_t) {
    host_->EndRequest();
    out_.clear();
    if (ec) return Drop(ec, "write");
    if (!keep_alive_ || host_->Stopping()) return Close();
    WaitNext();
  }

  // Writes an error answer of the server, then closes.
  void Reply(std::string wire) {
    out_ = std::move(wire);
    lowest().expires_after(Chrono(host_->options().write_deadline));
    net::async_write(stream_, net::buffer(out_),
                     [self = this->shared_from_this()](ErrorCode ec, size_t) {
                       if (ec) return self->Drop(ec, "write");
                       self->Close();
                     });
  }

  // Ends the connection politely: TLS close_notify, or a shutdown of the
  // sending side and reading what the client still sends (so that the
  // kernel does not answer it with a reset that could destroy the last
  // answer on its way), within kLinger.
  void Close() {
    lowest().expires_after(Chrono(kLinger));
    if constexpr (kTls) {
      stream_.async_shutdown([self = this->shared_from_this()](ErrorCode) {
        self->lowest().close();
      });
    } else {
      ErrorCode ignored;
      lowest().socket().shutdown(tcp::socket::shutdown_send, ignored);
      Drain();
    }
  }

  void Drain() {
    lowest().async_read_some(
        net::buffer(drain_),
        [self = this->shared_from_this()](ErrorCode ec, size_t) {
          if (ec) return self->lowest().close();
          self->Drain();
        });
  }

  // The connection ends without a word (the client left, a deadline
  // passed, the TLS handshake failed).
  void Drop(ErrorCode ec, const char* stage) {
    if (ec == beast::error::timeout) {
      host_->TimedOut();
      spdlog::debug("http: {}: {} timed out", address_, stage);
    } else if (ec != http::error::end_of_stream && ec != net::error::eof &&
               ec != net::error::operation_aborted) {
      spdlog::debug("http: {}: {}: {}", address_, stage, ec.message());
    }
    ErrorCode ignored;
    lowest().socket().shutdown(tcp::socket::shutdown_both, ignored);
    lowest().close();
  }

  ConnectionHost* const host_;
  // The client's IP address (the per-address cap's key).
  const std::string address_;
  Stream stream_;
  beast::flat_buffer buffer_;
  // The request being read; empty between requests.
  std::optional<http::request_parser<http::string_body>> parser_;
  // The answer being written (alive until its write completes).
  std::string out_;
  // Whether the connection stays open after the current answer.
  bool keep_alive_ = false;
  char drain_[1024];
};

}  // namespace

std::string ResponseBytes(const HttpResponse& r, bool head, bool keep_alive,
                          bool http10) {
  std::string out = absl::StrCat(
      "HTTP/1.1 ", r.status, " ",
      std::string(http::obsolete_reason(http::int_to_status(r.status))),
      "\r\nContent-Type: ", r.content_type,
      "\r\nContent-Length: ", r.body.size(),
      "\r\nCache-Control: no-store\r\nX-Content-Type-Options: nosniff\r\n");
  for (const auto& [name, value] : r.headers) {
    absl::StrAppend(&out, name, ": ", value, "\r\n");
  }
  if (!keep_alive) {
    out += "Connection: close\r\n";
  } else if (http10) {
    out += "Connection: keep-alive\r\n";
  }
  out += "\r\n";
  if (!head) out += r.body;
  return out;
}

std::string ErrorBytes(int status, const std::string& message) {
  HttpResponse r;
  r.status = status;
  r.body = absl::StrCat(R"json({"error":")json", message, R"json("})json");
  return ResponseBytes(r, false, false, false);
}

void ServeConnection(ConnectionHost* host, tcp::socket socket,
                     ssl::context* tls, std::string address) {
  if (tls != nullptr) {
    std::make_shared<Session<beast::ssl_stream<beast::tcp_stream>>>(
        host, std::move(address), std::move(socket), *tls)
        ->Start();
  } else {
    std::make_shared<Session<beast::tcp_stream>>(host, std::move(address),
                                                 std::move(socket))
        ->Start();
  }
}

}  // namespace qipu::web
