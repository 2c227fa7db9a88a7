"""Linear models: least squares and ridge in closed form, logistic regression by L-BFGS."""
import math

from .base import ClassifierMixin, as_columns, check_X, sigmoid

_dot = math.sumprod


def cholesky_solve(A, b):
    """Solve A x = b for a symmetric positive definite A (list of rows). Raises ValueError if not PD."""
    n = len(A)
    L = [[0.0] * n for _ in range(n)]
    for j in range(n):
        Lj = L[j]
        d = A[j][j] - _dot(Lj[:j], Lj[:j])
        if d <= 0.0:
            raise ValueError('matrix is not positive definite')
        dj = math.sqrt(d)
        Lj[j] = dj
        for i in range(j + 1, n):
            Li = L[i]
            Li[j] = (A[i][j] - _dot(Li[:j], Lj[:j])) / dj
    z = [0.0] * n
    for i in range(n):
        z[i] = (b[i] - _dot(L[i][:i], z[:i])) / L[i][i]
    x = [0.0] * n
    for i in range(n - 1, -1, -1):
        s = z[i]
        for k in range(i + 1, n):
            s -= L[k][i] * x[k]
        x[i] = s / L[i][i]
    return x


class Ridge:
    """Least squares with an L2 penalty alpha on the coefficients (not the intercept).

    Solved by the normal equations on centred features with a Cholesky factorisation; a tiny
    relative jitter keeps exactly collinear features (e.g. full one-hot sets) solvable.
    """

    def __init__(self, alpha=1.0):
        self.alpha = alpha

    def fit(self, X, y):
        cols = as_columns(check_X(X))
        n = len(y)
        d = len(cols)
        ybar = math.fsum(y) / n
        yc = [v - ybar for v in y]
        means = [math.fsum(c) / n for c in cols]
        cc = [[v - m for v in c] for c, m in zip(cols, means)]
        G = [[0.0] * d for _ in range(d)]
        for j in range(d):
            for k in range(j, d):
                G[j][k] = G[k][j] = _dot(cc[j], cc[k])
        rhs = [_dot(c, yc) for c in cc]
        trace = sum(G[j][j] for j in range(d)) / max(d, 1)
        jitter = 1e-10 * trace + 1e-12
        while True:
            A = [row[:] for row in G]
            for j in range(d):
                A[j][j] += self.alpha + jitter
            try:
                w = cholesky_solve(A, rhs) if d else []
                break
            except ValueError:
                jitter = jitter * 100 + 1e-12
        self.coef_ = w
        self.intercept_ = ybar - _dot(means, w) if d else ybar
        return self

    def predict(self, X):
        w, b = self.coef_, self.intercept_
        return [b + _dot(r, w) for r in X]


class LinearRegression(Ridge):
    """Ordinary least squares (ridge with alpha = 0 plus the stabilising jitter)."""

    def __init__(self):
        super().__init__(alpha=0.0)


def lbfgs(fun_grad, x0, max_iter=100, tol=1e-6, memory=8):
    """Minimise a smooth function; fun_grad(x) -> (f, g). Backtracking Armijo line search."""
    x = list(x0)
    f, g = fun_grad(x)
    S, Y, RHO = [], [], []
    for it in range(max_iter):
        if max(abs(v) for v in g) < tol:
            break
        # Two-loop recursion: d = -H g.
        q = list(g)
        alphas = []
        for s, yv, rho in zip(reversed(S), reversed(Y), reversed(RHO)):
            a = rho * _dot(s, q)
            alphas.append(a)
            q = [qi - a * yi for qi, yi in zip(q, yv)]
        if S:
            gamma = _dot(S[-1], Y[-1]) / _dot(Y[-1], Y[-1])
        else:
            gamma = 1.0 / max(1e-12, math.sqrt(_dot(g, g)))
        r = [gamma * v for v in q]
        for s, yv, rho, a in zip(S, Y, RHO, reversed(alphas)):
            b = rho * _dot(yv, r)
            r = [ri + (a - b) * si for ri, si in zip(r, s)]
        d = [-v for v in r]
        slope = _dot(g, d)
        if slope >= 0:
            d = [-v for v in g]
            slope = -_dot(g, g)
            S, Y, RHO = [], [], []
        step = 1.0
        while True:
            xn = [xi + step * di for xi, di in zip(x, d)]
            fn, gn = fun_grad(xn)
            if fn <= f + 1e-4 * step * slope or step < 1e-10:
                break
            step *= 0.5
        s = [a - b for a, b in zip(xn, x)]
        yv = [a - b for a, b in zip(gn, g)]
        sy = _dot(s, yv)
        if sy > 1e-12:
            S.append(s)
            Y.append(yv)
            RHO.append(1.0 / sy)
            if len(S) > memory:
                S.pop(0)
                Y.pop(0)
                RHO.pop(0)
        converged = abs(f - fn) <= tol * max(1.0, abs(f))
        x, f, g = xn, fn, gn
        if converged:
            break
    return x, f


