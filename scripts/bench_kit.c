/*
 * bench_kit.c - callback time of the point block of a built-in formulation
 * over the nodes of a uniform mesh (scripts/bench_kit.sh builds it against
 * an installed radcol before and after a change).  For n elements of s = 3
 * Radau stages the block's eval, jacobian and hessian are called at the
 * 3 n nodes (w from the problem's guess, mu fixed pseudo-random), as one NLP
 * iteration calls them; each sweep is timed 7 times, the best kept.
 *
 * usage: bench_kit MODEL FORMULATION N   (prints one markdown table row)
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "radcol/params.h"
#include "radcol/problem.h"

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

int main(int argc, char **argv) {
  if (argc != 4) {
    fprintf(stderr, "usage: bench_kit MODEL FORMULATION N\n");
    return 2;
  }
  const rc_model *m = rc_find_model(argv[1]);
  const int f = m ? rc_model_find_formulation(m, argv[2]) : -1;
  const int n = atoi(argv[3]);
  rc_param_values pv;
  rc_error err;
  rc_problem *pb = NULL;
  if (f < 0 || n <= 0 || rc_params_init_defaults(m, &pv, &err) != RC_OK ||
      m->create(m, f, &pv, &pb, &err) != RC_OK) {
    fprintf(stderr, "bench_kit: cannot build %s/%s\n", argv[1], argv[2]);
    return 2;
  }
  const int nw = rc_problem_nw(pb), nF = rc_problem_nF(pb), np = 3 * n;
  const rc_block *b = &pb->point;
  const double c[3] = {0.15505102572168219, 0.64494897427831781, 1.0};
  double *t = malloc(sizeof *t * (size_t)np);
  double *w = malloc(sizeof *w * (size_t)np * (size_t)nw);
  double *mu = malloc(sizeof *mu * (size_t)nF);
  double *out =
      malloc(sizeof *out * (size_t)(nF + b->jac.nnz + b->hes.nnz + 1));
  unsigned long long s = 88172645463325252ull;
  for (int i = 0; i < nF; ++i) {
    s ^= s << 13, s ^= s >> 7, s ^= s << 17;
    mu[i] = -1.0 + 2.0 * (double)(s >> 11) / 9007199254740992.0;
  }
  for (int k = 0; k < n; ++k)
    for (int j = 0; j < 3; ++j) {
      const int p = 3 * k + j;
      t[p] = pb->t0 + (pb->tf - pb->t0) * (k + c[j]) / n;
      if (pb->guess)
        pb->guess(pb, t[p], w + (size_t)p * nw);
      else
        for (int i = 0; i < nw; ++i)
          w[(size_t)p * nw + i] = 0.3 + 0.1 * i;
    }
  double best[3] = {1e300, 1e300, 1e300}, sink = 0.0;
  for (int rep = 0; rep < 7; ++rep)
    for (int what = 0; what < 3; ++what) {
      const double t0 = now();
      for (int p = 0; p < np; ++p) {
        const double *wp = w + (size_t)p * nw;
        int st = what == 0   ? b->eval(pb, t[p], wp, out)
                 : what == 1 ? b->jacobian(pb, t[p], wp, out)
                             : b->hessian(pb, t[p], wp, mu, out);
        if (st != 0) {
          fprintf(stderr, "bench_kit: callback %d failed (%d)\n", what, st);
          return 1;
        }
        sink += out[0];
      }
      const double dt = now() - t0;
      if (dt < best[what])
        best[what] = dt;
    }
  printf("| %s/%s | %d | %.2f | %.2f | %.2f | %.2f | %.1f |\n", argv[1],
         argv[2], np, 1e3 * best[0], 1e3 * best[1], 1e3 * best[2],
         1e3 * (best[0] + best[1] + best[2]),
         1e9 * (best[0] + best[1] + best[2]) / np);
  if (sink == 12345.678)
    puts("");
  free(t), free(w), free(mu), free(out);
  rc_problem_free(&pb);
  return 0;
}
