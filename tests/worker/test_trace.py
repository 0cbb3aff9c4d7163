"""trace: the aten graph, FLOPs and compulsory bytes; what each common activation traces to."""

import math

import pytest
import torch
import torch.nn.functional as F

from kernelagent_worker.trace import graph_of


def test_trace_relu(worker):
    assert worker.load("relu")["status"] == "ok"
    r = worker.request({"op": "trace"})
    assert r["status"] == "ok"
    assert r["flops"] == 0
    assert r["input_bytes"] == 16 * 256 * 4 and r["output_bytes"] == 16 * 256 * 4
    g = r["graph"]
    assert g["inputs"] == [{"name": "in0", "kind": "tensor", "shape": [16, 256], "dtype": "float32", "stride": [256, 1]}]
    assert g["constants"] == []
    assert g["nodes"] == [{"name": "n0", "target": "aten.relu.default", "args": [{"ref": "in0"}], "kwargs": {},
                           "shape": [16, 256], "dtype": "float32"}]
    assert g["outputs"] == [{"ref": "n0"}]


def test_trace_scalar_input_is_a_literal(worker):
    assert worker.load("leaky_scaled")["status"] == "ok"
    g = worker.request({"op": "trace"})["graph"]
    assert g["inputs"][1] == {"name": "in1", "kind": "scalar", "value": 3}
    assert [(n["target"], n["args"]) for n in g["nodes"]] == [
        ("aten.leaky_relu.default", [{"ref": "in0"}, {"value": 0.2}]),
        ("aten.mul.Tensor", [{"ref": "n0"}, {"value": 3}]),
    ]


def test_trace_constants_and_flops(worker):
    assert worker.load("linear")["status"] == "ok"
    r = worker.request({"op": "trace"})
    assert r["status"] == "ok"
    assert r["flops"] == 2 * 4 * 16 * 8
    g = r["graph"]
    assert sorted((c["shape"], c["dtype"]) for c in g["constants"]) == [([8], "float32"), ([8, 16], "float32")]
    assert all("value" not in c for c in g["constants"])
    targets = [n["target"] for n in g["nodes"]]
    assert targets == ["aten.t.default", "aten.addmm.default"]
    addmm = g["nodes"][1]
    assert addmm["kwargs"] == {"beta": {"value": 1}, "alpha": {"value": 1}}   # defaults filled in
    # The parameters the graph reads are inputs too: x [4, 16], weight [8, 16] and bias [8].
    assert r["input_bytes"] == (4 * 16 + 8 * 16 + 8) * 4 and r["output_bytes"] == 4 * 8 * 4


def test_trace_names_parameters_and_buffers_as_the_state_dict_does(worker):
    assert worker.load("linear")["status"] == "ok"
    g = worker.request({"op": "trace"})["graph"]
    by_param = {c["param"]: c for c in g["constants"]}
    assert sorted(by_param) == ["fc.bias", "fc.weight"], g["constants"]
    assert all(c["kind"] == "parameter" for c in g["constants"])
    # Random initial values are not uniform: ModelNew takes them from load_state_dict.
    assert "fill" not in by_param["fc.weight"]


def test_trace_zero_d_constant_has_value(worker):
    assert worker.load("scale_param")["status"] == "ok"
    g = worker.request({"op": "trace"})["graph"]
    by_shape = {tuple(c["shape"]): c for c in g["constants"]}
    assert by_shape[()]["value"] == 0.5
    assert "value" not in by_shape[(32,)]
    assert [n["target"] for n in g["nodes"]] == ["aten.mul.Tensor", "aten.add.Tensor"]


def test_trace_two_outputs(worker):
    assert worker.load("two_outputs")["status"] == "ok"
    r = worker.request({"op": "trace"})
    g = r["graph"]
    assert [n["target"] for n in g["nodes"]] == ["aten.relu.default", "aten.sigmoid.default"]
    assert g["outputs"] == [{"ref": "n0"}, {"ref": "n1"}]
    assert r["output_bytes"] == 2 * 4 * 100 * 4


# What each activation, written the way KernelBench writes it, traces to: (target, args, kwargs) per node,
# with "x" for the input and "nK" for node K. The C++ side maps these targets to its kernel families.
def _mingpt_gelu(x):
    return 0.5 * x * (1.0 + torch.tanh(math.sqrt(2.0 / math.pi) * (x + 0.044715 * torch.pow(x, 3.0))))


