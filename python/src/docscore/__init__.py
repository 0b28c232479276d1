"""docscore: score what OCR, document-extraction and vision-language models
read from documents.

This package carries the native ``docscore`` binary and runs it: every
function returns the command's JSON report as a dict (the same bytes as the
command line, parsed), and maps its exit statuses onto exceptions:

- 2, an input error: :class:`InputError`, with the file, line and message;
- 3, a ``--fail-under`` threshold (or ``--fail-on`` verdict) not met:
  :class:`ThresholdError`;
- anything else: :class:`DocscoreError`.

>>> import docscore
>>> report = docscore.score_tabular(sample=True)
>>> sorted({cell["phase"] for cell in report["cells"]})
['G', 'N']
"""
from . import _operations
from ._operations import *  # noqa: F401,F403 (one function per operation)
from ._run import DocscoreError, InputError, ThresholdError, binary, run
from ._version import __version__

__all__ = ["DocscoreError", "InputError", "ThresholdError", "binary", "run", "__version__", *_operations.__all__]
