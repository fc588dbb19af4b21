"""A minimal client of yaml-language-server, the YAML server of VS Code and other editors: it
installs the server with npm into a cache folder and asks it for the diagnostics an editor
would show for YAML texts (used by tests/test_schema_editors.py)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path
from typing import IO, Any

VERSION = "2.0.0"


def install(cache: Path) -> Path:
    """The server's executable, installed with npm into `cache` once."""
    executable = cache / "node_modules" / ".bin" / "yaml-language-server"
    if not executable.exists():
        npm = shutil.which("npm")
        assert npm, "the editor check needs Node.js and npm (Debian: apt-get install npm)"
        cache.mkdir(parents=True, exist_ok=True)
        subprocess.run(
            [npm, "install", "--silent", "--prefix", str(cache), f"yaml-language-server@{VERSION}"],
            check=True,
            timeout=600,
        )
    return executable


def _send(stream: IO[bytes], message: dict[str, Any]) -> None:
    body = json.dumps(message).encode()
    stream.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
    stream.flush()


def _receive(stream: IO[bytes]) -> dict[str, Any]:
    length = 0
    while (line := stream.readline()) not in (b"\r\n", b""):
        if line.lower().startswith(b"content-length:"):
            length = int(line.split(b":")[1])
    assert length, "yaml-language-server closed its output"
    message: dict[str, Any] = json.loads(stream.read(length))
    return message


def diagnostics(executable: Path, documents: dict[Path, str]) -> dict[Path, list[str]]:
    """For each document (its path, which its `$schema` modeline is relative to, and its
    text), the messages the server publishes, as `line: message`."""
    server = subprocess.Popen(
        [str(executable), "--stdio"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        env={**os.environ, "NODE_NO_WARNINGS": "1"},
    )
    assert server.stdin and server.stdout
    try:
        _send(
            server.stdin,
            {
                "jsonrpc": "2.0",
                "id": 1,
                "method": "initialize",
                "params": {"processId": None, "rootUri": None, "capabilities": {}},
            },
        )
        while _receive(server.stdout).get("id") != 1:
            pass
        _send(server.stdin, {"jsonrpc": "2.0", "method": "initialized", "params": {}})
        settings = {"yaml": {"validate": True, "schemaStore": {"enable": False}}}
        _send(
            server.stdin,
            {
                "jsonrpc": "2.0",
                "method": "workspace/didChangeConfiguration",
                "params": {"settings": settings},
            },
        )
        by_uri = {path.resolve().as_uri(): path for path in documents}
        for uri, path in by_uri.items():
            document = {"uri": uri, "languageId": "yaml", "version": 1, "text": documents[path]}
            _send(
                server.stdin,
                {
                    "jsonrpc": "2.0",
                    "method": "textDocument/didOpen",
                    "params": {"textDocument": document},
                },
            )
        found: dict[Path, list[str]] = {}
        while len(found) < len(by_uri):
            message = _receive(server.stdout)
            if message.get("method") == "textDocument/publishDiagnostics":
                params = message["params"]
                found[by_uri[params["uri"]]] = [
                    f"{item['range']['start']['line'] + 1}: {item['message']}"
                    for item in params["diagnostics"]
                ]
            elif "id" in message and "method" in message:  # the server asks for settings
                _send(server.stdin, {"jsonrpc": "2.0", "id": message["id"], "result": None})
        return found
    finally:
        server.kill()
        server.wait()
