package org.jspin.datatype;

/** Small array helpers for the constructors' contents. */
final class Layouts {
    private Layouts() {
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
