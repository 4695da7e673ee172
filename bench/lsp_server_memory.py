#!/usr/bin/env python3
"""The language server as editors run it, on a 2,000-file workspace: peak RSS and CPU of a fresh `kubectl-wasdra lsp`
process over stdio, while the file defining the DeviceClass every claim names is opened and edited.

A client written here speaks JSON-RPC over the server's stdin/stdout: initialize (the folder as workspace), open the
hub file, wait until the server is idle (its CPU time stops moving), then edit a label (nothing the dependents read:
they are not checked again) and the driver its selector pins (they are, in chunks, after the hub's own diagnostics).
Peak RSS is the kernel's high-water mark of the server process (VmHWM); CPU is its user+sys time, since the machine
is shared. Not a test: nothing here asserts a time or a size.

    python bench/lsp_server_memory.py                   # 2,000 files of 10 documents
    python bench/lsp_server_memory.py --files 500
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from lsp_diagnostics import manifest, text_of


class Client:
    """A minimal LSP client: sends messages, and a reader thread drains what the server writes (diagnostics)."""

    def __init__(self, command: list[str], env: dict[str, str]) -> None:
        self.process = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, env=env)
        self.responses: dict[int, Any] = {}
        self.published = 0
        self._next = 0
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        stream = self.process.stdout
        assert stream is not None
        while True:
            length = 0
            while (line := stream.readline()) not in (b"\r\n", b""):
                if line.lower().startswith(b"content-length:"):
                    length = int(line.split(b":")[1])
            if not line:
                return
            message = json.loads(stream.read(length))
            if "id" in message and "method" not in message:
                self.responses[message["id"]] = message
            elif "id" in message:   # a request from the server (registerCapability, configuration): answer it
                self.send({"jsonrpc": "2.0", "id": message["id"], "result": None})
            elif message.get("method") == "textDocument/publishDiagnostics":
                self.published += 1

    def send(self, message: dict[str, Any]) -> None:
        body = json.dumps(message).encode()
        assert self.process.stdin is not None
        self.process.stdin.write(b"Content-Length: %d\r\n\r\n%s" % (len(body), body))
        self.process.stdin.flush()

    def request(self, method: str, params: Any) -> Any:
        self._next += 1
        number = self._next
        self.send({"jsonrpc": "2.0", "id": number, "method": method, "params": params})
        while number not in self.responses:
            time.sleep(0.01)
        return self.responses.pop(number)

    def notify(self, method: str, params: Any) -> None:
        self.send({"jsonrpc": "2.0", "method": method, "params": params})

    def cpu(self) -> float:
        """The server's user+sys seconds so far."""
        fields = Path(f"/proc/{self.process.pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    def peak_mb(self) -> float:
        for line in Path(f"/proc/{self.process.pid}/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
        return 0.0

    def idle(self, quiet: float = 1.0) -> float:
        """Wait until the server's CPU time stops moving for `quiet` seconds; its CPU seconds then."""
        last, since = self.cpu(), time.monotonic()
        while time.monotonic() - since < quiet:
            time.sleep(0.1)
            now = self.cpu()
            if now != last:
                last, since = now, time.monotonic()
        return last


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--files", type=int, default=2000)
    parser.add_argument("--docs-per-file", type=int, default=10)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as root, tempfile.TemporaryDirectory() as cache:
        for number in range(args.files):
            Path(root, f"m-{number:05d}.yaml").write_text(text_of(manifest(args.docs_per_file, number * args.docs_per_file)))
        env = {**os.environ, "WASDRA_CACHE_DIR": cache}
        client = Client([sys.executable, "-m", "kubectl_wasdra", "lsp"], env)
        uri = Path(root).as_uri()
        client.request("initialize", {"processId": os.getpid(), "rootUri": uri, "capabilities": {},
                                      "workspaceFolders": [{"uri": uri, "name": "bench"}]})
        client.notify("initialized", {})
        started = client.idle()
        hub = Path(root, "m-00000.yaml")
        docs = manifest(args.docs_per_file)
        at = next(i for i, d in enumerate(docs) if d["kind"] == "DeviceClass" and d["metadata"]["name"] == "gpu.example.com")
        client.notify("textDocument/didOpen", {"textDocument": {"uri": hub.as_uri(), "languageId": "yaml", "version": 1,
                                                                "text": text_of(docs)}})
        opened = client.idle()
        print(f"{args.files} files, {args.files * args.docs_per_file} documents; server started and indexed the folder: "
              f"{started:.2f} s CPU; the hub file opened, every dependent checked: {opened - started:.2f} s CPU; "
              f"peak RSS {client.peak_mb():.0f} MB")
        version, before = 1, opened
        for what, edit in (("a label", lambda run: {"metadata": {**docs[at]["metadata"], "labels": {"run": str(run)}}}),
                           ("the driver its selector pins", lambda run: {"spec": {"selectors": [{"cel": {
                               "expression": f'device.driver == "gpu-{run % 2}.example.com"'}}]}})):
            costs = []
            for run in range(4):
                docs[at] = {**docs[at], **edit(run)}
                version += 1
                client.notify("textDocument/didChange", {
                    "textDocument": {"uri": hub.as_uri(), "version": version}, "contentChanges": [{"text": text_of(docs)}]})
                after = client.idle()
                costs.append(after - before)
                before = after
            print(f"  the DeviceClass edited, {what}: median {statistics.median(costs) * 1000:.0f} ms CPU per edit "
                  f"(all dependents' included); peak RSS so far {client.peak_mb():.0f} MB")
        client.request("shutdown", None)
        client.notify("exit", None)
        client.process.wait(timeout=30)
    print(f"rerun: python bench/lsp_server_memory.py --files {args.files} --docs-per-file {args.docs_per_file}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
