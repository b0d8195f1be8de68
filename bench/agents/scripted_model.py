#!/usr/bin/env python3
"""A scripted OpenAI-compatible chat-completions server for whole agent RUNS (stdlib only): it answers each
POST /v1/chat/completions by the first RULE of a JSON script that matches the request, with the next reply of
that rule's queue. The model turns are written by hand; nothing here is a model. (tests/unit/llm/
fake_openai_server.py serves turns strictly in order, for unit tests; a run's requests are matched instead.)

  scripted_model.py SCRIPT.json --log LOG.jsonl [--port 0] [--var NAME=VALUE ...]

Listens on 127.0.0.1 (port 0: any free one) and prints the port on stdout. The script:

  {"about": "...", "files": {"NAME": "path relative to the script", ...},
   "rules": [{"name": "...", "when": {...}, "replies": [REPLY, ...], "then": "repeat" | "fallback" | "fail",
              "fallback": REPLY}, ...]}

`when` (every key given must hold; a text condition is a string or a list of them, each a substring, or
{"regex": "..."} searched with re.DOTALL; all must be found):
  system      the system messages' text         first_user  the first user message
  last_user   the last user message             any         any message's text
  tool        a tool the request offers (name)  tools       true: the request offers tools; false: it offers none
  assistant_turns  how many assistant messages the conversation already holds (an int)
A REPLY is {"content": "text"}, {"json": VALUE} (the content is VALUE as JSON text) or {"tool_calls": [{"name":
..., "arguments": {...}}, ...]} (with an optional "content"), each with an optional "finish_reason". Every string
in a reply may hold {{NAME}}: the text of the script's file NAME, or a --var. When a rule's queue is spent, "then"
says what follows: "repeat" (the default) serves the last reply again, "fallback" serves "fallback", "fail"
answers 400. A request no rule matches gets HTTP 400 with error code `no_rule_matched`, so the run fails loudly.

Token counts (`usage`) are the server's own, deterministic: prompt tokens = ceil(UTF-8 bytes of the text of the
request's messages / 4), completion tokens = the same of the reply (a message's text: its content, and each tool
call's name and arguments). They are not a tokenizer's counts: every response's `usage.counted_as` and the `start`
line of LOG say so. LOG then gets one line per request: its number, the rule and reply that answered (or the
error), the counts and the request body."""
import argparse
import datetime
import hashlib
import json
import math
import os
import re
import sys
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

TOKEN_COUNTING = ("tokens as the scripted server counts them: ceil(UTF-8 bytes of the messages' text / 4), "
                  "not a tokenizer")
TEXT_KEYS = ("system", "first_user", "last_user", "any")
WHEN_KEYS = TEXT_KEYS + ("tool", "tools", "assistant_turns")
REPLY_KEYS = {"content", "json", "tool_calls", "finish_reason"}
PLACEHOLDER = re.compile(r"\{\{([A-Za-z_][A-Za-z0-9_]*)\}\}")


class ScriptError(Exception):
    """The script is malformed: what is wrong and where."""


def utc_now():
    return datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


def message_text(message):
    """What a message says: its content (a string or text parts) and each tool call's name and arguments."""
    content = message.get("content")
    if isinstance(content, list):
        content = "".join(p.get("text", "") for p in content if isinstance(p, dict))
    text = content if isinstance(content, str) else ""
    for call in message.get("tool_calls") or []:
        function = call.get("function") or {}
        arguments = function.get("arguments", "")
        text += function.get("name", "") + (arguments if isinstance(arguments, str) else json.dumps(arguments))
    return text


def count_tokens(texts):
    """The server's token count of these texts: ceil(UTF-8 bytes / 4)."""
    return math.ceil(sum(len(t.encode("utf-8")) for t in texts) / 4)


