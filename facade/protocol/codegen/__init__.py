"""The protocol code generator: Kafka's JSON message specs in, ``facade/protocol/messages/`` out.

Run as ``python -m rockafka.facade.protocol.codegen --specs DIR --out facade/protocol/messages``
(``make gen-protocol``). Stages: :mod:`.spec` reads the files into a typed model, :mod:`.plan` decides
modules, class names and the versions each struct can appear in, :mod:`.fieldcode` and :mod:`.classes`
write each class, :mod:`.modules` writes whole files and the registry.
"""

from __future__ import annotations

from pathlib import Path

from .modules import SPEC_COMMIT, emit_module, emit_registry
from .plan import plan_modules
from .spec import SpecError, load_specs

GENERATED_MARK = "# GENERATED FROM apache/kafka@"


def generate(specs: Path, out: Path, commit: str = SPEC_COMMIT) -> list[Path]:
    """Write every module for the specs in ``specs`` into ``out``; return the files written or changed.

    Generated files in ``out`` that no spec produces any more are removed; other files are left alone.
    """
    plans = plan_modules(load_specs(specs))
    files = {f"{plan.name}.py": emit_module(plan, commit) for plan in plans}
    files["__init__.py"] = emit_registry(plans, commit)
    out.mkdir(parents=True, exist_ok=True)
    changed = []
    for name, text in sorted(files.items()):
        path = out / name
        if not path.exists() or path.read_text(encoding="utf-8") != text:
            path.write_text(text, encoding="utf-8")
            changed.append(path)
    for path in sorted(out.glob("*.py")):
        if path.name not in files and path.read_text(encoding="utf-8").startswith(GENERATED_MARK):
            path.unlink()
            changed.append(path)
    return changed


__all__ = ["SPEC_COMMIT", "SpecError", "generate"]
