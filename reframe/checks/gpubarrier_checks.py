"""gpubarrier's ReFrame checks (docs/reframe.md).

HostOmpBarrier   every partition: host.omp.barrier, one process with the partition's CPUs
HostMpiBarrier   partitions with the `mpi` feature: host.mpi.barrier, one rank on each of 2 nodes
QuickSuite       partitions with the `gpu` feature: the quick sweep on every GPU of one node
FloorSweep       partitions with the `gpu` feature: the floor sweep (every multi-GPU barrier
                 beside its composed floor) on every GPU of one node

Each runs gpubarrier, which writes one CSV. Host checks that run at once on one machine share its
cores: where it has fewer cores than their members together (the OpenMP check's threads and the
MPI check's ranks), the partition must run them one at a time (`max_jobs` 1, as the shipped
local partitions do), and each host check says in its output whether it ran alone. Sanity: no row is failed, timeout or unverified, and
the methods the check is about have ok rows. Performance variables, read from the CSV: each
method's latency (its lowest ok `latency` row) and, for the floor sweep, each barrier's latency
over its floor (`<barrier>/floor`, the lowest over its configurations). References per system:
references/<system>.json. A latency read from a noisy row (its spread, or members that waited
for CPUs) is checked against its lower bound only: noise adds time, so it cannot show that a
barrier got slower, but it can show one that got faster than a barrier can be.

Variables (-S name=value): gpubarrier (the executable; default: the installed one beside this
suite, else gpubarrier on PATH), references (a folder of the site's own <system>.json files),
num_cpus_per_task, mpi_nodes (the MPI check's ranks, one a node).
"""
import importlib.util
import os
import sys

import reframe as rfm
import reframe.utility.sanity as sn
from reframe.core.backends import getlauncher
from reframe.core.builtins import performance_function  # noqa: F401  (documented API)
from reframe.core.builtins import run_after, run_before, sanity_function, variable
from reframe.core.exceptions import SanityError
from reframe.core.logging import getlogger



def _load_gbresults():
    """The suite's CSV reading, lib/gbresults.py, imported from its file by its location: ReFrame
    loads this file by its path, so no entry of sys.path leads to lib/, and the path is left as
    it is. Loaded once per process (by its name, `gbresults`)."""
    if 'gbresults' in sys.modules:
        return sys.modules['gbresults']
    path = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), 'lib',
                        'gbresults.py')
    spec = importlib.util.spec_from_file_location('gbresults', path)
    module = importlib.util.module_from_spec(spec)
    sys.modules['gbresults'] = module
    try:
        spec.loader.exec_module(module)
    except BaseException:
        del sys.modules['gbresults']
        raise
    return module


gbresults = _load_gbresults()


def _default_executable():
    # Installed: <prefix>/share/gpubarrier/reframe/checks -> <prefix>/bin/gpubarrier.
    here = os.path.dirname(os.path.abspath(__file__))
    installed = os.path.normpath(os.path.join(here, '..', '..', '..', '..', 'bin', 'gpubarrier'))
    return installed if os.access(installed, os.X_OK) else 'gpubarrier'


