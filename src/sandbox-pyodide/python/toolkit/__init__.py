"""toolkit: a small pure-Python machine-learning library for the sandbox (no numpy, no scikit-learn).

    import toolkit as tk
    task = tk.load_task()                       # train.csv, test.csv, task.json in the working directory
    pre = tk.Preprocessor(impute='median', scale='standard', encode='onehot')
    X, Xt = pre.fit_transform(task.train), pre.transform(task.test)
    model = tk.model_for(task, 'gbm', n_estimators=100).fit(X, task.y)
    tk.write_predictions(task, tk.task_outputs(model, Xt, task))

See docs/toolkit.md in the project for every class and its hyperparameters.
"""
from .table import Table, Task, load_task, read_csv, read_task_json, write_predictions
from .preprocess import Imputer, OneHotEncoder, OrdinalEncoder, Preprocessor, Scaler, TargetTransform, to_matrix
from .metrics import GREATER_IS_BETTER, accuracy, auc, better, log_loss, macro_f1, mae, r2, rmse, rmsle, score
from .validation import (cross_val_score, holdout_score, kfold, select_best, task_outputs, task_score,
                         train_test_split)
from .baselines import MajorityClassifier, MeanRegressor
from .linear import LinearRegression, LogisticRegression, Ridge, cholesky_solve
from .neighbors import KNeighborsClassifier, KNeighborsRegressor
from .bayes import GaussianNB
from .trees import Binner, DecisionTreeClassifier, DecisionTreeRegressor
from .ensembles import (GradientBoostingClassifier, GradientBoostingRegressor, RandomForestClassifier,
                        RandomForestRegressor)

# Family name -> (regressor class, classifier class); None where a family has no such model.
FAMILIES = {
    'baseline': (MeanRegressor, MajorityClassifier),
    'linear': (LinearRegression, None),
    'ridge': (Ridge, None),
    'logistic': (None, LogisticRegression),
    'knn': (KNeighborsRegressor, KNeighborsClassifier),
    'naive_bayes': (None, GaussianNB),
    'tree': (DecisionTreeRegressor, DecisionTreeClassifier),
    'forest': (RandomForestRegressor, RandomForestClassifier),
    'gbm': (GradientBoostingRegressor, GradientBoostingClassifier),
}


def model_for(task, family, **params):
    """A fresh model of the family for the task's type (e.g. 'forest' -> RandomForestClassifier)."""
    if family not in FAMILIES:
        raise ValueError('unknown family %r; known: %s' % (family, ', '.join(sorted(FAMILIES))))
    reg, clf = FAMILIES[family]
    cls = reg if task.type == 'regression' else clf
    if cls is None:
        raise ValueError('family %r has no model for %s tasks' % (family, task.type))
    return cls(**params)
