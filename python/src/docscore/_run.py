"""Runs the native docscore binary and turns its answers into Python."""
from __future__ import annotations

import json
import os
import re
import subprocess
from typing import Any, Dict, Iterable, List, Optional, Sequence, Union

PathLike = Union[str, "os.PathLike[str]"]
Paths = Union[PathLike, Sequence[PathLike]]

#: An input error's first line: "docscore: FILE:LINE[:COLUMN]: message".
_POSITION = re.compile(r"^(?P<file>.+?):(?P<line>\d+)(?::(?P<column>\d+))?: (?P<message>.*)$")


class DocscoreError(Exception):
    """docscore failed: ``returncode`` is its exit status and ``stderr``
    what it wrote there (never a secret: docscore does not print them)."""

    def __init__(self, message: str, returncode: int, stderr: str) -> None:
        super().__init__(message)
        self.returncode = returncode
        self.stderr = stderr


class InputError(DocscoreError):
    """An input was wrong (exit status 2). ``file`` and ``line`` name where
    when docscore said so (else None), ``column`` likewise, ``message`` what
    was expected; ``errors`` lists every error line docscore printed."""

    def __init__(self, message: str, returncode: int, stderr: str) -> None:
        super().__init__(message, returncode, stderr)
        self.errors: List[str] = _error_lines(stderr)
        first = self.errors[0] if self.errors else message
        m = _POSITION.match(first)
        self.file: Optional[str] = m.group("file") if m else None
        self.line: Optional[int] = int(m.group("line")) if m else None
        self.column: Optional[int] = int(m.group("column")) if m and m.group("column") else None
        self.message: str = m.group("message") if m else first


class ThresholdError(DocscoreError):
    """A ``--fail-under`` floor or ``--fail-on`` verdict was not met
    (exit status 3). ``report`` is the report docscore wrote, when it
    wrote one to standard output."""

    def __init__(self, message: str, returncode: int, stderr: str, report: Optional[Dict[str, Any]]) -> None:
        super().__init__(message, returncode, stderr)
        self.report = report


def _error_lines(stderr: str) -> List[str]:
    out = []
    for line in stderr.splitlines():
        if line.startswith("docscore: "):
            out.append(line[len("docscore: "):])
    return out


def binary() -> str:
    """The path of the docscore binary: ``$DOCSCORE_BINARY`` when set,
    else the one this package carries."""
    env = os.environ.get("DOCSCORE_BINARY")
    if env:
        return env
    name = "docscore.exe" if os.name == "nt" else "docscore"
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "bin", name)
    if not os.path.isfile(path):
        raise DocscoreError(f"{path} is missing: this docscore package was installed without its binary", 1, "")
    return path


def run(args: Sequence[str], *, input: Optional[bytes] = None) -> "subprocess.CompletedProcess[bytes]":
    """Runs ``docscore ARGS…`` and returns the finished process (stdout
    and stderr as bytes), raising on a non-zero exit status."""
    proc = subprocess.run([binary(), *args], input=input, capture_output=True)
    if proc.returncode != 0:
        stderr = proc.stderr.decode("utf-8", "replace")
        lines = _error_lines(stderr)
        message = lines[0] if lines else (stderr.strip() or f"docscore exited with status {proc.returncode}")
        if proc.returncode == 2:
            raise InputError(message, 2, stderr)
        if proc.returncode == 3:
            raise ThresholdError(message, 3, stderr, _json_or_none(proc.stdout))
        raise DocscoreError(message, proc.returncode, stderr)
    return proc


def _json_or_none(b: bytes) -> Optional[Dict[str, Any]]:
    try:
        v = json.loads(b)
    except ValueError:
        return None
    return v if isinstance(v, dict) else None


def _report(args: List[str]) -> Dict[str, Any]:
    proc = run(args)
    try:
        return json.loads(proc.stdout)
    except ValueError as e:
        raise DocscoreError(f"docscore {' '.join(args[:2])} did not write a JSON report: {e}", 1, "") from e


def _paths(flag: str, v: Optional[Paths]) -> List[str]:
    if v is None:
        return []
    items: Iterable[PathLike] = [v] if isinstance(v, (str, os.PathLike)) else v
    out: List[str] = []
    for p in items:
        out += [flag, os.fspath(p)]
    return out


def _opt(flag: str, v: Any) -> List[str]:
    if v is None or v is False:
        return []
    if v is True:
        return [flag]
    return [flag, str(v)]


def _intervals(bootstrap: Optional[int], ci_level: Optional[float], seed: Optional[int]) -> List[str]:
    """The flags of the confidence intervals every score and comparison
    takes (SPEC F.4): replicates, level and seed."""
    return _opt("--bootstrap", bootstrap) + _opt("--ci-level", ci_level) + _opt("--seed", seed)


def score_tabular(
    *,
    gt: Optional[Paths] = None,
    runs: Optional[PathLike] = None,
    rules: Optional[PathLike] = None,
    schema: Optional[PathLike] = None,
    preview: Optional[str] = None,
    sample: bool = False,
    gate: Optional[float] = None,
    bootstrap: Optional[int] = None,
    ci_level: Optional[float] = None,
    seed: Optional[int] = None,
    skip_bad_lines: bool = False,
    args: Sequence[str] = (),
) -> Dict[str, Any]:
    """``docscore score tabular``: ground-truth CSVs (a folder or files),
    the runs JSONL, the rule file, optionally a schema file; ``preview``
    is "open" or OPEN rows' line numbers ("32,33"). Returns the report."""
    a = ["score", "tabular", "--format", "json"]
    a += _opt("--sample", sample) + _paths("--gt", gt) + _paths("--runs", runs)
    a += _paths("--rules", rules) + _paths("--schema", schema) + _opt("--preview", preview)
    a += _opt("--gate", gate) + _intervals(bootstrap, ci_level, seed) + _opt("--skip-bad-lines", skip_bad_lines)
    return _report(a + list(args))


