"""scripted_model.py, the rule-matching model server of the agents' scripted GPU run: matching, queues, tool-call
replies, the token counts, an unmatched request's 400, the log, and the scripts of bench/agents/scripts loading
with the files they name."""
import json
import math
import os
import sys
import tempfile
import threading
import unittest
import urllib.error
import urllib.request

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import scripted_model  # noqa: E402


class ServerCase(unittest.TestCase):
    """A server on a free port with a script of `rules` (and `files` beside it), logging to self.log."""

    def start(self, rules, files=None, variables=None):
        self.dir = tempfile.TemporaryDirectory()
        names = {}
        for name, text in (files or {}).items():
            with open(os.path.join(self.dir.name, name + ".txt"), "w") as f:
                f.write(text)
            names[name] = name + ".txt"
        path = os.path.join(self.dir.name, "script.json")
        with open(path, "w") as f:
            json.dump({"files": names, "rules": rules}, f)
        self.log = os.path.join(self.dir.name, "log.jsonl")
        self.server = scripted_model.serve(scripted_model.Script(path, variables), self.log)
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def tearDown(self):
        if hasattr(self, "server"):
            self.server.shutdown()
            self.server.server_close()
            self.dir.cleanup()

    def ask(self, messages, tools=None, **extra):
        """(status, body) of one chat-completions request."""
        body = {"model": "scripted", "messages": messages, **extra}
        if tools:
            body["tools"] = [{"type": "function", "function": {"name": t, "parameters": {}}} for t in tools]
        req = urllib.request.Request(f"http://127.0.0.1:{self.server.server_address[1]}/v1/chat/completions",
                                     data=json.dumps(body).encode(), headers={"Content-Type": "application/json"})
        try:
            with urllib.request.urlopen(req, timeout=10) as r:
                return r.status, json.loads(r.read())
        except urllib.error.HTTPError as e:
            return e.code, json.loads(e.read())

    def content(self, messages, **kw):
        status, body = self.ask(messages, **kw)
        self.assertEqual(status, 200, body)
        return body["choices"][0]["message"]["content"]

    def log_lines(self):
        with open(self.log) as f:
            return [json.loads(line) for line in f]


def user(text):
    return {"role": "user", "content": text}


class Matching(ServerCase):
    def test_the_first_rule_whose_conditions_all_hold_answers(self):
        self.start([
            {"name": "measure L1", "when": {"first_user": ["phase 1", "`L1`"]}, "replies": [{"content": "m1"}]},
            {"name": "any phase 1", "when": {"first_user": "phase 1"}, "replies": [{"content": "m"}]},
            {"name": "regex", "when": {"last_user": {"regex": "try:\\s*none\\s"}}, "replies": [{"content": "r"}]},
            {"name": "system", "when": {"system": "You are X"}, "replies": [{"content": "s"}]},
        ])
        self.assertEqual(self.content([user("phase 1 of `L1`")]), "m1")
        self.assertEqual(self.content([user("phase 1 of `L2`")]), "m")
        self.assertEqual(self.content([user("got wrong, if any try:\n\nnone\n\nRules")]), "r")
        self.assertEqual(self.content([{"role": "system", "content": "You are X"}, user("hello")]), "s")

    def test_first_user_last_user_and_any_read_different_messages(self):
        self.start([
            {"name": "repair", "when": {"first_user": "task", "last_user": "cannot be used"},
             "replies": [{"content": "repaired"}]},
            {"name": "task", "when": {"first_user": "task"}, "replies": [{"content": "first"}]},
            {"name": "anywhere", "when": {"any": "deep inside"}, "replies": [{"content": "any"}]},
        ])
        self.assertEqual(self.content([user("task")]), "first")
        self.assertEqual(self.content([user("task"), {"role": "assistant", "content": "x"},
                                       user("That answer cannot be used")]), "repaired")
        self.assertEqual(self.content([user("q"), {"role": "assistant", "content": "deep inside"}, user("r")]), "any")

    def test_tools_and_assistant_turns(self):
        self.start([
            {"name": "turn 0", "when": {"tool": "run", "assistant_turns": 0}, "replies": [{"content": "t0"}]},
            {"name": "turn 1", "when": {"tool": "run", "assistant_turns": 1}, "replies": [{"content": "t1"}]},
            {"name": "no tools", "when": {"tools": False}, "replies": [{"content": "plain"}]},
        ])
        self.assertEqual(self.content([user("go")], tools=["check", "run"]), "t0")
        self.assertEqual(self.content([user("go"), {"role": "assistant", "content": None, "tool_calls": [
            {"id": "c", "type": "function", "function": {"name": "run", "arguments": "{}"}}]},
            {"role": "tool", "tool_call_id": "c", "content": "ok"}], tools=["run"]), "t1")
        self.assertEqual(self.content([user("go")]), "plain")
        status, body = self.ask([user("go"), {"role": "assistant", "content": "a"}, {"role": "assistant",
                                                                                     "content": "b"}], tools=["run"])
        self.assertEqual((status, body["error"]["code"]), (400, "no_rule_matched"))


