/*
 * gen_twin.c - the generated pendulum twin (examples/models/pendulum_twin.py
 * through scripts/radcol-gen) against the hand-coded built-in pendulum
 * (problems/pendulum.c), formulation by formulation (accel, index3):
 *
 *   1. the same dims, names, bounds, initial data and horizon;
 *   2. callbacks at NPOINTS random points w (and weights mu): every value,
 *      Jacobian and Hessian entry of the point and invariant blocks agrees,
 *      matched by (row, col) since the two codes order their patterns
 *      differently: |gen - hand| <= 1e-14 max(1, |hand|), and the patterns
 *      hold the same entries;
 *   3. a solve of each from the same initial guess (the built-in's own,
 *      sampled into a solution and distorted by +-20 % so that Ipopt has
 *      work to do) gives the same iteration count and the same
 *      solution to 1e-12 (relative to max(1, |w|)).
 *
 * usage: gen_twin PLUGIN.so  (the plugin built from pendulum_twin.py)
 *        gen_twin --bench PLUGIN.so: instead, time the point-block callbacks
 *        of both (ns per call, best of 7; scripts/bench_gen.sh)
 * The executable is linked with ENABLE_EXPORTS so the plugin's calls into
 * radcol (rc_error_set) resolve, as they do in the radcol executable.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/plugin_loader.h"
#include "radcol/catalogue.h"
#include "radcol/mesh.h"
#include "radcol/options.h"
#include "radcol/params.h"
#include "radcol/plugin.h"
#include "radcol/result.h"
#include "radcol/solve.h"

#include "test_util.h"

#define NPOINTS 200
#define TOL_CB 1e-14
#define TOL_SOL 1e-12

static unsigned long long rng_s = 88172645463325252ull;
static double urand(double lo, double hi) {
  rng_s ^= rng_s << 13;
  rng_s ^= rng_s >> 7;
  rng_s ^= rng_s << 17;
  return lo + (hi - lo) * (double)(rng_s >> 11) * (1.0 / 9007199254740992.0);
}

static rc_problem *make(const rc_model *m, const char *form) {
  rc_param_values pv;
  rc_error err;
  rc_problem *pb = NULL;
  const int f = rc_model_find_formulation(m, form);
  EXPECT(f >= 0, "%s has no formulation %s", m->name, form);
  if (f < 0 || rc_params_init_defaults(m, &pv, &err) != RC_OK)
    return NULL;
  if (m->create(m, f, &pv, &pb, &err) != RC_OK ||
      rc_problem_validate(pb, &err) != RC_OK) {
    EXPECT(0, "%s/%s: %s", m->name, form, err.message);
    rc_problem_free(&pb);
  }
  rc_params_free(&pv);
  return pb;
}

/* Dense (n_out x n_in) image of pattern values; 1 where declared. */
static void densify(const rc_pattern *p, const double *vals, int ncol,
                    double *dense, unsigned char *decl) {
  for (int e = 0; e < p->nnz; ++e) {
    dense[p->row[e] * ncol + p->col[e]] = vals[e];
    decl[p->row[e] * ncol + p->col[e]] = 1;
  }
}

static double worst = 0.0; /* largest relative callback difference seen */

static void compare(const char *what, const double *a, const double *b,
                    const unsigned char *da, const unsigned char *db, int n) {
  for (int k = 0; k < n; ++k) {
    if (da && db && da[k] != db[k]) {
      EXPECT(0, "%s: entry %d declared by %s only", what, k,
             da[k] ? "the generated code" : "the hand-coded one");
      return;
    }
    const double d = fabs(a[k] - b[k]) / fmax(1.0, fabs(b[k]));
    worst = d > worst ? d : worst;
    if (!(d <= TOL_CB)) {
      EXPECT(0, "%s: entry %d: generated %.17g, hand-coded %.17g", what, k,
             a[k], b[k]);
      return;
    }
  }
}

