"""A count estimated from a random sample of its cubes, with an honest 95 % interval.

The cubes of a count fall into *strata* by orbit size w (2, 4 or 8: how many cubes a cube stands
for; with an auxiliary, each orbit size is cut further into size classes); the total is
Y = sum over strata of w * (sum of the stratum's cube counts).  A stratified simple random
sample (without replacement) of cubes is counted exactly, and Y is estimated

* by the **stratified mean**:  sum_w  w * N_w * mean_w,  or
* by the **separate ratio estimator**, when every cube has a known size x that its count follows
  (the *auxiliary*: its two-row continuations, ``continuations``, known at once; or its exact
  count under a related, cheaper rule set: the unruly count for a takuzu count, since every
  takuzu grid is an unruly grid and per cube takuzu / unruly varies far less than the counts):
  sum_h  w * X_h * (sum of sampled y / sum of sampled x), X_h the stratum's auxiliary total.

Both have the textbook variance estimate (Cochran, *Sampling Techniques*, 5.6 and 6.11):
sum_w (w N_w)^2 (1 - n_w / N_w) s_w^2 / n_w, with s_w^2 the sample variance of the counts (ratio:
of the residuals y - R_w x).  Small strata make that estimate itself noisy (the 12x12 orbit-size-4
stratum gets a handful of cubes), and a normal interval then under-covers: the interval is
Student's t with the Welch-Satterthwaite degrees of freedom of the strata's variance estimates.
Per-cube counts are heavy-tailed: without an auxiliary the interval still under-covers (the
benchmark says by how much); with one, the size classes keep each stratum's ratio steady.
Its coverage is measured, not assumed: ``benchmarks/binairo_estimate_coverage.py`` draws
thousands of seeded samples where every cube's count is known.
"""

from __future__ import annotations

import heapq
import json
import math
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from ...errors import PuzzleError

if TYPE_CHECKING:
    from numpy.typing import ArrayLike

# At least this many cubes of every stratum (or all of them): a variance needs two.
MINIMUM_PER_STRATUM = 2
# With an auxiliary, each orbit size is split into this many size classes (fewer where it has
# few cubes): measured on 8x8 and 10x10 (benchmarks/binairo_estimate_coverage.py), one class
# per orbit size leaves the takuzu / unruly ratio varying with the cube's size (it grows with
# it), the residuals skewed, and the 95 % interval covering 84-88 %; 3-5 classes cover ~95 %.
SIZE_CLASSES = 4
CUBES_PER_CLASS = 10  # an orbit size of fewer than 2 x this many cubes is not split


class Weighted(Protocol):
    """A cube as sampling sees it (read only): its fixed rows and how many cubes it stands for."""

    @property
    def rows(self) -> tuple[int, ...]: ...

    @property
    def weight(self) -> int: ...


