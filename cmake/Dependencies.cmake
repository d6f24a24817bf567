# Third-party packages, all from Debian (see README). Header-only modes keep start-up cheap:
# fmt and toml++ are compiled in, SQLite is linked from libsqlite3.a when MAILROOM_STATIC is on.
find_package(fmt REQUIRED)
find_package(CLI11 REQUIRED)
find_package(nlohmann_json REQUIRED)
find_package(SQLite3 REQUIRED)
# `mailroom serve`: Boost.Beast and Boost.Asio, header-only (Debian's libboost1.74-dev); no Boost
# library is linked. Threads: its I/O thread and operation pool.
find_package(Boost 1.74 REQUIRED)
find_package(Threads REQUIRED)
find_path(TOMLPP_INCLUDE_DIR toml++/toml.h REQUIRED)

add_library(mailroom_toml INTERFACE)
target_include_directories(mailroom_toml SYSTEM INTERFACE ${TOMLPP_INCLUDE_DIR})
target_compile_definitions(mailroom_toml INTERFACE TOML_HEADER_ONLY=1 TOML_EXCEPTIONS=1)

add_library(mailroom_sqlite3_lib INTERFACE)
target_include_directories(mailroom_sqlite3_lib SYSTEM INTERFACE ${SQLite3_INCLUDE_DIRS})
if(MAILROOM_STATIC)
  find_library(SQLITE3_STATIC_LIB NAMES libsqlite3.a REQUIRED)
  target_link_libraries(mailroom_sqlite3_lib INTERFACE ${SQLITE3_STATIC_LIB} m dl pthread)
else()
  target_link_libraries(mailroom_sqlite3_lib INTERFACE SQLite::SQLite3)
endif()

# Nettle (nettle-dev): SHA-256 and HMAC-SHA256 (util/sha256). From libnettle.a wherever SQLite is
# static too, so the release binary stays fully static and a dynamic one gains no shared object.
find_path(NETTLE_INCLUDE_DIR nettle/sha2.h REQUIRED)
add_library(mailroom_nettle_lib INTERFACE)
target_include_directories(mailroom_nettle_lib SYSTEM INTERFACE ${NETTLE_INCLUDE_DIR})
if(MAILROOM_STATIC OR MAILROOM_FULLY_STATIC)
  find_library(NETTLE_LIB NAMES libnettle.a REQUIRED)
else()
  find_library(NETTLE_LIB NAMES nettle REQUIRED)
endif()
target_link_libraries(mailroom_nettle_lib INTERFACE ${NETTLE_LIB})

if(MAILROOM_BUILD_TESTS)
  find_package(doctest REQUIRED)
endif()

# libpq, PostgreSQL's client library. The shared libpq.so pulls in 24 shared objects (Kerberos,
# LDAP, SASL, GnuTLS, OpenSSL ...), loaded at every process start, several times the cost of a
# static no-op (BENCHMARKS.md, "Measurements behind the code"). So with MAILROOM_STATIC (and always with MAILROOM_FULLY_STATIC) it is linked from
# Debian's libpq.a with what that needs: libpgcommon_shlib.a and libpgport_shlib.a
# (postgresql-server-dev-15), libssl.a and libcrypto.a (libssl-dev). Debian has no static
# Kerberos and no static libldap dependency chain, so GSSAPI and LDAP get link-time stand-ins
# that always fail (internal/pg/static/no_gssapi_ldap.cpp, added by internal/CMakeLists.txt):
# a static mailroom speaks password, trust and peer authentication and TLS, not Kerberos, and
# reads no ldap:// service entries.
# Only with MAILROOM_POSTGRES: a build without it looks for no libpq at all.
if(MAILROOM_POSTGRES)
  find_package(PostgreSQL REQUIRED)
  add_library(mailroom_libpq_lib INTERFACE)
  target_include_directories(mailroom_libpq_lib SYSTEM INTERFACE ${PostgreSQL_INCLUDE_DIRS})
  if(MAILROOM_STATIC OR MAILROOM_FULLY_STATIC)
    set(MAILROOM_LIBPQ_STATIC ON)
    string(REGEX MATCH "^[0-9]+" mailroom_pg_major "${PostgreSQL_VERSION_STRING}")
    set(mailroom_pg_hint
      "run make deps (it installs libpq-dev, libssl-dev and postgresql-server-dev-${mailroom_pg_major}), or configure with -DMAILROOM_STATIC=OFF for a shared libpq")
    find_library(MAILROOM_LIBPQ_A NAMES libpq.a HINTS ${PostgreSQL_LIBRARY_DIRS})
    find_library(MAILROOM_PGCOMMON_A NAMES libpgcommon_shlib.a
      HINTS /usr/lib/postgresql/${mailroom_pg_major}/lib NO_DEFAULT_PATH)
    find_library(MAILROOM_PGPORT_A NAMES libpgport_shlib.a
      HINTS /usr/lib/postgresql/${mailroom_pg_major}/lib NO_DEFAULT_PATH)
    find_library(MAILROOM_SSL_A NAMES libssl.a)
    find_library(MAILROOM_CRYPTO_A NAMES libcrypto.a)
    foreach(lib MAILROOM_LIBPQ_A MAILROOM_PGCOMMON_A MAILROOM_PGPORT_A MAILROOM_SSL_A MAILROOM_CRYPTO_A)
      if(NOT ${lib})
        message(FATAL_ERROR "static libpq: ${lib} not found; ${mailroom_pg_hint}")
      endif()
    endforeach()
    target_link_libraries(mailroom_libpq_lib INTERFACE
      ${MAILROOM_LIBPQ_A} ${MAILROOM_PGCOMMON_A} ${MAILROOM_PGPORT_A} ${MAILROOM_SSL_A} ${MAILROOM_CRYPTO_A}
      m dl pthread)
    # OpenSSL probes the CPU from `.init` at every start (CPUID traps under a hypervisor: a part of
    # each command, BENCHMARKS.md); the wrap makes that call a no-op and the first connection runs the real probe
    # (internal/pg/tls_start.hpp). x86-64 only: that is where the `.init` call lives.
    if(CMAKE_SYSTEM_PROCESSOR MATCHES "^(x86_64|AMD64|amd64)$")
      set(MAILROOM_DEFER_OPENSSL_PROBE ON)
      target_link_options(mailroom_libpq_lib INTERFACE "LINKER:--wrap=OPENSSL_cpuid_setup")
    endif()
  else()
    set(MAILROOM_LIBPQ_STATIC OFF)
    target_link_libraries(mailroom_libpq_lib INTERFACE PostgreSQL::PostgreSQL)
  endif()
endif()
