#include "rules/types.h"

#include <cstdio>

#include "rules/zobrist.h"

namespace qipu::rules {

const char* ColorName(Color c) {
  switch (c) {
    case Color::kEmpty:
      return "empty";
    case Color::kBlack:
      return "B";
    case Color::kWhite:
      return "W";
    case Color::kWall:
      return "wall";
  }
  return "?";
}

std::string Hash128::ToHex() const {
  char buf[33];
  std::snprintf(buf, sizeof(buf), "%016llx%016llx",
                static_cast<unsigned long long>(hi),
                static_cast<unsigned long long>(lo));
  return std::string(buf, 32);
}

}  // namespace qipu::rules
