#!/usr/bin/env python3
"""A large CIPM Kieker log: the uploads of fixtures/events-example repeated with fresh execution
ids and shifted times until the log has the size asked for, in Kieker's write order (a call's
record after what was recorded in it), rotated at 25,000 records per file, as Kieker's writer
does. Usage: generate.py OUT_DIR SIZE_MB"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "fixtures" / "kieker-cipm"))
import make  # noqa: E402  (the fixture's generator: the same records)

ROTATE = 25_000


def main():
    out = Path(sys.argv[1])
    target = int(float(sys.argv[2]) * 1_000_000)
    out.mkdir(parents=True, exist_ok=True)
    for old in out.glob("*.dat"):
        old.unlink()
    (out / "kieker.map").write_text(make.MAP)
    base = make.records(return_value=True, coarse=False)
    # Per copy: execution ids get a suffix, times a shift (one copy spans under 20 s).
    span = 20_000_000_000
    written, copy, n, lines_in_file = 0, 0, 1, 0
    f = open(out / f"kieker-20261125-000000000-UTC-{n:03d}.dat", "w")
    f.write("$0;1000000000;1.13;KIEKER-SINGLETON;host;1;false;0;NANOSECONDS;0\n")
    while written < target:
        shift = copy * span
        for line in base:
            p = line.split(";")
            p[1] = str(int(p[1]) + shift)
            p[3] = f"{p[3]}-{copy}"
            if p[0] == "$1":
                if p[6] != "<not set>":
                    p[6] = f"{p[6]}-{copy}"
                p[8] = str(int(p[8]) + shift)
                p[9] = str(int(p[9]) + shift)
            elif p[0] == "$2":
                p[6] = str(int(p[6]) + shift)
                p[7] = str(int(p[7]) + shift)
            text = ";".join(p) + "\n"
            f.write(text)
            written += len(text)
            lines_in_file += 1
            if lines_in_file == ROTATE:
                f.close()
                n += 1
                lines_in_file = 0
                f = open(out / f"kieker-20261125-000000000-UTC-{n:03d}.dat", "w")
        copy += 1
    f.close()
    print(f"{out}: {written / 1e6:.0f} MB in {n} files, {copy} copies of the example's {len(base)} records")


if __name__ == "__main__":
    main()
