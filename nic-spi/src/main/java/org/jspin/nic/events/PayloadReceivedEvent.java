package org.jspin.nic.events;

import jdk.jfr.Category;
import jdk.jfr.DataAmount;
import jdk.jfr.Description;
import jdk.jfr.Enabled;
import jdk.jfr.Event;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.StackTrace;
import jdk.jfr.Timespan;

/** A socket fabric has a frame's payload whole, read from the socket since its header arrived. */
@Name("jspin.PayloadReceived")
@Label("Payload Received")
@Category({"jspin", "Fabric"})
@Description("A socket fabric has read a frame's whole payload; how long since its header")
@Enabled(false)
@StackTrace(false)
public final class PayloadReceivedEvent extends Event {
    /** The rank that sent the frame. */
    @Label("Source")
    public int source;

    /** The receiving rank. */
    @Label("Target")
    public int target;

    /** The packet kind (EAGER, RTS, DATA, ...). */
    @Label("Kind")
    public String kind;

    /** Where in the message the payload starts. */
    @Label("Offset")
    @DataAmount(DataAmount.BYTES)
    public long offset;

    /** Payload bytes. */
    @Label("Payload")
    @DataAmount(DataAmount.BYTES)
    public long payload;

    /** Whether the payload was read straight into the receive buffer (landed) rather than a read buffer. */
    @Label("Landed")
    public boolean landed;

    /** Time from the header's arrival to the payload's last byte (the event's {@link #clock} is the header's arrival). */
    @Label("Since Header")
    @Timespan(Timespan.NANOSECONDS)
    public long sinceHeader;

    /**
     * {@code System.nanoTime()} at the start: the machine's monotonic clock, which the JVMs of one
     * machine share, where the recordings' own start times may be a millisecond apart between JVMs.
     */
    @Label("Clock")
    @Description("System.nanoTime() at the start, comparable between the JVMs of one machine")
    public long clock;
}