/* One block of both problems at random points. */
static void block_agree(const char *name, const rc_problem *pg,
                        const rc_block *bg, const rc_problem *ph,
                        const rc_block *bh, int nin) {
  const int no = bh->n_out;
  EXPECT(bg->n_out == no, "%s: %d outputs, hand-coded %d", name, bg->n_out, no);
  if (bg->n_out != no)
    return;
  double w[16], mu[16], fg[16], fh[16], vg[256], vh[256];
  double Jg[256], Jh[256], Hg[256], Hh[256];
  unsigned char dJg[256], dJh[256], dHg[256], dHh[256];
  char what[96];
  for (int k = 0; k < NPOINTS; ++k) {
    const double t = urand(0.0, 5.0);
    for (int i = 0; i < nin; ++i)
      w[i] = urand(-2.0, 2.0);
    w[nin - 1] = urand(0.0, 20.0); /* T */
    for (int i = 0; i < no; ++i)
      mu[i] = urand(-1.0, 1.0);
    EXPECT(bg->eval(pg, t, w, fg) == 0 && bh->eval(ph, t, w, fh) == 0,
           "%s: eval failed", name);
    snprintf(what, sizeof what, "%s values", name);
    compare(what, fg, fh, NULL, NULL, no);
    memset(Jg, 0, sizeof Jg), memset(Jh, 0, sizeof Jh);
    memset(dJg, 0, sizeof dJg), memset(dJh, 0, sizeof dJh);
    EXPECT(bg->jacobian(pg, t, w, vg) == 0 && bh->jacobian(ph, t, w, vh) == 0,
           "%s: jacobian failed", name);
    densify(&bg->jac, vg, nin, Jg, dJg);
    densify(&bh->jac, vh, nin, Jh, dJh);
    snprintf(what, sizeof what, "%s Jacobian (row-major entry)", name);
    compare(what, Jg, Jh, dJg, dJh, no * nin);
    memset(Hg, 0, sizeof Hg), memset(Hh, 0, sizeof Hh);
    memset(dHg, 0, sizeof dHg), memset(dHh, 0, sizeof dHh);
    EXPECT(bg->hessian(pg, t, w, mu, vg) == 0 &&
               bh->hessian(ph, t, w, mu, vh) == 0,
           "%s: hessian failed", name);
    densify(&bg->hes, vg, nin, Hg, dHg);
    densify(&bh->hes, vh, nin, Hh, dHh);
    snprintf(what, sizeof what, "%s Hessian (row-major entry)", name);
    compare(what, Hg, Hh, dHg, dHh, nin * nin);
  }
}

