"""Runs the native docscore binary and turns its answers into Python; the
functions of each operation (_operations.py) are generated from docscore's
operation registry."""
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


class InputError(DocscoreError, ValueError):
    """An input was wrong (exit status 2): a ValueError too. ``file`` and ``line`` name where
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


def _args(*paths: Optional[PathLike]) -> List[str]:
    """The command's positional arguments, those given, after "--"."""
    given = [os.fspath(p) for p in paths if p is not None]
    return ["--", *given] if given else []
