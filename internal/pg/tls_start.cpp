#include "pg/tls_start.hpp"

#ifdef MAILROOM_DEFER_OPENSSL_PROBE
// The names are the linker's --wrap convention: references to OPENSSL_cpuid_setup (the `.init`
// call and OPENSSL_init_crypto's) land on the wrapper, and __real_ names OpenSSL's own.
extern "C" {
void __real_OPENSSL_cpuid_setup();   // NOLINT(bugprone-reserved-identifier,readability-identifier-naming)
void __wrap_OPENSSL_cpuid_setup() {} // NOLINT(bugprone-reserved-identifier,readability-identifier-naming)
}
#endif

namespace mailroom::pg {

void start_tls_library()
{
#ifdef MAILROOM_DEFER_OPENSSL_PROBE
  // A function-local static: once per process, and safe if two threads connect at once.
  static const bool probed = [] {
    __real_OPENSSL_cpuid_setup();
    return true;
  }();
  (void)probed;
#endif
}

} // namespace mailroom::pg
