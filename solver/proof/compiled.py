"""The DRAT checker of :mod:`.checker`, compiled with numba, for large proofs.

Two modes.  Backward (the default; drat-trim's, see :mod:`.checker`): the
steps applied unchecked up to the refutation (:func:`add_steps`), the final
conflict's clauses marked (:func:`mark_final`), then the proof walked back
(:func:`check_back`), checking the marked lemmas only, with full derivations
(reasons down to the start of the trail: top-level reasons change as lemmas
are taken away, so nothing is left to resolve later) and propagation that
tries the marked clauses first (:func:`_propagate_core_first`).

Forward (``mode="forward"``): the same check as the Python checker's:
clauses normalised the same way, every lemma checked in proof
order (RUP, then RAT on each of its literals in turn), deletions honoured,
ignored (units, clauses unit at top level) or missing by the same rules, the
top-level refutation ("unit propagation") found at the same step, the same
derivation records (core marking, LRAT out through the Python checker's LRAT
writer).  Verdicts, reasons and counts are the Python checker's; tests/
test_proof_compiled.py and benchmarks/proof_differential.py hold it to them and
to the reference checker.  Unit propagation visits clauses in another order
(blocking literals; a deleted clause leaves its watch lists at once), so the
core it reports and the LRAT hints it writes may differ from the Python
checker's (both are checked: the LRAT by our LRAT checker).

Everything lives in flat arrays.  Literals are indices ``2*var + (lit < 0)``
(so ``x ^ 1`` is the negation).  Clauses (the formula's, then each added
lemma's, by id) share one int32 arena, normalised once before the check, each
preceded by a header (id, length, alive).  The watch list and the implication
list of each literal get their final capacity before the check (a clause is
in at most two watch lists, once in each; binary clauses are never moved), so
nothing is reallocated during propagation; the derivation records grow as
needed.

The check runs in chunks of :data:`.checker.PROGRESS_EVERY` proof steps,
returning to Python between chunks for the time limit and the progress bar.

Imported only for large proofs (:data:`.check.COMPILED_FROM_LITERALS`,
:data:`.formats.COMPILED_PARSE_FROM_BYTES`): importing numba and loading the
cached machine code costs a process ~0.4 s.  The first call on a machine
compiles (~15 s CPU, once: ``cache=True`` keeps the code in ``__pycache__``).
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from itertools import chain

import numpy as np
from numba import njit

from .checker import PROGRESS_EVERY, CheckResult, OnProgress, Refutation, _DratChecker, _show, normalised
from .formats import CNF, DratSteps, Proof

# Rows of the per-literal state (``lits`` array) and of the per-clause state.
VAL, REASON, W_START, W_LEN, I_START, I_LEN, MARK, PEND = range(8)
C_START, C_LEN, C_ALIVE, C_TAUT = range(4)
# Each clause in the arena is preceded by its id, where the last search for a new watch
# stopped (the next one starts there: the false literals it passed are not read again),
# its length and whether it is alive (also kept in ``cls``, by id): a watch holds where
# the clause's literals start, so propagation reads one place of memory per clause.
HEADER = 4
# Scalars.
(
    HEAD,
    TRAIL_LEN,
    CONFLICT,
    N_CLAUSES,
    FIRST_LEMMA,
    LEMMA_INDEX,
    CHECKED,
    RAT_LEMMAS,
    IGNORED,
    MISSING,
    N_IDS,
    N_LITS,
    N_DELETIONS,
    STATUS,
    STATUS_STEP,
    N_GROUPS,
    STAMP,
    REFUTATION,
    FINAL_IDS,
    FINAL_IDS_END,
    FINAL_LITS,
    FINAL_LITS_END,
    BACK_LEMMA,
    BACK_DELETION,
    N_SCALARS,
) = range(25)
# STATUS
RUNNING, VERIFIED, REJECTED, NO_REFUTATION = range(4)
# REFUTATION
BY_EMPTY_CLAUSE, BY_UNIT_PROPAGATION = 1, 2
GROUP_FIELDS = 6  # lemma index, candidate, ids start, ids end, lits start, lits end
# Rows of ``d_bounds``: where each lemma's derivation lies in ``d_ids`` and ``d_lits``.
IDS_FROM, IDS_TO, LITS_FROM, LITS_TO = range(4)


def _index(lits: np.ndarray) -> np.ndarray:
    return np.where(lits < 0, -2 * lits + 1, 2 * lits)


@njit(cache=True)
def _grow(array, need):
    if need <= array.shape[0]:
        return array
    bigger = np.empty(max(need, 2 * array.shape[0]), array.dtype)
    bigger[: array.shape[0]] = array
    return bigger


@njit(cache=True)
def _normalise(source, start, end, lits, sc, out, out_at):
    """Write the clause ``source[start:end]`` (literal indices) into ``out`` from
    ``out_at``, repeats dropped (first occurrences kept); its length, or -1 for a
    tautology (``out`` then holds the literals up to the clash)."""
    sc[STAMP] += 1
    stamp = sc[STAMP]
    n = 0
    for k in range(start, end):
        lit = source[k]
        if lits[MARK, lit] == stamp:
            continue
        if lits[MARK, lit ^ 1] == stamp:
            return -1
        lits[MARK, lit] = stamp
        out[out_at + n] = lit
        n += 1
    return n


@njit(cache=True)
def prepare(f_lits, f_starts, p_lits, p_starts, p_deleted, size):
    """The clause arena (the formula's clauses, then the proof's added lemmas,
    normalised), the per-clause and per-literal state with the watch and
    implication lists' capacities, and the scalars."""
    n_formula = f_starts.shape[0] - 1
    n_steps = p_starts.shape[0] - 1
    n_lemmas = 0
    for s in range(n_steps):
        if not p_deleted[s]:
            n_lemmas += 1
    n_clauses = n_formula + n_lemmas
    lits = np.zeros((8, size), np.int64)
    lits[REASON, :] = -1
    sc = np.zeros(N_SCALARS, np.int64)
    sc[CONFLICT] = -1
    sc[FIRST_LEMMA] = n_formula
    cls = np.zeros((n_clauses, 4), np.int64)
    arena = np.empty(f_lits.shape[0] + p_lits.shape[0] + HEADER * n_clauses, np.int32)
    at = 0
    cid = 0
    for c in range(n_formula):
        arena[at] = cid
        at += HEADER
        n = _normalise(f_lits, f_starts[c], f_starts[c + 1], lits, sc, arena, at)
        cls[cid, C_START] = at
        if n < 0:  # a tautology: kept as read, for its id
            n = f_starts[c + 1] - f_starts[c]
            arena[at : at + n] = f_lits[f_starts[c] : f_starts[c + 1]]
            cls[cid, C_LEN] = n
            cls[cid, C_TAUT] = 1
        else:
            cls[cid, C_LEN] = n
        arena[at - 3] = 2
        arena[at - 2] = n
        arena[at - 1] = 0
        at += n
        cid += 1
    for s in range(n_steps):
        if p_deleted[s]:
            continue
        arena[at] = cid
        at += HEADER
        n = _normalise(p_lits, p_starts[s], p_starts[s + 1], lits, sc, arena, at)
        cls[cid, C_START] = at
        if n < 0:
            n = p_starts[s + 1] - p_starts[s]
            arena[at : at + n] = p_lits[p_starts[s] : p_starts[s + 1]]
            cls[cid, C_LEN] = n
            cls[cid, C_TAUT] = 1
        else:
            cls[cid, C_LEN] = n
        arena[at - 3] = 2
        arena[at - 2] = n
        arena[at - 1] = 0
        at += n
        cid += 1
    # capacities: watches[lit] holds clauses of 3+ literals that contain lit;
    # implied[lit] holds (other, id) for each binary clause (-lit, other)
    for c in range(n_clauses):
        if cls[c, C_TAUT]:
            continue
        n = cls[c, C_LEN]
        start = cls[c, C_START]
        if n == 2:
            lits[I_LEN, arena[start] ^ 1] += 1
            lits[I_LEN, arena[start + 1] ^ 1] += 1
        elif n > 2:
            for k in range(start, start + n):
                lits[W_LEN, arena[k]] += 1
    w_total = 0
    i_total = 0
    for lit in range(size):
        lits[W_START, lit] = w_total
        w_total += lits[W_LEN, lit]
        lits[W_LEN, lit] = 0
        lits[I_START, lit] = i_total
        i_total += lits[I_LEN, lit]
        lits[I_LEN, lit] = 0
    for c in range(n_formula):  # tautologies are never alive; lemmas come alive when added
        cls[c, C_ALIVE] = 1 - cls[c, C_TAUT]
        arena[cls[c, C_START] - 1] = cls[c, C_ALIVE]
    w_pool = np.empty((max(w_total, 1), 2), np.int32)  # clauses (arena offsets), blocking literals
    i_pool = np.empty((2, max(i_total, 1)), np.int64)
    return sc, lits, cls, arena[:at].copy(), w_pool, i_pool


