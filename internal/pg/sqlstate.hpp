#pragma once

// SQLSTATE codes the PostgreSQL wrapper and the stores on it tell apart
// (Connection::last_sqlstate()). The full list is appendix A of the PostgreSQL manual.

#include <string_view>

namespace mailroom::pg {

inline constexpr std::string_view k_unique_violation = "23505";
inline constexpr std::string_view k_serialization_failure = "40001"; // transient
inline constexpr std::string_view k_deadlock_detected = "40P01";     // transient
inline constexpr std::string_view k_query_canceled = "57014";        // statement_timeout: timeout
inline constexpr std::string_view k_lock_not_available = "55P03";    // lock_timeout: timeout
// Not sent by the server: set by the wrapper when the connection was lost.
inline constexpr std::string_view k_connection_failure = "08006";

} // namespace mailroom::pg
