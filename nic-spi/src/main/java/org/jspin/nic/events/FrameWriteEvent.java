package org.jspin.nic.events;

import jdk.jfr.Category;
import jdk.jfr.DataAmount;
import jdk.jfr.Description;
import jdk.jfr.Enabled;
import jdk.jfr.Event;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.StackTrace;

/**
 * A socket fabric wrote a frame with a payload: the duration of the write call, which on a rank
 * that drives its own I/O includes the system calls that hand the frame to the kernel (and on
 * loopback the kernel's whole TCP path, receive side included).
 */
@Name("jspin.FrameWrite")
@Label("Frame Write")
@Category({"jspin", "Fabric"})
@Description("A socket fabric wrote a frame with a payload; the duration of the write call")
@Enabled(false)
@StackTrace(false)
public final class FrameWriteEvent extends Event {
    /** The writing rank. */
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

    /** Bytes still queued in the process for this peer when the call returned (0: all went to the kernel). */
    @Label("Pending")
    @DataAmount(DataAmount.BYTES)
    public long pending;

    /**
     * {@code System.nanoTime()} at the start: the machine's monotonic clock, which the JVMs of one
     * machine share, where the recordings' own start times may be a millisecond apart between JVMs.
     */
    @Label("Clock")
    @Description("System.nanoTime() at the start, comparable between the JVMs of one machine")
    public long clock;
}