def strata(
    todo: Sequence[Weighted], auxiliary: Sequence[int] | None = None, classes: int = SIZE_CLASSES
) -> dict[tuple[int, int], list[int]]:
    """The cubes (indices) of each stratum, keyed (orbit size, size class).  Without an
    auxiliary a stratum is an orbit size.  With one, each orbit size is sorted by the auxiliary
    and cut into ``classes`` classes of about equal auxiliary total (the big cubes, where the
    uncertainty is, get classes of their own), at most one class per ``CUBES_PER_CLASS``
    cubes."""
    by_weight: dict[int, list[int]] = {}
    for index, cube in enumerate(todo):
        by_weight.setdefault(cube.weight, []).append(index)
    found: dict[tuple[int, int], list[int]] = {}
    for weight, members in sorted(by_weight.items()):
        split = 1 if auxiliary is None else max(1, min(classes, len(members) // CUBES_PER_CLASS))
        if auxiliary is None or split == 1:
            found[(weight, 0)] = members
            continue
        members = sorted(members, key=lambda i: auxiliary[i])
        total, running = sum(auxiliary[i] for i in members), 0
        for index in members:
            label = (weight, min(split - 1, split * running // total if total else 0))
            found.setdefault(label, []).append(index)
            running += auxiliary[index]
    return found


def allocate(
    todo: Sequence[Weighted],
    sample: int,
    auxiliary: Sequence[int] | None = None,
    minimum: int = MINIMUM_PER_STRATUM,
    classes: int = SIZE_CLASSES,
) -> dict[tuple[int, int], int]:
    """How many cubes of each stratum (see ``strata``) a sample of ``sample`` cubes takes.

    In proportion to each stratum's share of the total (w N_h), or with an auxiliary by the
    Neyman allocation w N_h S_h (S_h the auxiliary's spread in the stratum: spread where the
    uncertainty is), in whole cubes adding up to ``sample``; at least ``minimum`` each (which
    may take more than ``sample``) and at most the whole stratum."""
    groups = strata(todo, auxiliary, classes)
    if sample >= len(todo):
        return {label: len(members) for label, members in groups.items()}
    need = {}
    for label, members in groups.items():
        spread = 1.0
        if auxiliary is not None:
            values = [auxiliary[i] for i in members]
            mean = sum(values) / len(values)
            spread = math.sqrt(sum((v - mean) ** 2 for v in values) / max(1, len(values) - 1))
        need[label] = label[0] * len(members) * spread
    # One cube at a time to the stratum whose variance share need^2 (1/n - 1/N) drops most:
    # the Neyman allocation in whole cubes, summing to ``sample``.
    sizes = {label: min(len(members), max(1, minimum)) for label, members in groups.items()}
    heap = [
        (-(need[label] ** 2) / (n * (n + 1)), label) for label, n in sizes.items() if n < len(groups[label])
    ]
    heapq.heapify(heap)
    for _ in range(sample - sum(sizes.values())):
        if not heap:
            break
        _, label = heapq.heappop(heap)
        sizes[label] += 1
        n = sizes[label]
        if n < len(groups[label]):
            heapq.heappush(heap, (-(need[label] ** 2) / (n * (n + 1)), label))
    return sizes


def stratified_sample(
    todo: Sequence[Weighted],
    sample: int,
    rng: Any,
    auxiliary: Sequence[int] | None = None,
    minimum: int = MINIMUM_PER_STRATUM,
    classes: int = SIZE_CLASSES,
) -> list[int]:
    """Indices of a stratified random sample of cubes (see ``allocate``), interleaved across
    the strata so that a run stopped early has some of every stratum."""
    sizes = allocate(todo, sample, auxiliary, minimum, classes)
    picked = [
        rng.sample(members, sizes[label]) for label, members in strata(todo, auxiliary, classes).items()
    ]
    order = []
    for position in range(max(len(p) for p in picked)):
        order += [p[position] for p in picked if position < len(p)]
    return order


def stratified_estimate(
    todo: Sequence[Weighted],
    counts: dict[int, int],
    auxiliary: Sequence[int] | None = None,
    confidence: float = 0.95,
    classes: int = SIZE_CLASSES,
) -> dict[str, Any]:
    """The total estimated from the counted cubes ``counts`` (index -> count): the stratified
    mean, or with ``auxiliary`` (every cube's auxiliary count, by index) the separate ratio
    estimator; its standard error, degrees of freedom and ``confidence`` interval (Student's t).

    A stratum counted completely contributes its exact total and no variance.  No interval
    while a stratum that is not complete has fewer than 2 counted cubes; no estimate while a
    stratum has none."""
    total, variance, df_denominator, complete = 0.0, 0.0, 0.0, True
    for (w, _), members in strata(todo, auxiliary, classes).items():
        counted = [i for i in members if i in counts]
        n, big_n = len(counted), len(members)
        if n == 0:
            return {
                "estimated_count": None,
                "standard_error": None,
                "interval_95": None,
                "degrees_of_freedom": None,
            }
        y = [counts[i] for i in counted]
        if n == big_n:
            total += w * sum(y)
            continue
        if auxiliary is None:
            mean = sum(y) / n
            total += w * big_n * mean
            residuals = [v - mean for v in y]
        else:
            x = [auxiliary[i] for i in counted]
            ratio = sum(y) / sum(x) if sum(x) else 0.0
            total += w * ratio * sum(auxiliary[i] for i in members)
            residuals = [a - ratio * b for a, b in zip(y, x)]
        if n < 2:
            complete = False
            continue
        share = (w * big_n) ** 2 * (1 - n / big_n) / n * sum(r * r for r in residuals) / (n - 1)
        variance += share
        df_denominator += share * share / (n - 1)
    if not complete:
        return {
            "estimated_count": round(total),
            "standard_error": None,
            "interval_95": None,
            "degrees_of_freedom": None,
        }
    error = math.sqrt(variance)
    df = variance * variance / df_denominator if df_denominator else math.inf
    half = student_t_quantile(0.5 + confidence / 2, df) * error if error else 0.0
    return {
        "estimated_count": round(total),
        "standard_error": round(error),
        "interval_95": [round(total - half), round(total + half)],
        "degrees_of_freedom": None if math.isinf(df) else round(df, 2),
    }


def project_cpu(
    todo: Sequence[Weighted],
    seconds: dict[int, float],
    auxiliary: Sequence[int] | None = None,
    classes: int = SIZE_CLASSES,
) -> float | None:
    """The CPU seconds of counting every cube, from the timed cubes ``seconds`` (index -> CPU s,
    each measured by the join the whole count uses): per stratum (see ``strata``), its timed
    cubes' mean cost times its cubes; a stratum with no timed cube at the mean of all timed
    cubes.  Each cube is counted once whatever its orbit size, so the orbit weights do not
    enter.  None without a timed cube.  Checked against the full 12x12 takuzu count's per-cube
    costs in tests/test_binairo_estimate_cost.py."""
    if not seconds:
        return None
    mean_all = sum(seconds.values()) / len(seconds)
    cpu = 0.0
    for members in strata(todo, auxiliary, classes).values():
        timed = [seconds[i] for i in members if i in seconds]
        cpu += len(members) * (sum(timed) / len(timed) if timed else mean_all)
    return cpu


# -- Student's t, without SciPy -----------------------------------------------------------------


def _incomplete_beta(a: float, b: float, x: float) -> float:
    """The regularized incomplete beta function I_x(a, b), by its continued fraction
    (Numerical Recipes, 6.4; modified Lentz)."""
    if x <= 0.0:
        return 0.0
    if x >= 1.0:
        return 1.0
    if x > (a + 1) / (a + b + 2):  # the fraction converges fast on this side only
        return 1.0 - _incomplete_beta(b, a, 1.0 - x)
    front = (
        math.exp(math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b) + a * math.log(x) + b * math.log1p(-x))
        / a
    )
    tiny = 1e-300
    c, d = 1.0, 1.0 - (a + b) * x / (a + 1)
    d = 1.0 / (d if abs(d) > tiny else tiny)
    result = d
    for m in range(1, 500):
        for step in (0, 1):
            if step == 0:
                term = m * (b - m) * x / ((a + 2 * m - 1) * (a + 2 * m))
            else:
                term = -(a + m) * (a + b + m) * x / ((a + 2 * m) * (a + 2 * m + 1))
            d = 1.0 + term * d
            d = 1.0 / (d if abs(d) > tiny else tiny)
            c = 1.0 + term / c
            c = c if abs(c) > tiny else tiny
            result *= c * d
        if abs(c * d - 1.0) < 1e-15:
            break
    return front * result


def student_t_cdf(t: float, df: float) -> float:
    """P(T <= t) for Student's t with ``df`` (> 0, possibly fractional) degrees of freedom."""
    if math.isinf(df):
        return 0.5 * (1 + math.erf(t / math.sqrt(2)))
    tail = 0.5 * _incomplete_beta(df / 2, 0.5, df / (df + t * t))
    return 1 - tail if t > 0 else tail


def student_t_quantile(p: float, df: float) -> float:
    """The t with P(T <= t) = p (0 < p < 1), by bisection on ``student_t_cdf``."""
    if not 0 < p < 1:
        raise ValueError(f"p must lie strictly between 0 and 1, not {p}")
    if p < 0.5:
        return -student_t_quantile(1 - p, df)
    low, high = 0.0, 1.0
    while student_t_cdf(high, df) < p:
        low, high = high, high * 2
    for _ in range(200):
        middle = (low + high) / 2
        if student_t_cdf(middle, df) < p:
            low = middle
        else:
            high = middle
        if high - low < 1e-12 * high:
            break
    return (low + high) / 2


# -- auxiliaries: a size every cube has, known before counting ----------------------------------


def continuations(bits: ArrayLike, cols: int, middle: Sequence[tuple[int, ...]]) -> list[int]:
    """A cheap size for each mitm cube (middle rows a above b): the ways to place the first two
    rows of its top half (above a) times those of its bottom half (below b), without three equal
    cells in a column; neither distinctness rule is looked at.  Its correlation with a cube's
    count is 0.97-0.99 (8x8 and 10x10 takuzu, 12x12 unruly), so it serves the ratio estimator
    where no exact auxiliary is at hand.  Milliseconds for all 12x12 cubes."""
    import numpy as np

    row = np.asarray(bits, dtype=np.int64)
    mask = (1 << cols) - 1
    same = ~(row[:, None] ^ row[None, :]) & mask  # [p, q]: the columns where rows p, q agree
    # follows[p, q, r]: row r may come after q, p (r must differ from q where p and q agree)
    follows = ((row[None, None, :] ^ row[None, :, None]) & same[:, :, None]) == same[:, :, None]
    after = follows.sum(axis=2)  # [p, q]: rows that may follow q, p

    def two_rows(first: int, before: int) -> int:
        return int(after[first][follows[before, first]].sum())

    return [two_rows(a, b) * two_rows(b, a) for a, b in middle]


# -- the auxiliary: a complete count's checkpoint ----------------------------------------------


def read_auxiliary(
    path: str | Path,
    todo: Sequence[Weighted],
    rows: int,
    cols: int,
    auxiliary_cubes: Sequence[Weighted],
    rules: str = "unruly",
) -> list[int]:
    """Every cube's exact count under ``rules``, by the index of ``todo``: read from the
    checkpoint of a complete ``count --size RxC --rules unruly`` run (``auxiliary_cubes``: that
    count's cubes), matched by middle rows.  Errors name what is wrong with the file."""
    path = Path(path)
    try:
        lines = path.read_text().splitlines()
    except OSError as error:
        raise PuzzleError(f"--auxiliary {path}: cannot read it ({error.strerror or error})") from None
    try:
        header = json.loads(lines[0]) if lines else None
    except json.JSONDecodeError:
        header = None
    want = {"rows": rows, "cols": cols, "rules": rules, "method": "mitm", "cubes": len(auxiliary_cubes)}
    if header != want:
        raise PuzzleError(
            f"--auxiliary {path}: not the checkpoint of `count --size {rows}x{cols} "
            f"--rules {rules}` (its first line should be {json.dumps(want)})"
        )
    found: dict[tuple[int, ...], int] = {}
    for number, line in enumerate(lines[1:], start=2):
        try:
            entry = json.loads(line)
            found[tuple(auxiliary_cubes[int(entry["cube"])].rows)] = int(entry["count"])
        except (json.JSONDecodeError, KeyError, TypeError, ValueError, IndexError):
            raise PuzzleError(f"--auxiliary {path}, line {number}: not a cube's count") from None
    missing = [cube.rows for cube in todo if tuple(cube.rows) not in found]
    if missing:
        raise PuzzleError(
            f"--auxiliary {path}: {len(missing)} of the {len(todo)} cubes are not "
            f"counted in it (e.g. middle rows {list(missing[0])}); finish that count "
            "first (run the same command again to resume it)"
        )
    return [found[tuple(cube.rows)] for cube in todo]


def read_sample_log(
    path: str | Path, shape: str, rules: str, join: str | None = None
) -> dict[tuple[int, ...], tuple[int, float | None]]:
    """The cubes an earlier ``--estimate ... --checkpoint LOG`` run counted: middle rows ->
    (count, CPU seconds or None).  A line naming another shape or rule set is an error; lines
    naming neither (earlier sessions' per-cube logs in data/records/) are taken as this count's.
    A missing or empty file holds none; a last line cut short by an interruption is skipped.

    A count is a count whatever join made it, but its CPU seconds are what *that* join cost:
    with ``join`` given, the seconds of a line counted by another join (or by one it does not
    name) are None, so they never stand for this join's cost.  (The 12x12 takuzu estimate once
    projected 82,488 CPU s from cubes joined by codes, 3.7 times the depth-first join's cost of
    the same cubes, where the full count took 23,227.)"""
    path = Path(path)
    if not path.exists():
        return {}
    try:
        lines = path.read_text().splitlines()
    except OSError as error:
        raise PuzzleError(f"--checkpoint {path}: cannot read it ({error.strerror or error})") from None
    found: dict[tuple[int, ...], tuple[int, float | None]] = {}
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            entry = json.loads(line)
            rows = tuple(int(r) for r in entry["middle_rows"])
            count = int(entry["count"])
            spent = entry.get("cpu_seconds")
        except (json.JSONDecodeError, KeyError, TypeError, ValueError, AttributeError):
            if number == len(lines):
                break  # cut short by an interruption: that cube is counted again
            raise PuzzleError(
                f"--checkpoint {path}, line {number}: not a sampled cube's record (an --estimate log)"
            ) from None
        other = (entry.get("shape", shape), entry.get("rules", rules))
        if other != (shape, rules):
            raise PuzzleError(
                f"--checkpoint {path}, line {number}: a cube of a {other[0]} "
                f"{other[1]} count, not of this {shape} {rules} count"
            )
        if join is not None and entry.get("join") != join:
            spent = None
        found[rows] = (count, None if spent is None else float(spent))
    return found
