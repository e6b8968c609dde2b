/*
 * radcol/errors.h - the two outcome channels of the library.
 *
 * rc_err    : misuse, bad input or I/O failure (the call did not do its job).
 * rc_status : how a solve that ran ended (positive/zero benign, negative
 * failure).
 *
 * Both enums and their name/message tables are generated from one X-macro list
 * each, so a code can never lack its text.  The library never prints and never
 * aborts: functions that can fail fill an rc_error with a message that names
 * the bad value and what was expected.
 */
#ifndef RADCOL_ERRORS_H
#define RADCOL_ERRORS_H

#ifdef __cplusplus
extern "C" {
#endif

/* X(code, value, name, message) */
#define RC_ERR_LIST(X)                                                         \
  X(RC_OK, 0, "ok", "no error")                                                \
  X(RC_ERR_INPUT, 1, "bad_input", "invalid input")                             \
  X(RC_ERR_IO, 2, "io", "input/output failure")                                \
  X(RC_ERR_NOMEM, 3, "no_memory", "out of memory")                             \
  X(RC_ERR_EVAL, 4, "evaluation", "a problem function failed to evaluate")     \
  X(RC_ERR_SOLVER, 5, "solver", "the NLP solver could not be set up")          \
  X(RC_ERR_INTERNAL, 6, "internal", "internal error (please report)")

typedef enum rc_err {
#define RC_X_ENUM(code, value, name, msg) code = value,
  RC_ERR_LIST(RC_X_ENUM)
#undef RC_X_ENUM
} rc_err;

/* X(code, value, name, message); name is the "status" string of --json. */
#define RC_STATUS_LIST(X)                                                      \
  X(RC_STATUS_CONVERGED, 0, "converged", "solved to the requested tolerance")  \
  X(RC_STATUS_ACCEPTABLE, 1, "acceptable",                                     \
    "solved to the acceptable (looser) tolerance only")                        \
  X(RC_STATUS_NOT_RUN, 2, "not_run", "no NLP was solved")                      \
  X(RC_STATUS_INACCURATE, 3, "inaccurate",                                     \
    "solved, but the error estimate exceeds the requested error tolerance")    \
  X(RC_STATUS_MAX_ITER, -1, "max_iter", "iteration or time limit reached")     \
  X(RC_STATUS_INFEASIBLE, -2, "infeasible",                                    \
    "the constraints appear to be infeasible")                                 \
  X(RC_STATUS_FAILED, -3, "failed", "the solver failed")

typedef enum rc_status {
#define RC_X_ENUM(code, value, name, msg) code = value,
  RC_STATUS_LIST(RC_X_ENUM)
#undef RC_X_ENUM
} rc_status;

#define RC_MESSAGE_MAX 512

/* Filled by any call that can fail.  message is empty when code == RC_OK. */
typedef struct rc_error {
  rc_err code;
  char message[RC_MESSAGE_MAX];
} rc_error;

const char *rc_err_name(rc_err code);
const char *rc_err_message(rc_err code);
const char *rc_status_name(rc_status status);
const char *rc_status_message(rc_status status);

/* Set err (if non-NULL) to code with a printf-style message; returns code. */
rc_err rc_error_set(rc_error *err, rc_err code, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;
/* Clear err to RC_OK. */
void rc_error_clear(rc_error *err);

#ifdef __cplusplus
}
#endif
#endif
