package org.jspin.bench;

import java.util.Arrays;
import java.util.List;

/** The statistics the benchmarks report, in one place: medians, the mean of the middle two for an even count. */
public final class Stats {
    private Stats() {
    }

    /** @return the median of {@code xs} ({@code NaN} for none) */
    public static double median(double... xs) {
        double[] s = xs.clone();
        Arrays.sort(s);
        int n = s.length;
        if (n == 0) {
            return Double.NaN;
        }
        return n % 2 == 1 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
    }

    /** @return the median of {@code xs} ({@code NaN} for none) */
    public static double median(List<Double> xs) {
        return median(xs.stream().mapToDouble(Double::doubleValue).toArray());
    }

    /** @return the median of the first {@code length} values of {@code xs} ({@code NaN} for none) */
    public static double median(long[] xs, int length) {
        double[] d = new double[length];
        for (int i = 0; i < length; i++) {
            d[i] = xs[i];
        }
        return median(d);
    }
}
