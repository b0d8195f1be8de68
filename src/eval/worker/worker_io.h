// eval/worker/worker_io.h — what both GPU processes (ucutlass-worker, ucutlass-mskb-worker) do the same way: read
// the request, publish the response atomically (a reader never sees half a file), and say why there is no GPU.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

namespace ucut::worker {

/// The JSON in `path`; throws (std::exception) when it cannot be read or parsed.
nlohmann::json read_json_file(const std::string& path);

/// Writes `j` beside `path` and renames it over `path`.
void write_json_atomic(const std::string& path, const nlohmann::json& j);

/// "" when a CUDA GPU is usable, else why not ("timing needs a CUDA GPU, and none is usable here: ...").
std::string no_gpu_reason();

}  // namespace ucut::worker
