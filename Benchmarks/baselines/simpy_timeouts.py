"""Baseline for popsim's benchmark: SimPy running 10^6 trivial timeouts with 1,000 pending.

1,000 processes each wait on timeouts in a loop until 10^6 timeouts have fired in all.
"""
import sys

import simpy

STEPS = int(sys.argv[1]) if len(sys.argv) > 1 else 1_000_000
PENDING = int(sys.argv[2]) if len(sys.argv) > 2 else 1_000


def main():
    env = simpy.Environment()
    fired = [0]

    def worker(i):
        delay = 1 + i % 997
        while fired[0] < STEPS:
            yield env.timeout(delay)
            fired[0] += 1

    for i in range(PENDING):
        env.process(worker(i))
    env.run()
    print(fired[0])


main()
