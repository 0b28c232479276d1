"""``python -m docscore …`` runs the docscore command line."""
import os
import subprocess
import sys

from ._run import binary


def main() -> None:
    exe = binary()
    args = [exe, *sys.argv[1:]]
    if os.name == "posix":
        os.execv(exe, args)
    sys.exit(subprocess.call(args))


if __name__ == "__main__":
    main()
