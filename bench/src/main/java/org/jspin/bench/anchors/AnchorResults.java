package org.jspin.bench.anchors;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.Set;

import org.jspin.error.ErrorClass;
import org.jspin.error.MpiException;

/**
 * The figures one run of {@code shared/anchors/run.sh} printed: its lines {@code RESULT <label>
 * <test> <value> <unit>} from the ping-pong (label {@code ompi-tcp} or {@code mpich-tcp}) and
 * {@code RESULT <impl> <test> <variant> <value>} from the pack benchmark (impl {@code openmpi} or
 * {@code mpich}; its test is then named {@code "<test> <variant>"}, as {@code "vec_blk512
 * pack_double"}). Other
 * lines (compiler or launcher chatter) are ignored; a RESULT line of another shape is an error, so
 * a change of the anchors' format is noticed rather than misread.
 */
public final class AnchorResults {
    private final Map<String, Map<String, Double>> byLabel;

    private AnchorResults(Map<String, Map<String, Double>> byLabel) {
        this.byLabel = byLabel;
    }

    /**
     * @param lines what the anchors printed
     * @return their RESULT lines, by label and test
     * @throws MpiException ERR_ARG naming the line if a RESULT line has too few fields or no number
     */
    public static AnchorResults parse(List<String> lines) {
        Map<String, Map<String, Double>> m = new LinkedHashMap<>();
        for (String line : lines) {
            String[] f = line.trim().split("\\s+");
            if (!f[0].equals("RESULT")) {
                continue;
            }
            if (f.length < 4) {
                throw new MpiException(ErrorClass.ERR_ARG, "an anchors' RESULT line needs a label, a test and a value,"
                        + " got '" + line + "'");
            }
            // the ping-pong's lines: RESULT label test value unit; the pack's: RESULT impl test variant value
            String test = f[2];
            OptionalDouble v = number(f[3]);
            if (v.isEmpty() && f.length >= 5) {
                test = f[2] + " " + f[3];
                v = number(f[4]);
            }
            if (v.isEmpty()) {
                throw new MpiException(ErrorClass.ERR_ARG, "an anchors' RESULT line has no number where its value"
                        + " belongs: '" + line + "'");
            }
            m.computeIfAbsent(f[1], k -> new LinkedHashMap<>()).put(test, v.getAsDouble());
        }
        return new AnchorResults(m);
    }

    private static OptionalDouble number(String s) {
        try {
            return OptionalDouble.of(Double.parseDouble(s));
        } catch (NumberFormatException e) {
            return OptionalDouble.empty();
        }
    }

    /** @return the labels that printed at least one figure */
    public Set<String> labels() {
        return byLabel.keySet();
    }

    /**
     * @return these figures with label {@code from} named {@code to} (the shared-memory run's
     *         {@code ompi-shm} read as the Open MPI figures the comparison keys by, say)
     */
    public AnchorResults relabeled(String from, String to) {
        Map<String, Map<String, Double>> m = new LinkedHashMap<>();
        byLabel.forEach((label, tests) -> m.put(label.equals(from) ? to : label, tests));
        return new AnchorResults(m);
    }

    /**
     * @return the figure {@code label} printed for {@code test} ({@code "<test> <variant>"} for the
     *         pack benchmark's), if it printed one
     */
    public OptionalDouble value(String label, String test) {
        Double v = byLabel.getOrDefault(label, Map.of()).get(test);
        return v == null ? OptionalDouble.empty() : OptionalDouble.of(v);
    }

    /** @return whether nothing was printed */
    public boolean isEmpty() {
        return byLabel.isEmpty();
    }
}
