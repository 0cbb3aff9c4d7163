"""load: good problems described, bad problems named with a clear one-line cause."""

import pytest
import torch

from conftest import DEVICE, problem


def test_load_simple(worker):
    r = worker.load("relu")
    assert r["status"] == "ok"
    assert r["inputs"] == [{"kind": "tensor", "shape": [16, 256], "dtype": "float32"}]
    assert r["outputs"] == [{"kind": "tensor", "shape": [16, 256], "dtype": "float32"}]
    assert r["init_inputs"] == []


def test_load_init_inputs_and_scalar_input(worker):
    r = worker.load("leaky_scaled")
    assert r["status"] == "ok"
    assert r["init_inputs"] == [0.2]
    assert r["inputs"] == [{"kind": "tensor", "shape": [8, 64], "dtype": "float32"}, {"kind": "scalar", "value": 3}]


def test_load_two_outputs(worker):
    r = worker.load("two_outputs")
    assert r["status"] == "ok"
    assert r["outputs"] == [{"kind": "tensor", "shape": [4, 100], "dtype": "float32"}] * 2


def test_second_load_replaces_first_and_its_candidates(worker):
    assert worker.load("relu")["status"] == "ok"
    assert worker.compile("relu_ok", "replaced")["status"] == "ok"
    assert worker.load("relu")["status"] == "ok"
    assert worker.check("replaced")["status"] == "bad_request"


BAD = [
    ("bad_no_model", "has no Model"),
    ("bad_no_get_inputs", "has no get_inputs()"),
    ("bad_no_get_init_inputs", "has no get_init_inputs()"),
    ("bad_raises_on_import", "import raised ImportError"),
    ("bad_not_a_module", "Model is not a torch.nn.Module"),
    ("bad_returns_non_tensor", "returned a str"),
    ("bad_forward_raises", "Model.forward raised"),
]


@pytest.mark.parametrize("name,cause", BAD)
def test_bad_problem(worker, name, cause):
    r = worker.load(name)
    assert r["status"] == "bad_problem", r
    msg = r["message"]
    assert problem(name) in msg and cause in msg, msg
    assert "\n" not in msg.split(": ", 1)[0]


def test_bad_problem_missing_names_say_what_a_problem_defines(worker):
    msg = worker.load("bad_no_get_init_inputs")["message"]
    assert msg.endswith("a KernelBench problem defines Model, get_inputs and get_init_inputs")


def test_missing_file(worker):
    r = worker.request({"op": "load", "problem": "/nonexistent/dir/p.py", "seed": 0})
    assert r["status"] == "bad_problem"
    assert "/nonexistent/dir/p.py does not exist" in r["message"]


def test_a_directory_is_said_to_be_one(worker, tmp_path):
    r = worker.request({"op": "load", "problem": str(tmp_path), "seed": 0})
    assert r["status"] == "bad_problem"
    assert f"{tmp_path} is a directory" in r["message"] and "does not exist" not in r["message"]


def test_failed_load_leaves_nothing_loaded(worker):
    worker.load("relu")
    worker.load("bad_no_model")
    assert worker.request({"op": "trace"})["status"] == "bad_request"


@pytest.mark.parametrize("name", ["bad_oom", "bad_oom_overflow"])
def test_out_of_memory(worker, name):
    # CPU: "DefaultCPUAllocator: can't allocate memory" (2**40 floats) and "Storage size calculation
    # overflowed" (2**62 floats); GPU: torch.OutOfMemoryError.
    r = worker.load(name)
    assert r["status"] == "out_of_memory", r
    assert "get_inputs() ran out of memory" in r["message"]
    assert "use smaller shapes" in r["message"]
    # the worker is still usable
    assert worker.load("relu")["status"] == "ok"



def test_private_copies_of_inputs_keep_their_strides_expanded_ones_included():
    from kernelagent_worker.problem import clone_inputs

    expanded = torch.randn(1, 6).expand(4, 6)  # stride (0, 1): Tensor.clone alone would make it (6, 1)
    transposed = torch.randn(5, 3).t()
    offset = torch.randn(10, 4)[3:7]
    copies = clone_inputs([expanded, transposed, offset, 2.5])
    for original, copy in zip((expanded, transposed, offset), copies):
        assert copy.shape == original.shape and copy.stride() == original.stride()
        assert torch.equal(copy, original)
        assert copy.untyped_storage().data_ptr() != original.untyped_storage().data_ptr()
    assert copies[3] == 2.5
