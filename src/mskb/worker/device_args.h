// mskb/worker/device_args.h — one case's launcher arguments on the GPU: every array uploaded in its parameter's C
// type, outputs poisoned (NaN, or -1 for int) so an unwritten element shows, except those the task's convention
// zeroes (Task::zeroed_outputs), in-place arrays kept pristine, both reset before each call, and the argument
// vector ucut_mskb_call takes.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "eval/worker/device_buffer.h"
#include "mskb/signature.h"
#include "mskb/task.h"

namespace ucut::mskb::worker {

class DeviceArgs {
 public:
  /// `names`: the task's FP32 parameter names, by position (the instance's keys); `zeroed`: the outputs the
  /// task's convention zeroes before every call.
  DeviceArgs(const Signature& sig, const std::vector<std::string>& names, const Instance& in,
             const std::vector<std::string>& outputs, const std::vector<std::string>& zeroed);

  void* const* args() const { return args_.data(); }
  /// Before a call: copies the pristine contents back into in-place outputs (sorting's data) and zeroes the
  /// zeroed outputs; enqueued on the default stream.
  void reset();
  /// The array called `name` (FP32 name), read back as doubles.
  std::vector<double> download(const std::string& name) const;
  /// The names of read-only arrays whose contents differ from what was uploaded.
  std::vector<std::string> mutated_inputs() const;

 private:
  struct Slot {
    std::string name;
    Param param;
    ::ucut::worker::DeviceBuffer buffer;
    ::ucut::worker::DeviceBuffer pristine;  // in-place outputs only
    std::vector<uint8_t> uploaded;           // inputs only: the bytes sent
    bool output = false;
    bool zeroed = false;  // an output the convention zeroes before every call
    alignas(8) unsigned char scalar[8] = {};
  };
  std::vector<Slot> slots_;
  std::vector<void*> args_;
};

/// Host bytes of `values` in `type` (BF16 rounded to nearest even).
std::vector<uint8_t> encode(const std::vector<double>& values, CType type);
std::vector<double> decode(const std::vector<uint8_t>& bytes, CType type);

}  // namespace ucut::mskb::worker
