#include "app.hpp"

#include <cstdio>

namespace mailroom::cli {

int run(int /*argc*/, char** /*argv*/)
{
  std::fputs("mailroom: no commands yet\n", stderr);
  return 2;
}

} // namespace mailroom::cli
