package org.jspin.cli;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.jspin.error.ErrorClass;
import org.jspin.error.MpiException;

/**
 * Where each rank's process may run, as mpirun's {@code --bind-to}: anywhere ({@code none}, the
 * default) or on one core ({@code core}: rank r on CPU r modulo the CPUs this process may use, so
 * more ranks than cores share them). Binding starts the rank under util-linux's {@code taskset},
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
        List<String> bound = new ArrayList<>();
        bound.add(TASKSET);
        bound.add("--cpu-list");
        bound.add(Integer.toString(rank % Runtime.getRuntime().availableProcessors()));
        bound.addAll(command);
        return bound;
    }

    @Override
    public String toString() {
        return name().toLowerCase(java.util.Locale.ROOT);
    }
}