def substitute(value, names, where):
    """`value` with {{NAME}} replaced in every string; an unknown NAME is a ScriptError naming `where`."""
    if isinstance(value, str):
        def one(m):
            if m.group(1) not in names:
                raise ScriptError(f"{where}: {{{{{m.group(1)}}}}} names no file of the script and no --var")
            return names[m.group(1)]
        return PLACEHOLDER.sub(one, value)
    if isinstance(value, list):
        return [substitute(v, names, where) for v in value]
    if isinstance(value, dict):
        return {k: substitute(v, names, where) for k, v in value.items()}
    return value


def check_reply(reply, where):
    if not isinstance(reply, dict) or not reply:
        raise ScriptError(f"{where}: a reply is a non-empty object")
    unknown = set(reply) - REPLY_KEYS
    if unknown:
        raise ScriptError(f"{where}: unknown reply keys {sorted(unknown)} (known: {sorted(REPLY_KEYS)})")
    if "content" in reply and "json" in reply:
        raise ScriptError(f"{where}: a reply has `content` or `json`, not both")
    if not ({"content", "json", "tool_calls"} & set(reply)):
        raise ScriptError(f"{where}: a reply needs `content`, `json` or `tool_calls`")
    for i, call in enumerate(reply.get("tool_calls", [])):
        if not isinstance(call, dict) or not isinstance(call.get("name"), str):
            raise ScriptError(f"{where}: tool call {i} needs a `name`")
        if not isinstance(call.get("arguments", {}), (dict, str)):
            raise ScriptError(f"{where}: tool call {i}'s `arguments` is an object or JSON text")


def compile_condition(value, where):
    """A text condition as a list of predicates on a string."""
    items = value if isinstance(value, list) else [value]
    out = []
    for item in items:
        if isinstance(item, str):
            out.append(lambda text, s=item: s in text)
        elif isinstance(item, dict) and set(item) == {"regex"} and isinstance(item["regex"], str):
            try:
                pattern = re.compile(item["regex"], re.DOTALL)
            except re.error as e:
                raise ScriptError(f"{where}: bad regex {item['regex']!r}: {e}") from None
            out.append(lambda text, p=pattern: p.search(text) is not None)
        else:
            raise ScriptError(f"{where}: a text condition is a string or {{\"regex\": \"...\"}}, got {item!r}")
    return out


class Rule:
    def __init__(self, spec, index, names):
        where = f"rule {index}" + (f" ({spec['name']})" if isinstance(spec, dict) and "name" in spec else "")
        if not isinstance(spec, dict):
            raise ScriptError(f"{where}: a rule is an object")
        unknown = set(spec) - {"name", "when", "replies", "then", "fallback"}
        if unknown:
            raise ScriptError(f"{where}: unknown keys {sorted(unknown)}")
        self.name = spec.get("name", f"rule {index}")
        when = spec.get("when", {})
        if not isinstance(when, dict) or set(when) - set(WHEN_KEYS):
            raise ScriptError(f"{where}: `when` is an object of {', '.join(WHEN_KEYS)}")
        self.text = {k: compile_condition(when[k], where) for k in TEXT_KEYS if k in when}
        self.tool = when.get("tool")
        self.tools = when.get("tools")
        self.assistant_turns = when.get("assistant_turns")
        if self.assistant_turns is not None and not isinstance(self.assistant_turns, int):
            raise ScriptError(f"{where}: `assistant_turns` is an integer")
        replies = spec.get("replies")
        if not isinstance(replies, list) or not replies:
            raise ScriptError(f"{where}: `replies` is a non-empty list")
        self.then = spec.get("then", "repeat")
        if self.then not in ("repeat", "fallback", "fail"):
            raise ScriptError(f"{where}: `then` is repeat, fallback or fail, not {self.then!r}")
        if (self.then == "fallback") != ("fallback" in spec):
            raise ScriptError(f"{where}: `fallback` goes with then = \"fallback\", and only with it")
        for i, r in enumerate(replies + ([spec["fallback"]] if "fallback" in spec else [])):
            check_reply(r, f"{where}, reply {i}")
        self.replies = [substitute(r, names, where) for r in replies]
        self.fallback = substitute(spec["fallback"], names, where) if "fallback" in spec else None
        self.served = 0

    def matches(self, request):
        messages = request.get("messages") or []
        texts = {
            "system": "\n".join(message_text(m) for m in messages if m.get("role") == "system"),
            "first_user": next((message_text(m) for m in messages if m.get("role") == "user"), ""),
            "last_user": next((message_text(m) for m in reversed(messages) if m.get("role") == "user"), ""),
            "any": "\n".join(message_text(m) for m in messages),
        }
        if any(not all(p(texts[k]) for p in preds) for k, preds in self.text.items()):
            return False
        offered = [t.get("function", {}).get("name") for t in request.get("tools") or []]
        if self.tool is not None and self.tool not in offered:
            return False
        if self.tools is not None and bool(offered) != self.tools:
            return False
        turns = sum(1 for m in messages if m.get("role") == "assistant")
        return self.assistant_turns is None or turns == self.assistant_turns

    def next_reply(self):
        """(the reply, its index in the queue: len(replies) for the fallback), or None: `then` is fail."""
        i = self.served
        self.served += 1
        if i < len(self.replies):
            return self.replies[i], i
        if self.then == "repeat":
            return self.replies[-1], len(self.replies) - 1
        if self.then == "fallback":
            return self.fallback, len(self.replies)
        return None


