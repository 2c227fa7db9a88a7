"""Gaussian naive Bayes: per class, independent normal features."""
import math
from collections import Counter

from .base import ClassifierMixin, as_columns, check_X, softmax


class GaussianNB(ClassifierMixin):
    """var_smoothing: added to every variance, as a fraction of the largest feature variance."""

    def __init__(self, var_smoothing=1e-9):
        self.var_smoothing = var_smoothing

    def fit(self, X, y):
        cols = as_columns(check_X(X))
        yi = self._index_labels(y)
        K = len(self.classes_)
        n = len(yi)
        counts = Counter(yi)
        allvar = []
        for col in cols:
            mu = math.fsum(col) / n
            allvar.append(math.fsum((v - mu) ** 2 for v in col) / n)
        eps = self.var_smoothing * max(allvar + [1e-12]) + 1e-12
        self.log_prior_ = [math.log(counts[k] / n) for k in range(K)]
        self.inv_var_ = []
        self.mean_over_var_ = []
        self.const_ = []
        for k in range(K):
            rows = [i for i in range(n) if yi[i] == k]
            iv, mv = [], []
            const = self.log_prior_[k]
            for col in cols:
                vals = [col[i] for i in rows]
                m = math.fsum(vals) / len(vals)
                var = math.fsum((v - m) ** 2 for v in vals) / len(vals) + eps
                iv.append(1.0 / var)
                mv.append(m / var)
                const -= 0.5 * (math.log(2 * math.pi * var) + m * m / var)
            self.inv_var_.append(iv)
            self.mean_over_var_.append(mv)
            self.const_.append(const)
        return self

    def predict_log_joint(self, X):
        # log N(x; m, v) summed = const - 0.5 * sum(x^2 / v) + sum(x * m / v): two dot products per class.
        out = []
        K = len(self.classes_)
        sp = math.sumprod
        for x in X:
            x2 = [v * v for v in x]
            out.append([self.const_[k] - 0.5 * sp(x2, self.inv_var_[k]) + sp(x, self.mean_over_var_[k])
                        for k in range(K)])
        return out

    def predict_proba(self, X):
        return [softmax(s) for s in self.predict_log_joint(X)]
