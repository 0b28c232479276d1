"""Shared fixtures: the repository's sample files, and the reference
binary (the command line built in the repository) to compare bytes with."""
import os
import pathlib
import subprocess

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]


@pytest.fixture
def root() -> pathlib.Path:
    return ROOT


@pytest.fixture
def reference():
    """Runs the repository's own docscore (DOCSCORE_REFERENCE) and returns
    its standard output: the bytes the package must match."""
    exe = os.environ.get("DOCSCORE_REFERENCE")
    if not exe:
        pytest.fail("DOCSCORE_REFERENCE is not set: run these tests with 'make test-python'")

    def run(*args: str) -> bytes:
        return subprocess.run([exe, *args], check=True, capture_output=True).stdout

    return run
