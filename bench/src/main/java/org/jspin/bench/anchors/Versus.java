package org.jspin.bench.anchors;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;

import org.jspin.bench.Stats;
import org.jspin.bench.pingpong.PingPongResult;
import org.jspin.error.ErrorClass;
import org.jspin.error.MpiException;

/**
 * jspin's ping-pong beside the anchors' (Open MPI and MPICH over TCP), over interleaved rounds: each
 * round one run of the anchors and one of jspin per binding, one after the other, so that every
 * implementation meets the machine's slow and fast spells alike. On a shared machine a figure can
 * halve within a minute; only ratios taken within a round, then their median, compare fairly.
 *
 * <p>Per case it reports the median of each implementation's figures over the rounds and the median
 * of the per-round ratios; besides, per binding, the 4 MiB vector over the contiguous 4 MiB of the
 * same launch, and how many latency figures had a 99th percentile above {@link #TAIL_LIMIT} times
 * their median.
 */
public final class Versus {
    /** A latency's p99 over its p50 above this is a long tail (issue 13's bar). */
    public static final double TAIL_LIMIT = 5;
    /** The anchors' labels compared, Open MPI first. */
    public static final List<String> LABELS = List.of(AnchorCase.OPEN_MPI, AnchorCase.MPICH);

    private final List<String> bindings;
    private final List<AnchorResults> anchors = new ArrayList<>();
    private final List<Map<String, Map<String, PingPongResult>>> jspin = new ArrayList<>();

    /** @param bindings the names of the ways jspin's ranks were bound, in report order */
    public Versus(List<String> bindings) {
        if (bindings.isEmpty()) {
            throw new MpiException(ErrorClass.ERR_ARG, "a comparison needs at least one binding of jspin's ranks");
        }
        this.bindings = List.copyOf(bindings);
    }

    /** @return the bindings, in report order */
    public List<String> bindings() {
        return bindings;
    }

    /**
     * Adds one round.
     *
     * @param round   what the anchors printed in this round
     * @param results jspin's results in this round, by binding (every binding of this comparison)
     * @throws MpiException ERR_ARG naming the binding if one is missing or unknown
     */
    public void add(AnchorResults round, Map<String, List<PingPongResult>> results) {
        Map<String, Map<String, PingPongResult>> byBinding = new LinkedHashMap<>();
        for (var e : results.entrySet()) {
            if (!bindings.contains(e.getKey())) {
                throw new MpiException(ErrorClass.ERR_ARG, "results for binding '" + e.getKey() + "', which this"
                        + " comparison does not have (" + bindings + ")");
            }
            Map<String, PingPongResult> byCase = new LinkedHashMap<>();
            e.getValue().forEach(r -> byCase.put(r.name(), r));
            byBinding.put(e.getKey(), byCase);
        }
        for (String b : bindings) {
            if (!byBinding.containsKey(b)) {
                throw new MpiException(ErrorClass.ERR_ARG, "a round without results for binding '" + b + "'");
            }
        }
        anchors.add(round);
        jspin.add(byBinding);
    }

    /** @return rounds added */
    public int rounds() {
        return anchors.size();
    }

    /**
     * One case over all rounds; NaN where a figure is missing from every round.
     *
     * @param c      the case
     * @param jspin  jspin's median figure, by binding
     * @param theirs each label's median figure
     * @param ratio  by label, then binding: the median of the per-round ratios ({@link AnchorCase#ratio})
     */
    public record Row(AnchorCase c, Map<String, Double> jspin, Map<String, Double> theirs,
                      Map<String, Map<String, Double>> ratio) {
    }

