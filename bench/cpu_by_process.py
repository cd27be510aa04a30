#!/usr/bin/env python3
"""Where a machine's CPU goes while a command runs: CPU seconds by kind of process.

    python3 bench/cpu_by_process.py OUT.json -- COMMAND [ARGS...]
    python3 bench/cpu_by_process.py OUT.json                        (until SIGINT/SIGTERM)

Samples /proc once a second and adds up each process's user + system time under a category made
from its command line and working directory: `fork:<module>` (a surefire/failsafe test JVM, by
the module it runs in), `childjvm:<dir>:<main class>` (a JVM a test or a script started: a
bin/benchlake, a duet side, a kill test's child), `maven`, `postgres`, `chromium`, `python`, ...
A process keeps the category it had when first seen, across an exec. Writes OUT.json every 10 s
and at the end: the wall time, the whole machine's busy CPU seconds (/proc/stat) and the
categories, largest first. What it misses is a process's last second (after the last sample
before it ended) and processes shorter than that; the machine's busy seconds show how much that
was (in .ci/run, 92-94 % was attributed).

The suite is CPU-bound on 2 cores (busy ~1.9 cores throughout .ci/run), so its wall time falls
only with its CPU seconds; this says where they are. Example (issue 28's closing note):
    git clone -q . /tmp/ci && cd /tmp/ci && python3 bench/cpu_by_process.py /tmp/ci.json -- .ci/run
"""
import collections
import json
import os
import signal
import subprocess
import sys
import time

HZ = os.sysconf('SC_CLK_TCK')


def category(pid):
    try:
        with open(f'/proc/{pid}/cmdline', 'rb') as f:
            cmd = [c.decode(errors='replace') for c in f.read().split(b'\0') if c]
    except OSError:
        return None
    if not cmd:
        return 'kernel'
    exe = os.path.basename(cmd[0])
    try:
        cwd = os.path.basename(os.readlink(f'/proc/{pid}/cwd').rstrip('/'))
    except OSError:
        cwd = '?'
    line = ' '.join(cmd)
    if exe == 'java':
        if 'plexus-classworlds' in line:
            return 'maven'
        if 'surefire' in line:
            return 'fork:' + cwd
        # The main class (or -jar's file name), never an argument: an argument may be a secret.
        mains = [c for c in cmd[1:] if c.startswith(('dev.', 'org.'))]
        jars = [os.path.basename(cmd[i + 1]) for i, c in enumerate(cmd[:-1]) if c == '-jar']
        return f'childjvm:{cwd}:' + (mains[0] if mains else jars[0] if jars else '?')[:60]
    if 'postgres' in exe:
        return 'postgres'
    if 'chrom' in line:
        return 'chromium'
    if exe in ('sysbench', 'pgbench', 'psql'):
        return exe
    if 'python' in exe or 'jupyter' in line:
        return 'python'
    return 'other:' + exe[:30]


def machine_busy_ticks():
    with open('/proc/stat') as f:
        ticks = list(map(int, f.readline().split()[1:]))
    return sum(ticks) - ticks[3] - ticks[4]  # all but idle and iowait


def main():
    if len(sys.argv) < 2:
        print(__doc__, file=sys.stderr)
        sys.exit(2)
    out = sys.argv[1]
    command = sys.argv[3:] if len(sys.argv) > 2 and sys.argv[2] == '--' else []
    seen = {}  # pid -> (start time, CPU ticks at last sample, category)
    ticks = collections.Counter()
    busy0, t0 = machine_busy_ticks(), time.time()
    stop = []
    signal.signal(signal.SIGTERM, lambda *a: stop.append(1))
    signal.signal(signal.SIGINT, lambda *a: stop.append(1))

    def sample(first):
        for entry in os.listdir('/proc'):
            if not entry.isdigit():
                continue
            try:
                with open(f'/proc/{entry}/stat') as f:
                    stat = f.read()
            except OSError:
                continue
            fields = stat[stat.rfind(')') + 2:].split()
            cpu, started = int(fields[11]) + int(fields[12]), int(fields[19])
            known = seen.get(entry)
            if known is None or known[0] != started:
                cat = category(entry)
                if cat is None:
                    continue
                # Processes already running when sampling starts count from now on.
                ticks[cat] += 0 if first else cpu
                seen[entry] = (started, cpu, cat)
            else:
                ticks[known[2]] += cpu - known[1]
                seen[entry] = (started, cpu, known[2])

    def write():
        with open(out, 'w') as f:
            json.dump({'wall_s': round(time.time() - t0, 1),
                       'machine_busy_cpu_s': round((machine_busy_ticks() - busy0) / HZ, 1),
                       'cpu_s_by_category': {k: round(v / HZ, 1) for k, v in ticks.most_common()}}, f, indent=1)

    child = subprocess.Popen(command) if command else None
    n = 0
    while not stop and (child is None or child.poll() is None):
        sample(n == 0)
        n += 1
        if n % 10 == 0:
            write()
        time.sleep(1)
    sample(False)
    write()
    if child is not None:
        sys.exit(child.wait())


if __name__ == '__main__':
    main()
