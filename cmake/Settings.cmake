# mailroom_settings: language level, assertions and sanitizers for first-party targets.
add_library(mailroom_settings INTERFACE)
target_compile_features(mailroom_settings INTERFACE cxx_std_20)
set(CMAKE_CXX_EXTENSIONS OFF)
target_compile_definitions(mailroom_settings INTERFACE
  $<$<CONFIG:Debug>:_GLIBCXX_ASSERTIONS>
  MAILROOM_VERSION="${PROJECT_VERSION}")

set(mailroom_sanitizers "")
if(MAILROOM_ENABLE_ASAN)
  list(APPEND mailroom_sanitizers address)
endif()
if(MAILROOM_ENABLE_UBSAN)
  list(APPEND mailroom_sanitizers undefined)
endif()
if(mailroom_sanitizers)
  list(JOIN mailroom_sanitizers "," mailroom_sanitizer_list)
  target_compile_options(mailroom_settings INTERFACE
    -fsanitize=${mailroom_sanitizer_list} -fno-omit-frame-pointer -fno-sanitize-recover=all)
  target_link_options(mailroom_settings INTERFACE -fsanitize=${mailroom_sanitizer_list})
  # Sanitizer runtimes do not mix with a static libstdc++.
  set(MAILROOM_STATIC OFF CACHE BOOL "" FORCE)
endif()

if(CMAKE_BUILD_TYPE STREQUAL "Release")
  # Dead code out of the hot start-up path of a one-process-per-command tool.
  target_compile_options(mailroom_settings INTERFACE -ffunction-sections -fdata-sections)
  target_link_options(mailroom_settings INTERFACE -Wl,--gc-sections -Wl,-O1)
endif()

if(MAILROOM_CLANG_TIDY)
  find_program(CLANG_TIDY_EXE NAMES clang-tidy-14 clang-tidy REQUIRED)
  set(CMAKE_CXX_CLANG_TIDY "${CLANG_TIDY_EXE}")
endif()
