"""How often the separate ratio estimator's nominal 95 % interval (benchmarks/binairo_count12.py)
covers an exact count: on 10x10 takuzu, where every cube can be counted in seconds, draw 400 seeded
stratified samples of 12, 20 and 41 non-symmetric cubes (the symmetric cubes exact, as for 12x12)
and report the coverage and the spread of z = (exact - estimate) / standard error.

    python benchmarks/binairo_ratio_coverage.py
"""
import random, sys, time
sys.path.insert(0, __import__("os").path.dirname(__file__))
from binairo_count12 import ratio_estimate
from models.binairo.count import count_cube, cubes, stratified_sample, tables
t = tables(10, 10, "takuzu"); u = tables(10, 10, "unruly")
todo = cubes(t, "mitm")
ucubes = {c.rows: c for c in cubes(u, "mitm")}
began = time.time()
tak = [count_cube(t, "mitm", c) for c in todo]
unr = {c.rows: count_cube(u, "mitm", ucubes[c.rows]) if c.rows in ucubes else None for c in todo}
print("counted", time.time() - began, file=sys.stderr)
exact = sum(c.weight * n for c, n in zip(todo, tak))
others = [i for i, c in enumerate(todo) if c.weight != 2]
sym = sum(todo[i].weight * tak[i] for i, c in enumerate(todo) if c.weight == 2)
oc = [todo[i] for i in others]
from collections import Counter
print("exact", exact, "cubes", Counter(c.weight for c in todo))
missing = [c for c in oc if unr[c.rows] is None]
print("unruly missing", len(missing))
for size in (12, 20, 41):
    cover = 0; z = []
    runs = 400
    for seed in range(runs):
        picked = stratified_sample(oc, size, random.Random(seed))
        counted = {j: tak[others[j]] for j in picked}
        est, se = ratio_estimate(oc, counted, unr)
        total = est + sym
        z.append((exact - total) / se)
        cover += abs(exact - total) <= 1.96 * se
    z.sort()
    print(f"sample {size}: coverage {cover/runs:.3f}, mean z {sum(z)/runs:+.2f}, z 2.5%/97.5% {z[int(.025*runs)]:+.2f} {z[int(.975*runs)]:+.2f}")
