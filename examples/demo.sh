#!/bin/sh
# The demo: run the bundled examples under mpiexec -n 4.
# usage: examples/demo.sh BUILDDIR
set -eu
build=${1:?usage: examples/demo.sh BUILDDIR}
np=4
echo "== anysource: ranks 1-3 send to rank 0, which receives with MPI_ANY_SOURCE"
echo "== (the arrival order changes from run to run)"
mpiexec -n $np "$build/examples/anysource" 3
echo
echo "== jacobi: halo exchange with Irecv/Isend/Waitall + Allreduce residual"
mpiexec -n $np "$build/examples/jacobi" 64 10
