// tests/unit/test_paths.h — where a test finds the source tree, the CLI binary and the ELF fixtures.
// Only test_paths.cpp is compiled with these checkout-specific paths, so every other test object is the same
// in any checkout or worktree and comes out of the compiler cache.
#pragma once

#include <string>

namespace ucut::test_paths {

std::string source_dir();        // the repository root
std::string cli_path();          // the ucutlass binary under test
std::string elf_fixtures_dir();  // the shared libraries unit/eval/elf_imports_test.cpp reads

}  // namespace ucut::test_paths
