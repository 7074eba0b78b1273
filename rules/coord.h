// Point names: GTP ("D4", columns A-Z skipping I, rows from the bottom) and
// SGF ("dp", letters from the top-left), both ways, plus board-size checks.
// Parsing returns StatusOr with a message naming the bad text.
#ifndef QIPU_RULES_COORD_H_
#define QIPU_RULES_COORD_H_

#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "rules/types.h"

namespace qipu::rules {

// OK when width x height is a supported board (kMinSize..kMaxSize each).
absl::Status ValidateSize(int width, int height);

// Parses a GTP vertex ("D4", "d4", "pass"; "resign" gives kResign) on a
// width x height board. Errors name the vertex and why it is invalid.
absl::StatusOr<Point> ParseGtpPoint(absl::string_view text, int width,
                                    int height);

// GTP name of p on a board of the given height: "D4", "pass" or "resign".
std::string GtpPoint(Point p, int height);

// Parses an SGF point ("dp"). An empty value, and "tt" on boards of at most
// 19x19, are passes. Errors name the value and why it is invalid.
absl::StatusOr<Point> ParseSgfPoint(absl::string_view text, int width,
                                    int height);

// SGF name of p: two letters, or "" for a pass. Precondition: p is a board
// point or kPass.
std::string SgfPoint(Point p);

// Dense index of board point p: y * width + x, in [0, width * height).
inline int DenseIndex(Point p, int width) {
  return PointY(p) * width + PointX(p);
}
// Inverse of DenseIndex(). Precondition: 0 <= i < width * height.
inline Point FromDenseIndex(int i, int width) {
  return MakePoint(i % width, i / width);
}

}  // namespace qipu::rules

#endif  // QIPU_RULES_COORD_H_
