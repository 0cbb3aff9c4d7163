"""The worker's request handlers inside a Ray actor: one actor per GPU of a Ray cluster (the Ray proxy,
ray_proxy.py, creates it and forwards the engine's requests to it).

The actor may run on another machine than the engine, so the files that requests name by path (the problem
in `load`, a candidate in `compile`) arrive as their text and are written to the actor's own folder first;
the request is then handled exactly as the local worker handles it (protocol.Worker), and the reply line is
returned as the local worker would have written it.

Example: handle('{"id": 3, "op": "compile", "candidate": "c7", "path": "/home/me/out/c7.py"}',
                {"path": {"name": "c7.py", "text": "import triton ..."}})
         -> ('{"id": 3, "status": "ok", "compile_ms": 812.5}', None)
"""

from __future__ import annotations

import json
import os
import tempfile

# The request fields that name a file, by op: the proxy ships these files' text with the request.
FILE_FIELDS = {"load": "problem", "compile": "path"}


class WorkerActor:
    """The handlers of one worker (protocol.Worker) in the actor's process; nothing is imported before the
    device is chosen, so that TRITON_INTERPRET is set before Triton is imported on a CPU-only cluster."""

    def __init__(self):
        from . import device

        self.dev = device.select()
        import torch

        torch.set_grad_enabled(False)
        from .protocol import Worker

        self.worker = Worker(self.dev, out=None)
        self.folder = tempfile.mkdtemp(prefix="kernelagent-actor-")
        self._hello = device.hello(self.dev)

    def hello(self) -> dict:
        import ray

        return {**self._hello, "ray": {"node": ray.util.get_node_ip_address(),
                                       "gpu_ids": [str(g) for g in ray.get_gpu_ids()], "pid": os.getpid()}}

    def _materialise(self, op: str, name: str, text: str) -> str:
        """Writes a shipped file into the actor's folder (problem/ or candidates/) and returns its path."""
        sub = os.path.join(self.folder, "problem" if op == "load" else "candidates")
        os.makedirs(sub, exist_ok=True)
        path = os.path.join(sub, os.path.basename(name))
        with open(path, "w", encoding="utf-8") as f:
            f.write(text)
        return path

    def handle(self, line: str, files: dict) -> tuple[str, int | None]:
        """The reply line to one request line, and the exit code when the worker must exit after it
        (0 after shutdown, 3 after a sticky CUDA error), else None."""
        originals = {}
        if files:
            req = json.loads(line)
            for field, shipped in files.items():
                local = self._materialise(req.get("op", ""), shipped["name"], shipped["text"])
                originals[local] = req.get(field)
                req[field] = local
            line = json.dumps(req)
        import torch

        from .protocol import encode

        with torch.no_grad():   # Ray may run the call on a thread of its own: grad mode is per thread
            reply = self.worker.handle_line(line)
        text = encode(reply) if reply is not None else ""
        for local, original in originals.items():  # messages name the engine's file, not the actor's copy
            if isinstance(original, str):
                text = text.replace(json.dumps(local)[1:-1], json.dumps(original)[1:-1])
        return text, self.worker.exit_code


def files_to_ship(line: str) -> dict:
    """The files a request line names by path, as {field: {"name", "text"}}; a file that cannot be read is
    not shipped (the actor then answers as the local worker does for a missing file)."""
    try:
        req = json.loads(line)
    except ValueError:
        return {}
    if not isinstance(req, dict):
        return {}
    field = FILE_FIELDS.get(req.get("op"))
    path = req.get(field) if field else None
    if not isinstance(path, str) or not os.path.isfile(path):
        return {}
    with open(path, encoding="utf-8") as f:
        return {field: {"name": os.path.basename(path), "text": f.read()}}
