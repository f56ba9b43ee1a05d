"""Baseline for popsim's benchmark: Python's json.load of a scenario file (the C decoder)."""
import json
import sys

with open(sys.argv[1], "rb") as f:
    data = json.load(f)
print(len(data.get("events", [])))
