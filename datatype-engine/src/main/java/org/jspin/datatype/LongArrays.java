package org.jspin.datatype;

/** Small {@code long[]} helpers for the constructors. */
final class LongArrays {
    private LongArrays() {
    }

    static long[] filled(int n, long value) {
        long[] a = new long[n];
        java.util.Arrays.fill(a, value);
        return a;
    }

    static long[] concat(long[]... parts) {
        int n = 0;
        for (long[] p : parts) {
            n += p.length;
        }
        long[] out = new long[n];
        int at = 0;
        for (long[] p : parts) {
            System.arraycopy(p, 0, out, at, p.length);
            at += p.length;
        }
        return out;
    }
}
