"""Rockafka's benchmarks (not tests): each module ``bench/X.py`` has ``main(argv)`` and writes its figures,
as markdown, to ``bench/results/X.md``. ``python -m bench`` runs them all; ``python -m bench.X`` runs one."""
