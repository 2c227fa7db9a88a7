"""Preprocessing that turns a Table into a numeric matrix (a list of rows of floats).

Each step learns from the training rows only (fit) and applies the same mapping to any rows (transform).
"""
import math
from collections import Counter

from .table import Table


def _present(col):
    return [v for v in col if v is not None]


class Imputer:
    """Fill missing numbers: strategy 'mean' | 'median' | 'most_frequent' | 'zero'."""

    def __init__(self, strategy='median'):
        if strategy not in ('mean', 'median', 'most_frequent', 'zero'):
            raise ValueError('unknown imputation strategy %r' % (strategy,))
        self.strategy = strategy
        self.fill_ = None

    def fit(self, col):
        vals = _present(col)
        if not vals or self.strategy == 'zero':
            self.fill_ = 0.0
        elif self.strategy == 'mean':
            self.fill_ = math.fsum(vals) / len(vals)
        elif self.strategy == 'median':
            s = sorted(vals)
            m = len(s) // 2
            self.fill_ = s[m] if len(s) % 2 else 0.5 * (s[m - 1] + s[m])
        else:
            counts = Counter(vals)
            top = max(counts.values())
            # Ties break toward the smallest value so the result does not depend on row order.
            self.fill_ = min(v for v, c in counts.items() if c == top)
        return self

    def transform(self, col):
        f = self.fill_
        return [f if v is None else v for v in col]


class Scaler:
    """Scale numbers: method 'standard' (zero mean, unit variance) | 'minmax' (to [0, 1]) | None."""

    def __init__(self, method='standard'):
        if method not in ('standard', 'minmax', None):
            raise ValueError('unknown scaling %r' % (method,))
        self.method = method
        self.shift_ = 0.0
        self.scale_ = 1.0

    def fit(self, col):
        if self.method is None or not col:
            return self
        if self.method == 'standard':
            mu = math.fsum(col) / len(col)
            var = math.fsum((v - mu) * (v - mu) for v in col) / len(col)
            self.shift_, self.scale_ = mu, (math.sqrt(var) if var > 1e-24 else 1.0)
        else:
            lo, hi = min(col), max(col)
            self.shift_, self.scale_ = lo, (hi - lo if hi > lo else 1.0)
        return self

    def transform(self, col):
        a, s = self.shift_, 1.0 / self.scale_
        return [(v - a) * s for v in col]


class OneHotEncoder:
    """Indicator columns for the most frequent categories (missing counts as a category).

    max_categories: at most this many indicators; rarer categories share one 'other' column
    (only created if some training value is rare). Unseen values at transform time go to 'other'
    when it exists, else to no column (all zeros).
    """

    def __init__(self, max_categories=10):
        self.max_categories = max_categories
        self.categories_ = []
        self.has_other_ = False

    def fit(self, col):
        counts = Counter(col)
        ranked = sorted(counts.items(), key=lambda kv: (-kv[1], '' if kv[0] is None else str(kv[0])))
        keep = ranked[: self.max_categories]
        self.categories_ = [k for k, _ in keep]
        self.has_other_ = len(ranked) > len(keep)
        return self

    def n_outputs(self):
        return len(self.categories_) + (1 if self.has_other_ else 0)

    def output_names(self, name):
        names = ['%s=%s' % (name, c) for c in self.categories_]
        return names + (['%s=other' % name] if self.has_other_ else [])

    def transform(self, col):
        """A list of indicator columns."""
        out = []
        for c in self.categories_:
            out.append([1.0 if v == c else 0.0 for v in col])
        if self.has_other_:
            known = set(self.categories_)
            out.append([0.0 if v in known else 1.0 for v in col])
        return out


class OrdinalEncoder:
    """One integer-coded column: categories by descending frequency (0 = most frequent); unseen = -1."""

    def __init__(self, max_categories=255):
        self.max_categories = max_categories
        self.codes_ = {}

    def fit(self, col):
        counts = Counter(col)
        ranked = sorted(counts.items(), key=lambda kv: (-kv[1], '' if kv[0] is None else str(kv[0])))
        self.codes_ = {k: float(i) for i, (k, _) in enumerate(ranked[: self.max_categories])}
        return self

    def transform(self, col):
        other = float(len(self.codes_))
        get = self.codes_.get
        return [get(v, other) for v in col]


