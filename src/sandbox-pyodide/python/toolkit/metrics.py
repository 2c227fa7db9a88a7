"""Metrics, with the direction each one is better in."""
import math

GREATER_IS_BETTER = {
    'rmse': False, 'rmsle': False, 'mae': False, 'log_loss': False,
    'r2': True, 'auc': True, 'accuracy': True, 'macro_f1': True,
}


def rmse(y_true, y_pred):
    return math.sqrt(math.fsum((a - b) ** 2 for a, b in zip(y_true, y_pred)) / len(y_true))


def rmsle(y_true, y_pred):
    """Root mean squared log error; negative predictions count as 0."""
    return math.sqrt(math.fsum((math.log1p(max(a, 0.0)) - math.log1p(max(b, 0.0))) ** 2
                               for a, b in zip(y_true, y_pred)) / len(y_true))


def mae(y_true, y_pred):
    return math.fsum(abs(a - b) for a, b in zip(y_true, y_pred)) / len(y_true)


def r2(y_true, y_pred):
    m = math.fsum(y_true) / len(y_true)
    ss = math.fsum((a - m) ** 2 for a in y_true)
    res = math.fsum((a - b) ** 2 for a, b in zip(y_true, y_pred))
    return 1.0 - res / ss if ss > 0 else 0.0


def accuracy(y_true, y_pred):
    return sum(1 for a, b in zip(y_true, y_pred) if a == b) / len(y_true)


def macro_f1(y_true, y_pred):
    """Unweighted mean of per-class F1 over every label seen in either list."""
    labels = set(y_true) | set(y_pred)
    total = 0.0
    for c in labels:
        tp = sum(1 for a, b in zip(y_true, y_pred) if a == c and b == c)
        fp = sum(1 for a, b in zip(y_true, y_pred) if a != c and b == c)
        fn = sum(1 for a, b in zip(y_true, y_pred) if a == c and b != c)
        total += 2.0 * tp / (2 * tp + fp + fn) if tp else 0.0
    return total / len(labels)


def auc(y_true, scores, positive=1):
    """Area under the ROC curve (Mann-Whitney, ties count half). y_true: labels; positive: which is 1."""
    pos = [s for a, s in zip(y_true, scores) if a == positive]
    n_pos = len(pos)
    n_neg = len(y_true) - n_pos
    if n_pos == 0 or n_neg == 0:
        return 0.5
    order = sorted(range(len(scores)), key=scores.__getitem__)
    rank_sum = 0.0
    i = 0
    n = len(order)
    while i < n:
        j = i
        while j + 1 < n and scores[order[j + 1]] == scores[order[i]]:
            j += 1
        avg_rank = 0.5 * (i + j) + 1.0
        for k in range(i, j + 1):
            if y_true[order[k]] == positive:
                rank_sum += avg_rank
        i = j + 1
    return (rank_sum - n_pos * (n_pos + 1) / 2.0) / (n_pos * n_neg)


def log_loss(y_true, proba, classes):
    """Mean negative log-likelihood; proba rows follow `classes`."""
    index = {c: k for k, c in enumerate(classes)}
    return -math.fsum(math.log(max(p[index[a]], 1e-15)) for a, p in zip(y_true, proba)) / len(y_true)


_BY_NAME = {'rmse': rmse, 'rmsle': rmsle, 'mae': mae, 'r2': r2, 'accuracy': accuracy, 'macro_f1': macro_f1}


def score(metric, y_true, y_pred, positive=None):
    """The named metric. For 'auc', y_pred are scores of `positive` (required unless labels are 0/1)."""
    if metric == 'auc':
        return auc(y_true, y_pred, 1 if positive is None else positive)
    if metric not in _BY_NAME:
        raise ValueError('unknown metric %r' % (metric,))
    return _BY_NAME[metric](y_true, y_pred)


def better(metric, a, b):
    """True if score a is strictly better than score b under the metric."""
    return a > b if GREATER_IS_BETTER[metric] else a < b