static void twin(const rc_model *gen, const rc_model *hand, const char *form) {
  rc_problem *pg = make(gen, form), *ph = make(hand, form);
  if (!pg || !ph) {
    rc_problem_free(&pg);
    rc_problem_free(&ph);
    return;
  }
  const int nw = rc_problem_nw(ph);
  EXPECT(pg->nx == ph->nx && pg->ny == ph->ny && pg->nu == ph->nu &&
             pg->np == ph->np && pg->nc == ph->nc && pg->nb == ph->nb &&
             pg->ninv == ph->ninv && pg->index == ph->index &&
             pg->t0_algebraic == ph->t0_algebraic &&
             pg->autonomous == ph->autonomous,
         "%s: dims or flags differ", form);
  EXPECT(pg->t0 == ph->t0 && pg->tf == ph->tf,
         "%s: horizon [%g, %g] vs [%g, %g]", form, pg->t0, pg->tf, ph->t0,
         ph->tf);
  for (int i = 0; i < nw && i < rc_problem_nw(pg); ++i)
    EXPECT(strcmp(pg->var_names[i], ph->var_names[i]) == 0 &&
               pg->w_lo[i] == ph->w_lo[i] && pg->w_hi[i] == ph->w_hi[i],
           "%s: variable %d: %s vs %s (or bounds)", form, i, pg->var_names[i],
           ph->var_names[i]);
  for (int i = 0; i < ph->nx; ++i)
    EXPECT(pg->x0[i] == ph->x0[i] && pg->fix_x0[i] == ph->fix_x0[i],
           "%s: x0[%d] = %.17g vs %.17g", form, i, pg->x0[i], ph->x0[i]);
  if (failures)
    goto done;
  worst = 0.0;
  char name[64];
  snprintf(name, sizeof name, "%s point", form);
  block_agree(name, pg, &pg->point, ph, &ph->point, nw);
  snprintf(name, sizeof name, "%s invariants", form);
  block_agree(name, pg, &pg->invariants, ph, &ph->invariants, nw);
  printf("%s: callbacks agree at %d random points: max relative difference "
         "%.2e (tolerance %.0e)\n",
         form, NPOINTS, worst, TOL_CB);

  /* The same solve from the same guess: the built-in's guess function
   * sampled at the nodes (so neither problem's own guess is used). */
  rc_mesh mesh;
  rc_error err;
  rc_solution guess, sg, sh;
  rc_solve_stats stg, sth;
  memset(&guess, 0, sizeof guess), memset(&sg, 0, sizeof sg);
  memset(&sh, 0, sizeof sh);
  if (rc_mesh_uniform(20, 3, &mesh, &err) != RC_OK ||
      rc_solution_alloc(ph, &mesh, ph->t0, ph->tf, 0, &guess, &err) != RC_OK) {
    EXPECT(0, "%s: setup: %s", form, err.message);
    goto done;
  }
  rc_solution_set_times(&guess);
  for (int n = 0; n < guess.nnodes; ++n) { /* not the answer: +-20 % */
    double *wn = guess.w + (size_t)n * nw;
    ph->guess(ph, guess.t[n], wn);
    for (int i = 0; i < nw; ++i)
      wn[i] *= 1.0 + 0.2 * sin(7.0 * guess.t[n] + i);
  }
  rc_options opt;
  rc_options_default(&opt);
  opt.print_level = 0;
  rc_err rg = rc_solve(pg, &mesh, &opt, &guess, &sg, &stg, &err);
  rc_err rh = rc_solve(ph, &mesh, &opt, &guess, &sh, &sth, &err);
  EXPECT(rg == RC_OK && rh == RC_OK, "%s: solve failed: %s", form, err.message);
  if (rg == RC_OK && rh == RC_OK) {
    double dmax = 0.0;
    for (size_t k = 0; k < (size_t)sh.nnodes * (size_t)nw; ++k)
      dmax = fmax(dmax, fabs(sg.w[k] - sh.w[k]) / fmax(1.0, fabs(sh.w[k])));
    printf("%s: solve from the same guess: %d iterations (generated) vs %d "
           "(hand-coded), status %s vs %s, max relative difference of the "
           "solutions %.2e (tolerance %.0e)\n",
           form, stg.iterations, sth.iterations, rc_status_name(stg.status),
           rc_status_name(sth.status), dmax, TOL_SOL);
    EXPECT(stg.status == RC_STATUS_CONVERGED &&
               sth.status == RC_STATUS_CONVERGED,
           "%s: not both converged", form);
    EXPECT(stg.iterations == sth.iterations, "%s: %d vs %d iterations", form,
           stg.iterations, sth.iterations);
    EXPECT(dmax <= TOL_SOL, "%s: solutions differ by %.3e", form, dmax);
  }
  rc_solution_free(&sg);
  rc_solution_free(&sh);
  rc_solution_free(&guess);
  rc_mesh_free(&mesh);
done:
  rc_problem_free(&pg);
  rc_problem_free(&ph);
}

/* ---- --bench: callback time, generated vs hand-coded ------------------- */