@njit(cache=True)
def _assign(lit, cid, lits, trail, sc):
    lits[VAL, lit] = 1
    lits[REASON, lit] = cid
    trail[sc[TRAIL_LEN]] = lit
    sc[TRAIL_LEN] += 1


@njit(cache=True)
def _watch(cid, lits, cls, arena, w_pool, i_pool):
    start = cls[cid, C_START]
    a = arena[start]
    b = arena[start + 1]
    if arena[start - 2] == 2:
        at = lits[I_START, a ^ 1] + lits[I_LEN, a ^ 1]
        i_pool[0, at] = b
        i_pool[1, at] = cid
        lits[I_LEN, a ^ 1] += 1
        at = lits[I_START, b ^ 1] + lits[I_LEN, b ^ 1]
        i_pool[0, at] = a
        i_pool[1, at] = cid
        lits[I_LEN, b ^ 1] += 1
    else:
        at = lits[W_START, a] + lits[W_LEN, a]
        w_pool[at, 0] = start
        w_pool[at, 1] = b
        lits[W_LEN, a] += 1
        at = lits[W_START, b] + lits[W_LEN, b]
        w_pool[at, 0] = start
        w_pool[at, 1] = a
        lits[W_LEN, b] += 1


@njit(cache=True)
def _propagate(sc, lits, trail, cls, arena, w_pool, i_pool):
    """Unit propagation from the head of the trail: a falsified clause's id, or -1."""
    val = lits[VAL]
    reason = lits[REASON]
    i = sc[HEAD]
    size = sc[TRAIL_LEN]  # kept here while propagating, stored back on return
    conflict = -1
    while i < size and conflict < 0:
        true_lit = trail[i]
        i += 1
        start = lits[I_START, true_lit]
        for e in range(start, start + lits[I_LEN, true_lit]):
            other = i_pool[0, e]
            if val[other]:
                continue
            cid = i_pool[1, e]
            if not cls[cid, C_ALIVE]:
                continue
            if val[other ^ 1]:
                conflict = cid
                break
            val[other] = 1
            reason[other] = cid
            trail[size] = other
            size += 1
        if conflict >= 0:
            break
        false_lit = true_lit ^ 1
        ws = lits[W_START, false_lit]
        n = lits[W_LEN, false_lit]
        j = 0
        k = 0
        while j < n:
            c = w_pool[ws + j, 0]  # where the clause's literals start in the arena
            blocker = w_pool[ws + j, 1]
            j += 1
            if val[blocker]:  # satisfied: the clause itself is not read
                w_pool[ws + k, 0] = c
                w_pool[ws + k, 1] = blocker
                k += 1
                continue
            if not arena[c - 1]:  # deleted: unwatched now
                continue
            if arena[c] == false_lit:
                arena[c] = arena[c + 1]
                arena[c + 1] = false_lit
            first = arena[c]
            if val[first]:
                w_pool[ws + k, 0] = c
                w_pool[ws + k, 1] = first
                k += 1
                continue
            moved = False
            length = arena[c - 2]
            last = arena[c - 3]
            for q in range(length - 2):  # from where the last search stopped, round
                p = last + q
                if p >= length:
                    p -= length - 2
                lit = arena[c + p]
                if not val[lit ^ 1]:
                    arena[c + 1] = lit
                    arena[c + p] = false_lit
                    arena[c - 3] = p
                    at = lits[W_START, lit] + lits[W_LEN, lit]
                    w_pool[at, 0] = c
                    w_pool[at, 1] = first
                    lits[W_LEN, lit] += 1
                    moved = True
                    break
            if moved:
                continue
            w_pool[ws + k, 0] = c
            w_pool[ws + k, 1] = first
            k += 1
            if val[first ^ 1]:
                while j < n:
                    w_pool[ws + k, 0] = w_pool[ws + j, 0]
                    w_pool[ws + k, 1] = w_pool[ws + j, 1]
                    k += 1
                    j += 1
                conflict = arena[c - HEADER]
                break
            val[first] = 1
            reason[first] = arena[c - HEADER]
            trail[size] = first
            size += 1
        lits[W_LEN, false_lit] = k
    sc[HEAD] = i
    sc[TRAIL_LEN] = size
    return conflict


