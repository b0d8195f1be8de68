// support/sha256.h — content hashes (OpenSSL) for kernel namespaces and cache keys.
#pragma once

#include <string>
#include <string_view>

namespace ucut {

/// Lower-case hex SHA-256 of `data`.
std::string sha256_hex(std::string_view data);

}  // namespace ucut
