"""How evenly the 10x10 takuzu count keeps its threads busy, independent of the machine's load.

Times every cube of a size alone (one thread, ``time.process_time``), then replays schedules
with those times: the first one (batches of 16 cubes a thread, cube x of a batch to thread
x mod threads), the batches of session 4 (cubes by cost estimate, dealt round robin into
batches, each batch dealt to the threads largest first by the estimate; a batch ends when its
slowest thread does) and the one ``_run_threads`` uses now (each thread takes the next cube,
largest estimate first, when it is done with one).  The cores kept busy are the work over the
time the last thread ends.

    python benchmarks/binairo_threads.py --size 10 --threads 2
"""

from __future__ import annotations

import argparse
import time

from mindgames.models.binairo.count import cubes, tables
from mindgames.models.binairo.count.join import JoinTables, deal


def makespan(seconds: list[float], batches: list[list[int]], dealt: list[list[list[int]]]) -> float:
    return sum(
        max(sum(seconds[batch[x]] for x in chunk) for chunk in chunks)
        for batch, chunks in zip(batches, dealt)
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", type=int, default=10)
    parser.add_argument("--threads", type=int, default=2)
    args = parser.parse_args()
    t = tables(args.size, args.size, "takuzu")
    todo = cubes(t, "mitm")
    join = JoinTables(t.rows, t.cols, t.bits, t.words)
    join.lookup(*todo[0].rows, t.eqpairs)  # load the kernel before the clock
    seconds = []
    for cube in todo:
        began = time.process_time()
        join.lookup(*cube.rows, t.eqpairs)
        seconds.append(time.process_time() - began)
    work, k = sum(seconds), args.threads
    print(f"{len(todo)} cubes, {work:.2f} CPU s one by one")
    old = [list(range(at, min(len(todo), at + 16 * k))) for at in range(0, len(todo), 16 * k)]
    old_dealt = [[list(range(c, len(batch), k)) for c in range(k)] for batch in old]
    print(
        f"old: {len(old)} batches, x mod {k}: {work / makespan(seconds, old, old_dealt):.2f} "
        f"of {k} cores busy"
    )
    cost = [join.cost(*cube.rows) for cube in todo]
    by_cost = sorted(range(len(todo)), key=lambda x: -cost[x])
    for count in (1, 2, 4, 8, 16, 32):
        batches = [by_cost[b::count] for b in range(count)]
        dealt = [deal([cost[x] for x in batch], k) for batch in batches]
        print(f"by cost: {count} batches: {work / makespan(seconds, batches, dealt):.2f} of {k} cores busy")
    free = [0.0] * k  # when each thread is done with its cubes so far
    for x in by_cost:
        free[free.index(min(free))] += seconds[x]
    print(f"next cube, largest estimate first: {work / max(free):.2f} of {k} cores busy")


if __name__ == "__main__":
    main()
