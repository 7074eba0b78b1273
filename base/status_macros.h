// Small status-propagation macros (this Abseil has no ABSL_RETURN_IF_ERROR).
#ifndef QIPU_BASE_STATUS_MACROS_H_
#define QIPU_BASE_STATUS_MACROS_H_

#include "absl/status/status.h"
#include "absl/status/statusor.h"

#define QIPU_STATUS_CONCAT_INNER_(a, b) a##b
#define QIPU_STATUS_CONCAT_(a, b) QIPU_STATUS_CONCAT_INNER_(a, b)

// Evaluates `expr` (an absl::Status); returns it from the enclosing function
// when it is not OK.
#define QIPU_RETURN_IF_ERROR(expr)               \
  do {                                           \
    ::absl::Status qipu_status_ = (expr);        \
    if (!qipu_status_.ok()) return qipu_status_; \
  } while (false)

// `QIPU_ASSIGN_OR_RETURN(T v, Call());` evaluates a StatusOr expression,
// returns its status when not OK, else moves the value into the declaration.
#define QIPU_ASSIGN_OR_RETURN(lhs, expr)                                     \
  QIPU_ASSIGN_OR_RETURN_IMPL_(QIPU_STATUS_CONCAT_(qipu_statusor_, __LINE__), \
                              lhs, expr)
#define QIPU_ASSIGN_OR_RETURN_IMPL_(tmp, lhs, expr) \
  auto tmp = (expr);                                \
  if (!tmp.ok()) return std::move(tmp).status();    \
  lhs = std::move(tmp).value()

#endif  // QIPU_BASE_STATUS_MACROS_H_
