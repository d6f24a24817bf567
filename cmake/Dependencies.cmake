# Third-party packages, all from Debian (see README). Header-only modes keep start-up cheap:
# fmt and toml++ are compiled in, SQLite is linked from libsqlite3.a when MAILROOM_STATIC is on.
find_package(fmt REQUIRED)
find_package(CLI11 REQUIRED)
find_package(nlohmann_json REQUIRED)
find_package(SQLite3 REQUIRED)
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

if(MAILROOM_BUILD_TESTS)
  find_package(doctest REQUIRED)
endif()