class Script:
    """A loaded script: its rules, in order, with every {{NAME}} resolved."""

    def __init__(self, path, variables=None):
        try:
            with open(path, encoding="utf-8") as f:
                raw = f.read()
            spec = json.loads(raw)
        except (OSError, json.JSONDecodeError) as e:
            raise ScriptError(f"{path}: {e}") from None
        if not isinstance(spec, dict) or not isinstance(spec.get("rules"), list) or not spec["rules"]:
            raise ScriptError(f"{path}: a script is an object with a non-empty `rules` list")
        self.path = path
        self.sha256 = hashlib.sha256(raw.encode("utf-8")).hexdigest()
        names = dict(variables or {})
        base = os.path.dirname(os.path.abspath(path))
        for name, rel in (spec.get("files") or {}).items():
            try:
                with open(os.path.join(base, rel), encoding="utf-8") as f:
                    names[name] = f.read()
            except OSError as e:
                raise ScriptError(f"{path}: file {name} ({rel}): {e.strerror}") from None
        self.rules = [Rule(r, i, names) for i, r in enumerate(spec["rules"])]
        self.lock = threading.Lock()
        self.count = 0

    def answer(self, request):
        """(HTTP status, body, log fields) for one chat-completions request."""
        with self.lock:
            self.count += 1
            n = self.count
            messages = request.get("messages") or []
            prompt_tokens = count_tokens(message_text(m) for m in messages)
            log = {"n": n, "assistant_turns": sum(1 for m in messages if m.get("role") == "assistant"),
                   "prompt_tokens": prompt_tokens}
            if request.get("stream"):
                return self._error(400, "stream_unsupported", "the scripted server does not stream: set "
                                   "stream = false", log)
            rule = next((r for r in self.rules if r.matches(request)), None)
            if rule is None:
                last = next((message_text(m) for m in reversed(messages) if m.get("role") == "user"), "")
                return self._error(400, "no_rule_matched",
                                   f"scripted model: no rule of {self.path} matched request {n} (last user "
                                   f"message begins {last[:200]!r})", log)
            picked = rule.next_reply()
            log["rule"] = rule.name
            if picked is None:
                return self._error(400, "rule_spent", f"scripted model: rule {rule.name!r} has served its "
                                   f"{len(rule.replies)} replies and says then = fail", log)
            reply, index = picked
            message = {"role": "assistant", "content": None}
            if "json" in reply:
                message["content"] = json.dumps(reply["json"], ensure_ascii=False)
            elif "content" in reply:
                message["content"] = reply["content"]
            calls = reply.get("tool_calls", [])
            if calls:
                message["tool_calls"] = [
                    {"id": f"call_{n}_{i}", "type": "function",
                     "function": {"name": c["name"],
                                  "arguments": c["arguments"] if isinstance(c.get("arguments"), str)
                                  else json.dumps(c.get("arguments", {}), ensure_ascii=False)}}
                    for i, c in enumerate(calls)]
            completion_tokens = count_tokens([message_text(message)])
            body = {"id": f"scripted-{n}", "object": "chat.completion", "model": request.get("model", "scripted"),
                    "choices": [{"index": 0, "message": message,
                                 "finish_reason": reply.get("finish_reason", "tool_calls" if calls else "stop")}],
                    "usage": {"prompt_tokens": prompt_tokens, "completion_tokens": completion_tokens,
                              "total_tokens": prompt_tokens + completion_tokens, "counted_as": TOKEN_COUNTING}}
            log.update(reply=index, status=200, completion_tokens=completion_tokens)
            return 200, body, log

    @staticmethod
    def _error(status, code, message, log):
        log.update(status=status, error=message)
        return status, {"error": {"message": message, "type": "invalid_request_error", "code": code}}, log


