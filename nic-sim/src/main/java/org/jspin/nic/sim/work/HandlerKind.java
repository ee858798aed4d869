package org.jspin.nic.sim.work;

/** The sPIN handlers a NIC runs for a message. */
public enum HandlerKind {
    /** Once, on a receive's first packet: sets the message up. */
    HEADER,
    /** On every inbound packet: scatters its payload into the receive buffer by DMA writes. */
    PAYLOAD,
    /** Once, after the last payload handler and its DMA writes: completes the receive. */
    COMPLETION,
    /** On every outbound packet (outbound sPIN): gathers its payload from the send buffer by DMA reads. */
    OUTBOUND
}
