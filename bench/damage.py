"""``python -m bench.damage [--cases 500] [--seed N] [--partitions 5] [--batches 300]``: random store damage.

The long run of ``tests/store/test_damage_matrix.py``: one pristine store, then for each case a copy of it
damaged at random (a file chosen among the CommitLog segments, ConsumeQueue files, IndexFiles and the
checkpoint, weighted 4:3:1:1 by kind; truncated to a random length, a random range zeroed, 1-8 random bytes
flipped, or deleted;
several damages in one case now and then; the checkpoint deleted in half the cases), opened, read by every
partition and checked with the matrix's oracle (every intact record served, nothing damaged served, no
stalled consumer, every loss in the ledger; appendable after, no loss recorded twice; a queue whose last units
were zeroed whole may end early, the one case recovery does not see). It prints the count
of cases by kind of damage and exits 1 at the first failure, with the case (its seed reproduces it).
"""

from __future__ import annotations

import argparse
import logging
import os
import random
import shutil
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

from tests.store.test_damage_matrix import Pristine, append_and_reopen, build, check, intact

KINDS = ("truncate", "zero", "flip", "delete")


def _files(root: Path) -> list[Path]:
    found = [p for p in (root / "commitlog").iterdir() if p.stat().st_size]
    found += [p for p in (root / "consumequeue").rglob("*") if p.is_file()]
    found += list((root / "index").iterdir())
    return [*sorted(found), root / "checkpoint"]


def damage(root: Path, rng: random.Random) -> str:
    """Damage one random file of the store at ``root`` in a random way; a description of what was done."""
    files = [p for p in _files(root) if p.exists()]
    kind_of = {p: p.relative_to(root).parts[0] for p in files}
    weights = {"commitlog": 4, "consumequeue": 3, "index": 1, "checkpoint": 1}
    kinds = sorted(set(kind_of.values()))
    chosen = rng.choices(kinds, [weights[k] for k in kinds])[0]
    path = rng.choice([p for p in files if kind_of[p] == chosen])
    kind = rng.choice(KINDS)
    size = path.stat().st_size
    where = f"{kind} {path.relative_to(root)}"
    if kind == "delete" or size == 0:
        path.unlink()
        return f"delete {path.relative_to(root)}"
    if kind == "truncate":
        length = rng.randrange(size)
        os.truncate(path, length)
        return f"{where} to {length}"
    with open(path, "r+b") as file:
        if kind == "zero":
            start = rng.randrange(size)
            length = min(rng.randint(1, 2048), size - start)
            file.seek(start)
            file.write(bytes(length))
            return f"{where} [{start}, {start + length})"
        spots = sorted(rng.randrange(size) for _ in range(rng.randint(1, 8)))
        for at in spots:
            file.seek(at)
            byte = file.read(1)
            file.seek(at)
            file.write(bytes([byte[0] ^ (1 << rng.randrange(8))]))
    return f"{where} at {spots}"


def run_case(pristine: Pristine, workdir: Path, seed: int) -> list[str]:
    """One case: damage a copy, check it; what was done (the oracle raises AssertionError)."""
    rng = random.Random(seed)
    root = workdir / f"case-{seed}"
    shutil.copytree(pristine.root, root)
    (root / "lock").unlink(missing_ok=True)
    done = [damage(root, rng) for _ in range(1 if rng.random() < 0.8 else rng.randint(2, 4))]
    checkpoint = rng.random() < 0.5 and (root / "checkpoint").exists()
    if not checkpoint:
        (root / "checkpoint").unlink(missing_ok=True)
        done.append("no checkpoint")
    checkpoint = checkpoint and not any(" checkpoint" in step for step in done)  # a damaged one is as good as none
    try:
        queue_tails = any(step.startswith("zero consumequeue") for step in done)
        kept = intact(pristine, pristine.root, root)
        check(pristine, root, kept, checkpoint, by_range=len(done) > 2, queue_tails=queue_tails)
        append_and_reopen(pristine, root)
    except AssertionError as exc:
        raise AssertionError(f"{exc} (after: {'; '.join(done)})") from exc
    finally:
        shutil.rmtree(root, ignore_errors=True)
    return done


def _label(step: str) -> str:
    """ "flip commitlog/000...0 at [...]" -> "flip commitlog"."""
    return step if step == "no checkpoint" else " ".join(step.split("/")[0].split()[:2])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.damage", description=__doc__.split("\n")[0])
    parser.add_argument("--cases", type=int, default=500)
    parser.add_argument("--seed", type=int, default=None, help="the first case's seed (default: random)")
    parser.add_argument("--partitions", type=int, default=5)
    parser.add_argument("--batches", type=int, default=300)
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.ERROR)
    first = args.seed if args.seed is not None else random.randrange(1 << 30)
    counts: Counter[str] = Counter()
    started = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="rockafka-damage-") as directory:
        workdir = Path(directory)
        pristine = build(workdir / "pristine", args.partitions, args.batches)
        for seed in range(first, first + args.cases):
            try:
                done = run_case(pristine, workdir, seed)
            except AssertionError as exc:
                print(f"FAILED case seed={seed}: {exc}", file=sys.stderr)
                return 1
            counts.update(
                step if step == "no checkpoint" else " ".join(step.split("/")[0].split()[:2]) for step in done
            )
    elapsed = time.monotonic() - started
    print(f"{args.cases} cases from seed {first} passed in {elapsed:.1f} s")
    for what, count in sorted(counts.items()):
        print(f"  {what:<28} {count}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
