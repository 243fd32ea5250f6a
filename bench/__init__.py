"""Rockafka's benchmarks (not tests): each module ``bench/X.py`` has ``main(argv)`` and writes its figures,
as markdown, to ``bench/results/X.md``. ``python -m bench`` runs them all; ``python -m bench.X`` runs one."""

from pathlib import Path as _Path

RESULTS_DIR = _Path(__file__).parent / "results"


def write_table(name: str, title: str, note: str, header: list[str], rows: list[list[str]]) -> str:
    """Write ``bench/results/<name>.md``: a title, a note, and a markdown table; returns (and prints) the text."""
    lines = [f"# {title}", "", note, "", "| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(row) + " |" for row in rows]
    text = "\n".join(lines) + "\n"
    (RESULTS_DIR / f"{name}.md").write_text(text)
    print(text, end="")
    return text
