// support/progress.h — one updating status line for long work on a terminal's stderr ("building [3/12]
// mlp_up.ucut (0:42 elapsed, ETA 1:10)"): `suite check`, `build`, `bench kernelbench` and `optimize` report
// through it. Nothing is drawn when the output is for a machine (--json) or stderr is not a terminal (a pipe,
// a log file).
#pragma once

#include <condition_variable>
#include <cstddef>
#include <functional>
#include <mutex>
#include <ostream>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

namespace ucut {

/// Seconds on a monotonic clock; tests pass a fake one.
using ProgressClock = std::function<double()>;
double steady_seconds();

/// The status line: `task`, `done` of `total` items (total 0: not counted), the items in hand, the elapsed
/// time and, once an item is done, the estimated time left (the mean time per item so far); one character
/// narrower than `columns`, so that it never wraps.
std::string progress_line(std::string_view task, size_t done, size_t total,
                          const std::vector<std::string>& items, double elapsed, size_t columns);

/// Whether a status line belongs on stderr: it is a terminal (TERM is not "dumb") and `quiet` (--json) is
/// false.
bool progress_on_stderr(bool quiet);

class Progress {
 public:
  /// Draws on `out` when `live`, `columns` wide, timed by `clock`; with `tick_seconds` > 0 a thread redraws
  /// the line that often, so that the elapsed time moves while one item takes long. Not live, it draws
  /// nothing and print() writes its text through.
  Progress(std::ostream& out, bool live, size_t columns = 80, ProgressClock clock = steady_seconds,
           double tick_seconds = 0);
  /// On std::cerr: live when progress_on_stderr(quiet), as wide as the terminal, redrawn every second.
  static Progress on_stderr(bool quiet);
  Progress(const Progress&) = delete;
  Progress& operator=(const Progress&) = delete;
  ~Progress();  // clears the line

  /// A new stage of the work: `task` ("building"), `total` items (0: not counted); counts and clock restart.
  void stage(std::string task, size_t total);
  /// Changes the stage's total (work found to be shorter or longer than planned).
  void set_total(size_t total);
  /// `item` is now in hand (several may be, in parallel work).
  void start(std::string item);
  /// `item` is done: it leaves the items in hand and counts.
  void finish(std::string_view item);
  /// `n` more items are done while the items in hand stay (an item that is several units of work).
  void count(size_t n = 1);
  /// `item` leaves the items in hand without counting.
  void drop(std::string_view item);
  /// Writes `text` (whole lines) above the status line, which is redrawn below it.
  void print(std::string_view text);
  /// Removes the status line until the next update (before a report is printed).
  void clear();
  bool live() const { return live_; }

 private:
  void draw(bool force);               // under mutex_
  void erase();                        // under mutex_
  void remove(std::string_view item);  // under mutex_

  std::ostream& out_;
  const bool live_;
  const size_t columns_;
  ProgressClock clock_;
  std::mutex mutex_;
  std::string task_;
  size_t done_ = 0, total_ = 0;
  std::vector<std::string> items_;
  double started_ = 0, drawn_at_ = -1;
  bool shown_ = false;  // a status line is on the screen
  bool stop_ = false;
  std::condition_variable wake_;
  std::thread ticker_;
};

}  // namespace ucut