@njit(cache=True)
def _visit(true_lit, core, size, lits, trail, arena, cls, w_pool, i_pool, marked):
    """Propagate one true literal over the marked clauses (``core`` 1) or over the
    others (0): (a falsified clause's id or -1, the trail's new length)."""
    val = lits[VAL]
    reason = lits[REASON]
    start = lits[I_START, true_lit]
    for e in range(start, start + lits[I_LEN, true_lit]):
        other = i_pool[0, e]
        if val[other]:
            continue
        cid = i_pool[1, e]
        if not cls[cid, C_ALIVE] or marked[cid] != core:
            continue
        if val[other ^ 1]:
            return cid, size
        val[other] = 1
        reason[other] = cid
        trail[size] = other
        size += 1
    false_lit = true_lit ^ 1
    ws = lits[W_START, false_lit]
    n = lits[W_LEN, false_lit]
    j = 0
    k = 0
    conflict = -1
    while j < n:
        c = w_pool[ws + j, 0]
        blocker = w_pool[ws + j, 1]
        j += 1
        if val[blocker]:
            w_pool[ws + k, 0] = c
            w_pool[ws + k, 1] = blocker
            k += 1
            continue
        state = arena[c - 1]  # 0 deleted, 1 alive, 2 alive and marked
        if not state:
            continue
        if (state == 2) != (core == 1):  # the other pass's
            w_pool[ws + k, 0] = c
            w_pool[ws + k, 1] = blocker
            k += 1
            continue
        if arena[c] == false_lit:
            arena[c] = arena[c + 1]
            arena[c + 1] = false_lit
        first = arena[c]
        if val[first]:
            w_pool[ws + k, 0] = c
            w_pool[ws + k, 1] = first
            k += 1
            continue
        moved = False
        length = arena[c - 2]
        last = arena[c - 3]
        for q in range(length - 2):
            p = last + q
            if p >= length:
                p -= length - 2
            lit = arena[c + p]
            if not val[lit ^ 1]:
                arena[c + 1] = lit
                arena[c + p] = false_lit
                arena[c - 3] = p
                at = lits[W_START, lit] + lits[W_LEN, lit]
                w_pool[at, 0] = c
                w_pool[at, 1] = first
                lits[W_LEN, lit] += 1
                moved = True
                break
        if moved:
            continue
        w_pool[ws + k, 0] = c
        w_pool[ws + k, 1] = first
        k += 1
        if val[first ^ 1]:
            while j < n:
                w_pool[ws + k, 0] = w_pool[ws + j, 0]
                w_pool[ws + k, 1] = w_pool[ws + j, 1]
                k += 1
                j += 1
            conflict = arena[c - HEADER]
            break
        val[first] = 1
        reason[first] = arena[c - HEADER]
        trail[size] = first
        size += 1
    lits[W_LEN, false_lit] = k
    return conflict, size


@njit(cache=True)
def _propagate_core_first(sc, lits, trail, cls, arena, w_pool, i_pool, marked):
    """Unit propagation as :func:`_propagate`, drat-trim's "core first": the marked
    clauses (those the refutation is known to use) propagate every literal before
    any other clause propagates one, so conflicts use them where they can and
    fewer new lemmas get marked (and checked)."""
    size = sc[TRAIL_LEN]
    core_head = sc[HEAD]
    other_head = sc[HEAD]
    conflict = -1
    while conflict < 0:
        if core_head < size:
            conflict, size = _visit(
                trail[core_head], 1, size, lits, trail, arena, cls, w_pool, i_pool, marked
            )
            core_head += 1
        elif other_head < size:
            conflict, size = _visit(
                trail[other_head], 0, size, lits, trail, arena, cls, w_pool, i_pool, marked
            )
            other_head += 1
        else:
            break
    sc[HEAD] = other_head
    sc[TRAIL_LEN] = size
    return conflict


@njit(cache=True)
def _backtrack(length, sc, lits, trail):
    for k in range(length, sc[TRAIL_LEN]):
        lit = trail[k]
        lits[VAL, lit] = 0
        lits[REASON, lit] = -1
    sc[TRAIL_LEN] = length
    sc[HEAD] = length


@njit(cache=True)
def load(sc, lits, trail, cls, arena, w_pool, i_pool, units):
    """The formula's clauses: watched, then the units assigned, then propagated."""
    n_units = 0
    for cid in range(sc[FIRST_LEMMA]):
        if not cls[cid, C_ALIVE]:
            continue
        n = cls[cid, C_LEN]
        if n >= 2:
            _watch(cid, lits, cls, arena, w_pool, i_pool)
        elif n == 1:
            units[n_units] = cid
            n_units += 1
        elif sc[CONFLICT] < 0:
            sc[CONFLICT] = cid
    for u in range(n_units):
        cid = units[u]
        lit = arena[cls[cid, C_START]]
        if lits[VAL, lit ^ 1]:
            if sc[CONFLICT] < 0:
                sc[CONFLICT] = cid
        elif not lits[VAL, lit]:
            _assign(lit, cid, lits, trail, sc)
    if sc[CONFLICT] < 0:
        sc[CONFLICT] = _propagate(sc, lits, trail, cls, arena, w_pool, i_pool)
    sc[N_CLAUSES] = sc[FIRST_LEMMA]


@njit(cache=True)
def _explain(pending, n_pend, position, stop, sc, lits, trail, cls, arena, d_ids, pend_list):
    """Walk the trail back from ``position`` to ``stop``: each pending literal met
    (``pend_list[:n_pend]``, ``pending`` of them still flagged) gives its reason's
    id to ``d_ids`` and makes the reason's other literals pending.  Flags of the
    literals not met stay set (the caller reads and clears them)."""
    while pending and position >= stop:
        lit = trail[position]
        position -= 1
        if lits[PEND, lit]:
            lits[PEND, lit] = 0
            pending -= 1
            r = lits[REASON, lit]
            if r >= 0:
                d_ids = _grow(d_ids, sc[N_IDS] + 1)
                d_ids[sc[N_IDS]] = r
                sc[N_IDS] += 1
                c = cls[r, C_START]
                for p in range(c, c + cls[r, C_LEN]):
                    other = arena[p]
                    if other != lit and not lits[PEND, other ^ 1]:
                        lits[PEND, other ^ 1] = 1
                        pend_list = _grow(pend_list, n_pend + 1)
                        pend_list[n_pend] = other ^ 1
                        n_pend += 1
                        pending += 1
    return d_ids, pend_list, n_pend


@njit(cache=True)
def _rup(
    assumed, n_assumed, sc, lits, trail, cls, arena, w_pool, i_pool, d_ids, d_lits, pend_list, full, marked
):
    """Whether the clause ``assumed[:n_assumed]`` is RUP; if so its derivation (the
    clause ids: the conflict, then the reasons walking the trail back; then the
    top-level literals reached) is appended to ``d_ids`` / ``d_lits``.

    ``full`` (backward checking): the walk goes on through the top-level
    literals to the start of the trail, so the ids hold every clause the
    conflict needs and no top-level literal is left (top-level reasons change
    as lemmas are taken away, so they are recorded now)."""
    mark = sc[TRAIL_LEN]
    for k in range(n_assumed):
        lit = assumed[k]
        if lits[VAL, lit]:  # true at top level: its negation clashes at once
            _backtrack(mark, sc, lits, trail)
            if full:  # the reason of lit is the conflict; then its antecedents
                lits[PEND, lit] = 1
                pend_list[0] = lit
                d_ids, pend_list, n_pend = _explain(
                    1, 1, sc[TRAIL_LEN] - 1, 0, sc, lits, trail, cls, arena, d_ids, pend_list
                )
                for q in range(n_pend):
                    lits[PEND, pend_list[q]] = 0
                return True, d_ids, d_lits
            d_lits = _grow(d_lits, sc[N_LITS] + 1)
            d_lits[sc[N_LITS]] = lit
            sc[N_LITS] += 1
            return True, d_ids, d_lits
        if not lits[VAL, lit ^ 1]:
            _assign(lit ^ 1, -1, lits, trail, sc)
    if full:
        conflict = _propagate_core_first(sc, lits, trail, cls, arena, w_pool, i_pool, marked)
    else:
        conflict = _propagate(sc, lits, trail, cls, arena, w_pool, i_pool)
    if conflict < 0:
        _backtrack(mark, sc, lits, trail)
        return False, d_ids, d_lits
    d_ids = _grow(d_ids, sc[N_IDS] + 1)
    d_ids[sc[N_IDS]] = conflict
    sc[N_IDS] += 1
    pending = 0
    n_pend = 0
    c = cls[conflict, C_START]
    for p in range(c, c + cls[conflict, C_LEN]):
        lit = arena[p] ^ 1
        if not lits[PEND, lit]:
            lits[PEND, lit] = 1
            pend_list[n_pend] = lit
            n_pend += 1
            pending += 1
    d_ids, pend_list, n_pend = _explain(
        pending, n_pend, sc[TRAIL_LEN] - 1, 0 if full else mark, sc, lits, trail, cls, arena, d_ids, pend_list
    )
    for k in range(n_pend):
        lit = pend_list[k]
        if lits[PEND, lit]:
            lits[PEND, lit] = 0
            d_lits = _grow(d_lits, sc[N_LITS] + 1)
            d_lits[sc[N_LITS]] = lit
            sc[N_LITS] += 1
    _backtrack(mark, sc, lits, trail)
    return True, d_ids, d_lits


