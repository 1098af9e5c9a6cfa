/* corpus: class=type expect=ok np=3 */
/* Legal unusual usage: rank 0 broadcasts three separate variables (an int,
 * a global double array and a local char array) in one MPI_Bcast, using a
 * struct datatype of absolute addresses from MPI_Get_address and buffer
 * MPI_BOTTOM (MPI 4.0 sec. 5.1.5, 5.1.12); each entry's type matches the
 * variable at its address. */
#include <mpi.h>
#include <stdio.h>
#include <string.h>

double coef[3];

int main(int argc, char **argv)
{
    int rank, n = 0, bl[3] = {1, 3, 8};
    char label[8] = "";
    MPI_Aint disp[3];
    MPI_Datatype types[3] = {MPI_INT, MPI_DOUBLE, MPI_CHAR}, t;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Get_address(&n, &disp[0]);
    MPI_Get_address(coef, &disp[1]);
    MPI_Get_address(label, &disp[2]);
    MPI_Type_create_struct(3, bl, disp, types, &t);
    MPI_Type_commit(&t);
    if (rank == 0) {
        n = 5;
        coef[0] = 0.5; coef[1] = 1.5; coef[2] = 2.5;
        strcpy(label, "coefs");
    }
    MPI_Bcast(MPI_BOTTOM, 1, t, 0, MPI_COMM_WORLD);
    if (n != 5 || coef[2] != 2.5 || strcmp(label, "coefs") != 0)
        printf("rank %d: n = %d, coef[2] = %g, label = %.8s\n", rank, n,
               coef[2], label);
    MPI_Type_free(&t);
    MPI_Finalize();
    return 0;
}
