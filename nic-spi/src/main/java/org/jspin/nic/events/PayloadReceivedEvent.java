package org.jspin.nic.events;

import jdk.jfr.Description;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.Timespan;

/** A socket fabric has a frame's payload whole, read from the socket since its header arrived. */
@Name("jspin.PayloadReceived")
@Label("Payload Received")
@Description("A socket fabric has read a frame's whole payload; how long since its header")
public final class PayloadReceivedEvent extends FrameEvent {
    /** Whether the payload was read straight into the receive buffer (landed) rather than a read buffer. */
    @Label("Landed")
    public boolean landed;

    /** Time from the header's arrival to the payload's last byte (the event's {@link #clock} is the header's arrival). */
    @Label("Since Header")
    @Timespan(Timespan.NANOSECONDS)
    public long sinceHeader;
}
