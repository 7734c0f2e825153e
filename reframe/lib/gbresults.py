"""What gpubarrier's ReFrame checks read from its CSV, through gpubarrier's own reader and floor
(gpubarrier_tools/data/gbcsv.py and gpubarrier_tools/analysis/floor.py, found beside this suite: reframe/../gpubarrier_tools in the source tree,
share/gpubarrier/gpubarrier_tools in an install).

sanity_problems()  why a run is not sane, one line each: a row that is failed, timeout or
                   unverified; a method the check needs with no ok row; an unreadable CSV
latency()          a method's latency: the lowest of its ok `latency` rows (its best configuration)
noisy_latencies()  the methods whose latency comes from a noisy row: no upper bound applies
floor_ratio()      a multi-GPU barrier's latency over its composed floor (the cheapest verified
                   grid barrier + one-way signal, measured in the same run): the lowest over its
                   configurations
references()       the references of every system, from references/<system>.json and a site's
                   own folder of such files
"""
import fnmatch
import glob
import importlib
import importlib.util
import json
import os
import sys

SUITE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# The tools package shipped with this suite: the source root's gpubarrier_tools/, or
# share/gpubarrier/gpubarrier_tools beside share/gpubarrier/reframe in an install.
PACKAGE = 'gpubarrier_tools'
TOOLS = os.path.join(os.path.dirname(SUITE), PACKAGE)


def _shipped_tools():
    """The package at TOOLS, imported as PACKAGE from its folder by its location. ReFrame loads
    this suite by its path and make_references.py runs as a file, so no entry of sys.path need
    lead to the package, and the checks read with the reader of their own tree whatever else the
    path holds; the path is left as it is. The package's modules import each other relatively,
    so this is the package `python3 -m gpubarrier_tools.cli.report` imports from the folder above
    it. A package of that name already imported from that folder is the same one; one from another folder is
    refused (ImportError), as the checks would read with another reader."""
    loaded = sys.modules.get(PACKAGE)
    if loaded is not None:
        where = [os.path.realpath(p) for p in getattr(loaded, '__path__', [])]
        if where != [os.path.realpath(TOOLS)]:
            raise ImportError(f'a package named {PACKAGE} from {where} is already imported; '
                              f'the ReFrame checks read CSVs with {TOOLS}')
        return loaded
    spec = importlib.util.spec_from_file_location(
        PACKAGE, os.path.join(TOOLS, '__init__.py'), submodule_search_locations=[TOOLS])
    package = importlib.util.module_from_spec(spec)
    sys.modules[PACKAGE] = package
    try:
        spec.loader.exec_module(package)
    except BaseException:
        del sys.modules[PACKAGE]
        raise
    return package


_shipped_tools()
floor = importlib.import_module('gpubarrier_tools.analysis.floor')
gbcsv = importlib.import_module('gpubarrier_tools.data.gbcsv')

BAD = ('failed', 'timeout', 'unverified')
CsvError = gbcsv.CsvError


def rows(path):
    return gbcsv.load_file(path)


def sanity_problems(path, need_ok=()):
    """[] when the run is sane, else one line per problem (at most 20 rows named)."""
    if not os.path.exists(path):
        return [f'{path}: gpubarrier wrote no CSV (its output says why)']
    try:
        rs = rows(path)
    except gbcsv.CsvError as e:
        return [str(e)]
    out = [f"{r['method']} {r['config']} {r['metric']}: {r['status']}: {r['note']}"
           for r in rs if r['status'] in BAD]
    if len(out) > 20:
        out = out[:20] + [f'... and {len(out) - 20} more rows failed, timeout or unverified']
    for pattern in need_ok:
        if not any(r['status'] == 'ok' and fnmatch.fnmatchcase(r['method'], pattern)
                   for r in rs):
            why = sorted({r['note'] for r in rs if fnmatch.fnmatchcase(r['method'], pattern)})
            out.append(f'no ok row of {pattern}' + (f": {'; '.join(why)[:300]}" if why else
                                                    ': none in the CSV'))
    return out


def _lowest_latency_rows(rs):
    """{method: its ok `latency` row of the lowest value}."""
    out = {}
    for r in rs:
        if r['status'] == 'ok' and r['metric'] == 'latency':
            if r['method'] not in out or float(r['value']) < float(out[r['method']]['value']):
                out[r['method']] = r
    return out


def latencies(rs):
    """{method: (lowest ok latency, unit)}."""
    return {m: (float(r['value']), r['unit']) for m, r in _lowest_latency_rows(rs).items()}


def noisy_latencies(rs):
    """{method: why} for each method whose latency() comes from a noisy row (results/SCHEMA.md,
    "Noisy figures": its spread, or members that waited for CPUs). Such a figure is no verdict
    that a barrier got slower, since noise only adds time; it still shows one that got faster
    than a barrier can be (a lower bound holds, an upper bound does not)."""
    return {m: why for m, r in _lowest_latency_rows(rs).items()
            if (why := gbcsv.noisy_reason(r))}


def latency(path, method):
    return latencies(rows(path))[method][0]


def floor_ratios(rs):
    """{barrier (method and its extra axes): lowest latency / floor}."""
    out = {}
    for item in floor.floors([r for r in rs if r['status'] == 'ok']):
        if 'ratio' in item:
            out[item['method']] = min(out.get(item['method'], item['ratio']), item['ratio'])
    return out


def floor_ratio(path, barrier):
    return floor_ratios(rows(path))[barrier]


def references(extra=''):
    """ReFrame's `reference`: {'system:partition': {variable: (value, lower, upper, unit)}} from
    every <system>.json of references/, then of `extra` (a site's folder, read after: its entries
    replace the shipped ones). Each maps partition -> variable -> [value, lower, upper, unit]
    (lower and upper: fractions of value, null for no bound)."""
    out = {}
    folders = [os.path.join(SUITE, 'references')] + ([extra] if extra else [])
    paths = [p for folder in folders for p in sorted(glob.glob(os.path.join(folder, '*.json')))]
    if extra and not os.path.isdir(extra):
        raise ValueError(f'references={extra}: no such folder (expected <system>.json files)')
    for path in paths:
        system = os.path.splitext(os.path.basename(path))[0]
        with open(path) as f:
            for partition, variables in json.load(f).items():
                if partition.startswith('_'):
                    continue  # a comment
                out.setdefault(f'{system}:{partition}', {}).update(
                    {k: tuple(v) for k, v in variables.items()})
    return out
