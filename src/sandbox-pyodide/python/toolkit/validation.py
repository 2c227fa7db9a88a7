"""Holdout and k-fold validation, so programs can choose hyperparameters on training rows alone."""
import random

from .metrics import GREATER_IS_BETTER, score


def train_test_split(n, test_size=0.25, seed=0, stratify=None):
    """(train indices, validation indices). stratify: labels to keep class shares alike in both parts."""
    rng = random.Random(seed)
    if stratify is None:
        idx = list(range(n))
        rng.shuffle(idx)
        cut = max(1, min(n - 1, int(round(n * test_size))))
        return sorted(idx[cut:]), sorted(idx[:cut])
    train, valid = [], []
    for c in sorted(set(stratify), key=str):
        members = [i for i in range(n) if stratify[i] == c]
        rng.shuffle(members)
        cut = int(round(len(members) * test_size))
        valid.extend(members[:cut])
        train.extend(members[cut:])
    return sorted(train), sorted(valid)


def kfold(n, k=5, seed=0, stratify=None):
    """List of k (train indices, validation indices) pairs; every row validates exactly once."""
    rng = random.Random(seed)
    fold_of = [0] * n
    if stratify is None:
        idx = list(range(n))
        rng.shuffle(idx)
        for pos, i in enumerate(idx):
            fold_of[i] = pos % k
    else:
        offset = 0
        for c in sorted(set(stratify), key=str):
            members = [i for i in range(n) if stratify[i] == c]
            rng.shuffle(members)
            for pos, i in enumerate(members):
                fold_of[i] = (pos + offset) % k
            offset += len(members)
    return [([i for i in range(n) if fold_of[i] != f], [i for i in range(n) if fold_of[i] == f])
            for f in range(k)]


def _task_fields(task):
    return task.type, task.metric, getattr(task, 'positive', None)


def task_outputs(model, X, task):
    """What predictions.csv wants from a fitted model: numbers (regression), positive-class
    probabilities (binary), labels (multiclass)."""
    kind, _, positive = _task_fields(task)
    if kind == 'regression':
        return model.predict(X)
    if kind == 'binary':
        classes = list(model.classes_)
        if positive in classes:
            k = classes.index(positive)
        elif len(classes) == 1:
            return [0.0] * len(X)
        else:
            k = len(classes) - 1
        return [p[k] for p in model.predict_proba(X)]
    return model.predict(X)


def task_score(task, y_true, outputs):
    """Score task_outputs() against true targets with the task's metric."""
    kind, metric, positive = _task_fields(task)
    if kind == 'binary' and metric != 'auc':
        other = [c for c in sorted(set(y_true)) if c != positive]
        neg = other[0] if other else None
        outputs = [positive if p >= 0.5 else neg for p in outputs]
    return score(metric, y_true, outputs, positive)


def _stratify(task, y):
    return y if task.type != 'regression' else None


def holdout_score(make_model, X, y, task, test_size=0.25, seed=0):
    """Fit make_model() on part of the rows and score it on the rest with the task's metric."""
    tr, va = train_test_split(len(X), test_size, seed, _stratify(task, y))
    model = make_model().fit([X[i] for i in tr], [y[i] for i in tr])
    return task_score(task, [y[i] for i in va], task_outputs(model, [X[i] for i in va], task))


def cross_val_score(make_model, X, y, task, k=5, seed=0):
    """Mean validation score of make_model() over k folds."""
    total = 0.0
    folds = kfold(len(X), k, seed, _stratify(task, y))
    for tr, va in folds:
        model = make_model().fit([X[i] for i in tr], [y[i] for i in tr])
        total += task_score(task, [y[i] for i in va], task_outputs(model, [X[i] for i in va], task))
    return total / len(folds)


def select_best(candidates, X, y, task, k=None, test_size=0.25, seed=0):
    """Pick the best of {name: make_model} by holdout (k=None) or k-fold score.

    Returns (best name, {name: score}). Ties keep the earlier candidate.
    """
    scores = {}
    best = None
    for name, make in candidates.items():
        s = (holdout_score(make, X, y, task, test_size, seed) if k is None
             else cross_val_score(make, X, y, task, k, seed))
        scores[name] = s
        if best is None or (s > scores[best] if GREATER_IS_BETTER[task.metric] else s < scores[best]):
            best = name
    return best, scores
