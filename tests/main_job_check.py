#!/usr/bin/env python3
"""The README's main job ends with every measured timing final, or preliminary only for a reason
that measurement cannot fix, named on a `settled:` line (issue 37). Reads the text report of
`beagle analyse fixtures/fileshare` (the command the README gives) and exits 1 naming each timing
that is preliminary without one."""
import re
import sys


def rows(lines):
    """(name, status, the lines under the row) for each result row of the report."""
    row = re.compile(r"^  (\S.*?)\s{2,}(resource_demand|loop|branch|call_parameter)\b.*\s(final|preliminary)( \(cached\))?$")
    out = []
    for line in lines:
        m = row.match(line)
        if m:
            out.append((m.group(1).strip(), m.group(2), m.group(3), []))
        elif out and line.startswith("    "):
            out[-1][3].append(line.strip())
        elif out and not line.startswith("  "):
            out.append(None)  # the table ended
    return [r for r in out if r is not None]


def main(path):
    with open(path, encoding="utf-8") as f:
        results = rows(f.read().splitlines())
    timings = [r for r in results if r[1] == "resource_demand"]
    if not timings:
        print(f"{path}: no timing in the report", file=sys.stderr)
        return 1
    unsettled = [r for r in timings if r[2] == "preliminary" and not any(l.startswith("settled:") for l in r[3])]
    final = sum(1 for r in timings if r[2] == "final")
    print(f"main job: {final} of {len(timings)} timings final, {len(timings) - final - len(unsettled)} settled")
    for name, _, _, under in unsettled:
        reasons = "; ".join(l for l in under if l.startswith("preliminary:"))
        print(f"{name}: preliminary with nothing saying more measurements would not help: {reasons}", file=sys.stderr)
    return 1 if unsettled else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
