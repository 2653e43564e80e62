#!/usr/bin/env python3
"""Records replies from real MCP Agent Mail servers for the pane adapter tests.

For each variant it starts the server itself on a free 127.0.0.1 port with a
throw-away STORAGE_ROOT and SQLite database, seeds agents and messages through MCP
JSON-RPC POSTs to /mcp/, records the replies the pane adapters consume, stops the
server by PID and writes each reply body verbatim to
core/tests/fixtures/agent-mail-replies/<variant>/<name>.json.

The project key is a fixed path (so project slugs in the replies are stable); it is
created under the system temp directory and removed afterwards. Nothing else is
normalized: timestamps are the server's own.

Standard library only. Usage:
    python3 tests/agent-mail/record_replies.py [variant ...]
Variants: agent-mail-0.2.1 (upstream, python from $AGENT_MAIL_PYTHON) and
mcp-mail-0.1.19 (the jleechanorg fork, python from $MCP_MAIL_PYTHON).
"""

import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
OUT = os.path.join(ROOT, "core", "tests", "fixtures", "agent-mail-replies")
VENVS = os.path.expanduser("~/.cache/switchboard/venvs")

VARIANTS = {
    "agent-mail-0.2.1": {
        "python": os.environ.get(
            "AGENT_MAIL_PYTHON", os.path.join(VENVS, "agent-mail-0.2.1", "bin", "python")
        ),
        # acknowledge_message and search_messages are core tools; contacts exist.
        "extended": False,
    },
    "mcp-mail-0.1.19": {
        "python": os.environ.get(
            "MCP_MAIL_PYTHON", os.path.join(VENVS, "mcp-mail-0.1.19", "bin", "python")
        ),
        # acknowledge_message and search_messages sit behind call_extended_tool.
        "extended": True,
    },
}

SENDER, RECIPIENT, THIRD = "BlueLake", "GreenCastle", "RedStone"


def free_port():
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class Server:
    """One server process on 127.0.0.1 with its own storage."""

    def __init__(self, python, workdir):
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.log_path = os.path.join(workdir, "server.log")
        env = dict(os.environ)
        env.update(
            STORAGE_ROOT=os.path.join(workdir, "archive"),
            DATABASE_URL=f"sqlite+aiosqlite:///{os.path.join(workdir, 'storage.sqlite3')}",
            LLM_ENABLED="false",
            HTTP_HOST="127.0.0.1",
            HTTP_PORT=str(self.port),
        )
        self.log = open(self.log_path, "wb")
        self.proc = subprocess.Popen(
            [python, "-m", "mcp_agent_mail.cli", "serve-http",
             "--host", "127.0.0.1", "--port", str(self.port)],
            cwd=workdir, env=env, stdout=self.log, stderr=subprocess.STDOUT,
        )
        self.next_id = 0

    def wait_ready(self, timeout=90):
        deadline = time.time() + timeout
        while time.time() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"server exited early; see {self.log_path}:\n{self.tail()}")
            try:
                with urllib.request.urlopen(self.base + "/health/liveness", timeout=2) as resp:
                    if resp.status == 200:
                        return
            except (urllib.error.URLError, ConnectionError, OSError):
                pass
            time.sleep(0.5)
        raise RuntimeError(f"server not ready after {timeout}s:\n{self.tail()}")

    def tail(self):
        self.log.flush()
        with open(self.log_path, "rb") as log:
            return log.read()[-3000:].decode("utf-8", "replace")

    def stop(self):
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        self.log.close()

    def rpc(self, method, params):
        """One JSON-RPC POST to /mcp/; returns the raw reply body text."""
        self.next_id += 1
        body = json.dumps(
            {"jsonrpc": "2.0", "id": self.next_id, "method": method, "params": params}
        ).encode()
        req = urllib.request.Request(
            self.base + "/mcp/", data=body, method="POST",
            headers={"Content-Type": "application/json",
                     "Accept": "application/json, text/event-stream"},
        )
        with urllib.request.urlopen(req, timeout=60) as resp:
            return resp.read().decode("utf-8")

    def tool(self, name, arguments):
        return self.rpc("tools/call", {"name": name, "arguments": arguments})

    def get(self, path):
        """GET a non-MCP path; returns (status, body text)."""
        try:
            with urllib.request.urlopen(self.base + path, timeout=30) as resp:
                return resp.status, resp.read().decode("utf-8")
        except urllib.error.HTTPError as err:
            return err.code, err.read().decode("utf-8", "replace")


def payload(reply):
    """structuredContent (or content[0].text) of a tool reply, for seeding steps."""
    result = json.loads(reply).get("result", {})
    if result.get("isError"):
        raise RuntimeError(f"tool error: {reply[:500]}")
    if result.get("structuredContent") is not None:
        return result["structuredContent"]
    return json.loads(result["content"][0]["text"])


