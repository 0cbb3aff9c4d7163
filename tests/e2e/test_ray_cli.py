"""The Ray executor from the command line (--ray), on a local Ray cluster started once for this module
(on the loopback address only, with no dashboard) and Triton's interpreter: each slot is a proxy whose
actor runs the worker's handlers, and the files it needs travel as their text. It must give the same
trials, statuses and kernels as the local worker."""

import json
import os

import pytest

from cli_harness import DATA, kernelagent  # noqa: F401  (kernelagent is a fixture)

# The cluster and every proxy bind and connect to 127.0.0.1 (Ray otherwise picks the machine's address),
# and this throwaway cluster needs no token. Ray reads these when it is imported, so they are set first;
# they concern Ray only, and the proxies inherit them.
RAY_ENV = {"RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER": "0", "RAY_AUTH_MODE": "disabled", "RAY_USAGE_STATS_ENABLED": "0"}
os.environ.update(RAY_ENV)
ray = pytest.importorskip("ray")

# One problem: the Ray executor carries any family's requests the same way (two took 37 s of the suite's time).
PROBLEMS = [DATA / "families" / "reduction" / "problems" / "sum_middle.py"]


@pytest.fixture(scope="module")
def cluster():
    ctx = ray.init(num_cpus=4, object_store_memory=100 * 1024 * 1024, include_dashboard=False,
                   logging_level="ERROR", log_to_driver=False)
    try:
        address = ctx.address_info["gcs_address"]
        assert address.startswith("127.0.0.1:"), address
        yield address
    finally:
        ray.shutdown()


def optimize(kernelagent, problem, out, db, *flags):
    r = kernelagent("optimize", problem, "--out", out, "--search", "exhaustive", "--trials", "3", "--json", *flags,
                    db=db)
    return r, (json.loads(r.stdout) if r.stdout.strip() else None)


@pytest.mark.parametrize("problem", PROBLEMS, ids=lambda p: p.stem)
def test_ray_gives_the_same_trials_and_kernel_as_the_local_worker(kernelagent, cluster, problem, tmp_path):
    r_local, local = optimize(kernelagent, problem, tmp_path / "local", tmp_path / "local.sqlite")
    r_ray, on_ray = optimize(kernelagent, problem, tmp_path / "ray", tmp_path / "ray.sqlite", "--ray", cluster,
                             "--gpus", "0,1")
    assert r_local.returncode == 0, r_local.stderr
    assert r_ray.returncode == 0, r_ray.stderr
    assert [(t["config"], t["status"]) for t in on_ray["trial_list"]] == \
        [(t["config"], t["status"]) for t in local["trial_list"]]
    assert on_ray["best"]["config"] == local["best"]["config"]
    assert (tmp_path / "ray" / "kernel.py").read_text() == (tmp_path / "local" / "kernel.py").read_text()
    assert on_ray["best"]["max_abs_err"] == local["best"]["max_abs_err"]
    # Each trial measured by one of the two actors, named by the node that ran it (which one takes a trial is
    # whichever is free first: on a loaded machine one may take them all).
    labels = {t["measured_on"] for t in on_ray["trial_list"]}
    assert labels and labels <= {"ray:127.0.0.1/cpu0", "ray:127.0.0.1/cpu1"}, labels
    assert on_ray["versions"] == local["versions"]  # the same conditions, so the history matches them


def test_a_bad_problem_through_ray_has_the_local_status_and_names_the_users_file(kernelagent, cluster, tmp_path):
    problem = DATA / "problems" / "bad" / "raises_on_import.py"
    r_local, local = optimize(kernelagent, problem, tmp_path / "local", tmp_path / "local.sqlite")
    r_ray, on_ray = optimize(kernelagent, problem, tmp_path / "ray", tmp_path / "ray.sqlite", "--ray", cluster)
    assert r_ray.returncode == r_local.returncode == 2
    assert on_ray["status"] == local["status"] == "bad_problem"
    assert str(problem) in on_ray["message"]  # not the actor's copy of it


def test_no_cluster_at_the_address_is_one_clear_error(kernelagent, tmp_path):
    problem = DATA / "families" / "elementwise" / "problems" / "19_ReLU.py"
    r, _ = optimize(kernelagent, problem, tmp_path / "o", tmp_path / "h.sqlite", "--ray", "127.0.0.1:9")
    assert r.returncode == 4
    assert "cannot connect to the Ray cluster at '127.0.0.1:9'" in r.stderr
