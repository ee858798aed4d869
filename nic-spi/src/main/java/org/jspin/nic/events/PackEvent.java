package org.jspin.nic.events;

import jdk.jfr.Category;
import jdk.jfr.DataAmount;
import jdk.jfr.Description;
import jdk.jfr.Enabled;
import jdk.jfr.Event;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.StackTrace;

/** The CPU packed part of a message into a packet's staging buffer (one kernel call's duration). */
@Name("jspin.Pack")
@Label("Pack")
@Category({"jspin", "Data path"})
@Description("The CPU packed bytes of a non-contiguous send into a packet's staging buffer")
@Enabled(false)
@StackTrace(false)
public final class PackEvent extends Event {
    /** The packing rank. */
    @Label("Rank")
    public int rank;

    /** Where in the message the packed bytes start. */
    @Label("Offset")
    @DataAmount(DataAmount.BYTES)
    public long offset;

    /** Bytes packed. */
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
}