def _cores():
    """The cores (CPUs) this process may use."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:
        return os.cpu_count() or 1


@sn.deferrable
def _csv_is_sane(path, need_ok):
    problems = gbresults.sanity_problems(path, need_ok)
    if problems:
        raise SanityError('gpubarrier: ' + '\n  '.join(problems))
    return True


class GpubarrierCheck(rfm.RunOnlyRegressionTest):
    """One gpubarrier command that writes `csv_name`; subclasses say which."""

    gpubarrier = variable(str, value=_default_executable())
    valid_prog_environs = ['builtin']
    maintainers = ['gpubarrier']
    tags = {'gpubarrier'}
    # A folder of the site's own <system>.json references, read after references/.
    references = variable(str, value='')
    csv_name = variable(str, value='gpubarrier.csv')
    need_ok = variable(list, value=[])  # method globs that must have ok rows

    @run_after('init')
    def set_executable(self):
        self.executable = self.gpubarrier
        self.keep_files = [self.csv_name]  # the CSV stays in the output folder
        self.reference = gbresults.references(self.references)

    @run_after('setup')
    def set_cpus(self):
        if self.num_cpus_per_task is None:
            self.num_cpus_per_task = self.current_partition.processor.num_cpus or 2

    @sanity_function
    def csv_is_sane(self):
        return sn.all([sn.assert_found(r'\d+ rows: \d+ ok', self.stderr),
                       _csv_is_sane(os.path.join(self.stagedir, self.csv_name), self.need_ok)])

    @run_before('performance')
    def set_perf_variables(self):
        if self.is_dry_run():
            return
        path = os.path.join(self.stagedir, self.csv_name)
        rows = gbresults.rows(path)
        for method, (_, unit) in gbresults.latencies(rows).items():
            self.perf_variables[method] = sn.make_performance_function(
                gbresults.latency, unit, path, method)
        # A noisy figure keeps its reference's lower bound and loses the upper one.
        scope = self.current_partition.fullname
        for method, why in gbresults.noisy_latencies(rows).items():
            try:
                value, lower, _, unit = self.reference[f'{scope}:{method}']
            except KeyError:
                continue
            self.reference[f'{scope}:{method}'] = (value, lower, None, unit)
            getlogger().info(f'{self.name}: {method} is noisy ({why}): no upper bound applies')


class HostCheck(GpubarrierCheck):
    """A host barrier's check: its members are CPU threads or ranks, which share a machine's
    cores with those of the other host checks where the partition has no scheduler."""

    # The ranks of the MPI check (one a node; on a partition without a scheduler, all here).
    mpi_nodes = variable(int, value=2)

    @run_before('run')
    def say_whether_alone(self):
        if self.current_partition.scheduler.registered_name != 'local':
            return
        cores = self.current_partition.processor.num_cpus or _cores()
        # HostOmpBarrier's threads: the partition's CPUs (set_cpus), whichever check this is.
        members = (self.current_partition.processor.num_cpus or 2) + self.mpi_nodes
        if cores >= members:
            return
        alone = self.current_partition.max_jobs == 1
        getlogger().info(
            f'{self.name}: {cores} cores, fewer than the host checks\' {members} members '
            f'together (OpenMP threads + {self.mpi_nodes} MPI ranks): '
            + ('run one at a time (max_jobs 1), this one alone' if alone else
               f'{self.current_partition.fullname} runs up to '
               f'{self.current_partition.max_jobs} checks at once, so members may wait for '
               'CPUs and the figures be noisy (set max_jobs 1)'))


@rfm.simple_test
class HostOmpBarrier(HostCheck):
    descr = 'host.omp.barrier: the OpenMP barrier, one process'
    valid_systems = ['*']
    num_tasks = 1
    csv_name = 'host-omp.csv'
    need_ok = ['host.omp.barrier']
    time_limit = '10m'

    @run_after('init')
    def set_options(self):
        self.executable_opts = ['run', '--methods', 'host.omp.barrier', '--out', self.csv_name]

    @run_before('run')
    def no_mpi_launcher_without_scheduler(self):
        # One process: where no scheduler allocates CPUs, mpirun -np 1 would bind it to one core.
        if self.current_partition.scheduler.registered_name == 'local':
            self.job.launcher = getlauncher('local')()


@rfm.simple_test
class HostMpiBarrier(HostCheck):
    descr = 'host.mpi.barrier: MPI_Barrier over one rank per node'
    valid_systems = ['+mpi']
    csv_name = 'host-mpi.csv'
    need_ok = ['host.mpi.barrier']
    num_cpus_per_task = 1
    time_limit = '10m'

    @run_after('init')
    def set_options(self):
        self.num_tasks = self.mpi_nodes
        self.num_tasks_per_node = 1
        self.executable_opts = ['run', '--methods', 'host.mpi.barrier', '--out', self.csv_name]


class GpuSweep(GpubarrierCheck):
    """A shipped sweep on every GPU of one node: the partition's `gpus_per_node` extra asks the
    scheduler for them (through its `_rfm_gpu` resource)."""

    valid_systems = ['+gpu']
    num_tasks = 1
    sweep = variable(str)

    @run_after('init')
    def set_options(self):
        self.executable_opts = ['sweep', self.sweep, '--out', self.csv_name]

    @run_after('setup')
    def ask_for_gpus(self):
        gpus = self.current_partition.extras.get('gpus_per_node')
        if gpus and self.num_gpus_per_node is None:
            self.num_gpus_per_node = int(gpus)


@rfm.simple_test
class QuickSuite(GpuSweep):
    descr = 'the quick sweep: every level at a few telling sizes'
    sweep = 'quick'
    csv_name = 'quick.csv'
    need_ok = ['gpu.*']
    time_limit = '30m'


@rfm.simple_test
class FloorSweep(GpuSweep):
    descr = 'the floor sweep: every multi-GPU barrier beside grid.sync + a one-way signal'
    sweep = 'floor'
    csv_name = 'floor.csv'
    need_ok = ['gpu.grid.cg']
    time_limit = '60m'

    @run_before('performance')
    def set_floor_ratios(self):
        if self.is_dry_run():
            return
        path = os.path.join(self.stagedir, self.csv_name)
        for barrier in gbresults.floor_ratios(gbresults.rows(path)):
            # `multigpu.device.push/floor`; a variant's axes follow its name after a comma.
            name = barrier.replace(' ', ',') + '/floor'
            self.perf_variables[name] = sn.make_performance_function(
                gbresults.floor_ratio, 'x', path, barrier)
