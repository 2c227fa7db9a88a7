"""Histogram decision trees on pre-binned features, and the binning they share.

Speed is the design: every feature is cut once into at most `max_bins` quantile bins and stored as a
`bytes` column, so building a node is one pass over its rows per candidate feature, adding each row's
(value, weight) pair - packed in one complex number, so one addition updates both - into a per-bin
histogram, then a scan over <= 32 bins. Multiclass nodes count (bin, class) keys with Counter, which
runs in C. Rows may repeat in a node's index list (bootstrap samples): repeats count as weight.
"""
from bisect import bisect_left
from collections import Counter
from itertools import repeat
from operator import itemgetter

from .base import as_columns, check_X


class Binner:
    """Quantile bin edges per feature, learned on training data."""

    def __init__(self, max_bins=32):
        if not 2 <= max_bins <= 255:
            raise ValueError('max_bins must be in [2, 255]')
        self.max_bins = max_bins
        self.edges_ = []

    def fit_columns(self, cols):
        self.edges_ = []
        mb = self.max_bins
        for col in cols:
            vals = sorted(v for v in col if v is not None)
            distinct = sorted(set(vals))
            if len(distinct) <= mb:
                cuts = distinct
            else:
                n = len(vals)
                cuts = sorted(set(vals[min(n - 1, (k * n) // mb)] for k in range(mb)))
                if cuts[-1] != distinct[-1]:
                    cuts.append(distinct[-1])
            # Edge between consecutive cut values: a value v falls in bin #edges below v.
            self.edges_.append([0.5 * (a + b) for a, b in zip(cuts, cuts[1:])])
        return self

    def n_bins(self):
        return [len(e) + 1 for e in self.edges_]

    def transform_columns(self, cols):
        out = []
        for col, edges in zip(cols, self.edges_):
            if None in col:
                col = [float('-inf') if v is None else v for v in col]
            out.append(bytes(map(bisect_left, repeat(edges, len(col)), col)))
        return out

    def threshold_value(self, feature, b):
        """The raw value at which `bin <= b` turns false (for reading a tree)."""
        return self.edges_[feature][b]


def _resolve_max_features(max_features, n_features):
    if max_features is None:
        return n_features
    if max_features == 'sqrt':
        return max(1, int(round(n_features ** 0.5)))
    if max_features == 'log2':
        return max(1, int(n_features).bit_length() - 1)
    if isinstance(max_features, float):
        return max(1, min(n_features, int(round(max_features * n_features))))
    return max(1, min(n_features, int(max_features)))


class Tree:
    """Flat arrays: feature, threshold bin, left and right child (-1 at a leaf), leaf value."""

    def __init__(self):
        self.feature = []
        self.threshold = []
        self.left = []
        self.right = []
        self.value = []

    def add(self, value):
        self.feature.append(-1)
        self.threshold.append(0)
        self.left.append(-1)
        self.right.append(-1)
        self.value.append(value)
        return len(self.value) - 1

    def n_leaves(self):
        return sum(1 for c in self.left if c < 0)

    def depth(self):
        best, stack = 0, [(0, 0)]
        while stack:
            node, d = stack.pop()
            best = max(best, d)
            if self.left[node] >= 0:
                stack.append((self.left[node], d + 1))
                stack.append((self.right[node], d + 1))
        return best

    def apply(self, bcols, n):
        """Leaf id of each row (rows given as binned columns)."""
        out = [0] * n
        stack = [(0, list(range(n)))]
        F, T, L, R = self.feature, self.threshold, self.left, self.right
        while stack:
            node, idx = stack.pop()
            if L[node] < 0:
                for i in idx:
                    out[i] = node
                continue
            col, t = bcols[F[node]], T[node]
            left = [i for i in idx if col[i] <= t]
            if len(left) == len(idx):
                right = []
            else:
                lset = bytearray(n)
                for i in left:
                    lset[i] = 1
                right = [i for i in idx if not lset[i]]
            stack.append((L[node], left))
            stack.append((R[node], right))
        return out

    def predict_binned(self, bcols, n):
        v = self.value
        return [v[leaf] for leaf in self.apply(bcols, n)]


def grow_tree(bcols, n_bins, idx, rng, max_depth=None, min_samples_leaf=1, max_features=None,
              per_split_features=True, z=None, y_class=None, n_classes=0, class_keys=None,
              leaf_rows=None, min_gain=1e-12):
    """Grow one tree on the rows `idx` (repeats allowed) of the binned columns `bcols`.

    Sum mode (z given): z[i] = complex(target_i, weight_i); split by variance reduction; leaf value =
    weighted mean. Class mode (y_class given): class index per row; split by Gini; leaf value = class
    probabilities. max_features: features tried per split (per_split_features) or per tree (else, which
    also lets a child reuse its parent's histograms: larger child = parent - smaller child).
    leaf_rows: if a dict, receives leaf id -> row index list.
    """
    n_feat = len(bcols)
    mf = _resolve_max_features(max_features, n_feat)
    all_feats = list(range(n_feat))
    tree_feats = all_feats if (per_split_features or mf >= n_feat) else sorted(rng.sample(all_feats, mf))
    msl = max(1, min_samples_leaf)
    depth_cap = max_depth if max_depth is not None else 10 ** 9
    tree = Tree()
    classify = y_class is not None
    K = n_classes

    def leaf_value(idx_):
        if classify:
            counts = [0] * K
            for c, m in Counter(map(y_class.__getitem__, idx_)).items():
                counts[c] = m
            tot = float(len(idx_))
            return [c / tot for c in counts]
        s = sum(map(z.__getitem__, idx_))
        return s.real / s.imag if s.imag > 0 else 0.0

    def sum_hist(idx_, f):
        col = bcols[f]
        h = [0j] * n_bins[f]
        for i in idx_:
            h[col[i]] += z[i]
        return h

    def sparse_hist(idx_, f):
        # Small nodes touch few bins: a dict keyed by bin skips scanning the empty ones.
        col = bcols[f]
        h = {}
        get = h.get
        for i in idx_:
            b = col[i]
            h[b] = get(b, 0j) + z[i]
        return h

    def best_sum_split(hists, total):
        S, W = total.real, total.imag
        base = S * S / W
        best = (min_gain, -1, 0)
        for f, h in hists.items():
            if isinstance(h, dict):
                pairs = sorted(h.items())
            else:
                pairs = [(b, v) for b, v in enumerate(h) if v]
            cum = 0j
            for b, hb in pairs[:-1]:
                cum += hb
                wl = cum.imag
                if wl < msl:
                    continue
                wr = W - wl
                if wr < msl:
                    break
                sl = cum.real
                sr = S - sl
                gain = sl * sl / wl + sr * sr / wr - base
                if gain > best[0]:
                    best = (gain, f, b)
        return best

    def best_class_split(idx_, feats):
        g = itemgetter(*idx_) if len(idx_) > 1 else None
        tot = [0] * K
        for c, m in Counter(map(y_class.__getitem__, idx_)).items():
            tot[c] = m
        N = len(idx_)
        base = sum(t * t for t in tot) / N
        best = (min_gain, -1, 0)
        for f in feats:
            keys = class_keys[f]
            sel = g(keys) if g is not None else (keys[idx_[0]],)
            # Sorted (bin * K + class) keys arrive grouped by bin: scan only the bins present.
            items = sorted(Counter(sel).items())
            left = [0] * K
            nl = 0
            prev_bin = items[0][0] // K
            for key, m in items:
                b = key // K
                if b != prev_bin:
                    if nl >= msl:
                        nr = N - nl
                        if nr < msl:
                            break
                        sl = 0
                        sr = 0
                        for k in range(K):
                            a = left[k]
                            c = tot[k] - a
                            sl += a * a
                            sr += c * c
                        gain = sl / nl + sr / nr - base
                        if gain > best[0]:
                            best = (gain, f, prev_bin)
                    prev_bin = b
                left[key % K] += m
                nl += m
        return best

    sparse_below = 4 * max(n_bins) if n_bins else 0
    root = tree.add(None)
    # Stack entries: node id, rows, depth, histograms (sum mode with shared features) or None.
    stack = [(root, idx, 0, None)]
    while stack:
        node, rows, depth, hists = stack.pop()
        tree.value[node] = leaf_value(rows)
        n = len(rows)
        if depth >= depth_cap or n < 2 * msl:
            if leaf_rows is not None:
                leaf_rows[node] = rows
            continue
        feats = sorted(rng.sample(all_feats, mf)) if (per_split_features and mf < n_feat) else tree_feats
        if classify:
            gain, f, b = best_class_split(rows, feats)
        else:
            if hists is None:
                hist_of = sparse_hist if n < sparse_below else sum_hist
                hists = {ff: hist_of(rows, ff) for ff in feats}
            h0 = hists[feats[0]]
            total = sum(h0.values()) if isinstance(h0, dict) else sum(h0)
            gain, f, b = best_sum_split(hists, total)
        if f < 0:
            if leaf_rows is not None:
                leaf_rows[node] = rows
            continue
        col = bcols[f]
        left = [i for i in rows if col[i] <= b]
        right = [i for i in rows if col[i] > b]
        tree.feature[node] = f
        tree.threshold[node] = b
        ln = tree.add(None)
        rn = tree.add(None)
        tree.left[node] = ln
        tree.right[node] = rn
        lh = rh = None
        reuse = not classify and not per_split_features and depth + 1 < depth_cap
        if reuse:
            small, small_is_left = (left, True) if len(left) <= len(right) else (right, False)
            if isinstance(hists[feats[0]], dict):
                sh = bh = None
            else:
                sh = {ff: sum_hist(small, ff) for ff in feats}
                bh = {ff: [p - s for p, s in zip(hists[ff], sh[ff])] for ff in feats}
            lh, rh = (sh, bh) if small_is_left else (bh, sh)
        stack.append((rn, right, depth + 1, rh))
        stack.append((ln, left, depth + 1, lh))
    return tree


def class_keys_for(bcols, y_class, K):
    """(bin * K + class) per row and feature, counted by Counter in class-mode splits."""
    out = []
    for col in bcols:
        if 256 > (max(col) + 1 if col else 1) * K:
            out.append(bytes(b * K + c for b, c in zip(col, y_class)))
        else:
            out.append([b * K + c for b, c in zip(col, y_class)])
    return out


class _TreeBase:
    def _bin(self, X, fit):
        cols = as_columns(check_X(X))
        if fit:
            self.binner_ = Binner(self.max_bins).fit_columns(cols)
        return self.binner_.transform_columns(cols), len(X)


class DecisionTreeRegressor(_TreeBase):
    """A regression tree (squared error). max_depth None = grow until leaves hit min_samples_leaf."""

    def __init__(self, max_depth=6, min_samples_leaf=1, max_features=None, max_bins=32, seed=0):
        self.max_depth = max_depth
        self.min_samples_leaf = min_samples_leaf
        self.max_features = max_features
        self.max_bins = max_bins
        self.seed = seed

    def fit(self, X, y):
        import random
        bcols, n = self._bin(X, True)
        z = [complex(v, 1.0) for v in y]
        self.tree_ = grow_tree(bcols, self.binner_.n_bins(), list(range(n)), random.Random(self.seed),
                               self.max_depth, self.min_samples_leaf, self.max_features, True, z=z)
        return self

    def predict(self, X):
        bcols, n = self._bin(X, False)
        return self.tree_.predict_binned(bcols, n)


class DecisionTreeClassifier(_TreeBase):
    """A classification tree (Gini). Labels may be any hashable values; classes_ is sorted."""

    def __init__(self, max_depth=6, min_samples_leaf=1, max_features=None, max_bins=32, seed=0):
        self.max_depth = max_depth
        self.min_samples_leaf = min_samples_leaf
        self.max_features = max_features
        self.max_bins = max_bins
        self.seed = seed

    def fit(self, X, y):
        import random
        bcols, n = self._bin(X, True)
        self.classes_ = sorted(set(y))
        index = {c: k for k, c in enumerate(self.classes_)}
        yc = [index[v] for v in y]
        K = len(self.classes_)
        rng = random.Random(self.seed)
        self.tree_ = grow_tree(bcols, self.binner_.n_bins(), list(range(n)), rng, self.max_depth,
                               self.min_samples_leaf, self.max_features, True, y_class=yc, n_classes=K,
                               class_keys=class_keys_for(bcols, yc, K))
        return self

    def predict_proba(self, X):
        bcols, n = self._bin(X, False)
        return self.tree_.predict_binned(bcols, n)

    def predict(self, X):
        return [self.classes_[max(range(len(p)), key=p.__getitem__)] for p in self.predict_proba(X)]