def record(variant, config):
    python = config["python"]
    if not os.path.exists(python):
        print(f"{variant}: skipped, no python at {python}", file=sys.stderr)
        return False
    workdir = tempfile.mkdtemp(prefix=f"switchboard-record-{variant}-")
    project = os.path.join(tempfile.gettempdir(), f"switchboard-agent-mail-demo-{variant}")
    shutil.rmtree(project, ignore_errors=True)
    os.makedirs(project)
    out_dir = os.path.join(OUT, variant)
    os.makedirs(out_dir, exist_ok=True)
    replies = {}
    server = Server(python, workdir)
    print(f"{variant}: server pid {server.proc.pid} on {server.base}", file=sys.stderr)
    try:
        server.wait_ready()
        ext = config["extended"]

        def call(name, arguments, extended=False):
            if extended and ext:
                return server.tool("call_extended_tool",
                                   {"tool_name": name, "arguments": arguments})
            return server.tool(name, arguments)

        replies["ensure_project"] = server.tool("ensure_project", {"human_key": project})
        slug = payload(replies["ensure_project"]).get("slug")
        for name, program in ((SENDER, "claude-code"), (RECIPIENT, "codex-cli"),
                              (THIRD, "gemini-cli")):
            replies[f"register_agent_{name}"] = server.tool("register_agent", {
                "project_key": project, "program": program, "model": "test-model",
                "name": name, "task_description": "pane recording"})

        def send(subject, body, importance, ack, thread):
            args = {"project_key": project, "sender_name": SENDER, "to": [RECIPIENT],
                    "subject": subject, "body_md": body, "importance": importance,
                    "ack_required": ack}
            if thread:
                args["thread_id"] = thread
            return server.tool("send_message", args)

        replies["send_message"] = send("API contract for /users",
                                       "Please review the **users** API. Ack when read.",
                                       "high", True, "FEAT-1")
        first_id = payload(replies["send_message"])["deliveries"][0]["payload"]["id"]
        replies["send_message_plain"] = send("Status digest", "Nightly build is green.",
                                             "normal", False, None)
        replies["send_message_pending"] = send("Schema review", "Please check the schema.",
                                               "normal", True, "FEAT-2")

        if not ext:
            replies["request_contact"] = server.tool("request_contact", {
                "project_key": project, "from_agent": RECIPIENT, "to_agent": SENDER,
                "reason": "coordinate FEAT-1"})
            replies["respond_contact"] = server.tool("respond_contact", {
                "project_key": project, "to_agent": SENDER, "from_agent": RECIPIENT,
                "accept": True})
            replies["request_contact_pending"] = server.tool("request_contact", {
                "project_key": project, "from_agent": RECIPIENT, "to_agent": THIRD,
                "reason": "hand off FEAT-2"})

        replies["fetch_inbox"] = server.tool("fetch_inbox", {
            "project_key": project, "agent_name": RECIPIENT, "include_bodies": True,
            "limit": 50})
        view_uri = f"resource://views/ack-required/{RECIPIENT}?project={slug}"
        replies["views_ack_required_before"] = server.rpc("resources/read", {"uri": view_uri})
        replies["acknowledge_message"] = call("acknowledge_message", {
            "project_key": project, "agent_name": RECIPIENT, "message_id": first_id},
            extended=True)
        replies["views_ack_required"] = server.rpc("resources/read", {"uri": view_uri})
        # A resource error comes back as a JSON-RPC error object.
        replies["views_ack_required_unknown_agent"] = server.rpc("resources/read", {
            "uri": f"resource://views/ack-required/NoSuchAgent?project={slug}"})
        replies["reply_message"] = server.tool("reply_message", {
            "project_key": project, "message_id": first_id, "sender_name": RECIPIENT,
            "body_md": "Looks good; one nit on pagination."})
        replies["search_messages"] = call("search_messages", {
            "project_key": project, "query": "pagination OR users", "limit": 50},
            extended=True)
        replies["search_messages_from"] = call("search_messages", {
            "project_key": project, "query": f"from:{RECIPIENT}", "limit": 50},
            extended=True)
        if ext:
            replies["search_mailbox"] = server.tool("search_mailbox", {
                "project_key": project, "query": "contract"})
        replies["list_contacts"] = server.tool("list_contacts", {
            "project_key": project, "agent_name": RECIPIENT})
        replies["fetch_inbox_sender"] = server.tool("fetch_inbox", {
            "project_key": project, "agent_name": SENDER, "include_bodies": False,
            "limit": 50})
        status, body = server.get("/mail/api/unified-inbox?limit=50")
        if status == 200:
            replies["unified_inbox"] = body
        else:
            print(f"{variant}: /mail/api/unified-inbox answered {status}; not recorded",
                  file=sys.stderr)
    finally:
        server.stop()
        print(f"{variant}: server pid {server.proc.pid} stopped", file=sys.stderr)
        shutil.rmtree(project, ignore_errors=True)
        shutil.rmtree(workdir, ignore_errors=True)

    for name, body in replies.items():
        with open(os.path.join(out_dir, f"{name}.json"), "w", encoding="utf-8") as out:
            out.write(body)
    print(f"{variant}: wrote {len(replies)} replies to {out_dir}", file=sys.stderr)
    return True


def main(argv):
    names = argv[1:] or list(VARIANTS)
    unknown = [name for name in names if name not in VARIANTS]
    if unknown:
        print(f"unknown variant(s): {', '.join(unknown)}", file=sys.stderr)
        return 2
    recorded = [record(name, VARIANTS[name]) for name in names]
    return 0 if all(recorded) else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