@njit(cache=True)
def _rat(
    cid, sc, lits, trail, cls, arena, w_pool, i_pool, d_ids, d_lits, groups, pend_list, assumed, full, marked
):
    """RAT on each literal of lemma ``cid`` in turn: the pivot it holds on (its index), or -1."""
    lemma_start = cls[cid, C_START]
    size = cls[cid, C_LEN]
    lemma_index = cid - sc[FIRST_LEMMA]
    for q in range(size):
        pivot = arena[lemma_start + q]
        ids_mark, lits_mark, groups_mark = sc[N_IDS], sc[N_LITS], sc[N_GROUPS]
        holds = True
        for cand in range(sc[N_CLAUSES]):
            if not cls[cand, C_ALIVE]:
                continue
            c = cls[cand, C_START]
            n = cls[cand, C_LEN]
            found = False
            for p in range(c, c + n):
                if arena[p] == pivot ^ 1:
                    found = True
                    break
            if not found:
                continue
            groups = _grow(groups, (sc[N_GROUPS] + 1) * GROUP_FIELDS)
            g = sc[N_GROUPS] * GROUP_FIELDS
            sc[N_GROUPS] += 1
            groups[g] = lemma_index
            groups[g + 1] = cand
            d_ids = _grow(d_ids, sc[N_IDS] + 1)
            d_ids[sc[N_IDS]] = cand
            sc[N_IDS] += 1
            groups[g + 2] = sc[N_IDS]
            groups[g + 4] = sc[N_LITS]
            # the lemma's literals are marked (re-marked per candidate: rup uses no marks)
            sc[STAMP] += 1
            stamp = sc[STAMP]
            for p in range(lemma_start, lemma_start + size):
                lits[MARK, arena[p]] = stamp
            tautology = False
            n_assumed = size
            for p in range(size):
                assumed[p] = arena[lemma_start + p]
            for p in range(c, c + n):
                lit = arena[p]
                if lit == pivot ^ 1:
                    continue
                if lits[MARK, lit ^ 1] == stamp:
                    tautology = True
                    break
                if lits[MARK, lit] != stamp:
                    assumed[n_assumed] = lit
                    n_assumed += 1
            if not tautology:
                ok, d_ids, d_lits = _rup(
                    assumed,
                    n_assumed,
                    sc,
                    lits,
                    trail,
                    cls,
                    arena,
                    w_pool,
                    i_pool,
                    d_ids,
                    d_lits,
                    pend_list,
                    full,
                    marked,
                )
                if not ok:
                    holds = False
                    break
            groups[g + 3] = sc[N_IDS]
            groups[g + 5] = sc[N_LITS]
        if holds:
            return q, d_ids, d_lits, groups
        sc[N_IDS], sc[N_LITS], sc[N_GROUPS] = ids_mark, lits_mark, groups_mark
    return -1, d_ids, d_lits, groups


@njit(cache=True)
def _add(cid, sc, lits, trail, cls, arena, w_pool, i_pool):
    """Lemma ``cid`` joins the database: watched, and what it makes unit propagated."""
    cls[cid, C_ALIVE] = 1
    arena[cls[cid, C_START] - 1] = 1
    sc[N_CLAUSES] = cid + 1
    if sc[CONFLICT] >= 0:
        return
    c = cls[cid, C_START]
    n = cls[cid, C_LEN]
    for p in range(c, c + n):
        if lits[VAL, arena[p]]:  # satisfied at top level for good
            if n >= 2:
                _watch(cid, lits, cls, arena, w_pool, i_pool)
            return
    # unassigned literals first, false ones last (a stable partition, as Python's sort)
    free = 0
    for p in range(c, c + n):
        if not lits[VAL, arena[p] ^ 1]:
            free += 1
    if free < n:
        tmp = arena[c : c + n].copy()
        a = c
        b = c + free
        for lit in tmp:
            if lits[VAL, lit ^ 1]:
                arena[b] = lit
                b += 1
            else:
                arena[a] = lit
                a += 1
    if n == 0 or lits[VAL, arena[c] ^ 1]:
        sc[CONFLICT] = cid
        return
    if n >= 2:
        _watch(cid, lits, cls, arena, w_pool, i_pool)
    if n == 1 or lits[VAL, arena[c + 1] ^ 1]:
        _assign(arena[c], cid, lits, trail, sc)
        sc[CONFLICT] = _propagate(sc, lits, trail, cls, arena, w_pool, i_pool)


@njit(cache=True)
def _delete(step, sc, lits, cls, arena, w_pool, i_pool, p_lits, p_starts, scratch, deletions):
    """A deletion step: 0 deleted, 1 ignored (a unit, or unit at top level), 2 missing."""
    n = _normalise(p_lits, p_starts[step], p_starts[step + 1], lits, sc, scratch, 0)
    if n < 0:
        return 2
    if n <= 1:
        return 1
    stamp = sc[STAMP]  # the deleted clause's literals carry it
    found = -1
    if n == 2:
        a = scratch[0]
        b = scratch[1]
        start = lits[I_START, a ^ 1]
        for e in range(start, start + lits[I_LEN, a ^ 1]):
            if i_pool[0, e] == b and cls[i_pool[1, e], C_ALIVE]:
                found = i_pool[1, e]
                break
    else:
        for q in range(n):
            lit = scratch[q]
            ws = lits[W_START, lit]
            for e in range(ws, ws + lits[W_LEN, lit]):
                c = w_pool[e, 0]
                cid = arena[c - HEADER]
                if not cls[cid, C_ALIVE] or cls[cid, C_LEN] != n:
                    continue
                same = True
                for p in range(c, c + n):
                    if lits[MARK, arena[p]] != stamp:
                        same = False
                        break
                if same:
                    found = cid
                    break
            if found >= 0:
                break
    if found < 0:
        return 2
    true_count = 0
    open_count = 0
    for q in range(n):
        lit = scratch[q]
        if lits[VAL, lit]:
            true_count += 1
        elif not lits[VAL, lit ^ 1]:
            open_count += 1
    if true_count == 1 and open_count == 0:
        return 1  # unit at top level: maybe the reason for its true literal
    cls[found, C_ALIVE] = 0
    c = cls[found, C_START]
    arena[c - 1] = 0
    if n > 2:  # out of its two watch lists now (binary clauses are skipped when met)
        for w in range(2):
            lit = arena[c + w]
            ws = lits[W_START, lit]
            last = ws + lits[W_LEN, lit] - 1
            for e in range(ws, last + 1):
                if w_pool[e, 0] == c:
                    w_pool[e, 0] = w_pool[last, 0]
                    w_pool[e, 1] = w_pool[last, 1]
                    lits[W_LEN, lit] -= 1
                    break
    deletions[0, sc[N_DELETIONS]] = found
    deletions[1, sc[N_DELETIONS]] = sc[LEMMA_INDEX]
    sc[N_DELETIONS] += 1
    return 0


