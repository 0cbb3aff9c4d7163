"""Argument errors as a user meets them: one short line on stderr that says what was expected and where the
flags are described, and exit code 2 (README's "bad input"), never CLI11's own codes 105-114. --help and
--version still exit 0. Nothing here starts a worker."""

import pytest

from cli_harness import DATA, kernelagent  # noqa: F401  (kernelagent is a fixture)

RELU = DATA / "families" / "elementwise" / "problems" / "19_ReLU.py"
NCU = DATA / "ncu" / "h200" / "mem_coalesced.raw.csv"


def one_clear_line(r, *words):
    assert r.returncode == 2, (r.returncode, r.stderr)
    assert r.stdout == ""
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("kernelagent: "), r.stderr
    assert len(lines[0]) < 300, lines[0]  # no 309-digit range
    for w in words:
        assert w in lines[0], (w, lines[0])
    return lines[0]


@pytest.mark.parametrize("args, words", [
    (["optimise", RELU], ["unknown subcommand 'optimise'", "did you mean 'optimize'?"]),
    (["histroy"], ["unknown subcommand 'histroy'", "did you mean 'history'?"]),
    (["frobnicate"], ["unknown subcommand 'frobnicate'", "optimize, sweep, replay"]),
    ([], ["a subcommand is required", "optimize"]),
    (["optimize", RELU, "--trials", "abc"], ["--trials", "whole number of at least 1", "'abc'"]),
    (["optimize", RELU, "--trials", "2.5"], ["--trials", "'2.5'"]),
    (["optimize", RELU, "--trials", "99999999999"], ["--trials"]),
    (["optimize", RELU, "--timeout", "0"], ["--timeout", "above 0", "'0'"]),
    (["optimize", RELU, "--timeout", "-3"], ["--timeout", "above 0"]),
    (["optimize", RELU, "--timeout", "soon"], ["--timeout", "'soon'"]),
    (["optimize", RELU, "--load-timeout", "0"], ["--load-timeout", "above 0"]),
    (["optimize", RELU, "--target", "2"], ["--target", "fraction from 0 to 1"]),
    (["optimize", RELU, "--seed", "-1"], ["--seed", "whole number"]),
    (["optimize", RELU, "--plateau", "x"], ["--plateau"]),
    (["optimize", RELU, "--precision", "fast"], ["--precision", "strict, tf32", "'fast'"]),
    (["optimize", RELU, "--tirals", "3"], ["unknown option '--tirals'", "did you mean '--trials'?"]),
    (["diagnose", "--ncu-csv"], ["--ncu-csv", "value is missing"]),
    (["optimize"], ["problem is required"]),
    (["optimize", RELU, "extra.py"], ["unexpected argument", "extra.py"]),
    (["diagnose"], ["--ncu-csv is required"]),
    (["diagnose", "--ncu-csv", NCU, "--bytes", "lots"], ["--bytes", "'lots'"]),
    (["history", "--limit", "0"], ["--limit", "at least 1"]),
    (["bench", DATA, "--device", "gpu"], ["--device", "auto, cpu"]),
])
def test_an_argument_error_is_one_line_and_exit_code_2(kernelagent, args, words):
    line = one_clear_line(kernelagent(*args), *words)
    assert "Run with --help" not in line and "not in range" not in line


# Every command writes under the test's own folder, should a binary run it instead of refusing it.
@pytest.mark.parametrize("command", [["optimize", RELU], ["bench", DATA / "families" / "elementwise" / "problems"],
                                     ["replay", RELU, DATA / "sweeps" / "none.json"]])
def test_trials_0_is_refused_not_one_trial(kernelagent, tmp_path, command):
    # 0 trials cannot mean one (what it did on the CPU) nor the whole space (on a GPU): leaving --trials out
    # gives the default.
    out = [] if command[0] == "replay" else ["--out", tmp_path / "out"]
    one_clear_line(kernelagent(*command, *out, "--trials", "0", db=tmp_path / "h.sqlite"), "--trials", "at least 1",
                   "leave --trials out")


@pytest.mark.parametrize("command", [["optimize", RELU, "--out", "{tmp}/o"], ["history"], ["profile", RELU],
                                     ["sweep", RELU, "--out", "{tmp}/s.json"], ["bench", DATA, "--out", "{tmp}/b"]])
def test_an_empty_db_path_is_refused_not_the_default_database(kernelagent, tmp_path, command):
    args = [str(a).format(tmp=tmp_path) for a in command]
    one_clear_line(kernelagent(*args, "--db", ""), "--db", "not an empty string")


def test_help_and_version_still_exit_0(kernelagent):
    for args in (["--help"], ["--version"], ["optimize", "--help"], ["diagnose", "--help"]):
        r = kernelagent(*args)
        assert r.returncode == 0, (args, r.stderr)
        assert r.stdout.strip()
    assert "--load-timeout" in kernelagent("optimize", "--help").stdout


@pytest.mark.parametrize("command", ["optimize", "sweep", "profile", "replay"])
def test_a_directory_given_as_the_problem_is_said_to_be_one(kernelagent, tmp_path, command):
    extra = {"sweep": ["--out", tmp_path / "s.json"], "replay": [tmp_path / "s.json"]}.get(command, [])
    line = one_clear_line(kernelagent(command, tmp_path, *extra, db=tmp_path / "h.sqlite"),
                          f"problem file {tmp_path} is a directory")
    assert "does not exist" not in line
    r = kernelagent(command, tmp_path / "nope.py", *extra, db=tmp_path / "h.sqlite")
    one_clear_line(r, "does not exist")
