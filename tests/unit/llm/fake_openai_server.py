#!/usr/bin/env python3
# tests/unit/llm/fake_openai_server.py — a scripted OpenAI-compatible server for the LLM client's tests (stdlib).
# Usage: fake_openai_server.py SCRIPT.json LOG.jsonl. Listens on 127.0.0.1, port 0; prints the port on stdout.
# SCRIPT is a list of turns served in order to POST /v1/chat/completions (the last one repeats):
#   {"status": 200, "headers": {...}, "json": {...}}                    a JSON body
#   {"status": 200, "sse": [chunk, ...], "done": true, "truncate": false} SSE events (chunk: a JSON value or a raw
#                                                                         string), then `data: [DONE]` unless done is
#                                                                         false; truncate closes mid-event instead
#   {"delay_s": 3, ...}                                                   waits first
#   {"echo_auth": true, ...}                                              the Authorization header replaces
#                                                                         "{AUTH}" in the body
# Every request is appended to LOG as one JSON line: {"path", "headers", "body"}.
import json
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

script = json.load(open(sys.argv[1]))
log_path = sys.argv[2]
lock = threading.Lock()
served = [0]


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def do_POST(self):
        length = int(self.headers.get("Content-Length", "0"))
        raw = self.rfile.read(length).decode("utf-8", "replace")
        with lock:
            turn = script[min(served[0], len(script) - 1)]
            served[0] += 1
            with open(log_path, "a") as f:
                f.write(json.dumps({"path": self.path, "headers": dict(self.headers.items()), "body": raw}) + "\n")
        if turn.get("delay_s"):
            time.sleep(turn["delay_s"])
        status = turn.get("status", 200)
        auth = self.headers.get("Authorization", "")
        try:
            if "sse" in turn:
                self.send_response(status)
                self.send_header("Content-Type", "text/event-stream")
                self.send_header("Connection", "close")
                for k, v in turn.get("headers", {}).items():
                    self.send_header(k, v)
                self.end_headers()
                for i, chunk in enumerate(turn["sse"]):
                    text = chunk if isinstance(chunk, str) else json.dumps(chunk)
                    if turn.get("truncate") and i == len(turn["sse"]) - 1:
                        self.wfile.write(("data: " + text[: len(text) // 2]).encode())
                        self.wfile.flush()
                        self.close_connection = True
                        return
                    self.wfile.write(("data: " + text + "\r\n\r\n").encode())
                    self.wfile.flush()
                if turn.get("done", True):
                    self.wfile.write(b"data: [DONE]\n\n")
                self.wfile.flush()
                self.close_connection = True
                return
            body = json.dumps(turn.get("json", {}))
            if turn.get("echo_auth"):
                body = body.replace("{AUTH}", auth)
            data = body.encode()
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            for k, v in turn.get("headers", {}).items():
                self.send_header(k, v)
            self.end_headers()
            self.wfile.write(data)
            self.wfile.flush()
        except (BrokenPipeError, ConnectionResetError):
            pass


server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
server.daemon_threads = True
print(server.server_address[1], flush=True)
server.serve_forever()
