#!/usr/bin/env python3
"""`gpubarrier topo --smi-file` on input that is not a saved `nvidia-smi topo -m`: it reads at
most 1 MiB (and one byte more), from a file or standard input, and refuses the rest with exit 2
and one line that names the file and prints none of its bytes.

dev_zero        --smi-file /dev/zero: over the cap, refused without growing
large_text      a 2 MiB text file: over the cap; a real output padded to exactly 1 MiB parses
stdin           - over the cap refused; a real output on standard input parses
directory       a directory is named as one
binary          NUL bytes, invalid UTF-8, control characters: file and line, no raw bytes

Every run has a wide timeout that only catches a hang, and an address-space limit (2 GiB) so
that a reader that grows fails fast instead of taking the machine.

Run by pytest: pytest test_topo_input.py [--gpubarrier PATH]
"""
import os
import random
import resource
import subprocess
import tempfile

import pytest

from cli_common import clean_env, executable

EXE = executable()
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SAMPLE = os.path.join(ROOT, "tests", "topology", "data", "crlf_ansi_tabs.txt")
CAP = 1 << 20
MEMORY = 2 << 30


def limit_memory():
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY, MEMORY))


def topo(*args, stdin=subprocess.DEVNULL):
    env = clean_env()
    # AddressSanitizer reserves far more address space than it uses: bound its RSS instead.
    asan = "ASAN_OPTIONS" in env
    if asan:
        env["ASAN_OPTIONS"] += f":hard_rss_limit_mb={MEMORY >> 20}"
    feed = isinstance(stdin, bytes)
    return subprocess.run([EXE, "topo", *args], capture_output=True, env=env, timeout=300,
                          input=stdin if feed else None, stdin=None if feed else stdin,
                          preexec_fn=None if asan else limit_memory)


def fail(what, p=None):
    detail = f"\nexit {p.returncode}\nstdout: {p.stdout[-2000:]!r}\nstderr: {p.stderr[-2000:]!r}" \
        if p else ""
    pytest.fail(f"{what}{detail}")


def expect(cond, what, p=None):
    if not cond:
        fail(what, p)


def refused(p, *parts):
    """Exit 2, nothing on stdout, one short line of printable ASCII on stderr that holds
    every part."""
    expect(p.returncode == 2, "exit 2", p)
    expect(p.stdout == b"", "nothing on stdout", p)
    expect(len(p.stderr) < 400, "a short message", p)
    expect(all(0x20 <= b < 0x7f for b in p.stderr.rstrip(b"\n")),
           "the message is printable ASCII (no raw bytes of the input)", p)
    expect(p.stderr.count(b"\n") == 1 and p.stderr.endswith(b"\n"), "one line", p)
    text = p.stderr.decode()
    for part in parts:
        expect(part in text, f"the message names {part!r}", p)
    return text


def sample():
    with open(SAMPLE, "rb") as f:
        return f.read()


def test_dev_zero():
    refused(topo("--smi-file", "/dev/zero"), "/dev/zero", "1 MiB")


def test_large_text():
    with tempfile.TemporaryDirectory() as d:
        big = os.path.join(d, "big.txt")
        line = b"GPU0 is not here, this is prose\n"
        with open(big, "wb") as f:
            f.write(line * (2 * CAP // len(line)))
        refused(topo("--smi-file", big), big, "1 MiB")
        # The cap is not stricter than it says: a real output padded to exactly 1 MiB parses.
        padded = os.path.join(d, "padded.txt")
        text = sample() + b"\r\n"
        text += b"#" * (CAP - len(text) - 2) + b"\r\n"
        expect(len(text) == CAP, "padded to 1 MiB")
        with open(padded, "wb") as f:
            f.write(text)
        p = topo("--smi-file", padded)
        expect(p.returncode == 0 and b"GPU1" in p.stdout, "1 MiB of real output parses", p)


def test_stdin():
    p = topo("--smi-file", "-", stdin=sample())
    expect(p.returncode == 0 and b"GPU1" in p.stdout, "a real output on standard input", p)
    refused(topo("--smi-file", "-", stdin=b"\n" * (CAP + 1)), "stdin", "1 MiB")
    with open("/dev/zero", "rb") as zero:
        refused(topo("--smi-file", "-", stdin=zero), "stdin", "1 MiB")


def test_directory():
    with tempfile.TemporaryDirectory() as d:
        text = refused(topo("--smi-file", d), d + " is a directory")
        expect("Is a directory" not in text, "said once, in words", None)


def test_binary():
    rng = random.Random(26)
    noise = bytes(rng.randrange(256) for _ in range(4096))
    head = sample().split(b"\n")
    cases = [
        ("random bytes with NUL", b"\0" + noise, ":1:"),
        # The damage is on line 3 of an otherwise real output.
        ("a NUL byte", b"\n".join(head[:2] + [head[2] + b"\0\0\0"] + head[3:]), ":3:"),
        ("invalid UTF-8", b"\n".join(head[:2] + [b"GPU1\xff\xfe NV8"] + head[3:]), ":3:"),
        ("a bell and a backspace", b"\n".join(head[:2] + [b"GPU1\x07\x08"] + head[3:]), ":3:"),
        ("a C1 control character", b"\n".join(head[:2] + [b"GPU1 \xc2\x9b"] + head[3:]), ":3:"),
    ]
    with tempfile.TemporaryDirectory() as d:
        for what, data, line in cases:
            path = os.path.join(d, "input.bin")
            with open(path, "wb") as f:
                f.write(data)
            text = refused(topo("--smi-file", path), path + line)
            expect("topo -m" in text, f"{what}: says what was expected", None)
        # Standard input is checked the same way.
        refused(topo("--smi-file", "-", stdin=b"\0" + noise), "<stdin>:1:")


