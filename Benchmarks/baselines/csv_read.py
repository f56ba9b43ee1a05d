"""Reads a CSV trace with Python's csv module, row by row, doing nothing with the rows: the
yardstick replay is measured against (issue 39: replaying every user under one strategy should
take at most a quarter, and must take at most a half, of this)."""
import csv
import sys

rows = 0
with open(sys.argv[1], newline="") as f:
    for _ in csv.reader(f):
        rows += 1
print(rows)
