// The explorer's pages (web/assets/*.html, *.js, *.css), embedded in the
// binary at build time: web/embed_assets.cmake turns each file into a byte
// array of a generated web_assets.cc. No build chain, no files to install.
#ifndef QIPU_WEB_ASSETS_H_
#define QIPU_WEB_ASSETS_H_

#include <cstddef>
#include <vector>

namespace qipu::web {

// One embedded file.
struct Asset {
  // URL path ("/openings.html").
  const char* path;
  // Content-Type ("text/html; charset=utf-8").
  const char* content_type;
  const unsigned char* data;
  size_t size;
};

// Every embedded file. Static data; thread-safe.
const std::vector<Asset>& Assets();

}  // namespace qipu::web

#endif  // QIPU_WEB_ASSETS_H_
