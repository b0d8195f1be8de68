// store/transfer.h — moving results between workspaces when one run is split over several GPU machines: each
// machine exports its new runs to a file, and the main workspace imports the files.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "store/workspace.h"

namespace ucut::store {

/// What a transfer did to one table's rows.
struct TableCounts {
  int64_t added = 0, skipped = 0, replaced = 0;
};

struct TransferCounts {
  TableCounts problems, runs, hypotheses, attempts, lessons, stages, llm_calls, prompt_packs;
};

/// Writes a new workspace file at `out_path` (refusing an existing one) holding every problem, and the runs
/// with id > `since_run_id` (all runs without it) with their attempts, hypotheses, lessons, stages, model
/// calls and prompt packs, ids unchanged. A hypothesis of an older run that an exported attempt implements
/// goes too, with its run.
TransferCounts export_workspace(Workspace& from, const std::string& out_path,
                                std::optional<int64_t> since_run_id = std::nullopt);

/// Merges the workspace file `in_path` into `into`, all in one transaction; `in_path` is only read (an older
/// schema is migrated in memory, Workspace::open_read_only):
///  - problems are upserted;
///  - runs are matched by identity (they keep it across workspaces): new ones get new ids, known ones take
///    the incoming end time when they had none;
///  - hypotheses get new ids (attempts follow them); in a known run, one with the same iteration, move and
///    rationale is the same hypothesis, replaced only when it was still open (nominated/chosen) and the
///    incoming one is closed (done/dropped);
///  - an attempt whose (problem, config hash) exists is skipped, unless the existing one is pending and the
///    incoming one is final: then the incoming one replaces it;
///  - lessons are deduplicated on (problem, move, text); stages are appended (deduplicated in known runs);
///  - model calls get new ids and their run's new id; one whose key (store/records.h LlmCallRow) exists is
///    skipped, unless the existing one is pending and the incoming one finished: it replaces it (same id);
///  - prompt packs are added to their run unless it has them.
/// Importing the same file twice adds nothing.
TransferCounts import_workspace(Workspace& into, const std::string& in_path);

}  // namespace ucut::store
