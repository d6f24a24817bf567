#include "pg/tls_start.hpp"

#include <doctest/doctest.h>

#ifdef MAILROOM_DEFER_OPENSSL_PROBE
// OpenSSL's record of the x86 CPU features it found (libcrypto's cpuid.c); all zero until the
// probe runs. Word 0 is CPUID leaf 1's EDX, which has TSC and more on every x86-64 CPU.
extern "C" unsigned int OPENSSL_ia32cap_P[4]; // NOLINT(readability-identifier-naming)
#endif

TEST_CASE("pg::start_tls_library runs OpenSSL's real CPU probe where start-up skipped it")
{
#ifdef MAILROOM_DEFER_OPENSSL_PROBE
  mailroom::pg::start_tls_library();
  CHECK(OPENSSL_ia32cap_P[0] != 0U);
  mailroom::pg::start_tls_library(); // a second call is harmless
  CHECK(OPENSSL_ia32cap_P[0] != 0U);
#else
  MESSAGE("the OpenSSL probe is not deferred in this build (shared libpq or not x86-64)");
  mailroom::pg::start_tls_library();
#endif
}
