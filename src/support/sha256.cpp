// support/sha256.cpp — SHA-256 through OpenSSL's EVP interface.
#include "support/sha256.h"

#include <openssl/evp.h>

#include <stdexcept>

namespace ucut {

std::string sha256_hex(std::string_view data) {
  unsigned char digest[EVP_MAX_MD_SIZE];
  unsigned int len = 0;
  if (EVP_Digest(data.data(), data.size(), digest, &len, EVP_sha256(), nullptr) != 1)
    throw std::runtime_error("OpenSSL EVP_Digest(sha256) failed");
  static const char* hex = "0123456789abcdef";
  std::string out;
  out.reserve(len * 2);
  for (unsigned int i = 0; i < len; ++i) {
    out += hex[digest[i] >> 4];
    out += hex[digest[i] & 15];
  }
  return out;
}

}  // namespace ucut
