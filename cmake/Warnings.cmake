# mailroom_warnings: the warning set for first-party code; errors only when asked (CI).
add_library(mailroom_warnings INTERFACE)
target_compile_options(mailroom_warnings INTERFACE
  -Wall -Wextra -Wpedantic -Wshadow -Wnon-virtual-dtor -Woverloaded-virtual
  -Wextra-semi -Wnull-dereference
  # Tables of aggregates with default member initialisers (KeySpec, CommandSpec) leave the
  # trailing fields to their defaults on purpose.
  -Wno-missing-field-initializers
  $<$<BOOL:${MAILROOM_WARNINGS_AS_ERRORS}>:-Werror>)
