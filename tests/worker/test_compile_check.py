"""compile and check: correct Triton candidates pass; wrong, cheating and broken ones get their status."""

import pytest

from conftest import candidate, cpu_only, gpu_only, problem


@pytest.fixture
def relu(worker):
    assert worker.load("relu")["status"] == "ok"
    return worker


def test_correct_triton_relu(relu):
    r = relu.compile("relu_ok")
    assert r["status"] == "ok" and r["compile_ms"] > 0
    if relu.hello["device"] == "cuda":
        # What the one kernel takes on the GPU, from Triton's compiled kernel.
        (k,) = r["kernels"]
        assert k["kernel"] == "relu_kernel" and k["registers"] > 0 and k["local_bytes"] == 0 and k["num_warps"] >= 1
    else:
        assert r["kernels"] == []  # the interpreter compiles nothing
    r = relu.check("relu_ok")
    assert r["status"] == "ok", r
    assert r["seeds_checked"] == 3
    assert r["max_abs_err"] == 0.0 and r["max_rel_err"] == 0.0
    assert r["ops"] == ["aten.empty_like.default"]      # the Triton launch itself records nothing


def test_copy_into_own_allocation_is_allowed(relu):
    assert relu.compile("relu_copy_own")["status"] == "ok"
    r = relu.check("relu_copy_own")
    assert r["status"] == "ok", r
    assert "aten.copy_.default" in r["ops"]


def test_non_tensor_input_and_init_inputs(worker):
    assert worker.load("leaky_scaled")["status"] == "ok"
    assert worker.compile("leaky_scaled_ok")["status"] == "ok"
    r = worker.check("leaky_scaled_ok", atol=1e-5, rtol=1e-5)
    assert r["status"] == "ok", r


def test_two_outputs(worker):
    assert worker.load("two_outputs")["status"] == "ok"
    assert worker.compile("two_outputs_ok")["status"] == "ok"
    r = worker.check("two_outputs_ok", atol=1e-5, rtol=1e-5)
    assert r["status"] == "ok", r
    assert r["max_abs_err"] < 1e-5


def test_parameters_are_copied_from_the_reference(worker):
    assert worker.load("scale_param")["status"] == "ok"
    assert worker.compile("scale_param_ok")["status"] == "ok"
    r = worker.check("scale_param_ok", atol=1e-5, rtol=1e-5)
    assert r["status"] == "ok", r


def test_a_parameter_folded_in_as_the_value_it_was_built_with_is_wrong(worker):
    # The last seed runs with the reference's parameters and buffers changed, the candidate given the same.
    assert worker.load("scale_param")["status"] == "ok"
    assert worker.compile("scale_param_folded")["status"] == "ok"
    r = worker.check("scale_param_folded", atol=1e-5, rtol=1e-5)
    assert r["status"] == "wrong_result", r
    assert "parameters and buffers changed" in r["message"]
    # The reference is as it was: the candidate that reads its parameters still passes after.
    assert worker.compile("scale_param_ok")["status"] == "ok"
    assert worker.check("scale_param_ok", atol=1e-5, rtol=1e-5)["status"] == "ok"


def test_integer_outputs_must_be_equal(worker):
    # int64 arithmetic done in fp32 is off by some 10^5 at 2^41: a relative error of 10^-7, within any float
    # tolerance; integers (and bools, indices) are compared exactly.
    assert worker.load("int64_affine")["status"] == "ok"
    assert worker.compile("int64_affine_exact")["status"] == "ok"
    assert worker.check("int64_affine_exact")["status"] == "ok"
    assert worker.compile("int64_affine_fp32")["status"] == "ok"
    r = worker.check("int64_affine_fp32")
    assert r["status"] == "wrong_result", r
    assert "int64 elements differ (integers and bools must be equal" in r["message"]
    assert r["max_abs_err"] > 1


def test_a_buffer_the_forward_does_not_update_is_wrong_state(worker):
    # BatchNorm in training mode updates its running statistics; right outputs are not enough.
    assert worker.load("batch_norm")["status"] == "ok"
    assert worker.compile("batch_norm_no_update")["status"] == "ok"
    r = worker.check("batch_norm_no_update")
    assert r["status"] == "wrong_state", r
    assert "buffer bn.running_mean differs" in r["message"]


@pytest.mark.parametrize("cand,status,words", [
    ("relu_wrong", "wrong_result", "differ beyond atol + rtol*|ref|"),
    ("relu_nan", "nan_or_inf", "NaN or Inf where the reference is finite"),
    ("relu_wrong_shape", "wrong_shape", "shape [4096], expected [16, 256]"),
    ("relu_wrong_dtype", "wrong_dtype", "dtype float64, expected float32"),
    ("relu_torch", "cheat_torch_compute", "aten.relu.default"),
    ("relu_returns_input", "cheat_returns_input", "output 0 shares storage with an input"),
    ("relu_other_stream", "cheat_other_stream", "torch.cuda.Stream"),
])
def test_rejected_candidates(relu, cand, status, words):
    assert relu.compile(cand)["status"] == "ok"
    r = relu.check(cand)
    assert r["status"] == status, r
    assert words in r["message"]
    assert r["seeds_checked"] == 1
    assert {"max_abs_err", "max_rel_err", "ops"} <= set(r)


