#!/usr/bin/env python3
"""scripts/gpu-check on a machine without a usable GPU must fail (exit 1, saying why), never pass
as an empty success: no nvidia-smi, and an nvidia-smi that lists no GPU.

Run by pytest: pytest tests/cli/test_gpu_check.py
"""
import os
import subprocess

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SCRIPT = os.path.join(ROOT, "scripts", "gpu-check")


def run(path_dirs, out):
    env = dict(os.environ, OUT=out, PATH=":".join(path_dirs))
    return subprocess.run(["/bin/bash", SCRIPT, "--no-tests"], capture_output=True, text=True,
                          env=env, timeout=120)


def test_gpu_check(tmp_path):
    d = str(tmp_path)
    failures = []
    system = ["/usr/bin", "/bin"]
    # The system's commands without nvidia-smi (a GPU machine has it in /usr/bin beside them).
    shadow = os.path.join(d, "shadow")
    os.mkdir(shadow)
    for folder in system:
        for name in os.listdir(folder):
            target = os.path.join(shadow, name)
            if name != "nvidia-smi" and not os.path.lexists(target):
                os.symlink(os.path.join(folder, name), target)
    p = run([shadow], os.path.join(d, "a"))
    if p.returncode != 1 or "nvidia-smi not found" not in p.stdout:
        failures.append(f"without nvidia-smi: exit {p.returncode}, {p.stdout!r} {p.stderr!r}")
    fake = os.path.join(d, "bin")
    os.mkdir(fake)
    with open(os.path.join(fake, "nvidia-smi"), "w") as f:
        f.write("#!/bin/sh\necho 'No devices were found'\n")
    os.chmod(os.path.join(fake, "nvidia-smi"), 0o755)
    p = run([fake, shadow], os.path.join(d, "b"))
    if p.returncode != 1 or "lists no GPU" not in p.stdout:
        failures.append(f"nvidia-smi without GPUs: exit {p.returncode}, {p.stdout!r} {p.stderr!r}")

    assert not failures, "\n  ".join(failures)
