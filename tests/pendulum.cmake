# Pendulum (problems/pendulum.c) and the GSL reference integrator
# (src/ode_reference.c): integrator API, reference accuracy against RK4, energy
# and the exact period, every formulation's equations along the reference,
# finite-difference derivative checks, parameters, and two end-to-end solves
# with their observed convergence order.
radcol_unit_test(test_pendulum ${RADCOL_TEST_DIR}/test_pendulum.c)
target_link_libraries(test_pendulum PRIVATE GSL::gsl)
set_tests_properties(test_pendulum PROPERTIES LABELS "unit;pendulum" TIMEOUT 60)
