# Collocation maths (collocation/radau.c) and the mesh/trajectory layer
# (src/mesh.c, src/solution.c).
#
# test_radau needs only the collocation library, so it is built without the
# full radcol library (it runs even while other parts do not link).
add_executable(test_radau test_radau.c)
target_link_libraries(test_radau PRIVATE radcol_collocation m)
add_test(NAME test_radau COMMAND test_radau)
set_tests_properties(test_radau PROPERTIES LABELS unit)

radcol_unit_test(test_mesh_solution test_mesh_solution.c)
