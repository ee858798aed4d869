package org.jspin.nic.events;

import jdk.jfr.DataAmount;
import jdk.jfr.Description;
import jdk.jfr.Label;
import jdk.jfr.Name;

/**
 * A socket fabric wrote a frame with a payload: the duration of the write call, which on a rank
 * that drives its own I/O includes the system calls that hand the frame to the kernel (and on
 * loopback the kernel's whole TCP path, receive side included). A frame the fabric holds back to
 * write with the next ones ({@code Fabric.flush}) shows only its queueing, and its bytes as pending.
 */
@Name("jspin.FrameWrite")
@Label("Frame Write")
@Description("A socket fabric wrote a frame with a payload; the duration of the write call")
public final class FrameWriteEvent extends FrameEvent {
    /** Bytes still queued in the process for this peer when the call returned (0: all went to the kernel). */
    @Label("Pending")
    @DataAmount(DataAmount.BYTES)
    public long pending;
}