@njit(cache=True)
def run_steps(
    first_step,
    last_step,
    sc,
    lits,
    trail,
    cls,
    arena,
    w_pool,
    i_pool,
    p_lits,
    p_starts,
    p_deleted,
    d_ids,
    d_lits,
    d_bounds,
    d_pivot,
    groups,
    deletions,
    pend_list,
    scratch,
):
    """Proof steps ``first_step`` to ``last_step`` (from 0); stops early at a verdict
    (``sc[STATUS]``, at step ``sc[STATUS_STEP]``).  Returns the grown records."""
    no_marks = np.zeros(1, np.uint8)  # forward checking marks nothing: one propagation, all clauses
    for step in range(first_step, last_step):
        if sc[CONFLICT] >= 0:
            sc[STATUS] = VERIFIED
            sc[STATUS_STEP] = step
            sc[REFUTATION] = BY_UNIT_PROPAGATION
            return d_ids, d_lits, groups, pend_list
        if p_deleted[step]:
            outcome = _delete(
                step, sc, lits, cls, arena, w_pool, i_pool, p_lits, p_starts, scratch, deletions
            )
            if outcome == 1:
                sc[IGNORED] += 1
            elif outcome == 2:
                sc[MISSING] += 1
            continue
        index = sc[LEMMA_INDEX]
        cid = sc[FIRST_LEMMA] + index
        d_bounds[IDS_FROM, index] = sc[N_IDS]
        d_bounds[LITS_FROM, index] = sc[N_LITS]
        d_pivot[index] = -1
        if cls[cid, C_TAUT]:  # true, nothing to check; kept for its id
            sc[CHECKED] += 1
            sc[N_CLAUSES] = cid + 1
            sc[LEMMA_INDEX] += 1
            d_bounds[IDS_TO, index] = sc[N_IDS]
            d_bounds[LITS_TO, index] = sc[N_LITS]
            continue
        c = cls[cid, C_START]
        n = cls[cid, C_LEN]
        ok, d_ids, d_lits = _rup(
            arena[c : c + n],
            n,
            sc,
            lits,
            trail,
            cls,
            arena,
            w_pool,
            i_pool,
            d_ids,
            d_lits,
            pend_list,
            False,
            no_marks,
        )
        if not ok:
            pivot = -1
            if n > 0:
                pivot, d_ids, d_lits, groups = _rat(
                    cid,
                    sc,
                    lits,
                    trail,
                    cls,
                    arena,
                    w_pool,
                    i_pool,
                    d_ids,
                    d_lits,
                    groups,
                    pend_list,
                    scratch,
                    False,
                    no_marks,
                )
            if pivot < 0:
                sc[STATUS] = REJECTED
                sc[STATUS_STEP] = step
                return d_ids, d_lits, groups, pend_list
            sc[RAT_LEMMAS] += 1
            d_pivot[index] = arena[c + pivot]
        sc[CHECKED] += 1
        sc[LEMMA_INDEX] += 1
        d_bounds[IDS_TO, index] = sc[N_IDS]
        d_bounds[LITS_TO, index] = sc[N_LITS]
        if n == 0:
            sc[STATUS] = VERIFIED
            sc[STATUS_STEP] = step
            sc[REFUTATION] = BY_EMPTY_CLAUSE
            sc[FINAL_IDS], sc[FINAL_IDS_END] = d_bounds[IDS_FROM, index], sc[N_IDS]
            sc[FINAL_LITS], sc[FINAL_LITS_END] = d_bounds[LITS_FROM, index], sc[N_LITS]
            return d_ids, d_lits, groups, pend_list
        _add(cid, sc, lits, trail, cls, arena, w_pool, i_pool)
    return d_ids, d_lits, groups, pend_list


# ---------------------------------------------------------------------------
# Backward checking (drat-trim's): add every lemma unchecked up to the
# refutation, then walk back, checking only the lemmas the refutation uses
# ---------------------------------------------------------------------------
@njit(cache=True)
def add_steps(
    first_step,
    last_step,
    sc,
    lits,
    trail,
    cls,
    arena,
    w_pool,
    i_pool,
    p_lits,
    p_starts,
    p_deleted,
    deletions,
    scratch,
    trail_at,
    outcomes,
):
    """The forward pass: proof steps ``first_step`` to ``last_step`` applied without
    checks (lemmas added and propagated, deletions as :func:`_delete` decides), up
    to a top-level conflict (``sc[STATUS]`` VERIFIED at ``sc[STATUS_STEP]``: the
    steps before it are the ones to walk back).  An empty lemma before it is no
    RUP (propagation is complete and meets no conflict): REJECTED there."""
    for step in range(first_step, last_step):
        if sc[CONFLICT] >= 0:
            sc[STATUS] = VERIFIED
            sc[STATUS_STEP] = step
            sc[REFUTATION] = BY_UNIT_PROPAGATION
            return
        if p_deleted[step]:
            outcome = _delete(
                step, sc, lits, cls, arena, w_pool, i_pool, p_lits, p_starts, scratch, deletions
            )
            outcomes[step] = outcome
            if outcome == 1:
                sc[IGNORED] += 1
            elif outcome == 2:
                sc[MISSING] += 1
            continue
        index = sc[LEMMA_INDEX]
        cid = sc[FIRST_LEMMA] + index
        trail_at[index] = sc[TRAIL_LEN]
        if cls[cid, C_TAUT]:  # true, nothing to check; kept for its id
            sc[N_CLAUSES] = cid + 1
            sc[LEMMA_INDEX] += 1
            continue
        if cls[cid, C_LEN] == 0:
            sc[STATUS] = REJECTED
            sc[STATUS_STEP] = step
            return
        sc[LEMMA_INDEX] += 1
        _add(cid, sc, lits, trail, cls, arena, w_pool, i_pool)


@njit(cache=True)
def _mark(cid, marked, cls, arena):
    """Clause ``cid`` is used by the refutation: a lemma to check; a clause that
    propagates first (its arena state 2, see :func:`_propagate_core_first`)."""
    marked[cid] = 1
    if cls[cid, C_ALIVE] and cls[cid, C_LEN] > 2:
        arena[cls[cid, C_START] - 1] = 2


