"""Small shared helpers: matrix shape checks, transposition, label indexing, softmax."""
import math


def check_X(X):
    """X must be a non-empty list of equal-length rows of numbers."""
    if not X:
        raise ValueError('X has no rows')
    width = len(X[0])
    for r in X:
        if len(r) != width:
            raise ValueError('X rows have different lengths')
    return X


def as_columns(X):
    """Rows -> list of columns (lists). zip(*X) does the work in C."""
    if not X or not X[0]:
        return []
    return [list(c) for c in zip(*X)]


def as_rows(cols):
    return [list(r) for r in zip(*cols)]


def argmax(values):
    return max(range(len(values)), key=values.__getitem__)


def softmax(scores):
    m = max(scores)
    e = [math.exp(s - m) for s in scores]
    t = sum(e)
    return [v / t for v in e]


def sigmoid(s):
    if s >= 0:
        return 1.0 / (1.0 + math.exp(-s))
    e = math.exp(s)
    return e / (1.0 + e)


class ClassifierMixin:
    """predict() from predict_proba(); classes_ sorted; helpers to index labels."""

    def _index_labels(self, y):
        self.classes_ = sorted(set(y))
        index = {c: k for k, c in enumerate(self.classes_)}
        return [index[v] for v in y]

    def predict(self, X):
        c = self.classes_
        return [c[argmax(p)] for p in self.predict_proba(X)]
