// eval/elf_imports.cpp — see elf_imports.h. Every offset and size read from the file is checked against the
// file's length before use: a malformed file is an error, never a read outside the buffer.
#include "eval/elf_imports.h"

#include <elf.h>
#include <fmt/format.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <iterator>

namespace ucut {

namespace {

class ElfFile {
 public:
  explicit ElfFile(std::string bytes) : bytes_(std::move(bytes)) {}

  /// A T at `offset`, or nullopt when it does not fit in the file.
  template <class T>
  std::optional<T> at(uint64_t offset) const {
    if (offset > bytes_.size() || bytes_.size() - offset < sizeof(T)) return std::nullopt;
    T v;
    std::memcpy(&v, bytes_.data() + offset, sizeof(T));
    return v;
  }
  /// The NUL-terminated string at `offset` of the string table `strtab`; nullopt when it runs outside either.
  std::optional<std::string> string_at(const Elf64_Shdr& strtab, uint64_t offset) const {
    if (offset >= strtab.sh_size || !fits(strtab)) return std::nullopt;
    const char* begin = bytes_.data() + strtab.sh_offset + offset;
    const void* end = std::memchr(begin, '\0', strtab.sh_size - offset);
    if (!end) return std::nullopt;
    return std::string(begin, static_cast<const char*>(end));
  }
  bool fits(const Elf64_Shdr& s) const {
    return s.sh_type == SHT_NOBITS ||
           (s.sh_offset <= bytes_.size() && bytes_.size() - s.sh_offset >= s.sh_size);
  }
  uint64_t size() const { return bytes_.size(); }

 private:
  std::string bytes_;
};

std::optional<std::string> read_all(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return std::nullopt;
  std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (in.bad()) return std::nullopt;
  return bytes;
}

/// The file's section headers; an error names what is wrong.
std::optional<std::vector<Elf64_Shdr>> section_headers(const ElfFile& f, std::string* why) {
  auto eh = f.at<Elf64_Ehdr>(0);
  if (!eh || std::memcmp(eh->e_ident, ELFMAG, SELFMAG) != 0) {
    *why = "not an ELF file";
    return std::nullopt;
  }
  if (eh->e_ident[EI_CLASS] != ELFCLASS64 || eh->e_ident[EI_DATA] != ELFDATA2LSB) {
    *why = "not a 64-bit little-endian ELF file";
    return std::nullopt;
  }
  if (eh->e_type != ET_DYN) {
    *why = "not a shared library (ELF type is not ET_DYN)";
    return std::nullopt;
  }
  if (eh->e_shnum == 0 || eh->e_shentsize != sizeof(Elf64_Shdr)) {
    *why = "no section headers";
    return std::nullopt;
  }
  std::vector<Elf64_Shdr> sections;
  for (uint64_t i = 0; i < eh->e_shnum; ++i) {
    auto s = f.at<Elf64_Shdr>(eh->e_shoff + i * sizeof(Elf64_Shdr));
    if (!s || !f.fits(*s)) {
      *why = fmt::format("section header {} lies outside the file ({} bytes)", i, f.size());
      return std::nullopt;
    }
    sections.push_back(*s);
  }
  if (eh->e_shstrndx >= sections.size()) {
    *why = "the section-name table index is out of range";
    return std::nullopt;
  }
  return sections;
}

}  // namespace

std::optional<ElfImports> read_elf_imports(const std::string& path, std::string* error) {
  auto fail = [&](const std::string& why) {
    *error = fmt::format("{}: {}", path, why);
    return std::nullopt;
  };
  std::optional<std::string> bytes = read_all(path);
  if (!bytes) return fail(fmt::format("cannot read the file ({})", std::strerror(errno)));
  ElfFile f(std::move(*bytes));
  std::string why;
  auto sections = section_headers(f, &why);
  if (!sections) return fail(why);
  auto eh = f.at<Elf64_Ehdr>(0);
  const Elf64_Shdr& names = (*sections)[eh->e_shstrndx];
  auto linked = [&](const Elf64_Shdr& s) -> const Elf64_Shdr* {
    return s.sh_link < sections->size() ? &(*sections)[s.sh_link] : nullptr;
  };
  ElfImports imports;
  bool dynamic = false;
  for (const Elf64_Shdr& s : *sections) {
    if (f.string_at(names, s.sh_name) == ".nv_fatbin") imports.device_code = true;
    const Elf64_Shdr* strings = linked(s);
    if (s.sh_type == SHT_DYNAMIC) {
      dynamic = true;
      if (!strings) return fail("the dynamic section's string table index is out of range");
      for (uint64_t off = 0; off + sizeof(Elf64_Dyn) <= s.sh_size; off += sizeof(Elf64_Dyn)) {
        auto d = f.at<Elf64_Dyn>(s.sh_offset + off);
        if (!d || d->d_tag == DT_NULL) break;
        if (d->d_tag != DT_NEEDED) continue;
        auto name = f.string_at(*strings, d->d_un.d_val);
        if (!name) return fail("a DT_NEEDED name lies outside the dynamic string table");
        imports.needed.push_back(*name);
      }
    } else if (s.sh_type == SHT_DYNSYM) {
      if (!strings) return fail("the dynamic symbol table's string table index is out of range");
      for (uint64_t off = sizeof(Elf64_Sym); off + sizeof(Elf64_Sym) <= s.sh_size; off += sizeof(Elf64_Sym)) {
        auto sym = f.at<Elf64_Sym>(s.sh_offset + off);
        if (!sym || sym->st_shndx != SHN_UNDEF) continue;
        auto name = f.string_at(*strings, sym->st_name);
        if (!name) return fail("a dynamic symbol's name lies outside its string table");
        if (!name->empty()) imports.undefined.push_back(*name);
      }
    }
  }
  if (!dynamic) return fail("no dynamic section: not a loadable shared library");
  return imports;
}

}  // namespace ucut