class Queues(ServerCase):
    def test_replies_in_order_then_the_last_repeats(self):
        self.start([{"name": "q", "replies": [{"content": "a"}, {"content": "b"}]}])
        self.assertEqual([self.content([user("x")]) for _ in range(4)], ["a", "b", "b", "b"])

    def test_a_fallback_after_the_queue(self):
        self.start([{"name": "q", "replies": [{"content": "a"}], "then": "fallback",
                     "fallback": {"content": "enough"}}])
        self.assertEqual([self.content([user("x")]) for _ in range(3)], ["a", "enough", "enough"])

    def test_then_fail_answers_400_once_the_queue_is_spent(self):
        self.start([{"name": "once", "replies": [{"content": "a"}], "then": "fail"}])
        self.assertEqual(self.content([user("x")]), "a")
        status, body = self.ask([user("x")])
        self.assertEqual((status, body["error"]["code"]), (400, "rule_spent"))
        self.assertIn("'once'", body["error"]["message"])

    def test_each_rule_keeps_its_own_queue(self):
        self.start([{"name": "a", "when": {"any": "A"}, "replies": [{"content": "a1"}, {"content": "a2"}]},
                    {"name": "b", "when": {"any": "B"}, "replies": [{"content": "b1"}, {"content": "b2"}]}])
        self.assertEqual([self.content([user(t)]) for t in "ABAB"], ["a1", "b1", "a2", "b2"])


class Replies(ServerCase):
    def test_tool_calls_in_the_openai_format(self):
        self.start([{"name": "t", "replies": [{"content": "step 1", "tool_calls": [
            {"name": "check", "arguments": {"spec": "kernel k"}},
            {"name": "sol", "arguments": "{\"problem\": \"p\"}"}]}]}])
        status, body = self.ask([user("x")], tools=["check", "sol"])
        self.assertEqual(status, 200)
        choice = body["choices"][0]
        self.assertEqual(choice["finish_reason"], "tool_calls")
        calls = choice["message"]["tool_calls"]
        self.assertEqual([c["type"] for c in calls], ["function", "function"])
        self.assertEqual([c["function"]["name"] for c in calls], ["check", "sol"])
        self.assertEqual(json.loads(calls[0]["function"]["arguments"]), {"spec": "kernel k"})
        self.assertEqual(calls[1]["function"]["arguments"], "{\"problem\": \"p\"}")
        self.assertEqual(len({c["id"] for c in calls}), 2)
        self.assertEqual(choice["message"]["content"], "step 1")
        _, again = self.ask([user("x")], tools=["check", "sol"])
        self.assertNotEqual(again["choices"][0]["message"]["tool_calls"][0]["id"], calls[0]["id"])

    def test_a_json_reply_is_its_value_as_text(self):
        self.start([{"name": "j", "replies": [{"json": {"profile": True, "reason": "é"}}]}])
        status, body = self.ask([user("x")])
        self.assertEqual(json.loads(body["choices"][0]["message"]["content"]), {"profile": True, "reason": "é"})
        self.assertEqual(body["choices"][0]["finish_reason"], "stop")

    def test_files_and_vars_fill_the_placeholders(self):
        self.start([{"name": "f", "replies": [{"json": {"specs": ["{{spec}}"], "notes": "in {{WS}}"}}]}],
                   files={"spec": "kernel k : sm90a\n"}, variables={"WS": "/tmp/w.db"})
        answer = json.loads(self.content([user("x")]))
        self.assertEqual(answer, {"specs": ["kernel k : sm90a\n"], "notes": "in /tmp/w.db"})

    def test_the_token_counts_are_utf8_bytes_over_four_rounded_up(self):
        self.start([{"name": "t", "replies": [{"content": "ééé"}]}])  # 6 bytes -> 2
        messages = [{"role": "system", "content": "abcde"}, user("μ"),  # 5 + 2 bytes
                    {"role": "assistant", "content": None, "tool_calls": [
                        {"id": "c", "type": "function", "function": {"name": "run", "arguments": "{}"}}]}]  # 3 + 2
        _, body = self.ask(messages)
        self.assertEqual(body["usage"], {"prompt_tokens": math.ceil(12 / 4), "completion_tokens": 2,
                                         "total_tokens": 5, "counted_as": scripted_model.TOKEN_COUNTING})
        self.assertIn("not a tokenizer", body["usage"]["counted_as"])

    def test_a_streamed_request_is_refused(self):
        self.start([{"name": "t", "replies": [{"content": "a"}]}])
        status, body = self.ask([user("x")], stream=True)
        self.assertEqual((status, body["error"]["code"]), (400, "stream_unsupported"))


