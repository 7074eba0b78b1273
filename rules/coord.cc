#include "rules/coord.h"

#include <cctype>

#include "absl/strings/ascii.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "base/quote.h"

namespace qipu::rules {
namespace {

constexpr char kGtpColumns[] = "ABCDEFGHJKLMNOPQRSTUVWXYZ";

int SgfLetter(char c) {
  if (c >= 'a' && c <= 'z') return c - 'a';
  if (c >= 'A' && c <= 'Z') return c - 'A' + 26;
  return -1;
}

}  // namespace

absl::Status ValidateSize(int width, int height) {
  if (width < kMinSize || width > kMaxSize || height < kMinSize ||
      height > kMaxSize) {
    return absl::InvalidArgumentError(
        absl::StrCat("board size ", width, "x", height, " is not supported (",
                     kMinSize, "..", kMaxSize, " on each side)"));
  }
  return absl::OkStatus();
}

absl::StatusOr<Point> ParseGtpPoint(absl::string_view text, int width,
                                    int height) {
  const std::string t = absl::AsciiStrToUpper(absl::StripAsciiWhitespace(text));
  if (t == "PASS") return kPass;
  if (t == "RESIGN") return kResign;
  if (t.size() < 2) {
    return absl::InvalidArgumentError(absl::StrCat(
        base::QuoteInput(text), " is not a GTP vertex (like D4 or pass)"));
  }
  const char col = t[0];
  if (col == 'I') {
    return absl::InvalidArgumentError(absl::StrCat(
        base::QuoteInput(text), ": GTP columns skip the letter I"));
  }
  int x = -1;
  for (int i = 0; kGtpColumns[i] != '\0'; ++i) {
    if (kGtpColumns[i] == col) x = i;
  }
  int row = 0;
  if (x < 0 || !absl::SimpleAtoi(t.substr(1), &row) ||
      !std::isdigit(static_cast<unsigned char>(t[1]))) {
    return absl::InvalidArgumentError(absl::StrCat(
        base::QuoteInput(text), " is not a GTP vertex (like D4 or pass)"));
  }
  if (x >= width || row < 1 || row > height) {
    return absl::InvalidArgumentError(absl::StrCat(
        base::QuoteInput(text), " is off the ", width, "x", height, " board"));
  }
  return MakePoint(x, height - row);
}

std::string GtpPoint(Point p, int height) {
  if (p == kPass) return "pass";
  if (p == kResign) return "resign";
  return absl::StrCat(std::string(1, kGtpColumns[PointX(p)]),
                      height - PointY(p));
}

absl::StatusOr<Point> ParseSgfPoint(absl::string_view text, int width,
                                    int height) {
  if (text.empty()) return kPass;
  if (text == "tt" && width <= 19 && height <= 19) return kPass;
  if (text.size() != 2) {
    return absl::InvalidArgumentError(absl::StrCat(
        base::QuoteInput(text), " is not an SGF point (two letters)"));
  }
  const int x = SgfLetter(text[0]);
  const int y = SgfLetter(text[1]);
  if (x < 0 || y < 0) {
    return absl::InvalidArgumentError(absl::StrCat(
        base::QuoteInput(text), " is not an SGF point (letters a-z, A-Z)"));
  }
  if (x >= width || y >= height) {
    return absl::InvalidArgumentError(absl::StrCat(
        "SGF point '", text, "' is off the ", width, "x", height, " board"));
  }
  return MakePoint(x, y);
}

std::string SgfPoint(Point p) {
  if (p == kPass) return "";
  auto letter = [](int v) {
    return static_cast<char>(v < 26 ? 'a' + v : 'A' + v - 26);
  };
  return std::string{letter(PointX(p)), letter(PointY(p))};
}

}  // namespace qipu::rules
