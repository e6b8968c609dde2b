/*
 * ode_reference.h - moved to the public radcol/ode_reference.h (the problem
 * kit); this forwarder keeps `#include "ode_reference.h"` in files being
 * edited elsewhere compiling until they are merged.  New code includes
 * "radcol/ode_reference.h".
 */
#include "radcol/ode_reference.h"
