/*
 * radcol/radcol.h - the whole public API.
 */
#ifndef RADCOL_RADCOL_H
#define RADCOL_RADCOL_H

#include "radcol/catalogue.h"
#include "radcol/check.h"
#include "radcol/data.h"
#include "radcol/dense_check.h"
#include "radcol/diagnose.h"
#include "radcol/errors.h"
#include "radcol/estimate.h"
#include "radcol/init.h"
#include "radcol/input.h"
#include "radcol/io.h"
#include "radcol/kit.h"
#include "radcol/limits.h"
#include "radcol/mesh.h"
#include "radcol/mesh_check.h"
#include "radcol/nlp_check.h"
#include "radcol/ode_reference.h"
#include "radcol/options.h"
#include "radcol/params.h"
#include "radcol/phases.h"
#include "radcol/phases_check.h"
#include "radcol/phases_refine.h"
#include "radcol/plugin.h"
#include "radcol/problem.h"
#include "radcol/refine.h"
#include "radcol/replay.h"
#include "radcol/result.h"
#include "radcol/simulate.h"
#include "radcol/solve.h"
#include "radcol/start.h"
#include "radcol/structure.h"
#include "radcol/switching.h"
#include "radcol/version.h"

#endif
