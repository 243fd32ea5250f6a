import sys

from bench.suite.cli import main

sys.exit(main(sys.argv[1:]))