class Logging(ServerCase):
    def test_every_request_and_the_rule_that_answered(self):
        self.start([{"name": "known", "when": {"any": "known"}, "replies": [{"content": "yes"}]}])
        self.content([user("known thing")])
        status, body = self.ask([user("something else")])
        self.assertEqual(status, 400)
        self.assertIn("no rule of", body["error"]["message"])
        self.assertIn("'something else'", body["error"]["message"])
        start, answered, unmatched = self.log_lines()
        self.assertEqual(start["event"], "start")
        self.assertEqual(start["rules"], ["known"])
        self.assertIn("bytes", start["token_counting"])
        self.assertIn("not a tokenizer", start["token_counting"])
        self.assertEqual((answered["n"], answered["rule"], answered["reply"], answered["status"]), (1, "known", 0, 200))
        self.assertEqual(answered["request"]["messages"][0]["content"], "known thing")
        self.assertEqual(answered["prompt_tokens"], 3)
        self.assertEqual((unmatched["n"], unmatched["status"]), (2, 400))
        self.assertNotIn("rule", unmatched)


class ScriptErrors(unittest.TestCase):
    def load(self, spec, variables=None):
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "s.json")
            with open(path, "w") as f:
                f.write(spec if isinstance(spec, str) else json.dumps(spec))
            return scripted_model.Script(path, variables)

    def assert_refused(self, spec, words):
        with self.assertRaises(scripted_model.ScriptError) as e:
            self.load(spec)
        self.assertIn(words, str(e.exception))

    def test_malformed_scripts_are_refused_with_what_and_where(self):
        ok = {"replies": [{"content": "a"}]}
        self.assert_refused("{not json", "s.json")
        self.assert_refused({"rules": []}, "non-empty `rules`")
        self.assert_refused({"rules": [{"name": "x", "replies": []}]}, "rule 0 (x): `replies` is a non-empty list")
        self.assert_refused({"rules": [dict(ok, when={"frist_user": "a"})]}, "`when` is an object of")
        self.assert_refused({"rules": [dict(ok, when={"any": {"regex": "("}})]}, "bad regex")
        self.assert_refused({"rules": [dict(ok, then="fallback")]}, "`fallback` goes with")
        self.assert_refused({"rules": [{"replies": [{"text": "a"}]}]}, "unknown reply keys ['text']")
        self.assert_refused({"rules": [{"replies": [{"content": "{{nope}}"}]}]}, "{{nope}} names no file")
        self.assert_refused({"files": {"a": "missing.txt"}, "rules": [ok]}, "file a (missing.txt)")

    def test_the_bundled_scripts_load_with_the_drivers_variables(self):
        for name in ("orchestrated", "in_prompt", "cudamaster"):
            script = scripted_model.Script(os.path.join(HERE, "scripts", name + ".json"),
                                           {"GPU": "h200", "LESSONS_WORKSPACE": "/tmp/w.db"})
            names = [r.name for r in script.rules]
            self.assertEqual(len(names), len(set(names)), f"{name}: rule names repeat")


if __name__ == "__main__":
    unittest.main()
