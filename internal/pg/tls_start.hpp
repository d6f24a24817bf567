#pragma once
// OpenSSL's CPU probe, run when the first PostgreSQL connection needs it rather than at start-up.
//
// OpenSSL's x86 code calls OPENSSL_cpuid_setup from the `.init` section of every program it is
// linked into, and that probe executes CPUID several times; under a hypervisor each CPUID traps,
// which every mailroom command paid (BENCHMARKS.md, "Measurements behind the code") although only a
// PostgreSQL connection uses OpenSSL. When libpq and OpenSSL are linked statically on x86-64, the link wraps
// that symbol (cmake/Dependencies.cmake: `--wrap=OPENSSL_cpuid_setup`): the start-up call does
// nothing, and start_tls_library() runs the real probe.

namespace mailroom::pg {

// Runs OpenSSL's CPU probe once per process; a no-op where the probe was not deferred (a shared
// libpq, or another architecture). Called before libpq starts a connection: nothing in libpq
// touches OpenSSL before that.
void start_tls_library();

} // namespace mailroom::pg
