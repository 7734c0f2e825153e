"""Which machine each gpubarrier row was measured on, so that a table compares rows of one
machine (the same GPUs of the same host) unless a column says otherwise.

The rule, from the rows alone (no folder layout is assumed):
  - rows with GPU UUIDs (gpu_uuids, schema v3 on): one machine per host and GPU model whose rows'
    UUID sets overlap (rows that used GPU 0 and rows that used GPUs 0,1 of one box are one
    machine; two VMs of one host name with other GPUs are two); the rows of one run (host and
    run_id: one invocation) are one machine too (a run that timed GPUs 0-3 one at a time);
  - rows of schema v1/v2 (no UUIDs): one machine per host and GPU model (such rows cannot tell
    two VMs of one host name apart);
  - rows of schema v3 on without UUIDs (host-only methods: no GPU; a skipped row that reached no
    GPU) join the machine of their run (run_id) where that run's other rows lie on one machine;
    else their host's machine where the host has exactly one machine among the rows; else they
    stay apart: one group per host and GPU model, or per host ("host-only rows") without a GPU
    model.

    from . import machines
    for label, rows_of_one in machines.machines(rows): ...   # most rows first
    label = machines.index(rows)[id(row)]                     # one row's machine
"""

from __future__ import annotations

import collections
from collections.abc import MutableMapping
from typing import Any


def uuids_of(r: MutableMapping[str, Any]) -> list:
    return sorted(u for u in r.get("gpu_uuids", "").split(",") if u)


def placed(r: MutableMapping[str, Any]) -> bool:
    """Whether the row's own columns place it (UUIDs, or schema before v3); other rows join the
    machine of their run or host (module docstring)."""
    version = r.get("schema_version", "")
    return bool(uuids_of(r)) or (int(version) if version.isdigit() else 0) < 3


def machine_key(r: MutableMapping[str, Any]) -> tuple:
    """The row's own key before rows are joined: ("uuid", host, model, first UUID), ("plain",
    host, model) for a row without UUIDs, ("host", host) for one without UUIDs and GPU model."""
    uuids = uuids_of(r)
    base = (r["host"], r["gpu_model"])
    if uuids:
        return ("uuid",) + base + (uuids[0],)
    if not r["gpu_model"] and not placed(r):
        return ("host", r["host"])
    return ("plain",) + base


def _placed_groups(rows: list) -> dict:
    """{row index: group key} of the placed rows: rows whose UUID sets overlap, and rows of one
    run, are one group."""
    parent = {}

    def find(x: tuple) -> tuple:
        while parent.setdefault(x, x) != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    def join(a: tuple, b: tuple) -> None:
        parent[find(b)] = find(a)

    keys = {}
    for i, r in enumerate(rows):
        if not placed(r):
            continue
        keys[i] = machine_key(r)
        for u in uuids_of(r)[1:]:
            join(keys[i], ("uuid", r["host"], r["gpu_model"], u))
        if r.get("run_id"):
            join(keys[i], ("run", r["host"], r["run_id"]))
    return {i: find(k) for i, k in keys.items()}


def _label(rs: list) -> str:
    host = rs[0]["host"] or "host not recorded"
    models = sorted({r["gpu_model"] for r in rs if r["gpu_model"]})
    uuids = sorted({u for r in rs for u in uuids_of(r)})
    if not models and not uuids and not any(placed(r) for r in rs):
        return f"{host} · host-only rows (no GPU)"
    label = f"{host} · {' + '.join(models) or 'no GPU model recorded'}"
    if uuids:
        label += (
            f" · {len(uuids)} GPU{'s' if len(uuids) != 1 else ''} ("
            + ", ".join(u[:12] for u in uuids[:4])
            + (", …" if len(uuids) > 4 else "")
            + ")"
        )
    else:
        most = max(
            (int(r["gpu_count"]) for r in rs if r["gpu_count"].isdigit() and r["status"] == "ok"),
            default=0,
        )
        if most:
            label += f" · up to {most} GPU{'s' if most != 1 else ''} (UUIDs not recorded)"
    return label


def machines(rows: list) -> list:
    """[(label, rows)] of the rows' machines (module docstring), most rows first; every row in
    exactly one, the labels distinct."""
    group = _placed_groups(rows)
    by_run, by_host = collections.defaultdict(set), collections.defaultdict(set)
    for i, k in group.items():
        by_run[(rows[i]["host"], rows[i]["run_id"])].add(k)
        by_host[rows[i]["host"]].add(k)
    for i, r in enumerate(rows):
        if i in group:
            continue
        run, host = by_run.get((r["host"], r["run_id"]), set()), by_host.get(r["host"], set())
        if len(run) == 1:
            group[i] = next(iter(run))
        elif len(host) == 1:
            group[i] = next(iter(host))
        else:
            group[i] = machine_key(r)
    members = collections.OrderedDict()
    for i, r in enumerate(rows):
        members.setdefault(group[i], []).append(r)
    out, seen = [], collections.Counter()
    for rs in members.values():
        label = _label(rs)
        seen[label] += 1
        out.append((label if seen[label] == 1 else f"{label} #{seen[label]}", rs))
    out.sort(key=lambda m: -len(m[1]))
    return out


def index(rows: list) -> dict:
    """{id(row): its machine's label} over `rows`."""
    return {id(r): label for label, rs in machines(rows) for r in rs}


def short_names(groups: list) -> dict:
    """{label: a short name for a column or row heading} of machines(rows)' groups: the GPU model
    without "NVIDIA " and memory ("H100"), with " #1", " #2" where two machines share it."""

    def short(label: str, rs: list) -> str:
        models = sorted({r["gpu_model"] for r in rs if r.get("gpu_model")})
        if not models:
            return "host only"
        return "/".join(m.replace("NVIDIA ", "").split()[0] for m in models)

    names = [(label, short(label, rs)) for label, rs in groups]
    count = collections.Counter(n for _, n in names)
    out, seen = {}, collections.Counter()
    for label, n in names:
        seen[n] += 1
        out[label] = n if count[n] == 1 else f"{n} #{seen[n]}"
    return out


def legend(groups: list) -> str:
    """One line naming the machine(s) of a table: 'Machine: LABEL.' or 'Machines: NAME = LABEL;
    ...' with the short names of short_names()."""
    if len(groups) == 1:
        return f"Machine: {groups[0][0]}."
    names = short_names(groups)
    return "Machines: " + "; ".join(f"{names[label]} = {label}" for label, _ in groups) + "."
