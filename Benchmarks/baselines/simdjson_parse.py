"""Baseline for popsim's benchmark: simdjson's parse of a scenario file (pysimdjson), the
fastest JSON parser there is, timed in process (no interpreter start, no file read): prints the
median of 7 parses in milliseconds. Exit 3 when pysimdjson is not installed."""
import statistics
import sys
import time

try:
    import simdjson
except ImportError:
    sys.exit(3)

with open(sys.argv[1], "rb") as f:
    data = f.read()
parser = simdjson.Parser()
times = []
for _ in range(7):
    start = time.perf_counter()
    document = parser.parse(data)
    times.append(time.perf_counter() - start)
    del document
print(f"{statistics.median(times) * 1000:.3f}")