@njit(cache=True)
def mark_final(sc, lits, trail, cls, arena, d_ids, pend_list, marked):
    """The top-level conflict's derivation (the falsified clause, then every reason
    it needs, down the whole trail) as the refutation's, its clauses marked."""
    conflict = sc[CONFLICT]
    d_ids = _grow(d_ids, sc[N_IDS] + 1)
    sc[FINAL_IDS] = sc[N_IDS]
    d_ids[sc[N_IDS]] = conflict
    sc[N_IDS] += 1
    n_pend = 0
    c = cls[conflict, C_START]
    for p in range(c, c + cls[conflict, C_LEN]):
        lit = arena[p] ^ 1
        if not lits[PEND, lit]:
            lits[PEND, lit] = 1
            pend_list[n_pend] = lit
            n_pend += 1
    d_ids, pend_list, n_pend = _explain(
        n_pend, n_pend, sc[TRAIL_LEN] - 1, 0, sc, lits, trail, cls, arena, d_ids, pend_list
    )
    for q in range(n_pend):
        lits[PEND, pend_list[q]] = 0
    sc[FINAL_IDS_END] = sc[N_IDS]
    sc[FINAL_LITS] = sc[N_LITS]
    sc[FINAL_LITS_END] = sc[N_LITS]
    for k in range(sc[FINAL_IDS], sc[FINAL_IDS_END]):
        _mark(d_ids[k], marked, cls, arena)
    sc[BACK_LEMMA] = sc[LEMMA_INDEX]
    sc[BACK_DELETION] = sc[N_DELETIONS]
    return d_ids


@njit(cache=True)
def _revive(cid, lits, cls, arena, w_pool, i_pool, marked):
    """Undo the deletion of clause ``cid``.  The assignment is the one it was deleted
    under, when it was not unit at top level (else the deletion was ignored): two
    of its literals are not false, and those are watched."""
    cls[cid, C_ALIVE] = 1
    c = cls[cid, C_START]
    arena[c - 1] = 1 + marked[cid]
    n = cls[cid, C_LEN]
    if n <= 2:  # a binary clause never left its implication lists
        return
    tmp = arena[c : c + n].copy()
    a = c
    b = c + n - 1
    for lit in tmp:
        if lits[VAL, lit ^ 1]:
            arena[b] = lit
            b -= 1
        else:
            arena[a] = lit
            a += 1
    _watch(cid, lits, cls, arena, w_pool, i_pool)


@njit(cache=True)
def check_back(
    first_step,
    last_step,
    sc,
    lits,
    trail,
    cls,
    arena,
    w_pool,
    i_pool,
    p_deleted,
    d_ids,
    d_lits,
    d_bounds,
    d_pivot,
    groups,
    deletions,
    pend_list,
    scratch,
    trail_at,
    outcomes,
    marked,
):
    """Proof steps ``last_step - 1`` down to ``first_step``, undone: a deletion that
    was honoured brings its clause back; a lemma leaves the database (and the
    top-level literals assigned since it came, with it), then, if marked, is
    checked there (RUP, else RAT on each literal in turn) and the clauses its
    check uses are marked.  Stops at a lemma that does not follow (REJECTED)."""
    first_lemma = sc[FIRST_LEMMA]
    for step in range(last_step - 1, first_step - 1, -1):
        if p_deleted[step]:
            if outcomes[step] == 0:
                sc[BACK_DELETION] -= 1
                _revive(deletions[0, sc[BACK_DELETION]], lits, cls, arena, w_pool, i_pool, marked)
            continue
        sc[BACK_LEMMA] -= 1
        index = sc[BACK_LEMMA]
        cid = first_lemma + index
        sc[N_CLAUSES] = cid
        if cls[cid, C_TAUT]:
            continue
        cls[cid, C_ALIVE] = 0  # out of the watch lists lazily; never back
        c = cls[cid, C_START]
        arena[c - 1] = 0
        _backtrack(trail_at[index], sc, lits, trail)
        if not marked[cid]:
            continue
        n = cls[cid, C_LEN]
        d_bounds[IDS_FROM, index] = sc[N_IDS]
        d_bounds[LITS_FROM, index] = sc[N_LITS]
        ok, d_ids, d_lits = _rup(
            arena[c : c + n],
            n,
            sc,
            lits,
            trail,
            cls,
            arena,
            w_pool,
            i_pool,
            d_ids,
            d_lits,
            pend_list,
            True,
            marked,
        )
        if not ok:
            pivot, d_ids, d_lits, groups = _rat(
                cid,
                sc,
                lits,
                trail,
                cls,
                arena,
                w_pool,
                i_pool,
                d_ids,
                d_lits,
                groups,
                pend_list,
                scratch,
                True,
                marked,
            )
            if pivot < 0:
                sc[STATUS] = REJECTED
                sc[STATUS_STEP] = step
                return d_ids, d_lits, groups, pend_list
            sc[RAT_LEMMAS] += 1
            d_pivot[index] = arena[c + pivot]
        sc[CHECKED] += 1
        d_bounds[IDS_TO, index] = sc[N_IDS]
        d_bounds[LITS_TO, index] = sc[N_LITS]
        for k in range(d_bounds[IDS_FROM, index], sc[N_IDS]):
            _mark(d_ids[k], marked, cls, arena)
    return d_ids, d_lits, groups, pend_list


@njit(cache=True)
def refuted_final(sc, cls, arena, d_ids, d_lits):
    """The top-level conflict as the refutation's derivation: the falsified clause
    and the negation of its literals."""
    conflict = sc[CONFLICT]
    c = cls[conflict, C_START]
    n = cls[conflict, C_LEN]
    d_ids = _grow(d_ids, sc[N_IDS] + 1)
    sc[FINAL_IDS] = sc[N_IDS]
    d_ids[sc[N_IDS]] = conflict
    sc[N_IDS] += 1
    sc[FINAL_IDS_END] = sc[N_IDS]
    d_lits = _grow(d_lits, sc[N_LITS] + n)
    sc[FINAL_LITS] = sc[N_LITS]
    for p in range(c, c + n):
        d_lits[sc[N_LITS]] = arena[p] ^ 1
        sc[N_LITS] += 1
    sc[FINAL_LITS_END] = sc[N_LITS]
    return d_ids, d_lits


