package org.jspin.nic.events;

import jdk.jfr.Category;
import jdk.jfr.DataAmount;
import jdk.jfr.Description;
import jdk.jfr.Enabled;
import jdk.jfr.Event;
import jdk.jfr.Label;
import jdk.jfr.StackTrace;

/**
 * A frame with a payload that a socket fabric handled: what {@link FrameWriteEvent} and
 * {@link PayloadReceivedEvent} share. JFR records the fields declared here as the subclasses'.
 */
@Category({"jspin", "Fabric"})
@Enabled(false)
@StackTrace(false)
public abstract class FrameEvent extends Event {
    /** The rank that sent the frame. */
    @Label("Source")
    public int source;

    /** The rank the frame goes to. */
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

    /**
     * {@code System.nanoTime()} at the start: the machine's monotonic clock, which the JVMs of one
     * machine share, where the recordings' own start times may be a millisecond apart between JVMs.
     */
    @Label("Clock")
    @Description("System.nanoTime() at the start, comparable between the JVMs of one machine")
    public long clock;

    FrameEvent() {
    }
}
