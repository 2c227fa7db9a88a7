"""Reading the job folder: CSV files into typed columns, task.json into a Task.

A Table keeps columns, not rows: most toolkit work is per column, and a column of
floats is one list the C-level builtins can sweep.
Numeric columns hold floats (None = missing); categorical columns hold str (None = missing).
"""
import csv
import json
import math

MISSING = ('', 'NA', 'NaN', 'nan', 'null', 'None', '?')


class Table:
    """Named columns of equal length; `kinds[name]` is 'num' or 'cat'."""

    def __init__(self, columns, kinds, names=None):
        self.columns = columns
        self.kinds = kinds
        self.names = list(names) if names is not None else list(columns)

    def __len__(self):
        return len(self.columns[self.names[0]]) if self.names else 0

    @property
    def n_rows(self):
        return len(self)

    def __getitem__(self, name):
        return self.columns[name]

    def __contains__(self, name):
        return name in self.columns

    def pop(self, name):
        """Remove a column and return its values."""
        self.names.remove(name)
        self.kinds.pop(name)
        return self.columns.pop(name)

    def drop(self, names):
        """A new Table without the given columns (the values are shared, not copied)."""
        gone = set(names)
        keep = [n for n in self.names if n not in gone]
        return Table({n: self.columns[n] for n in keep}, {n: self.kinds[n] for n in keep}, keep)

    def select(self, names):
        return Table({n: self.columns[n] for n in names}, {n: self.kinds[n] for n in names}, names)

    def take(self, rows):
        """A new Table holding the given row indices, in that order."""
        cols = {n: [c[i] for i in rows] for n, c in self.columns.items()}
        return Table(cols, dict(self.kinds), self.names)

    def numeric_names(self):
        return [n for n in self.names if self.kinds[n] == 'num']

    def categorical_names(self):
        return [n for n in self.names if self.kinds[n] == 'cat']

    def missing_rate(self):
        cells = len(self) * len(self.names)
        if cells == 0:
            return 0.0
        return sum(c.count(None) for c in self.columns.values()) / cells

    def __repr__(self):
        return 'Table(%d rows, %d numeric, %d categorical)' % (
            len(self), len(self.numeric_names()), len(self.categorical_names()))


def _to_float(s):
    try:
        v = float(s)
    except ValueError:
        return None, False
    if math.isnan(v) or math.isinf(v):
        return None, True
    return v, True


def _column_from_strings(values, force=None):
    """Decide the column's kind: numeric if every present value parses as a finite-or-missing float."""
    present = [v for v in values if v not in MISSING]
    if force != 'cat':
        out = []
        ok = True
        for v in values:
            if v in MISSING:
                out.append(None)
                continue
            f, good = _to_float(v)
            if not good:
                ok = False
                break
            out.append(f)
        if ok and (present or force == 'num'):
            return out, 'num'
    return [None if v in MISSING else v for v in values], 'cat'


def read_csv(path, categorical=(), raw=()):
    """Read a CSV with a header into a Table.

    categorical: names to keep as strings even if they look numeric (e.g. zip codes).
    raw: names kept exactly as the file spells them (strings, '' for missing), kind 'raw'.
    """
    with open(path, newline='') as fh:
        reader = csv.reader(fh)
        header = next(reader)
        rows = list(reader)
    width = len(header)
    for r in rows:
        if len(r) != width:
            raise ValueError('%s: a row has %d fields, the header has %d' % (path, len(r), width))
    cols_raw = list(zip(*rows)) if rows else [() for _ in header]
    columns, kinds = {}, {}
    cat = set(categorical)
    keep_raw = set(raw)
    for name, values in zip(header, cols_raw):
        if name in keep_raw:
            columns[name] = list(values)
            kinds[name] = 'raw'
            continue
        columns[name], kinds[name] = _column_from_strings(values, 'cat' if name in cat else None)
    return Table(columns, kinds, header)


class Task:
    """The job folder's contents: features of train and test, the target, and what is scored.

    type: 'regression' | 'binary' | 'multiclass'; metric: 'rmse' | 'rmsle' | 'auc' | 'accuracy' | 'macro_f1'.
    y: floats for regression, the labels exactly as train.csv spells them (str) otherwise.
    positive: the label whose probability a binary task predicts.
    """

    def __init__(self, target, type, metric, positive, train, test, y):
        self.target = target
        self.type = type
        self.metric = metric
        self.positive = positive
        self.train = train
        self.test = test
        self.y = y

    @property
    def is_classification(self):
        return self.type != 'regression'

    def classes(self):
        return sorted(set(self.y))

    def __repr__(self):
        return 'Task(%s, %s, target=%r, train=%d rows, test=%d rows, %d features)' % (
            self.type, self.metric, self.target, len(self.train), len(self.test), len(self.train.names))


def read_task_json(path='task.json'):
    with open(path) as fh:
        spec = json.load(fh)
    kind = spec.get('task', spec.get('type', spec.get('task_type')))
    if kind not in ('regression', 'binary', 'multiclass'):
        raise ValueError('task.json: unknown task type %r' % (kind,))
    # Optional column kinds ('numeric' | 'categorical'): declared categoricals stay strings.
    cats = [c['name'] for c in spec.get('columns') or () if c.get('kind') == 'categorical']
    return spec['target'], kind, spec.get('metric'), spec.get('positive'), cats


def load_task(folder='.'):
    """Read train.csv, test.csv and task.json from the job folder (the working directory by default)."""
    base = folder.rstrip('/') + '/'
    target, kind, metric, positive, cats = read_task_json(base + 'task.json')
    train = read_csv(base + 'train.csv', categorical=cats, raw=(target,))
    raw_y = train.pop(target)
    test = read_csv(base + 'test.csv', categorical=cats)
    # Both files must agree on each column's kind, or the encoders would see two vocabularies.
    for name in train.names:
        if name in test.columns and train.kinds[name] != test.kinds[name]:
            if train.kinds[name] == 'cat' or test.kinds[name] == 'cat':
                for t in (train, test):
                    if t.kinds[name] == 'num':
                        t.columns[name] = [None if v is None else repr(v) for v in t.columns[name]]
                        t.kinds[name] = 'cat'
    test = test.select([n for n in train.names])
    if kind == 'regression':
        y = [float(v) for v in raw_y]
    else:
        y = list(raw_y)
        if kind == 'binary' and positive is None:
            positive = sorted(set(y))[-1]
        if positive is not None:
            positive = str(positive)
    return Task(target, kind, metric, positive, train, test, y)


def _fmt(v):
    if isinstance(v, float):
        if math.isnan(v) or math.isinf(v):
            raise ValueError('prediction is not finite: %r' % (v,))
        return repr(v)
    return str(v)


def write_predictions(task, values, path='predictions.csv'):
    """Write predictions.csv: the target's name, then one value per test row in order.

    values: numbers for regression, positive-class probabilities for binary, labels for multiclass.
    """
    if len(values) != len(task.test):
        raise ValueError('%d predictions for %d test rows' % (len(values), len(task.test)))
    with open(path, 'w', newline='') as fh:
        w = csv.writer(fh, lineterminator='\n')
        w.writerow([task.target])
        for v in values:
            w.writerow([_fmt(v)])
