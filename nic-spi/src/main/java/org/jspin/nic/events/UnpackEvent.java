package org.jspin.nic.events;

import jdk.jfr.Description;
import jdk.jfr.Label;
import jdk.jfr.Name;

/** The CPU unpacked part of a message from a packet into the receive buffer (one kernel call's duration). */
@Name("jspin.Unpack")
@Label("Unpack")
@Description("The CPU unpacked bytes of a packet into a non-contiguous receive buffer")
public final class UnpackEvent extends KernelCallEvent {
}
