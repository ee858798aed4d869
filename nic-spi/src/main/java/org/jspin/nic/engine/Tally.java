package org.jspin.nic.engine;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * A counter with one writer (the progress thread) and any number of readers (meters): the writer
 * adds with an opaque store, a plain move on x86, so counting costs nothing on the packet path,
 * and readers never see a torn value.
 */
public final class Tally {
    private static final VarHandle VALUE;

    static {
        try {
            VALUE = MethodHandles.lookup().findVarHandle(Tally.class, "value", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    @SuppressWarnings("unused") // accessed through VALUE
    private long value;

    /** Adds {@code delta}; from the owning thread only. */
    public void add(long delta) {
        VALUE.setOpaque(this, (long) VALUE.getOpaque(this) + delta);
    }

    /** @return the current value, from any thread */
    public long get() {
        return (long) VALUE.getOpaque(this);
    }
}