class Preprocessor:
    """Table -> matrix (list of rows of floats), learned on the training Table.

    impute: numeric imputation strategy ('mean' | 'median' | 'most_frequent' | 'zero').
    scale: 'standard' | 'minmax' | None (numeric columns only).
    encode: 'onehot' | 'ordinal' | 'drop' for categorical columns.
    max_categories: cap on one-hot indicators per column.
    missing_indicators: add a 0/1 column for each numeric column that had missing training values.
    columns: restrict to these feature names (default: all).
    """

    def __init__(self, impute='median', scale='standard', encode='onehot', max_categories=10,
                 missing_indicators=False, columns=None):
        if encode not in ('onehot', 'ordinal', 'drop'):
            raise ValueError('unknown encoding %r' % (encode,))
        self.impute = impute
        self.scale = scale
        self.encode = encode
        self.max_categories = max_categories
        self.missing_indicators = missing_indicators
        self.columns = columns
        self.steps_ = []
        self.feature_names_ = []

    def fit(self, table):
        self.steps_ = []
        names = self.columns if self.columns is not None else table.names
        for name in names:
            col = table[name]
            if table.kinds[name] == 'num':
                imp = Imputer(self.impute).fit(col)
                filled = imp.transform(col)
                sc = Scaler(self.scale).fit(filled)
                flag = self.missing_indicators and None in col
                self.steps_.append(('num', name, imp, sc, flag))
            elif self.encode == 'onehot':
                self.steps_.append(('onehot', name, OneHotEncoder(self.max_categories).fit(col)))
            elif self.encode == 'ordinal':
                self.steps_.append(('ordinal', name, OrdinalEncoder().fit(col)))
        self.feature_names_ = []
        for step in self.steps_:
            if step[0] == 'num':
                self.feature_names_.append(step[1])
                if step[4]:
                    self.feature_names_.append(step[1] + '_missing')
            elif step[0] == 'onehot':
                self.feature_names_.extend(step[2].output_names(step[1]))
            else:
                self.feature_names_.append(step[1])
        return self

    def transform_columns(self, table):
        """The output as a list of columns (features x rows)."""
        cols = []
        for step in self.steps_:
            col = table[step[1]]
            if step[0] == 'num':
                _, _, imp, sc, flag = step
                cols.append(sc.transform(imp.transform(col)))
                if flag:
                    cols.append([1.0 if v is None else 0.0 for v in col])
            elif step[0] == 'onehot':
                cols.extend(step[2].transform(col))
            else:
                cols.append(step[2].transform(col))
        return cols

    def transform(self, table):
        cols = self.transform_columns(table)
        if not cols:
            return [[] for _ in range(len(table))]
        return [list(r) for r in zip(*cols)]

    def fit_transform(self, table):
        return self.fit(table).transform(table)


def to_matrix(table, **options):
    """Shortcut: a Preprocessor with these options fitted on `table`; returns (matrix, preprocessor)."""
    pre = Preprocessor(**options)
    return pre.fit_transform(table), pre


class TargetTransform:
    """Fit a regressor on a transformed target and invert its predictions.

    kind: 'log1p' (for non-negative, skewed targets scored by rmsle) | 'standard' | None.
    """

    def __init__(self, model, kind='log1p'):
        if kind not in ('log1p', 'standard', None):
            raise ValueError('unknown target transform %r' % (kind,))
        self.model = model
        self.kind = kind
        self.mu_ = 0.0
        self.sd_ = 1.0

    def fit(self, X, y):
        if self.kind == 'log1p':
            z = [math.log1p(max(v, 0.0)) for v in y]
        elif self.kind == 'standard':
            self.mu_ = math.fsum(y) / len(y)
            var = math.fsum((v - self.mu_) ** 2 for v in y) / len(y)
            self.sd_ = math.sqrt(var) if var > 0 else 1.0
            z = [(v - self.mu_) / self.sd_ for v in y]
        else:
            z = list(y)
        self.model.fit(X, z)
        return self

    def predict(self, X):
        p = self.model.predict(X)
        if self.kind == 'log1p':
            return [math.expm1(min(v, 700.0)) if v > 0 else 0.0 for v in p]
        if self.kind == 'standard':
            return [v * self.sd_ + self.mu_ for v in p]
        return p
