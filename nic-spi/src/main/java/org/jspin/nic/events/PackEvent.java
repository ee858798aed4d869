package org.jspin.nic.events;

import jdk.jfr.Description;
import jdk.jfr.Label;
import jdk.jfr.Name;

/** The CPU packed part of a message into a packet's staging buffer (one kernel call's duration). */
@Name("jspin.Pack")
@Label("Pack")
@Description("The CPU packed bytes of a non-contiguous send into a packet's staging buffer")
public final class PackEvent extends KernelCallEvent {
}
