package org.jspin.datatype;

/** Array storage order of a subarray: C (row-major, last index fastest) or Fortran (first index fastest). */
public enum Order {
    /** Row-major: the last dimension varies fastest ({@code MPI_ORDER_C}). */
    C,
    /** Column-major: the first dimension varies fastest ({@code MPI_ORDER_FORTRAN}). */
    FORTRAN
}
