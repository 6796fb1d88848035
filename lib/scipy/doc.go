// Package scipy is jaxsh's scipy module: jax.scipy's special functions
// (scipy.special) and distributions (scipy.stats.norm, ...), composed of
// jnp and lax in the dialect (special.star, stats.star, core.star) as jax/_src/scipy
// composes them in Python. stats.DIST.FN is stats.star's DIST_FN.
//
// Members (docs/builtins.md is generated from this table):
//
//	| group | names |
//	|---|---|
//	| special | `scipy.special.logsumexp scipy.special.softmax scipy.special.log_softmax scipy.special.erf scipy.special.erfc scipy.special.erfinv scipy.special.expit scipy.special.logit scipy.special.xlogy scipy.special.xlog1py scipy.special.entr scipy.special.ndtr scipy.special.ndtri scipy.special.log_ndtr scipy.special.gammaln scipy.special.betaln scipy.special.digamma scipy.special.gamma scipy.special.beta scipy.special.factorial scipy.special.multigammaln` |
//	| special: incomplete gamma and beta, Bessel, zeta | `scipy.special.gammainc scipy.special.gammaincc scipy.special.betainc scipy.special.i0 scipy.special.i0e scipy.special.i1 scipy.special.i1e scipy.special.zeta scipy.special.polygamma scipy.special.rel_entr scipy.special.kl_div` |
//	| special: exponential integrals, Gamma's sign, Pochhammer, Bernoulli numbers | `scipy.special.exp1 scipy.special.expi scipy.special.expn scipy.special.gammasgn scipy.special.poch scipy.special.bernoulli` |
//	| stats: norm | `scipy.stats.norm.pdf scipy.stats.norm.logpdf scipy.stats.norm.cdf scipy.stats.norm.logcdf scipy.stats.norm.sf scipy.stats.norm.logsf scipy.stats.norm.ppf scipy.stats.norm.isf` |
//	| stats: uniform, laplace, logistic, cauchy | `scipy.stats.uniform.pdf scipy.stats.uniform.logpdf scipy.stats.uniform.cdf scipy.stats.uniform.ppf scipy.stats.uniform.sf scipy.stats.laplace.pdf scipy.stats.laplace.logpdf scipy.stats.laplace.cdf scipy.stats.laplace.sf scipy.stats.laplace.ppf scipy.stats.logistic.pdf scipy.stats.logistic.logpdf scipy.stats.logistic.cdf scipy.stats.logistic.sf scipy.stats.logistic.ppf scipy.stats.cauchy.pdf scipy.stats.cauchy.logpdf scipy.stats.cauchy.cdf scipy.stats.cauchy.sf scipy.stats.cauchy.ppf` |
//	| stats: densities | `scipy.stats.t.pdf scipy.stats.t.logpdf scipy.stats.gamma.pdf scipy.stats.gamma.logpdf scipy.stats.beta.pdf scipy.stats.beta.logpdf scipy.stats.multivariate_normal.pdf scipy.stats.multivariate_normal.logpdf` |
//	| stats: gamma, beta, chi2, expon | `scipy.stats.gamma.cdf scipy.stats.gamma.logcdf scipy.stats.gamma.sf scipy.stats.gamma.logsf scipy.stats.beta.cdf scipy.stats.beta.logcdf scipy.stats.beta.sf scipy.stats.beta.logsf scipy.stats.chi2.pdf scipy.stats.chi2.logpdf scipy.stats.chi2.cdf scipy.stats.chi2.logcdf scipy.stats.chi2.sf scipy.stats.chi2.logsf scipy.stats.expon.pdf scipy.stats.expon.logpdf scipy.stats.expon.cdf scipy.stats.expon.logcdf scipy.stats.expon.sf scipy.stats.expon.logsf scipy.stats.expon.ppf` |
//	| stats: discrete | `scipy.stats.poisson.pmf scipy.stats.poisson.logpmf scipy.stats.bernoulli.pmf scipy.stats.bernoulli.logpmf scipy.stats.bernoulli.cdf scipy.stats.bernoulli.ppf scipy.stats.poisson.cdf scipy.stats.binom.pmf scipy.stats.binom.logpmf scipy.stats.nbinom.pmf scipy.stats.nbinom.logpmf scipy.stats.geom.pmf scipy.stats.geom.logpmf` |
//	| stats: dirichlet, multinomial, gennorm, pareto, vonmises, wrapcauchy, truncnorm | `scipy.stats.dirichlet.pdf scipy.stats.dirichlet.logpdf scipy.stats.multinomial.pmf scipy.stats.multinomial.logpmf scipy.stats.gennorm.pdf scipy.stats.gennorm.logpdf scipy.stats.gennorm.cdf scipy.stats.pareto.pdf scipy.stats.pareto.logpdf scipy.stats.pareto.cdf scipy.stats.pareto.sf scipy.stats.pareto.ppf scipy.stats.vonmises.pdf scipy.stats.vonmises.logpdf scipy.stats.wrapcauchy.pdf scipy.stats.wrapcauchy.logpdf scipy.stats.truncnorm.pdf scipy.stats.truncnorm.logpdf scipy.stats.truncnorm.cdf scipy.stats.truncnorm.logcdf scipy.stats.truncnorm.sf scipy.stats.truncnorm.logsf` |
//	| stats: of samples | `scipy.stats.rankdata scipy.stats.sem` (core.star) |
package scipy
