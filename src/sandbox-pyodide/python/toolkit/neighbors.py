"""k-nearest neighbours (Euclidean). Scale the features first: distances see raw units."""
import heapq
import math
from itertools import repeat

from .base import ClassifierMixin, check_X


class _KNN:
    def __init__(self, k=5, weights='uniform'):
        if weights not in ('uniform', 'distance'):
            raise ValueError("weights must be 'uniform' or 'distance'")
        self.k = k
        self.weights = weights

    def _neighbours(self, X):
        """For each query row: list of (distance, training row index) of its k nearest."""
        ref = self.X_
        n = len(ref)
        k = min(self.k, n)
        dist = math.dist
        out = []
        for q in X:
            d = list(map(dist, ref, repeat(q, n)))
            near = heapq.nsmallest(k, range(n), key=d.__getitem__)
            out.append([(d[i], i) for i in near])
        return out

    def _weights(self, nb):
        if self.weights == 'uniform':
            return [1.0] * len(nb)
        if nb[0][0] == 0.0:
            # Exact matches take all the weight, as in scikit-learn.
            return [1.0 if dd == 0.0 else 0.0 for dd, _ in nb]
        return [1.0 / dd for dd, _ in nb]


class KNeighborsRegressor(_KNN):
    def fit(self, X, y):
        self.X_ = [list(r) for r in check_X(X)]
        self.y_ = list(y)
        return self

    def predict(self, X):
        out = []
        y = self.y_
        for nb in self._neighbours(X):
            w = self._weights(nb)
            out.append(math.fsum(wi * y[i] for wi, (_, i) in zip(w, nb)) / sum(w))
        return out


class KNeighborsClassifier(_KNN, ClassifierMixin):
    def fit(self, X, y):
        self.X_ = [list(r) for r in check_X(X)]
        self.yi_ = self._index_labels(y)
        return self

    def predict_proba(self, X):
        K = len(self.classes_)
        out = []
        yi = self.yi_
        for nb in self._neighbours(X):
            w = self._weights(nb)
            p = [0.0] * K
            for wi, (_, i) in zip(w, nb):
                p[yi[i]] += wi
            t = sum(p)
            out.append([v / t for v in p])
        return out
