# Transcription and solver core: assembled derivatives against finite
# differences, orders and an analytic optimal control.
radcol_unit_test(test_transcription test_transcription.c)
