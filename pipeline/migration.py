"""What a migration moves besides records, planned before the copy and applied around it.

**Plan** (``--dry-run`` prints it and stops): the topics with their partition counts and config overrides
(:mod:`.admin`), what the target already holds of them, the consumer groups with committed offsets on the
topics, and with ``--acls`` the source's ACL bindings. SCRAM users are never moved: a broker stores only
salted hashes of their passwords, which DescribeUserScramCredentials does not return, so they must be created
on the target by whoever knows the passwords.

**Topics** missing on the target are created with the source's partition count and configs; an existing
topic with fewer partitions is refused (records keep their partition numbers), one whose configs differ has
the source's values set. **Groups** get their offsets translated through the copy's offset map
(:mod:`.offsetmap`) once the copy is verified; a group with members on the target is left alone (its
offsets cannot be set under it) and reported.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from .admin import Admin, TopicSpec
from .clientprops import as_options
from .errors import PipelineError
from .offsets import TopicPartition
from .wire import Kind, client_config

#: Client settings a properties file may hold that the sources and sinks set themselves (dropped).
MANAGED_SETTINGS = (
    "group.id",
    "auto.offset.reset",
    "enable.auto.commit",
    "key.deserializer",
    "value.deserializer",
    "key.serializer",
    "value.serializer",
    "isolation.level",
)


@dataclass(frozen=True, slots=True)
class Endpoint:
    """One side of a migration: the ``rockafka`` format's ``kafka.*`` options (lower-case names)."""

    options: dict[str, str]

    @property
    def bootstrap(self) -> str:
        return self.options["kafka.bootstrap.servers"]

    def config(self, kind: Kind = "consumer") -> dict[str, Any]:
        return client_config(self.options, kind)


def endpoint(side: str, bootstrap: str | None, settings: Mapping[str, str]) -> Endpoint:
    """An endpoint from ``--from``/``--to`` and the side's properties file (``--from``/``--to`` win)."""
    kept = {name: value for name, value in settings.items() if name not in MANAGED_SETTINGS}
    options = {name.lower(): value for name, value in as_options(kept).items()}
    if bootstrap:
        options["kafka.bootstrap.servers"] = bootstrap
    if not options.get("kafka.bootstrap.servers"):
        flag = {"source": "--from", "target": "--to"}[side]
        raise PipelineError(
            f"the {side} has no bootstrap servers: give {flag} HOST:PORT or bootstrap.servers in {flag}-config"
        )
    found = Endpoint(options)
    found.config("consumer")  # a setting kafka-python does not know fails here, before anything runs
    return found


@dataclass
class Plan:
    topics: dict[str, TopicSpec]
    existing: dict[str, TopicSpec]
    groups: dict[str, dict[TopicPartition, int]]
    acls: list[Any] | None = None
    notes: list[str] = field(default_factory=list)

    def partitions(self) -> list[TopicPartition]:
        return [TopicPartition(t, p) for t, spec in sorted(self.topics.items()) for p in range(spec.partitions)]


def make_plan(source: Admin, target: Admin, topics: Sequence[str], *, acls: bool) -> Plan:
    specs = source.topic_specs(topics)
    missing = [topic for topic in topics if topic not in specs]
    if missing:
        raise PipelineError(f"not on the source {source.where}: {', '.join(missing)}")
    existing = target.topic_specs(topics)
    short = [
        f"{t} has {existing[t].partitions} < {s.partitions} partitions"
        for t, s in specs.items()
        if t in existing and existing[t].partitions < s.partitions
    ]
    if short:
        raise PipelineError(f"target topics too small: {'; '.join(short)} (add partitions or delete them)")
    plan = Plan(specs, existing, source.group_offsets(topics), source.acls() if acls else None)
    for topic, spec in specs.items():
        if spec.hidden:
            plan.notes.append(f"{topic}: sensitive configs not copied (values not readable): {', '.join(spec.hidden)}")
    return plan


def plan_lines(plan: Plan) -> list[str]:
    """The plan, for ``--dry-run``."""
    lines = []
    for topic, spec in sorted(plan.topics.items()):
        configs = ", ".join(f"{k}={v}" for k, v in sorted(spec.configs.items())) or "no overrides"
        action = "exists on the target" if topic in plan.existing else "create on the target"
        lines.append(f"topic {topic}: {spec.partitions} partitions, {configs}; {action}")
        if topic in plan.existing and differing(spec, plan.existing[topic]):
            lines.append(f"  set configs on the target: {differing(spec, plan.existing[topic])}")
    for group, offsets in sorted(plan.groups.items()):
        listed = ", ".join(f"{tp.topic}-{tp.partition}@{o}" for tp, o in sorted(offsets.items()))
        lines.append(f"group {group}: translate and commit {listed}")
    if plan.acls is None:
        lines.append("ACLs: not copied (--acls copies them)")
    else:
        lines.extend(f"ACL: {_acl_text(acl)}" for acl in plan.acls)
        lines.append(f"ACLs: {len(plan.acls)} to create on the target")
    lines.append("SCRAM users: never copied (the source keeps only salted password hashes; see docs/migration.md)")
    return lines + plan.notes


def differing(source: TopicSpec, target: TopicSpec) -> dict[str, str]:
    return {k: v for k, v in source.configs.items() if target.configs.get(k) != v}


def _acl_text(acl: Any) -> str:
    pattern = acl.resource_pattern
    return (
        f"{acl.permission_type.name} {acl.principal} {acl.operation.name} on {pattern.resource_type.name} "
        f"{pattern.resource_name} ({pattern.pattern_type.name}) from {acl.host}"
    )


def apply_topics(target: Admin, plan: Plan) -> None:
    """Create the missing topics with the source's partitions and configs; set differing configs."""
    target.create_topics({t: s for t, s in plan.topics.items() if t not in plan.existing})
    target.set_configs({t: differing(s, plan.existing[t]) for t, s in plan.topics.items() if t in plan.existing})


def apply_acls(target: Admin, plan: Plan) -> int:
    if not plan.acls:
        return 0
    target.create_acls(plan.acls)
    return len(plan.acls)


def sync_groups(
    spark: Any,
    source: Endpoint,
    target: Endpoint,
    admin: Admin,
    groups: Mapping[str, Mapping[TopicPartition, int]],
    starts: Mapping[TopicPartition, int],
    committed: bool,
) -> dict[str, Any]:
    """Translate every group's offsets (:mod:`.offsetmap`) and commit them on the target; the report section."""
    from .jobs import read_all
    from .offsetmap import translate
    from .wire import offset_bounds

    active = admin.active_groups(list(groups))
    wanted = {(tp, c) for group, offsets in groups.items() if group not in active for tp, c in offsets.items()}
    ends = offset_bounds(target.config(), sorted({tp for tp, _ in wanted})).latest
    topics = sorted({tp.topic for tp, _ in wanted})
    frames = [read_all(spark, side.options, topics, committed) for side in (source, target)] if topics else [None, None]
    mapped = translate(spark, frames[0], frames[1], wanted, starts, ends)
    report: dict[str, Any] = {}
    for group, offsets in sorted(groups.items()):
        if group in active:
            report[group] = {"skipped": "the group has members on the target"}
            continue
        moved = {tp: mapped[(tp, c)] for tp, c in offsets.items()}
        admin.commit(group, {tp: t.target for tp, t in moved.items()}, "rockafka pipeline migrate")
        report[group] = {
            f"{tp.topic}-{tp.partition}": {"source": t.source, "target": t.target, "how": t.how}
            for tp, t in sorted(moved.items())
        }
    return report
