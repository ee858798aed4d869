package org.jspin.nic.events;

import jdk.jfr.Category;
import jdk.jfr.DataAmount;
import jdk.jfr.Description;
import jdk.jfr.Enabled;
import jdk.jfr.Event;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.StackTrace;

/** The CPU unpacked part of a message from a packet into the receive buffer (one kernel call's duration). */
@Name("jspin.Unpack")
@Label("Unpack")
@Category({"jspin", "Data path"})
@Description("The CPU unpacked bytes of a packet into a non-contiguous receive buffer")
@Enabled(false)
@StackTrace(false)
public final class UnpackEvent extends Event {
    /** The unpacking rank. */
    @Label("Rank")
    public int rank;

    /** Where in the message the unpacked bytes start. */
    @Label("Offset")
    @DataAmount(DataAmount.BYTES)
    public long offset;

    /** Bytes unpacked. */
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
