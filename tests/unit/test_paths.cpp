// tests/unit/test_paths.cpp — the paths of test_paths.h, compiled in from CMake (tests/CMakeLists.txt).
#include "test_paths.h"

namespace ucut::test_paths {

std::string source_dir() { return UCUT_SOURCE_DIR; }
std::string cli_path() { return UCUT_CLI_PATH; }
std::string elf_fixtures_dir() { return UCUT_ELF_FIXTURES_DIR; }

}  // namespace ucut::test_paths
