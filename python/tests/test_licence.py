"""The installed wheel carries the repository's MIT licence."""
from importlib import metadata


def test_the_wheel_carries_the_licence(root):
    dist = metadata.distribution("docscore")
    assert dist.metadata["License-Expression"] == "MIT"
    licences = [f for f in (dist.files or []) if f.name == "LICENSE" and ".dist-info" in str(f)]
    assert len(licences) == 1, dist.files
    assert licences[0].read_text() == (root / "LICENSE").read_text()
