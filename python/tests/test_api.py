"""The package's API against the installed wheel's binary."""
import json
import os
import subprocess
import sys

import pytest

import docscore


def test_the_binary_is_the_wheels_own():
    assert "DOCSCORE_BINARY" not in os.environ
    path = docscore.binary()
    assert os.path.dirname(path).endswith(os.path.join("docscore", "bin")), path
    assert os.access(path, os.X_OK)


def test_score_tabular_sample_equals_the_cli(reference):
    want = reference("score", "tabular", "--sample", "--format", "json")
    got = docscore.run(["score", "tabular", "--sample", "--format", "json"]).stdout
    assert got == want
    report = docscore.score_tabular(sample=True)
    assert report == json.loads(want)
    assert {c["phase"] for c in report["cells"]} == {"G", "N"}
    assert all("ci" in c for c in report["cells"])


def test_score_tabular_files(root, reference):
    t = root / "sample" / "tabular"
    args = ["--gt", str(t / "gt"), "--runs", str(t / "runs.jsonl"), "--rules", str(t / "EQUIVALENCES.md")]
    want = json.loads(reference("score", "tabular", *args, "--preview", "open", "--bootstrap", "0"))
    got = docscore.score_tabular(gt=t / "gt", runs=t / "runs.jsonl", rules=t / "EQUIVALENCES.md", preview="open", bootstrap=0)
    assert got == want
    assert "preview" in got and "ci" not in got["cells"][0]


def test_input_error_names_file_and_line(tmp_path, root):
    runs = tmp_path / "runs.jsonl"
    runs.write_text('{"model": "m", "phase": "G", "run": 1, "page": "27", "response": "[]"}\n{not json\n')
    with pytest.raises(docscore.InputError) as e:
        docscore.score_tabular(gt=root / "sample" / "tabular" / "gt", runs=runs)
    err = e.value
    assert err.returncode == 2
    assert err.file == str(runs)
    assert err.line == 2
    assert err.message
    assert str(err).startswith(str(runs) + ":2")


def test_bad_flag_is_an_input_error_without_position():
    with pytest.raises(docscore.InputError) as e:
        docscore.score_tabular(sample=True, bootstrap=-1)
    assert e.value.file is None and e.value.line is None
    assert "--bootstrap" in e.value.message


def test_threshold_error_carries_the_report():
    with pytest.raises(docscore.ThresholdError) as e:
        docscore.score_tabular(sample=True, bootstrap=0, args=["--fail-under", "f1=0.9999"])
    assert e.value.returncode == 3
    assert e.value.report is not None and e.value.report["cells"]


def test_compare_within(tmp_path, reference):
    report = tmp_path / "report.json"
    report.write_bytes(reference("score", "tabular", "--sample", "--format", "json"))
    want = json.loads(reference("compare", "--within", str(report), "--permutations", "200", "--bootstrap", "200"))
    got = docscore.compare(report, within=True, permutations=200, bootstrap=200)
    assert got == want
    assert got["kind"] == "comparison" and got["comparisons"]
    with pytest.raises(ValueError):
        docscore.compare(report)


def test_score_receipts(root, reference):
    r = root / "sample" / "receipts"
    want = json.loads(reference("score", "receipts", "--refs", str(r / "refs.jsonl"), "--run", str(r / "run.jsonl")))
    assert docscore.score_receipts(refs=r / "refs.jsonl", run=r / "run.jsonl") == want


def test_evaluate_cases(root, reference):
    cases = root / "examples" / "harness" / "pipeline" / "cases.json"
    want = json.loads(reference("eval", "--cases", str(cases), "--judge", "none"))
    got = docscore.evaluate(cases=cases, judge="none")
    assert got == want and got


def test_python_dash_m_runs_the_cli():
    out = subprocess.run([sys.executable, "-m", "docscore", "version"], check=True, capture_output=True, text=True).stdout
    assert "docscore" in out


def test_version_is_a_string():
    assert isinstance(docscore.__version__, str) and docscore.__version__


def test_score_tables(root, reference):
    t = root / "sample" / "tables"
    want = json.loads(reference("score", "tables", "--gt", str(t / "gt.html"), "--runs", str(t / "runs.jsonl"), "--bootstrap", "200"))
    got = docscore.score_tables(gt=t / "gt.html", runs=t / "runs.jsonl", bootstrap=200)
    assert got == want
    assert [c["model"] for c in got["cells"]] == ["model-a", "model-b"]


def test_score_text(root, reference):
    d = root / "scoring" / "pagetext" / "testdata" / "dinglehopper" / "lorem-ipsum"
    gt, ocr = d / "lorem-ipsum-scan-bad.gt.page.xml", d / "lorem-ipsum-scan-bad.ocr.tesseract.alto.xml"
    want = json.loads(reference("score", "text", "--gt", str(gt), "--ocr", str(ocr), "--bootstrap", "100"))
    got = docscore.score_text(gt=gt, ocr=ocr, bootstrap=100)
    assert got == want
    assert got["pages"][0]["char_edits"] == 8 and got["pages"][0]["gt_chars"] == 591


def test_compare_preview(tmp_path, root, reference):
    """compare(settled, preview, preview=True) is "docscore compare --preview"."""
    t = root / "sample" / "tabular"
    files = ["--gt", str(t / "gt"), "--runs", str(t / "runs.jsonl"), "--rules", str(t / "EQUIVALENCES.md"), "--bootstrap", "0"]
    settled, preview = tmp_path / "settled.json", tmp_path / "preview.json"
    settled.write_bytes(reference("score", "tabular", *files))
    preview.write_bytes(reference("score", "tabular", *files, "--preview", "open"))
    want = json.loads(reference("compare", "--preview", str(settled), str(preview), "--permutations", "200", "--bootstrap", "200"))
    got = docscore.compare(settled, preview, preview=True, permutations=200, bootstrap=200)
    assert got == want
    assert got["comparisons"][0]["a"]["id"].startswith("settled:")
    assert got["comparisons"][0]["b"]["id"].startswith("preview:")
    with pytest.raises(docscore.InputError):
        docscore.compare(settled, within=True, preview=True)


def test_plan_and_check_rules(tmp_path, root, reference):
    """The functions generated for plan and rules check equal the command line."""
    report = tmp_path / "report.json"
    report.write_bytes(reference("score", "tabular", "--sample", "--format", "json", "--bootstrap", "0"))
    want = json.loads(reference("plan", str(report), "--effect", "0.02", "--format", "json"))
    assert docscore.plan(report, effect=0.02) == want
    rules = root / "sample" / "tabular" / "EQUIVALENCES.md"
    assert docscore.check_rules(rules=rules) == json.loads(reference("rules", "check", "--rules", str(rules), "--format", "json"))


def test_every_operation_is_a_function():
    """Each operation of the registry is a function of the package."""
    for name in ["score_tabular", "check_rules", "score_receipts", "score_tables", "score_text", "evaluate", "compare", "plan"]:
        assert callable(getattr(docscore, name)) and name in docscore.__all__
