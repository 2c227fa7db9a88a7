"""Work rule 1's counter cannot see, charged to it explicitly (rule 1 only).

Rule 1's counter counts loop back-edges and Python function starts (docs/sandbox.md, "The work
budget"); work done inside one C call is invisible to it. Rule 2 meters the interpreter's compiled
code itself and ignores these charges. The toolkit's k-nearest neighbours spend
almost all their time in `map(math.dist, ...)` over the training rows, a C loop, so without a
charge a KNN program counts 3-15x less work per second than the toolkit's other models. This module
wraps the toolkit's neighbour search, outside the toolkit (its source and hash stay as they are),
and charges the query rows for their distances, once per search, before it starts (one call into
JavaScript per search, not per row): query rows x training rows x (features + 1) / DISTANCE_TERMS_PER_UNIT.

Not a defence: a program can undo the wrapper, or call C functions itself; whatever it does in C
is bounded by the wall-clock backstop instead.
"""

# Calibrated so that KNN's work units per second match the toolkit's other models (bench/work-calibration.ts).
DISTANCE_TERMS_PER_UNIT = 200


def install(charge):
    """Wraps toolkit.neighbors' neighbour search so that each search first calls charge(units)."""
    from toolkit import neighbors

    search = neighbors._KNN._neighbours

    def _neighbours(self, X):
        # The search iterates its queries once: a list of them is the same to it.
        rows = X if isinstance(X, list) else list(X)
        ref = self.X_
        n = len(ref)
        d = len(ref[0]) if n else 0
        charge(len(rows) * ((n * (d + 1)) // DISTANCE_TERMS_PER_UNIT))
        return search(self, rows)

    _neighbours.__doc__ = search.__doc__
    neighbors._KNN._neighbours = _neighbours