    /** @return a row per case that jspin or an anchor measured in some round, in {@link AnchorCase#PINGPONG}'s order */
    public List<Row> rows() {
        List<Row> rows = new ArrayList<>();
        for (AnchorCase c : AnchorCase.PINGPONG) {
            Map<String, Double> ours = new LinkedHashMap<>();
            for (String b : bindings) {
                ours.put(b, Stats.median(ours(c, b)));
            }
            Map<String, Double> theirs = new LinkedHashMap<>();
            Map<String, Map<String, Double>> ratios = new LinkedHashMap<>();
            for (String label : LABELS) {
                theirs.put(label, Stats.median(theirs(c, label)));
                Map<String, Double> perBinding = new LinkedHashMap<>();
                for (String b : bindings) {
                    perBinding.put(b, Stats.median(ratios(c, label, b)));
                }
                ratios.put(label, perBinding);
            }
            boolean any = ours.values().stream().anyMatch(v -> !Double.isNaN(v))
                    || theirs.values().stream().anyMatch(v -> !Double.isNaN(v));
            if (any) {
                rows.add(new Row(c, ours, theirs, ratios));
            }
        }
        return rows;
    }

    /** @return jspin's figure of {@code c} in each round that measured it under {@code binding} */
    public List<Double> ours(AnchorCase c, String binding) {
        List<Double> out = new ArrayList<>();
        for (var round : jspin) {
            PingPongResult r = round.get(binding).get(c.jspin());
            if (r != null) {
                out.add(figure(c, r));
            }
        }
        return out;
    }

    /** @return {@code label}'s figure of {@code c} in each round that printed it */
    public List<Double> theirs(AnchorCase c, String label) {
        List<Double> out = new ArrayList<>();
        for (AnchorResults a : anchors) {
            a.value(label, c.anchor()).ifPresent(out::add);
        }
        return out;
    }

    /** @return the ratio of jspin under {@code binding} to {@code label} in each round that has both */
    public List<Double> ratios(AnchorCase c, String label, String binding) {
        List<Double> out = new ArrayList<>();
        for (int i = 0; i < anchors.size(); i++) {
            PingPongResult r = jspin.get(i).get(binding).get(c.jspin());
            OptionalDouble t = anchors.get(i).value(label, c.anchor());
            if (r != null && t.isPresent()) {
                out.add(c.ratio(figure(c, r), t.getAsDouble()));
            }
        }
        return out;
    }

    /** @return per round, jspin's 4 MiB vector over its contiguous 4 MiB under {@code binding} */
    public List<Double> vectorOverContiguous(String binding) {
        List<Double> out = new ArrayList<>();
        for (var round : jspin) {
            PingPongResult v = round.get(binding).get(AnchorCase.VECTOR_4MIB);
            PingPongResult c = round.get(binding).get(AnchorCase.CONTIGUOUS_4MIB);
            if (v != null && c != null) {
                out.add(v.gbps() / c.gbps());
            }
        }
        return out;
    }

    /**
     * How long jspin's latency tails were under a binding.
     *
     * @param above figures whose p99 exceeded {@link #TAIL_LIMIT} times their p50
     * @param of    latency figures (cases times rounds)
     * @param worst the largest p99 / p50 (0 if none)
     */
    public record Tails(int above, int of, double worst) {
    }

    /** @return the latency tails of every round under {@code binding} */
    public Tails tails(String binding) {
        int above = 0;
        int of = 0;
        double worst = 0;
        for (var round : jspin) {
            for (AnchorCase c : AnchorCase.PINGPONG) {
                PingPongResult r = round.get(binding).get(c.jspin());
                if (c.latency() && r != null && r.p50Micros() > 0) {
                    double t = r.p99Micros() / r.p50Micros();
                    of++;
                    above += t > TAIL_LIMIT ? 1 : 0;
                    worst = Math.max(worst, t);
                }
            }
        }
        return new Tails(above, of, worst);
    }

    /** @return jspin's figure of merit: one-way microseconds at the median, or GB/s at the median */
    static double figure(AnchorCase c, PingPongResult r) {
        return c.latency() ? r.p50Micros() : r.gbps();
    }

}
