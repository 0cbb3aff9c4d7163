"""The Ray actor's side of the Ray executor without a cluster: the files a request names travel as their
text, land in the actor's own folder, and replies name the engine's files, not the actor's copies."""

from __future__ import annotations

import json

import pytest

from conftest import DEVICE, problem

from kernelagent_worker import ray_actor


def test_the_files_a_request_names_are_shipped_as_text(tmp_path):
    cand = tmp_path / "c7.py"
    cand.write_text("print('candidate')\n")
    shipped = ray_actor.files_to_ship(json.dumps({"id": 3, "op": "compile", "candidate": "c7", "path": str(cand)}))
    assert shipped == {"path": {"name": "c7.py", "text": "print('candidate')\n"}}
    loaded = ray_actor.files_to_ship(json.dumps({"id": 1, "op": "load", "problem": problem("relu"), "seed": 0}))
    assert loaded["problem"]["name"] == "relu.py" and "class Model" in loaded["problem"]["text"]
    # Nothing to ship: another op, a file that is not there (the actor answers as the worker does), garbage.
    assert ray_actor.files_to_ship(json.dumps({"id": 2, "op": "trace"})) == {}
    assert ray_actor.files_to_ship(json.dumps({"id": 4, "op": "compile", "path": str(tmp_path / "no.py")})) == {}
    assert ray_actor.files_to_ship("not json") == {}


@pytest.mark.skipif(DEVICE == "cuda", reason="runs the actor's handlers in this process, on the CPU")
def test_the_actor_loads_a_shipped_problem_from_its_own_copy_and_names_the_original():
    actor = ray_actor.WorkerActor()
    where = "/nowhere/on/this/machine/relu.py"  # as the engine's machine names it
    line = json.dumps({"id": 1, "op": "load", "problem": where, "seed": 0})
    text = open(problem("relu")).read()
    reply, exit_code = actor.handle(line, {"problem": {"name": "relu.py", "text": text}})
    assert json.loads(reply)["status"] == "ok" and exit_code is None
    assert json.loads(reply)["outputs"][0]["shape"] == [16, 256]
    bad = "/nowhere/broken.py"
    reply, _ = actor.handle(json.dumps({"id": 2, "op": "load", "problem": bad, "seed": 0}),
                            {"problem": {"name": "broken.py", "text": "raise RuntimeError('broken on purpose')\n"}})
    doc = json.loads(reply)
    assert doc["status"] == "bad_problem" and bad in doc["message"] and actor.folder not in doc["message"]
    reply, exit_code = actor.handle(json.dumps({"id": 3, "op": "shutdown"}), {})
    assert json.loads(reply) == {"id": 3, "status": "ok"} and exit_code == 0
