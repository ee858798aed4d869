package org.jspin.nic.events;

import jdk.jfr.Category;
import jdk.jfr.DataAmount;
import jdk.jfr.Description;
import jdk.jfr.Enabled;
import jdk.jfr.Event;
import jdk.jfr.Label;
import jdk.jfr.StackTrace;

/**
 * One call of a pack or unpack kernel over part of a message: what {@link PackEvent} and
 * {@link UnpackEvent} share. The subclasses name the direction; JFR records the fields declared
 * here as theirs.
 */
@Category({"jspin", "Data path"})
@Enabled(false)
@StackTrace(false)
public abstract class KernelCallEvent extends Event {
    /** The rank that ran the kernel. */
    @Label("Rank")
    public int rank;

    /** Where in the message the bytes start. */
    @Label("Offset")
    @DataAmount(DataAmount.BYTES)
    public long offset;

    /** Bytes packed or unpacked. */
    @Label("Bytes")
    @DataAmount(DataAmount.BYTES)
    public long bytes;

    /**
     * {@code System.nanoTime()} at the start: the machine's monotonic clock, which the JVMs of one
     * machine share, where the recordings' own start times may be a millisecond apart between JVMs.
     */
    @Label("Clock")
    @Description("System.nanoTime() at the start, comparable between the JVMs of one machine")
    public long clock;

    KernelCallEvent() {
    }

    /**
     * Ends the event begun before the kernel call and commits it, if a recording wants it.
     *
     * @param rank the rank that ran the kernel
     * @param offset where in the message the bytes start
     * @param bytes bytes packed or unpacked
     * @param clock {@code System.nanoTime()} before the call
     */
    public final void commit(int rank, long offset, long bytes, long clock) {
        if (shouldCommit()) {
            this.rank = rank;
            this.offset = offset;
            this.bytes = bytes;
            this.clock = clock;
            commit();
        }
    }
}
