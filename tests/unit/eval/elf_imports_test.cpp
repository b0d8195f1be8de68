// tests/unit/eval/elf_imports_test.cpp — eval/elf_imports.h and eval/library_imports.h on shared libraries
// built for the test by the host compiler (tests/CMakeLists.txt): a library that links a stand-in
// libcublas.so.13 is a hand-off, one that imports an at:: symbol too, one that needs only the C runtime is
// not; broken files are errors that name the file and what is wrong.
#include "eval/elf_imports.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>

#include "../temp_dir.h"
#include "../test_paths.h"
#include "eval/library_imports.h"
#include "support/files.h"

namespace ucut {
namespace {

std::string fixture(const std::string& name) {
  return ucut::test_paths::elf_fixtures_dir() + "/" + name + ".so";
}

ElfImports imports_of(const std::string& name) {
  std::string error;
  std::optional<ElfImports> imports = read_elf_imports(fixture(name), &error);
  EXPECT_TRUE(imports) << error;
  return imports.value_or(ElfImports{});
}

bool has(const std::vector<std::string>& v, const std::string& x) {
  return std::find(v.begin(), v.end(), x) != v.end();
}

TEST(ElfImports, ReadsNeededLibrariesAndUndefinedSymbols) {
  ElfImports cublas = imports_of("calls_cublas");
  EXPECT_TRUE(has(cublas.needed, "libcublas.so.13"));
  EXPECT_TRUE(has(cublas.undefined, "cublasSgemm_v2"));
  EXPECT_FALSE(has(cublas.undefined, "candidate_gemm"));  // defined here: an export, not an import
  EXPECT_FALSE(cublas.device_code);
  EXPECT_TRUE(imports_of("calls_cublas_with_device_code").device_code);
  ElfImports plain = imports_of("plain");
  EXPECT_FALSE(has(plain.needed, "libcublas.so.13"));
  EXPECT_TRUE(std::any_of(plain.needed.begin(), plain.needed.end(), [](const std::string& n) {
    return n.starts_with("libc.so") || n.starts_with("libm.so") || n.starts_with("libstdc++");
  }));
}

TEST(LibraryImports, ALinkedCublasIsAHandOff) {
  std::vector<IntegrityFlag> f = library_import_flags(imports_of("calls_cublas"));
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0].id, FlagId::library_only);
  EXPECT_NE(f[0].reason.find("cuBLAS (links libcublas.so.13; imports cublasSgemm_v2)"), std::string::npos)
      << f[0].reason;
  f = library_import_flags(imports_of("calls_cublas_with_device_code"));
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0].id, FlagId::library_main_op);
}

TEST(LibraryImports, AnAtenSymbolIsAHandOffWithoutANeededEntry) {
  std::vector<IntegrityFlag> f = library_import_flags(imports_of("calls_aten"));
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0].id, FlagId::library_only);
  EXPECT_NE(f[0].reason.find("PyTorch (imports _ZN2at6matmulEi)"), std::string::npos) << f[0].reason;
}

TEST(LibraryImports, TheRuntimeOnlyPasses) { EXPECT_TRUE(library_import_flags(imports_of("plain")).empty()); }

TEST(LibraryImports, CublasLtIsNotTakenForCublas) {
  ElfImports lt;
  lt.needed = {"libcublasLt.so.13", "libcudart.so.13"};
  lt.undefined = {"cublasLtMatmul", "cudaMalloc"};
  lt.device_code = true;
  std::vector<IntegrityFlag> f = library_import_flags(lt);
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0].id, FlagId::library_main_op);
  EXPECT_NE(f[0].reason.find("cuBLASLt (links libcublasLt.so.13; imports cublasLtMatmul)"), std::string::npos)
      << f[0].reason;
  EXPECT_EQ(f[0].reason.find("cuBLAS ("), std::string::npos) << f[0].reason;
  EXPECT_EQ(f[0].reason.find("cudart"), std::string::npos) << f[0].reason;
}

/// read_elf_imports's error for a file holding `bytes`.
std::string error_for(const ucut::testing::TempDir& dir, const std::string& bytes) {
  std::string path = dir.file("broken.so");
  std::ofstream(path, std::ios::binary) << bytes;
  std::string error;
  EXPECT_FALSE(read_elf_imports(path, &error));
  EXPECT_EQ(error.rfind(path + ": ", 0), 0u) << error;  // names the file
  return error;
}

TEST(ElfImports, ABrokenFileIsAnErrorNamingWhatIsWrong) {
  ucut::testing::TempDir dir{"ucut-elf"};
  EXPECT_NE(error_for(dir, "#!/bin/sh\necho not a library\n").find("not an ELF file"), std::string::npos);
  EXPECT_NE(error_for(dir, "").find("not an ELF file"), std::string::npos);
  std::optional<std::string> real = read_file(fixture("calls_cublas"));
  ASSERT_TRUE(real);
  EXPECT_NE(error_for(dir, real->substr(0, 200)).find("outside the file"), std::string::npos);
  std::string elf32 = *real;
  elf32[4] = 1;  // EI_CLASS: ELFCLASS32
  EXPECT_NE(error_for(dir, elf32).find("not a 64-bit little-endian ELF file"), std::string::npos);
  std::string far_sections = *real;
  far_sections[0x28 + 5] = 0x7f;  // e_shoff far beyond the end
  EXPECT_NE(error_for(dir, far_sections).find("outside the file"), std::string::npos);
  std::string missing = dir.file("missing.so"), error;
  EXPECT_FALSE(read_elf_imports(missing, &error));
  EXPECT_NE(error.find(missing + ": cannot read the file"), std::string::npos) << error;
}

}  // namespace
}  // namespace ucut
