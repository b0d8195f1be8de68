// support/progress.cpp — see progress.h.
#include "support/progress.h"

#include <fmt/format.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <iostream>

namespace ucut {
namespace {

constexpr double kMinRedrawSeconds = 0.1;  // at most ten redraws a second, however fast items finish
constexpr const char* kEraseLine = "\r\x1b[K";

/// 0:42, 12:05, 1:02:09.
std::string clock_text(double seconds) {
  long s = std::lround(std::max(0.0, seconds));
  if (s < 3600) return fmt::format("{}:{:02}", s / 60, s % 60);
  return fmt::format("{}:{:02}:{:02}", s / 3600, s / 60 % 60, s % 60);
}

/// `text` cut to at most `width` bytes, not inside a UTF-8 sequence, with "..." where it was cut.
std::string cut(const std::string& text, size_t width) {
  if (text.size() <= width) return text;
  if (width < 4) return "";
  size_t end = width - 3;
  while (end > 0 && (static_cast<unsigned char>(text[end]) & 0xC0) == 0x80) --end;
  return text.substr(0, end) + "...";
}

size_t terminal_columns() {
  winsize w{};
  if (ioctl(STDERR_FILENO, TIOCGWINSZ, &w) == 0 && w.ws_col > 0) return w.ws_col;
  return 80;
}

}  // namespace

double steady_seconds() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

std::string progress_line(std::string_view task, size_t done, size_t total,
                          const std::vector<std::string>& items, double elapsed, size_t columns) {
  std::string head = total ? fmt::format("{} [{}/{}]", task, done, total) : std::string(task);
  std::string tail = fmt::format(" ({} elapsed", clock_text(elapsed));
  if (total && done && done < total)
    tail += fmt::format(", ETA {}", clock_text(elapsed / done * (total - done)));
  tail += ")";
  std::string item = items.empty() ? "" : items.front();
  if (items.size() > 1) item += fmt::format(" (+{} more)", items.size() - 1);
  size_t width = columns > 0 ? columns - 1 : 0, used = head.size() + 1 + tail.size();
  if (!item.empty() && used + 4 <= width) return head + " " + cut(item, width - used) + tail;
  return cut(head + tail, width);
}

bool progress_on_stderr(bool quiet) {
  const char* term = std::getenv("TERM");
  return !quiet && isatty(STDERR_FILENO) && !(term && std::strcmp(term, "dumb") == 0);
}

Progress::Progress(std::ostream& out, bool live, size_t columns, ProgressClock clock, double tick_seconds)
    : out_(out), live_(live), columns_(columns), clock_(std::move(clock)) {
  started_ = clock_();
  if (live_ && tick_seconds > 0)
    ticker_ = std::thread([this, tick_seconds] {
      std::unique_lock lock(mutex_);
      while (!wake_.wait_for(lock, std::chrono::duration<double>(tick_seconds), [this] { return stop_; }))
        if (shown_) draw(true);
    });
}

Progress Progress::on_stderr(bool quiet) {
  bool live = progress_on_stderr(quiet);
  return Progress(std::cerr, live, live ? terminal_columns() : 80, steady_seconds, 1.0);
}

Progress::~Progress() {
  {
    std::lock_guard lock(mutex_);
    stop_ = true;
    erase();
  }
  wake_.notify_all();
  if (ticker_.joinable()) ticker_.join();
}

void Progress::stage(std::string task, size_t total) {
  std::lock_guard lock(mutex_);
  task_ = std::move(task);
  total_ = total;
  done_ = 0;
  items_.clear();
  started_ = clock_();
  draw(true);
}

void Progress::set_total(size_t total) {
  std::lock_guard lock(mutex_);
  total_ = std::max(total, done_);
  draw(false);
}

void Progress::start(std::string item) {
  std::lock_guard lock(mutex_);
  items_.push_back(std::move(item));
  draw(false);
}

void Progress::finish(std::string_view item) {
  std::lock_guard lock(mutex_);
  remove(item);
  ++done_;
  draw(done_ == total_);
}

void Progress::count(size_t n) {
  std::lock_guard lock(mutex_);
  done_ += n;
  draw(done_ == total_);
}

void Progress::drop(std::string_view item) {
  std::lock_guard lock(mutex_);
  remove(item);
  draw(false);
}

void Progress::print(std::string_view text) {
  std::lock_guard lock(mutex_);
  erase();
  out_ << text;
  if (!text.empty() && text.back() != '\n') out_ << '\n';
  if (live_ && !task_.empty()) draw(true);
  out_.flush();
}

void Progress::clear() {
  std::lock_guard lock(mutex_);
  erase();
}

void Progress::draw(bool force) {
  if (!live_ || task_.empty()) return;
  double now = clock_();
  if (!force && shown_ && now - drawn_at_ < kMinRedrawSeconds) return;
  out_ << kEraseLine << progress_line(task_, done_, total_, items_, now - started_, columns_) << std::flush;
  drawn_at_ = now;
  shown_ = true;
}

void Progress::remove(std::string_view item) {
  if (auto it = std::find(items_.begin(), items_.end(), item); it != items_.end()) items_.erase(it);
}

void Progress::erase() {
  if (!shown_) return;
  out_ << kEraseLine << std::flush;
  shown_ = false;
}

}  // namespace ucut
