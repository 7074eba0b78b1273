// TestCerts: a private CA with a server certificate (127.0.0.1,
// localhost) and client certificates, made at test time by the project's
// own ops/tls/make-certs (Debian's openssl) in a directory of the test, so
// that TLS tests exercise the script operators use.
#ifndef QIPU_TESTS_COMMON_TEST_CERTS_H_
#define QIPU_TESTS_COMMON_TEST_CERTS_H_

#include <cstdlib>
#include <string>
#include <vector>

#include "gtest/gtest.h"

namespace qipu::test_util {

// Plain value: the paths of one CA's files.
struct TestCerts {
  std::string dir;
  std::string ca() const { return dir + "/ca.pem"; }
  std::string server_cert() const { return dir + "/server.pem"; }
  std::string server_key() const { return dir + "/server.key"; }
  std::string client_cert(const std::string& name) const {
    return dir + "/client-" + name + ".pem";
  }
  std::string client_key(const std::string& name) const {
    return dir + "/client-" + name + ".key";
  }

  // Runs make-certs --out `out` with a --client per name of `clients`; a
  // failure is a test failure (the returned paths then do not exist).
  static TestCerts Make(const std::string& out,
                        const std::vector<std::string>& clients) {
    std::string cmd = std::string(QIPU_SOURCE_DIR) +
                      "/ops/tls/make-certs --out '" + out + "'";
    for (const std::string& c : clients) cmd += " --client " + c;
    cmd += " >/dev/null";
    EXPECT_EQ(std::system(cmd.c_str()), 0) << cmd;
    return TestCerts{out};
  }
};

}  // namespace qipu::test_util

#endif  // QIPU_TESTS_COMMON_TEST_CERTS_H_
