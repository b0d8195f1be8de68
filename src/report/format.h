// report/format.h — how the report pages (report/html.h, report/markdown.h) write numbers and classes, so the
// two say the same thing: "1.234 ms", "2.28x", "43.1%", "compute (roofline, it 1)", "—" for a missing value.
#pragma once

#include <optional>
#include <string>

#include "report/workspace_report.h"

namespace ucut::report {

inline constexpr const char* kNone = "—";

std::string ms_text(const std::optional<double>& ms);
std::string times_text(const std::optional<double>& x);
std::string pct_text(const std::optional<double>& pct);
/// A share in [0, 1] as a percentage.
std::string share_text(double share);
std::string num_text(const std::optional<double>& v, int digits = 3);
std::string bottleneck_text(const std::optional<Bottleneck>& b);

/// How fast kernels were built: per minute of the loop's wall-clock (finished runs) and per nvcc, and where the
/// attempts' time went.
std::string throughput_sentence(const TimeShare& t);

/// "Model calls: run 3: 12 calls (1 failed), 4500 prompt + 800 completion tokens, $0.0123; ...": the runs
/// that called a language model; "" when none did.
std::string model_calls_sentence(const std::vector<RunReport>& runs);

/// Where the problems' baselines come from, and that they only steer: claims are timed side by side elsewhere.
std::string baseline_note(const WorkspaceReport& r);

}  // namespace ucut::report
