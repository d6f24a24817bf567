#include "app.hpp"

int main(int argc, char** argv)
{
  return mailroom::cli::run(argc, argv);
}
