package org.jspin.bench.pack;

import java.util.Locale;

/**
 * Formats {@link PackResult}s as a Markdown table, one row at a time so a long sweep shows progress.
 * Neither the header nor a row ends with a line separator: print them with {@code println}.
 */
public final class ResultTable {
    private ResultTable() {
    }

    /** @return the header line and the separator line under it */
    public static String header() {
        return String.format(Locale.ROOT, "| %-26s | %11s | %7s | %7s | %7s | %9s | %11s |%n", "name", "block_bytes",
                "pack", "unpack", "copy", "pack/copy", "unpack/copy")
                + "|:---------------------------|------------:|--------:|--------:|--------:|----------:|------------:|";
    }

    /** @return one row: speeds in GB/s, ratios to the contiguous copy */
    public static String row(PackResult r) {
        return String.format(Locale.ROOT, "| %-26s | %11s | %7.2f | %7.2f | %7.2f | %9.2f | %11.2f |", r.name(),
                bytes(r.blockBytes()), r.packGbps(), r.unpackGbps(), r.copyGbps(), r.packOverCopy(),
                r.unpackOverCopy());
    }

    /** Whole numbers print as such; mean region lengths that are not get one decimal. */
    private static String bytes(double b) {
        return b == Math.rint(b) ? String.format(Locale.ROOT, "%.0f", b) : String.format(Locale.ROOT, "%.1f", b);
    }
}
