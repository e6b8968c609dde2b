# Multiphase problems and data at interior times (radcol/phases.h,
# radcol/data.h; docs/phases.md): one phase is today's NLP bit for bit, the
# finite-difference check of linkage rows, free durations and data terms
# (and planted bugs it must catch), a closed-form two-phase optimum to 1e-9,
# a fit to exact data.
radcol_unit_test(test_phases test_phases.c)
set_tests_properties(test_phases PROPERTIES LABELS "unit;derivatives")