class LogisticRegression(ClassifierMixin):
    """Multinomial logistic regression (sigmoid for two classes) with an L2 penalty.

    Objective: mean log-loss + ||W||^2 / (2 C n) (the intercept is not penalised), so C plays the
    role it plays in scikit-learn. Fitted by L-BFGS for at most max_iter iterations.
    """

    def __init__(self, C=1.0, max_iter=100, tol=1e-6):
        self.C = C
        self.max_iter = max_iter
        self.tol = tol

    def fit(self, X, y):
        X = check_X(X)
        cols = as_columns(X)
        yi = self._index_labels(y)
        n, d = len(X), len(cols)
        K = len(self.classes_)
        Kp = 1 if K == 2 else K
        lam = 1.0 / (self.C * n) if self.C else 0.0
        onehot = [[1.0 if v == k else 0.0 for v in yi] for k in range(K)]
        if K == 2:
            onehot = [onehot[1]]
        inv_n = 1.0 / n

        def fun_grad(theta):
            Ws = [theta[k * (d + 1): k * (d + 1) + d] for k in range(Kp)]
            bs = [theta[k * (d + 1) + d] for k in range(Kp)]
            scores = [[b + _dot(r, W) for r in X] for W, b in zip(Ws, bs)]
            loss = 0.0
            resid = []
            if Kp == 1:
                s, t = scores[0], onehot[0]
                p = [sigmoid(v) for v in s]
                # log(1 + e^s) - t s, written to stay finite for large |s|.
                loss = math.fsum((max(v, 0.0) + math.log1p(math.exp(-abs(v)))) - tv * v for v, tv in zip(s, t))
                resid.append([a - b for a, b in zip(p, t)])
            else:
                probs = [[0.0] * n for _ in range(K)]
                for i in range(n):
                    si = [scores[k][i] for k in range(K)]
                    m = max(si)
                    e = [math.exp(v - m) for v in si]
                    tot = sum(e)
                    lse = m + math.log(tot)
                    loss += lse - si[yi[i]]
                    for k in range(K):
                        probs[k][i] = e[k] / tot
                resid = [[a - b for a, b in zip(probs[k], onehot[k])] for k in range(K)]
            loss *= inv_n
            grad = []
            for k in range(Kp):
                W, r = Ws[k], resid[k]
                loss += 0.5 * lam * _dot(W, W)
                grad.extend(inv_n * _dot(c, r) + lam * w for c, w in zip(cols, W))
                grad.append(inv_n * math.fsum(r))
            return loss, grad

        theta, _ = lbfgs(fun_grad, [0.0] * (Kp * (d + 1)), self.max_iter, self.tol)
        self.coef_ = [theta[k * (d + 1): k * (d + 1) + d] for k in range(Kp)]
        self.intercept_ = [theta[k * (d + 1) + d] for k in range(Kp)]
        return self

    def decision_function(self, X):
        return [[b + _dot(r, W) for W, b in zip(self.coef_, self.intercept_)] for r in X]

    def predict_proba(self, X):
        out = []
        for s in self.decision_function(X):
            if len(s) == 1:
                p = sigmoid(s[0])
                out.append([1.0 - p, p])
            else:
                m = max(s)
                e = [math.exp(v - m) for v in s]
                t = sum(e)
                out.append([v / t for v in e])
        return out
