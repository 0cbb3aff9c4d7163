"""The report as a person sees it: `kernelagent report` over recorded H200 results, and the report.html that
optimize and bench write, opened in headless Chromium. The screenshot must not be blank (it shows the
charts' colours), the browser's console must stay silent, and the page the browser built must hold every
chart and section. The figures themselves are checked in the C++ unit tests (tests/unit/report_test.cpp)."""

import pytest

import browser
from cli_harness import DATA, TINY, kernelagent  # noqa: F401  (kernelagent is a fixture)

REPORTS = DATA / "reports"
needs_chromium = pytest.mark.skipif(
    browser.CHROMIUM is None,
    reason="headless Chromium is not installed: scripts/install-deps installs Debian's chromium package")

KERNEL_BLUE, EAGER_GREY, COMPILE_ORANGE = (0x00, 0x72, 0xB2), (0x7F, 0x7F, 0x7F), (0xE6, 0x9F, 0x00)


def blank(counts: dict):
    """Why a screenshot looks blank (few colours, or almost all white), or None."""
    total = sum(counts.values())
    white = counts.get(bytes((255, 255, 255)), 0)
    if len(counts) < 32:
        return f"a blank screenshot: {len(counts)} colours"
    if total - white < total // 50:
        return "a blank screenshot: almost every pixel is white"
    return None


def assert_seen(png, dom, console, svgs):
    assert console == [], "the browser's console reported:\n" + "\n".join(console)
    assert dom.count("<svg") == svgs, f"the browser built {dom.count('<svg')} charts, not {svgs}"
    counts = browser.colours(png)
    assert blank(counts) is None, blank(counts)
    return counts


@needs_chromium
def test_the_checks_see_a_console_error_a_load_and_a_blank_page(tmp_path):
    # The checks below would pass on a broken page if they could not see a fault: show them each one.
    throws = tmp_path / "throws.html"
    throws.write_text("<!DOCTYPE html><html><body><p>text</p><script>throw new Error('on purpose')</script></body></html>")
    _, _, console = browser.open_page(throws, tmp_path, 400, 300)
    assert any("Uncaught Error: on purpose" in line for line in console), console
    # A report's policy blocks every load and every script; the browser says so on its console.
    loads = tmp_path / "loads.html"
    loads.write_text('<!DOCTYPE html><html><head><meta http-equiv="Content-Security-Policy" content="default-src '
                     "'none'\"></head><body><p>text</p><img src=\"https://example.com/x.png\"></body></html>")
    _, _, console = browser.open_page(loads, tmp_path, 400, 300)
    assert any("example.com/x.png" in line for line in console), console
    empty = tmp_path / "empty.html"
    empty.write_text("<!DOCTYPE html><html><body></body></html>")
    png, _, console = browser.open_page(empty, tmp_path, 400, 300)
    assert console == []
    assert blank(browser.colours(png)) is not None


@needs_chromium
def test_report_of_a_profiled_optimize_renders(kernelagent, tmp_path):
    out = tmp_path / "softmax.html"
    r = kernelagent("report", REPORTS / "optimize-profiled", "--out", out)
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip() == str(out)
    png, dom, console = browser.open_page(out, tmp_path)
    # The timing chart, the memory roofline and the trajectory.
    counts = assert_seen(png, dom, console, svgs=3)
    for colour in (KERNEL_BLUE, EAGER_GREY, COMPILE_ORANGE):
        assert counts.get(bytes(colour), 0) > 50, f"the charts' colour {colour} is not on the screen"
    assert dom.count('<table class="evidence">') == 5


@needs_chromium
def test_report_of_a_bench_renders_and_links_each_row(kernelagent, tmp_path):
    r = kernelagent("report", REPORTS / "bench-mapreduce", "--out", tmp_path / "bench.html")
    assert r.returncode == 0, r.stderr
    png, dom, console = browser.open_page(tmp_path / "bench.html", tmp_path)
    # Speedups and fractions of the floor, then per timed problem its timing chart, roofline and trajectory.
    assert_seen(png, dom, console, svgs=2 + 3 * 3)
    for problem in ("12_Matmul_with_diagonal_matrices_", "34_InstanceNorm", "36_RMSNorm_", "40_LayerNorm",
                    "95_CrossEntropyLoss"):
        assert f'href="#p-{problem}"' in dom and f'id="p-{problem}"' in dom


def test_report_of_what_is_not_a_result_is_bad_input(kernelagent, tmp_path):
    r = kernelagent("report", tmp_path)
    assert r.returncode == 2
    assert "neither an optimize's output" in r.stderr


@needs_chromium
def test_optimize_and_bench_write_their_report(kernelagent, tmp_path):
    problems = tmp_path / "problems"
    problems.mkdir()
    (problems / "tiny_relu.py").write_text(TINY)
    out = tmp_path / "opt"
    r = kernelagent("optimize", problems / "tiny_relu.py", "--out", out, db=tmp_path / "h.sqlite")
    assert r.returncode == 0, r.stderr
    assert f"report      {out / 'report.html'}" in r.stdout
    html = (out / "report.html").read_text()
    assert "Nothing was timed" in html and "What was checked" in html
    png, dom, console = browser.open_page(out / "report.html", tmp_path)
    assert_seen(png, dom, console, svgs=0)  # on the CPU nothing is timed: no chart, and the page says so

    bench = tmp_path / "bench"
    r = kernelagent("bench", problems, "--out", bench, db=tmp_path / "h.sqlite")
    assert r.returncode == 0, r.stderr
    assert f"report      {bench / 'report.html'}" in r.stdout
    html = (bench / "report.html").read_text()
    assert 'href="#p-tiny_relu"' in html and 'id="p-tiny_relu"' in html
    assert "nothing was timed, so no wins or speedups" in html
