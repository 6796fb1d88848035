# Writes scipy_cases.json: jax.scipy expressions with the values SciPy 1.10
# gives. Run once: /usr/bin/python3 gen_scipy.py (the tests need no Python).
import json, math
import numpy as np
import scipy.special as sp
import scipy.stats as st

X = "jnp.array([-2.5, -0.75, 0.0, 0.3, 1.0, 4.0])"
x = np.array([-2.5, -0.75, 0.0, 0.3, 1.0, 4.0])
P = "jnp.array([0.001, 0.1, 0.5, 0.8, 0.999])"
p = np.array([0.001, 0.1, 0.5, 0.8, 0.999])
G = "jnp.array([0.1, 0.5, 1.0, 1.5, 2.0, 3.7, 10.0, 150.0, -0.5, -2.25])"
g = np.array([0.1, 0.5, 1.0, 1.5, 2.0, 3.7, 10.0, 150.0, -0.5, -2.25])
K = "jnp.array([0.0, 1.0, 3.0, 7.0])"
k = np.array([0.0, 1.0, 3.0, 7.0])

cases = [
    ("scipy.special.logsumexp(%s)" % X, sp.logsumexp(x)),
    ("scipy.special.logsumexp(%s, b=jnp.array([1.0, 2.0, 0.0, 1.0, 0.5, 0.1]))" % X, sp.logsumexp(x, b=[1.0, 2.0, 0.0, 1.0, 0.5, 0.1])),
    ("scipy.special.softmax(%s)" % X, sp.softmax(x)),
    ("scipy.special.log_softmax(%s)" % X, sp.log_softmax(x)),
    ("scipy.special.erf(%s)" % X, sp.erf(x)),
    ("scipy.special.erfc(%s)" % X, sp.erfc(x)),
    ("scipy.special.erfinv(jnp.array([-0.9, -0.2, 0.0, 0.5, 0.99]))", sp.erfinv([-0.9, -0.2, 0.0, 0.5, 0.99])),
    ("scipy.special.expit(%s)" % X, sp.expit(x)),
    ("scipy.special.logit(%s)" % P, sp.logit(p)),
    ("scipy.special.xlogy(jnp.array([0.0, 2.0, 3.0]), jnp.array([0.0, 0.5, 4.0]))", sp.xlogy([0.0, 2.0, 3.0], [0.0, 0.5, 4.0])),
    ("scipy.special.xlog1py(jnp.array([0.0, 2.0, 3.0]), jnp.array([-1.0, 0.5, 4.0]))", sp.xlog1py([0.0, 2.0, 3.0], [-1.0, 0.5, 4.0])),
    ("scipy.special.entr(jnp.array([-1.0, 0.0, 0.5, 2.0]))", sp.entr([-1.0, 0.0, 0.5, 2.0])),
    ("scipy.special.ndtr(%s)" % X, sp.ndtr(x)),
    ("scipy.special.ndtri(%s)" % P, sp.ndtri(p)),
    ("scipy.special.log_ndtr(jnp.array([-40.0, -12.0, -3.0, 0.0, 2.0, 7.0]))", sp.log_ndtr([-40.0, -12.0, -3.0, 0.0, 2.0, 7.0])),
    ("scipy.special.log_ndtr(jnp.array([-40.0, -25.0, -3.0, 7.0], dtype=jnp.float64))", sp.log_ndtr([-40.0, -25.0, -3.0, 7.0]), "f64"),
    ("scipy.special.gammaln(%s)" % G, sp.gammaln(g)),
    ("scipy.special.gammaln(jnp.array([0.5, 7.25, 100.0, -1.5], dtype=jnp.float64))", sp.gammaln([0.5, 7.25, 100.0, -1.5]), "f64"),
    ("scipy.special.betaln(jnp.array([0.5, 2.0, 10.0]), jnp.array([1.5, 3.0, 0.25]))", sp.betaln([0.5, 2.0, 10.0], [1.5, 3.0, 0.25])),
    ("scipy.special.digamma(%s)" % G, sp.digamma(g)),
    ("scipy.special.digamma(jnp.array([0.25, 1.0, 12.5, -0.5], dtype=jnp.float64))", sp.digamma([0.25, 1.0, 12.5, -0.5]), "f64"),
    ("scipy.special.gamma(jnp.array([0.5, 1.0, 4.5, -0.5, -1.5]))", sp.gamma([0.5, 1.0, 4.5, -0.5, -1.5])),
    ("scipy.special.beta(jnp.array([0.5, 2.0]), jnp.array([1.5, 3.0]))", sp.beta([0.5, 2.0], [1.5, 3.0])),
    ("scipy.special.factorial(jnp.array([0.0, 1.0, 5.0, -1.0]))", sp.factorial([0.0, 1.0, 5.0, -1.0])),
    ("scipy.special.multigammaln(jnp.array([2.5, 4.0]), 3)", sp.multigammaln(np.array([2.5, 4.0])[:, None], 3)[:, 0] if False else np.array([sp.multigammaln(2.5, 3), sp.multigammaln(4.0, 3)])),
    ("scipy.stats.norm.pdf(%s)" % X, st.norm.pdf(x)),
    ("scipy.stats.norm.logpdf(%s, loc=1.0, scale=2.0)" % X, st.norm.logpdf(x, 1.0, 2.0)),
    ("scipy.stats.norm.cdf(%s, loc=-1.0, scale=0.5)" % X, st.norm.cdf(x, -1.0, 0.5)),
    ("scipy.stats.norm.logcdf(jnp.array([-30.0, -4.0, 0.0, 3.0]))", st.norm.logcdf([-30.0, -4.0, 0.0, 3.0])),
    ("scipy.stats.norm.sf(%s)" % X, st.norm.sf(x)),
    ("scipy.stats.norm.logsf(jnp.array([-3.0, 0.0, 4.0, 30.0]))", st.norm.logsf([-3.0, 0.0, 4.0, 30.0])),
    ("scipy.stats.norm.ppf(%s, loc=2.0, scale=3.0)" % P, st.norm.ppf(p, 2.0, 3.0)),
    ("scipy.stats.norm.isf(%s)" % P, st.norm.isf(p)),
    ("scipy.stats.uniform.pdf(%s, loc=-1.0, scale=2.0)" % X, st.uniform.pdf(x, -1.0, 2.0)),
    ("scipy.stats.uniform.logpdf(%s, loc=-1.0, scale=2.0)" % X, st.uniform.logpdf(x, -1.0, 2.0)),
    ("scipy.stats.uniform.cdf(%s, loc=-1.0, scale=2.0)" % X, st.uniform.cdf(x, -1.0, 2.0)),
    ("scipy.stats.uniform.ppf(%s, loc=-1.0, scale=2.0)" % P, st.uniform.ppf(p, -1.0, 2.0)),
    ("scipy.stats.uniform.sf(%s)" % X, st.uniform.sf(x)),
    ("scipy.stats.laplace.pdf(%s, scale=2.0)" % X, st.laplace.pdf(x, scale=2.0)),
    ("scipy.stats.laplace.logpdf(%s)" % X, st.laplace.logpdf(x)),
    ("scipy.stats.laplace.cdf(%s, loc=0.5)" % X, st.laplace.cdf(x, loc=0.5)),
    ("scipy.stats.laplace.sf(%s)" % X, st.laplace.sf(x)),
    ("scipy.stats.laplace.ppf(%s)" % P, st.laplace.ppf(p)),
    ("scipy.stats.logistic.pdf(%s)" % X, st.logistic.pdf(x)),
    ("scipy.stats.logistic.logpdf(%s, loc=1.0, scale=0.5)" % X, st.logistic.logpdf(x, 1.0, 0.5)),
    ("scipy.stats.logistic.cdf(%s)" % X, st.logistic.cdf(x)),
    ("scipy.stats.logistic.sf(%s)" % X, st.logistic.sf(x)),
    ("scipy.stats.logistic.ppf(%s)" % P, st.logistic.ppf(p)),
    ("scipy.stats.cauchy.pdf(%s)" % X, st.cauchy.pdf(x)),
    ("scipy.stats.cauchy.logpdf(%s, scale=3.0)" % X, st.cauchy.logpdf(x, scale=3.0)),
    ("scipy.stats.cauchy.cdf(%s)" % X, st.cauchy.cdf(x)),
    ("scipy.stats.cauchy.sf(%s)" % X, st.cauchy.sf(x)),
    ("scipy.stats.cauchy.ppf(%s)" % P, st.cauchy.ppf(p)),
    ("scipy.stats.t.pdf(%s, 3.0)" % X, st.t.pdf(x, 3.0)),
    ("scipy.stats.t.logpdf(%s, 1.5, loc=0.5, scale=2.0)" % X, st.t.logpdf(x, 1.5, 0.5, 2.0)),
    ("scipy.stats.gamma.pdf(jnp.array([0.5, 1.0, 3.0, 8.0]), 2.5)", st.gamma.pdf([0.5, 1.0, 3.0, 8.0], 2.5)),
    ("scipy.stats.gamma.logpdf(jnp.array([-1.0, 0.5, 3.0]), 2.5, scale=2.0)", st.gamma.logpdf([-1.0, 0.5, 3.0], 2.5, scale=2.0)),
    ("scipy.stats.beta.pdf(jnp.array([0.1, 0.5, 0.9]), 2.0, 5.0)", st.beta.pdf([0.1, 0.5, 0.9], 2.0, 5.0)),
    ("scipy.stats.beta.logpdf(jnp.array([-0.1, 0.3, 0.7]), 0.5, 0.5)", st.beta.logpdf([-0.1, 0.3, 0.7], 0.5, 0.5)),
    ("scipy.stats.poisson.pmf(%s, 2.5)" % K, st.poisson.pmf(k, 2.5)),
    ("scipy.stats.poisson.logpmf(%s, 0.5)" % K, st.poisson.logpmf(k, 0.5)),
    ("scipy.stats.bernoulli.pmf(jnp.array([0.0, 1.0, 2.0]), 0.3)", st.bernoulli.pmf([0.0, 1.0, 2.0], 0.3)),
    ("scipy.stats.bernoulli.logpmf(jnp.array([0.0, 1.0]), 0.3)", st.bernoulli.logpmf([0.0, 1.0], 0.3)),
    ("scipy.stats.bernoulli.cdf(jnp.array([-1.0, 0.0, 0.5, 1.0]), 0.3)", st.bernoulli.cdf([-1.0, 0.0, 0.5, 1.0], 0.3)),
    ("scipy.stats.bernoulli.ppf(jnp.array([0.1, 0.7, 0.71, 1.0]), 0.3)", st.bernoulli.ppf([0.1, 0.7, 0.71, 1.0], 0.3)),
    ("scipy.stats.multivariate_normal.logpdf(jnp.array([0.5, -0.2]), jnp.array([0.1, 0.0]), jnp.array([[2.0, 0.3], [0.3, 1.0]]))", st.multivariate_normal.logpdf([0.5, -0.2], [0.1, 0.0], [[2.0, 0.3], [0.3, 1.0]])),
    ("scipy.stats.multivariate_normal.pdf(jnp.array([[0.5, -0.2], [1.0, 1.0], [-2.0, 0.0]]), jnp.zeros(2), jnp.array([[2.0, 0.3], [0.3, 1.0]]))", st.multivariate_normal.pdf([[0.5, -0.2], [1.0, 1.0], [-2.0, 0.0]], [0.0, 0.0], [[2.0, 0.3], [0.3, 1.0]])),
]

def plain(v):
    if isinstance(v, (tuple, list)):
        return [plain(e) for e in v]
    if isinstance(v, np.ndarray):
        return plain(v.tolist()) if v.ndim else plain(v.item())
    if isinstance(v, np.generic):
        return plain(v.item())
    if isinstance(v, float):
        if math.isnan(v):
            return "nan"
        if math.isinf(v):
            return "inf" if v > 0 else "-inf"
    return v

with open("scipy_cases.json", "w") as f:
    json.dump([[c[0], plain(c[1])] + list(c[2:]) for c in cases], f, indent=0)
    f.write("\n")
print(len(cases), "cases")
