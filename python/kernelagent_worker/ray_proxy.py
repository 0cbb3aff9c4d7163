"""`python -m kernelagent_worker.ray_proxy --address ADDR --slot I`: a worker slot on a Ray cluster.

To the engine this process is a worker like any other: it speaks the protocol of docs/protocol.md on its
stdin and stdout (the same hello, the same replies, the same exits). Behind it is one Ray actor
(ray_actor.WorkerActor) holding one GPU of the cluster (num_gpus=1; 0 on a cluster without GPUs or with
KERNELAGENT_DEVICE=cpu), which runs the worker's handlers wherever Ray placed it. Each request line is
forwarded to the actor with the text of the files it names (they may not exist on the actor's machine).

So the engine's fault handling is unchanged: when the actor dies (a candidate crashed its process) the proxy
exits with code 5 and the engine restarts the slot, which gets a new actor; a timeout kills the proxy's
process group, and Ray ends the actor of a driver that is gone; after a sticky CUDA error or a shutdown the
proxy ends its actor and exits as the worker would (3 or 0).

The hello adds `"ray": {"address", "node", "gpu_ids", "slot", "cluster_gpus"}`, and `gpu_count` is the
cluster's GPUs (the engine's --gpus all starts one slot per GPU of the cluster).
"""

from __future__ import annotations

import argparse
import json
import os
import socket
import sys

EXIT_ACTOR_DIED = 5
EXIT_NO_CLUSTER = 4


def _runtime_env() -> dict:
    """The job's environment, which its actors get: this package shipped to the cluster (an actor may be on
    a machine without the checkout) and the engine's device choice."""
    env_vars = {k: os.environ[k] for k in ("KERNELAGENT_DEVICE", "TRITON_INTERPRET") if k in os.environ}
    env_vars["PYTHONUNBUFFERED"] = "1"
    return {"py_modules": [os.path.dirname(os.path.abspath(__file__))], "env_vars": env_vars}


def _unreachable(address: str) -> str | None:
    """Why nothing listens at a HOST:PORT address, or None (also for 'auto' and ray:// addresses, which Ray
    resolves itself). Ray would retry a dead address for minutes; a refused connection is an answer."""
    host, sep, port = address.rpartition(":")
    if not sep or not port.isdigit() or "://" in address:
        return None
    try:
        socket.create_connection((host, int(port)), timeout=10).close()
    except OSError as e:
        return f"nothing answers there ({e})"
    return None


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m kernelagent_worker.ray_proxy")
    parser.add_argument("--address", required=True, help="the Ray cluster: HOST:PORT, ray://HOST:PORT or auto")
    parser.add_argument("--slot", type=int, default=0, help="the engine's slot number (for the logs)")
    args = parser.parse_args(argv)

    from .channel import claim
    requests, replies = claim()

    def write(reply: dict | str) -> None:
        # The actor's reply lines come encoded already; the proxy's own (the hello) hold plain values only.
        replies.write((reply if isinstance(reply, str) else json.dumps(reply)) + "\n")
        replies.flush()

    # A cluster started with `ray start` on this machine uses token authentication with the token it saved
    # in ~/.ray/auth_token; a driver sends it only in token mode.
    if "RAY_AUTH_MODE" not in os.environ and os.path.isfile(os.path.expanduser("~/.ray/auth_token")):
        os.environ["RAY_AUTH_MODE"] = "token"
    try:
        import ray
    except ImportError as e:
        write({"id": 0, "status": "environment", "op": "hello",
               "message": f"ray is not installed for {sys.executable} ({e}): pip install -r python/requirements.txt"})
        return EXIT_NO_CLUSTER
    unreachable = _unreachable(args.address)
    if unreachable:
        write({"id": 0, "status": "environment", "op": "hello",
               "message": f"cannot connect to the Ray cluster at '{args.address}': {unreachable}. "
                          "Start one with `ray start --head` (then --ray auto) or pass its address"})
        return EXIT_NO_CLUSTER
    try:
        ray.init(address=args.address, namespace="kernelagent", runtime_env=_runtime_env(), log_to_driver=True,
                 logging_level="WARNING")
    except Exception as e:  # ConnectionError and friends: no cluster at that address
        write({"id": 0, "status": "environment", "op": "hello",
               "message": f"cannot connect to the Ray cluster at '{args.address}': {type(e).__name__}: {e}. "
                          "Start one with `ray start --head` (then --ray auto) or pass its address"})
        return EXIT_NO_CLUSTER

    from .ray_actor import WorkerActor, files_to_ship

    cluster_gpus = int(ray.cluster_resources().get("GPU", 0))
    forced_cpu = os.environ.get("KERNELAGENT_DEVICE", "").strip().lower() == "cpu"
    num_gpus = 1 if cluster_gpus > 0 and not forced_cpu else 0
    actor = ray.remote(WorkerActor).options(num_gpus=num_gpus, max_restarts=0, max_task_retries=0).remote()

    def ended(code: int) -> int:
        ray.kill(actor, no_restart=True)
        replies.flush()
        sys.stderr.flush()
        return code

    try:
        hello = ray.get(actor.hello.remote())
    except ray.exceptions.RayError as e:
        write({"id": 0, "status": "environment", "op": "hello",
               "message": f"the Ray actor of slot {args.slot} did not start: {type(e).__name__}: {e}"})
        return ended(EXIT_NO_CLUSTER)
    hello["gpu_count"] = cluster_gpus if num_gpus else 0
    hello["ray"] = {**hello.get("ray", {}), "address": args.address, "slot": args.slot, "cluster_gpus": cluster_gpus}
    write(hello)

    while True:
        line = requests.readline()
        if not line:
            return ended(0)
        try:
            reply, exit_code = ray.get(actor.handle.remote(line, files_to_ship(line)))
        except ray.exceptions.RayActorError as e:
            print(f"ray_proxy slot {args.slot}: the Ray actor died: {e}", file=sys.stderr)
            return ended(EXIT_ACTOR_DIED)
        if reply:
            write(reply)
        if exit_code is not None:
            return ended(exit_code)


if __name__ == "__main__":
    code = main()
    sys.stderr.flush()
    os._exit(code)  # skip Ray's teardown at exit: the actor is already ended