@njit(cache=True)
def core(sc, lits, cls, arena, d_ids, d_lits, d_bounds, seen):
    """The clauses the refutation uses (from its derivation, through the lemmas'
    derivations and the reasons of top-level literals): ``seen`` marks them."""
    first_lemma = sc[FIRST_LEMMA]
    size = lits.shape[1]
    seen_lit = np.zeros(size, np.uint8)
    clause_stack = np.empty(16, np.int64)
    lit_stack = np.empty(16, np.int64)
    n_c = 0
    n_l = 0
    for k in range(sc[FINAL_IDS], sc[FINAL_IDS_END]):
        clause_stack = _grow(clause_stack, n_c + 1)
        clause_stack[n_c] = d_ids[k]
        n_c += 1
    for k in range(sc[FINAL_LITS], sc[FINAL_LITS_END]):
        lit_stack = _grow(lit_stack, n_l + 1)
        lit_stack[n_l] = d_lits[k]
        n_l += 1
    while n_c or n_l:
        if n_c:
            n_c -= 1
            cid = clause_stack[n_c]
            if seen[cid]:
                continue
            seen[cid] = 1
            if cid >= first_lemma:
                index = cid - first_lemma
                for k in range(d_bounds[IDS_FROM, index], d_bounds[IDS_TO, index]):
                    clause_stack = _grow(clause_stack, n_c + 1)
                    clause_stack[n_c] = d_ids[k]
                    n_c += 1
                for k in range(d_bounds[LITS_FROM, index], d_bounds[LITS_TO, index]):
                    lit_stack = _grow(lit_stack, n_l + 1)
                    lit_stack[n_l] = d_lits[k]
                    n_l += 1
            continue
        n_l -= 1
        lit = lit_stack[n_l]
        if seen_lit[lit]:
            continue
        seen_lit[lit] = 1
        r = lits[REASON, lit]
        if r >= 0:
            clause_stack = _grow(clause_stack, n_c + 1)
            clause_stack[n_c] = r
            n_c += 1
            c = cls[r, C_START]
            for p in range(c, c + cls[r, C_LEN]):
                other = arena[p]
                if other != lit:
                    lit_stack = _grow(lit_stack, n_l + 1)
                    lit_stack[n_l] = other ^ 1
                    n_l += 1


def dimacs(indices: np.ndarray) -> np.ndarray:
    return np.where(indices & 1, -(indices >> 1), indices >> 1)


