#!/usr/bin/env python3
"""The command-line binary's dependencies have the features the workspace's tests build them with.

cargo unifies features over what one command builds: `cargo nextest run --workspace` turns on
what the tests' dev-dependencies ask for (tokio's io-util, futures' executor, ...), `cargo build
-p beagle-cli` and `cargo install --path server/cli` only what the binary's own graph asks for.
Where the two differ, the install step and the end-to-end tests' binary recompiled the crates
that differ and everything above them: 135 s of CI's 40 minutes (issue 48). server/cli/Cargo.toml
lists the difference as dependencies of its own; this check fails, naming what to add there,
when a new dev-dependency turns on another feature.
"""
import re
import subprocess
import sys

LINE = re.compile(r"(\S+ v\S+)(?: \(.*?\))? \[(.*)\]")


def features(*args: str) -> dict[str, set[str]]:
    out = subprocess.run(
        ["cargo", "tree", "--locked", "--prefix", "none", "-f", "{p} [{f}]", *args],
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    found: dict[str, set[str]] = {}
    for line in out.splitlines():
        m = LINE.match(line.strip())
        if m:
            found.setdefault(m.group(1), set()).update(f for f in m.group(2).split(",") if f)
    return found


def main() -> int:
    tests = features("--workspace", "-e", "normal,build,dev")
    binary = features("-p", "beagle-cli", "-e", "normal,build")
    differ = [
        (crate, sorted(tests.get(crate, set()) - own), sorted(own - tests.get(crate, set())))
        for crate, own in sorted(binary.items())
        if tests.get(crate, set()) != own
    ]
    for crate, more, fewer in differ:
        print(f"{crate}: the tests' build adds {more or 'nothing'}, the binary's adds {fewer or 'nothing'}")
    if differ:
        print(
            "the binary's dependencies differ in features from the tests' build: add them to "
            "server/cli/Cargo.toml's feature-unifying dependencies (see its comment)",
            file=sys.stderr,
        )
        return 1
    print(f"features: the binary's {len(binary)} crates are built as the tests build them")
    return 0


if __name__ == "__main__":
    sys.exit(main())
