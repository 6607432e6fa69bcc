#!/usr/bin/env python3
"""The peers: read every record of a Kieker log folder with pandas.read_csv (the usual way to
load semicolon-separated monitoring data for analysis) or with Python's csv module, and count
them. Usage: peers.py pandas|csv LOG_DIR"""

import csv
import sys
import time
from pathlib import Path


def main():
    how, folder = sys.argv[1], Path(sys.argv[2])
    files = sorted(folder.glob("*.dat"))
    start = time.perf_counter()
    records = 0
    if how == "pandas":
        import pandas as pd

        for f in files:
            # Records of several classes with different field counts: as many columns as the
            # longest (12), the rest empty.
            frame = pd.read_csv(f, sep=";", header=None, names=range(12), dtype=str, engine="c")
            records += len(frame)
    else:
        for f in files:
            with open(f, newline="") as h:
                for _ in csv.reader(h, delimiter=";"):
                    records += 1
    seconds = time.perf_counter() - start
    print(f"{how}: {records} records in {seconds:.1f} s: {records / seconds:,.0f} records/s")


if __name__ == "__main__":
    main()