static double now_s(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

#define BENCH_NPT 1024
static double bench_sink = 0.0;

/* Seconds per call of eval, jacobian and hessian of block b (best of 7
 * repetitions of ncall calls cycling through BENCH_NPT random points). */
static void bench_block(const rc_problem *pb, const rc_block *b, int nw,
                        long ncall, const double *pts, const double *mus,
                        double sec[3]) {
  double out[256];
  for (int k = 0; k < 3; ++k) {
    double best = HUGE_VAL;
    for (int rep = 0; rep < 7; ++rep) {
      const double t0 = now_s();
      for (long c = 0; c < ncall; ++c) {
        const double *w = pts + (size_t)(c % BENCH_NPT) * (size_t)nw;
        const double *mu = mus + (size_t)(c % BENCH_NPT) * (size_t)b->n_out;
        if (k == 0)
          b->eval(pb, 0.5, w, out);
        else if (k == 1)
          b->jacobian(pb, 0.5, w, out);
        else
          b->hessian(pb, 0.5, w, mu, out);
        bench_sink += out[0];
      }
      const double dt = (now_s() - t0) / (double)ncall;
      best = dt < best ? dt : best;
    }
    sec[k] = best;
  }
}

static int bench(const rc_model *gen, const rc_model *hand, const char *form,
                 long ncall) {
  rc_problem *pg = make(gen, form), *ph = make(hand, form);
  if (!pg || !ph)
    return 1;
  const int nw = rc_problem_nw(ph), no = ph->point.n_out;
  static double pts[BENCH_NPT * 16], mus[BENCH_NPT * 16];
  for (int k = 0; k < BENCH_NPT * nw; ++k)
    pts[k] = urand(-2.0, 2.0);
  for (int k = 0; k < BENCH_NPT * no; ++k)
    mus[k] = urand(-1.0, 1.0);
  double sg[3], sh[3];
  /* alternate to share any drift of the machine's load */
  bench_block(ph, &ph->point, nw, ncall, pts, mus, sh);
  bench_block(pg, &pg->point, nw, ncall, pts, mus, sg);
  static const char *const what[3] = {"eval", "jacobian", "hessian"};
  double tg = 0.0, th = 0.0;
  for (int k = 0; k < 3; ++k) {
    printf("| %s | point %s | %.1f | %.1f | %.2f |\n", form, what[k],
           1e9 * sh[k], 1e9 * sg[k], sg[k] / sh[k]);
    tg += sg[k], th += sh[k];
  }
  printf("| %s | point, all three | %.1f | %.1f | %.2f |\n", form, 1e9 * th,
         1e9 * tg, tg / th);
  rc_problem_free(&pg);
  rc_problem_free(&ph);
  return 0;
}

int main(int argc, char **argv) {
  const int do_bench = argc == 3 && strcmp(argv[1], "--bench") == 0;
  if (argc != 2 && !do_bench) {
    fprintf(stderr, "usage: gen_twin PLUGIN.so | gen_twin --bench PLUGIN.so\n");
    return 2;
  }
  rc_plugin_handle *h = NULL;
  rc_error err;
  if (rc_plugin_open(argv[argc - 1], rc_builtin_models(), &h, &err) != RC_OK) {
    fprintf(stderr, "gen_twin: %s\n", err.message);
    return 1;
  }
  const rc_model *gen = rc_plugin_find_model(h, "pendulum-gen");
  const rc_model *hand = rc_find_model("pendulum");
  EXPECT(gen && hand, "model pendulum-gen or pendulum missing");
  if (gen && hand && do_bench) {
    printf("| formulation | callback | hand-coded ns/call | generated ns/call "
           "| generated / hand |\n|---|---|---|---|---|\n");
    bench(gen, hand, "accel", 2000000L);
    bench(gen, hand, "index3", 2000000L);
    printf("\n(checksum %g)\n", bench_sink);
  } else if (gen && hand) {
    twin(gen, hand, "accel");
    twin(gen, hand, "index3");
  }
  rc_plugin_close(&h);
  return RC_TEST_EXIT();
}