ACTIVATIONS = {
    "relu": (torch.relu, [("aten.relu.default", ["x"], {})]),
    "sigmoid": (torch.sigmoid, [("aten.sigmoid.default", ["x"], {})]),
    "tanh": (torch.tanh, [("aten.tanh.default", ["x"], {})]),
    "gelu": (F.gelu, [("aten.gelu.default", ["x"], {"approximate": "none"})]),
    "gelu_tanh": (lambda x: F.gelu(x, approximate="tanh"), [("aten.gelu.default", ["x"], {"approximate": "tanh"})]),
    "selu": (F.selu, [("aten.elu.default", ["x", 1.6732632423543772, 1.0507009873554805, 1], {})]),
    "elu": (lambda x: F.elu(x, alpha=1.0), [("aten.elu.default", ["x", 1.0, 1, 1], {})]),
    "hardsigmoid": (F.hardsigmoid, [("aten.hardsigmoid.default", ["x"], {})]),
    "softplus": (F.softplus, [("aten.softplus.default", ["x", 1, 20], {})]),
    "hardtanh": (lambda x: F.hardtanh(x, min_val=-1.0, max_val=1.0), [("aten.hardtanh.default", ["x", -1.0, 1.0], {})]),
    "leaky_relu": (lambda x: F.leaky_relu(x, negative_slope=0.01), [("aten.leaky_relu.default", ["x", 0.01], {})]),
    "leaky_relu_default": (F.leaky_relu, [("aten.leaky_relu.default", ["x", 0.01], {})]),
    "softsign": (lambda x: x / (1 + torch.abs(x)), [
        ("aten.abs.default", ["x"], {}),
        ("aten.add.Tensor", ["n0", 1], {"alpha": 1}),
        ("aten.div.Tensor", ["x", "n1"], {}),
    ]),
    "swish": (lambda x: x * torch.sigmoid(x), [
        ("aten.sigmoid.default", ["x"], {}),
        ("aten.mul.Tensor", ["x", "n0"], {}),
    ]),
    "scale": (lambda x: x * 3.5, [("aten.mul.Tensor", ["x", 3.5], {})]),
    "gelu_mingpt": (_mingpt_gelu, [
        ("aten.mul.Tensor", ["x", 0.5], {}),
        ("aten.pow.Tensor_Scalar", ["x", 3.0], {}),
        ("aten.mul.Tensor", ["n1", 0.044715], {}),
        ("aten.add.Tensor", ["x", "n2"], {"alpha": 1}),
        ("aten.mul.Tensor", ["n3", math.sqrt(2.0 / math.pi)], {}),
        ("aten.tanh.default", ["n4"], {}),
        ("aten.add.Tensor", ["n5", 1.0], {"alpha": 1}),
        ("aten.mul.Tensor", ["n0", "n6"], {}),
    ]),
}


class _Act(torch.nn.Module):
    def __init__(self, fn):
        super().__init__()
        self.fn = fn

    def forward(self, x):
        return self.fn(x)


def _plain(arg):
    if "ref" in arg:
        return "x" if arg["ref"] == "in0" else arg["ref"]
    return arg["value"]


@pytest.mark.parametrize("name", sorted(ACTIVATIONS))
def test_activation_traces_to(name):
    fn, expected = ACTIVATIONS[name]
    with torch.no_grad():
        g = graph_of(_Act(fn), [torch.randn(4, 8)])
    got = [(n["target"], [_plain(a) for a in n["args"]], {k: _plain(v) for k, v in n["kwargs"].items()})
           for n in g["nodes"]]
    assert got == expected
    assert g["outputs"] == [{"ref": f"n{len(expected) - 1}"}]
    assert g["constants"] == []


def test_record_trace_on_the_meta_device_traces_shapes_too_large_to_run(tmp_path):
    """record_trace --meta: KernelBench 76's 8.6 GB input is traced without values; its bytes are still the
    input's and the weight's, each counted once."""
    import json

    from kernelagent_worker import record_trace

    repo = __import__("pathlib").Path(__file__).resolve().parents[2]
    out = tmp_path / "t.json"
    assert record_trace.main(["--meta", str(repo / "examples/convolutions/76_conv1d_dilated_strided.py"), str(out)]) == 0
    r = json.loads(out.read_text())
    assert r["graph"]["inputs"][0]["shape"] == [64, 64, 524280]
    assert r["input_bytes"] == 64 * 64 * 524280 * 4 + 128 * 64 * 3 * 4
    assert r["output_bytes"] == 64 * 128 * 174758 * 4
    assert r["flops"] == 2 * 64 * 128 * 174758 * 64 * 3


def test_record_trace_on_the_meta_device_takes_a_training_batch_norm(tmp_path):
    """KernelBench 33 (BatchNorm2d in training mode, 4.3 GB): its 0-d buffer num_batches_tracked has no value
    on the meta device; the trace names it as the model's buffer without one."""
    import json

    from kernelagent_worker import record_trace

    repo = __import__("pathlib").Path(__file__).resolve().parents[2]
    out = tmp_path / "t.json"
    assert record_trace.main(["--meta", str(repo / "examples/norms_and_losses/33_BatchNorm.py"), str(out)]) == 0
    r = json.loads(out.read_text())
    counters = [c for c in r["graph"]["constants"] if c.get("param", "").endswith("num_batches_tracked")]
    assert counters and all("value" not in c for c in counters), r["graph"]["constants"]
