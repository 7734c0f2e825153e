"""Running a command that may hang (mpirun and its ranks above all) without leaving anything
behind: on timeout its whole process group gets SIGTERM (mpirun then stops its ranks), then
SIGKILL. subprocess.run's own timeout kills only the command, leaving a hung rank spinning."""
import os
import signal
import subprocess


def run_bounded(cmd, env=None, timeout=300, cwd=None):
    """subprocess.run(cmd, capture_output=True, text=True) in a process group of its own; raises
    subprocess.TimeoutExpired once the group is gone when `cmd` outlives `timeout` seconds."""
    with subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env,
                          cwd=cwd, start_new_session=True) as p:
        try:
            out, err = p.communicate(timeout=timeout)
        except subprocess.TimeoutExpired:
            for sig, grace in ((signal.SIGTERM, 10), (signal.SIGKILL, 10)):
                try:
                    os.killpg(p.pid, sig)
                except ProcessLookupError:
                    break
                try:
                    p.communicate(timeout=grace)
                    break
                except subprocess.TimeoutExpired:
                    continue
            raise
        return subprocess.CompletedProcess(cmd, p.returncode, out, err)
