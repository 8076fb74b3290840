"""``make bench``: run every benchmark script in this folder and print their lines.

Benchmarks print figures against their targets; they never fail the build on a
slow machine (speed targets live here, not in timed tests).
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent


def main() -> int:
    scripts = sorted(p for p in HERE.glob("bench_*.py"))
    failures = 0
    for script in scripts:
        print(f"--- {script.name}", flush=True)
        code = subprocess.call([sys.executable, str(script)], cwd=HERE.parent, env=os.environ)
        failures += code != 0
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
