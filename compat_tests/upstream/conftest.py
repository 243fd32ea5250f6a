"""Keep the project's own pytest run out of this directory: it holds a runner, not tests.

The upstream suites run in a scratch copy with their own venv (``make compat-upstream``), never here.
"""

collect_ignore_glob = ["*"]
