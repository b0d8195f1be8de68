"""tests/mcp/test_mcp_sdk.py — `ucutlass mcp` driven by the official MCP Python SDK (mcp==2.3.0, which
scripts/setup.sh installs into .deps/mcp-2.3.0): the stdio client spawns the server, initializes, lists and calls
the tools, reads a resource. Run as scripts/test.sh does:
  PYTHONPATH=.deps/mcp-2.3.0 UCUTLASS=build-test/ucutlass python3 -m unittest discover -s tests/mcp -p 'test_*.py'
"""
import asyncio
import json
import os
import pathlib
import unittest

try:
    from mcp import ClientSession, MCPError, StdioServerParameters
    from mcp.client.stdio import stdio_client
except ImportError:  # the SDK is not installed (UCUT_NO_MCP=1)
    ClientSession = None

ROOT = pathlib.Path(__file__).resolve().parents[2]
UCUTLASS = os.environ.get("UCUTLASS", str(ROOT / "build-test" / "ucutlass"))
EXAMPLE = (ROOT / "examples" / "gemm_tf32.ucut").read_text()
BROKEN = EXAMPLE.replace("with_threadblockshape(128, 128, 32)", "with_threadblockshape(100, 128, 32)")


def text_of(result):
    return "".join(c.text for c in result.content if getattr(c, "type", "") == "text")


@unittest.skipIf(ClientSession is None, "the mcp SDK is not installed: run scripts/setup.sh (without UCUT_NO_MCP=1) "
                 "and put .deps/mcp-2.3.0 on PYTHONPATH")
@unittest.skipUnless(os.access(UCUTLASS, os.X_OK), f"no ucutlass binary at {UCUTLASS}: build it, or set UCUTLASS")
class McpSdkTest(unittest.TestCase):
    def session_run(self, body):
        # The SDK passes only HOME, LOGNAME, PATH, SHELL, TERM, USER to the child unless env= is given.
        env = {k: v for k, v in os.environ.items() if k in ("HOME", "PATH", "USER", "TMPDIR")}
        params = StdioServerParameters(
            command=UCUTLASS,
            args=["mcp", "--suites", str(ROOT / "suites"), "--worker", "/nonexistent/ucutlass-worker"],
            env=env, cwd=str(ROOT))

        async def main():
            async with stdio_client(params) as (read, write):
                async with ClientSession(read, write) as session:
                    init = await session.initialize()
                    return await body(session, init)

        return asyncio.run(asyncio.wait_for(main(), timeout=120))

    def test_handshake_tools_and_resources(self):
        async def body(s, init):
            self.assertEqual(init.server_info.name, "ucutlass")
            self.assertEqual(init.protocol_version, "2025-11-25")
            self.assertTrue(init.instructions)
            tools = {t.name: t for t in (await s.list_tools()).tools}
            self.assertEqual(set(tools), {"check", "compile", "sol", "problem", "run", "profile", "lessons"})
            for t in tools.values():
                self.assertTrue(t.description)
                self.assertEqual(t.input_schema["type"], "object")
            uris = [str(r.uri) for r in (await s.list_resources()).resources]
            self.assertEqual(uris, ["ucutlass://docs/dsl-guide.md", "ucutlass://docs/grammar.ebnf"])
            guide = await s.read_resource("ucutlass://docs/dsl-guide.md")
            self.assertEqual(guide.contents[0].text, (ROOT / "docs" / "dsl-guide.md").read_text())
            with self.assertRaises(MCPError) as e:
                await s.read_resource("ucutlass://docs/none.md")
            self.assertEqual(e.exception.code, -32002)
        self.session_run(body)

    def test_tools(self):
        async def body(s, init):
            ok = await s.call_tool("check", {"spec": EXAMPLE})
            self.assertFalse(ok.is_error, text_of(ok))
            self.assertTrue(ok.structured_content["ok"])
            self.assertEqual(json.loads(text_of(ok)), ok.structured_content)

            bad = await s.call_tool("check", {"spec": BROKEN})
            self.assertTrue(bad.is_error)
            rule = bad.structured_content["diagnostics"][0]["rule"]
            self.assertIn(rule, text_of(bad))

            code = await s.call_tool("compile", {"spec": EXAMPLE, "include_code": True})
            self.assertFalse(code.is_error, text_of(code))
            self.assertIn("cutlass", code.structured_content["code"])

            sol = await s.call_tool("sol", {"problem": "L1_001_square_matmul", "gpu": "h100_sxm"})
            self.assertFalse(sol.is_error, text_of(sol))
            self.assertIn("L1_001_square_matmul", text_of(sol))

            listing = await s.call_tool("problem", {})
            self.assertFalse(listing.is_error, text_of(listing))
            names = [p["name"] for p in listing.structured_content["problems"]]
            self.assertIn("L1_001_square_matmul", names)
            one = await s.call_tool("problem", {"name": "L1_001_square_matmul"})
            self.assertGreater(one.structured_content["flops"], 0)

            lessons = await s.call_tool("lessons", {"workspace": "/nonexistent/ws.db"})
            self.assertTrue(lessons.is_error)
            self.assertIn("/nonexistent/ws.db", text_of(lessons))

            run = await s.call_tool("run", {"spec": EXAMPLE, "problem": "L1_001_square_matmul", "trials": 3})
            self.assertTrue(run.is_error)
            self.assertIn("cannot time a kernel on this machine", text_of(run))

            # An unknown tool and arguments the schema refuses are JSON-RPC errors (-32602), not results.
            for name, args in (("no_such_tool", {}), ("check", {}), ("check", {"spec": 3})):
                with self.assertRaises(MCPError, msg=f"{name} {args}") as e:
                    await s.call_tool(name, args)
                self.assertEqual(e.exception.code, -32602)
        self.session_run(body)


if __name__ == "__main__":
    unittest.main()
