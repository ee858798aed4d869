package org.jspin.examples;

import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.Measurement;

import org.jspin.mpi.Mpi;

/** Reads this rank's own jspin meters (the registry may hold every rank of the JVM). */
public final class RankMeters {
    private RankMeters() {
    }

    /** @return the value of this rank's meter {@code name}, or 0 if the backend has no such meter */
    public static double value(Mpi mpi, String name) {
        String rank = Integer.toString(mpi.rank());
        double sum = 0;
        for (Meter m : mpi.meters().getMeters()) {
            if (m.getId().getName().equals(name) && rank.equals(m.getId().getTag("rank"))) {
                for (Measurement x : m.measure()) {
                    sum += x.getValue();
                }
            }
        }
        return sum;
    }
}
