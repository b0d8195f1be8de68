// engine/profile/ncu_csv.h — reads the output of `ncu --csv --page raw --print-units base --metrics …`:
// a header row of quoted column names ("ID","Process ID",…,"Kernel Name",…, then one column per metric),
// a row of units, then one row per profiled kernel. This page also carries every other raw metric ncu
// collected (device__attribute_*, …); numeric ones are kept too. Lines that are not CSV rows (==PROF== and
// ==WARNING== messages, the profiled program's own output, all on the same stream) are skipped; a repeated
// header starts a new table.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "engine/profile/kernel_profile.h"

namespace ucut::profile {

struct NcuCsv {
  std::vector<KernelProfile> kernels;        // in output order
  std::map<std::string, std::string> units;  // metric → its unit from the units row
  int skipped_rows = 0;                      // CSV rows after a header whose field count did not match it
};

NcuCsv parse_ncu_csv(std::string_view text);

/// The fields of one CSV line (quotes removed, "" unescaped); nullopt when a quote is left open.
std::optional<std::vector<std::string>> split_csv_line(std::string_view line);

/// A metric value as ncu prints it: "1,234.5" → 1234.5; "", "n/a" and other text → nullopt.
std::optional<double> parse_metric_value(std::string_view text);

}  // namespace ucut::profile
