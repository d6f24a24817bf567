#include <cstdio>
#include <cstdlib>

#include "cli/app.hpp"

int main(int argc, char** argv)
{
  const int code = mailroom::cli::run(argc, argv);
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
  return code; // the sanitizers' leak check runs at exit
#else
  // Everything the program owns was released when run() returned. What exit() would still do is
  // run the destructors of header-only libraries' static objects (CLI11's validators, ...), which
  // only free memory (a measurable part of a hook run: BENCHMARKS.md). stdio is flushed first.
  std::fflush(nullptr);
  std::_Exit(code);
#endif
}
