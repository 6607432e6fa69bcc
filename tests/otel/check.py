"""Asserts that `beagle analyse` recovered the documented laws of tests/otel/app.py from its
OpenTelemetry trace: the prepare demand 1 ms + 0.2 ms per item, the loop over the items, and the
large path above size 1000."""

import json
import sys

report = json.load(open(sys.argv[1]))
results = {r["element"]: r for r in report["results"]}


def evaluate(expression, **values):
    # The expressions use +, *, comparisons and ?: over these names only; StoEx's `?:` becomes
    # Python's conditional expression.
    text = expression
    for name, value in values.items():
        text = text.replace(name, repr(float(value)))
    if "?" in text:
        condition, rest = text.split("?", 1)
        then, otherwise = rest.split(":", 1)
        return float(eval(then)) if eval(condition) else float(eval(otherwise))
    return float(eval(text))


demand = results["_ot_prepare/_oro4gG3fEdy4YaaT-RYrLQ"]["expression"]
for items in [1, 10, 30]:
    got = evaluate(demand, **{"items.NUMBER_OF_ELEMENTS": items})
    want = 1 + 0.2 * items
    assert abs(got - want) <= 0.01 * want, f"prepare: {demand} at {items} items: {got}, not {want}"

loop = results["_ot_per_item"]["expression"]
for items in [1, 7, 30]:
    assert evaluate(loop, **{"items.NUMBER_OF_ELEMENTS": items}) == items, f"loop: {loop}"

large = results["_ot_size/_ot_large"]["expression"]
small = results["_ot_size/_ot_small"]["expression"]
for size, taken in [(200, 0), (800, 0), (1200, 1), (5000, 1)]:
    assert evaluate(large, **{"size.VALUE": size}) == taken, f"large: {large} at {size}"
    assert evaluate(large, **{"size.VALUE": size}) + evaluate(small, **{"size.VALUE": size}) == 1, f"{large} / {small}"

print("otel: the documented laws recovered:", demand, "|", loop, "|", large)