# ---------------------------------------------------------------------------
# The checker, driven from Python
# ---------------------------------------------------------------------------
class CompiledDratChecker:
    """:class:`.checker._DratChecker`'s check, compiled (``backward``: checking only the lemmas
    the refutation uses; else forward: the Python checker's results)."""

    def __init__(self, cnf: CNF, proof: Proof, top: int, backward: bool = True):
        self.cnf, self.proof = cnf, proof
        self.backward = backward
        self.p_lits, self.p_starts, self.p_deleted = drat_arrays(proof)
        f_lits, f_starts = flat_clauses(cnf.clauses)
        size = 2 * (top + 1)
        self.top = top
        self.p_index = _index(self.p_lits)
        self.sc, self.lits, self.cls, self.arena, self.w_pool, self.i_pool = prepare(
            _index(f_lits), f_starts, self.p_index, self.p_starts, self.p_deleted, size
        )
        self.trail = np.empty(top + 1, np.int64)
        load(
            self.sc,
            self.lits,
            self.trail,
            self.cls,
            self.arena,
            self.w_pool,
            self.i_pool,
            np.empty(max(len(cnf.clauses), 1), np.int64),
        )
        n_steps = len(self.p_deleted)
        n_lemmas = n_steps - int(np.count_nonzero(self.p_deleted))
        longest = int(np.diff(self.p_starts).max()) if n_steps else 0
        self.d_ids = np.empty(1 << 12, np.int64)
        self.d_lits = np.empty(1 << 12, np.int64)
        self.d_bounds = np.zeros((4, n_lemmas + 1), np.int64)
        self.d_pivot = np.full(max(n_lemmas, 1), -1, np.int64)
        self.groups = np.empty(64 * GROUP_FIELDS, np.int64)
        self.deletions = np.empty((2, max(n_steps - n_lemmas, 1)), np.int64)
        self.pend_list = np.empty(size, np.int64)
        self.scratch = np.empty(max(top, longest) + 2, np.int64)
        self.final_ready = False
        if backward:
            self.trail_at = np.zeros(max(n_lemmas, 1), np.int64)
            self.outcomes = np.zeros(max(n_steps, 1), np.uint8)
            self.marked = np.zeros(max(len(self.cls), 1), np.uint8)

    def run(self, start: float, time_limit: float | None, on_progress: OnProgress | None) -> CheckResult:
        if self.backward:
            return self._run_backward(start, time_limit, on_progress)
        result = CheckResult(False, "", mode="forward")
        sc = self.sc
        total = len(self.p_deleted)
        end = None if time_limit is None else start + time_limit
        step = 0
        while step < total:
            number = step + 1
            if number % PROGRESS_EVERY == 0:
                if end is not None and time.perf_counter() > end:
                    self._counts(result)
                    result.reason = (
                        f"time limit reached after {result.checked:,} of {self.proof.lemmas:,} lemmas"
                    )
                    result.timed_out = True
                    return result
                if on_progress is not None:
                    on_progress(number, total)
            # up to the next step whose number is a multiple of PROGRESS_EVERY
            chunk_end = min(total, (number // PROGRESS_EVERY + 1) * PROGRESS_EVERY - 1)
            self.d_ids, self.d_lits, self.groups, self.pend_list = run_steps(
                step,
                chunk_end,
                sc,
                self.lits,
                self.trail,
                self.cls,
                self.arena,
                self.w_pool,
                self.i_pool,
                self.p_index,
                self.p_starts,
                self.p_deleted,
                self.d_ids,
                self.d_lits,
                self.d_bounds,
                self.d_pivot,
                self.groups,
                self.deletions,
                self.pend_list,
                self.scratch,
            )
            if sc[STATUS] != RUNNING:
                break
            step = chunk_end
        self._counts(result)
        status = sc[STATUS]
        if status == REJECTED:
            number = int(sc[STATUS_STEP]) + 1
            lemma = normalised(self._step_lits(number - 1)) or ()
            why = "neither RUP nor RAT on any of its literals" if lemma else "not RUP"
            result.reason = f"proof step {number}: lemma {_show(lemma)} does not follow ({why})"
            result.failed_step = number
            return result
        if status == VERIFIED and sc[REFUTATION] == BY_EMPTY_CLAUSE:
            return self._verified(result, "empty clause")
        if status == VERIFIED or sc[CONFLICT] >= 0:
            at = int(sc[STATUS_STEP]) if status == VERIFIED else total
            rest = ~self.p_deleted[at:].astype(bool)
            lengths = np.diff(self.p_starts[at:])
            result.checked += int(np.count_nonzero(rest))
            empty = bool(np.any(rest & (lengths == 0)))
            self.d_ids, self.d_lits = refuted_final(sc, self.cls, self.arena, self.d_ids, self.d_lits)
            return self._verified(result, "empty clause" if empty else "unit propagation")
        result.reason = "the proof never derives the empty clause (truncated, or not a refutation)"
        return result

    def _run_backward(
        self, start: float, time_limit: float | None, on_progress: OnProgress | None
    ) -> CheckResult:
        """drat-trim's backward check: the steps applied unchecked up to the refutation
        (progress: the first half), then walked back, the lemmas it uses checked
        (the second half)."""
        result = CheckResult(False, "", mode="backward")
        sc = self.sc
        total = len(self.p_deleted)
        end = None if time_limit is None else start + time_limit

        def out_of_time(done: int) -> bool:
            if end is not None and time.perf_counter() > end:
                self._counts(result)
                result.reason = f"time limit reached after {result.checked:,} of {self.proof.lemmas:,} lemmas"
                result.timed_out = True
                return True
            if on_progress is not None:
                on_progress(done, 2 * total)
            return False

        step = 0
        while step < total and sc[STATUS] == RUNNING:
            if step and out_of_time(step):
                return result
            chunk_end = min(total, step + PROGRESS_EVERY)
            add_steps(
                step, chunk_end, sc, self.lits, self.trail, self.cls, self.arena, self.w_pool, self.i_pool,
                self.p_index, self.p_starts, self.p_deleted, self.deletions, self.scratch, self.trail_at,
                self.outcomes,
            )  # fmt: skip
            step = chunk_end
        status = sc[STATUS]
        if status == REJECTED:
            self._counts(result)
            number = int(sc[STATUS_STEP]) + 1
            result.reason = f"proof step {number}: lemma the empty clause does not follow (not RUP)"
            result.failed_step = number
            return result
        if status == RUNNING:
            if sc[CONFLICT] < 0:
                self._counts(result)
                result.reason = "the proof never derives the empty clause (truncated, or not a refutation)"
                return result
            sc[STATUS_STEP] = total
        sc[STATUS] = RUNNING
        refuted_at = int(sc[STATUS_STEP])
        self.d_ids = mark_final(
            sc, self.lits, self.trail, self.cls, self.arena, self.d_ids, self.pend_list, self.marked
        )
        step = refuted_at
        while step > 0:
            if out_of_time(2 * total - step):
                return result
            chunk_start = max(0, step - PROGRESS_EVERY)
            self.d_ids, self.d_lits, self.groups, self.pend_list = check_back(
                chunk_start, step, sc, self.lits, self.trail, self.cls, self.arena, self.w_pool, self.i_pool,
                self.p_deleted, self.d_ids, self.d_lits, self.d_bounds, self.d_pivot, self.groups,
                self.deletions, self.pend_list, self.scratch, self.trail_at, self.outcomes, self.marked,
            )  # fmt: skip
            if sc[STATUS] == REJECTED:
                self._counts(result)
                number = int(sc[STATUS_STEP]) + 1
                lemma = normalised(self._step_lits(number - 1)) or ()
                why = "neither RUP nor RAT on any of its literals"
                result.reason = (
                    f"proof step {number}: lemma {_show(lemma)} does not follow ({why}), "
                    "and the refutation uses it"
                )
                result.failed_step = number
                return result
            step = chunk_start
        self._counts(result)
        rest = ~self.p_deleted[refuted_at:].astype(bool)
        empty = bool(np.any(rest & (np.diff(self.p_starts[refuted_at:]) == 0)))
        sc[N_CLAUSES] = sc[FIRST_LEMMA] + sc[LEMMA_INDEX]
        return self._verified(result, "empty clause" if empty else "unit propagation")

    def _step_lits(self, step: int) -> list[int]:
        return self.p_lits[self.p_starts[step] : self.p_starts[step + 1]].tolist()

    def _counts(self, result: CheckResult) -> None:
        sc = self.sc
        result.checked = int(sc[CHECKED])
        result.rat_lemmas = int(sc[RAT_LEMMAS])
        result.ignored_deletions = int(sc[IGNORED])
        result.missing_deletions = int(sc[MISSING])

    def _verified(self, result: CheckResult, refutation: Refutation) -> CheckResult:
        self.final_ready = True
        result.ok, result.reason, result.refutation = True, "verified", refutation
        seen = np.zeros(max(int(self.sc[N_CLAUSES]), 1), np.uint8)
        core(self.sc, self.lits, self.cls, self.arena, self.d_ids, self.d_lits, self.d_bounds, seen)
        first_lemma = int(self.sc[FIRST_LEMMA])
        result.core_size = int(np.count_nonzero(seen[:first_lemma]))
        result.core_lemmas = int(np.count_nonzero(seen[first_lemma:]))
        return result

    # -- LRAT out: the Python checker's writer, over this checker's state ----------
    def lrat_lines(self) -> list[str]:
        assert self.final_ready, "only a verified proof has an LRAT form"
        return _DratChecker.lrat_lines(self.python_view())

    def python_view(self) -> _DratChecker:
        """The final state as the Python checker keeps it (what its LRAT writer reads)."""
        sc, cls = self.sc, self.cls
        n_clauses = int(sc[N_CLAUSES])
        view = object.__new__(_DratChecker)
        arena = dimacs(self.arena).tolist()
        starts, lengths = cls[:n_clauses, C_START].tolist(), cls[:n_clauses, C_LEN].tolist()
        view.clauses = [arena[s : s + n] for s, n in zip(starts, lengths)]
        view.alive = bytearray(cls[:n_clauses, C_ALIVE].astype(np.uint8).tobytes())
        view.first_lemma = int(sc[FIRST_LEMMA])
        view.trail = dimacs(self.trail[: sc[TRAIL_LEN]]).tolist()
        top = self.top
        reason = np.full(2 * top + 1, -1, np.int64)
        reason[1 : top + 1] = self.lits[REASON, 2 : 2 * (top + 1) : 2]
        reason[top + 1 :] = self.lits[REASON, 2 * top + 1 : 2 : -2]
        view.reason = reason.tolist()
        n_deletions = int(sc[N_DELETIONS])
        view.deletions = self.deletions[0, :n_deletions].tolist()
        view.deleted_before = self.deletions[1, :n_deletions].tolist()
        ids, lits = self.d_ids.tolist(), dimacs(self.d_lits[: sc[N_LITS]]).tolist()
        ids_from, ids_to, lits_from, lits_to = self.d_bounds.tolist()
        groups: dict[int, list] = {}
        g = self.groups[: sc[N_GROUPS] * GROUP_FIELDS].reshape(-1, GROUP_FIELDS).tolist()
        for index, candidate, i0, i1, l0, l1 in g:
            groups.setdefault(index, []).append((candidate, ids[i0:i1], tuple(lits[l0:l1])))
        pivots = dimacs(self.d_pivot).tolist()
        deps = []
        for index in range(int(sc[LEMMA_INDEX])):
            used = ids[ids_from[index] : ids_to[index]]
            top_lits = tuple(lits[lits_from[index] : lits_to[index]])
            rat = (pivots[index], groups.get(index, [])) if self.d_pivot[index] >= 0 else None
            deps.append((used, top_lits, rat))
        view.deps = deps
        view.final = (
            ids[sc[FINAL_IDS] : sc[FINAL_IDS_END]],
            tuple(lits[sc[FINAL_LITS] : sc[FINAL_LITS_END]]),
            None,
        )
        return view


def flat_clauses(clauses: Sequence[Sequence[int]]) -> tuple[np.ndarray, np.ndarray]:
    lengths = np.fromiter(map(len, clauses), np.int64, len(clauses))
    starts = np.zeros(len(clauses) + 1, np.int64)
    np.cumsum(lengths, out=starts[1:])
    flat = np.fromiter(chain.from_iterable(clauses), np.int64, int(starts[-1]))
    return flat, starts


def drat_arrays(proof: Proof) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(literals, step starts, deleted flags) of a DRAT proof."""
    if isinstance(proof.steps, DratSteps):
        return proof.steps.lits, proof.steps.starts, proof.steps.deleted
    lits, starts = flat_clauses([lits for _, lits in proof.steps])
    deleted = np.fromiter((d for d, _ in proof.steps), np.uint8, len(proof.steps))
    return lits, starts, deleted
