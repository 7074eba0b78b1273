// One HTTP connection of HttpServer (http_server.h), an internal header of
// web/: the session that reads requests on a socket (plain or TLS), hands
// each to the server's worker pool, writes the answers and enforces the
// deadlines and size limits of HttpServerOptions; and the bytes of an
// answer on the wire. Only http_server.cc starts connections.
#ifndef QIPU_WEB_HTTP_CONNECTION_H_
#define QIPU_WEB_HTTP_CONNECTION_H_

#include <functional>
#include <string>

#include "boost/asio/ip/tcp.hpp"
#include "boost/asio/ssl/context.hpp"
#include "web/http_server.h"

namespace qipu::web {

// What a connection needs of its server. Implemented by HttpServer's
// Impl; every method is thread-safe.
class ConnectionHost {
 public:
  virtual ~ConnectionHost() = default;
  // The deadlines and limits (constant while serving).
  virtual const HttpServerOptions& options() const = 0;
  // Queues `task` on the worker pool (handlers run there, never on the IO
  // threads).
  virtual void Submit(std::function<void()> task) = 0;
  // The handler's answer to `req`; never throws (an exception is a 500).
  virtual HttpResponse Call(const HttpRequest& req) = 0;
  // A request about to go to the pool: counted in flight; false (and not
  // counted) once the server is stopping, when the connection closes.
  virtual bool BeginRequest() = 0;
  // The answer of a BeginRequest() written, or its write failed.
  virtual void EndRequest() = 0;
  // Whether the server is stopping (kept-alive connections then close).
  virtual bool Stopping() const = 0;
  // A connection closed for a missed deadline or the idle timeout.
  virtual void TimedOut() = 0;
  // A connection from `address` (as passed to ServeConnection) is gone;
  // called exactly once per ServeConnection().
  virtual void Release(const std::string& address) = 0;
};

// Serves `socket` (accepted on a strand of its own) until the client
// leaves, a deadline passes or the io_context stops; over TLS with `tls`
// (not owned; null: plain HTTP). `host` and `tls` must outlive the
// io_context running the socket. `address` is the client's IP address,
// handed back to host->Release() at the end.
void ServeConnection(ConnectionHost* host, boost::asio::ip::tcp::socket socket,
                     boost::asio::ssl::context* tls, std::string address);

// The bytes of `r` on the wire: status line, headers (Content-Length,
// Cache-Control: no-store, X-Content-Type-Options: nosniff, r.headers,
// Connection: close unless `keep_alive`), body (none when `head`). One
// buffer, written at once: headers and body in separate segments would
// wait for the client's delayed ACK (Nagle), 40 ms on every kept-alive
// answer (the sockets have TCP_NODELAY as well).
std::string ResponseBytes(const HttpResponse& r, bool head, bool keep_alive,
                          bool http10);

// An error answer of the server itself, {"error": message}, closing the
// connection (`message` is plain text without quotes or backslashes).
std::string ErrorBytes(int status, const std::string& message);

}  // namespace qipu::web

#endif  // QIPU_WEB_HTTP_CONNECTION_H_
