"""Baselines that ignore the features: the floor every real model must clear."""
import math
from collections import Counter

from .base import ClassifierMixin


class MeanRegressor:
    """Predicts the training mean (strategy='mean') or median (strategy='median')."""

    def __init__(self, strategy='mean'):
        self.strategy = strategy

    def fit(self, X, y):
        if self.strategy == 'median':
            s = sorted(y)
            m = len(s) // 2
            self.value_ = s[m] if len(s) % 2 else 0.5 * (s[m - 1] + s[m])
        else:
            self.value_ = math.fsum(y) / len(y)
        return self

    def predict(self, X):
        return [self.value_] * len(X)


class MajorityClassifier(ClassifierMixin):
    """Predicts the class frequencies of the training labels (so the majority class as a label)."""

    def fit(self, X, y):
        yi = self._index_labels(y)
        counts = Counter(yi)
        n = float(len(yi))
        self.prior_ = [counts.get(k, 0) / n for k in range(len(self.classes_))]
        return self

    def predict_proba(self, X):
        return [list(self.prior_) for _ in range(len(X))]