def test_an_input_returned_is_right_where_the_reference_returns_its_input_changed_in_place(worker):
    # x.relu_() returned: the reference's output is its input, so a candidate writing ReLU into its input and
    # returning it does what the reference does; one that leaves the input alone misses the change in place.
    assert worker.load("relu_in_place")["status"] == "ok"
    assert worker.compile("relu_returns_input")["status"] == "ok"
    r = worker.check("relu_returns_input")
    assert r["status"] == "ok", r
    assert worker.compile("relu_ok")["status"] == "ok"
    r = worker.check("relu_ok")
    assert r["status"] == "wrong_state", r
    assert "writes into input 0 in place; the candidate does not" in r["message"]


def test_a_wrong_answer_that_repeats_is_not_called_cached_where_the_right_one_repeats_too(worker):
    # clamp(x, min=5) is 5.0 for any standard-normal x: a constant wrong output repeats its first call's as a
    # cached answer would, but the right answer never moved, so it is only wrong.
    assert worker.load("clamp_constant")["status"] == "ok"
    assert worker.compile("clamp_constant_wrong")["status"] == "ok"
    r = worker.check("clamp_constant_wrong")
    assert r["status"] == "wrong_result", r


def test_wrong_result_reports_errors(relu):
    relu.compile("relu_wrong")
    r = relu.check("relu_wrong")
    # |x| and relu(x) differ only where relu(x) is 0, and the relative error is taken where the reference
    # is non-zero.
    assert r["max_abs_err"] > 0.1 and r["max_rel_err"] == 0.0


def test_wrong_result_within_tolerance_passes(relu):
    # |x| vs relu(x) differ by 2|x| on negatives: a huge tolerance accepts it; the reply still says how far.
    relu.compile("relu_wrong")
    r = relu.check("relu_wrong", atol=100.0, rtol=0.0)
    assert r["status"] == "ok" and r["max_abs_err"] > 0.1


def test_cheat_ops_are_listed(relu):
    relu.compile("relu_torch")
    assert relu.check("relu_torch")["ops"] == ["aten.relu.default"]


def test_syntax_error_is_compile_error(relu):
    r = relu.compile("syntax_error")
    assert r["status"] == "compile_error"
    assert "SyntaxError" in r["message"] and candidate("syntax_error") in r["message"]


def test_bad_triton_is_compile_error(relu):
    r = relu.compile("bad_triton")
    assert r["status"] == "compile_error", r
    assert "power of 2" in r["message"]


def test_missing_model_new_is_compile_error(relu):
    r = relu.compile("no_modelnew")
    assert r["status"] == "compile_error"
    assert "defines no ModelNew" in r["message"]


def test_missing_candidate_file_is_compile_error(relu):
    r = relu.request({"op": "compile", "candidate": "ghost", "path": "/nonexistent/ghost.py"})
    assert r["status"] == "compile_error"
    assert "does not exist" in r["message"]


def test_raising_first_call_is_runtime_error(relu):
    r = relu.compile("raises")
    assert r["status"] == "runtime_error"
    assert "candidate bug: index out of range" in r["message"]
    # a failed compile leaves no candidate behind
    assert relu.check("raises")["status"] == "bad_request"


def test_failed_recompile_drops_the_old_candidate(relu):
    assert relu.compile("relu_ok", "same")["status"] == "ok"
    assert relu.compile("raises", "same")["status"] == "runtime_error"
    assert relu.check("same")["status"] == "bad_request"


def test_check_needs_seeds_and_tolerances(relu):
    relu.compile("relu_ok")
    r = relu.request({"op": "check", "candidate": "relu_ok", "seeds": [], "atol": 1e-4, "rtol": 1e-4})
    assert r["status"] == "bad_request"
    r = relu.request({"op": "check", "candidate": "relu_ok", "seeds": [1]})
    assert r["status"] == "bad_request" and "atol" in r["message"]


def test_candidate_is_checked_against_new_inputs_per_seed(relu):
    relu.compile("relu_ok")
    r = relu.check("relu_ok", seeds=[10, 11, 12, 13, 14])
    assert r["status"] == "ok" and r["seeds_checked"] == 5


@gpu_only
def test_torch_compile_inside_candidate_is_caught(relu):
    # Caught either way: where no torch.compile has run in the worker yet (no baseline timed, as here when this
    # test runs first), the candidate's first call starts Inductor's compile threads, which nothing can put back:
    # cheat_tampering at compile, and the worker ends. Where they run already, the check sees its kernel.
    r = relu.compile("relu_torch_compiled")
    if r["status"] == "cheat_tampering":
        assert r.get("sticky") and "still running" in r["message"], r
        return
    assert r["status"] == "ok", r
    r = relu.check("relu_torch_compiled")
    assert r["status"] == "cheat_torch_compute", r


@cpu_only
def test_interpreter_ops_are_not_the_candidates(relu):
    # The interpreter copies kernel arguments with torch ops (new_empty, set_, copy_) inside Triton's
    # launcher; those are Triton's, not the candidate's.
    relu.compile("relu_returns_input")
    r = relu.check("relu_returns_input")
    assert r["ops"] == []


def test_a_reference_that_fails_in_the_check_is_the_problems_failure(worker):
    # The candidate ran fine; the reference raised on the check's inputs: bad_problem, naming the problem file
    # and the candidate that had run, so the engine does not record it against the candidate.
    assert worker.load("reference_raises_in_check")["status"] == "ok"
    assert worker.compile("relu_ok", "innocent")["status"] == "ok"
    r = worker.check("innocent")
    assert r["status"] == "bad_problem", r
    assert problem("reference_raises_in_check") in r["message"]
    assert "the reference (Model.forward) on seed 1, after candidate innocent had run" in r["message"]
    assert "the check's inputs" in r["message"]
