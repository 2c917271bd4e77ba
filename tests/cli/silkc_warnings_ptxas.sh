#!/bin/sh
# silkc_warnings_ptxas.sh: silkc_warnings.sh with the real ptxas's figures
# (exit 77 when there is none).  Run by make check.
exec sh "${SILK_SRCDIR:?}/tests/cli/silkc_warnings.sh" ptxas
