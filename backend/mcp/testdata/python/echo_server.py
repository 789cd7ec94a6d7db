#!/usr/bin/env python3
"""A minimal MCP server over stdio (newline-delimited JSON-RPC), standard
library only. Warren's tests run it inside the sandbox to check that a
Python server gets its library tree: json is pure Python, ssl, sqlite3 and
hashlib are extension modules whose shared libraries must be mounted too."""
import hashlib
import json
import os
import platform
import sqlite3
import ssl
import sys

TOOLS = [
    {
        "name": "echo",
        "description": "Echo a message back.",
        "inputSchema": {"type": "object", "properties": {"message": {"type": "string"}}, "required": ["message"]},
    },
    {
        "name": "whereami",
        "description": "Report the interpreter, its extension modules and what it can see.",
        "inputSchema": {"type": "object", "properties": {"path": {"type": "string"}}},
    },
]


def call(name, args):
    if name == "echo":
        return "py echo: " + str(args.get("message", ""))
    if name == "whereami":
        path = args.get("path")
        return json.dumps({
            "python": platform.python_version(),
            "prefix": sys.prefix,
            "ssl": ssl.OPENSSL_VERSION,
            "sqlite": sqlite3.sqlite_version,
            "sha256": hashlib.sha256(b"warren").hexdigest()[:12],
            "sees_path": bool(path) and os.path.exists(path),
        })
    raise KeyError(name)


def answer(msg):
    method, params = msg.get("method"), msg.get("params") or {}
    if method == "initialize":
        return {"protocolVersion": params.get("protocolVersion", "2025-06-18"), "capabilities": {"tools": {}},
                "serverInfo": {"name": "py-echo", "version": "1.0.0"}}
    if method == "tools/list":
        return {"tools": TOOLS}
    if method == "tools/call":
        try:
            text = call(params.get("name"), params.get("arguments") or {})
        except KeyError:
            return {"content": [{"type": "text", "text": "unknown tool"}], "isError": True}
        return {"content": [{"type": "text", "text": text}]}
    if method == "ping":
        return {}
    return None


for line in sys.stdin:
    line = line.strip()
    if not line:
        continue
    msg = json.loads(line)
    if "id" not in msg:
        continue  # a notification
    result = answer(msg)
    if result is None:
        out = {"jsonrpc": "2.0", "id": msg["id"], "error": {"code": -32601, "message": "method not found"}}
    else:
        out = {"jsonrpc": "2.0", "id": msg["id"], "result": result}
    sys.stdout.write(json.dumps(out) + "\n")
    sys.stdout.flush()
