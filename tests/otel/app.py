"""A small Python service traced with the OpenTelemetry SDK, for Beagle's end-to-end test.

`process(items, size)` prepares (a CPU demand of 1 ms + 0.2 ms per item), goes over its items (a
loop of len(items) iterations) and takes the large path when size > 1000 (a branch). Its spans
carry Beagle's attributes (`beagle.seff`, `beagle.action`, `beagle.param.*`, `beagle.loop.*`,
`beagle.branch.*`; see server/measure/src/otel.rs). Span times are set from the documented laws,
so the laws are what the trace says, whatever the machine's load.

The spans are exported as the Collector's file exporter writes them: one
ExportTraceServiceRequest per line, built by the SDK's own OTLP encoder and serialised with
protobuf's JSON mapping. Usage: python app.py OUT.jsonl [CALLS]
"""

import json
import random
import sys

from google.protobuf.json_format import MessageToJson
from opentelemetry.exporter.otlp.proto.common.trace_encoder import encode_spans
from opentelemetry.sdk.trace import TracerProvider
from opentelemetry.sdk.trace.export import SimpleSpanProcessor, SpanExporter, SpanExportResult


class JsonLinesExporter(SpanExporter):
    def __init__(self, out):
        self.out = out

    def export(self, spans):
        request = encode_spans(spans)
        self.out.write(json.dumps(json.loads(MessageToJson(request))) + "\n")
        return SpanExportResult.SUCCESS

    def shutdown(self):
        self.out.flush()


def process(tracer, clock, items, size):
    """One call; `clock` is the trace's time in nanoseconds, advanced by the documented costs."""
    start = clock
    prepare_ns = 1_000_000 + 200_000 * len(items)
    with tracer.start_as_current_span(
        "process",
        start_time=start,
        end_on_exit=False,
        attributes={
            "beagle.seff": "_ot_process_seff",
            "beagle.param.items.NUMBER_OF_ELEMENTS": len(items),
            "beagle.param.size.VALUE": size,
            "beagle.loop._ot_per_item": len(items),
            "beagle.branch._ot_size": "_ot_large" if size > 1000 else "_ot_small",
        },
    ) as call:
        prepare = tracer.start_span(
            "prepare", start_time=start + 10_000, attributes={"beagle.action": "_ot_prepare"}
        )
        prepare.end(end_time=start + 10_000 + prepare_ns)
        total = 0
        for item in items:
            total += item
        call.end(end_time=start + 20_000 + prepare_ns)
    return start + 1_000_000_000


def main():
    out_path = sys.argv[1]
    calls = int(sys.argv[2]) if len(sys.argv) > 2 else 200
    rng = random.Random(7)
    with open(out_path, "w") as out:
        provider = TracerProvider()
        provider.add_span_processor(SimpleSpanProcessor(JsonLinesExporter(out)))
        tracer = provider.get_tracer("beagle-otel-example")
        clock = 1_700_000_000_000_000_000
        for _ in range(calls):
            items = [rng.randint(0, 9) for _ in range(rng.randint(1, 30))]
            # Sizes away from the threshold on both sides.
            size = rng.choice([rng.randint(100, 800), rng.randint(1200, 5000)])
            clock = process(tracer, clock, items, size)
        provider.shutdown()


if __name__ == "__main__":
    main()
