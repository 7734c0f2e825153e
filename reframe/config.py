# ReFrame configuration of gpubarrier's checks (docs/reframe.md): three systems, chosen with
# --system NAME[:PARTITION]. The checks run in ReFrame's own `builtin` environment (gpubarrier is
# a built program: no compiler, no module).
#
#   local-slurm  the two-node test cluster of scripts/slurm-local (what CI runs): host barriers
#                through sbatch and srun
#   local-gpu    this machine with its GPUs and no scheduler: host barriers (cpu) and the quick
#                suite and floor sweep (gpu)
#   local        this machine, no scheduler, host barriers only; picked when --system is not given
#
# A site adds its own system in a file of its own, read after this one:
#   reframe -C reframe/config.py -C mysite.py --system mysite -r
# (reframe/README.md shows such a file).
import os

SUITE = os.path.dirname(os.path.abspath(__file__))

# Both "nodes" of scripts/slurm-local are one host: Open MPI's shared-memory transport would
# collide across them, and everything runs as root there.
_LOCAL_MPI_ENV = [
    ['OMPI_MCA_btl', 'self,tcp'],
    ['OMPI_ALLOW_RUN_AS_ROOT', '1'],
    ['OMPI_ALLOW_RUN_AS_ROOT_CONFIRM', '1'],
]


def _cpu_partition(**extra):
    # No scheduler; mpirun starts the ranks of the MPI check on this machine. The host checks'
    # members together (the OpenMP check's thread per CPU, the MPI check's ranks) outnumber its
    # cores, and members that wait for a CPU measure the scheduler: one check at a time (each
    # says so in its output).
    return {
        'name': 'cpu',
        'descr': 'host barriers on this machine',
        'scheduler': 'local',
        'launcher': 'mpirun',
        'environs': ['builtin'],
        'features': ['mpi'],
        'env_vars': _LOCAL_MPI_ENV,
        'max_jobs': 1,
        **extra,
    }


site_configuration = {
    'systems': [
        {
            'name': 'local-slurm',
            'descr': 'the two-node Slurm cluster of scripts/slurm-local (8 gres GPUs per node, '
                     'none real)',
            # Never picked by host name: --system local-slurm:cpu (SLURM_CONF names the cluster).
            'hostnames': [],
            'modules_system': 'nomod',
            'partitions': [
                {
                    'name': 'cpu',
                    'descr': 'host barriers on gb-node1 and gb-node2',
                    # The test cluster keeps no accounting (no sacct): poll with squeue.
                    'scheduler': 'squeue',
                    'launcher': 'srun',
                    'access': ['--partition=gpubarrier'],
                    'environs': ['builtin'],
                    'features': ['mpi'],
                    # One job at a time: both nodes share this machine's cores.
                    'max_jobs': 1,
                    'env_vars': _LOCAL_MPI_ENV + [['SLURM_MPI_TYPE', 'pmix']],
                    'time_limit': '10m',
                },
            ],
        },
        {
            'name': 'local-gpu',
            'descr': 'this machine and every GPU it has, without a scheduler',
            'hostnames': [],
            'modules_system': 'nomod',
            'partitions': [
                _cpu_partition(),
                {
                    'name': 'gpu',
                    'descr': 'the quick suite and the floor sweep on this machine\'s GPUs',
                    'scheduler': 'local',
                    'launcher': 'local',
                    'environs': ['builtin'],
                    'features': ['gpu'],
                },
            ],
        },
        {
            'name': 'local',
            'descr': 'this machine, host barriers only',
            'hostnames': ['.*'],
            'modules_system': 'nomod',
            'partitions': [_cpu_partition()],
        },
    ],
    'general': [
        {
            'check_search_path': [os.path.join(SUITE, 'checks')],
            'check_search_recursive': False,
        },
    ],
}
