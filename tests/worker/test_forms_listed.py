"""tests/forms: every problem file has its expected outcome in expected.json, and every expectation its file."""

import json
import pathlib

FORMS = pathlib.Path(__file__).resolve().parents[1] / "forms"


def test_every_form_has_an_expected_outcome_and_every_outcome_a_form():
    expected = json.loads((FORMS / "expected.json").read_text())["expected"]
    files = {str(p.relative_to(FORMS).with_suffix("")) for p in FORMS.rglob("*.py")}
    assert files == set(expected), (sorted(files - set(expected)), sorted(set(expected) - files))
    assert set(expected.values()) <= {"ok", "unsupported", "trace_failed"}
    for name in files:
        text = (FORMS / f"{name}.py").read_text()
        assert "class Model" in text and "def get_inputs" in text, name
