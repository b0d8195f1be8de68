// llm/sse.h — server-sent events, incrementally: SseParser turns bytes (split anywhere, LF, CRLF or CR line
// ends) into the data of each event; StreamAccumulator folds chat.completion.chunk events into one
// ChatResponse (tool-call deltas keyed by index, argument fragments concatenated, the usage chunk, in-stream
// errors, `[DONE]`).
#pragma once

#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>

#include "llm/chat.h"
#include "llm/errors.h"

namespace ucut::llm {

/// Splits an event stream into events. Only `data:` fields matter here: an event's data lines are joined with
/// "\n"; comments (":...") and other fields are skipped.
class SseParser {
 public:
  using OnEvent = std::function<void(const std::string& data)>;

  /// Feeds the next bytes; calls `on_event` for every event a blank line completes.
  void feed(std::string_view bytes, const OnEvent& on_event);
  /// The stream ended: delivers a last event that lacked its blank line (servers differ).
  void finish(const OnEvent& on_event);

 private:
  void line(std::string_view l, const OnEvent& on_event);

  std::string line_;
  std::string data_;
  bool has_data_ = false;
  bool after_cr_ = false;  ///< the last byte was CR: a following LF belongs to the same line end
};

/// Builds the response from chunk events.
class StreamAccumulator {
 public:
  /// Takes one event's data. Returns false once the stream has failed (error() says how); `[DONE]` sets
  /// done().
  bool add(const std::string& data);

  bool done() const { return done_; }
  const std::optional<LlmError>& error() const { return error_; }
  /// The response so far: tool calls in index order, their arguments parsed.
  ChatResponse response() const;

 private:
  struct PartialCall {
    std::string id, name, arguments;
  };

  ChatResponse r_;
  std::string content_;
  bool has_content_ = false;
  std::string refusal_;
  std::map<int, PartialCall> calls_;
  bool done_ = false;
  std::optional<LlmError> error_;
};

}  // namespace ucut::llm
