package org.jspin.bench.anchors;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.jspin.bench.pack.PackResult;

/**
 * {@code jspin bench pack}'s vector sweep beside the anchors' {@code MPI_Pack} and {@code MPI_Unpack}
 * (ANCHORS.md), over interleaved rounds. Each implementation is measured as a fraction of its own
 * contiguous copy in the same run (jspin's {@code MemorySegment} copy, the anchors' {@code memcpy}
 * of 4 MiB), and jspin's fraction is set against the better of the two MPIs' in the same round:
 * issue 2's bar, "at or above the better MPI as a fraction of copy".
 */
public final class PackVersus {
    /** Open MPI's label in the anchors' pack output. */
    public static final String OPEN_MPI = "openmpi";
    /** MPICH's label in the anchors' pack output. */
    public static final String MPICH = "mpich";
    /** The anchors' pack labels. */
    public static final List<String> IMPLS = List.of(OPEN_MPI, MPICH);
    /** The anchors' contiguous copy, each implementation's yardstick. */
    static final String COPY = "contig4MiB memcpy";
    /** jspin's vector sweep: doubles ({@code d}) where the block holds whole ones, else bytes ({@code b}). */
    private static final Pattern VECTOR = Pattern.compile("vector_([db])_(\\d+)B");

    private final List<AnchorResults> anchors = new ArrayList<>();
    private final List<Map<String, PackResult>> jspin = new ArrayList<>();

    /** @return whether {@code caseName} is one of jspin's vector sweep cases, which the anchors also measure */
    public static boolean compares(String caseName) {
        return VECTOR.matcher(caseName).matches();
    }

    /** Adds one round: what the anchors printed, and what one launch of jspin's sweep measured. */
    public void add(AnchorResults round, List<PackResult> results) {
        Map<String, PackResult> byName = new LinkedHashMap<>();
        results.forEach(r -> byName.put(r.name(), r));
        anchors.add(round);
        jspin.add(byName);
    }

    /** @return rounds added */
    public int rounds() {
        return anchors.size();
    }

    /**
     * One block size and operation over the rounds.
     *
     * @param jspinCase jspin's case
     * @param block     block bytes
     * @param pack      pack (else unpack)
     * @param ours      per round, jspin's rate over its copy
     * @param better    per round, the better MPI's rate over its memcpy
     * @param ratio     per round that has both, ours over better
     * @param gbps      per round, jspin's rate in GB/s
     * @param theirGbps per round, the faster MPI's rate in GB/s (fractions compare fairly; these say how
     *                  fast in absolute terms)
     * @param copyGbps  per round, jspin's contiguous copy of the same case in GB/s: how far the machine
     *                  itself moved between launches, beside how far jspin's rate moved
     * @param mpiGbps   per MPI of {@link #IMPLS} that measured this case, its rate in GB/s per round: how
     *                  far the C libraries' own figures moved over the same rounds
     */
    public record Row(String jspinCase, long block, boolean pack, List<Double> ours, List<Double> better,
                      List<Double> ratio, List<Double> gbps, List<Double> theirGbps, List<Double> copyGbps,
                      Map<String, List<Double>> mpiGbps) {
        /** @return the largest over the smallest of {@code xs}, NaN for none */
        public static double spread(List<Double> xs) {
            double lo = xs.stream().mapToDouble(Double::doubleValue).min().orElse(Double.NaN);
            double hi = xs.stream().mapToDouble(Double::doubleValue).max().orElse(Double.NaN);
            return hi / lo;
        }
    }

    /** @return pack then unpack rows for every vector case jspin measured, in the order it measured them */
    public List<Row> rows() {
        List<String> names = new ArrayList<>();
        for (var round : jspin) {
            for (String n : round.keySet()) {
                if (VECTOR.matcher(n).matches() && !names.contains(n)) {
                    names.add(n);
                }
            }
        }
        List<Row> rows = new ArrayList<>();
        for (String n : names) {
            rows.add(row(n, true));
            rows.add(row(n, false));
        }
        return rows;
    }

    private Row row(String name, boolean pack) {
        Matcher m = VECTOR.matcher(name);
        if (!m.matches()) {
            throw new IllegalArgumentException(name);
        }
        long block = Long.parseLong(m.group(2));
        String element = m.group(1).equals("d") ? "_double" : "_byte";
        String test = "vec_blk" + block + " " + (pack ? "pack" : "unpack") + element;
        List<Double> ours = new ArrayList<>();
        List<Double> better = new ArrayList<>();
        List<Double> ratio = new ArrayList<>();
        List<Double> gbps = new ArrayList<>();
        List<Double> theirGbps = new ArrayList<>();
        List<Double> copyGbps = new ArrayList<>();
        Map<String, List<Double>> mpiGbps = new LinkedHashMap<>();
        for (int i = 0; i < anchors.size(); i++) {
            PackResult r = jspin.get(i).get(name);
            double mine = Double.NaN;
            if (r != null) {
                mine = pack ? r.packOverCopy() : r.unpackOverCopy();
                ours.add(mine);
                gbps.add(pack ? r.packGbps() : r.unpackGbps());
                copyGbps.add(r.copyGbps());
            }
            OptionalDouble best = OptionalDouble.empty();
            OptionalDouble fastest = OptionalDouble.empty();
            for (String impl : IMPLS) {
                OptionalDouble v = anchors.get(i).value(impl, test);
                if (v.isPresent()) {
                    fastest = OptionalDouble.of(Math.max(fastest.orElse(0), v.getAsDouble()));
                    mpiGbps.computeIfAbsent(impl, k -> new ArrayList<>()).add(v.getAsDouble());
                }
                OptionalDouble copy = anchors.get(i).value(impl, COPY);
                if (v.isPresent() && copy.isPresent()) {
                    double f = v.getAsDouble() / copy.getAsDouble();
                    best = OptionalDouble.of(best.isPresent() ? Math.max(best.getAsDouble(), f) : f);
                }
            }
            fastest.ifPresent(theirGbps::add);
            if (best.isPresent()) {
                better.add(best.getAsDouble());
                if (r != null) {
                    ratio.add(mine / best.getAsDouble());
                }
            }
        }
        return new Row(name, block, pack, ours, better, ratio, gbps, theirGbps, copyGbps, mpiGbps);
    }
}
