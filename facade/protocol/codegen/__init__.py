"""The protocol code generator: Kafka's JSON message specs in, ``facade/protocol/messages/`` and the hot-message
codec of ``core_pyx/`` out.

Run as ``python -m rockafka.facade.protocol.codegen --specs DIR --out facade/protocol/messages --hot-out core_pyx``
(``make gen-protocol``). Stages: :mod:`.spec` reads the files into a typed model, :mod:`.plan` decides
modules, class names and the versions each struct can appear in, :mod:`.fieldcode` and :mod:`.classes`
write each class, :mod:`.modules` writes whole files and the registry; :mod:`.hot` plans the hot messages
and :mod:`.hotemit` writes their compiled kernel, its pure twin, their values and the selector.
"""

from __future__ import annotations

from pathlib import Path

from .hot import HOT_FILES, plan_hot
from .hotemit import emit_hot
from .modules import SPEC_COMMIT, emit_module, emit_registry
from .plan import plan_modules
from .spec import SpecError, load_specs

GENERATED_MARK = "# GENERATED FROM apache/kafka@"


def generate(
    specs: Path, out: Path, commit: str = SPEC_COMMIT, hot_out: Path | None = None, newer: Path | None = None
) -> list[Path]:
    """Write every module for the specs in ``specs`` (those in ``newer`` replacing theirs) into ``out`` (and the
    hot-message codec into ``hot_out``); return the files written or changed.

    Generated files in ``out`` that no spec produces any more are removed; other files are left alone.
    """
    loaded = load_specs(specs, newer)
    changed = [] if hot_out is None else _write(hot_out, emit_hot(plan_hot(loaded), commit))
    plans = plan_modules(loaded)
    files = {f"{plan.name}.py": emit_module(plan, commit) for plan in plans}
    files["__init__.py"] = emit_registry(plans, commit)
    changed += _write(out, files)
    for path in sorted(out.glob("*.py")):
        if path.name not in files and path.read_text(encoding="utf-8").startswith(GENERATED_MARK):
            path.unlink()
            changed.append(path)
    return changed


def _write(out: Path, files: dict[str, str]) -> list[Path]:
    out.mkdir(parents=True, exist_ok=True)
    changed = []
    for name, text in sorted(files.items()):
        path = out / name
        if not path.exists() or path.read_text(encoding="utf-8") != text:
            path.write_text(text, encoding="utf-8")
            changed.append(path)
    return changed


__all__ = ["HOT_FILES", "SPEC_COMMIT", "SpecError", "generate"]
