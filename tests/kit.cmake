# The problem kit (include/radcol/kit.h): recording, scatter, drift and
# refusals.  The kit from a plugin is tested in plugin.cmake (plugin.kit).
radcol_unit_test(test_kit test_kit.c)
