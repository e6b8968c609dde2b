/*
 * dense_block.c - declared patterns from the entries a dense derivative
 * writes (see dense_block.h).
 */
#include <stdlib.h>

#include "dense_block.h"

rc_err rc_dense_pattern_from_masks(int nout, int nin, const unsigned char *jm,
                                   const unsigned char *hm, const char *who,
                                   rc_dense_pattern *pat, rc_error *err) {
  int nj = 0, nh = 0;
  for (int i = 0; i < nout * nin; ++i)
    nj += jm[i];
  for (int r = 0; r < nin; ++r)
    for (int c = 0; c <= r; ++c)
      nh += hm[r * nin + c];
  pat->jr = malloc(sizeof(int) * (size_t)(nj + 1));
  pat->jc = malloc(sizeof(int) * (size_t)(nj + 1));
  pat->hr = malloc(sizeof(int) * (size_t)(nh + 1));
  pat->hc = malloc(sizeof(int) * (size_t)(nh + 1));
  if (!pat->jr || !pat->jc || !pat->hr || !pat->hc) {
    rc_dense_pattern_free(pat);
    return rc_error_set(err, RC_ERR_NOMEM, "%s: out of memory for patterns",
                        who);
  }
  pat->njac = pat->nhes = 0;
  for (int r = 0; r < nout; ++r)
    for (int c = 0; c < nin; ++c)
      if (jm[r * nin + c]) {
        pat->jr[pat->njac] = r;
        pat->jc[pat->njac++] = c;
      }
  for (int r = 0; r < nin; ++r)
    for (int c = 0; c <= r; ++c)
      if (hm[r * nin + c]) {
        pat->hr[pat->nhes] = r;
        pat->hc[pat->nhes++] = c;
      }
  return RC_OK;
}

void rc_dense_pattern_free(rc_dense_pattern *pat) {
  free(pat->jr);
  free(pat->jc);
  free(pat->hr);
  free(pat->hc);
  pat->jr = pat->jc = pat->hr = pat->hc = NULL;
  pat->njac = pat->nhes = 0;
}