def serve(script, log_path, port=0):
    """The bound server (not yet serving); every request goes to `log_path` as one JSON line."""
    log_lock = threading.Lock()

    def write_log(entry):
        with log_lock, open(log_path, "a", encoding="utf-8") as f:
            f.write(json.dumps(entry, ensure_ascii=False) + "\n")

    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, *args):
            pass

        def reply(self, status, body):
            data = json.dumps(body, ensure_ascii=False).encode("utf-8")
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def do_GET(self):
            self.reply(404, {"error": {"message": f"the scripted server answers POST /v1/chat/completions, "
                                       f"not GET {self.path}", "code": "not_found"}})

        def do_POST(self):
            raw = self.rfile.read(int(self.headers.get("Content-Length", "0"))).decode("utf-8", "replace")
            if self.path.rstrip("/") not in ("/v1/chat/completions", "/chat/completions"):
                self.reply(404, {"error": {"message": f"no endpoint {self.path}: the scripted server answers "
                                           f"POST /v1/chat/completions", "code": "not_found"}})
                return
            try:
                request = json.loads(raw)
                if not isinstance(request, dict):
                    raise ValueError("the body is not a JSON object")
            except ValueError as e:
                write_log({"event": "request", "time": utc_now(), "status": 400, "error": str(e), "body": raw})
                self.reply(400, {"error": {"message": f"the request is not a JSON object: {e}",
                                           "code": "bad_json"}})
                return
            status, body, log = script.answer(request)
            write_log({"event": "request", "time": utc_now(), **log, "request": request})
            self.reply(status, body)

    server = ThreadingHTTPServer(("127.0.0.1", port), Handler)
    server.daemon_threads = True
    write_log({"event": "start", "time": utc_now(), "script": os.path.abspath(script.path),
               "script_sha256": script.sha256, "rules": [r.name for r in script.rules],
               "port": server.server_address[1], "token_counting": TOKEN_COUNTING})
    return server


def parse_var(text):
    name, sep, value = text.partition("=")
    if not sep or not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", name):
        raise argparse.ArgumentTypeError(f"--var takes NAME=VALUE, got {text!r}")
    return name, value


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("script", help="the JSON script of rules")
    ap.add_argument("--log", required=True, help="the JSONL log of every request")
    ap.add_argument("--port", type=int, default=0, help="the port on 127.0.0.1 (0: any free one, printed)")
    ap.add_argument("--var", type=parse_var, action="append", default=[], metavar="NAME=VALUE",
                    help="a value for {{NAME}} in the replies")
    args = ap.parse_args(argv)
    try:
        script = Script(args.script, dict(args.var))
    except ScriptError as e:
        print(f"scripted_model.py: {e}", file=sys.stderr)
        return 2
    server = serve(script, args.log, args.port)
    print(server.server_address[1], flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    return 0


if __name__ == "__main__":
    sys.exit(main())
