// support/toml_impl.cpp — toml++'s parser, compiled once for the library. Everywhere else TOML_HEADER_ONLY=0 (set
// by CMakeLists.txt) leaves only declarations, so the files that read TOML do not each compile the parser again.
#define TOML_IMPLEMENTATION
#include <toml++/toml.h>
