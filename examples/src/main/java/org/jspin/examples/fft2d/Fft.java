package org.jspin.examples.fft2d;

/**
 * Complex transforms on interleaved (re, im) doubles: an in-place radix-2 FFT of one row, and the
 * direct O(n^2)-per-point DFT of a whole matrix that the distributed run is checked against.
 */
final class Fft {
    private Fft() {
    }

    /** Transforms the {@code n} complex values at {@code a[off..off+2n)} in place ({@code n} a power of two). */
    static void row(double[] a, int off, int n) {
        for (int i = 1, j = 0; i < n; i++) {
            int bit = n >> 1;
            for (; (j & bit) != 0; bit >>= 1) {
                j ^= bit;
            }
            j ^= bit;
            if (i < j) {
                swap(a, off + 2 * i, off + 2 * j);
            }
        }
        for (int len = 2; len <= n; len <<= 1) {
            double ang = -2 * Math.PI / len;
            for (int i = 0; i < n; i += len) {
                for (int k = 0; k < len / 2; k++) {
                    double wr = Math.cos(ang * k);
                    double wi = Math.sin(ang * k);
                    int p = off + 2 * (i + k);
                    int q = off + 2 * (i + k + len / 2);
                    double xr = a[q] * wr - a[q + 1] * wi;
                    double xi = a[q] * wi + a[q + 1] * wr;
                    a[q] = a[p] - xr;
                    a[q + 1] = a[p + 1] - xi;
                    a[p] += xr;
                    a[p + 1] += xi;
                }
            }
        }
    }

    private static void swap(double[] a, int p, int q) {
        double r = a[p];
        double i = a[p + 1];
        a[p] = a[q];
        a[p + 1] = a[q + 1];
        a[q] = r;
        a[q + 1] = i;
    }

    /** @return the 2D DFT of the n x n row-major complex matrix {@code x}, computed point by point */
    static double[] direct(double[] x, int n) {
        double[] out = new double[2 * n * n];
        for (int k1 = 0; k1 < n; k1++) {
            for (int k2 = 0; k2 < n; k2++) {
                double re = 0;
                double im = 0;
                for (int r = 0; r < n; r++) {
                    for (int c = 0; c < n; c++) {
                        double ang = -2 * Math.PI * ((double) k1 * r / n + (double) k2 * c / n);
                        double a = x[2 * (r * n + c)];
                        double b = x[2 * (r * n + c) + 1];
                        re += a * Math.cos(ang) - b * Math.sin(ang);
                        im += a * Math.sin(ang) + b * Math.cos(ang);
                    }
                }
                out[2 * (k1 * n + k2)] = re;
                out[2 * (k1 * n + k2) + 1] = im;
            }
        }
        return out;
    }

    /** @return the input matrix's value at row r, column c (a smooth pattern plus a little of everything) */
    static double input(int r, int c, boolean imaginary) {
        return imaginary ? Math.cos(0.3 * r - 0.1 * c) * 0.5 : Math.sin(0.2 * r + 0.7 * c) + 0.01 * ((r * 31 + c * 17) % 7);
    }
}
