// mskb/worker/device_args.cpp
#include "mskb/worker/device_args.h"

#include <algorithm>
#include <cstring>
#include <stdexcept>

#include "mskb/check.h"
#include "mskb/gen.h"

namespace ucut::mskb::worker {

using ::ucut::worker::DeviceBuffer;

std::vector<uint8_t> encode(const std::vector<double>& values, CType type) {
  std::vector<uint8_t> out(values.size() * static_cast<size_t>(ctype_bytes(type)));
  parallel_for(static_cast<int64_t>(values.size()), [&](int64_t begin, int64_t end) {
  for (size_t i = static_cast<size_t>(begin); i < static_cast<size_t>(end); ++i) {
    double v = round_to(values[i], type);
    if (type == CType::i32) {
      int32_t x = static_cast<int32_t>(v);
      std::memcpy(&out[i * 4], &x, 4);
    } else {
      float f = static_cast<float>(v);
      if (type == CType::f32) {
        std::memcpy(&out[i * 4], &f, 4);
      } else {
        uint32_t bits;
        std::memcpy(&bits, &f, 4);
        uint16_t hi = static_cast<uint16_t>(bits >> 16);  // already rounded by round_to
        std::memcpy(&out[i * 2], &hi, 2);
      }
    }
  }
  });
  return out;
}

std::vector<double> decode(const std::vector<uint8_t>& bytes, CType type) {
  size_t w = static_cast<size_t>(ctype_bytes(type));
  std::vector<double> out(bytes.size() / w);
  parallel_for(static_cast<int64_t>(out.size()), [&](int64_t begin, int64_t end) {
  for (size_t i = static_cast<size_t>(begin); i < static_cast<size_t>(end); ++i) {
    if (type == CType::i32) {
      int32_t x;
      std::memcpy(&x, &bytes[i * 4], 4);
      out[i] = x;
    } else if (type == CType::f32) {
      float f;
      std::memcpy(&f, &bytes[i * 4], 4);
      out[i] = f;
    } else {
      uint16_t hi;
      std::memcpy(&hi, &bytes[i * 2], 2);
      uint32_t bits = uint32_t(hi) << 16;
      float f;
      std::memcpy(&f, &bits, 4);
      out[i] = f;
    }
  }
  });
  return out;
}

DeviceArgs::DeviceArgs(const Signature& sig, const std::vector<std::string>& names, const Instance& in,
                       const std::vector<std::string>& outputs, const std::vector<std::string>& zeroed) {
  slots_.resize(sig.params.size());
  for (size_t i = 0; i < sig.params.size(); ++i) {
    Slot& s = slots_[i];
    s.param = sig.params[i];
    s.name = i < names.size() ? names[i] : s.param.name;
    if (!s.param.pointer) {
      std::vector<uint8_t> b = encode({in.scalar(s.name)}, s.param.type);
      std::memcpy(s.scalar, b.data(), b.size());
      continue;
    }
    const std::vector<double>& values = in.array(s.name);
    s.output = std::find(outputs.begin(), outputs.end(), s.name) != outputs.end();
    s.zeroed = s.output && std::find(zeroed.begin(), zeroed.end(), s.name) != zeroed.end();
    bool in_place = s.output && std::any_of(values.begin(), values.end(), [](double v) { return v != 0; });
    if (s.output && !in_place) {
      s.buffer = DeviceBuffer(values.size() * static_cast<size_t>(ctype_bytes(s.param.type)));
      // Zero (MSKB's convention for this output) or NaN (float, bf16) and -1 (int): an unwritten element shows.
      CUDA_OK(cudaMemset(s.buffer.get(), s.zeroed ? 0 : 0xFF, s.buffer.bytes()));
    } else {
      std::vector<uint8_t> bytes = encode(values, s.param.type);
      s.buffer = DeviceBuffer(bytes.size());
      CUDA_OK(cudaMemcpy(s.buffer.get(), bytes.data(), bytes.size(), cudaMemcpyHostToDevice));
      if (in_place) {
        s.pristine = DeviceBuffer(bytes.size());
        CUDA_OK(cudaMemcpy(s.pristine.get(), bytes.data(), bytes.size(), cudaMemcpyHostToDevice));
      } else {
        s.uploaded = std::move(bytes);
      }
    }
  }
  for (Slot& s : slots_) args_.push_back(s.param.pointer ? s.buffer.get() : static_cast<void*>(s.scalar));
}

void DeviceArgs::reset() {
  for (Slot& s : slots_)
    if (s.pristine.get())
      CUDA_OK(cudaMemcpyAsync(s.buffer.get(), s.pristine.get(), s.pristine.bytes(), cudaMemcpyDeviceToDevice, 0));
    else if (s.zeroed)
      CUDA_OK(cudaMemsetAsync(s.buffer.get(), 0, s.buffer.bytes(), 0));
}

std::vector<double> DeviceArgs::download(const std::string& name) const {
  for (const Slot& s : slots_)
    if (s.param.pointer && s.name == name) {
      std::vector<uint8_t> bytes(s.buffer.bytes());
      CUDA_OK(cudaMemcpy(bytes.data(), s.buffer.get(), bytes.size(), cudaMemcpyDeviceToHost));
      return decode(bytes, s.param.type);
    }
  throw std::invalid_argument("no array parameter called " + name);
}

std::vector<std::string> DeviceArgs::mutated_inputs() const {
  std::vector<std::string> changed;
  for (const Slot& s : slots_) {
    if (!s.param.pointer || s.output) continue;
    std::vector<uint8_t> now(s.buffer.bytes());
    CUDA_OK(cudaMemcpy(now.data(), s.buffer.get(), now.size(), cudaMemcpyDeviceToHost));
    if (now != s.uploaded) changed.push_back(s.name);
  }
  return changed;
}

}  // namespace ucut::mskb::worker
