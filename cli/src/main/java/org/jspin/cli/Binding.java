package org.jspin.cli;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.jspin.error.ErrorClass;
import org.jspin.error.MpiException;

/**
 * Where each rank's process may run, as mpirun's {@code --bind-to}: anywhere ({@code none}, the
 * default) or on one core ({@code core}: rank r on the r-th of the CPUs this process may use,
 * modulo their number, so more ranks than cores share them). Binding starts the rank under util-linux's {@code taskset},
 * so every thread of its JVM (the collector's and the compiler's too) stays on that core.
 */
enum Binding {
    /** The kernel places and moves each rank's threads freely. */
    NONE,
    /** Each rank on one core. */
    CORE;

    private static final String TASKSET = "/usr/bin/taskset";

    /** Picocli's converter: {@code none} or {@code core}, in any case. */
    static Binding parse(String value) {
        for (Binding b : values()) {
            if (b.name().equalsIgnoreCase(value.trim())) {
                return b;
            }
        }
        throw new MpiException(ErrorClass.ERR_ARG, "--bind-to must be none or core, got '" + value + "'");
    }

    /**
     * @return {@code command} as rank {@code rank} starts it under this binding
     * @throws MpiException ERR_ARG if binding needs {@code taskset} and it is not installed
     */
    List<String> apply(int rank, List<String> command) {
        if (this == NONE) {
            return command;
        }
        if (!Files.isExecutable(Path.of(TASKSET))) {
            throw new MpiException(ErrorClass.ERR_ARG, "--bind-to core needs " + TASKSET
                    + " (Debian's util-linux package), which is not installed");
        }
        List<Integer> cpus = allowedCpus();
        List<String> bound = new ArrayList<>();
        bound.add(TASKSET);
        bound.add("--cpu-list");
        bound.add(Integer.toString(cpus.get(rank % cpus.size())));
        bound.addAll(command);
        return bound;
    }

    /**
     * @return the CPUs this process may run on, in order (the kernel's {@code Cpus_allowed_list},
     *         which a container or a batch system may have narrowed), or 0 .. n-1 if it cannot be read
     */
    static List<Integer> allowedCpus() {
        List<Integer> cpus = new ArrayList<>();
        try {
            for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
                if (line.startsWith("Cpus_allowed_list:")) {
                    for (String range : line.substring(line.indexOf(':') + 1).trim().split(",")) {
                        String[] ends = range.split("-");
                        int from = Integer.parseInt(ends[0].trim());
                        int to = Integer.parseInt(ends[ends.length - 1].trim());
                        for (int c = from; c <= to; c++) {
                            cpus.add(c);
                        }
                    }
                }
            }
        } catch (java.io.IOException | RuntimeException e) {
            cpus.clear(); // not Linux, or an unexpected format: fall back below
        }
        if (cpus.isEmpty()) {
            for (int c = 0; c < Runtime.getRuntime().availableProcessors(); c++) {
                cpus.add(c);
            }
        }
        return cpus;
    }

    @Override
    public String toString() {
        return name().toLowerCase(java.util.Locale.ROOT);
    }
}