def score_receipts(
    *,
    refs: PathLike,
    run: PathLike,
    allow_incomplete: bool = False,
    bootstrap: Optional[int] = None,
    ci_level: Optional[float] = None,
    seed: Optional[int] = None,
    skip_bad_lines: bool = False,
    args: Sequence[str] = (),
) -> Dict[str, Any]:
    """``docscore score receipts``: CORD references and a pilot run file.
    Returns the report."""
    a = ["score", "receipts", "--format", "json"] + _paths("--refs", refs) + _paths("--run", run)
    a += _opt("--allow-incomplete", allow_incomplete) + _intervals(bootstrap, ci_level, seed)
    a += _opt("--skip-bad-lines", skip_bad_lines)
    return _report(a + list(args))


def score_tables(
    *,
    gt: PathLike,
    pred: Optional[PathLike] = None,
    runs: Optional[PathLike] = None,
    model: Optional[str] = None,
    phase: Optional[str] = None,
    th_as_td: bool = False,
    bootstrap: Optional[int] = None,
    ci_level: Optional[float] = None,
    seed: Optional[int] = None,
    jobs: Optional[int] = None,
    args: Sequence[str] = (),
) -> Dict[str, Any]:
    """``docscore score tables``: ground-truth tables (a file or a folder)
    and either predicted tables paired by id (``pred``) or a runs JSONL
    (``runs``). Returns the report: TEDS, TEDS-S, GriTS-Top and GriTS-Con."""
    a = ["score", "tables", "--format", "json"] + _paths("--gt", gt)
    if pred is not None:
        a += _paths("--pred", pred)
    if runs is not None:
        a += _paths("--runs", runs)
    if model is not None:
        a += ["--model", model]
    if phase is not None:
        a += ["--phase", phase]
    if jobs is not None:
        a += ["--jobs", str(jobs)]
    a += _opt("--th-as-td", th_as_td) + _intervals(bootstrap, ci_level, seed)
    return _report(a + list(args))


def score_text(
    *,
    gt: PathLike,
    ocr: Optional[PathLike] = None,
    runs: Optional[PathLike] = None,
    model: Optional[str] = None,
    phase: Optional[str] = None,
    level: Optional[str] = None,
    normalize: Optional[str] = None,
    bootstrap: Optional[int] = None,
    ci_level: Optional[float] = None,
    seed: Optional[int] = None,
    args: Sequence[str] = (),
) -> Dict[str, Any]:
    """``docscore score text``: ground-truth pages (a file or a folder of
    plain text, PAGE-XML, ALTO or hOCR) and either OCR pages paired by id
    (``ocr``) or a runs JSONL (``runs``). Returns the report: CER, WER
    (micro and macro), bag-of-words scores and confusions per cell."""
    a = ["score", "text", "--format", "json"] + _paths("--gt", gt)
    if ocr is not None:
        a += _paths("--ocr", ocr)
    if runs is not None:
        a += _paths("--runs", runs)
    for flag, value in (("--model", model), ("--phase", phase), ("--level", level), ("--normalize", normalize)):
        if value is not None:
            a += [flag, value]
    a += _intervals(bootstrap, ci_level, seed)
    return _report(a + list(args))


def compare(
    base: PathLike,
    new: Optional[PathLike] = None,
    *,
    within: bool = False,
    pairs: Optional[str] = None,
    permutations: Optional[int] = None,
    bootstrap: Optional[int] = None,
    alpha: Optional[float] = None,
    ci_level: Optional[float] = None,
    seed: Optional[int] = None,
    args: Sequence[str] = (),
) -> Dict[str, Any]:
    """``docscore compare``: two reports of one family (base, new), or
    one report with ``within=True`` (and optionally ``pairs``, e.g.
    "a/G:b/G"). Returns the comparison report."""
    a = ["compare", "--format", "json"]
    if within:
        if new is not None:
            raise ValueError("compare: give one report with within=True, or two without")
        a += ["--within", os.fspath(base)]
    else:
        if new is None:
            raise ValueError("compare: the new report is missing (or pass within=True)")
        a += [os.fspath(base), os.fspath(new)]
    a += _opt("--pairs", pairs) + _opt("--permutations", permutations) + _opt("--alpha", alpha)
    a += _intervals(bootstrap, ci_level, seed)
    return _report(a + list(args))


def evaluate(
    *,
    cases: Optional[PathLike] = None,
    prediction: Optional[PathLike] = None,
    ground_truth: Optional[Paths] = None,
    evidence: Optional[Paths] = None,
    judge: Optional[str] = None,
    model: Optional[str] = None,
    args: Sequence[str] = (),
) -> Dict[str, Any]:
    """``docscore eval``: a cases file, or one prediction with its ground
    truth and evidence. ``judge`` is auto (the command's default), none,
    openai, anthropic or command; keys come from the environment only.
    Returns the report."""
    a = ["eval"] + _paths("--cases", cases) + _paths("--prediction", prediction)
    a += _paths("--ground-truth", ground_truth) + _paths("--evidence", evidence)
    a += _opt("--judge", judge) + _opt("--model", model)
    return _report(a + list(args))
